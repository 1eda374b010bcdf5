#!/usr/bin/env bash
# Runs every test of resync-dest with the race detector: the main module's,
# offline from vendor/, then the nettest module's (the network-fault tests
# through Toxiproxy, in a module of their own so that Toxiproxy's
# dependencies stay out of the product's go.mod; its modules come from the
# Go module proxy), then the scale-out tests against real PostgreSQL and
# versitygw servers (scripts/test-scale.sh, which installs and starts
# them). Arguments go to every `go test` run. This is the README's test
# command and what CI runs.
set -uo pipefail
cd "$(dirname "$0")/.."

status=0
go test -race -count=1 -timeout 15m ./... "$@" || status=1

# nettest has no vendor/. -mod=mod: a module the main module gains is taken
# here too (nettest/go.sum updated) instead of failing the run.
GOFLAGS="${GOFLAGS:-}"
GOFLAGS="${GOFLAGS//-mod=vendor/} -mod=mod"
if [ "${GOPROXY:-}" = off ]; then unset GOPROXY; fi
(cd nettest && GOFLAGS="$GOFLAGS" go test -race -count=1 -timeout 15m ./... "$@") || status=1

scripts/test-scale.sh "$@" || status=1
exit $status
