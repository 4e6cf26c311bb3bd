#!/usr/bin/env bash
# End-to-end test of the deployment files, on this machine, with podman standing in for Docker:
#   1. builds the container image from the Dockerfile (the C++ tests run inside the build),
#   2. runs it with the data directory on a volume, waits for /healthz and the HEALTHCHECK,
#   3. plays a game over ws:// through the published port,
#   4. starts nginx (Debian's package) with deploy/nginx/quarto.conf, a throwaway self-signed
#      certificate and loopback ports, and plays a game over wss:// through it,
#   5. stops the container (SIGTERM): both clients must see close code 1012 and the server
#      must exit 0; then starts it again and plays once more,
#   6. checks deploy/quarto-server.service with systemd-analyze, and the Caddyfile with caddy.
# Takes minutes (the image build most of it), so it is `make test-deploy`, not part of `make test`.
# Installs podman, runc, debootstrap, nginx, openssl and systemd-analyze when missing; runs as
# root (re-runs itself with sudo). All test traffic stays on 127.0.0.1. Cleans up its
# container, volume, nginx and temporary files; keeps the images (the next run reuses their
# layers): `podman rmi localhost/quarto-server:test docker.io/library/debian:bookworm`.
#
# Podman on this kind of machine: no image registry is reachable, so debian:bookworm is made
# here with debootstrap and `podman import` (deploy/podman-base.sh); runc with explicit
# ulimits (the default RLIMIT_NOFILE exceeds what the sandbox allows); the HEALTHCHECK needs
# --format docker.
#   deploy/test.sh [--rebuild-base]
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
if [ "$(id -u)" -ne 0 ]; then exec sudo "$0" "$@"; fi

rebuild_base=0
for arg in "$@"; do
    case "$arg" in
        --rebuild-base) rebuild_base=1 ;;
        *) echo "test.sh: unknown option $arg" >&2; exit 2 ;;
    esac
done

image=localhost/quarto-server:test
name=quarto-deploy-test-$$
volume=quarto-deploy-test-$$
podman=(podman --runtime runc)
# Podman arms healthcheck timers through systemd; without systemd it logs an error and goes
# on (this script runs the check itself with `podman healthcheck run`). Those lines are noise.
quiet_podman() { "${podman[@]}" "$@" 2> >(grep -v 'systemd connection' >&2); }
limits=(--ulimit nofile=1024:1024 --ulimit nproc=1024:1024)
work=$(mktemp -d /tmp/quarto-deploy-test.XXXXXX)
chmod 0755 "$work" # nginx's workers read below it
nginx_pid=
client_pids=()
results=()

# shellcheck source=deploy/test-helpers.sh
source "$here/deploy/test-helpers.sh"

cleanup() {
    local status=$?
    for pid in "${client_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    if [ -n "$nginx_pid" ] && kill -0 "$nginx_pid" 2>/dev/null; then
        kill -QUIT "$nginx_pid" 2>/dev/null || true
        wait "$nginx_pid" 2>/dev/null || true
    fi
    if "${podman[@]}" container exists "$name" 2>/dev/null; then
        if [ "$status" -ne 0 ]; then
            echo "--- container log (last 40 lines)"
            "${podman[@]}" logs "$name" 2>&1 | tail -n 40 || true
        fi
        "${podman[@]}" rm -f "$name" > /dev/null 2>&1 || true # (errors silenced too)
    fi
    "${podman[@]}" volume rm -f "$volume" > /dev/null 2>&1 || true
    rm -rf "$work"
    if [ "$status" -ne 0 ]; then echo "deploy/test.sh FAILED (see above)"; fi
}
trap cleanup EXIT

# ---------------------------------------------------------------- tools ----
log "tools"
missing=()
command -v podman > /dev/null || missing+=(podman)
command -v runc > /dev/null || missing+=(runc)
command -v debootstrap > /dev/null || missing+=(debootstrap)
command -v nginx > /dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v openssl > /dev/null || missing+=(openssl)
command -v systemd-analyze > /dev/null || missing+=(systemd)
if [ "${#missing[@]}" -gt 0 ]; then
    echo "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" > "$work/apt.log" || { cat "$work/apt.log"; exit 1; }
fi
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
"$here/deploy/deps.sh"

# The client (quarto-smoke) and a host-built server for the systemd check.
cmake -S "$here" -B "$here/build/deploy-test" -DCMAKE_BUILD_TYPE=Release -DQUARTO_BROWSER_TESTS=OFF > "$work/cmake.log" ||
    { cat "$work/cmake.log"; exit 1; }
cmake --build "$here/build/deploy-test" -j "$(nproc)" --target quarto-smoke quarto-server > "$work/build.log" 2>&1 ||
    { tail -n 50 "$work/build.log"; exit 1; }
smoke=$here/build/deploy-test/bin/quarto-smoke
host_server=$here/build/deploy-test/bin/quarto-server

# ---------------------------------------------------------------- helpers ----
healthy() { [ "$(http_status "$app_port" /healthz 2> /dev/null)" = 200 ]; }

# ---------------------------------------------------------------- base image ----
log "base image"
base_args=()
[ "$rebuild_base" = 1 ] && base_args=(--rebuild)
pass "base image $("$here/deploy/podman-base.sh" "${base_args[@]}" | tail -n1)"

# ---------------------------------------------------------------- build ----
log "image build (the C++ tests run inside it)"
build_start=$(date +%s)
# A failed build keeps its whole log, and shows what each failed test printed (ctest's
# --output-on-failure puts it right after the test's result line), then the log's end.
image_build_failed() {
    local kept=$here/build/deploy-test/image-build.log
    cp "$work/image-build.log" "$kept"
    awk '/\*\*\*(Failed|Exception|Timeout)/ { show = 1 } /^ +Start +[0-9]+:/ { show = 0 } show' "$kept" | tail -n 200
    tail -n 30 "$kept"
    die "image build (its whole log: $kept)"
}
"${podman[@]}" build --format docker --network host "${limits[@]}" -t "$image" -f "$here/Dockerfile" "$here" \
    > "$work/image-build.log" 2>&1 || image_build_failed
build_seconds=$(($(date +%s) - build_start))
grep -E '^(100% tests passed|[0-9]+% tests passed)' "$work/image-build.log" || die "no ctest summary in the build log"
image_mb=$("${podman[@]}" image inspect --format '{{.Size}}' "$image" | awk '{printf "%.1f", $1/1e6}')
pass "image $image built in ${build_seconds} s, ${image_mb} MB"

config=$("${podman[@]}" image inspect --format '{{.Config.User}} {{json .Config.ExposedPorts}} {{json .Config.Volumes}}' "$image")
echo "user, ports, volumes: $config"
case "$config" in 10001:10001*8080/tcp*/var/lib/quarto*) ;; *) die "image configuration: $config" ;; esac
"${podman[@]}" image inspect --format '{{json .Config.Healthcheck}}' "$image" | grep -q healthz || die "no HEALTHCHECK in the image"

# ---------------------------------------------------------------- run ----
log "run"
# QUARTO_TRUST_PROXY: nginx, below, reaches the container through the published port.
quiet_podman run -d --name "$name" "${limits[@]}" -p 127.0.0.1::8080 -v "$volume:/var/lib/quarto" \
    -e QUARTO_TRUST_PROXY=1 "$image" > /dev/null
app_port=$("${podman[@]}" port "$name" 8080/tcp | sed 's/.*://')
[ -n "$app_port" ] || die "no published port"
await 30 healthy || die "/healthz did not answer on 127.0.0.1:$app_port"
pass "container up, /healthz 200 on published port 127.0.0.1:$app_port"
"${podman[@]}" healthcheck run "$name" || die "the image's HEALTHCHECK failed"
pass "HEALTHCHECK passes"
[ "$("${podman[@]}" exec "$name" id -u)" = 10001 ] || die "not running as uid 10001"
"${podman[@]}" exec "$name" sh -c 'touch /var/lib/quarto/.write-test && rm /var/lib/quarto/.write-test' ||
    die "the data volume is not writable by the server's user"
pass "runs as uid 10001; the volume /var/lib/quarto is writable"
[ "$(http_status "$app_port" /)" = 200 ] || die "GET / is not 200"
[ "$(http_status "$app_port" /javascript/qrcode-generator/qrcode.js)" = 200 ] ||
    die "the image serves no QR code library at /javascript/ (node-qrcode-generator)"

"$smoke" --url "ws://127.0.0.1:$app_port/ws" --timeout 30 | tee "$work/game1.out"
grep -q '^game over' "$work/game1.out" || die "no full game over ws://"
pass "a full game over ws:// through the published port"

# ---------------------------------------------------------------- nginx ----
log "nginx with deploy/nginx/quarto.conf"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost \
    -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
    -keyout "$work/key.pem" -out "$work/cert.pem" 2> "$work/openssl.log" || { cat "$work/openssl.log"; exit 1; }
http_port=$(free_port)
tls_port=$(free_port)
# The shipped file with only the ports, the name and the certificate changed.
sed -e "s|/etc/letsencrypt/live/quarto.example.org/fullchain.pem|$work/cert.pem|" \
    -e "s|/etc/letsencrypt/live/quarto.example.org/privkey.pem|$work/key.pem|" \
    -e "s|quarto.example.org|localhost|g" \
    -e "s|listen 80;|listen 127.0.0.1:$http_port;|" \
    -e "s|listen 443 ssl http2;|listen 127.0.0.1:$tls_port ssl http2;|" \
    -e '/listen \[::\]:/d' \
    -e "s|server 127.0.0.1:8080;|server 127.0.0.1:$app_port;|" \
    "$here/deploy/nginx/quarto.conf" > "$work/quarto.conf"
for expected in "$work/cert.pem" "$work/key.pem" "127.0.0.1:$http_port" "127.0.0.1:$tls_port ssl" "server 127.0.0.1:$app_port"; do
    grep -qF "$expected" "$work/quarto.conf" || die "deploy/nginx/quarto.conf changed shape: no '$expected' after the substitutions"
done
mkdir -p "$work/nginx-temp"
chmod 0777 "$work/nginx-temp"
cat > "$work/nginx.conf" << CONF
daemon off;
pid $work/nginx.pid;
error_log $work/nginx-error.log info;
events { worker_connections 256; }
http {
    access_log $work/nginx-access.log;
    client_body_temp_path $work/nginx-temp/body;
    proxy_temp_path $work/nginx-temp/proxy;
    fastcgi_temp_path $work/nginx-temp/fastcgi;
    uwsgi_temp_path $work/nginx-temp/uwsgi;
    scgi_temp_path $work/nginx-temp/scgi;
    include $work/quarto.conf;
}
CONF
"$nginx_bin" -t -c "$work/nginx.conf" -e "$work/nginx-error.log" > "$work/nginx-t.log" 2>&1 ||
    { cat "$work/nginx-t.log"; die "nginx -t rejects the configuration"; }
"$nginx_bin" -c "$work/nginx.conf" -e "$work/nginx-error.log" &
nginx_pid=$!
await 10 bash -c "exec 3<>/dev/tcp/127.0.0.1/$tls_port" 2> /dev/null || die "nginx did not listen on 127.0.0.1:$tls_port"
pass "nginx $("$nginx_bin" -v 2>&1 | sed 's|.*/||') up: http 127.0.0.1:$http_port, https 127.0.0.1:$tls_port"

[ "$(http_status "$http_port" /)" = 301 ] || die "port 80's server block does not redirect"
index=$(printf 'GET / HTTP/1.1\r\nHost: localhost:%s\r\nConnection: close\r\n\r\n' "$tls_port" |
    openssl s_client -quiet -connect "127.0.0.1:$tls_port" -servername localhost -CAfile "$work/cert.pem" \
        -verify_return_error 2> /dev/null || true)
echo "$index" | head -n1 | grep -q ' 200 ' || die "GET https://localhost:$tls_port/ is not 200"
echo "$index" | grep -qi '<html' || die "GET https://localhost:$tls_port/ did not serve the browser client"
pass "http redirects to https; https serves the browser client"

if "$smoke" --url "wss://localhost:$tls_port/ws" --ca "$work/cert.pem" --origin "https://evil.example" \
    --timeout 10 > "$work/evil.out"; then
    die "a handshake with a foreign Origin was accepted through nginx"
fi
grep -q 'declined' "$work/evil.out" || { cat "$work/evil.out"; die "the foreign Origin failed for another reason"; }
pass "a page from another origin is refused (403) through nginx"

# Two clients stay connected after their games: one through nginx (wss://, with the Origin a
# browser on that page would send), one straight to the published port (ws://).
"$smoke" --url "wss://localhost:$tls_port/ws" --ca "$work/cert.pem" --origin "https://localhost:$tls_port" \
    --timeout 30 --wait-close 60 --expect-close 1012 > "$work/game-tls.out" &
client_pids+=($!)
tls_client=$!
"$smoke" --url "ws://127.0.0.1:$app_port/ws" --timeout 30 --wait-close 60 --expect-close 1012 > "$work/game-direct.out" &
client_pids+=($!)
direct_client=$!
await 40 grep -q '^game over' "$work/game-tls.out" || { cat "$work/game-tls.out"; die "no full game over wss:// through nginx"; }
await 40 grep -q '^game over' "$work/game-direct.out" || { cat "$work/game-direct.out"; die "no second game over ws://"; }
cat "$work/game-tls.out"
pass "a full game over wss:// through nginx (TLS verified, Origin checked)"
"${podman[@]}" logs "$name" 2>&1 | grep -q 'ws 127.0.0.1 via ' ||
    die "the server did not take the client address from X-Forwarded-For"
pass "the server logs the client address nginx forwarded (--trust-proxy)"

# ---------------------------------------------------------------- SIGTERM ----
log "stop (SIGTERM)"
stop_start=$(date +%s%N)
quiet_podman stop --time 20 "$name" > /dev/null
stop_ms=$((($(date +%s%N) - stop_start) / 1000000))
exit_code=$("${podman[@]}" inspect --format '{{.State.ExitCode}}' "$name")
[ "$exit_code" = 0 ] || die "the server exited $exit_code after SIGTERM"
pass "SIGTERM: the server exited 0 (podman stop took ${stop_ms} ms)"
for pid in $tls_client $direct_client; do
    wait "$pid" || { cat "$work/game-tls.out" "$work/game-direct.out"; die "a client did not see 1012"; }
done
client_pids=()
grep -h 'closed by the server' "$work/game-tls.out" "$work/game-direct.out"
grep -q "closed by the server: 1012 'server restarting' (both)" "$work/game-tls.out" || die "wss:// client: no 1012"
grep -q "closed by the server: 1012 'server restarting' (both)" "$work/game-direct.out" || die "ws:// client: no 1012"
pass "every client saw close code 1012 'server restarting' (through nginx and direct)"

log "start again"
quiet_podman start "$name" > /dev/null
app_port=$("${podman[@]}" port "$name" 8080/tcp | sed 's/.*://')
await 30 healthy || die "/healthz did not answer after the restart"
"$smoke" --url "ws://127.0.0.1:$app_port/ws" --timeout 30 > "$work/game3.out" || { cat "$work/game3.out"; die "no game after the restart"; }
pass "restarted with the same volume; a game plays again"

# ---------------------------------------------------------------- systemd, Caddy ----
log "systemd unit"
# The shipped unit, with ExecStart pointing at the binary built here (verify wants it to exist).
sed "s|^ExecStart=/usr/local/bin/quarto-server|ExecStart=$host_server|" "$here/deploy/quarto-server.service" \
    > "$work/quarto-server.service"
cp "$here/deploy/quarto-server.socket" "$work/quarto-server.socket"
systemd-analyze verify "$work/quarto-server.socket" "$work/quarto-server.service"
exposure=$(systemd-analyze security --offline=true "$work/quarto-server.service" 2>&1 | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
echo "systemd-analyze security: exposure $exposure"
awk -v e="$exposure" 'BEGIN { exit !(e != "" && e + 0 <= 2.0) }' || die "the unit's exposure level is $exposure (want <= 2.0)"
pass "systemd-analyze verify accepts deploy/quarto-server.{socket,service}; exposure $exposure"

log "Caddyfile"
# Debian's caddy package, unpacked here only (installing it would start a web server).
if (cd "$work" && apt-get download caddy > "$work/caddy-download.log" 2>&1); then
    dpkg-deb -x "$work"/caddy_*.deb "$work/caddy"
    QUARTO_DOMAIN=quarto.example.org "$work/caddy/usr/bin/caddy" adapt --config "$here/deploy/Caddyfile" \
        --adapter caddyfile --validate > "$work/caddy.json" 2> "$work/caddy.log" || { cat "$work/caddy.log"; die "caddy rejects deploy/Caddyfile"; }
    pass "caddy $("$work/caddy/usr/bin/caddy" version | awk '{print $1}') validates deploy/Caddyfile"
else
    results+=("skip caddy is not downloadable here: deploy/Caddyfile not validated")
fi

log "summary"
printf '%s\n' "${results[@]}"
echo "deploy/test.sh: all passed (image ${image_mb} MB, built in ${build_seconds} s)"
