#!/usr/bin/env bash
# System calls per move, by name: starts each server in turn (bench/servers.sh), plays quarto-load
# against it, and counts the server's system calls with `strace -c -f -p PID` (every thread) over
# quarto-load's measured window; divides by the moves quarto-load counted in that window.
#
#   bench/syscalls.sh [options]
#     --servers LIST    which servers, comma-separated among cpp, node, go (default all three)
#     --rooms R         rooms (default 1000)          --spectators S  per room (default 0)
#     --think-ms MS     think time (default 0)        --move-ms MS    move clock (default 60000)
#     --seconds N       counted window (default 10)   --warmup N      play before it (default 3)
#     --out FILE        also write the markdown table to FILE
#     --keep DIR        keep the logs, quarto-load's JSON and strace's tables in DIR
#
# strace stops the server at every system call, so the server runs several times slower while it
# is counted: moves/s drop, more events queue per connection between the loop's turns, and a
# server that gathers queued frames into one send shows fewer sends per move than it would at
# full speed. Compare servers within one run of this script, at the same settings.
# Needs strace (deploy/deps.sh --bench) and the right to trace the server (root, or ptrace_scope 0).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=bench/servers.sh
source "$root/bench/servers.sh"

servers=("${all_servers[@]}")
rooms=1000 spectators=0 think=0 move_ms=60000 seconds=10 warmup=3 out= keep=
while [[ $# -gt 0 ]]; do
    case $1 in
        --servers) IFS=, read -r -a servers <<<"$2"; shift ;;
        --rooms) rooms=$2; shift ;;
        --spectators) spectators=$2; shift ;;
        --think-ms) think=$2; shift ;;
        --move-ms) move_ms=$2; shift ;;
        --seconds) seconds=$2; shift ;;
        --warmup) warmup=$2; shift ;;
        --out) out=$2; shift ;;
        --keep) keep=$2; shift ;;
        -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
        *) echo "syscalls.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
command -v strace >/dev/null || { echo "syscalls.sh: needs strace: deploy/deps.sh --bench" >&2; exit 1; }
ensure_servers "${servers[@]}"
ulimit -n "$(ulimit -Hn)"

work=$(mktemp -d /tmp/quarto-syscalls.XXXXXX)
[[ -n $keep ]] && { mkdir -p "$keep"; rm -rf "$work"; work=$keep; }
load_pid=
cleanup() {
    [[ -n $load_pid ]] && kill "$load_pid" 2>/dev/null || true
    if [[ -n $server_pid ]] && kill -0 "$server_pid" 2>/dev/null; then kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; fi
    [[ -z $keep ]] && rm -rf "$work"
    return 0
}
trap cleanup EXIT

load_cmd=("$load_bin" --rooms "$rooms" --spectators "$spectators" --think-ms "$think" --move-ms "$move_ms"
    --warmup "$warmup" --duration "$seconds" --connect-rate 2000)
declare -A calls errors moves_of
names=()
for s in "${servers[@]}"; do
    start_server "$s" "$work/$s.server.log"
    "${load_cmd[@]}" --url "ws://127.0.0.1:$port/ws" --server-pid "$server_pid" --json "$work/$s.json" \
        >"$work/$s.txt" 2>"$work/$s.err" &
    load_pid=$!
    for _ in $(seq 1200); do grep -q 'ready:' "$work/$s.err" && break; sleep 0.1; done
    sleep "$warmup"
    # quarto-load's window starts now; strace counts the same span (SIGINT detaches it and it prints).
    timeout -s INT "$seconds" strace -c -f -q -p "$server_pid" -o "$work/$s.strace" || true
    wait "$load_pid" || { cat "$work/$s.err" >&2; exit 1; }
    load_pid=
    stop_server
    moves_of[$s]=$(jq .moves "$work/$s.json")
    problems=$(jq '.errors_total + .seq_gaps + .desyncs + .connect_failures + .disconnects' "$work/$s.json")
    echo "== $s: ${moves_of[$s]} moves counted under strace, problems $problems" >&2
    # strace -c rows: % time, seconds, usecs/call, calls, [errors,] syscall
    while read -r name n e; do
        calls[$s,$name]=$n
        errors[$s,$name]=$e
        [[ " ${names[*]} " == *" $name "* ]] || names+=("$name")
    done < <(awk '/^-----/ { body = !body; next } body && $NF != "total" { print $NF, $4, (NF == 6 ? $5 : 0) }' "$work/$s.strace")
done

per_move() { awk -v n="${1:-0}" -v m="$2" 'BEGIN { if (m > 0) printf "%.2f", n / m; else print "n/a" }'; }
{
    echo "System calls per move (strace -c -f over ${seconds} s after ${warmup} s of play; R = $rooms, S = $spectators, think $think ms, move clock $move_ms ms);"
    echo "in parentheses the calls that failed (EAGAIN and the like), per move. Rows under 0.01 per move for every server are"
    echo "left out of the table but counted in the total."
    echo
    header="| syscall |" rule="|---|"
    for s in "${servers[@]}"; do header+=" $(server_label "$s") |"; rule+="---|"; done
    echo "$header"
    echo "$rule"
    # Rows in order of the largest count per move over the servers.
    for name in "${names[@]}"; do
        best=0
        for s in "${servers[@]}"; do
            v=$(per_move "${calls[$s,$name]:-0}" "${moves_of[$s]}")
            [[ $v == n/a ]] || best=$(awk -v a="$best" -v b="$v" 'BEGIN { print (b > a ? b : a) }')
        done
        row="| $name |"
        for s in "${servers[@]}"; do
            n=${calls[$s,$name]:-0}
            if [[ $n == 0 ]]; then row+=" |"; continue; fi
            row+=" $(per_move "$n" "${moves_of[$s]}")"
            e=$(per_move "${errors[$s,$name]:-0}" "${moves_of[$s]}")
            [[ $e == 0.00 || $e == n/a ]] || row+=" ($e)"
            row+=" |"
        done
        # Calls under 0.01 per move everywhere (start-up, the archive, timers) are left out of the table.
        if awk -v b="$best" 'BEGIN { exit !(b >= 0.01) }'; then echo "$best $row"; fi
    done | sort -rn -k1,1 | cut -d' ' -f2-
    row="| **total** |" mrow="| moves counted |"
    for s in "${servers[@]}"; do
        total=0
        for name in "${names[@]}"; do total=$((total + ${calls[$s,$name]:-0})); done
        row+=" **$(per_move "$total" "${moves_of[$s]}")** |"
        mrow+=" ${moves_of[$s]} |"
    done
    echo "$row"
    echo "$mrow"
} | tee "$work/table.md"
[[ -n $out ]] && cp "$work/table.md" "$out"
exit 0
