#!/bin/sh
# Prints the Debian packages that provide the shared libraries BINARY loads, one per line: what
# the container image's runtime stage installs (so that a new library dependency of the server
# needs no edit here). Run where the binary was built.
#   deploy/runtime-packages.sh build/bin/quarto-server
set -eu
binary=$1
libs=$(ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }')
if ldd "$binary" | grep -q 'not found'; then
    echo "runtime-packages.sh: $binary has unresolved libraries" >&2
    exit 1
fi
packages=
for lib in $libs; do
    owner=
    # dpkg knows each file under the path its package ships it at: /lib/... or /usr/lib/...
    for candidate in "$lib" "${lib#/usr}" "/usr$lib" "$(readlink -f "$lib")"; do
        owner=$(dpkg-query -S "$candidate" 2>/dev/null) && break
        owner=
    done
    if [ -z "$owner" ]; then
        echo "runtime-packages.sh: no package owns $lib" >&2
        exit 1
    fi
    packages="$packages ${owner%%:*}"
done
printf '%s\n' $packages | sort -u
