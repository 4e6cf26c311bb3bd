#!/bin/sh
# The first start makes the cluster, its user and its database from POSTGRES_USER,
# POSTGRES_PASSWORD and POSTGRES_DB, as the official image does; then runs the server.
set -eu
if [ "$1" = postgres ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
    : "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD must be set}"
    user=${POSTGRES_USER:-postgres}
    db=${POSTGRES_DB:-$user}
    pwfile=$(mktemp)
    printf '%s\n' "$POSTGRES_PASSWORD" > "$pwfile"
    initdb --username="$user" --pwfile="$pwfile" --auth-local=trust --auth-host=scram-sha-256 > /dev/null
    rm -f "$pwfile"
    echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
    echo "listen_addresses = '*'" >> "$PGDATA/postgresql.conf"
    pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start > /dev/null
    [ "$db" = postgres ] || createdb --username="$user" "$db"
    pg_ctl -D "$PGDATA" -m fast -w stop > /dev/null
    echo "postgres-entrypoint: cluster made for user $user, database $db"
fi
exec "$@"
