#!/usr/bin/env bash
# quarto-load --resume through a server restart: a real quarto-server on 127.0.0.1 (its journal
# on, as by default), 4 rooms with 1 spectator each playing with a 20 ms think time; the server
# is stopped with SIGTERM mid-run and started again on the same port and --db. Every connection
# must be closed with 1012, connect again and be welcomed; every bot must get its room back and
# play on: no bot left without its room, no game ended by a timeout or a resignation, no event
# its game refuses, and games finished after the restart.
# Usage: resume.sh QUARTO_SERVER QUARTO_LOAD
set -euo pipefail
server_bin=$1
load_bin=$2
work=$(mktemp -d)
server_pid=
load_pid=
cleanup() {
    for pid in $server_pid $load_pid; do
        if kill -0 "$pid" 2>/dev/null; then
            kill "$pid"
            wait "$pid" || true
        fi
    done
    rm -rf "$work"
}
trap cleanup EXIT

# start_server PORT: returns once the server says where it listens (at most 20 s); sets port.
start_server() {
    : >"$work/server.log" # before the server's shell opens it: the loop below reads it at once
    "$server_bin" --host 127.0.0.1 --port "$1" --rate-limit 100000 --rate-burst 100000 --log-level info \
        --db "$work/quarto.db" 2> "$work/server.log" &
    server_pid=$!
    port=
    for _ in $(seq 200); do
        port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$work/server.log" | head -n1)
        [[ -n $port ]] && return 0
        kill -0 "$server_pid" 2>/dev/null || { echo "server exited:"; cat "$work/server.log"; exit 1; }
        sleep 0.1
    done
    echo "server did not say where it listens:"
    cat "$work/server.log"
    exit 1
}

start_server 0
: >"$work/load.err"
"$load_bin" --url "ws://127.0.0.1:$port/ws" --rooms 4 --spectators 1 --think-ms 20 --warmup 0.5 --duration 7 \
    --resume --resume-timeout 10 --server-pid "$server_pid" --json "$work/result.json" >"$work/load.out" 2>"$work/load.err" &
load_pid=$!
for _ in $(seq 200); do grep -q 'ready:' "$work/load.err" && break; sleep 0.05; done
sleep 2
kill -TERM "$server_pid"
status=0
wait "$server_pid" || status=$?
[[ $status == 0 ]] || { echo "FAIL: the server exited $status after SIGTERM"; exit 1; }
cp "$work/server.log" "$work/server-1.log"
start_server "$port"
status=0
wait "$load_pid" || status=$?
load_pid=
cat "$work/load.out" "$work/load.err"
[[ $status == 0 ]] || { echo "FAIL: quarto-load exited $status"; exit 1; }

field() { # the number after "NAME": in the JSON (one key per line, any depth)
    sed -n "s/^ *\"$1\": \\([0-9.]*\\),\\{0,1\\}$/\\1/p" "$work/result.json" | head -n1
}
problems=0
expect() { # NAME VALUE
    local value
    value=$(field "$1")
    if [[ $value != "$2" ]]; then echo "FAIL: $1 = ${value:-absent}, expected $2"; problems=1; fi
}
expect connections_ready 12
expect reconnections 12 # every connection: 4 rooms of 2 bots and a spectator
expect rooms_back 8     # every bot
expect rooms_not_back 0
expect reconnect_failures 0
expect desyncs 0
expect unreadable 0
expect games_other_total 0
grep -q '"close 1012: server restarting": 12' "$work/result.json" ||
    { echo "FAIL: not every connection was closed with 1012:"; grep -A4 '"closes"' "$work/result.json"; problems=1; }
# Games went on after the restart: the restarted server saw games finish.
finished_after=$(grep -c 'game over' "$work/server.log" || true)
echo "games finished on the restarted server: $finished_after"
[[ $finished_after -gt 0 ]] || { echo "FAIL: no game finished after the restart"; problems=1; }
grep -q 'journal: 4 rooms restored' "$work/server.log" ||
    { echo "FAIL: the restarted server did not restore the 4 rooms:"; cat "$work/server.log"; problems=1; }
exit $problems
