#!/usr/bin/env bash
# Builds the Go baseline offline from Debian's packages (golang-go, golang-github-gorilla-websocket-dev)
# in GOPATH mode: no module download, no network. Usage: build.sh [OUTPUT] (default build/release/bin/quarto-baseline-go)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=${1:-$root/build/release/bin/quarto-baseline-go}
mkdir -p "$(dirname "$out")"
export GO111MODULE=off GOPROXY=off GOFLAGS= GOPATH=/usr/share/gocode GOCACHE=${GOCACHE:-$root/build/go-cache}
cd "$here" && go build -trimpath -o "$out" .
