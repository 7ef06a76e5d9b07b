#!/bin/bash
# The policy-by-path parser (kernel-patches 0001, 0007). All files are signed, so
# appraisal passes and only parsing decides. A file whose last rule lacks a
# newline loads; every malformed file fails with its own errno and leaves
# the active policy unchanged. (The 4096-byte case that oopses an unfixed
# kernel is in 81-policy-parser-page.sh, run last.)
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/guest.sh"

D=/etc/ima/tests
# the kernel shows every rule with a trailing blank
rule="$(fixture_value 80-policy-parser rule) "

# load NAME WANT FILE: one update by path; on failure the policy must not move
load() {
	local name=$1 want=$2 file=$3 before
	before=$(policy_text)
	tap_errno "$name" "$want" kcall write "$POLICY" "$file"
	if [ "$want" != OK ]; then
		tap_is "$name: active policy unchanged" "$(policy_text)" "$before"
	fi
}

load "27-byte policy, no final newline, loads" OK "$D/no-newline"
tap_is "its rule is the newest active rule" "$(policy_text | tail -n 1)" "$rule"
load "longest allowed line (4094 bytes + newline) loads" OK "$D/longest-line"
load "longest last line without newline (4095 bytes, what one text write takes) loads" OK "$D/longest-last-line"
load "CRLF line ending is rejected like a text write would" EINVAL "$D/crlf"
load "NUL byte in the file" EINVAL "$D/nul-byte"
load "NUL byte inside a rule: refused, not loaded as the rule cut at the NUL" EINVAL "$D/nul-in-rule"
cut="$(fixture_value 80-policy-parser nul-cut-rule) "
if policy_text | grep -qxF "$cut"; then
	tap_fail "no rule cut at a NUL in the active policy" "active rule: $cut"
else
	tap_ok "no rule cut at a NUL in the active policy"
fi
load "empty file" EINVAL "$D/empty"
load "a directory" EINVAL "$D"
load "a character device" EINVAL /dev/null
# no size limit beyond the loader's own (INT_MAX), and none per line: the
# file is root's and signed, and no failure such a bound would prevent
load "a line longer than a text write can carry loads" OK "$D/long-line"
load "a 2 MB file loads" OK "$D/huge"
load "valid rule followed by a bogus one: nothing is applied" EINVAL "$D/bad-rule"

tap_done
