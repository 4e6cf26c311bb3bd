#!/usr/bin/env bash
# What logins cost the moves, side by side in one run: each round, quarto-server plays the same
# moves twice, a fresh server each time, once with nobody logging in and once with a steady 20
# logins a second (bench/login_load: right passwords, from one address) for the whole warm-up
# and measured window. Each login is one Argon2id hash on the password pool (--password-threads
# 1, --password-queue 64: the defaults). Both runs make the same accounts first. Then a burst
# far above what one hashing thread can do, against a queue of 4: the excess must be refused
# with 429 at once, not queued.
#   bench/logins.sh                       3 rounds of 1,000 rooms at 100 ms think time, then the
#                                         burst: about 2.5 minutes (the report: build/bench/logins.md)
#   bench/logins.sh --repeat 5 --logins-per-s 40 --think-ms 0
#   bench/logins.sh --hash-nice 19        the password threads reniced to 19 in every run, so
#                                         that the event loops take a core from them first
#   options: --repeat N (3)  --logins-per-s R (20)  --accounts N (20)  --rooms N (1000)
#            --think-ms MS (100)  --duration S (15)  --warmup S (4)  --burst-per-s R (200)
#            --burst-seconds S (3)  --burst-queue N (4)  --hash-nice N  --out FILE  --keep DIR
#   BENCH_BUILD=DIR JOBS=N: build and run in DIR with N jobs (bench/servers.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/servers.sh
source bench/servers.sh

repeats=3 rate=20 accounts=20 rooms=1000 think=100 duration=15 warmup=4
burst_rate=200 burst_seconds=3 burst_queue=4
out=$root/build/bench/logins.md
keep=
hash_nice=
while (($#)); do
    case $1 in
        --repeat) repeats=$2; shift ;;
        --logins-per-s) rate=$2; shift ;;
        --accounts) accounts=$2; shift ;;
        --rooms) rooms=$2; shift ;;
        --think-ms) think=$2; shift ;;
        --duration) duration=$2; shift ;;
        --warmup) warmup=$2; shift ;;
        --burst-per-s) burst_rate=$2; shift ;;
        --burst-seconds) burst_seconds=$2; shift ;;
        --burst-queue) burst_queue=$2; shift ;;
        --hash-nice) hash_nice=$2; shift ;;
        --out) out=$2; shift ;;
        --keep) keep=$2; shift ;;
        -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
        *) echo "logins.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
[[ $repeats =~ ^[1-9][0-9]*$ ]] || { echo "logins.sh: --repeat needs a positive number" >&2; exit 2; }
mkdir -p "$(dirname "$out")"
command -v jq >/dev/null || { echo "logins.sh: needs jq (deploy/deps.sh --bench)" >&2; exit 1; }
ensure_servers cpp
cmake --build "$bench_build" --target login_load -j "${JOBS:-$(nproc)}" >>"$bench_build/bench-build.log" 2>&1 ||
    { tail -n 40 "$bench_build/bench-build.log" >&2; exit 1; }
login_bin=$bench_build/bin/login_load
ulimit -n "$(ulimit -Hn)"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

work=$(mktemp -d /tmp/quarto-logins-bench.XXXXXX)
[[ -n $keep ]] && { mkdir -p "$keep"; rm -rf "$work"; work=$keep; }
logins_pid=
cleanup() {
    if [[ -n $logins_pid ]]; then kill "$logins_pid" 2>/dev/null || true; fi
    if [[ -n $server_pid ]]; then kill -9 "$server_pid" 2>/dev/null || true; fi
    [[ -z $keep ]] && rm -rf "$work"
    return 0
}
trap cleanup EXIT

load_args=(--rooms "$rooms" --duration "$duration" --warmup "$warmup" --think-ms "$think" --move-ms 60000 --connect-rate 2000)
pool_args=(--password-threads 1 --password-queue 64)

# --hash-nice: the server's password threads (quarto-pwd-N) at that nice value.
renice_hashing() {
    [[ -n $hash_nice ]] || return 0
    local task
    for task in /proc/"$server_pid"/task/*; do
        [[ $(cat "$task/comm") == quarto-pwd-* ]] && renice -n "$hash_nice" -p "${task##*/}" >/dev/null
    done
    return 0
}

# One run: a fresh server, the accounts made, then the moves; with logins (MODE "on") they start
# once quarto-load has set its rooms up and stop when it is done, so they cover its warm-up and
# its whole measured window.
run() { # MODE BASE
    local mode=$1 base=$2
    cpp_extra_args=("${pool_args[@]}")
    start_server cpp "$base.server.log"
    renice_hashing
    "$login_bin" --port "$port" --accounts "$accounts" --sign-up --json "$base.signup.json" >/dev/null ||
        { echo "logins.sh: the accounts could not be made" >&2; exit 1; }
    [[ $(jq .sign_up.created "$base.signup.json") == "$accounts" ]] ||
        { echo "logins.sh: not every account was made:" >&2; cat "$base.signup.json" >&2; exit 1; }
    "$load_bin" --url "ws://127.0.0.1:$port/ws" "${load_args[@]}" --server-pid "$server_pid" \
        --json "$base.json" >"$base.txt" 2>"$base.err" &
    local load_pid=$!
    if [[ $mode == on ]]; then
        for _ in $(seq 600); do
            grep -q 'ready:' "$base.err" 2>/dev/null && break
            kill -0 "$load_pid" 2>/dev/null || break
            sleep 0.05
        done
        "$login_bin" --port "$port" --accounts "$accounts" --rate "$rate" --json "$base.logins.json" >/dev/null 2>"$base.logins.err" &
        logins_pid=$!
    fi
    wait "$load_pid" || { cat "$base.err" >&2; exit 1; }
    if [[ -n $logins_pid ]]; then
        kill -TERM "$logins_pid"
        wait "$logins_pid" || { cat "$base.logins.err" >&2; exit 1; }
        logins_pid=
    fi
    stop_server
}

for ((rep = 1; rep <= repeats; rep++)); do
    # Alternate which goes first, so that the machine's drift falls on both alike.
    modes=(off on)
    ((rep % 2)) || modes=(on off)
    for mode in "${modes[@]}"; do
        echo "== logins $mode (round $rep of $repeats)" >&2
        run "$mode" "$work/$mode.$rep"
    done
done

# The burst: a queue of $burst_queue, $burst_rate logins a second for $burst_seconds s.
echo "== burst: $burst_rate logins/s for $burst_seconds s, --password-queue $burst_queue" >&2
cpp_extra_args=(--password-threads 1 --password-queue "$burst_queue")
start_server cpp "$work/burst.server.log"
renice_hashing
"$login_bin" --port "$port" --accounts "$accounts" --sign-up >/dev/null
"$login_bin" --port "$port" --accounts "$accounts" --rate "$burst_rate" --duration "$burst_seconds" \
    --json "$work/burst.json" >/dev/null
stop_server

# ---- the figures ----
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "n/a" }'; }
fig() { jq -r "$2" "$1"; } # FILE JQ
# The quarto-load JSON's per-thread CPU a move, user + system, of the threads whose name starts
# with PREFIX.
threads_us() { echo ".server_threads_cpu_us_per_move | to_entries | map(select(.key | startswith(\"$1\")) | .value.user + .value.system) | add // 0"; }
loops_jq=$(threads_us quarto-shard-)
hash_jq=$(threads_us quarto-pwd-)
every() { # MODE JQ FORMAT: every round's figure, " / " between
    local r line=
    for ((r = 1; r <= repeats; r++)); do line+="${line:+ / }$(fig "$work/$1.$r.json" "$2" | xargs printf "$3")"; done
    echo "$line"
}
med() { # MODE JQ FORMAT: the median of the rounds
    local r
    for ((r = 1; r <= repeats; r++)); do fig "$work/$1.$r.json" "$2"; done | median | xargs printf "$3"
}
rows=()
for mode in off on; do
    label=none
    [[ $mode == on ]] && label="$rate/s"
    rows+=("| $label | $(med "$mode" .moves_per_s %.0f) | $(med "$mode" '.latency_us.p50 / 1000' %.2f) | $(med "$mode" '.latency_us.p99 / 1000' %.2f) | $(every "$mode" '.latency_us.p99 / 1000' %.2f) | $(med "$mode" .server_cpu_user_us_per_move %.1f) | $(med "$mode" .server_cpu_sys_us_per_move %.1f) | **$(med "$mode" .server_cpu_us_per_move %.1f)** | $(every "$mode" .server_cpu_us_per_move %.1f) | $(med "$mode" "$loops_jq" %.1f) | $(med "$mode" ".server_cpu_us_per_move - ($hash_jq)" %.1f) | $(med "$mode" "$hash_jq" %.1f) | $(med "$mode" .server_cpu_wait_s_per_s %.2f) | $(med "$mode" '.errors_total + .seq_gaps + .desyncs + .connect_failures + .disconnects' %.0f) |")
done

# Within each round, with logins over without.
ratio_line() { # LABEL JQ
    local r v=()
    for ((r = 1; r <= repeats; r++)); do
        v+=("$(awk -v a="$(fig "$work/on.$r.json" "$2")" -v b="$(fig "$work/off.$r.json" "$2")" 'BEGIN { printf "%.2f", a / b }')")
    done
    echo "- $1: **$(printf '%s\n' "${v[@]}" | median)** (rounds: $(printf '%s / ' "${v[@]}" | sed 's| / $||'))"
}
ratios=(
    "$(ratio_line "the event loops' CPU a move (quarto-shard-*)" "$loops_jq")"
    "$(ratio_line "the server's CPU a move without the hashing thread" ".server_cpu_us_per_move - ($hash_jq)")"
    "$(ratio_line "the server's CPU a move, all of it" .server_cpu_us_per_move)"
    "$(ratio_line "p50 action → opponent" .latency_us.p50)"
    "$(ratio_line "p99 action → opponent" .latency_us.p99)"
)

# The logins of the "on" runs, round by round.
login_rows=()
for ((r = 1; r <= repeats; r++)); do
    f=$work/on.$r.logins.json
    m=$work/on.$r.json
    # The hashing thread's CPU over the moves' window, per login done in it (at the logins' rate).
    hash_ms=$(jq -r --argjson ok_per_s "$(fig "$f" .logins.ok_per_s)" \
        "if \$ok_per_s > 0 then ($hash_jq) * .moves_per_s / 1000 / \$ok_per_s * 10 | round / 10 else \"n/a\" end" "$m")
    login_rows+=("| $r | $(fig "$f" .logins.seconds | xargs printf %.1f) | $(fig "$f" .logins.sent) | $(fig "$f" .logins.ok) | $(fig "$f" .logins.wrong_credentials) | $(fig "$f" .logins.rate_limited) | $(fig "$f" '(.logins.other | add // 0) + .logins.failed + .logins.unanswered') | $(fig "$f" .logins.ok_per_s | xargs printf %.1f) | $(fig "$f" .logins.latency_ms.ok.p50 | xargs printf %.1f) | $(fig "$f" .logins.latency_ms.ok.p99 | xargs printf %.1f) | $(fig "$f" .logins.latency_ms.ok.max | xargs printf %.1f) | $hash_ms | $(fig "$m" "($hash_jq) * .moves_per_s / 1e6 * 100 | round / 100") |")
done

b=$work/burst.json
burst_line() { fig "$b" "$1"; }
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=
if git status --porcelain 2>/dev/null | grep -q .; then dirty=" (with uncommitted changes)"; fi
{
    echo "# Logins beside the moves (bench/logins.sh)"
    echo
    echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')),"
    echo "commit $commit$dirty; load average before: $load_before, after: $(cut -d' ' -f1-3 /proc/loadavg)."
    echo "Release build, $repeats rounds, the two runs of a round alternating first.${hash_nice:+ The password threads reniced to $hash_nice (\`--hash-nice\`) in every run.} Each run: a fresh server"
    echo
    echo '```'
    echo "build/release/bin/quarto-server --host 127.0.0.1 --port 0 --rate-limit 100000 --rate-burst 100000 --max-rooms-per-address 0 --log-level warn ${pool_args[*]} --db SCRATCH/RUN.db"
    echo "build/release/bin/login_load --port PORT --accounts $accounts --sign-up"
    echo "build/release/bin/quarto-load --url ws://127.0.0.1:PORT/ws ${load_args[*]} --server-pid PID"
    echo "build/release/bin/login_load --port PORT --accounts $accounts --rate $rate   # with logins: from quarto-load's \"ready\" to its end"
    echo '```'
    echo
    echo "Medians of the rounds. CPU: the server process's µs a move over quarto-load's window, user and"
    echo "system, then by thread (\`/proc/PID/task/*/stat\`): the event loops (\`quarto-shard-*\`), everything"
    echo "but the password pool's thread, and that thread (\`quarto-pwd-0\`, Argon2id). CPU wait: seconds a"
    echo "second the server's threads were runnable but had no core."
    echo
    echo "| logins | moves/s | p50 ms | p99 ms | p99 by round | CPU µs a move: user | system | **total** | total by round | event loops | all but hashing | hashing | server CPU wait s/s | problems |"
    echo "|---|---:|---:|---:|---|---:|---:|---:|---|---:|---:|---:|---:|---:|"
    printf '%s\n' "${rows[@]}"
    echo
    echo "With logins over without, within each round, then the median:"
    echo
    printf '%s\n' "${ratios[@]}"
    echo
    echo "The logins ($rate a second asked, the $accounts accounts in turn, right passwords, one address),"
    echo "by round. Latency from each login's due time to its answer; hashing: the password thread's CPU"
    echo "over the moves' window per login done, and in cores (seconds a second)."
    echo
    echo "| round | seconds | sent | 200 | 401 | 429 | other | done a second | p50 ms | p99 ms | max ms | hashing ms a login | hashing cores |"
    echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    printf '%s\n' "${login_rows[@]}"
    echo
    echo "## A burst against a short queue"
    echo
    echo '```'
    echo "build/release/bin/quarto-server ... --password-threads 1 --password-queue $burst_queue"
    echo "build/release/bin/login_load --port PORT --accounts $accounts --rate $burst_rate --duration $burst_seconds"
    echo '```'
    echo
    echo "- sent $(burst_line .logins.sent) in $(burst_line .logins.seconds) s: $(burst_line .logins.ok) logged in (200), $(burst_line .logins.rate_limited) refused (429 \`rate_limited\`), $(burst_line .logins.wrong_credentials) 401, $(burst_line '(.logins.other | add // 0)') other, $(burst_line .logins.failed) failed, $(burst_line .logins.unanswered) unanswered"
    echo "- past the queue a login is refused without waiting for a hash: the 429s answered in p50 $(burst_line .logins.latency_ms.rate_limited.p50 | xargs printf %.2f) ms, p99 $(burst_line .logins.latency_ms.rate_limited.p99 | xargs printf %.2f) ms, at most $(burst_line .logins.latency_ms.rate_limited.max | xargs printf %.2f) ms"
    echo "- the 200s in p50 $(burst_line .logins.latency_ms.ok.p50 | xargs printf %.1f) ms, p99 $(burst_line .logins.latency_ms.ok.p99 | xargs printf %.1f) ms, at most $(burst_line .logins.latency_ms.ok.max | xargs printf %.1f) ms; $(burst_line .logins.ok_per_s | xargs printf %.1f) a second, what one hashing thread does"
} >"$out"
echo "logins.sh: wrote $out" >&2
cat "$out"
