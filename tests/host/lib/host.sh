# shellcheck shell=bash
# The opening of a host test, after `set -euo pipefail` and TOP: the TAP
# helpers, an ERR trap that names the failing command, and a scratch
# directory ($tmp) removed on exit. Host only: tests/lib goes into the guest
# image, this does not.
. "$TOP/tests/lib/tap.sh"
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# need_installed CMD...: bail out (TAP) naming the first CMD not installed
# (scripts/lib.sh's need is a stage's: it dies)
need_installed() {
	local c
	for c; do
		command -v "$c" >/dev/null || tap_bail "$c not installed: run \`make deps\`"
	done
}
