#!/usr/bin/env bash
# Runs the scale-out tests against real servers: it installs what is
# missing (PostgreSQL from Debian's postgresql package; versitygw, an S3
# gateway, built with go install into ~/.cache/resync-dest/bin), starts
# both on loopback in a temporary directory (scripts/scale-lib.sh), runs
# the tests that need them with their addresses in the environment, and
# stops both at the end whatever happens. scripts/test.sh runs it; so
# does CI. Arguments go to `go test`.
set -euo pipefail
cd "$(dirname "$0")/.."
GOFLAGS="${GOFLAGS:-}"
export GOFLAGS="${GOFLAGS//-mod=mod/} -mod=vendor"

. scripts/scale-lib.sh
scale_install

work=$(mktemp -d -t resync-dest-scale.XXXXXX)
trap 'scale_stop; rm -rf "$work"' EXIT
scale_start "$work"

# Required: a test that cannot reach the servers fails instead of skipping.
export SCALETEST=required
# The packages that need the servers, and the command-line tests that do
# (named TestScale...).
# Both runs, whatever the first one says.
status=0
go test -race -count=1 -timeout 15m ./s3mirror/ ./pgstate/ ./worker/ "$@" || status=1
go test -race -count=1 -timeout 15m -run '^TestScale' ./cmd/resync-dest/ "$@" || status=1
exit $status
