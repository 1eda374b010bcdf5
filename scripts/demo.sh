#!/usr/bin/env bash
# The demo of resync-dest, against the built-in fixture Source: builds both
# programs, serves a Source of RESOURCES resources (default 1000) on
# loopback, discovers it and makes a verified baseline copy into
# DEMO_DIR/mirror (default: a new temp directory), then shows that a second
# run fetches nothing. Give it a real Source instead with SOURCE_URL=...
set -euo pipefail
cd "$(dirname "$0")/.."

work="${DEMO_DIR:-$(mktemp -d -t resync-dest-demo.XXXXXX)}"
mkdir -p "$work/bin"
echo "== building into $work/bin"
go build -o "$work/bin/resync-dest" ./cmd/resync-dest
go build -o "$work/bin/fixture-source" ./fixtures/cmd/fixture-source
rd="$work/bin/resync-dest"

url="${SOURCE_URL:-}"
if [ -z "$url" ]; then
	"$work/bin/fixture-source" -resources "${RESOURCES:-1000}" -listen 127.0.0.1:0 \
		>"$work/source.out" 2>"$work/source.log" &
	pid=$!
	trap 'kill $pid 2>/dev/null || true; wait $pid 2>/dev/null || true' EXIT
	for _ in $(seq 100); do
		url=$(head -n 1 "$work/source.out" 2>/dev/null || true)
		[ -n "$url" ] && break
		sleep 0.1
	done
	[ -n "$url" ] || { echo "the fixture Source did not start:"; cat "$work/source.log"; exit 1; }
	echo "== fixture Source serving at $url"
fi

echo "== resync-dest discover $url"
"$rd" discover "$url"

echo "== resync-dest baseline --dest $work/mirror $url"
"$rd" baseline --dest "$work/mirror" "$url"

echo "== the same again: everything is already held, nothing is fetched"
"$rd" baseline --dest "$work/mirror" "$url"

echo "== the mirror: $work/mirror"
find "$work/mirror" -path "$work/mirror/.resync-dest" -prune -o -type f -print | head -n 5
echo "   ... $(find "$work/mirror" -path "$work/mirror/.resync-dest" -prune -o -type f -print | wc -l) files"
