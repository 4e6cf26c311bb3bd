# quarto-server as a container image, in two stages on debian:bookworm:
#   build    Debian's -dev packages (deploy/deps.sh), a Release build, every C++ test (unless
#            --build-arg QUARTO_IMAGE_TESTS=OFF)
#   runtime  the binary, the browser client (web/), the runtime libraries the binary loads and
#            the QR code library the client loads (node-qrcode-generator)
#
#   docker build -t quarto-server .
#   docker run -d -p 8080:8080 -v quarto-data:/var/lib/quarto quarto-server
#
# Configuration: flags after the image name, or QUARTO_* environment variables (QUARTO_PORT,
# QUARTO_TRUST_PROXY, QUARTO_ALLOWED_ORIGIN, ...; see README.md). deploy/README.md has the rest.

FROM debian:bookworm AS build
# OFF builds the server alone, without the tests and benchmarks: a third of the time. For a
# second image from the same sources (deploy/cluster/test.sh: deploy/test.sh runs the tests).
ARG QUARTO_IMAGE_TESTS=ON
WORKDIR /src
COPY deploy/deps.sh deploy/deps.sh
RUN if [ "$QUARTO_IMAGE_TESTS" = ON ]; then deploy/deps.sh --tests; else deploy/deps.sh; fi
COPY . .
# The tests run against the source tree's web/ (the installed path does not exist yet).
RUN cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DQUARTO_BROWSER_TESTS=OFF \
          -DQUARTO_BUILD_TESTS="$QUARTO_IMAGE_TESTS" -DQUARTO_BUILD_BENCH="$QUARTO_IMAGE_TESTS" \
          -DCMAKE_INSTALL_PREFIX=/usr -DQUARTO_DEFAULT_WEB_ROOT=/usr/share/quarto/web \
 && cmake --build build -j"$(nproc)" \
 && if [ "$QUARTO_IMAGE_TESTS" = ON ]; then \
        cd build && QUARTO_WEB_ROOT=/src/web ctest --output-on-failure -j"$(nproc)" --timeout 120; \
    fi
RUN DESTDIR=/staging cmake --install build \
 && deploy/runtime-packages.sh /staging/usr/bin/quarto-server > /staging/runtime-packages

FROM debian:bookworm
COPY --from=build /staging/runtime-packages /tmp/runtime-packages
# Beside the libraries the binary loads: node-qrcode-generator, the browser client's QR
# encoder, which the server serves from /usr/share/javascript at /javascript/.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(cat /tmp/runtime-packages) \
        node-qrcode-generator \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /tmp/runtime-packages \
 && useradd --system --uid 10001 --user-group --home-dir /var/lib/quarto --no-create-home \
            --shell /usr/sbin/nologin quarto \
 && install -d -o quarto -g quarto -m 0750 /var/lib/quarto
COPY --from=build /staging/usr/ /usr/
RUN ! ldd /usr/bin/quarto-server | grep 'not found'

# The archive (finished games, tournaments and their players) lives in the volume.
ENV QUARTO_HOST=0.0.0.0 \
    QUARTO_PORT=8080 \
    QUARTO_DB=/var/lib/quarto/quarto.db
VOLUME /var/lib/quarto
WORKDIR /var/lib/quarto
USER 10001:10001
EXPOSE 8080
# bash's /dev/tcp: no HTTP client needed in the image. Follows QUARTO_PORT.
HEALTHCHECK --interval=30s --timeout=3s --start-period=5s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/${QUARTO_PORT:-8080} && printf 'GET /healthz HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && read -r status <&3 && [[ $status == *' 200 '* ]]"]
# SIGTERM: the server closes every WebSocket with 1012 and exits within --shutdown-grace (5 s),
# before the engine's SIGKILL (10 s by default).
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/bin/quarto-server"]
