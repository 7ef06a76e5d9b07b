#!/bin/bash
# The policy as critical data (kernel-patches 0008), label ima_policy (the
# upstream RFC's label; event names as below):
# every successful update logs the complete active policy as an ima-buf
# entry "ima_policy_loaded", and, before it is parsed, what was given as an
# entry "ima_policy_update", when the policy in force measures it; an update
# refused before parsing (unsigned file, text rule under a signed-policy
# rule) logs neither. The boot policy (tcb|secure_boot) measures no critical
# data: the first load has no update record (74-policy-first covers that).
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/guest.sh"

P=/etc/ima

# policy_entries: the buffers (hex) of the ima_policy_loaded entries, oldest first
policy_entries() { awk '$3 == "ima-buf" && $5 == "ima_policy_loaded" {print $6}' "$ASCII"; }
# update_entries: the same for the ima_policy_update entries
update_entries() { awk '$3 == "ima-buf" && $5 == "ima_policy_update" {print $6}' "$ASCII"; }
hex() { xxd -p | tr -d '\n'; }

n0=$(policy_entries | wc -l)
if [ "$n0" -eq 0 ]; then
	tap_fail "the policy loaded at boot was logged as ima_policy_loaded critical data" \
		"no ima_policy_loaded entry: is kernel-patches 0008 applied?"
else
	tap_is "the first ima_policy_loaded entry is the policy as it was at boot" \
		"$(policy_entries | head -n 1 | xxd -r -p)" "$(<"$IMA_STACK_RESULTS/policy-at-boot")"
fi
tap_is "the newest ima_policy_loaded entry is the active policy, byte for byte" \
	"$(policy_entries | tail -n 1)" "$(policy_text | hex)"
d=$(awk '$3 == "ima-buf" && $5 == "ima_policy_loaded" {print $4}' "$ASCII" | tail -n 1)
tap_is "its digest is sha256 of the policy text" "$d" "sha256:$(policy_text | sha256sum | cut -d' ' -f1)"

# (that these are refused is 40-policy's check; an update that went through
# would log an entry and fail the count below)
u0=$(update_entries | wc -l)
# the boot policy (tcb|secure_boot) measures no critical data: the first
# load left no update entry before the first ima_policy_loaded one
tap_is "the first load, under the boot policy, left no ima_policy_update entry" \
	"$(awk '$3 == "ima-buf" && $5 == "ima_policy_loaded" {exit} $3 == "ima-buf" && $5 == "ima_policy_update" {n++} END {print n + 0}' "$ASCII")" 0
kcall write "$POLICY" "$P/ima-policy-unsigned" >/dev/null || true
kcall write "$POLICY" "measure func=BPRM_CHECK" >/dev/null || true
tap_is "refused updates (unsigned file, text rule) log no ima_policy_loaded entry" "$(policy_entries | wc -l)" "$n0"
tap_is "nor an ima_policy_update entry: refused before parsing" "$(update_entries | wc -l)" "$u0"

# IMA logs a buffer once per boot (an entry whose template digest is already
# in the list is not added again): when an earlier suite gave this same file,
# its update entry is already there
want_u=$((u0 + 1)) why="a new one"
if update_entries | grep -qxF "$(hex <"$P/extra.policy")"; then
	want_u=$u0 why="none new: the same file's update entry is already in the list"
fi
tap_errno "a signed update appends rules" OK kcall write "$POLICY" "$P/extra.policy"
tap_is "it logs exactly one new ima_policy_loaded entry" "$(policy_entries | wc -l)" "$((n0 + 1))"
tap_is "and its ima_policy_update entry ($why)" "$(update_entries | wc -l)" "$want_u"
tap_is "which holds the file given, byte for byte" \
	"$(update_entries | tail -n 1)" "$(xxd -p <"$P/extra.policy" | tr -d '\n')"
tap_is "no entry under the old name ima_policy" \
	"$(awk '$3 == "ima-buf" && $5 == "ima_policy"' "$ASCII" | wc -l)" 0
tap_is "the new entry holds the new complete policy" \
	"$(policy_entries | tail -n 1)" "$(policy_text | hex)"

tap_done
