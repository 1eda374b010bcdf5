#!/usr/bin/env bash
# Lists the modules that have newer versions than the ones resync-dest
# builds with - those that provide a package to the main module's code and
# tests, and to the nettest module's (the Toxiproxy tests) - so that
# keeping dependencies current is a habit: run it before a release. It
# asks the Go module proxy (the go command's GOPROXY) and changes nothing.
# To take an update:
#   GOFLAGS=-mod=mod go get MODULE@VERSION && go mod tidy && go mod vendor
#   (cd nettest && GOFLAGS=-mod=mod go mod tidy)
# then run scripts/test.sh, and say in the README why a new module is
# there.
set -euo pipefail
cd "$(dirname "$0")/.."

# -mod=mod: `go list -m -u` needs the module graph, not vendor/.
GOFLAGS="${GOFLAGS:-}"
export GOFLAGS="${GOFLAGS//-mod=vendor/} -mod=mod"
if [ "${GOPROXY:-}" = off ]; then unset GOPROXY; fi

main=$(go list -m)
format='{{if .Update}}{{.Path}} {{.Version}} -> {{.Update.Version}}{{if .Indirect}} (indirect){{end}}{{end}}'
for dir in . nettest; do
	echo "== $(cd "$dir" && go list -m)"
	# The modules whose packages are built or tested here; not the main
	# module, which the nettest module takes from the directory above.
	mods=$(cd "$dir" && go list -deps -test -f '{{with .Module}}{{.Path}}{{end}}' ./... |
		sort -u | grep -vx -e "$main" -e "$main/nettest")
	# shellcheck disable=SC2086 # one argument per module
	updates=$(cd "$dir" && go list -m -u -f "$format" $mods | sed '/^$/d')
	if [ -z "$updates" ]; then
		echo "every module is at its newest version"
	else
		grep -v '(indirect)' <<<"$updates" || true
		grep '(indirect)' <<<"$updates" || true
	fi
done
