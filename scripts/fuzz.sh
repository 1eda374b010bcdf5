#!/usr/bin/env bash
# Runs every fuzz target of resync-dest for FUZZTIME each (default 10s; CI
# uses that). For a long hunt: FUZZTIME=30m scripts/fuzz.sh, or one target:
#   go test ./resourcesync -run '^$' -fuzz '^FuzzReader$' -fuzztime 1h
# Crashers are written to the package's testdata/fuzz/<Target>/ - commit
# them with the fix so they stay regression tests.
#
# Go 1.26's fuzzing coordinator can fail a target with a bare "context
# deadline exceeded" when -fuzztime ends while a worker is mid-run
# (golang/go#75804, fixed in Go 1.27): nothing was found, no input is
# written. Such a run is tried once more; if it flakes again, the target's
# corpus is replayed deterministically and, when that passes, the flake is
# reported and not counted as a failure. A real finding (an input written,
# a panic, a failed check) always fails.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime="${FUZZTIME:-10s}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0

# flake reports whether the log of a failed run is only the coordinator's
# deadline race.
flake() {
	grep -q 'context deadline exceeded' "$log" &&
		! grep -qE 'Failing input written|panic:|_test\.go:[0-9]+:' "$log"
}

for pkg in $(go list ./... ); do
	dir=$(go list -f '{{.Dir}}' "$pkg")
	targets=$(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u || true)
	for t in $targets; do
		echo "-- $pkg $t ($fuzztime)"
		ok=0
		for attempt in 1 2; do
			if go test "$pkg" -run '^$' -fuzz "^${t}\$" -fuzztime "$fuzztime" >"$log" 2>&1; then
				ok=1
				break
			fi
			flake || break
			echo "   $t: the fuzzing coordinator's deadline race (golang/go#75804), nothing found; trying again"
		done
		if [ "$ok" = 1 ]; then
			continue
		fi
		if flake && go test "$pkg" -run "^${t}\$" -count=1 >/dev/null 2>&1; then
			echo "   $t: flaked twice at the deadline; its corpus replays clean, so it is not a failure"
			continue
		fi
		cat "$log"
		status=1
	done
done
exit $status
