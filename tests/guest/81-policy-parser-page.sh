#!/bin/bash
# A policy file of exactly one page whose last line has no newline: an
# unfixed kernel's strsep() runs past the vmalloc()ed buffer and oopses
# (kernel-patches 0001). Runs last in its boot for that reason.
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/guest.sh"

f=/etc/ima/tests/page-no-newline
tap_is "the test file is exactly 4096 bytes" "$(stat -c %s "$f")" 4096
tap_errno "4096-byte policy without a final newline loads" OK \
	kcall write "$IMA_SFS/policy" "$f"
tap_is "its last rule is active" "$(policy_text | tail -n 1)" "measure func=FIRMWARE_CHECK "

tap_done
