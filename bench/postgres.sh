#!/usr/bin/env bash
# What PostgreSQL costs against the SQLite file, side by side in one run:
# quarto-server with --db FILE and --db postgresql://... in turn (the archive and the journal
# both), each round both, R = 1000 rooms closed loop and with 100 ms think time. Per move:
# the server's CPU (quarto-load --server-pid), PostgreSQL's CPU (every process of its cluster,
# from /proc) and PostgreSQL's transactions (pg_stat_database), and p99 action -> opponent.
# The cluster is made for the run in a scratch directory (Debian's initdb, as tests/postgres
# does; as root it belongs to the postgres user), on a Unix socket only, with PostgreSQL's
# defaults otherwise (fsync on): a database as an operator would run it, on the same 2 cores.
#   bench/postgres.sh                 2 rounds: about 3 minutes (the report: build/bench/postgres.md)
#   bench/postgres.sh --repeat 3 --out /tmp/postgres.md
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# shellcheck source=bench/servers.sh
source bench/servers.sh

repeats=2
out=$root/build/bench/postgres.md
while (($#)); do
    case $1 in
        --repeat) repeats=$2; shift ;;
        --out) out=$2; shift ;;
        -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
        *) echo "postgres.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
mkdir -p "$(dirname "$out")"
# shellcheck source=bench/scratch_services.sh
source bench/scratch_services.sh
need_tools postgres.sh jq
ensure_servers cpp
ulimit -n "$(ulimit -Hn)"
start_scratch_postgres postgres-bench

# CPU ticks (user, system) of every process of the cluster.
pg_ticks() {
    local pids
    pids="$postmaster $(pgrep -P "$postmaster" | tr '\n' ' ')"
    for p in $pids; do awk '{ print $14, $15 }' "/proc/$p/stat" 2>/dev/null || true; done |
        awk '{ u += $1; s += $2 } END { print u + 0, s + 0 }'
}
commits() { sql "SELECT sum(xact_commit) FROM pg_stat_database"; }
load_args() { # THINK_MS
    echo --rooms 1000 --duration 15 --warmup 0 --think-ms "$1" --move-ms 60000 --connect-rate 2000
}
hz=$(getconf CLK_TCK)
for ((rep = 1; rep <= repeats; rep++)); do
    for think in 0 100; do
        engines=(sqlite postgres)
        ((rep % 2)) || engines=(postgres sqlite)
        for engine in "${engines[@]}"; do
            base=$work/t$think.$engine.$rep
            cpp_db=
            if [[ $engine == postgres ]]; then
                sql "CREATE DATABASE run_${think}_$rep"
                cpp_db="postgresql:///run_${think}_$rep?host=$pg_socket_dir&user=quarto"
            fi
            start_server cpp "$base.server.log"
            pids_to_kill+=("$server_pid")
            echo "== think $think ms, $engine (round $rep of $repeats)" >&2
            read -r u0 s0 < <(pg_ticks)
            c0=$(commits)
            # shellcheck disable=SC2046
            "$load_bin" --url "ws://127.0.0.1:$port/ws" $(load_args "$think") --server-pid "$server_pid" \
                --json "$base.json" >"$base.txt" 2>"$base.err" || { cat "$base.err" >&2; exit 1; }
            read -r u1 s1 < <(pg_ticks)
            c1=$(commits)
            stop_server
            moves=$(jq -r '.moves' "$base.json")
            # The cluster's work while the server ran, per move (the idle cluster's own is in it too:
            # the SQLite rounds show how much that is).
            jq -n --argjson u "$(((u1 - u0) * 1000000 / hz))" --argjson s "$(((s1 - s0) * 1000000 / hz))" \
                --argjson c "$((c1 - c0))" --argjson m "$moves" \
                '{pg_user_us_per_move: ($u / $m), pg_sys_us_per_move: ($s / $m), pg_commits_per_move: ($c / $m)}' \
                >"$base.pg.json"
        done
    done
done

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "n/a" }'; }
m() { printf '%s\n' "$@" | median; }
rows=()
ratio_lines=()
for think in 0 100; do
    for engine in sqlite postgres; do
        rate=() cpu=() pgcpu=() total=() commits_per=() p99=()
        for ((rep = 1; rep <= repeats; rep++)); do
            f=$work/t$think.$engine.$rep
            rate+=("$(jq -r '.moves_per_s' "$f.json")")
            cpu+=("$(jq -r '.server_cpu_us_per_move' "$f.json")")
            pgcpu+=("$(jq -r '.pg_user_us_per_move + .pg_sys_us_per_move' "$f.pg.json")")
            total+=("$(jq -rs '.[0].server_cpu_us_per_move + .[1].pg_user_us_per_move + .[1].pg_sys_us_per_move' "$f.json" "$f.pg.json")")
            commits_per+=("$(jq -r '.pg_commits_per_move' "$f.pg.json")")
            p99+=("$(jq -r '.latency_us.p99 / 1000' "$f.json")")
        done
        rows+=("| $think ms | $engine | $(m "${rate[@]}" | xargs printf '%.0f') | $(m "${cpu[@]}" | xargs printf '%.1f') | $(m "${pgcpu[@]}" | xargs printf '%.1f') | $(m "${total[@]}" | xargs printf '%.1f') | $(m "${commits_per[@]}" | xargs printf '%.3f') | $(m "${p99[@]}" | xargs printf '%.2f') |")
    done
    ratios=()
    for ((rep = 1; rep <= repeats; rep++)); do
        a=$(jq -rs '.[0].server_cpu_us_per_move + .[1].pg_user_us_per_move + .[1].pg_sys_us_per_move' \
            "$work/t$think.postgres.$rep.json" "$work/t$think.postgres.$rep.pg.json")
        b=$(jq -r '.server_cpu_us_per_move' "$work/t$think.sqlite.$rep.json")
        ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }')")
    done
    ratio_lines+=("- think $think ms: CPU per move, server + PostgreSQL over the server on its file, by round: $(printf '%s / ' "${ratios[@]}" | sed 's| / $||'); median $(m "${ratios[@]}")")
done

{
    echo "# PostgreSQL against the SQLite file (bench/postgres.sh)"
    echo
    echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')),"
    echo "load average before the report: $(cut -d' ' -f1-3 /proc/loadavg). Release build, PostgreSQL $("$pg_bin/postgres" --version | awk '{ print $3 }'),"
    echo "$repeats rounds, the two engines alternating first. Each run: a fresh server and database, then"
    echo
    echo '```'
    echo "build/release/bin/quarto-load --url ws://127.0.0.1:PORT/ws $(load_args THINK) --server-pid PID"
    echo '```'
    echo
    echo "| think | --db | moves/s | server CPU µs/move | PostgreSQL CPU µs/move | both | PostgreSQL commits/move | p99 action → opponent (ms) |"
    echo "|---|---|---|---|---|---|---|---|"
    printf '%s\n' "${rows[@]}"
    echo
    echo "Medians of the rounds; PostgreSQL's CPU and commits are counted over the whole load run"
    echo "(its room set-up included), the server's over quarto-load's window; the ratios are within each round:"
    echo
    printf '%s\n' "${ratio_lines[@]}"
} >"$out"
echo "postgres.sh: wrote $out" >&2
cat "$out"
