#!/usr/bin/env bash
# Runs every fuzz target of resync-dest for FUZZTIME each (default 10s; CI
# uses that). For a long hunt: FUZZTIME=30m scripts/fuzz.sh, or one target:
#   go test ./resourcesync -run '^$' -fuzz '^FuzzReader$' -fuzztime 1h
# Crashers are written to the package's testdata/fuzz/<Target>/ - commit
# them with the fix so they stay regression tests.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${FUZZTIME:-10s}"
status=0
for pkg in $(go list ./... ); do
	dir=$(go list -f '{{.Dir}}' "$pkg")
	targets=$(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u || true)
	for t in $targets; do
		echo "-- $pkg $t ($fuzztime)"
		if ! go test "$pkg" -run '^$' -fuzz "^${t}\$" -fuzztime "$fuzztime" >/tmp/fuzz-$$.log 2>&1; then
			cat /tmp/fuzz-$$.log; status=1
		fi
	done
done
rm -f /tmp/fuzz-$$.log
exit $status
