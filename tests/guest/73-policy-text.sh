#!/bin/bash
# Text rules written to the policy file (kernel-patches 0005: the count;
# 0007: E2BIG and the NUL byte, documented ABI changes), in the boot
# "policy-text" (ima_policy=tcb, policies/text-policy: no signed-policy
# rule). One write() parses one rule and must return the bytes it consumed:
#  - a rule without newline: its length (6.1.192: one more);
#  - a single rule of 4096 or more characters: E2BIG, nothing added
#    (6.1.192: its first 4095 characters parsed as a rule, 4096 returned);
#  - a NUL byte: EINVAL, nothing added (6.1.192: the rule before the NUL
#    added, the NUL counted as its newline).
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/guest.sh"

# pad TEXT N: TEXT followed by blanks up to N characters
pad() { printf '%s%*s' "$1" $(($2 - ${#1})) ''; }
# has RULE: the active policy holds RULE (as the kernel shows it)
has() { policy_text | grep -qxF -- "$1 " && echo yes || echo no; }

r='dont_measure fsmagic=0x73a0'
tap_is "a rule with its newline: every byte consumed" \
	"$(printf '%s\n' "$r" | kcall write_stdin "$POLICY")" $((${#r} + 1))
tap_is "... and added" "$(has "$r")" yes
r='dont_measure fsmagic=0x73a1'
tap_is "a rule without newline: its length returned, not one more" \
	"$(printf '%s' "$r" | kcall write_stdin "$POLICY")" ${#r}
tap_is "... and added" "$(has "$r")" yes
r='dont_measure fsmagic=0x73a2'
tap_is "a rule of 4095 characters (a whole page less its NUL), no newline: 4095" \
	"$(pad "$r" 4095 | kcall write_stdin "$POLICY")" 4095
tap_is "... and added" "$(has "$r")" yes
r='dont_measure fsmagic=0x73a5'
tap_is "a rule of 4094 characters and its newline: 4095" \
	"$(printf '%s\n' "$(pad "$r" 4094)" | kcall write_stdin "$POLICY")" 4095
tap_is "... and added" "$(has "$r")" yes
r='dont_measure fsmagic=0x73a3'
tap_is "a single rule of 4100 characters: E2BIG" \
	"$(pad "$r" 4100 | kcall write_stdin "$POLICY")" E2BIG
tap_is "... and no part of it added" "$(has "$r")" no
r='dont_measure fsmagic=0x73a4'
tap_is "a rule followed by a NUL byte: EINVAL" \
	"$(printf '%s\0x' "$r" | kcall write_stdin "$POLICY")" EINVAL
tap_is "... and nothing added" "$(has "$r")" no
r='dont_measure fsmagic=0x73a6'
tap_is "two rules in one write: the first one and its newline consumed" \
	"$(printf '%s\n%s\n' "$r" 'dont_measure fsmagic=0x73a7' | kcall write_stdin "$POLICY")" $((${#r} + 1))
# (cat writes the rest: the way a shell loads a text policy)
printf '%s\n%s\n' "$r" 'dont_measure fsmagic=0x73a8' | cat >"$POLICY"
tap_is "cat of two rules: both added" "$(has "$r")$(has 'dont_measure fsmagic=0x73a8')" yesyes

tap_done
