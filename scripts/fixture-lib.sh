# Sourced by the scripts that run resync-dest against the fixture Source
# (static-test.sh, release-image.sh): fixture_start builds and starts it on
# a free loopback port and sets fixture_url; fixture_stop stops it (the
# caller's EXIT trap calls it).

fixture_pid=""
fixture_url=""

# fixture_start DIR RESOURCES: logs go to DIR.
fixture_start() {
	local dir=$1 resources=$2
	go build -o "$dir/fixture-source" ./fixtures/cmd/fixture-source
	"$dir/fixture-source" -resources "$resources" -listen 127.0.0.1:0 >"$dir/fixture.out" 2>"$dir/fixture.log" &
	fixture_pid=$!
	for _ in $(seq 300); do
		fixture_url=$(head -n 1 "$dir/fixture.out" 2>/dev/null || true)
		[ -n "$fixture_url" ] && return 0
		kill -0 "$fixture_pid" 2>/dev/null || break
		sleep 0.1
	done
	echo "the fixture Source did not start:" >&2
	cat "$dir/fixture.log" >&2
	return 1
}

fixture_stop() {
	if [ -n "$fixture_pid" ]; then
		kill "$fixture_pid" 2>/dev/null || true
		wait "$fixture_pid" 2>/dev/null || true
		fixture_pid=""
	fi
}
