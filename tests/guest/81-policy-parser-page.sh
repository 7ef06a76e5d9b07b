#!/bin/bash
# A policy file of exactly one page whose last line has no newline: an
# unfixed kernel's strsep() runs past the vmalloc()ed buffer and oopses
# (kernel-patches 0001). Runs last in its boot for that reason.
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/guest.sh"

f=/etc/ima/tests/page-no-newline
# (a precondition, not a result: the fixture must be exactly one page)
[ "$(fixture_size "$f")" = 4096 ] && [ "$(stat -c %s "$f")" = 4096 ] ||
	tap_bail "$f is not the 4096-byte fixture: fix tests/guest/80-policy-parser.fixtures"
tap_errno "4096-byte policy without a final newline loads" OK \
	kcall write "$IMA_SFS/policy" "$f"
tap_is "its last rule is active" "$(policy_text | tail -n 1)" "$(fixture_value 80-policy-parser rule) "

tap_done
