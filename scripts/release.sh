#!/usr/bin/env bash
# Makes a release of resync-dest into dist/:
#
#   scripts/release.sh VERSION          e.g. scripts/release.sh v1.2.0
#
#   dist/resync-dest-VERSION-linux-amd64.tar.gz   static binary, README.md, LICENSE,
#   dist/resync-dest-VERSION-linux-arm64.tar.gz   the man page, bash/zsh/fish completions
#                                                 and the licenses of what is linked in
#   dist/resync-dest-VERSION-image-linux-ARCH.tar the container image (podman/docker load)
#   dist/SHA256SUMS
#
# The binaries are static (cgo, SQLite included), for any Linux of their
# architecture; the version, the git revision and the build date are
# stamped in (resync-dest version prints them). It needs Go, gcc and git;
# Debian's cross compiler for the other architecture is installed when
# missing (scripts/build-static.sh). The container image (Containerfile) is
# built and smoke-tested against the fixture Source when podman or docker
# can build and run here, for the host's architecture; otherwise the script
# says why and goes on without it. SOURCE_DATE_EPOCH, when set, is the
# build date (reproducible tarballs); ARCHES overrides "amd64 arm64";
# CONTAINER=no skips the image.
set -euo pipefail
cd "$(dirname "$0")/.."

version="${1:?usage: scripts/release.sh VERSION (e.g. v1.2.0)}"
if ! [[ "$version" =~ ^v?[0-9]+\.[0-9]+\.[0-9]+([-+][0-9A-Za-z.+-]+)?$ ]]; then
	echo "release: VERSION $version: want a semantic version such as v1.2.0 or v1.2.0-rc.1" >&2
	exit 2
fi
export GOFLAGS="${GOFLAGS:-} -mod=vendor"
export GOPROXY=off # the product builds from vendor/

revision=""
if git rev-parse --git-dir >/dev/null 2>&1; then
	revision=$(git rev-parse HEAD)
	if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
		revision+="-dirty"
		echo "release: the work tree has uncommitted changes; the revision is stamped $revision" >&2
	fi
fi
epoch="${SOURCE_DATE_EPOCH:-$(date +%s)}"
build_date=$(date -u -d "@$epoch" +%Y-%m-%dT%H:%M:%SZ)
export VERSION="$version" REVISION="$revision" BUILD_DATE="$build_date"

dist=dist
rm -rf "$dist"
mkdir -p "$dist"
work=$(mktemp -d -t resync-dest-release.XXXXXX)
cleanup() { rm -rf "$work"; }
trap cleanup EXIT

# The man page and completions come from the command definitions; any
# build of this source prints the same.
echo "== man page and completions"
go build -o "$work/host/resync-dest" ./cmd/resync-dest
docs="$work/docs"
mkdir -p "$docs/completions"
"$work/host/resync-dest" generate-docs man >"$docs/resync-dest.1"
"$work/host/resync-dest" generate-docs bash >"$docs/completions/resync-dest.bash"
"$work/host/resync-dest" generate-docs zsh >"$docs/completions/_resync-dest"
"$work/host/resync-dest" generate-docs fish >"$docs/completions/resync-dest.fish"
# Syntax checks, with the shells this machine has.
bash -n "$docs/completions/resync-dest.bash"
if command -v zsh >/dev/null; then zsh -n "$docs/completions/_resync-dest"; fi
if command -v fish >/dev/null; then fish --no-execute "$docs/completions/resync-dest.fish"; fi

# The C library is linked in: its notice goes with the binary.
glibc_notice() {
	mkdir -p "$1/glibc"
	for f in /usr/share/doc/libc6/copyright /usr/share/common-licenses/LGPL-2.1; do
		if [ -f "$f" ]; then cp "$f" "$1/glibc/"; else echo "release: warning: $f is missing" >&2; fi
	done
}

# check_version BIN ARCH: the stamp is in the binary, and a binary this
# machine can run prints it.
check_version() {
	local bin=$1 arch=$2 out runner=""
	# (-trimpath keeps -ldflags out of the build information: look for the
	# strings themselves.)
	grep -qaF -- "$version" "$bin" && grep -qaF -- "$build_date" "$bin" ||
		{ echo "release: $bin lacks the version stamp" >&2; exit 1; }
	if [ "$arch" != "$(go env GOHOSTARCH)" ]; then
		case "$arch" in amd64) runner=qemu-x86_64 ;; arm64) runner=qemu-aarch64 ;; esac
		command -v "$runner-static" >/dev/null && runner="$runner-static"
		if ! command -v "$runner" >/dev/null; then
			echo "   (not run: no $runner here to run a linux/$arch binary; its stamp is checked)"
			return
		fi
	fi
	out=$($runner "$bin" version)
	echo "$out" | sed 's/^/   /'
	grep -qx "resync-dest $version" <<<"$out" && grep -qx "revision: ${revision:-unknown}" <<<"$out" &&
		grep -qx "built: $build_date" <<<"$out" && grep -qx "platform: linux/$arch" <<<"$out" ||
		{ echo "release: $bin version does not print the stamped values" >&2; exit 1; }
}

for arch in ${ARCHES:-amd64 arm64}; do
	name="resync-dest-$version-linux-$arch"
	dir="$work/$name"
	echo "== $name"
	mkdir -p "$dir"
	scripts/build-static.sh "$arch" "$dir/resync-dest"
	check_version "$dir/resync-dest" "$arch"
	cp README.md LICENSE "$dir/"
	cp -r "$docs/." "$dir/"
	scripts/licenses.sh "$dir/licenses" "$dir/resync-dest" >/dev/null
	glibc_notice "$dir/licenses"
	tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -C "$work" -cf - "$name" |
		gzip -n -9 >"$dist/$name.tar.gz"
done

if [ "${CONTAINER:-yes}" != no ]; then
	echo "== container image"
	scripts/release-image.sh "$work" "$dist"
fi

(cd "$dist" && sha256sum -- * >SHA256SUMS)
echo "== $dist"
ls -l "$dist"
cat "$dist/SHA256SUMS"
