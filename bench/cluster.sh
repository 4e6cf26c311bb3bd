#!/usr/bin/env bash
# What a cluster costs, side by side in one run: one quarto-server on its SQLite file,
# against two nodes on one Redis and one PostgreSQL behind HAProxy (deploy/cluster/haproxy.cfg),
# whose round robin puts the two players of every room on different nodes, so that every move
# crosses Redis twice (the mover's message to the room's node, the event back to the other
# player's). R = 1000 rooms (--rooms: one count or several), closed loop and with 100 ms think
# time (--think). Per move: the CPU of every process taking part (the server, or both nodes +
# Redis + PostgreSQL + HAProxy), user and system, from /proc; and p99 action -> opponent as
# quarto-load measures it. Redis and PostgreSQL are the tests' kind: scratch directories, Unix
# sockets, PostgreSQL's defaults.
#   bench/cluster.sh                  2 rounds: about 5 minutes (the report: build/bench/cluster.md)
#   bench/cluster.sh --repeat 3 --out /tmp/cluster.md
#   bench/cluster.sh --rooms '300 500 700' --think 100 --out /tmp/r.md    where the latency turns
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/servers.sh
source bench/servers.sh

repeats=2
room_counts=(1000)
thinks=(0 100)
out=$root/build/bench/cluster.md
while (($#)); do
    case $1 in
        --repeat) repeats=$2; shift ;;
        --rooms) read -r -a room_counts <<<"$2"; shift ;;
        --think) read -r -a thinks <<<"$2"; shift ;;
        --out) out=$2; shift ;;
        -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
        *) echo "cluster.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
mkdir -p "$(dirname "$out")"
# shellcheck source=bench/scratch_services.sh
source bench/scratch_services.sh
ensure_servers cpp
ulimit -n "$(ulimit -Hn)"
need_tools cluster.sh jq haproxy python3
start_scratch_postgres cluster-bench
start_scratch_redis
# CPU ticks (user, system) of the given processes and their children (PostgreSQL's backends).
ticks() {
    local p all=()
    for p in "$@"; do all+=("$p" $(pgrep -P "$p" | tr "\n" " " || true)); done
    for p in "${all[@]}"; do awk '{ print $14, $15 }' "/proc/$p/stat" 2>/dev/null || true; done |
        awk '{ u += $1; s += $2 } END { print u + 0, s + 0 }'
}
load_args() { # ROOMS THINK_MS
    echo --rooms "$1" --duration 15 --warmup 4 --think-ms "$2" --move-ms 60000 --connect-rate 2000
}
hz=$(getconf CLK_TCK)

# run_single BASE ROOMS THINK / run_cluster BASE ROOMS THINK: one load run; writes BASE.json (quarto-load's)
# and BASE.cpu.json (every process's CPU per move).
# measure BASE ROOMS THINK URL PART...: PART is NAME=PID[,PID...]; BASE.cpu.json gets each part's
# user and system CPU per move, and their sums (user_us_per_move, sys_us_per_move).
measure() {
    local base=$1 rooms=$2 think=$3 url=$4 part name pids first
    shift 4
    declare -A u0 s0
    for part in "$@"; do
        name=${part%%=*} pids=${part#*=}
        read -r "u0[$name]" "s0[$name]" < <(ticks ${pids//,/ })
    done
    first=${1#*=}
    first=${first%%,*}
    # shellcheck disable=SC2046
    "$load_bin" --url "$url" $(load_args "$rooms" "$think") --server-pid "$first" --json "$base.json" >"$base.txt" 2>"$base.err" ||
        { cat "$base.err" >&2; exit 1; }
    local moves parts=() u1 s1
    # The CPU is every process's over the whole run: per move of the whole run. The latency is
    # the window's, after the warm-up (the rooms' first moves all at once are queueing).
    moves=$(jq -r '.moves_total' "$base.json")
    for part in "$@"; do
        name=${part%%=*} pids=${part#*=}
        read -r u1 s1 < <(ticks ${pids//,/ })
        parts+=("$(jq -n --arg n "$name" --argjson u "$(((u1 - u0[$name]) * 1000000 / hz))" \
            --argjson s "$(((s1 - s0[$name]) * 1000000 / hz))" --argjson m "$moves" \
            '{($n): {user: ($u / $m), sys: ($s / $m)}}')")
    done
    printf '%s\n' "${parts[@]}" | jq -s 'add | . as $p | {parts: $p,
        user_us_per_move: ([$p[] | .user] | add), sys_us_per_move: ([$p[] | .sys] | add)}' >"$base.cpu.json"
}

run_single() {
    local base=$1 rooms=$2 think=$3
    cpp_extra_args=()
    cpp_db=
    start_server cpp "$base.server.log"
    measure "$base" "$rooms" "$think" "ws://127.0.0.1:$port/ws" "server=$server_pid"
    stop_server
}

run_cluster() {
    local base=$1 rooms=$2 think=$3 n1 n2 p1 p2 hport haproxy_pid
    local db="postgresql:///run_$(basename "$base" | tr -c 'a-z0-9\n' '_')?host=$pg_socket_dir&user=quarto"
    sql "CREATE DATABASE $(sed 's|postgresql:///\([^?]*\).*|\1|' <<<"$db")"
    redis-cli -s "$redis_socket" flushall >/dev/null
    cpp_db=$db
    cpp_extra_args=(--redis "unix://$redis_socket" --node-id n1 --trust-proxy)
    start_server cpp "$base.n1.log"
    n1=$server_pid p1=$port
    pids_to_kill+=("$n1")
    cpp_extra_args=(--redis "unix://$redis_socket" --node-id n2 --trust-proxy)
    start_server cpp "$base.n2.log"
    n2=$server_pid p2=$port
    pids_to_kill+=("$n2")
    hport=$(free_port)
    # Two nodes: the third server of the configuration points at a closed port, and is down
    # after its first two checks (1 s apart), before the load starts.
    QUARTO_LISTEN=127.0.0.1:$hport QUARTO_NODE1=127.0.0.1:$p1 QUARTO_NODE2=127.0.0.1:$p2 QUARTO_NODE3=127.0.0.1:1 \
        haproxy -db -f "$root/deploy/cluster/haproxy.cfg" >"$base.haproxy.log" 2>&1 &
    haproxy_pid=$!
    pids_to_kill+=("$haproxy_pid")
    sleep 3
    measure "$base" "$rooms" "$think" "ws://127.0.0.1:$hport/ws" "nodes=$n1,$n2" "redis=$redis_pid" "postgres=$postmaster" \
        "haproxy=$haproxy_pid"
    kill "$haproxy_pid"
    wait "$haproxy_pid" 2>/dev/null || true
    for p in "$n1" "$n2"; do kill -TERM "$p"; wait "$p" || echo "bench: a node exited with status $?" >&2; done
}

# A case is a room count and a think time: "R THINK".
cases=()
for r in "${room_counts[@]}"; do for think in "${thinks[@]}"; do cases+=("$r $think"); done; done
for ((rep = 1; rep <= repeats; rep++)); do
    for c in "${cases[@]}"; do
        read -r r think <<<"$c"
        setups=(single cluster)
        ((rep % 2)) || setups=(cluster single)
        for setup in "${setups[@]}"; do
            echo "== R $r, think $think ms, $setup (round $rep of $repeats)" >&2
            "run_$setup" "$work/r$r.t$think.$setup.$rep" "$r" "$think"
        done
    done
done

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "n/a" }'; }
m() { printf '%s\n' "$@" | median; }
rows=()
parts_rows=()
ratio_lines=()
for c in "${cases[@]}"; do
    read -r r think <<<"$c"
    for setup in single cluster; do
        rate=() user=() sys=() p99=() load_cores=()
        for ((rep = 1; rep <= repeats; rep++)); do
            f=$work/r$r.t$think.$setup.$rep
            rate+=("$(jq -r '.moves_per_s' "$f.json")")
            user+=("$(jq -r '.user_us_per_move' "$f.cpu.json")")
            sys+=("$(jq -r '.sys_us_per_move' "$f.cpu.json")")
            p99+=("$(jq -r '.latency_us.p99 / 1000' "$f.json")")
            load_cores+=("$(jq -r '.load_cpu_cores // 0' "$f.json")")
        done
        label=$([[ $setup == single ]] && echo "one server, SQLite file" || echo "2 nodes + Redis + PostgreSQL + HAProxy")
        rows+=("| $r | $think ms | $label | $(m "${rate[@]}" | xargs printf '%.0f') | $(m "${user[@]}" | xargs printf '%.1f') | $(m "${sys[@]}" | xargs printf '%.1f') | $(m "${p99[@]}" | xargs printf '%.2f') | $(printf '%.2f / ' "${p99[@]}" | sed 's| / $||') | $(m "${load_cores[@]}" | xargs printf '%.2f') |")
    done
    for part in nodes redis postgres haproxy; do
        pu=() ps=()
        for ((rep = 1; rep <= repeats; rep++)); do
            pu+=("$(jq -r ".parts.$part.user" "$work/r$r.t$think.cluster.$rep.cpu.json")")
            ps+=("$(jq -r ".parts.$part.sys" "$work/r$r.t$think.cluster.$rep.cpu.json")")
        done
        parts_rows+=("| $r | $think ms | $part | $(m "${pu[@]}" | xargs printf '%.1f') | $(m "${ps[@]}" | xargs printf '%.1f') |")
    done
    ratios=() without=()
    for ((rep = 1; rep <= repeats; rep++)); do
        a=$(jq -r '.user_us_per_move + .sys_us_per_move' "$work/r$r.t$think.cluster.$rep.cpu.json")
        h=$(jq -r '.parts.haproxy.user + .parts.haproxy.sys' "$work/r$r.t$think.cluster.$rep.cpu.json")
        b=$(jq -r '.user_us_per_move + .sys_us_per_move' "$work/r$r.t$think.single.$rep.cpu.json")
        ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }')")
        without+=("$(awk -v a="$a" -v h="$h" -v b="$b" 'BEGIN { printf "%.2f", (a - h) / b }')")
    done
    ratio_lines+=("- R $r, think $think ms: CPU per move, the whole cluster over the one server, by round: $(printf '%s / ' "${ratios[@]}" | sed 's| / $||'); median $(m "${ratios[@]}"). Without HAProxy (the nodes, Redis and PostgreSQL, as the issue's target counts): $(printf '%s / ' "${without[@]}" | sed 's| / $||'); median $(m "${without[@]}")")
done

{
    echo "# What a cluster costs (bench/cluster.sh)"
    echo
    echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')),"
    echo "load average before the report: $(cut -d' ' -f1-3 /proc/loadavg). Release build, Redis $(redis-server --version | awk '{ print $3 }' | tr -d 'v='),"
    echo "PostgreSQL $("$pg_bin/postgres" --version | awk '{ print $3 }'), HAProxy $(haproxy -v | awk 'NR == 1 { print $3 }'); $repeats rounds, the two setups alternating first. Each run:"
    echo "fresh servers (and database), then"
    echo
    echo '```'
    echo "build/release/bin/quarto-load --url ws://127.0.0.1:PORT/ws $(load_args R THINK)"
    echo '```'
    echo
    echo "against the server, or against HAProxy in front of the two nodes."
    echo
    echo "| R | think | setup | moves/s | user CPU µs/move | system CPU µs/move | p99 action → opponent (ms) | p99 every round | quarto-load's cores |"
    echo "|---|---|---|---|---|---|---|---|---|"
    printf '%s\n' "${rows[@]}"
    echo
    echo "CPU: every process of the setup over quarto-load's whole run (its room set-up and warm-up"
    echo "included), per move of the whole run (\`moves_total\`); moves/s and p99 over the window after the"
    echo "warm-up; medians of the rounds (of an even number, the lower middle one). quarto-load's cores: the"
    echo "CPU the load generator itself took over its window, in cores of this machine. The cluster's CPU"
    echo "by part (µs per move):"
    echo
    echo "| R | think | part | user | system |"
    echo "|---|---|---|---|---|"
    printf '%s\n' "${parts_rows[@]}"
    echo
    echo "The ratios are within each round:"
    echo
    printf '%s\n' "${ratio_lines[@]}"
} >"$out"
echo "cluster.sh: wrote $out" >&2
cat "$out"
