#!/usr/bin/env bash
# The baselines of bench/baselines against the protocol: bench/baselines/check.js (scripted games,
# their events and refusals) against quarto-server, the reference, and against both baselines;
# then a short quarto-load run against each, which must finish games with no error or anomaly.
# Skipped (exit 77) when the baselines' Debian packages are missing (deploy/deps.sh --bench).
# Usage: baselines.sh QUARTO_SERVER QUARTO_LOAD SOURCE_DIR WORK_DIR
set -euo pipefail
server_bin=$1 load_bin=$2 src=$3 build=$4
if ! command -v node >/dev/null || [[ ! -f /usr/share/nodejs/ws/index.js ]] || ! command -v go >/dev/null ||
   [[ ! -d /usr/share/gocode/src/github.com/gorilla/websocket ]]; then
    echo "SKIP: the baselines need deploy/deps.sh --bench"
    exit 77
fi
work=$(mktemp -d)
pid=
cleanup() {
    if [[ -n $pid ]] && kill -0 "$pid" 2>/dev/null; then kill "$pid"; wait "$pid" || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

GOCACHE=$build/go-cache "$src/bench/baselines/go/build.sh" "$work/quarto-baseline-go"

# start KIND LOG [SERVER OPTIONS...]: starts the server in the background (pid) and waits for the
# line that says where it listens (port).
start() {
    local kind=$1 log=$2
    shift 2
    : >"$log" # before the server's shell opens it: the loop below reads it at once
    case $kind in
        cpp) "$server_bin" --host 127.0.0.1 --port 0 "$@" --db "${log%.log}.db" 2>"$log" & ;;
        node) node "$src/bench/baselines/node/server.js" --port 0 "$@" --archive "${log%.log}.jsonl" 2>"$log" & ;;
        go) "$work/quarto-baseline-go" --port 0 "$@" --archive "${log%.log}.jsonl" 2>"$log" & ;;
    esac
    pid=$!
    port=
    for _ in $(seq 200); do
        port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$log" | head -n1)
        [[ -n $port ]] && return 0
        kill -0 "$pid" 2>/dev/null || { echo "FAIL: the $kind server exited:"; cat "$log"; exit 1; }
        sleep 0.1
    done
    echo "FAIL: the $kind server did not say where it listens"
    exit 1
}

problems=0
for kind in cpp node go; do
    start "$kind" "$work/$kind.log"
    node "$src/bench/baselines/check.js" "ws://127.0.0.1:$port/ws" || problems=1
    # The default rate limit (20/s) would refuse a closed-loop bot: restart with it raised.
    kill "$pid"; wait "$pid" || true
    start "$kind" "$work/$kind.2.log" --rate-limit 100000 --rate-burst 100000
    "$load_bin" --url "ws://127.0.0.1:$port/ws" --rooms 3 --spectators 1 --warmup 0.5 --duration 1.5 \
        --server-pid "$pid" --json "$work/$kind.json" >/dev/null 2>&1
    bad=$(jq '.errors_total + .seq_gaps + .desyncs + .unreadable + .connect_failures + .disconnects' "$work/$kind.json")
    games=$(jq .games_finished_total "$work/$kind.json")
    echo "$kind: quarto-load finished $games games, $bad errors and anomalies"
    [[ $bad == 0 && $games -gt 0 ]] || problems=1
    kill "$pid"; wait "$pid" || true
    pid=
    # Every finished game was kept: the baselines' archives hold a JSON line per game.
    if [[ $kind != cpp ]]; then
        lines=$(wc -l <"$work/$kind.2.jsonl")
        echo "$kind: $lines games archived"
        ((lines >= games)) || { echo "FAIL: $kind archived fewer games than quarto-load saw finish"; problems=1; }
    fi
done
exit $problems
