#!/usr/bin/env bash
# Fills ROOT with what the container image holds besides the static binary
# (ROOT/resync-dest): the CA certificates, a non-root user (resync-dest,
# 65532:65532) in /etc/passwd and /etc/group, /data (the volume for --dest,
# owned by that user) and /tmp. The Containerfile's build stage runs it, and
# scripts/release.sh for the image it builds from its own binary.
#
#   scripts/container-rootfs.sh ROOT
set -euo pipefail
root="${1:?usage: scripts/container-rootfs.sh ROOT}"
certs=/etc/ssl/certs/ca-certificates.crt
[ -s "$certs" ] || { echo "container-rootfs: no $certs: install Debian's ca-certificates" >&2; exit 1; }
[ -x "$root/resync-dest" ] || { echo "container-rootfs: no $root/resync-dest" >&2; exit 1; }

mkdir -p "$root/etc/ssl/certs" "$root/data" "$root/tmp"
cp "$certs" "$root/etc/ssl/certs/ca-certificates.crt"
echo 'resync-dest:x:65532:65532:resync-dest:/data:/sbin/nologin' >"$root/etc/passwd"
echo 'resync-dest:x:65532:' >"$root/etc/group"
chmod 1777 "$root/tmp"
chmod 0755 "$root/data"
