# Sourced by bench/run.sh and bench/syscalls.sh: the three servers the benchmark compares, started
# the same way on 127.0.0.1 with a free port and a fresh archive.
#
#   cpp   quarto-server (build/release/bin/quarto-server), archive in SQLite
#   node  bench/baselines/node/server.js on Debian's node-ws, archive as JSON lines
#   go    bench/baselines/go (gorilla/websocket), built by bench/baselines/go/build.sh, JSON lines
#   base  another build of quarto-server ($base_server_bin, run.sh --base-server), started as cpp
#         is: the same benchmark before and after a change, side by side in one run
#
# Each gets the same generous rate limit (a closed-loop bot sends far more than the default
# 20 messages/s). Needs $root (the checkout). BENCH_BUILD=DIR builds and runs them from another
# build directory than build/release; JOBS=N builds with N jobs (default: every core).

bench_build=${BENCH_BUILD:-$root/build/release}
server_bin=$bench_build/bin/quarto-server
load_bin=$bench_build/bin/quarto-load
go_bin=$bench_build/bin/quarto-baseline-go
base_server_bin=
node_script=$root/bench/baselines/node/server.js
all_servers=(cpp node go)

server_label() {
    case $1 in
        cpp) echo "quarto-server" ;;
        node) echo "Node.js ws" ;;
        go) echo "Go gorilla" ;;
        base) echo "quarto-server, base build" ;;
    esac
}

# server_command SERVER ARCHIVE_BASE [THREADS] [MIGRATION]: sets server_cmd to SERVER's command
# line. MIGRATION: quarto-server's --shard-migration (on or off; empty: its default).
# cpp_extra_args: more options for quarto-server (bench/journal.sh sets --journal); cpp_db: its
# --db instead of a file beside the log (bench/postgres.sh gives a PostgreSQL address);
# cpp_env: VAR=VALUE settings for its environment (bench/journal.sh --slow-sync-us).
server_cmd=()
cpp_extra_args=()
cpp_env=()
server_command() {
    local kind=$1 base=$2 threads=${3:-} migration=${4:-}
    local limits=(--rate-limit 100000 --rate-burst 100000)
    case $kind in
        cpp | base)
            # Every bot comes from 127.0.0.1: no cap on the rooms one address may open.
            local bin=$server_bin
            [[ $kind == base ]] && bin=$base_server_bin
            server_cmd=("$bin" --host 127.0.0.1 --port 0 "${limits[@]}" --max-rooms-per-address 0 --log-level warn)
            [[ -n $threads ]] && server_cmd+=(--threads "$threads")
            [[ -n $migration ]] && server_cmd+=(--shard-migration "$migration")
            server_cmd+=("${cpp_extra_args[@]}" --db "${cpp_db:-$base.db}")
            ((${#cpp_env[@]} == 0)) || server_cmd=(env "${cpp_env[@]}" "${server_cmd[@]}") ;; # env execs: same pid
        node) server_cmd=(node "$node_script" --port 0 "${limits[@]}" --archive "$base.jsonl") ;;
        go) server_cmd=("$go_bin" --port 0 "${limits[@]}" --archive "$base.jsonl") ;;
        *) return 1 ;;
    esac
}

# Brings the Release server and quarto-load up to date, and checks what SERVERS need.
ensure_servers() { # SERVER...
    # Built every time (nothing to do when they are current): a benchmark of an older build
    # than the checkout's would measure code that is not there any more.
    [[ -f $bench_build/CMakeCache.txt ]] || cmake -S "$root" -B "$bench_build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    echo "bench: building the Release server and load generator in $bench_build" >&2
    cmake --build "$bench_build" --target quarto-server quarto-load -j "${JOBS:-$(nproc)}" >"$bench_build/bench-build.log" 2>&1 ||
        { tail -n 40 "$bench_build/bench-build.log" >&2; exit 1; }
    local s
    for s in "$@"; do
        case $s in
            cpp) ;;
            base)
                [[ -x $base_server_bin ]] ||
                    { echo "bench: the base server needs --base-server PATH, a quarto-server binary" >&2; exit 2; } ;;
            node)
                command -v node >/dev/null && [[ -f /usr/share/nodejs/ws/index.js ]] ||
                    { echo "bench: the Node.js baseline needs node and node-ws: deploy/deps.sh --bench" >&2; exit 1; } ;;
            go)
                if [[ ! -x $go_bin || -n $(find "$root/bench/baselines/go" -newer "$go_bin" -name '*.go') ]]; then
                    command -v go >/dev/null && [[ -d /usr/share/gocode/src/github.com/gorilla/websocket ]] ||
                        { echo "bench: the Go baseline needs golang-go and gorilla/websocket: deploy/deps.sh --bench" >&2; exit 1; }
                    "$root/bench/baselines/go/build.sh" "$go_bin"
                fi ;;
            *) echo "bench: unknown server $s (cpp, node, go, base)" >&2; exit 2 ;;
        esac
    done
}

# The port a process listens on: its socket inodes (/proc/PID/fd) matched against the LISTEN
# rows of /proc/net/tcp (quarto-server's --log-level warn hides its "listening on" line).
listening_port() {
    local pid=$1 inodes
    inodes=$(find "/proc/$pid/fd" -lname 'socket:*' -printf '%l\n' 2>/dev/null | sed 's/socket:\[\(.*\)\]/\1/' | sort -u)
    [[ -n $inodes ]] || return 1
    awk 'NR > 1 && $4 == "0A" { split($2, a, ":"); print $10, a[2] }' /proc/net/tcp |
        while read -r inode hexport; do
            if grep -qx "$inode" <<<"$inodes"; then echo $((16#$hexport)); break; fi
        done
}

server_pid=
port=
# start_server SERVER LOG [THREADS] [MIGRATION]: sets server_pid and port. THREADS:
# quarto-server's --threads, Go's GOMAXPROCS; Node.js has one JavaScript thread whatever it is.
start_server() {
    local kind=$1 log=$2 threads=${3:-} migration=${4:-}
    server_command "$kind" "$log" "$threads" "$migration"
    : >"$log" # before the server's shell opens it: the loop below reads it at once
    if [[ $kind == go && -n $threads ]]; then
        GOMAXPROCS=$threads "${server_cmd[@]}" 2>"$log" &
    else
        "${server_cmd[@]}" 2>"$log" &
    fi
    server_pid=$!
    port=
    for _ in $(seq 100); do
        port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$log" | head -n1)
        [[ -n $port ]] || port=$(listening_port "$server_pid" || true)
        [[ -n $port ]] && return 0
        kill -0 "$server_pid" 2>/dev/null || { echo "bench: the $kind server exited:" >&2; cat "$log" >&2; exit 1; }
        sleep 0.1
    done
    echo "bench: cannot find the $kind server's port" >&2
    exit 1
}

stop_server() {
    kill -TERM "$server_pid"
    wait "$server_pid" || echo "bench: the server exited with status $?" >&2
    server_pid=
}
