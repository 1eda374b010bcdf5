# Sourced by test-scale.sh and bench-scale: the real servers the scale-out
# tests use, on loopback, in a temporary directory.
#
#   scale_install     installs what is missing: PostgreSQL (Debian's
#                     postgresql package, apt-get) and versitygw (go install
#                     into $SCALE_BIN_DIR, ~3 min the first time)
#   scale_start DIR   starts PostgreSQL (initdb + pg_ctl, as the postgres user
#                     when run as root: root may not run initdb) and versitygw
#                     (its posix backend) with their data under DIR, and
#                     exports their addresses (below)
#   scale_stop        stops both; the caller's EXIT trap calls it
#
# Exported for the tests:
#   SCALETEST_POSTGRES     postgres://... of a superuser on the server
#   SCALETEST_S3_ENDPOINT  http://127.0.0.1:PORT of versitygw
#   SCALETEST_S3_ACCESS_KEY, SCALETEST_S3_SECRET_KEY

SCALE_VERSITYGW_VERSION=v1.8.0
SCALE_BIN_DIR="${SCALE_BIN_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/resync-dest/bin}"
scale_pgdata=""
scale_pgbin=""
scale_vgw_pid=""

# scale_pgbin_dir prints the directory holding initdb and pg_ctl, if any.
scale_pgbin_dir() {
	if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
		dirname "$(command -v initdb)"
		return 0
	fi
	local d
	for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
		if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then
			echo "$d"
			return 0
		fi
	done
	return 1
}

scale_versitygw() {
	if command -v versitygw >/dev/null 2>&1; then
		command -v versitygw
	elif [ -x "$SCALE_BIN_DIR/versitygw" ]; then
		echo "$SCALE_BIN_DIR/versitygw"
	else
		return 1
	fi
}

scale_install() {
	if ! scale_pgbin_dir >/dev/null; then
		echo "scale: installing PostgreSQL (apt-get install postgresql)"
		if [ "$(id -u)" != 0 ]; then
			echo "scale: PostgreSQL (initdb, pg_ctl) is missing and only root may apt-get install it" >&2
			return 1
		fi
		DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null || return 1
	fi
	if ! scale_versitygw >/dev/null; then
		echo "scale: building versitygw $SCALE_VERSITYGW_VERSION into $SCALE_BIN_DIR (go install, a few minutes the first time)"
		mkdir -p "$SCALE_BIN_DIR"
		# Its own module graph: not this module's vendor/, and the proxy
		# even where CI turned it off for the product's build.
		local proxy="${GOPROXY:-}"
		if [ "$proxy" = off ] || [ -z "$proxy" ]; then proxy=https://proxy.golang.org,direct; fi
		(cd / && GOFLAGS= GOPROXY="$proxy" GOBIN="$SCALE_BIN_DIR" CGO_ENABLED=0 \
			go install "github.com/versity/versitygw/cmd/versitygw@$SCALE_VERSITYGW_VERSION") || return 1
	fi
}

# scale_free_port prints a loopback TCP port nobody listens on, below the
# kernel's ephemeral range: a port of that range may be the local end of
# one of the many connections the tests make, which no connect finds but
# on which a bind fails. The caller retries with another port when its
# server cannot bind the one given (scale_start), since the check and the
# bind are not one step.
scale_free_port() {
	local port low=32768
	if [ -r /proc/sys/net/ipv4/ip_local_port_range ]; then
		read -r low _ </proc/sys/net/ipv4/ip_local_port_range
	fi
	if [ "$low" -le 11024 ]; then low=61000; fi
	for _ in $(seq 200); do
		port=$((10000 + RANDOM % (low - 10000)))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
			echo "$port"
			return 0
		fi
	done
	return 1
}

# scale_as_postgres runs a command as the postgres user when we are root.
scale_as_postgres() {
	if [ "$(id -u)" = 0 ]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

# scale_wait_port PORT PID NAME LOG: waits (60 s at most) until PORT accepts.
scale_wait_port() {
	local port=$1 pid=$2 name=$3 log=$4
	for _ in $(seq 600); do
		if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
			return 0
		fi
		if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
			break
		fi
		sleep 0.1
	done
	echo "scale: $name did not start:" >&2
	cat "$log" >&2
	return 1
}

scale_start() {
	local dir=$1 port
	scale_pgbin=$(scale_pgbin_dir) || { echo "scale: PostgreSQL is not installed (scale_install)" >&2; return 1; }
	local vgw
	vgw=$(scale_versitygw) || { echo "scale: versitygw is not installed (scale_install)" >&2; return 1; }

	mkdir -p "$dir/pg" "$dir/s3"
	chmod 755 "$dir"
	if [ "$(id -u)" = 0 ]; then chown postgres "$dir/pg"; fi
	scale_as_postgres "$scale_pgbin/initdb" -D "$dir/pg/data" -U postgres -A trust --no-sync -E UTF8 >"$dir/initdb.log" 2>&1 ||
		{ cat "$dir/initdb.log" >&2; return 1; }
	scale_pgdata="$dir/pg/data"
	# fsync off: the tests kill workers, never the database server.
	local try
	for try in 1 2 3 4 5; do
		port=$(scale_free_port)
		if scale_as_postgres "$scale_pgbin/pg_ctl" -D "$scale_pgdata" -l "$dir/pg/server.log" -w -t 120 \
			-o "-c listen_addresses=127.0.0.1 -p $port -k $dir/pg -c fsync=off -c max_connections=300" start >/dev/null; then
			break
		fi
		if [ "$try" = 5 ] || ! grep -q "Address already in use" "$dir/pg/server.log"; then
			cat "$dir/pg/server.log" >&2
			return 1
		fi
		echo "scale: port $port was taken before PostgreSQL bound it; another one" >&2
	done
	export SCALETEST_POSTGRES="postgres://postgres@127.0.0.1:$port/postgres?sslmode=disable"

	export SCALETEST_S3_ACCESS_KEY=resync-test
	export SCALETEST_S3_SECRET_KEY=resync-test-secret
	for try in 1 2 3 4 5; do
		port=$(scale_free_port)
		"$vgw" --access "$SCALETEST_S3_ACCESS_KEY" --secret "$SCALETEST_S3_SECRET_KEY" \
			--port "127.0.0.1:$port" --quiet posix "$dir/s3" >"$dir/versitygw.log" 2>&1 &
		scale_vgw_pid=$!
		if scale_wait_port "$port" "$scale_vgw_pid" versitygw "$dir/versitygw.log" 2>/dev/null; then
			break
		fi
		kill "$scale_vgw_pid" 2>/dev/null || true
		wait "$scale_vgw_pid" 2>/dev/null || true
		scale_vgw_pid=""
		if [ "$try" = 5 ] || ! grep -q "address already in use" "$dir/versitygw.log"; then
			echo "scale: versitygw did not start:" >&2
			cat "$dir/versitygw.log" >&2
			return 1
		fi
		echo "scale: port $port was taken before versitygw bound it; another one" >&2
	done
	export SCALETEST_S3_ENDPOINT="http://127.0.0.1:$port"
	echo "scale: PostgreSQL at $SCALETEST_POSTGRES, versitygw at $SCALETEST_S3_ENDPOINT"
}

scale_stop() {
	if [ -n "$scale_vgw_pid" ]; then
		kill "$scale_vgw_pid" 2>/dev/null || true
		wait "$scale_vgw_pid" 2>/dev/null || true
		scale_vgw_pid=""
	fi
	if [ -n "$scale_pgdata" ]; then
		scale_as_postgres "$scale_pgbin/pg_ctl" -D "$scale_pgdata" -m immediate -w stop >/dev/null 2>&1 || true
		scale_pgdata=""
	fi
}
