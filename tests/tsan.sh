#!/usr/bin/env bash
# make test-tsan: the server under ThreadSanitizer. Runs the archive's tests (the game archive's
# and the journal's threads), the server's in-process and black-box
# tests (whose server is the TSan build, with its shards moving clients, and again with every
# client left on the shard that accepted it, so that rooms reach clients across shards), then a
# short load of bot games on 4 shards in both modes. Any data race fails the run: TSan makes
# the process exit with status 66 and its report names the two accesses.
#   tests/tsan.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: tests/tsan.sh BUILD_DIR}
bin=$build/bin
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 exitcode=66 ${TSAN_OPTIONS:-}"
work=$(mktemp -d /tmp/quarto-tsan.XXXXXX)
server_pid=
cleanup() {
    [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
started=$(date +%s)

echo "== the archive and the journal (their threads and callbacks)"
"$bin/archive_tests"
echo "== in-process server tests"
"$bin/server_unit_tests"
"$bin/server_net_tests"
echo "== the cluster's parts (a node's thread and its Redis connection)"
"$bin/cluster_tests"
for migration in on off; do
    echo "== server tests, shard migration $migration"
    QUARTO_SHARD_MIGRATION=$migration "$bin/server_tests"
done

for migration in on off; do
    echo "== load: 4 shards, 40 rooms with a spectator each, 10 s, shard migration $migration"
    "$bin/quarto-server" --host 127.0.0.1 --port 0 --threads 4 --shard-migration "$migration" --rate-limit 100000 \
        --rate-burst 100000 --log-level warn --db "$work/load-$migration.db" >"$work/server-$migration.log" 2>&1 &
    server_pid=$!
    port=
    for _ in $(seq 300); do
        port=$(ss -ltnpH 2>/dev/null | grep "pid=$server_pid," | sed -n 's/.*127\.0\.0\.1:\([0-9]*\) .*/\1/p' | head -n1 || true)
        [[ -n $port ]] && break
        sleep 0.1
    done
    [[ -n $port ]] || { echo "tsan.sh: the server did not start"; cat "$work/server-$migration.log"; exit 1; }
    "$bin/quarto-load" --url "ws://127.0.0.1:$port/ws" --rooms 40 --spectators 1 --duration 10 --warmup 2 \
        --think-ms 5 --server-pid "$server_pid" | tail -n 3
    kill -TERM "$server_pid"
    status=0
    wait "$server_pid" || status=$?
    server_pid=
    if [[ $status -ne 0 ]] || grep -q "ThreadSanitizer" "$work/server-$migration.log"; then
        echo "tsan.sh: the server exited with status $status under load (shard migration $migration):"
        cat "$work/server-$migration.log"
        exit 1
    fi
done
echo "tsan.sh: no data race found ($(( $(date +%s) - started )) s)"
