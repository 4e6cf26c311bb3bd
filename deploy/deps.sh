#!/usr/bin/env bash
# Installs the Debian 12 packages the project builds and tests with; does nothing when all are
# present. Idempotent; uses sudo when not root.
#   deploy/deps.sh          the build, and the library the browser client loads from the server
#   deploy/deps.sh --tests  also what the C++ tests start: a PostgreSQL server and a Redis server of
#                           their own in scratch directories (tests/postgres, tests/redis; the
#                           packages' own services are not used), and HAProxy in front of nodes
#                           (deploy/cluster/haproxy.cfg); and lld, which links the sanitizer
#                           build's large test executables in a third of ld's time
#   deploy/deps.sh --browser  also Chromium's headless shell, zbarimg and playwright-core for the
#                             browser tests (the shell: the same pages for half the full
#                             browser's CPU)
#   deploy/deps.sh --bench    also what bench/ needs beyond the build: the Node.js and Go
#                             baseline servers (node-ws; golang-go with gorilla/websocket,
#                             built offline), strace for bench/syscalls.sh, jq for bench/run.sh
#                             (node-ws pulls in Debian's nodejs when no node is installed)
#   deploy/deps.sh --fuzz     also clang-14 and its runtime libraries (libFuzzer, ASan, UBSan:
#                             libclang-rt-14-dev) for make fuzz
set -euo pipefail

packages=(g++ cmake make pkg-config libboost1.81-dev nlohmann-json3-dev libspdlog-dev doctest-dev
          libsqlite3-dev libssl-dev zlib1g-dev ca-certificates
          libpq-dev # the archive's PostgreSQL engine (--db postgresql://...)
          libhiredis-dev # a node's Redis (--redis)
          libsystemd-dev # sd_listen_fds: socket activation
          libsodium-dev # Argon2id password hashes (crypto_pwhash_str)
          systemd # its systemd-socket-activate, for the socket-activation test
          node-qrcode-generator) # the browser client's QR encoder, served at /javascript/ (--javascript-root)
tests=0
browser=0
bench=0
fuzz=0
for arg in "$@"; do
  case "$arg" in
    --tests) tests=1 ;;
    --browser) browser=1 ;;
    --bench) bench=1 ;;
    --fuzz) fuzz=1 ;;
    *) echo "deps.sh: unknown option $arg" >&2; exit 2 ;;
  esac
done
[ "$tests" = 1 ] && packages+=(postgresql redis-server haproxy lld)
[ "$browser" = 1 ] && packages+=(chromium-headless-shell zbar-tools) # zbarimg reads the client's QR codes back in the tests
[ "$bench" = 1 ] && packages+=(node-ws golang-go golang-github-gorilla-websocket-dev strace jq)
[ "$fuzz" = 1 ] && packages+=(clang-14 libclang-rt-14-dev)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
# Node.js may come from another vendor's package (whose nodejs conflicts with Debian's npm):
# what matters is that both commands exist.
if [ "$browser" = 1 ] && ! { command -v node && command -v npm; } >/dev/null; then
  missing+=(nodejs npm)
fi

if [ "${#missing[@]}" -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "deps.sh: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if [ "$browser" = 1 ]; then
  # playwright-core drives the system's Chromium headless shell; it never downloads a browser of its own.
  # axe-core checks the pages' accessibility. Any package of package.json missing: npm ci.
  here=$(cd "$(dirname "$0")/.." && pwd)
  if [ ! -d "$here/tests/web/node_modules/playwright-core" ] || [ ! -d "$here/tests/web/node_modules/axe-core" ]; then
    (cd "$here/tests/web" && npm ci --no-audit --no-fund --silent)
  fi
fi
