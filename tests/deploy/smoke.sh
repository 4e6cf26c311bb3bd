#!/usr/bin/env bash
# Smoke test of quarto-smoke against a real quarto-server on 127.0.0.1 (port 0): one full game
# over ws:// with a browser-like Origin, then SIGTERM; the client must see close code 1012 on
# both connections and the server must exit 0.
# Usage: smoke.sh QUARTO_SERVER QUARTO_SMOKE
set -euo pipefail
server_bin=$1
smoke_bin=$2
work=$(mktemp -d)
server_pid=
smoke_pid=
cleanup() {
    for pid in $smoke_pid $server_pid; do
        if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
    done
    rm -rf "$work"
}
trap cleanup EXIT

"$server_bin" --host 127.0.0.1 --port 0 --log-level info 2> "$work/server.log" &
server_pid=$!

# Waits (at most $2 tenths of a second) until file $1 matches the regex $3.
await() {
    for _ in $(seq "$2"); do
        grep -q "$3" "$1" && return 0
        sleep 0.1
    done
    return 1
}
await "$work/server.log" 200 'listening on http://' || { echo "server did not start:"; cat "$work/server.log"; exit 1; }
port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$work/server.log" | head -n1)

"$smoke_bin" --url "ws://127.0.0.1:$port/ws" --origin "http://127.0.0.1:$port" --timeout 20 \
    --wait-close 20 --expect-close 1012 > "$work/smoke.out" &
smoke_pid=$!
if ! await "$work/smoke.out" 200 '^game over'; then
    echo "no game over:"; cat "$work/smoke.out"; exit 1
fi
kill -TERM "$server_pid"
server_status=0
wait "$server_pid" || server_status=$?
server_pid=
smoke_status=0
wait "$smoke_pid" || smoke_status=$?
smoke_pid=
cat "$work/smoke.out"
if [[ $smoke_status -ne 0 ]]; then echo "quarto-smoke failed ($smoke_status)"; cat "$work/server.log"; exit 1; fi
if [[ $server_status -ne 0 ]]; then echo "the server exited $server_status after SIGTERM"; exit 1; fi
grep -q "closed by the server: 1012 'server restarting' (both)" "$work/smoke.out"
echo "ok: a full game, then 1012 on SIGTERM and exit 0"
