#!/usr/bin/env bash
# Runs every test of resync-dest with the race detector. This is the README's
# test command and what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
exec go test -race -count=1 -timeout 15m ./... "$@"
