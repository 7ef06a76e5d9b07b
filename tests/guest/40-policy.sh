#!/bin/bash
# The policy itself (READING_POLICY -> POLICY_CHECK): once the signed policy
# is active, only signed policy files load by path. Every refused update
# leaves the active policy as it was; two writers cannot interleave.
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/guest.sh"

P=/etc/ima

before=$(policy_text)
tap_errno "tampered signed policy refused" EACCES kcall write "$POLICY" "$P/ima-policy-tampered"
tap_errno "policy signed by a key outside .ima refused" EACCES kcall write "$POLICY" "$P/ima-policy-rogue"
tap_errno "unsigned policy refused" EACCES kcall write "$POLICY" "$P/ima-policy-unsigned"
tap_errno "text rule refused" EACCES kcall write "$POLICY" "audit func=BPRM_CHECK"
tap_errno "relative path refused" EACCES kcall write "$POLICY" "etc/ima/ima-policy"
tap_errno "missing policy file" ENOENT kcall write "$POLICY" "$P/no-such-policy"
tap_is "active policy unchanged by every refused update" "$(policy_text)" "$before"
check_entry "refused tampered policy is measured, with its stale signature" "$P/ima-policy-tampered"

# a further signed policy appends its rules
tap_errno "a second signed policy loads by path" OK kcall write "$POLICY" "$P/extra.policy"
after=$(policy_text)
# (the kernel shows every rule with a trailing blank)
want=$(printf '%s\n%s' "$before" "$(grep -v '^#' "$P/extra.policy" | sed -e '/^$/d' -e 's/$/ /')")
tap_is "its rules are appended to the active policy" "$after" "$want"
check_entry "the second policy is measured with its signature" "$P/extra.policy"

# one writer at a time: the policy file is exclusive while open for write
kcall hold "$POLICY" 3 >/tmp/hold.out &
pid=$!
for _ in $(seq 50); do [ -s /tmp/hold.out ] && break; sleep 0.1; done
tap_is "first writer holds the policy file open" "$(head -n 1 /tmp/hold.out)" HOLDING
tap_errno "second writer gets EBUSY" EBUSY kcall write "$POLICY" "$P/extra.policy"
wait "$pid"
tap_is "active policy unchanged by the writers" "$(policy_text)" "$after"

tap_done
