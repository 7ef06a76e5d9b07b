# shellcheck shell=bash
# The project's paths, in one place: sourced by scripts/lib.sh and by the
# tests; `bash scripts/paths.sh cache|build|top` prints one (the Makefile),
# `bash scripts/paths.sh results VARIANT RUN [BOOT]` a run's results.
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
# shellcheck disable=SC2034 # for the scripts that source this
KEYS_PRIVATE=$CACHE/keys/${IMA_KEY_TYPE:-rsa}
# shellcheck disable=SC2034
if [ -n "${IMA_STACK_KEYS:-}" ]; then
	KEYS_PRIVATE=$CACHE/keys/import-$({ cat "$IMA_STACK_KEYS/ca.pem" "$IMA_STACK_KEYS/ima.pem" 2>/dev/null || :; } |
		sha256sum | cut -c1-12)
fi
# Where a run's outputs are, built here only:
# variant_dir VARIANT: build/<variant>, the signed tree, image, runs of a kernel
variant_dir() { echo "$BUILD/$1"; }
# check_dir VDIR RUN: scripts/check.sh's summary and TAP of run RUN
check_dir() { echo "$1/check-$2"; }
# results_dir VDIR RUN [BOOT]: the results of guest run RUN (scripts/boot.sh),
# and those of boot BOOT in check run RUN (RUN-BOOT)
results_dir() { echo "$1/results/$2${3:+-$3}"; }
# console_log VARIANT NAME: the serial console of guest run NAME (the last
# part of its results_dir) of VARIANT's kernel, as scripts/boot.sh writes it
console_log() { echo "$BUILD/logs/console-$1-$2.log"; }
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	case ${1:-} in
	cache) echo "$CACHE" ;;
	build) echo "$BUILD" ;;
	top) echo "$TOP" ;;
	results) results_dir "$(variant_dir "${2:?usage: paths.sh results VARIANT RUN [BOOT]}")" "${3:?usage: paths.sh results VARIANT RUN [BOOT]}" "${4:-}" ;;
	*) echo "usage: paths.sh cache|build|top|results VARIANT RUN [BOOT]" >&2; exit 2 ;;
	esac
fi
