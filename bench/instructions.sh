#!/usr/bin/env bash
# User-space instructions the server executes per client message, counted by callgrind: unlike
# CPU time, the count does not move with the machine's load, so two builds can be compared on
# a busy 2-core machine. The kernel's share (syscalls, TCP) is not counted: see loopback_floor.
#
#   bench/instructions.sh [SERVER_BINARY] [ROOMS] [SPECTATORS]
#     SERVER_BINARY  default build/release/bin/quarto-server
#     ROOMS          rooms of 2 bots playing closed-loop (default 20; the server runs about
#                    50 times slower under callgrind, so a few rooms keep it busy)
#   KEEP_CALLGRIND=FILE keeps the callgrind dump in FILE (for callgrind_annotate).
#
# The server runs on one shard (--threads 1); counting starts after 5 s of play and lasts 6 s. Rooms have
# a 60 s move clock, as real games (quarto-load's default); MOVE_MS=0 gives untimed rooms, which
# re-arm no timer per move.
# Prints: client messages, messages sent, instructions, instructions per client message.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
server_bin=${1:-$root/build/release/bin/quarto-server}
rooms=${2:-20}
spectators=${3:-0}
load_bin=$root/build/release/bin/quarto-load
for tool in valgrind callgrind_control curl ss; do
    command -v "$tool" >/dev/null || { echo "instructions.sh: needs $tool" >&2; exit 2; }
done
[[ -x $load_bin ]] || { echo "instructions.sh: build quarto-load first (cmake --build build/release --target quarto-load)" >&2; exit 2; }

work=$(mktemp -d /tmp/quarto-instructions.XXXXXX)
server_pid= load_pid=
cleanup() {
    [[ -n $load_pid ]] && kill "$load_pid" 2>/dev/null
    [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    [[ -n ${KEEP_CALLGRIND:-} ]] && cp "$work"/callgrind.*.1 "$KEEP_CALLGRIND" 2>/dev/null; rm -rf "$work"
}
trap cleanup EXIT

valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.%p" "$server_bin" --host 127.0.0.1 --port 0 \
    --threads 1 --rate-limit 100000 --rate-burst 100000 --max-rooms-per-address 0 --log-level warn --db "$work/archive.db" \
    2>"$work/server.log" &
server_pid=$!
port=
for _ in $(seq 300); do
    port=$(ss -ltnpH 2>/dev/null | grep "pid=$server_pid," | sed -n 's/.*127\.0\.0\.1:\([0-9]*\) .*/\1/p' | head -n1 || true)
    [[ -n $port ]] && break
    sleep 0.1
done
[[ -n $port ]] || { echo "instructions.sh: the server did not start" >&2; cat "$work/server.log" >&2; exit 1; }

"$load_bin" --url "ws://127.0.0.1:$port/ws" --rooms "$rooms" --spectators "$spectators" --duration 14 --warmup 1 --move-ms "${MOVE_MS:-60000}" \
    >"$work/load.txt" 2>&1 &
load_pid=$!

counters() { curl -s "http://127.0.0.1:$port/metrics" | awk '/^quarto_messages_in_total/ { i = $2 } /^quarto_messages_out_total/ { o = $2 } END { print i, o }'; }
sleep 5
callgrind_control --zero "$server_pid" >/dev/null 2>&1
read -r in0 out0 < <(counters)
sleep 6
read -r in1 out1 < <(counters)
callgrind_control --dump "$server_pid" >/dev/null 2>&1
sleep 1
dump=$(ls "$work"/callgrind.*.1)
instructions=$(awk '/^(summary|totals):/ { print $2; exit }' "$dump")
messages=$((in1 - in0))
echo "client messages $messages, messages sent $((out1 - out0)), instructions $instructions, per client message $((instructions / messages))"
