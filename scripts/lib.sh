# shellcheck shell=bash
# Common helpers for the stage scripts: logging, errors, traps, paths.
# Sourced, never run.

set -Eeuo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
CACHE=${IMA_STACK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ima-stack}
LOGS=$BUILD/logs
STAGE=${STAGE:-$(basename "${0%.sh}")}
V=${V:-0}
mkdir -p "$BUILD" "$CACHE" "$LOGS"

_t0=$(date +%s)

elapsed() {
	local s=$(($(date +%s) - _t0))
	printf '%dm%02ds' $((s / 60)) $((s % 60))
}

log() {
	printf '[%s %s] %s\n' "$STAGE" "$(elapsed)" "$*" >&2
}

# die MESSAGE: one line naming the stage, the cause and (in MESSAGE) the fix.
die() {
	printf '[%s] error: %s\n' "$STAGE" "$*" >&2
	exit 1
}

_on_err() {
	local rc=$? cmd=$BASH_COMMAND line=${BASH_LINENO[0]}
	printf '[%s] failed (exit %d) at %s:%s: %s\n' "$STAGE" "$rc" \
		"$(basename "$0")" "$line" "$cmd" >&2
	exit "$rc"
}
trap _on_err ERR

# run CMD...: print the command when V=1, run it.
run() {
	[ "$V" = 1 ] && printf '+ %s\n' "$*" >&2
	"$@"
}

# need CMD PACKAGE: fail with the fix when a host command is missing.
need() {
	command -v "$1" >/dev/null 2>&1 ||
		die "$1 not found (package $2): run \`make deps\`"
}

# content_hash FILE|DIR...: sha256 over names and contents, stable order.
content_hash() {
	local p
	for p in "$@"; do
		if [ -d "$p" ]; then
			(cd "$p" && find . -type f ! -name '*~' -print0 | LC_ALL=C sort -z |
				xargs -0 -r sha256sum)
		elif [ -e "$p" ]; then
			printf '%s ' "$(basename "$p")"
			sha256sum <"$p"
		else
			printf 'missing %s\n' "$p"
		fi
	done | sha256sum | cut -c1-16
}

# stamp_ok NAME HASH: true when stage NAME already ran with HASH.
stamp_ok() {
	[ -f "$2" ] && [ "$(cat "$2")" = "$1" ]
}
