#!/usr/bin/env bash
# Proves that the release binary needs nothing from the system: it builds
# the static resync-dest (scripts/build-static.sh, for this machine's
# architecture), puts it alone in an empty directory - no C library, no
# /etc, no /proc, no /tmp - and runs it there with chroot against the
# fixture Source over loopback: `version`, a `sync` (a baseline into /data)
# and a `baseline` again (every resource unchanged). The resync-dest of this source
# tree, outside, then audits the copy (exit 0: exact). CI runs it.
#
# chroot needs root, or a user namespace (unshare -r); without either the
# script says so and exits 0 without testing.
set -euo pipefail
cd "$(dirname "$0")/.."
export GOFLAGS="${GOFLAGS:-} -mod=vendor"

if [ "$(id -u)" = 0 ]; then
	jail=(chroot)
elif unshare -r true 2>/dev/null; then
	jail=(unshare -r chroot)
else
	echo "static-test: SKIPPED: chroot needs root or user namespaces (unshare -r), and this user has neither"
	exit 0
fi

work=$(mktemp -d -t resync-dest-static.XXXXXX)
. scripts/fixture-lib.sh
trap 'fixture_stop; rm -rf "$work"' EXIT

root="$work/root"
mkdir -p "$root/data"
scripts/build-static.sh "$(go env GOHOSTARCH)" "$root/resync-dest"
go build -o "$work/resync-dest" ./cmd/resync-dest
fixture_start "$work" 200
echo "static-test: the fixture Source is at $fixture_url; the root holds:"
(cd "$root" && find . | sort | sed 's/^/   /')

run() { "${jail[@]}" "$root" /resync-dest "$@"; }

echo "== version, in the empty root"
out=$(run version)
echo "$out" | sed 's/^/   /'
grep -qx "platform: linux/$(go env GOHOSTARCH)" <<<"$out" || { echo "static-test: version printed no platform line" >&2; exit 1; }

echo "== sync (a baseline), in the empty root"
run sync --progress never --dest /data "$fixture_url" | sed 's/^/   /'
echo "== baseline again: every resource found unchanged in the state and on disk"
out=$(run baseline --progress never --dest /data "$fixture_url")
echo "$out" | sed 's/^/   /'
grep -q "200 unchanged" <<<"$out" || { echo "static-test: the second run did not find the 200 resources unchanged" >&2; exit 1; }

echo "== audit of the copy, from outside"
"$work/resync-dest" audit --dest "$root/data" "$fixture_url" | sed 's/^/   /'
# Nothing but the binary and the mirror was ever in the root.
extra=$(cd "$root" && find . -mindepth 1 -maxdepth 1 ! -name resync-dest ! -name data)
[ -z "$extra" ] || { echo "static-test: the root gained $extra" >&2; exit 1; }
echo "static-test: passed: the static binary ran alone in an empty root"
