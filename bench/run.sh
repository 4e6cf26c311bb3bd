#!/usr/bin/env bash
# The standard benchmark: quarto-server and the two baselines (bench/baselines: bare Node.js ws, Go
# gorilla/websocket) side by side, each scenario run against each server in every round with the
# same quarto-load command, a fresh server on 127.0.0.1 (free port) each time; writes a report
# with the machine, the commands and the numbers to build/bench/run.md (bench/RESULTS.md keeps
# today's figures).
#
#   bench/run.sh            the standard set, 3 rounds (about 16 minutes with all three servers)
#   bench/run.sh --quick    small versions of each scenario, once (about 2 minutes), written to
#                           /tmp/quarto-bench-quick.md unless --out says otherwise
#   options: --servers LIST   which servers, comma-separated among cpp, node, go (default all)
#            --base-server PATH  also another quarto-server build (say, of the commit before a
#                             change: `git worktree add`, a Release build of quarto-server), run
#                             as server "base" wherever quarto-server runs; the report gives the
#                             checkout's CPU per move over the base's, per round
#            --scenarios LIST which scenarios (default r100,r100-s2,r1000,r1000-think100,
#                             r1000-cross,r1000-think100-cross; also r10, r1000-1thread,
#                             r1000-think100-1thread, r5000). The -cross ones run quarto-server
#                             alone, with --shard-migration off: each client stays on the shard
#                             that accepted it, so half the rooms' messages cross between shards.
#            --no-idle        skip the idle hold
#            --out FILE       where to write the report
#            --keep DIR       keep each run's JSON and logs in DIR
#            --repeat N       rounds (default 3; 1 with --quick)
#
# This machine's CPU time per move moves by 15-40 % between identical runs, so the set is run
# several times, round after round, the servers in a different order each round; each row shows
# the run with the median server CPU per move (and every run's figure beside it), and ratios
# between servers are taken within a round.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=bench/servers.sh
source "$root/bench/servers.sh"

quick=0 idle=1 out= keep= repeats=
servers=("${all_servers[@]}")
chosen=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --quick) quick=1 ;;
        --servers) IFS=, read -r -a servers <<<"$2"; shift ;;
        --base-server) base_server_bin=$(realpath "$2"); shift ;;
        --scenarios) IFS=, read -r -a chosen <<<"$2"; shift ;;
        --no-idle) idle=0 ;;
        --out) out=$2; shift ;;
        --keep) keep=$2; shift ;;
        --repeat) repeats=$2; shift ;;
        -h|--help) sed -n '2,29p' "$0"; exit 0 ;;
        *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
[[ -n $out ]] || { if ((quick)); then out=/tmp/quarto-bench-quick.md; else out=$root/build/bench/run.md; fi; }
mkdir -p "$(dirname "$out")"
[[ -n $repeats ]] || { if ((quick)); then repeats=1; else repeats=3; fi; }
[[ $repeats =~ ^[1-9][0-9]*$ ]] || { echo "run.sh: --repeat needs a positive number" >&2; exit 2; }

# name: rooms spectators duration warmup think server-threads ("" = the server's default) and, for
# quarto-server alone, its --shard-migration ("" = on)
declare -A scenario_spec=(
    [r10]="10 0 15 3 0 ''" [r100]="100 0 15 3 0 ''" [r100-s2]="100 2 15 3 0 ''"
    [r1000]="1000 0 15 4 0 ''" [r1000-think100]="1000 0 15 4 100 ''"
    [r1000-cross]="1000 0 15 4 0 '' off" [r1000-think100-cross]="1000 0 15 4 100 '' off"
    [r1000-1thread]="1000 0 15 4 0 1" [r1000-think100-1thread]="1000 0 15 4 100 1"
    [r5000]="5000 0 15 5 0 ''"
    [q-r100]="100 0 3 1 0 ''" [q-r100-s2]="100 2 3 1 0 ''" [q-r200]="200 0 3 1 0 ''" [q-r200-think50]="200 0 3 1 50 ''"
)
if ((${#chosen[@]} == 0)); then
    if ((quick)); then chosen=(q-r100 q-r100-s2 q-r200 q-r200-think50); else chosen=(r100 r100-s2 r1000 r1000-think100 r1000-cross r1000-think100-cross); fi
fi
[[ -n $base_server_bin && " ${servers[*]} " != *" base "* ]] && servers+=(base)
for name in "${chosen[@]}"; do [[ -n ${scenario_spec[$name]:-} ]] || { echo "run.sh: unknown scenario $name" >&2; exit 2; }; done
ensure_servers "${servers[@]}"

ulimit -n "$(ulimit -Hn)"
nofile=$(ulimit -n)
load_before=$(cut -d" " -f1-3 /proc/loadavg)

work=$(mktemp -d /tmp/quarto-bench.XXXXXX)
[[ -n $keep ]] && { mkdir -p "$keep"; rm -rf "$work"; work=$keep; }
load_pids=()
cleanup() {
    for p in "${load_pids[@]}"; do kill "$p" 2>/dev/null || true; done
    if [[ -n $server_pid ]] && kill -0 "$server_pid" 2>/dev/null; then kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; fi
    [[ -z $keep ]] && rm -rf "$work"
    return 0
}
trap cleanup EXIT

status_kib() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }

commands=()   # the exact quarto-load commands, for the report
rows=()       # result table rows
details=()    # each median run as quarto-load printed it
rep=1         # the round being run

# run_scenario NAME SERVER: one run of round $rep.
# for_server NAME SERVER: whether the scenario runs on that server (a migration setting is
# quarto-server's alone).
for_server() {
    local migration
    read -r _ _ _ _ _ _ migration <<<"${scenario_spec[$1]}"
    [[ -z $migration || $2 == cpp || $2 == base ]]
}

run_scenario() {
    local name=$1 server=$2 rooms spectators duration warmup think threads migration
    read -r rooms spectators duration warmup think threads migration <<<"${scenario_spec[$name]}"
    threads=${threads//\'/}
    for_server "$name" "$server" || return 0
    local base=$work/$name.$server.$rep
    start_server "$server" "$base.server.log" "$threads" "$migration"
    local args=(--rooms "$rooms" --spectators "$spectators" --duration "$duration" --warmup "$warmup"
        --think-ms "$think" --move-ms 60000 --connect-rate 2000)
    echo "== $name, $server (round $rep of $repeats)" >&2
    if ((rep == 1)) && [[ $server == "${servers[0]}" ]]; then
        commands+=("build/release/bin/quarto-load --url ws://127.0.0.1:PORT/ws ${args[*]} --server-pid PID --json $name.SERVER.json${threads:+   # servers on $threads thread(s)}${migration:+   # quarto-server with --shard-migration $migration}")
    fi
    "$load_bin" --url "ws://127.0.0.1:$port/ws" "${args[@]}" --server-pid "$server_pid" --json "$base.json" \
        >"$base.txt" 2>"$base.err" || { cat "$base.err" >&2; exit 1; }
    cat "$base.txt" >&2
    stop_server
}

# The JSON of NAME on SERVER with the median server CPU per move.
median_json() {
    local f
    for f in "$work/$1.$2".*.json; do echo "$(jq '.server_cpu_us_per_move // 0' "$f") $f"; done |
        sort -n | awk '{ runs[NR] = $2 } END { print runs[int((NR + 1) / 2)] }'
}
every_run() { # NAME SERVER JQ: the figure of every round, in round order
    local r
    for ((r = 1; r <= repeats; r++)); do jq "$3" "$work/$1.$2.$r.json"; done | paste -sd/ | sed 's|/| / |g'
}
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "n/a" }'; }

scenario_row() { # NAME SERVER
    local name=$1 server=$2 json
    for_server "$name" "$server" || return 0
    json=$(median_json "$name" "$server")
    local threads; threads=$(read -r _ _ _ _ _ t <<<"${scenario_spec[$name]}"; echo "${t//\'/}")
    [[ $server == node ]] && threads=1 # one JavaScript thread, whatever the scenario asks
    rows+=("$(jq -r --arg name "$name" --arg server "$(server_label "$server")" --arg threads "${threads:-cores}" \
        --arg cpu_all "$(every_run "$name" "$server" '.server_cpu_us_per_move // 0 | . * 10 | round / 10')" \
        --arg p99_all "$(every_run "$name" "$server" '.latency_us.p99 / 1000 * 10 | round / 10')" '
        def r1: if . == null then "n/a" else . * 10 | round / 10 end;
        [ $name, $server, $threads, .rooms, .spectators_per_room, .think_ms, .connections, (.moves_per_s | floor),
          (.latency_us.p50 / 1000 | r1), (.latency_us.p99 / 1000 | r1), $p99_all,
          (.server_cpu_user_us_per_move | r1), (.server_cpu_sys_us_per_move | r1),
          ("**" + (.server_cpu_us_per_move | r1 | tostring) + "**"), $cpu_all,
          (if .server_cpu_cores then (.server_cpu_cores * 100 | round / 100) else "n/a" end),
          (if .server_cpu_wait_s_per_s then (.server_cpu_wait_s_per_s * 100 | round / 100) else "n/a" end),
          (.load_cpu_us_per_move | r1),
          ((.server_peak_rss_kib // 0) / 1024 * 10 | round / 10),
          ((.errors_total) + .seq_gaps + .desyncs + .connect_failures + .disconnects),
          (.seat_mismatches // 0)
        ] | "| " + (map(tostring) | join(" | ")) + " |"' "$json")")
    details+=("### $name, $(server_label "$server") (the median of $repeats runs)" "" '```' "$(cat "${json%.json}.txt")" '```' "")
}

# idle_hold SERVER ROOMS PROCESSES: the rooms are set up (games started, nobody moves) by
# PROCESSES load generators at once; the server's RSS is read once all of them are ready.
idle_rows=()
declare -A idle_kib_per_conn idle_conns
idle_hold() {
    local server=$1 rooms=$2 processes=$3 per=$(( $2 / $3 ))
    start_server "$server" "$work/idle.$server.server.log"
    local before_kib; before_kib=$(status_kib "$server_pid" VmRSS)
    load_pids=()
    local i
    for ((i = 0; i < processes; i++)); do
        "$load_bin" --url "ws://127.0.0.1:$port/ws" --rooms "$per" --idle --duration 8 --warmup 2 --move-ms 60000 \
            --connect-rate 2000 --source-addresses 127.0.0.1-127.0.0.8 --server-pid "$server_pid" \
            --connect-timeout 120 --json "$work/idle.$server.$i.json" >"$work/idle.$server.$i.txt" 2>"$work/idle.$server.$i.err" &
        load_pids+=($!)
    done
    [[ $server == "${servers[0]}" ]] &&
        commands+=("$processes x build/release/bin/quarto-load --url ws://127.0.0.1:PORT/ws --rooms $per --idle --duration 8 --warmup 2 --move-ms 60000 --connect-rate 2000 --source-addresses 127.0.0.1-127.0.0.8 --server-pid PID --json idle.N.json  (at the same time)")
    echo "== idle hold, $server: $rooms rooms in $processes processes" >&2
    # Wait until every process says it is ready, then let the server settle.
    local ready=0
    for _ in $(seq 1500); do
        ready=$(cat "$work/idle.$server".*.err 2>/dev/null | grep -c 'ready:' || true)
        ((ready >= processes)) && break
        sleep 0.1
    done
    sleep 1
    local rss_kib hwm_kib fds
    rss_kib=$(status_kib "$server_pid" VmRSS)
    hwm_kib=$(status_kib "$server_pid" VmHWM)
    fds=$(find "/proc/$server_pid/fd" -lname 'socket:*' 2>/dev/null | wc -l)
    for p in "${load_pids[@]}"; do wait "$p" || true; done
    load_pids=()
    local connections=0 failures=0
    for ((i = 0; i < processes; i++)); do
        cat "$work/idle.$server.$i.txt" >&2
        connections=$((connections + $(jq .connections_ready "$work/idle.$server.$i.json")))
        failures=$((failures + $(jq '.connect_failures + .disconnects + .errors_total' "$work/idle.$server.$i.json")))
    done
    stop_server
    local per_conn per_room
    per_conn=$(awk -v a="$rss_kib" -v b="$before_kib" -v n="$connections" 'BEGIN { printf "%.1f", (a - b) / n }')
    per_room=$(awk -v a="$rss_kib" -v b="$before_kib" -v n="$rooms" 'BEGIN { printf "%.1f", (a - b) / n }')
    idle_kib_per_conn[$server]=$per_conn
    idle_conns[$server]=$connections
    idle_rows+=("| $(server_label "$server") | $rooms | $connections | $processes | $fds | $((before_kib / 1024)) | $((rss_kib / 1024)) | $((hwm_kib / 1024)) | $per_conn | $per_room | $failures |")
}

# ---- the rounds: every scenario against every server, the servers' order rotated each round ----
for ((rep = 1; rep <= repeats; rep++)); do
    order=("${servers[@]:$(( (rep - 1) % ${#servers[@]} ))}" "${servers[@]:0:$(( (rep - 1) % ${#servers[@]} ))}")
    for name in "${chosen[@]}"; do
        for server in "${order[@]}"; do run_scenario "$name" "$server"; done
    done
done
for name in "${chosen[@]}"; do
    for server in "${servers[@]}"; do scenario_row "$name" "$server"; done
done

if ((idle)); then
    if ((quick)); then idle_rooms=500; else
        # As many rooms as one server process can hold under its open-file limit (2 files a
        # room, a margin for the server's own), at most 9,500 (19,000 connections); 2 load
        # processes (each would need nearly the whole limit alone).
        idle_rooms=$(( (nofile - 600) / 2 ))
        ((idle_rooms > 9500)) && idle_rooms=9500
    fi
    for server in "${servers[@]}"; do idle_hold "$server" "$idle_rooms" 2; done
fi

# ---- against the targets: ratios within each round, then the median of the rounds ----
has() { [[ " ${servers[*]} " == *" $1 "* ]] && [[ " ${chosen[*]} " == *" $2 "* ]]; }
fig() { jq "$3" "$work/$1.$2.$4.json"; } # NAME SERVER JQ ROUND
# ratio_to_baseline NAME JQ: per round, quarto-server's figure over the lower of the baselines'.
ratio_to_baseline() {
    local r
    for ((r = 1; r <= repeats; r++)); do
        local best=
        for b in node go; do
            [[ " ${servers[*]} " == *" $b "* ]] || continue
            local v; v=$(fig "$1" "$b" "$2" "$r")
            [[ -z $best ]] && best=$v || best=$(awk -v a="$best" -v b="$v" 'BEGIN { print (b < a ? b : a) }')
        done
        awk -v a="$(fig "$1" cpp "$2" "$r")" -v b="$best" 'BEGIN { printf "%.2f\n", a / b }'
    done
}
ratios() { local m; m=$(median <<<"$1"); echo "**${m}x** (rounds: $(paste -sd' ' <<<"$1"))"; }
targets=()
baselines_on=0
[[ " ${servers[*]} " == *" node "* || " ${servers[*]} " == *" go "* ]] && baselines_on=1
if ((!quick)) && [[ " ${servers[*]} " == *" cpp "* ]]; then
    if has cpp r1000 && ((baselines_on)); then
        targets+=("- R = 1000, closed loop: quarto-server's user CPU per move is $(ratios "$(ratio_to_baseline r1000 .server_cpu_user_us_per_move)") the better baseline's (target at most 0.35x); user + system $(ratios "$(ratio_to_baseline r1000 .server_cpu_us_per_move)") (target at most 0.75x).")
    fi
    if has cpp r1000-think100; then
        p99=$(for ((r = 1; r <= repeats; r++)); do fig r1000-think100 cpp '.latency_us.p99 / 1000 * 100 | round / 100' "$r"; done)
        line="- R = 1000, 100 ms think time: p99 action → opponent **$(median <<<"$p99") ms** (rounds: $(paste -sd' ' <<<"$p99"); target at most 2 ms)"
        ((baselines_on)) && line+="; CPU per move $(ratios "$(ratio_to_baseline r1000-think100 .server_cpu_us_per_move)") the better baseline's (target at most 0.75x)"
        targets+=("$line.")
    fi
    if has cpp r100 && has cpp r100-s2; then
        line="- Spectators: CPU per move with S = 2 at R = 100 is"
        for s in "${servers[@]}"; do
            rs=$(for ((r = 1; r <= repeats; r++)); do
                awk -v a="$(fig r100-s2 "$s" .server_cpu_us_per_move "$r")" -v b="$(fig r100 "$s" .server_cpu_us_per_move "$r")" 'BEGIN { printf "%.2f\n", a / b }'
            done)
            line+=" $(ratios "$rs") that of S = 0 for $(server_label "$s");"
        done
        targets+=("${line%;} (target for quarto-server at most 1.5x).")
    fi
    [[ -n ${idle_kib_per_conn[cpp]:-} ]] &&
        targets+=("- Idle: **${idle_kib_per_conn[cpp]} KiB** of quarto-server's RSS per held connection at ${idle_conns[cpp]} connections (target at most 8 KiB at 19,000).")
    targets+=("- Instructions per client message: not measured here; \`bench/instructions.sh\` (target at most 8,000).")
    targets+=("- System calls per move: not measured here; \`bench/syscalls.sh\` (bench/RESULTS.md has the figures).")
fi
if [[ " ${servers[*]} " == *" cpp "* && " ${servers[*]} " == *" base "* ]]; then
    for name in "${chosen[@]}"; do
        for what in .server_cpu_user_us_per_move .server_cpu_sys_us_per_move .server_cpu_us_per_move; do
            rs=$(for ((r = 1; r <= repeats; r++)); do
                awk -v a="$(fig "$name" cpp "$what" "$r")" -v b="$(fig "$name" base "$what" "$r")" 'BEGIN { printf "%.2f\n", b ? a / b : 0 }'
            done)
            case $what in *user*) line="- $name: CPU per move of this build over the base build's: user $(ratios "$rs")" ;;
                *_sys_*) line+=", system $(ratios "$rs")" ;; *) line+=", user + system $(ratios "$rs")." ;; esac
        done
        targets+=("$line")
    done
fi

load_after=$(cut -d" " -f1-3 /proc/loadavg)
mem_gib=$(awk '/MemTotal/ { printf "%.1f", $2 / 1048576 }' /proc/meminfo)
cpu_model=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git -C "$root" status --porcelain 2>/dev/null | grep -q . && echo " (with uncommitted changes)" || true)
server_lines=()
for s in "${servers[@]}"; do server_command "$s" SCRATCH/NAME; server_lines+=("  - $(server_label "$s"): \`${server_cmd[*]#"$root"/}\`"); done
{
    echo "# quarto-server benchmark results"
    echo
    echo "Written by \`bench/run.sh$( ((quick)) && echo ' --quick')\` on $(date -u '+%Y-%m-%d %H:%M UTC'), commit $commit$dirty."
    echo
    echo "## Machine and servers"
    echo
    echo "- CPUs: $(nproc) (\`nproc\`), $cpu_model"
    echo "- Memory: $mem_gib GiB; kernel $(uname -r); $(g++ --version | head -n1); $(node --version 2>/dev/null | sed 's/^/Node.js /'); $(go version 2>/dev/null | cut -d' ' -f3)"
    echo "- Open files: soft limit raised to the hard limit, $nofile"
    echo "- Load average before the run: $load_before, after it: $load_after (the machine is shared with other builds and tests)"
    echo "- Server and load generator run on the same machine, quarto-load on one thread. A fresh server"
    echo "  for each run, each writing every finished game to a fresh archive:"
    printf '%s\n' "${server_lines[@]}" | sed 's|SCRATCH/NAME|SCRATCH/RUN|g'
    echo "  quarto-server archives in SQLite (a transaction per batch of games, on its own thread); the"
    echo "  baselines append a JSON line per game to a file, flushed once a second, which costs less."
    echo "  The baselines (bench/baselines/README.md) speak the part of protocol v1 the bots use, with"
    echo "  rules engines of their own: every action is judged, clocks and claim windows are timed."
    echo
    echo "## Playing rooms"
    echo
    echo "Each scenario ran $repeats times against each server (round after round; in each round every"
    echo "scenario ran against every server, one after another, in an order rotated each round). A row is"
    echo "the run with the median server CPU per move; the columns marked \"every run\" list each round's."
    echo
    echo "Rooms play as real games do: a 60 s move clock and the 10 s claim window (the default), default"
    echo "rules. Bots play random legal games: each bot acts as soon as the server's event makes it its"
    echo "turn (with a think time, that long after), calls every Quarto it makes, and both ask for a"
    echo "rematch at the end. A move is one accepted give or place. Latency: from a bot sending an action"
    echo "to the opponent receiving its event. CPU per move: the server process's user and system time"
    echo "(utime, stime from /proc/PID/stat) over the measured window divided by the moves in it. CPU wait:"
    echo "seconds per second that the server's threads were runnable but waiting for a CPU"
    echo "(/proc/PID/task/*/schedstat): high values mean the machine was short of CPU (server, load"
    echo "generator and other users on 2 cores). Problems: errors received + seq gaps + desyncs + connect"
    echo "failures + disconnects. Creator not seat 0: rooms where the server seated the joiner first."
    echo
    echo "With no think time the bots are closed-loop: every room always has one action in flight, so the"
    echo "server is saturated and latency is mostly queueing (Little's law: latency ≈ rooms ÷ actions per"
    echo "second). The think-time rows show latency below saturation."
    echo
    echo "| scenario | server | server threads | rooms | spect./room | think ms | conns | moves/s | p50 ms | p99 ms | p99 ms, every run | CPU µs/move user | system | total | total, every run | server cores | server CPU wait s/s | load-gen µs/move | server peak RSS MiB | problems | creator not seat 0 |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
    printf '%s\n' "${rows[@]}"
    echo
    if ((idle)); then
        echo "## Idle hold"
        echo
        echo "Rooms set up (2 bots each, game started, nobody moves) by several load-generator processes at"
        echo "once (client sockets spread over 127.0.0.1-127.0.0.8); the server's RSS is read once every"
        echo "process is ready."
        echo
        echo "| server | rooms | connections | load processes | server sockets | RSS before MiB | RSS held MiB | peak RSS MiB | KiB/connection | KiB/room | problems |"
        echo "|---|---|---|---|---|---|---|---|---|---|---|"
        printf '%s\n' "${idle_rows[@]}"
        echo
    fi
    if ((${#targets[@]})); then
        echo "## Against the targets"
        echo
        echo "Ratios are taken within each round (quarto-server against the lower of the two baselines' figures"
        echo "in that round), then the median of the rounds."
        echo
        printf '%s\n' "${targets[@]}"
        echo
    fi
    echo "## Commands"
    echo
    echo '```sh'
    echo "bench/run.sh$( ((quick)) && echo ' --quick')"
    echo "# which runs, for each scenario and server, a fresh server (PORT and PID found at start), then:"
    printf '%s\n' "${commands[@]}"
    echo '```'
    echo
    echo "## The median runs as quarto-load printed them"
    echo
    printf '%s\n' "${details[@]}"
} >"$out.tmp"
mv "$out.tmp" "$out"
echo "run.sh: wrote $out" >&2
