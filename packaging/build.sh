#!/usr/bin/env bash
# Builds torchtriage's release files into dist/ (or $DIST): for each platform a static binary
# (CGO_ENABLED=0, -trimpath, version stamped from the git tag or commit) named torchtriage-GOOS-GOARCH, the Python
# wheel that carries it (packaging/wheel.py), and SHA256SUMS over all of them. Needs go, git and python3.
#
#   packaging/build.sh                   every platform: linux/amd64, linux/arm64, darwin/arm64
#   packaging/build.sh linux/arm64       only those named
#   packaging/build.sh check             go build ./... for every platform (the cross-compile check CI runs)
#   packaging/build.sh version           print the version it would stamp
#
# VERSION=1.2.3 overrides the version; it is otherwise `git describe --tags --match 'v[0-9]*' --dirty` without the
# v (1.2.3, or 1.2.3-4-gSHA after a tag), or 0.0.0-dev+gSHA[.dirty] in a repository without a tag.
set -euo pipefail
cd "$(dirname "$0")/.."
PLATFORMS=(linux/amd64 linux/arm64 darwin/arm64)
DIST=${DIST:-dist}

version() {
	if [ -n "${VERSION:-}" ]; then
		echo "$VERSION"
	elif d=$(git describe --tags --match 'v[0-9]*' --dirty 2>/dev/null); then
		echo "${d#v}"
	elif c=$(git rev-parse --short HEAD 2>/dev/null); then
		if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then c+=.dirty; fi
		echo "0.0.0-dev+g$c"
	else
		echo "0.0.0-dev"
	fi
}

sha256() {
	if command -v sha256sum >/dev/null; then sha256sum "$@"; else shasum -a 256 "$@"; fi
}

case "${1:-}" in
version)
	version
	exit 0
	;;
check)
	for p in "${PLATFORMS[@]}"; do
		echo "go build ./... for $p"
		GOOS=${p%/*} GOARCH=${p#*/} CGO_ENABLED=0 go build ./...
	done
	exit 0
	;;
esac

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${PLATFORMS[@]}")
v=$(version)
mkdir -p "$DIST"
built=()
for p in "${targets[@]}"; do
	case " ${PLATFORMS[*]} " in *" $p "*) ;; *) echo "build.sh: unknown platform $p (known: ${PLATFORMS[*]})" >&2; exit 2 ;; esac
	bin="$DIST/torchtriage-${p%/*}-${p#*/}"
	GOOS=${p%/*} GOARCH=${p#*/} CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=$v" -o "$bin" .
	whl=$(python3 packaging/wheel.py --binary "$bin" --platform "$p" --version "$v" --out "$DIST")
	built+=("${bin##*/}" "${whl##*/}")
	echo "built $bin and its wheel (torchtriage $v)"
done
(cd "$DIST" && sha256 "${built[@]}" >SHA256SUMS.tmp && mv SHA256SUMS.tmp SHA256SUMS)
echo "checksums of these ${#built[@]} files in $DIST/SHA256SUMS"
