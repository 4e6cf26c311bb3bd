#!/usr/bin/env bash
# A rolling restart under load: three quarto-server nodes on one Redis and one
# PostgreSQL behind HAProxy (deploy/cluster/haproxy.cfg), R rooms of quarto-load bots playing
# through HAProxy (the two players of a room on different nodes) with a think time and
# --resume; once the measured window is on, each node in turn is stopped with SIGTERM and
# started again with the same --node-id and port, a few seconds apart. The bots of a stopping
# node are closed with 1012, connect again through HAProxy to another node and pick their games
# up from their rooms' snapshots; the rooms that node held are handed to another node.
# Checked: every node exits 0; no game is lost (every bot gets its room back, no game ends by
# a timeout or a resignation, no event the bots' games refuse); measured: how long a bot of a
# stopped node waited for its room (its game's pause), and the moves' latency over the window.
# Redis and PostgreSQL are the tests' kind (scratch directories, Unix sockets).
#   bench/rolling.sh                       1 round, 300 rooms: about 2 minutes
#                                          (the report: build/bench/rolling.md)
#   bench/rolling.sh --rooms 1000 --repeat 3 --out /tmp/rolling.md
#   bench/rolling.sh --keep DIR            keep every log (nodes, HAProxy, quarto-load) in DIR
#   QUARTO_LOG_LEVEL=debug bench/rolling.sh --keep DIR     the nodes' debug lines too
# Exit status non-zero when a game was lost or a node did not exit 0.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/servers.sh
source bench/servers.sh

repeats=1
rooms=300
out=$root/build/bench/rolling.md
keep=
while (($#)); do
    case $1 in
        --repeat) repeats=$2; shift ;;
        --rooms) rooms=$2; shift ;;
        --out) out=$2; shift ;;
        --keep) keep=$2; shift ;;
        -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
        *) echo "rolling.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
mkdir -p "$(dirname "$out")"
# shellcheck source=bench/scratch_services.sh
source bench/scratch_services.sh
ensure_servers cpp
ulimit -n "$(ulimit -Hn)"
need_tools rolling.sh jq haproxy python3
start_scratch_postgres rolling-bench
start_scratch_redis
keep_logs_hook() {
    [[ -n $keep ]] || return 0
    mkdir -p "$keep" && cp "$work"/*.log "$work"/*.json "$work"/*.txt "$work"/*.err "$keep/" 2>/dev/null || true
}

node_pid=()
node_port=()
# start_node N DB LOG: node nN on its port, appending to LOG; returns once it listens.
start_node() {
    local n=$1 db=$2 log=$3 before
    before=$(grep -c 'listening on' "$log" 2>/dev/null || true)
    "$server_bin" --host 127.0.0.1 --port "${node_port[$n]}" --rate-limit 100000 --rate-burst 100000 \
        --max-rooms-per-address 0 --log-level "${QUARTO_LOG_LEVEL:-info}" --redis "unix://$redis_socket" --node-id "n$n" \
        --trust-proxy --db "$db" >>"$log" 2>&1 &
    node_pid[n]=$!
    pids_to_kill+=("${node_pid[$n]}")
    for _ in $(seq 300); do
        (($(grep -c 'listening on' "$log" || true) > before)) && return 0
        kill -0 "${node_pid[$n]}" 2>/dev/null || { echo "rolling.sh: node n$n exited:" >&2; tail -n 20 "$log" >&2; exit 1; }
        sleep 0.05
    done
    echo "rolling.sh: node n$n did not listen within 15 s" >&2
    exit 1
}

rows=()
failed=0
for ((rep = 1; rep <= repeats; rep++)); do
    base=$work/round$rep
    db_name=rolling_$rep
    sql "CREATE DATABASE $db_name"
    db="postgresql:///$db_name?host=$pg_socket_dir&user=quarto"
    redis-cli -s "$redis_socket" flushall >/dev/null
    for n in 1 2 3; do
        node_port[n]=$(free_port)
        start_node "$n" "$db" "$base.n$n.log"
    done
    hport=$(free_port)
    QUARTO_LISTEN=127.0.0.1:$hport QUARTO_NODE1=127.0.0.1:${node_port[1]} QUARTO_NODE2=127.0.0.1:${node_port[2]} \
        QUARTO_NODE3=127.0.0.1:${node_port[3]} haproxy -db -f "$root/deploy/cluster/haproxy.cfg" >"$base.haproxy.log" 2>&1 &
    haproxy_pid=$!
    pids_to_kill+=("$haproxy_pid")
    sleep 2 # HAProxy's first health checks
    echo "== round $rep of $repeats: $rooms rooms through HAProxy on :$hport, nodes on :${node_port[1]} :${node_port[2]} :${node_port[3]}" >&2
    : >"$base.load.err"
    "$load_bin" --url "ws://127.0.0.1:$hport/ws" --rooms "$rooms" --think-ms 100 --move-ms 60000 --resume \
        --warmup 5 --duration 50 --connect-rate 1000 --json "$base.json" >"$base.load.txt" 2>"$base.load.err" &
    load_pid=$!
    pids_to_kill+=("$load_pid")
    for _ in $(seq 1200); do grep -q 'ready:' "$base.load.err" && break; sleep 0.05; done
    sleep 10 # the warm-up, and a few seconds of the window before the first stop
    stops=()
    for n in 1 2 3; do
        started=$(date +%s%N)
        kill -TERM "${node_pid[$n]}"
        status=0
        wait "${node_pid[$n]}" || status=$?
        stopped_ms=$((($(date +%s%N) - started) / 1000000))
        if ((status != 0)); then echo "rolling.sh: node n$n exited $status after SIGTERM" >&2; failed=1; fi
        start_node "$n" "$db" "$base.n$n.log"
        stops+=("n$n: exit $status in ${stopped_ms} ms, back in $((($(date +%s%N) - started) / 1000000)) ms")
        echo "   ${stops[-1]}" >&2
        sleep 8
    done
    wait "$load_pid" || { cat "$base.load.err" >&2; echo "rolling.sh: quarto-load failed" >&2; exit 1; }
    cat "$base.load.txt" >&2
    lost=$(jq '.resume.rooms_not_back + .resume.reconnect_failures + .games_other_total + .desyncs' "$base.json")
    ((lost == 0)) || failed=1
    errors=$(cat "$base".n?.log | grep -c -E '\[(error|critical)\]' || true)
    rows+=("| $rep | $rooms | $(printf '%s; ' "${stops[@]}" | sed 's/; $//') | $(jq -r '[.resume.reconnections, .resume.rooms_back, .resume.rooms_not_back, .resume.snapshots_unasked] | map(tostring) | join(" / ")' "$base.json") | $(jq -r '"\(.resume.pause_ms.p50 | floor) / \(.resume.pause_ms.max | floor)"' "$base.json") | $(jq -r '"\(.games_finished_total) (\(.games_other_total) other)"' "$base.json") | $(jq -r '.desyncs' "$base.json") | $(jq -r '.resume.duplicates_refused' "$base.json") | $(jq -r '.latency_us.p99 / 1000 | . * 10 | floor / 10' "$base.json") | $errors | $lost |")
    kill "$haproxy_pid"
    wait "$haproxy_pid" 2>/dev/null || true
    for n in 1 2 3; do kill -TERM "${node_pid[$n]}"; wait "${node_pid[$n]}" || true; done
done

{
    echo "# A rolling restart under load (bench/rolling.sh)"
    echo
    echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')),"
    echo "load average before the report: $(cut -d' ' -f1-3 /proc/loadavg). Release build, Redis $(redis-server --version | awk '{ print $3 }' | tr -d 'v='),"
    echo "PostgreSQL $("$pg_bin/postgres" --version | awk '{ print $3 }'), HAProxy $(haproxy -v | awk 'NR == 1 { print $3 }'). Command: \`bench/rolling.sh --rooms $rooms --repeat $repeats\`."
    echo
    echo "Three nodes behind HAProxy; quarto-load \`--rooms $rooms --think-ms 100 --move-ms 60000 --resume\`"
    echo "through HAProxy (the two players of each room on different nodes), 5 s of warm-up and a"
    echo "50 s window; from its 5th second each node in turn gets SIGTERM and is started again with"
    echo "the same \`--node-id\` and port, 8 s apart."
    echo
    echo "| round | rooms | each node: its exit after SIGTERM, and back listening | reconnections / rooms back / not back / snapshots on open connections | pause of a stopped node's bots, p50 / max (ms) | games finished | desyncs | actions sent twice, one refused | p99 move latency (ms) | error lines in the nodes' logs | lost |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|"
    printf '%s\n' "${rows[@]}"
    echo
    echo "- **lost**: bots whose room never came back, connections that could not reconnect, games"
    echo "  ended otherwise than by a Quarto or a full board (a move clock run out, a resignation),"
    echo "  and events the bots' games refused. The target is 0."
    echo "- **pause**: from a bot's connection closing (1012) to its room's snapshot on its new"
    echo "  connection, through HAProxy to another node. The issue's target: no game paused by more than 1 s."
    echo "- **actions sent twice, one refused**: a bot whose move was on its way when its room's"
    echo "  snapshot came (or its connection broke) plays from the snapshot; if the first copy was"
    echo "  applied after all, the second is refused (\`not_your_turn\`, \`wrong_phase\`). Each"
    echo "  action carries a \`req\`: the bot tells these from a refusal of the action on its way. Nothing is lost."
} >"$out"
echo "rolling.sh: wrote $out" >&2
cat "$out"
exit "$failed"
