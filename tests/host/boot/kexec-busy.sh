#!/usr/bin/env bash
# Host check of the kexec-busy boot (issue 36, kernel-patches 0011): the
# worker that kexec-busy ran through the reboot kept measuring after the
# list was handed over, so that the second kernel's replay (98-kexec-busy-2
# and the audit) tested something. From the boot's console and results:
#  - the first kernel reached the jump ("kexec_core: Starting new kernel",
#    or the next kernel's banner when that line was lost: boot.sh),
#    and the list fit the segment (else the replay fails for that reason);
#  - the test module's device held the jump back (its "shutdown: waiting"
#    line, then "done"), and the worker opened files in between;
#  - the worker's last "ima-stack-busy: N opened" line (one every tenth
#    file, the count of the last lost when it was not printed) counts more files
#    than the second kernel's list carries (kexec/busy-carried, written by
#    98-kexec-busy-2): files M+1..N were opened after the hand-over.
# Usage: kexec-busy.sh RESULTS_DIR
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../../.." && pwd)
. "$TOP/tests/host/lib/boot.sh"
boot_results "kexec-busy.sh RESULTS_DIR" "${1:-}"
[ -s "$res/kexec/busy-carried" ] ||
	tap_bail "no kexec/busy-carried in $res: 98-kexec-busy-2 did not run"
[ -f "$console" ] || tap_bail "no console log $console"

tap_jumped "$console"
# the list must have fit the segment, or the replay fails for that reason
# (6.12 without 0014 says "Dump measurements failed", with it "only N
# measurements fit")
tap_is "the list handed over fit its segment (no overflow on the console)" \
	"$(grep -c -e 'ima: Dump measurements failed' -e 'measurements fit in the' "$console" || true)" 0
# the window: the worker's files opened while the slow device's shutdown
# waited (after the notifiers, where IMA hands the list over)
inwin=$(awk '/ima_stack_slow_shutdown: shutdown: waiting/ {w = 1} /ima_stack_slow_shutdown: shutdown: done/ {w = 0}
	w && /ima-stack-busy: [0-9]* opened/ {n++} END {print n + 0}' "$console")
tap_cmd "the slow device's shutdown held the jump back (ima_stack_slow_shutdown: waiting, done)" \
	sh -c "grep -q 'ima_stack_slow_shutdown: shutdown: waiting' '$console' && grep -q 'ima_stack_slow_shutdown: shutdown: done' '$console'"
tap_cmd "the worker opened files in that window ($inwin)" test "$inwin" -gt 0
n=$(sed -n 's/.*ima-stack-busy: \([0-9]*\) opened.*/\1/p' "$console" | sort -n | tail -n 1)
m=$(<"$res/kexec/busy-carried")
tap_cmd "the worker opened files through the reboot, counted on the console (${n:-none})" test -n "$n"
if [ -n "$n" ] && [ "$n" -gt "$m" ]; then
	tap_ok "it opened more files ($n) than the second kernel's list carries ($m): it measured after the hand-over"
else
	tap_fail "it opened more files than the second kernel's list carries: it measured after the hand-over" \
		"opened ${n:-none}, carried $m: the boot did not exercise the window between the hand-over and the jump"
fi
tap_done
