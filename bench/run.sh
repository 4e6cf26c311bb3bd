#!/usr/bin/env bash
# The standard benchmark of quarto-server: a fresh Release server on 127.0.0.1 (free port) for
# each scenario, driven by quarto-load; writes bench/RESULTS.md with the machine, the commands
# and the numbers.
#
#   bench/run.sh            the standard set, each scenario run 3 times (about 13 minutes)
#   bench/run.sh --quick    small versions of each scenario, once (about 1 minute), written to
#                           /tmp/quarto-bench-quick.md unless --out says otherwise
#   options: --out FILE     where to write the report
#            --keep DIR     keep each scenario's JSON and logs in DIR
#            --repeat N     run the set N times (default 3; 1 with --quick)
#
# This machine's CPU time per move moves by 15-40 % between identical runs, so the set is run
# several times, one round after another, and each row shows the run with the median server
# CPU per move (and every run's figure beside it); ratios are taken within a round.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$root/build/release
server_bin=$build/bin/quarto-server
load_bin=$build/bin/quarto-load

quick=0
out=
keep=
repeats=
while [[ $# -gt 0 ]]; do
    case $1 in
        --quick) quick=1 ;;
        --out) out=$2; shift ;;
        --keep) keep=$2; shift ;;
        --repeat) repeats=$2; shift ;;
        -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
        *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
[[ -n $out ]] || { if ((quick)); then out=/tmp/quarto-bench-quick.md; else out=$root/bench/RESULTS.md; fi; }
[[ -n $repeats ]] || { if ((quick)); then repeats=1; else repeats=3; fi; }
[[ $repeats =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --repeat needs a positive number" >&2; exit 2; }

if [[ ! -x $server_bin || ! -x $load_bin ]]; then
    echo "run.sh: building the Release server and load generator in $build" >&2
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$build" --target quarto-server quarto-load -j "${JOBS:-1}"
fi

ulimit -n "$(ulimit -Hn)"
nofile=$(ulimit -n)
load_before=$(cut -d" " -f1-3 /proc/loadavg)

work=$(mktemp -d /tmp/quarto-bench.XXXXXX)
[[ -n $keep ]] && { mkdir -p "$keep"; work=$keep; }
server_pid=
load_pids=()
cleanup() {
    for p in "${load_pids[@]}"; do kill "$p" 2>/dev/null || true; done
    if [[ -n $server_pid ]] && kill -0 "$server_pid" 2>/dev/null; then kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; fi
    [[ -z $keep ]] && rm -rf "$work"
    return 0
}
trap cleanup EXIT

server_args=(--host 127.0.0.1 --port 0 --rate-limit 100000 --rate-burst 100000 --log-level warn)

# The port a process listens on: its socket inodes (/proc/PID/fd) matched against the LISTEN
# rows of /proc/net/tcp. (--log-level warn hides the "listening on" line, which is info.)
listening_port() {
    local pid=$1 inodes row
    inodes=$(find "/proc/$pid/fd" -lname 'socket:*' -printf '%l\n' 2>/dev/null | sed 's/socket:\[\(.*\)\]/\1/' | sort -u)
    [[ -n $inodes ]] || return 1
    awk 'NR > 1 && $4 == "0A" { split($2, a, ":"); print $10, a[2] }' /proc/net/tcp |
        while read -r inode hexport; do
            if grep -qx "$inode" <<<"$inodes"; then echo $((16#$hexport)); break; fi
        done
}

start_server() { # LOG [EXTRA SERVER ARGS...]; sets server_pid and port
    local log=$1
    shift
    # A fresh archive per scenario, in the scratch directory (removed at the end).
    "$server_bin" "${server_args[@]}" "$@" --db "$log.db" 2>"$log" &
    server_pid=$!
    port=
    for _ in $(seq 100); do
        port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$log" | head -n1)
        [[ -n $port ]] || port=$(listening_port "$server_pid" || true)
        [[ -n $port ]] && return 0
        kill -0 "$server_pid" 2>/dev/null || { echo "server exited:" >&2; cat "$log" >&2; exit 1; }
        sleep 0.1
    done
    echo "run.sh: cannot find the server's port" >&2
    exit 1
}

stop_server() {
    kill -TERM "$server_pid"
    wait "$server_pid" || echo "run.sh: the server exited with status $?" >&2
    server_pid=
}

status_kib() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }

commands=()   # the exact commands, for the report
rows=()       # result table rows
details=()    # each scenario's table as printed by quarto-load

scenarios=()  # names, in order
declare -A scenario_threads
rep=1         # the round being run

# run_scenario NAME ROOMS SPECTATORS DURATION WARMUP [THINK_MS [SERVER_THREADS]]: one run, of round $rep
run_scenario() {
    local name=$1 rooms=$2 spectators=$3 duration=$4 warmup=$5 think=${6:-0} threads=${7:-}
    local json=$work/$name.$rep.json
    local extra=()
    [[ -n $threads ]] && extra=(--threads "$threads")
    start_server "$work/$name.$rep.server.log" "${extra[@]}"
    local cmd=("$load_bin" --url "ws://127.0.0.1:$port/ws" --rooms "$rooms" --spectators "$spectators"
        --duration "$duration" --warmup "$warmup" --think-ms "$think" --connect-rate 2000 --server-pid "$server_pid" --json "$json")
    echo "== $name (round $rep of $repeats): ${cmd[*]#$root/}" >&2
    if ((rep == 1)); then
        scenarios+=("$name")
        scenario_threads[$name]=$threads
        [[ -n $threads ]] && commands+=("# server started with --threads $threads:")
        commands+=("build/release/bin/quarto-load --url ws://127.0.0.1:PORT/ws --rooms $rooms --spectators $spectators --duration $duration --warmup $warmup --think-ms $think --connect-rate 2000 --server-pid PID --json $name.json")
    fi
    "${cmd[@]}" >"$work/$name.$rep.txt" 2>"$work/$name.$rep.err" || { cat "$work/$name.$rep.err" >&2; exit 1; }
    cat "$work/$name.$rep.txt" >&2
    stop_server
}

# The JSON of NAME's run with the median server CPU per move.
median_json() {
    local f
    for f in "$work/$1".*.json; do echo "$(jq '.server_cpu_us_per_move // 0' "$f") $f"; done |
        sort -n | awk '{ runs[NR] = $2 } END { print runs[int((NR + 1) / 2)] }'
}

# The table row of NAME: its median run, and every run's server CPU per move.
scenario_row() {
    local name=$1 threads=${scenario_threads[$1]} json all
    json=$(median_json "$name")
    all=$(for f in "$work/$name".*.json; do jq '.server_cpu_us_per_move // 0 | . * 10 | round / 10' "$f"; done | paste -sd/ | sed 's|/| / |g')
    rows+=("$(jq -r --arg name "$name" --arg all "$all" '[
        $name, ($threads | if . == "" then "cores" else . end), .rooms, .spectators_per_room, .think_ms, .connections,
        (.moves_per_s | floor),
        (.latency_us.p50 | floor), (.latency_us.p90 | floor), (.latency_us.p99 | floor), (.latency_us.max | floor),
        (if .server_cpu_us_per_move then (.server_cpu_us_per_move * 10 | round / 10) else "n/a" end),
        $all,
        (if .server_cpu_cores then (.server_cpu_cores * 100 | round / 100) else "n/a" end),
        (if .server_cpu_wait_s_per_s then (.server_cpu_wait_s_per_s * 100 | round / 100) else "n/a" end),
        (if .load_cpu_us_per_move then (.load_cpu_us_per_move * 10 | round / 10) else "n/a" end),
        (if .load_cpu_wait_s_per_s then (.load_cpu_wait_s_per_s * 100 | round / 100) else "n/a" end),
        ((.server_peak_rss_kib // 0) / 1024 * 10 | round / 10),
        ((.server_rss_kib_per_room // 0) | round),
        ((.errors_total) + .seq_gaps + .desyncs + .connect_failures + .disconnects),
        (.seat_mismatches // 0)
      ] | "| " + (map(tostring) | join(" | ")) + " |"' --arg threads "$threads" "$json")")
    details+=("### $name (the median of $repeats runs)" "" '```' "$(cat "${json%.json}.txt")" '```' "")
}

# idle_hold ROOMS PROCESSES: the rooms are set up (games started, nobody moves) by PROCESSES
# load generators at once; the server's RSS is read once all of them are ready.
idle_rows=()
idle_target=
idle_hold() {
    local rooms=$1 processes=$2 per=$(( $1 / $2 ))
    start_server "$work/idle.server.log"
    local before_kib; before_kib=$(status_kib "$server_pid" VmRSS)
    load_pids=()
    local i
    for ((i = 0; i < processes; i++)); do
        local cmd=("$load_bin" --url "ws://127.0.0.1:$port/ws" --rooms "$per" --idle --duration 8 --warmup 2
            --connect-rate 2000 --source-addresses 127.0.0.1-127.0.0.8 --server-pid "$server_pid"
            --connect-timeout 120 --json "$work/idle.$i.json")
        "${cmd[@]}" >"$work/idle.$i.txt" 2>"$work/idle.$i.err" &
        load_pids+=($!)
    done
    commands+=("$processes x build/release/bin/quarto-load --url ws://127.0.0.1:PORT/ws --rooms $per --idle --duration 8 --warmup 2 --connect-rate 2000 --source-addresses 127.0.0.1-127.0.0.8 --server-pid PID --json idle.N.json  (at the same time)")
    echo "== idle hold: $rooms rooms in $processes processes" >&2
    # Wait until every process says it is ready, then let the server settle.
    local ready=0
    for _ in $(seq 1500); do
        ready=$(cat "$work"/idle.*.err 2>/dev/null | grep -c 'ready:' || true)
        ((ready >= processes)) && break
        sleep 0.1
    done
    sleep 1
    local rss_kib hwm_kib fds
    rss_kib=$(status_kib "$server_pid" VmRSS)
    hwm_kib=$(status_kib "$server_pid" VmHWM)
    fds=$(find "/proc/$server_pid/fd" -lname 'socket:*' 2>/dev/null | wc -l)
    local ok=0
    for p in "${load_pids[@]}"; do wait "$p" && ok=$((ok + 1)); done
    load_pids=()
    local connections=0 failures=0
    for ((i = 0; i < processes; i++)); do
        cat "$work/idle.$i.txt" >&2
        connections=$((connections + $(jq .connections_ready "$work/idle.$i.json")))
        failures=$((failures + $(jq '.connect_failures + .disconnects + .errors_total' "$work/idle.$i.json")))
        details+=("### idle hold, process $i" "" '```' "$(cat "$work/idle.$i.txt")" '```' "")
    done
    stop_server
    local per_conn per_room
    per_conn=$(awk -v a="$rss_kib" -v b="$before_kib" -v n="$connections" 'BEGIN { printf "%.1f", (a - b) / n }')
    per_room=$(awk -v a="$rss_kib" -v b="$before_kib" -v n="$rooms" 'BEGIN { printf "%.1f", (a - b) / n }')
    idle_target="- Idle connections: $per_conn KiB of server RSS per connection with $connections connections held (target at most 25 KiB)."
    idle_rows+=("| $rooms | $connections | $processes | $fds | $((before_kib / 1024)) | $((rss_kib / 1024)) | $((hwm_kib / 1024)) | $per_conn | $per_room | $failures |")
}

standard_set() {
    local duration=20
    run_scenario r10 10 0 $duration 3
    run_scenario r100 100 0 $duration 3
    run_scenario r100-s2 100 2 $duration 3
    run_scenario r1000 1000 0 $duration 5
    run_scenario r1000-think100 1000 0 $duration 5 100
    # The same two on one I/O thread: with the load generator on the same 2 cores, a second
    # server thread mostly adds hand-offs between cores.
    run_scenario r1000-1thread 1000 0 $duration 5 0 1
    run_scenario r1000-think100-1thread 1000 0 $duration 5 100 1
    run_scenario r5000 5000 0 $duration 5
}

quick_set() {
    local duration=3 warmup=1
    run_scenario r10 10 0 $duration $warmup
    run_scenario r100 100 0 $duration $warmup
    run_scenario r100-s2 100 2 $duration $warmup
    run_scenario r200 200 0 $duration $warmup
    run_scenario r200-think50 200 0 $duration $warmup 50
}

for ((rep = 1; rep <= repeats; rep++)); do
    if ((quick)); then quick_set; else standard_set; fi
done
for name in "${scenarios[@]}"; do scenario_row "$name"; done

if ((quick)); then
    idle_hold 500 2
else
    # As many rooms as one server process can hold under its open-file limit (2 files a
    # room, a margin for the server's own), at most 9,500; 2 load processes (each would need
    # nearly the whole limit alone).
    idle_rooms=$(( (nofile - 600) / 2 ))
    ((idle_rooms > 9500)) && idle_rooms=9500
    idle_hold "$idle_rooms" 2
fi

# ---- the report ----
# The targets of issue 5, from the JSON of the runs that exist (the quick set has other names).
j() { local f; f=$(ls "$work/$1".*.json 2>/dev/null | head -n1); [[ -n $f ]] && jq -r "$2" "$(median_json "$1")" || echo "n/a"; }
targets=()
if ((!quick)); then
    targets+=("- Server CPU per move at R = 1000 (target 10 µs, aim 5 µs): $(j r1000 '.server_cpu_us_per_move*10|round/10') µs closed-loop; $(j r1000-think100 '.server_cpu_us_per_move*10|round/10') µs with 100 ms think time; on one I/O thread $(j r1000-1thread '.server_cpu_us_per_move*10|round/10') and $(j r1000-think100-1thread '.server_cpu_us_per_move*10|round/10') µs.")
    targets+=("- Latency action → opponent at R = 1000, p99 (target under 5 ms): $(j r1000-think100 '.latency_us.p99/1000*10|round/10') ms with 100 ms think time (p50 $(j r1000-think100 '.latency_us.p50/1000*10|round/10') ms; on one I/O thread p99 $(j r1000-think100-1thread '.latency_us.p99/1000*10|round/10') ms); $(j r1000 '.latency_us.p99/1000|round') ms closed-loop (saturated).")
    # Within each round, then the median of the rounds.
    ratios=$(for ((r = 1; r <= repeats; r++)); do
        awk -v a="$(jq '.server_cpu_us_per_move' "$work/r100-s2.$r.json")" -v b="$(jq '.server_cpu_us_per_move' "$work/r100.$r.json")" 'BEGIN { printf "%.2f\n", a / b }'
    done | sort -n)
    median_ratio=$(awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }' <<<"$ratios")
    targets+=("- Spectators: server CPU per move with S = 2 at R = 100 is ${median_ratio}x that of S = 0 (the median of the rounds' ratios: $(paste -sd' ' <<<"$ratios"); target at most 1.6x).")
fi

mem_gib=$(awk '/MemTotal/ { printf "%.1f", $2 / 1048576 }' /proc/meminfo)
cpu_model=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git -C "$root" status --porcelain 2>/dev/null | grep -q . && echo " (with uncommitted changes)" || true)
{
    echo "# quarto-server benchmark results"
    echo
    echo "Written by \`bench/run.sh$( ((quick)) && echo ' --quick')\` on $(date -u '+%Y-%m-%d %H:%M UTC'), commit $commit$dirty."
    echo
    echo "## Machine"
    echo
    echo "- CPUs: $(nproc) (\`nproc\`), $cpu_model"
    echo "- Memory: $mem_gib GiB; kernel $(uname -r); $(g++ --version | head -n1)"
    echo "- Open files: soft limit raised to the hard limit, $nofile"
    echo "- Load average before the run: $load_before (the machine is shared with other builds and tests)"
    echo "- Server and load generator run on the same machine: the server with its default threads"
    echo "  (one per core) unless the threads column says 1, quarto-load on one thread. A fresh server"
    echo "  for each scenario:"
    echo "  \`build/release/bin/quarto-server ${server_args[*]} --db SCRATCH/NAME.db\`"
    echo "  (each finished game is written to a fresh archive)"
    echo
    echo "## Playing rooms"
    echo
    echo "Each scenario ran $repeats times (the whole set, round after round); its row is the run with the"
    echo "median server CPU per move, and the column beside it lists every run's figure."
    echo
    echo "Bots play random legal games (untimed rooms, default rules) closed-loop: each bot acts as soon"
    echo "as the server's event makes it its turn, calls every Quarto it makes, and both ask for a"
    echo "rematch at the end (with a think time, each bot waits that long before each action). A move"
    echo "is one accepted give or place. Latency: from a bot sending an"
    echo "action to the opponent receiving its event, in µs. CPU per move: the process's utime+stime"
    echo "over the measured window divided by the moves in it. RSS/room: the server's RSS growth"
    echo "since before the run divided by the rooms. CPU wait: seconds per second that the process's"
    echo "threads were runnable but waiting for a CPU (/proc/PID/task/*/schedstat): high values mean"
    echo "the machine was short of CPU (server, load generator and other users on 2 cores), so"
    echo "throughput and latency there say more about the machine than the server. Problems: errors"
    echo "received + seq gaps + desyncs + connect failures + disconnects. Creator not seat 0: rooms"
    echo "where the server seated the joiner in seat 0, before the creator (the bots then play the"
    echo "seats their snapshots name)."
    echo
    echo "With no think time the bots are closed-loop: every room always has one action in flight, so"
    echo "the server is saturated and latency is mostly queueing (Little's law: latency ≈ rooms ÷"
    echo "actions per second). The think-time rows show latency below saturation."
    echo
    echo "| scenario | server threads | rooms | spect./room | think ms | conns | moves/s | p50 µs | p90 µs | p99 µs | max µs | server µs/move | server µs/move, every run | server cores | server CPU wait s/s | load-gen µs/move | load-gen CPU wait s/s | server peak RSS MiB | RSS KiB/room | problems | creator not seat 0 |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    printf '%s\n' "${rows[@]}"
    echo
    echo "## Idle hold"
    echo
    echo "Rooms set up (2 bots each, game started, nobody moves) by several load-generator processes at"
    echo "once (client sockets spread over 127.0.0.1-127.0.0.8); the server's RSS is read once every"
    echo "process is ready."
    echo
    echo "| rooms | connections | load processes | server sockets | RSS before MiB | RSS held MiB | peak RSS MiB | KiB/connection | KiB/room | problems |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    printf '%s\n' "${idle_rows[@]}"
    echo
    echo "## Against the targets of issue 5"
    echo
    printf '%s\n' "${targets[@]}" "$idle_target"
    echo
    echo "## Commands"
    echo
    echo '```sh'
    echo "bench/run.sh$( ((quick)) && echo ' --quick')"
    echo "# which runs, for each scenario, a fresh server (PORT and PID found at start), then:"
    printf '%s\n' "${commands[@]}"
    echo '```'
    echo
    echo "## Each run as quarto-load printed it"
    echo
    printf '%s\n' "${details[@]}"
} >"$out.tmp"
mv "$out.tmp" "$out"
echo "run.sh: wrote $out" >&2
