#!/usr/bin/env bash
# Makes docker.io/library/debian:bookworm for podman on a machine with no image registry:
# a debootstrap root from the machine's own Debian mirror, imported as that image. Shared by
# deploy/test.sh and deploy/cluster/test.sh; does nothing when the image exists already.
#   deploy/podman-base.sh [--rebuild]      (as root; needs podman, runc and debootstrap)
# Prints the image's size when done.
set -euo pipefail

base_image=docker.io/library/debian:bookworm
podman=(podman --runtime runc)
rebuild=0
for arg in "$@"; do
    case "$arg" in
        --rebuild) rebuild=1 ;;
        *) echo "podman-base.sh: unknown option $arg" >&2; exit 2 ;;
    esac
done

if [ "$rebuild" = 1 ] || ! "${podman[@]}" image exists "$base_image"; then
    work=$(mktemp -d /tmp/quarto-podman-base.XXXXXX)
    trap 'rm -rf "$work"' EXIT
    # The Debian mirror this machine uses (its apt sources).
    mirror=$(grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}' | grep -v security | head -n1 || true)
    [ -n "$mirror" ] || mirror=$(grep -hs '^deb ' /etc/apt/sources.list | awk '{print $2}' | head -n1 || true)
    [ -n "$mirror" ] || { echo "podman-base.sh: no Debian mirror in /etc/apt/sources.list*" >&2; exit 1; }
    echo "debootstrap from $mirror (a minute or two)"
    debootstrap --variant=minbase bookworm "$work/root" "$mirror" > "$work/debootstrap.log" 2>&1 ||
        { tail -n 30 "$work/debootstrap.log"; exit 1; }
    # Test-environment accommodation, kept out of the Dockerfiles: apt inside an image build
    # uses this machine's apt sources, settings and trusted CAs (a local mirror, a proxy).
    rm -f "$work/root/etc/apt/sources.list"
    cp -a /etc/apt/sources.list.d/. "$work/root/etc/apt/sources.list.d/" 2> /dev/null || true
    [ -f /etc/apt/sources.list ] && cp /etc/apt/sources.list "$work/root/etc/apt/"
    find "$work/root/etc/apt/sources.list.d" -name '*.disabled*' -delete
    cp /etc/apt/apt.conf.d/* "$work/root/etc/apt/apt.conf.d/" 2> /dev/null || true
    if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
        mkdir -p "$work/root/etc/ssl/certs"
        cp /etc/ssl/certs/ca-certificates.crt "$work/root/etc/ssl/certs/"
    fi
    # As in Debian's official images: no package lists or caches.
    rm -rf "$work/root/var/lib/apt/lists/"* "$work/root/var/cache/apt/"*.bin "$work/root/var/cache/apt/archives/"*.deb
    tar -C "$work/root" -c . | "${podman[@]}" import - "$base_image" > /dev/null
fi
"${podman[@]}" image inspect --format '{{.Size}}' "$base_image" | awk -v image="$base_image" '{printf "%s (%.0f MB)\n", image, $1/1e6}'
