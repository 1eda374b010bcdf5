#!/usr/bin/env bash
# Scale-out benchmark: starts PostgreSQL and versitygw on loopback
# (scripts/scale-lib.sh), builds resync-dest and runs scripts/bench-scale
# (one worker against three, alternated; see its doc). Arguments go to it:
#   scripts/bench-scale.sh -n 200000 -rounds 2
set -euo pipefail
cd "$(dirname "$0")/.."
GOFLAGS="${GOFLAGS:-}"
export GOFLAGS="${GOFLAGS//-mod=mod/} -mod=vendor"
. scripts/scale-lib.sh
scale_install
work=$(mktemp -d -t resync-dest-bench-scale.XXXXXX)
trap 'scale_stop; rm -rf "$work"' EXIT
chmod 755 "$work"
scale_start "$work/servers"
go build -o "$work/resync-dest" ./cmd/resync-dest
go run ./scripts/bench-scale -bin "$work/resync-dest" -work "$work" "$@"
