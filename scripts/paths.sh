# shellcheck shell=bash
# The project's paths, in one place: sourced by scripts/lib.sh and by the
# tests; `bash scripts/paths.sh cache|build|top` prints one (the Makefile).
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
CACHE=${IMA_STACK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ima-stack}
# the guest image: "" for make check and demo, "-bench" for make
# bench-kernel (the same image plus the benchmark's 64 MiB fixture)
IMAGE_TAG=${IMA_STACK_IMAGE_TAG:-}
case $IMAGE_TAG in "" | -bench) ;; *) echo "IMA_STACK_IMAGE_TAG=$IMAGE_TAG: use -bench or nothing" >&2; exit 2 ;; esac
# private keys live in the cache only (files 0600), one set per key type;
# build/keys holds public material only
# (IMA_STACK_KEYS=DIR imports the user's CA and IMA key: a key set of its
# own, named by the certificates' hash)
KEYS_PRIVATE=$CACHE/keys/${IMA_KEY_TYPE:-rsa}
if [ -n "${IMA_STACK_KEYS:-}" ]; then
	KEYS_PRIVATE=$CACHE/keys/import-$({ cat "$IMA_STACK_KEYS/ca.pem" "$IMA_STACK_KEYS/ima.pem" 2>/dev/null || :; } |
		sha256sum | cut -c1-12)
fi
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	case ${1:-} in
	cache) echo "$CACHE" ;;
	build) echo "$BUILD" ;;
	top) echo "$TOP" ;;
	*) echo "usage: paths.sh cache|build|top" >&2; exit 2 ;;
	esac
fi
