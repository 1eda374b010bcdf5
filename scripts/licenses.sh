#!/usr/bin/env bash
# Checks that every vendored module (vendor/modules.txt) keeps its license
# beside its code; `go mod vendor` copies a module's LICENSE, COPYING and
# NOTICE files, and this fails if a module has none (then its terms must be
# looked up by hand before it ships, and a copy kept in
# third_party/licenses/<module>/, as for the Unlicense, which go mod vendor
# does not copy). CI runs it.
#
#   scripts/licenses.sh            check only
#   scripts/licenses.sh DIR [BIN]  also copy the license files to DIR/<module>/,
#                                  and Go's own; with BIN, only the modules
#                                  linked into that binary (go version -m)
set -euo pipefail
cd "$(dirname "$0")/.."

out="${1:-}"
bin="${2:-}"
if [ -n "$bin" ]; then
	mods=$(go version -m "$bin" | awk '$1 == "dep" { print $2 }')
else
	mods=$(awk '$1 == "#" && $2 !~ /^#/ { print $2 }' vendor/modules.txt)
fi

missing=0
for mod in $mods; do
	dir="vendor/$mod"
	[ -d "$dir" ] || { echo "licenses: $mod is not in vendor/ (run go mod vendor)" >&2; missing=1; continue; }
	# A module's license may sit in a parent directory of its path (a
	# module nested in a repository); look up to vendor/.
	found=""
	d="$dir"
	while [ "$d" != vendor ] && [ -z "$found" ]; do
		found=$(find "$d" -maxdepth 1 -type f \( -iname 'LICENSE*' -o -iname 'LICENCE*' -o -iname 'COPYING*' \) | head -n 1)
		[ -n "$found" ] || d=$(dirname "$d")
	done
	if [ -z "$found" ] && [ -d "third_party/licenses/$mod" ]; then
		# A license go mod vendor does not copy (an UNLICENSE file), kept
		# by hand beside the code, with the module's own text.
		d="third_party/licenses/$mod"
		found=$(find "$d" -maxdepth 1 -type f | head -n 1)
	fi
	if [ -z "$found" ]; then
		echo "licenses: no license file for $mod in vendor/ or third_party/licenses/" >&2
		missing=1
		continue
	fi
	if [ -n "$out" ]; then
		mkdir -p "$out/$mod"
		find "$d" -maxdepth 1 -type f \( -iname 'LICENSE*' -o -iname 'LICENCE*' -o -iname 'COPYING*' -o -iname 'NOTICE*' -o -iname 'UNLICENSE*' \) \
			-exec cp {} "$out/$mod/" \;
	fi
done
if [ -n "$out" ]; then
	mkdir -p "$out/go"
	cp "$(go env GOROOT)/LICENSE" "$out/go/LICENSE"
fi
[ "$missing" = 0 ] || exit 1
echo "licenses: every module has its license ($(echo "$mods" | wc -w) modules)"
