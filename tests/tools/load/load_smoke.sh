#!/usr/bin/env bash
# Smoke test of quarto-load: a real quarto-server on 127.0.0.1, port 0; 3 rooms with 1 spectator
# each for about 3 s, on the default 60 s move clock; the JSON must show finished games, moves, the
# server's user and system CPU per move, both latencies (read and at arrival), and no error. Then
# 2 rooms with think times of 20 ± 10 ms, and a jitter larger than the think time refused with a
# reason.
# Usage: load_smoke.sh QUARTO_SERVER QUARTO_LOAD
set -euo pipefail
server_bin=$1
load_bin=$2
work=$(mktemp -d)
server_pid=
cleanup() {
    if [[ -n $server_pid ]] && kill -0 "$server_pid" 2>/dev/null; then
        kill "$server_pid"
        wait "$server_pid" || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

: >"$work/server.log" # before the server's shell opens it: the loop below reads it at once
"$server_bin" --host 127.0.0.1 --port 0 --rate-limit 100000 --rate-burst 100000 --log-level info \
    --db "$work/quarto.db" 2> "$work/server.log" &
server_pid=$!

# Await the "listening on http://HOST:PORT" line (at most 20 s).
port=
for _ in $(seq 200); do
    port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$work/server.log" | head -n1)
    [[ -n $port ]] && break
    kill -0 "$server_pid" 2>/dev/null || { echo "server exited:"; cat "$work/server.log"; exit 1; }
    sleep 0.1
done
[[ -n $port ]] || { echo "server did not say where it listens:"; cat "$work/server.log"; exit 1; }

"$load_bin" --url "ws://127.0.0.1:$port/ws" --rooms 3 --spectators 1 --warmup 0.5 --duration 2.5 \
    --server-pid "$server_pid" --json "$work/result.json"

field() { # the number after "NAME": in the JSON (one key per line)
    sed -n "s/^  \"$1\": \\([0-9.]*\\),\\{0,1\\}$/\\1/p" "$work/result.json" | head -n1
}
moves=$(field moves)
games=$(field games_finished_total)
errors=$(field errors_total)
ready=$(field connections_ready)
problems=0
for name in seq_gaps desyncs unreadable connect_failures disconnects; do
    value=$(field "$name")
    if [[ $value != 0 ]]; then echo "FAIL: $name = $value"; problems=1; fi
done
echo "moves=$moves games=$games errors=$errors connections_ready=$ready"
[[ $ready == 9 ]] || { echo "FAIL: expected 9 connections set up"; problems=1; }
[[ $(field move_ms) == 60000 ]] || { echo "FAIL: the rooms' move clock is not the default 60000 ms"; problems=1; }
for name in server_cpu_us_per_move server_cpu_user_us_per_move server_cpu_sys_us_per_move; do
    [[ -n $(field "$name") ]] || { echo "FAIL: no $name in the JSON"; problems=1; }
done
[[ ${moves:-0} -gt 0 ]] || { echo "FAIL: no moves"; problems=1; }
[[ ${games:-0} -gt 0 ]] || { echo "FAIL: no game finished"; problems=1; }
[[ $errors == 0 ]] || { echo "FAIL: errors received:"; grep -A5 '"errors"' "$work/result.json"; problems=1; }
# Every move's latency is also taken at the kernel's receipt, which comes before the read.
nested() { # OBJECT KEY: the number of "KEY": inside "OBJECT": { ... }
    awk -v object="\"$1\": {" -v key="\"$2\":" 'index($0, object) { inside = 1; next }
        inside && /}/ { exit } inside && index($0, key) { gsub(/[^0-9.]/, "", $2); print $2; exit }' "$work/result.json"
}
[[ $(nested arrival_latency_us samples) == "$(nested latency_us samples)" && $(nested latency_us samples) -gt 0 ]] ||
    { echo "FAIL: arrival_latency_us has not one sample per move"; problems=1; }
for p in p50 p99 max; do
    awk -v a="$(nested arrival_latency_us $p)" -v r="$(nested latency_us $p)" 'BEGIN { exit !(a > 0 && a <= r) }' ||
        { echo "FAIL: arrival_latency_us.$p is not above 0 and at most latency_us.$p"; problems=1; }
done

# Think times with a jitter: the bots still play, and the JSON says how they thought.
"$load_bin" --url "ws://127.0.0.1:$port/ws" --rooms 2 --warmup 0.2 --duration 1.5 --think-ms 20 \
    --think-jitter-ms 10 --server-pid "$server_pid" --json "$work/result.json" >/dev/null
[[ $(field think_jitter_ms) == 10 && $(field think_ms) == 20 ]] || { echo "FAIL: think_ms/think_jitter_ms not 20/10"; problems=1; }
[[ $(field moves) -gt 0 ]] || { echo "FAIL: no moves with a think time"; problems=1; }
if "$load_bin" --url "ws://127.0.0.1:$port/ws" --think-ms 10 --think-jitter-ms 20 2>"$work/refused"; then
    echo "FAIL: a jitter larger than the think time was accepted"; problems=1
fi
grep -q 'more than --think-ms' "$work/refused" || { echo "FAIL: no reason given:"; cat "$work/refused"; problems=1; }
exit $problems
