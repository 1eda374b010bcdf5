#!/usr/bin/env bash
# Builds the container image (Containerfile) for the host's architecture,
# smoke-tests it and saves it into DIST; called by scripts/release.sh
# (VERSION, REVISION and BUILD_DATE in the environment, the host's static
# binary in WORK/resync-dest-VERSION-linux-ARCH/).
#
#   scripts/release-image.sh WORK DIST
#
# It uses podman, or docker, when it can actually build and run here, and
# otherwise says why and exits 0: the tarballs do not depend on it. Where
# the Go image (GO_IMAGE) cannot be pulled, the Containerfile's final stage
# is built from the static binary release.sh built, in place of its build
# stage. The smoke test: `version` prints the stamped version; the image
# holds the binary, the CA certificates, passwd/group, /data and /tmp, and
# nothing else; it runs as 65532; `sync` into a volume at /data copies the
# fixture Source over loopback, and `audit` on the host finds the copy
# exact.
set -euo pipefail
cd "$(dirname "$0")/.."
work="${1:?usage: scripts/release-image.sh WORK DIST}"
dist="${2:?usage: scripts/release-image.sh WORK DIST}"
: "${VERSION:?VERSION is not set}"
arch=$(go env GOHOSTARCH)
bin="$work/resync-dest-$VERSION-linux-$arch/resync-dest"
image="localhost/resync-dest:$VERSION"
go_image="${GO_IMAGE:-docker.io/library/golang:1.26-bookworm}"
skip() { echo "   SKIPPED: no container image: $*"; exit 0; }
[ -x "$bin" ] || skip "no linux/$arch binary was built ($bin)"

# The tool, and the global options it needs here: podman in a sandbox may
# need the vfs storage driver, runc and cgroupfs.
tool=""
if command -v podman >/dev/null && podman info >/dev/null 2>&1; then
	tool=podman
elif command -v docker >/dev/null && docker info >/dev/null 2>&1; then
	tool=docker
else
	skip "neither podman nor docker can run here (docker's client without an engine does not count); install podman (apt-get install podman) and run again"
fi
G=()
probe="$work/image-probe"
mkdir -p "$probe"
cp "$bin" "$probe/resync-dest"
printf 'FROM scratch\nCOPY resync-dest /resync-dest\n' >"$probe/Containerfile"
if ! $tool build -q -t localhost/resync-dest-probe -f "$probe/Containerfile" "$probe" >"$work/probe.log" 2>&1; then
	[ $tool = podman ] || skip "docker cannot build here: $(tail -n 1 "$work/probe.log")"
	G=(--storage-driver vfs)
	$tool "${G[@]}" build -q -t localhost/resync-dest-probe -f "$probe/Containerfile" "$probe" >"$work/probe.log" 2>&1 ||
		skip "podman cannot build here, with overlay or vfs storage: $(tail -n 1 "$work/probe.log")"
	echo "   podman builds with --storage-driver vfs"
fi
# Running (the build stage's RUN too): the defaults, or what a sandbox
# allows (runc with cgroupfs, no raising of the rlimits).
R=()
if ! $tool "${G[@]}" run --rm localhost/resync-dest-probe /resync-dest version >"$work/run.log" 2>&1; then
	if [ $tool = podman ]; then
		G+=(--runtime runc --cgroup-manager cgroupfs)
		R=(--ulimit nofile=1024:1024 --ulimit nproc=1024:1024)
	fi
	if ! $tool "${G[@]}" run --rm "${R[@]}" localhost/resync-dest-probe /resync-dest version >"$work/run.log" 2>&1; then
		$tool "${G[@]}" rmi -f localhost/resync-dest-probe >/dev/null 2>&1 || true
		skip "$tool builds but cannot run a container here: $(tail -n 1 "$work/run.log")"
	fi
	echo "   $tool runs here with: ${G[*]} ${R[*]}"
fi
$tool "${G[@]}" rmi -f localhost/resync-dest-probe >/dev/null 2>&1 || true

# The image: from source in the Go image when it can be had, else from
# the binary built above.
if $tool "${G[@]}" image inspect "$go_image" >/dev/null 2>&1 ||
	timeout 120 $tool "${G[@]}" pull -q "$go_image" >"$work/pull.log" 2>&1; then
	echo "   building from source in $go_image"
	$tool "${G[@]}" build "${R[@]}" -t "$image" -f Containerfile \
		--build-arg GO_IMAGE="$go_image" --build-arg VERSION="$VERSION" \
		--build-arg REVISION="${REVISION:-}" --build-arg BUILD_DATE="${BUILD_DATE:-}" . >"$work/build.log" 2>&1 ||
		{ tail -n 30 "$work/build.log" >&2; echo "release-image: the build failed" >&2; exit 1; }
else
	echo "   NOTE: $go_image cannot be pulled here ($(tail -n 1 "$work/pull.log" 2>/dev/null | cut -c1-160));"
	echo "   the image (the Containerfile's final stage) is built from the static binary above"
	# The Containerfile's final stage, its build stage replaced by the root
	# that stage would make.
	ctx="$work/image-context"
	mkdir -p "$ctx/rootfs"
	cp "$bin" "$ctx/rootfs/resync-dest"
	scripts/container-rootfs.sh "$ctx/rootfs"
	{
		printf 'FROM scratch AS build\nCOPY rootfs/ /rootfs/\n\n'
		sed -n '/^FROM scratch$/,$p' Containerfile
	} >"$ctx/Containerfile"
	grep -q '^USER 65532' "$ctx/Containerfile" || { echo "release-image: no final stage found in Containerfile" >&2; exit 1; }
	$tool "${G[@]}" build "${R[@]}" -t "$image" -f "$ctx/Containerfile" "$ctx" >"$work/build.log" 2>&1 ||
		{ tail -n 30 "$work/build.log" >&2; echo "release-image: the build failed" >&2; exit 1; }
fi

echo "== smoke test of $image"
$tool "${G[@]}" run --rm "${R[@]}" "$image" version >"$work/run.log"
sed 's/^/   /' "$work/run.log"
grep -qx "resync-dest $VERSION" "$work/run.log" || { echo "release-image: the image does not print $VERSION" >&2; exit 1; }

user=$($tool "${G[@]}" image inspect --format '{{.Config.User}}' "$image")
[ "$user" = 65532:65532 ] || { echo "release-image: the image runs as '$user', want 65532:65532" >&2; exit 1; }
cid=$($tool "${G[@]}" create "$image")
files=$($tool "${G[@]}" export "$cid" | tar -t | sed 's#/$##' | sort | tr '\n' ' ')
$tool "${G[@]}" rm "$cid" >/dev/null
# (podman and docker add mount points of their own: dev, etc/hosts, proc, ...)
want="data etc etc/group etc/passwd etc/ssl etc/ssl/certs etc/ssl/certs/ca-certificates.crt resync-dest tmp"
for f in $want; do
	[[ " $files " == *" $f "* ]] || { echo "release-image: the image lacks /$f (it holds: $files)" >&2; exit 1; }
done
for f in $files; do
	case " $want dev etc/hosts etc/hostname etc/resolv.conf proc run sys " in
	*" $f "*) ;;
	*) echo "release-image: the image holds /$f, more than it should" >&2; exit 1 ;;
	esac
done
echo "   holds only: $want; runs as $user"

. scripts/fixture-lib.sh
trap fixture_stop EXIT
fixture_start "$work" 50
data="$work/image-data"
mkdir -p "$data"
if [ "$(id -u)" = 0 ]; then chown 65532:65532 "$data"; else podman unshare chown 65532:65532 "$data"; fi
$tool "${G[@]}" run --rm "${R[@]}" --network host -v "$data:/data" "$image" \
	sync --progress never --dest /data "$fixture_url" 2>&1 | sed 's/^/   /'
# The copy made in the container is exact (audit exits 4 otherwise).
"$work/host/resync-dest" audit --dest "$data" "$fixture_url" | sed 's/^/   /'
echo "   the image synced the fixture Source into its /data volume; audit found no difference"

out="$dist/resync-dest-$VERSION-image-linux-$arch.tar"
if [ $tool = podman ]; then
	$tool "${G[@]}" save -q --format docker-archive -o "$out" "$image"
else
	$tool save -o "$out" "$image"
fi
echo "   saved: $out (load it with: podman load -i FILE, or docker load -i FILE)"
