# shellcheck shell=bash
# Common helpers for the stage scripts: logging, errors, traps, paths.
# Sourced, never run.

set -Eeuo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/paths.sh"
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

# kernel_ccache_env: the ccache settings of the kernel build (exported).
# BASEDIR and NOHASHDIR let the patched and pristine trees share entries.
# NODEPEND: ccache's depend mode takes a compile's inputs from the
# compiler's dependency file, which never names what .incbin pulls in, so
# it would hand back a stale certs/system_certificates.o (the trusted
# keys) or a stale piggy.o (the kernel inside bzImage) after those
# inputs change. Preprocessor mode refuses to cache such files. Forced off
# here, whatever a ccache.conf says; tests/host/kernel-ccache.sh checks it.
kernel_ccache_env() {
	export CCACHE_DIR=$CACHE/ccache CCACHE_MAXSIZE=4G CCACHE_NOHASHDIR=1
	export CCACHE_BASEDIR=$CACHE/kernel CCACHE_NODEPEND=1
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

# console_errors FILE: the kernel's own oops, BUG, warning and panic reports
# in a guest console log. Only printk-formatted lines count ("[  12.345678]
# BUG: ..."): test output never reaches the console, and a line that merely
# contains "BUG:" is not a kernel report.
console_errors() {
	grep -aE '^\[ *[0-9]+\.[0-9]+\] (Kernel panic - not syncing|BUG: |kernel BUG at |Oops: |general protection fault|WARNING: CPU: |Unable to handle kernel )' "$1"
}

# boot_row NAME: "GLOBS|EXTRA" of boot NAME in tests/guest/boots
boot_row() {
	awk -F'|' -v n="$1" '$1 == n {print $2 "|" $3; f = 1} END {exit !f}' "$TOP/tests/guest/boots" ||
		die "no boot '$1' in tests/guest/boots"
}

# tally NAME TAPFILE RC: count one suite's TAP into $pass, $fail, $skip and
# print its summary line; a missing plan, a bail-out, or a non-zero exit with
# no failing line is a failure of its own; exit 77 only counts as a skip
# when the TAP shows the skips
tally() {
	local name=$1 tap=$2 rc=$3 p f s t
	p=$(grep -cE '^ok [0-9]+' "$tap" || true)
	s=$(grep -cE '^ok [0-9]+.*# (SKIP|skip)' "$tap" || true)
	# a known limitation is "not ok ... # TODO": neither a pass nor a failure
	t=$(grep -cE '^not ok [0-9]+.*# (TODO|todo)' "$tap" || true)
	f=$(grep -cE '^not ok [0-9]+' "$tap" || true)
	p=$((p - s)) f=$((f - t))
	# exit 77 (automake's "skipped") is fine when the TAP shows the skips
	[ "$rc" = 77 ] && [ "$s" -gt 0 ] && rc=0
	# a suite whose only "failures" are TODOs exits 1 by TAP convention
	[ "$rc" = 1 ] && [ "$f" = 0 ] && [ "$t" -gt 0 ] && rc=0
	if ! grep -qE '^1\.\.[0-9]+' "$tap" || grep -q '^Bail out!' "$tap" ||
		{ [ "$rc" != 0 ] && [ "$f" = 0 ]; }; then
		echo "not ok - $name: suite did not finish (exit $rc, no plan or bailed out)"
		f=$((f + 1))
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s)) todo=$((${todo:-0} + t))
	printf '# %-34s %3d passed, %d failed, %d skipped, %d todo\n' "$name" "$p" "$f" "$s" "$t"
}

# stamp_ok NAME HASH: true when stage NAME already ran with HASH.
stamp_ok() {
	[ -f "$2" ] && [ "$(cat "$2")" = "$1" ]
}
