#!/usr/bin/env bash
# Builds a static resync-dest for Linux: cgo (SQLite is C) linked with
# -static, so that it runs on any Linux of its architecture, with no C
# library installed (an empty chroot, a scratch container).
#
#   scripts/build-static.sh GOARCH OUT      GOARCH: amd64 or arm64
#
# VERSION, REVISION and BUILD_DATE, when set, are stamped into the binary
# (resync-dest version prints them). A foreign architecture needs Debian's
# cross compiler (gcc-x86-64-linux-gnu or gcc-aarch64-linux-gnu): installed
# with apt-get when missing and run as root, else the script says what to
# install and fails.
set -euo pipefail
cd "$(dirname "$0")/.."

arch="${1:?usage: scripts/build-static.sh amd64|arm64 OUT}"
out="${2:?usage: scripts/build-static.sh amd64|arm64 OUT}"

case "$arch" in
amd64) triplet=x86_64-linux-gnu; pkg=gcc-x86-64-linux-gnu ;;
arm64) triplet=aarch64-linux-gnu; pkg=gcc-aarch64-linux-gnu ;;
*) echo "build-static: GOARCH $arch: want amd64 or arm64" >&2; exit 2 ;;
esac

# The host's gcc for the host's architecture; the cross compiler otherwise.
if [ "$(go env GOHOSTARCH)" = "$arch" ] && [ "$(go env GOHOSTOS)" = linux ]; then
	cc="${CC:-gcc}"
	need="gcc libc6-dev"
else
	cc="$triplet-gcc"
	need="$pkg"
fi
if ! command -v "$cc" >/dev/null; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		echo "build-static: installing $need (for $cc)" >&2
		apt-get install -y -q $need >/dev/null 2>&1 ||
			{ apt-get update -q >/dev/null 2>&1 && apt-get install -y -q $need >/dev/null; }
	fi
	command -v "$cc" >/dev/null || {
		echo "build-static: no C compiler for linux/$arch ($cc): install Debian's $need (apt-get install $need)" >&2
		exit 1
	}
fi
# A static link needs the C library's archive (libc.a, from libc6-dev or the
# cross compiler's libc6-dev-*-cross).
libc=$("$cc" -print-file-name=libc.a)
if [ "$libc" = libc.a ] || [ ! -f "$libc" ]; then
	echo "build-static: $cc has no libc.a to link statically: install Debian's $need" >&2
	exit 1
fi

ldflags="-s -w -linkmode external -extldflags -static"
[ -z "${VERSION:-}" ] || ldflags+=" -X main.version=$VERSION"
[ -z "${REVISION:-}" ] || ldflags+=" -X main.revision=$REVISION"
[ -z "${BUILD_DATE:-}" ] || ldflags+=" -X main.buildDate=$BUILD_DATE"

# osusergo, netgo: Go's own user and DNS lookups, not glibc's NSS (which a
# static binary cannot load); sqlite_omit_load_extension: no dlopen.
CGO_ENABLED=1 GOOS=linux GOARCH="$arch" CC="$cc" \
	go build -mod=vendor -trimpath -buildvcs=false \
	-tags 'osusergo netgo sqlite_omit_load_extension' \
	-ldflags "$ldflags" -o "$out" ./cmd/resync-dest

# Static means no program interpreter and no shared library needed.
if readelf -lW "$out" | grep -q 'INTERP' || readelf -dW "$out" | grep -q 'NEEDED'; then
	echo "build-static: $out is not static:" >&2
	readelf -lW "$out" | grep -A1 INTERP >&2 || true
	readelf -dW "$out" | grep NEEDED >&2 || true
	exit 1
fi
echo "build-static: $out (linux/$arch, static)" >&2
