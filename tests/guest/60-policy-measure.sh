#!/bin/bash
# The active policy as critical data (kernel-patches 0003): every successful
# update logs the complete active policy as an ima-buf entry "ima_policy";
# a refused update logs nothing.
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/guest.sh"

POLICY=$IMA_SFS/policy
P=/etc/ima

# policy_entries: the buffers (hex) of the ima_policy entries, oldest first
policy_entries() { awk '$3 == "ima-buf" && $5 == "ima_policy" {print $6}' "$ASCII"; }
hex() { xxd -p | tr -d '\n'; }

n0=$(policy_entries | wc -l)
if [ "$n0" -eq 0 ]; then
	tap_fail "the policy loaded at boot was logged as ima_policy critical data" \
		"no ima_policy entry: is kernel-patches 0003 applied?"
else
	tap_is "the first ima_policy entry is the policy as it was at boot" \
		"$(policy_entries | head -n 1 | xxd -r -p)" "$(<"$IMA_STACK_RESULTS/policy-at-boot")"
fi
tap_is "the newest ima_policy entry is the active policy, byte for byte" \
	"$(policy_entries | tail -n 1)" "$(policy_text | hex)"
d=$(awk '$3 == "ima-buf" && $5 == "ima_policy" {print $4}' "$ASCII" | tail -n 1)
tap_is "its digest is sha256 of the policy text" "$d" "sha256:$(policy_text | sha256sum | cut -d' ' -f1)"

# (that these are refused is 40-policy's check; an update that went through
# would log an entry and fail the count below)
kcall write "$POLICY" "$P/ima-policy-unsigned" >/dev/null || true
kcall write "$POLICY" "measure func=BPRM_CHECK" >/dev/null || true
tap_is "refused updates (unsigned file, text rule) log no ima_policy entry" "$(policy_entries | wc -l)" "$n0"

tap_errno "a signed update appends rules" OK kcall write "$POLICY" "$P/extra.policy"
tap_is "it logs exactly one new ima_policy entry" "$(policy_entries | wc -l)" "$((n0 + 1))"
tap_is "the new entry holds the new complete policy" \
	"$(policy_entries | tail -n 1)" "$(policy_text | hex)"

tap_done
