#!/bin/sh
# As the official image's entrypoint: a redis-server started with no configuration file
# accepts clients from other hosts (containers) without a password.
set -e
if [ "$1" = redis-server ]; then
    shift
    set -- redis-server --protected-mode no "$@"
fi
exec "$@"
