# Sourced by bench/cluster.sh, bench/rolling.sh and bench/postgres.sh: a scratch PostgreSQL (and
# Redis) as the tests run them (a temporary directory, Unix sockets only, PostgreSQL's defaults
# otherwise, fsync on), all gone on exit.
#   start_scratch_postgres NAME    NAME: the caller's, for messages and the directory's name
#   start_scratch_redis            after start_scratch_postgres
# Set: work (the directory), pg_bin, admin (a PostgreSQL address for CREATE DATABASE),
# pg_socket_dir (the host= of an address), postmaster, redis_socket and redis_pid.
# pids_to_kill: more PIDs for the exit to kill. keep_logs_hook runs at exit before the directory
# goes (nothing unless the caller redefines it). sql runs one statement as the admin;
# need_tools NAME TOOL... stops the script when a tool is missing.

pids_to_kill=()
keep_logs_hook() { :; }
need_tools() { # NAME TOOL...: exits, saying what is missing, unless every TOOL is installed
    local name=$1 tool
    shift
    for tool in "$@"; do
        command -v "$tool" >/dev/null || { echo "$name: needs $tool (deploy/deps.sh --tests --bench)" >&2; exit 1; }
    done
}
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
sql() { psql -qAt "$admin" -c "$1"; }

start_scratch_postgres() {
    local name=$1
    need_tools "$name" psql
    pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n1)
    [[ -x $pg_bin/initdb ]] || { echo "$name: needs the postgresql package (deploy/deps.sh --tests)" >&2; exit 1; }
    work=$(mktemp -d "/tmp/quarto-$name.XXXXXX")
    chmod 755 "$work"
    pg_socket_dir=$work/pg
    mkdir "$pg_socket_dir"
    scratch_as_owner=()
    if [[ $(id -u) == 0 ]]; then
        chown postgres: "$pg_socket_dir"
        scratch_as_owner=(runuser -u postgres --)
    fi
    trap stop_scratch_services EXIT
    "${scratch_as_owner[@]}" "$pg_bin/initdb" -A trust -U quarto -D "$pg_socket_dir/data" >/dev/null
    scratch_pg_ctl -l "$pg_socket_dir/postgres.log" -o "-c listen_addresses='' -k $pg_socket_dir" start
    admin="postgresql:///postgres?host=$pg_socket_dir&user=quarto"
    postmaster=$(head -n1 "$pg_socket_dir/data/postmaster.pid")
}

start_scratch_redis() {
    need_tools "$(basename "$0")" redis-server redis-cli
    redis_socket=$work/redis.sock
    redis-server --port 0 --unixsocket "$redis_socket" --save '' --appendonly no --daemonize no \
        --logfile "$work/redis.log" &
    redis_pid=$!
    pids_to_kill+=("$redis_pid")
    for _ in $(seq 100); do redis-cli -s "$redis_socket" ping >/dev/null 2>&1 && break; sleep 0.1; done
}

scratch_pg_ctl() { "${scratch_as_owner[@]}" "$pg_bin/pg_ctl" -w -D "$pg_socket_dir/data" "$@" >/dev/null; }

stop_scratch_services() {
    local p
    for p in "${pids_to_kill[@]}"; do kill -9 "$p" 2>/dev/null || true; done
    scratch_pg_ctl -m immediate stop 2>/dev/null || true
    keep_logs_hook
    rm -rf "$work"
}
