# shellcheck shell=bash
# The opening of a host test, after `set -euo pipefail` and TOP: the TAP
# helpers, an ERR trap that names the failing command, and a scratch
# directory ($tmp) removed on exit. Host only: tests/lib goes into the guest
# image, this does not.
. "$TOP/tests/lib/tap.sh"
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A host test runs the harness itself, with the knobs it sets: those of the
# run it is part of (make check KTREE=6.12 CHECK_JOBS=1 ...) must not leak
# into its runs.
unset KTREE KVARIANT CHECK_KERNEL CHECK_SUITES CHECK_BOOTS CHECK_RUN CHECK_JOBS CHECK_BUILD \
	IMA_STACK_KERNEL_LOCK

# need_installed CMD...: bail out (TAP) naming the first CMD not installed
# (scripts/lib.sh's need is a stage's: it dies)
need_installed() {
	local c
	for c; do
		command -v "$c" >/dev/null || tap_bail "$c not installed: run \`make deps\`"
	done
}
