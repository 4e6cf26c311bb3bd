#!/usr/bin/env bash
# End-to-end test of deploy/cluster/compose.yaml, run as it is with podman-compose standing in
# for docker compose (`make test-cluster-deploy`; minutes, not part of `make test`):
#   1. brings the cluster up: Redis, PostgreSQL, three nodes from the Dockerfile, HAProxy
#      published on a loopback port; waits until /api/nodes through HAProxy shows three nodes,
#   2. plays games through HAProxy: the two players of each on different nodes, and every node
#      starting games (HAProxy spreads the connections),
#   3. crashes a node (SIGKILL of its process): a game right after it plays (HAProxy's retries
#      go to another node), compose's restart policy brings it back, and HAProxy sends it games
#      again; then replaces it with a new container (another address: HAProxy looks it up again),
#   4. stops the cluster (SIGTERM): the clients see 1012, every node exits 0; starts it again
#      on the same volumes: the finished games are still served from PostgreSQL,
#   5. removes the containers, the network and the volumes.
# The stand-ins for the redis:7, postgres:15 and haproxy:2.6 images are built from Debian's
# packages (tests/deploy/stand-ins/: no registry here); the nodes' image from the Dockerfile,
# without its tests (deploy/test.sh runs them). Images are kept for the next run.
# Runs as root (re-runs itself with sudo). All test traffic stays on 127.0.0.1.
#   deploy/cluster/test.sh [--rebuild]     --rebuild: make every image again
set -euo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
if [ "$(id -u)" -ne 0 ]; then exec sudo "$0" "$@"; fi

rebuild=0
for arg in "$@"; do
    case "$arg" in
        --rebuild) rebuild=1 ;;
        *) echo "cluster/test.sh: unknown option $arg" >&2; exit 2 ;;
    esac
done

work=$(mktemp -d /tmp/quarto-cluster-deploy-test.XXXXXX)
project=quarto-cluster-test-$$
compose_file=$here/deploy/cluster/compose.yaml
limits=(--ulimit nofile=1024:1024 --ulimit nproc=1024:1024)
podman=(podman --runtime runc)
# Podman's settings for the containers podman-compose starts: runc and explicit ulimits (the
# default RLIMIT_NOFILE exceeds what the sandbox allows), as for the builds.
cat > "$work/containers.conf" << 'EOF'
[containers]
default_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]
[engine]
runtime = "runc"
EOF
export CONTAINERS_CONF=$work/containers.conf
export QUARTO_PG_PASSWORD
QUARTO_PG_PASSWORD=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
compose=(podman-compose -p "$project" -f "$compose_file")
client_pids=()
results=()
up=0

# shellcheck source=deploy/test-helpers.sh
source "$here/deploy/test-helpers.sh"

cleanup() {
    local status=$?
    for pid in "${client_pids[@]}"; do kill "$pid" 2> /dev/null || true; done
    if [ "$up" = 1 ]; then
        if [ "$status" -ne 0 ]; then
            for service in node1 node2 node3 haproxy postgres redis; do
                echo "--- $service (last 25 lines)"
                "${podman[@]}" logs "${project}_${service}_1" 2>&1 | tail -n 25 || true
            done
        fi
        "${compose[@]}" down -v -t 15 > "$work/down.log" 2>&1 || true
    fi
    rm -rf "$work"
    if [ "$status" -ne 0 ]; then echo "deploy/cluster/test.sh FAILED (see above)"; fi
}
trap cleanup EXIT

# ---------------------------------------------------------------- tools ----
log "tools"
missing=()
for tool in podman runc debootstrap podman-compose python3; do
    command -v "$tool" > /dev/null || missing+=("$tool")
done
if [ "${#missing[@]}" -gt 0 ]; then
    echo "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" > "$work/apt.log" || { cat "$work/apt.log"; exit 1; }
fi
"$here/deploy/deps.sh"
cmake -S "$here" -B "$here/build/deploy-test" -DCMAKE_BUILD_TYPE=Release -DQUARTO_BROWSER_TESTS=OFF > "$work/cmake.log" ||
    { cat "$work/cmake.log"; exit 1; }
cmake --build "$here/build/deploy-test" -j "$(nproc)" --target quarto-smoke > "$work/build.log" 2>&1 ||
    { tail -n 50 "$work/build.log"; exit 1; }
smoke=$here/build/deploy-test/bin/quarto-smoke

# ---------------------------------------------------------------- images ----
log "images"
base_args=()
[ "$rebuild" = 1 ] && base_args=(--rebuild)
pass "base image $("$here/deploy/podman-base.sh" "${base_args[@]}" | tail -n1)"
for image in redis:7 postgres:15 haproxy:2.6; do
    name=${image%%:*}
    if [ "$rebuild" = 1 ] || ! "${podman[@]}" image exists "docker.io/library/$image"; then
        "${podman[@]}" build --network host "${limits[@]}" -t "docker.io/library/$image" \
            -f "$here/tests/deploy/stand-ins/$name.Containerfile" "$here/tests/deploy/stand-ins" > "$work/$name.log" 2>&1 ||
            { tail -n 40 "$work/$name.log"; die "stand-in image $image"; }
    fi
done
pass "stand-ins for redis:7, postgres:15, haproxy:2.6 from Debian's packages"
# compose.yaml names the nodes' image quarto-server:latest; podman finds it as localhost/.
build_start=$(date +%s)
no_cache=()
[ "$rebuild" = 1 ] && no_cache=(--no-cache)
"${podman[@]}" build --format docker --network host "${limits[@]}" "${no_cache[@]}" --build-arg QUARTO_IMAGE_TESTS=OFF \
    -t localhost/quarto-server:latest -f "$here/Dockerfile" "$here" > "$work/node-image.log" 2>&1 ||
    { tail -n 60 "$work/node-image.log"; die "the nodes' image"; }
pass "nodes' image localhost/quarto-server:latest ready in $(($(date +%s) - build_start)) s"

# ---------------------------------------------------------------- helpers ----
# A figure of /api/nodes through HAProxy (a Python expression over `d`, the document).
nodes_figure() {
    http_get "$port" /api/nodes 2> /dev/null | python3 -c "import json,sys; d=json.load(sys.stdin); print($1)" 2> /dev/null
}
# The number of games each node has started, as "node1=3 node2=2 node3=2".
games_per_node() { nodes_figure "' '.join(f\"{n['id']}={n['games_started']}\" for n in sorted(d['nodes'], key=lambda n: n['id']))"; }

live_nodes_are() { [ "$(nodes_figure "len(d['nodes'])")" = "$1" ]; }

# One game through HAProxy, both players through it; every game's output goes to games.out.
play_game() {
    "$smoke" --url "ws://127.0.0.1:$port/ws" --timeout 30 > "$work/game.out" ||
        { cat "$work/game.out"; die "$1"; }
    cat "$work/game.out" >> "$work/games.out"
}
games_played() { grep -c '^game over' "$work/games.out"; }

# Plays games through HAProxy until every one of the three nodes has started one more game than
# in $1, then sets `spread` to the counts. HAProxy gives new connections (HTTP requests too) to
# the nodes in turn, and a game is two: three games in a row are created on three nodes.
games_on_every_node() {
    local before=$1 now i
    for i in $(seq 3); do
        play_game "a game through HAProxy"
        play_game "a game through HAProxy"
        play_game "a game through HAProxy"
        sleep 1.1 # the nodes publish their figures every second
        now=$(games_per_node)
        if python3 - "$before" "$now" << 'EOF'; then spread=$now; return 0; fi
import sys
def parse(text): return dict(kv.split('=') for kv in text.split())
before, now = parse(sys.argv[1]), parse(sys.argv[2])
sys.exit(0 if len(now) == 3 and all(int(now[n]) > int(before.get(n, 0)) for n in now) else 1)
EOF
    done
    die "HAProxy did not spread the games over the three nodes (before: $before, now: $(games_per_node))"
}

# ---------------------------------------------------------------- up ----
log "compose up"
port=$(free_port)
export QUARTO_PUBLISH=127.0.0.1:$port
up=1
up_start=$(date +%s)
"${compose[@]}" up -d --no-build > "$work/up.log" 2>&1 || { cat "$work/up.log"; die "compose up"; }
# podman-compose does not wait for the health checks compose's depends_on names: a node that
# finds PostgreSQL not ready yet exits and its restart policy starts it again.
await 120 live_nodes_are 3 || die "three nodes in /api/nodes through HAProxy (now: $(nodes_figure "[n['id'] for n in d['nodes']]"))"
pass "up in $(($(date +%s) - up_start)) s: /api/nodes through HAProxy on 127.0.0.1:$port shows 3 nodes"

# ---------------------------------------------------------------- games ----
log "games through HAProxy"
games_on_every_node "$(games_per_node)"
grep '^game over' "$work/game.out"
pass "$(games_played) games through HAProxy, each player on another node, started on every node ($spread)"

# ---------------------------------------------------------------- crash ----
log "a node crashes"
victim=${project}_node2_1
node2_started() { nodes_figure "[n['started_ms'] for n in d['nodes'] if n['id'] == 'node2'][0]"; }
# From one answer: each node answers from its own view, which lags the others by up to a second.
node2_restarted() { [ "$(nodes_figure "len(d['nodes']) == 3 and [n['started_ms'] for n in d['nodes'] if n['id'] == 'node2'][0] != $1")" = True ]; }
started_before=$(node2_started)
restarts=$("${podman[@]}" inspect --format '{{.RestartCount}}' "$victim")
kill -KILL "$("${podman[@]}" inspect --format '{{.State.Pid}}' "$victim")"
crash_start=$(date +%s)
# HAProxy may still try node2 for a second or two: its retries and redispatch go to another.
play_game "a game right after node2's crash"
pass "node2 killed (SIGKILL): a game right after it plays"
# The new process waits for the old one's lease to expire, then takes the node's place.
await 60 node2_restarted "$started_before" || die "node2 did not come back (restart policy)"
[ "$("${podman[@]}" inspect --format '{{.RestartCount}}' "$victim")" -gt "$restarts" ] || die "node2 is back without a restart?"
games_on_every_node "$(games_per_node)"
pass "restart policy brought node2 back in $(($(date +%s) - crash_start)) s; HAProxy sends it games again ($spread)"

log "a node replaced by a new container"
# As `compose up` does for a new image: the new container may get another address, which
# HAProxy must find by the service's name.
address() { "${podman[@]}" inspect --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$victim"; }
old_address=$(address)
started_before=$(node2_started)
"${podman[@]}" stop -t 15 "$victim" > /dev/null
"${podman[@]}" rm "$victim" > /dev/null
"${compose[@]}" up -d --no-build --no-deps node2 > "$work/up-node2.log" 2>&1 || { cat "$work/up-node2.log"; die "compose up node2"; }
await 60 node2_restarted "$started_before" || die "the new node2 did not join"
games_on_every_node "$(games_per_node)"
pass "node2 replaced (address $old_address, now $(address)): HAProxy sends it games ($spread)"

# ---------------------------------------------------------------- stop ----
log "stop (SIGTERM) and start again"
"$smoke" --url "ws://127.0.0.1:$port/ws" --timeout 30 --wait-close 60 --expect-close 1012 > "$work/held.out" &
client_pids+=($!)
held=$!
await 40 grep -q '^game over' "$work/held.out" || { cat "$work/held.out"; die "no game before the stop"; }
stop_start=$(date +%s%N)
# The nodes first, as in a rolling restart: their 1012 reaches the clients through HAProxy.
"${compose[@]}" stop -t 15 node1 node2 node3 > "$work/stop.log" 2>&1 || { cat "$work/stop.log"; die "compose stop"; }
stop_ms=$((($(date +%s%N) - stop_start) / 1000000))
wait "$held" || { cat "$work/held.out"; die "the clients did not see 1012"; }
client_pids=()
cat "$work/held.out" >> "$work/games.out"
grep 'closed by the server' "$work/held.out"
for service in node1 node2 node3; do
    code=$("${podman[@]}" inspect --format '{{.State.ExitCode}}' "${project}_${service}_1")
    [ "$code" = 0 ] || die "$service exited $code after SIGTERM"
done
pass "compose stop of the nodes: both clients saw 1012, every node exited 0 (${stop_ms} ms)"
"${compose[@]}" stop -t 15 > "$work/stop.log" 2>&1 || { cat "$work/stop.log"; die "compose stop"; }
"${compose[@]}" up -d --no-build > "$work/up2.log" 2>&1 || { cat "$work/up2.log"; die "compose up again"; }
await 120 live_nodes_are 3 || die "three nodes after the second start"
# Every game of this run was Smoke A's (the volumes are new).
archived() { http_get "$port" '/api/games?player=Smoke+A&limit=100' | python3 -c "import json,sys; print(len(json.load(sys.stdin)['games']))"; }
all_archived() { [ "$(archived)" = "$(games_played)" ]; }
await 10 all_archived || die "$(archived) games archived of the $(games_played) played"
play_game "a game after the restart"
await 10 all_archived || die "the game after the restart is not archived"
pass "started again on the same volumes: all $(games_played) games served from PostgreSQL, the last one played after the restart"

echo
printf '%s\n' "${results[@]}"
echo "deploy/cluster/test.sh: all passed"
