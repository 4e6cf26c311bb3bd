# Sourced by deploy/test.sh and deploy/cluster/test.sh: their reporting, and the waits and HTTP
# requests they make against 127.0.0.1 with bash alone (no client in the base image).
# Needs: an array `results` (pass appends to it).

log() { printf '\n== %s\n' "$*"; }
pass() { results+=("ok   $*"); echo "ok: $*"; }
die() { echo "FAILED: $*" >&2; exit 1; }

# A port on 127.0.0.1 that nothing listens on (checked by connecting).
free_port() {
    local port
    for _ in $(seq 200); do
        port=$((20000 + RANDOM % 40000))
        if ! (exec 3<> "/dev/tcp/127.0.0.1/$port") 2> /dev/null; then echo "$port"; return 0; fi
    done
    return 1
}

# Waits up to $1 seconds for the command "$@" to succeed.
await() {
    local seconds=$1
    shift
    for _ in $(seq $((seconds * 10))); do
        "$@" && return 0
        sleep 0.1
    done
    return 1
}

# The status code of GET http://127.0.0.1:PORT/PATH, or nothing if the connection fails.
http_status() {
    local port=$1 path=$2 line
    exec 3<> "/dev/tcp/127.0.0.1/$port" || return 1
    printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1:%s\r\n\r\n' "$path" "$port" >&3
    read -r -t 5 line <&3 || true
    exec 3>&-
    echo "$line" | awk '{print $2}'
}

# The body of GET http://127.0.0.1:PORT/PATH on stdout, nothing if the request fails.
http_get() {
    local port=$1 path=$2
    exec 3<> "/dev/tcp/127.0.0.1/$port" || return 1
    printf 'GET %s HTTP/1.0\r\nHost: 127.0.0.1:%s\r\n\r\n' "$path" "$port" >&3
    timeout 5 cat <&3 | sed '1,/^\r$/d'
    exec 3>&-
}
