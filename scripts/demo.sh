#!/usr/bin/env bash
# The demo of resync-dest, against the built-in fixture Source: builds both
# programs, serves a Source of RESOURCES resources (default 1000) on
# loopback, discovers it, makes a verified baseline copy into
# DEMO_DIR/mirror (default: a new temp directory) with `sync`, then lets the
# Source change (CHANGES changes, default 200, published in its Change
# Lists) and runs `sync` again, which applies just those changes; a last
# `sync` finds nothing to do. Give it a real Source instead with
# SOURCE_URL=... (then the demo syncs twice, whatever the Source changed in
# between).
set -euo pipefail
cd "$(dirname "$0")/.."

work="${DEMO_DIR:-$(mktemp -d -t resync-dest-demo.XXXXXX)}"
mkdir -p "$work/bin"
echo "== building into $work/bin"
go build -o "$work/bin/resync-dest" ./cmd/resync-dest
go build -o "$work/bin/fixture-source" ./fixtures/cmd/fixture-source
rd="$work/bin/resync-dest"
resources="${RESOURCES:-1000}"
changes="${CHANGES:-200}"

pid=""
trap '[ -n "$pid" ] && { kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true; }' EXIT

# serve LISTEN [flags...]: start the fixture Source, wait for its URL.
serve() {
	local listen=$1
	shift
	: >"$work/source.out"
	"$work/bin/fixture-source" -resources "$resources" -change-list-max 50 -listen "$listen" "$@" \
		>"$work/source.out" 2>"$work/source.log" &
	pid=$!
	url=""
	for _ in $(seq 100); do
		url=$(head -n 1 "$work/source.out" 2>/dev/null || true)
		[ -n "$url" ] && return 0
		sleep 0.1
	done
	echo "the fixture Source did not start:"
	cat "$work/source.log"
	exit 1
}

url="${SOURCE_URL:-}"
if [ -z "$url" ]; then
	serve 127.0.0.1:0
	echo "== fixture Source serving at $url"
fi

echo "== resync-dest discover $url"
"$rd" discover "$url"

echo "== resync-dest sync --dest $work/mirror $url   (never synced: a baseline)"
"$rd" sync --dest "$work/mirror" "$url"

if [ -z "${SOURCE_URL:-}" ]; then
	# The fixture Source is a pure function of its flags: the same Source
	# with -changes N is this one after N changes, one second apart, each
	# in its Change Lists (closed lists of 50 under a Change List Index).
	echo "== the Source changes: $changes creations, updates and deletions"
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	pid=""
	hostport="${url#http://}"
	serve "${hostport%/}" -changes "$changes"
fi

echo "== resync-dest sync --delete --dest $work/mirror $url   (the changes since: incremental)"
"$rd" sync --delete --max-delete 50% --dest "$work/mirror" "$url"

echo "== the same again: nothing changed, nothing is fetched"
"$rd" sync --delete --dest "$work/mirror" "$url"

echo "== the mirror: $work/mirror"
find "$work/mirror" -path "$work/mirror/.resync-dest" -prune -o -type f -print | head -n 5 || true # head closes the pipe early
echo "   ... $(find "$work/mirror" -path "$work/mirror/.resync-dest" -prune -o -type f -print | wc -l) files"
echo "== a crontab line that keeps it in step (see the README for a systemd timer):"
echo "   */15 * * * *  $rd --quiet sync --delete --dest $work/mirror $url"
