#!/bin/bash
# A first custom policy without a CRITICAL_DATA rule is still recorded
# (kernel-patches 0008): the boot policy (ima_policy=critical_data) decides
# whether the update is measured, before it is parsed, as an ima-buf entry
# with event name ima_policy_update holding the file's content; the active
# policy record (ima_policy_loaded) is decided by the new policy, which
# lacks the rule, so there is none. Boot: policy-first.
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/guest.sh"

first=$(<"$IMA_STACK_RESULTS/policy-path")
# entries EVENT: the buffers (hex) of the ima-buf entries named EVENT
entries() { awk -v e="$1" '$3 == "ima-buf" && $5 == e {print $6}' "$ASCII"; }
hex() { xxd -p | tr -d '\n'; }

tap_is "the first policy was loaded by path at boot" "$(<"$IMA_STACK_RESULTS/policy-load")" OK
tap_is "the first policy has no rule for the policy records (setup)" \
	"$(grep -c 'func=CRITICAL_DATA' "$first" || true)" 0
tap_is "one ima_policy_update entry, decided by the boot policy" \
	"$(entries ima_policy_update | wc -l)" 1
tap_is "it holds the first policy file, byte for byte" \
	"$(entries ima_policy_update | head -n 1)" "$(hex <"$first")"
d=$(awk '$3 == "ima-buf" && $5 == "ima_policy_update" {print $4}' "$ASCII" | head -n 1)
tap_is "its digest is sha256 of the file" "$d" "sha256:$(sha256sum <"$first" | cut -d' ' -f1)"
tap_is "no ima_policy_loaded entry: the new policy, which lacks the rule, decides it" \
	"$(entries ima_policy_loaded | wc -l)" 0
tap_is "no entry under the old name ima_policy" "$(entries ima_policy | wc -l)" 0

# the policy now in force has no CRITICAL_DATA rule: a later update is not
# recorded at all
tap_errno "a signed update appends rules" OK kcall write "$POLICY" /etc/ima/extra.policy
tap_is "it logs no ima_policy_update entry (the policy in force lacks the rule)" \
	"$(entries ima_policy_update | wc -l)" 1
tap_done
