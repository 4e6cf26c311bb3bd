#!/usr/bin/env bash
# What the journal of live rooms costs, measured side by side in one run:
# quarto-server with --journal on and --journal off in turn, each round both, R = 1000 rooms
# closed-loop and with 100 ms think time; then a restart with many live rooms (the journal on):
# the load sets the rooms up and starts their games, the server is killed with SIGKILL and
# started again on the same file, and the time until it listens is taken (with its own log of
# the rooms restored).
#   bench/journal.sh                       3 rounds, 10,000 rooms for the restart: about 6 min
#                                          (the report: build/bench/journal.md)
#   bench/journal.sh --repeat 5 --restart-rooms 2000 --out /tmp/journal.md
#   bench/journal.sh --slow-sync-us 5000 --out /tmp/slow.md   every fsync of the server 5 ms
#                                          slower (bench/slow_sync.cpp): a disk with no cache
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/servers.sh
source bench/servers.sh

repeats=3
restart_rooms=10000
out=$root/build/bench/journal.md
slow_sync_us=
while (($#)); do
    case $1 in
        --repeat) repeats=$2; shift ;;
        --restart-rooms) restart_rooms=$2; shift ;;
        --out) out=$2; shift ;;
        --slow-sync-us) slow_sync_us=$2; shift ;;
        -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
        *) echo "journal.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
mkdir -p "$(dirname "$out")"
command -v jq >/dev/null || { echo "journal.sh: needs jq (deploy/deps.sh --bench)" >&2; exit 1; }
ensure_servers cpp
if [[ -n $slow_sync_us ]]; then
    cmake --build "$bench_build" --target slow_sync >/dev/null
    cpp_env=(LD_PRELOAD="$bench_build/lib/libslow_sync.so" SLOW_SYNC_US="$slow_sync_us")
fi
ulimit -n "$(ulimit -Hn)"
work=$(mktemp -d /tmp/quarto-journal-bench.XXXXXX)
trap 'if [[ -n $server_pid ]]; then kill -9 "$server_pid" 2>/dev/null || true; fi; rm -rf "$work"' EXIT

load_args() { # THINK_MS
    echo --rooms 1000 --duration 15 --warmup 4 --think-ms "$1" --move-ms 60000 --connect-rate 2000
}
for ((rep = 1; rep <= repeats; rep++)); do
    for think in 0 100; do
        # Alternate which goes first, so that the machine's drift falls on both alike.
        modes=(on off)
        ((rep % 2)) || modes=(off on)
        for mode in "${modes[@]}"; do
            cpp_extra_args=(--journal "$mode")
            base=$work/t$think.$mode.$rep
            start_server cpp "$base.server.log"
            echo "== think $think ms, journal $mode (round $rep of $repeats)" >&2
            # shellcheck disable=SC2046
            "$load_bin" --url "ws://127.0.0.1:$port/ws" $(load_args "$think") --server-pid "$server_pid" \
                --json "$base.json" >"$base.txt" 2>"$base.err" || { cat "$base.err" >&2; exit 1; }
            stop_server
        done
    done
done

figure() { jq -r "$2" "$1"; }
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "n/a" }'; }
rows=()
ratio_lines=()
for think in 0 100; do
    for mode in on off; do
        cpu=() user=() sys=() p99=() arrival=() rate=()
        for ((rep = 1; rep <= repeats; rep++)); do
            f=$work/t$think.$mode.$rep.json
            cpu+=("$(figure "$f" '.server_cpu_us_per_move')")
            user+=("$(figure "$f" '.server_cpu_user_us_per_move')")
            sys+=("$(figure "$f" '.server_cpu_sys_us_per_move')")
            p99+=("$(figure "$f" '.latency_us.p99 / 1000')")
            arrival+=("$(figure "$f" '.arrival_latency_us.p99 / 1000')")
            rate+=("$(figure "$f" '.moves_per_s')")
        done
        m() { printf '%s\n' "$@" | median; }
        rows+=("| $think ms | $mode | $(m "${rate[@]}" | xargs printf '%.0f') | $(m "${cpu[@]}" | xargs printf '%.1f') | $(m "${user[@]}" | xargs printf '%.1f') | $(m "${sys[@]}" | xargs printf '%.1f') | $(m "${p99[@]}" | xargs printf '%.2f') | $(m "${arrival[@]}" | xargs printf '%.2f') | $(printf '%.1f / ' "${cpu[@]}" | sed 's| / $||') | $(printf '%.2f / ' "${p99[@]}" | sed 's| / $||') | $(printf '%.2f / ' "${arrival[@]}" | sed 's| / $||') |")
    done
    ratios=()
    for ((rep = 1; rep <= repeats; rep++)); do
        on=$(figure "$work/t$think.on.$rep.json" '.server_cpu_us_per_move')
        off=$(figure "$work/t$think.off.$rep.json" '.server_cpu_us_per_move')
        ratios+=("$(awk -v a="$on" -v b="$off" 'BEGIN { printf "%.3f", a / b }')")
    done
    ratio_lines+=("- think $think ms: server CPU per move, journal on / off, by round: $(printf '%s / ' "${ratios[@]}" | sed 's| / $||'); median $(printf '%s\n' "${ratios[@]}" | median)")
done

# The restart: rooms set up with their games started (nobody moves: --idle), then kill -9 and
# the same --db again. The time to listen is taken from the launch to the server's own
# "listening on" log line (both wall clock, ms).
echo "== restart with $restart_rooms live rooms" >&2
cpp_extra_args=(--journal on --log-level info)
log=$work/restart.server.log
start_server cpp "$log"
"$load_bin" --url "ws://127.0.0.1:$port/ws" --rooms "$restart_rooms" --idle --duration 2 --warmup 1 \
    --move-ms 60000 --connect-rate 4000 --json "$work/restart.json" >"$work/restart.txt" 2>"$work/restart.err" ||
    { cat "$work/restart.err" >&2; exit 1; }
kill -9 "$server_pid"
wait "$server_pid" 2>/dev/null || true
server_pid=
db_kib=$(( $(du -k "$log.db" | cut -f1) + $( (du -k "$log.db-wal" 2>/dev/null || echo 0) | cut -f1) ))
launched_ms=$(( $(date +%s%N) / 1000000 ))
start_server cpp "$log"
listen_line=$(grep -m1 'listening on' "$log")
restored_line=$(grep -m1 'journal: ' "$log" || true)
listen_ms=$(date -d "$(sed 's/^\[\([^]]*\)\].*/\1/' <<<"$listen_line")" +%s%3N)
rss_kib=$(awk '$1 == "VmRSS:" { print $2 }' "/proc/$server_pid/status")
stop_server

{
    echo "# The journal's cost (bench/journal.sh)"
    echo
    echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')),"
    echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg). Release build, $repeats rounds, the two modes alternating"
    echo "first.${slow_sync_us:+ Every fsync and fdatasync of the server $slow_sync_us µs slower than the disk makes them (bench/slow_sync.cpp).} Each run: a fresh server and archive, then"
    echo
    echo '```'
    echo "build/release/bin/quarto-load --url ws://127.0.0.1:PORT/ws $(load_args THINK) --server-pid PID"
    echo '```'
    echo
    echo "| think | journal | moves/s | server CPU µs/move | user | sys | p99 action → opponent (ms) | p99 at arrival (ms) | CPU every round | p99 every round | at arrival every round |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|"
    printf '%s\n' "${rows[@]}"
    echo
    echo "The latency is quarto-load's, from a bot's action to its opponent's connection reading the event;"
    echo "\"at arrival\" ends it when the kernel received the event instead (\`arrival_latency_us\`), without"
    echo "the time quarto-load, one thread playing 2,000 bots, spent on the messages before it."
    echo
    echo "Medians of the rounds; the ratios are taken within each round:"
    echo
    printf '%s\n' "${ratio_lines[@]}"
    echo
    echo "Targets: at most 1.15 at 0 ms think time, p99 at most 3 ms at 100 ms think time with the journal on."
    echo
    echo "## Restart with $restart_rooms live rooms"
    echo
    echo "quarto-load \`--rooms $restart_rooms --idle\` set the rooms up and started their games; the server was"
    echo "killed with SIGKILL and started again on the same file ($db_kib KiB with its log)."
    echo
    echo "- from launch to listening: $((listen_ms - launched_ms)) ms (target: within 2 s)"
    echo "- the server's own line: \`${restored_line#*] }\`"
    echo "- resident memory once listening: $((rss_kib / 1024)) MiB"
} >"$out"
echo "journal.sh: wrote $out" >&2
cat "$out"
