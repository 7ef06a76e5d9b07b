#!/bin/bash
# kexec while a process keeps measuring, stage 1 (kernel-patches 0011;
# issue 36). Loads our signed kernel for the next stage with `kexec -s -l`
# and checks that a file of the kind the worker makes is measured (the
# boot's policy, policies/kexec-cut.rules first: root reading a tmpfs file
# owned by uid 4250). Then asks init to execute the image with kexec-busy
# (tests/guest/bin/kexec-busy.c) instead of `kexec -s -e`: its worker keeps
# making and reading such files, one measurement each, through the reboot
# notifiers and the device shutdown until the CPUs stop for the jump, and
# writes how many it opened to the console. The test module
# ima_stack_slow_shutdown makes that window one second long (in QEMU it
# lasts a few milliseconds: a file or two), as on a machine whose devices
# take that long to stop. 98-kexec-busy-2 checks that the list the next
# kernel got replays to PCR 10; without a suspend of measurements at
# reboot, what the worker measured after the list was copied extended
# PCR 10 but is not in it.
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/kexec.sh"

D=/tmp/busy
mkdir -p "$D"

kexec_stage1_start kexec-busy
tap_cmd "the worker's console lines are not rate-limited (printk.devkmsg=on)" grep -qw 'printk.devkmsg=on' /proc/cmdline
# the window between the list's hand-over and the jump: one second
kexec_slow_shutdown 1000

# a file like the worker's is one new entry
p=$D-probe
echo probe >"$p"
chown "$OWNER" "$p"
n0=$(wc -l <"$ASCII")
read -r _ <"$p"
tap_is "a tmpfs file of uid $OWNER read by root is one new entry" "$(wc -l <"$ASCII")" "$((n0 + 1))"
tap_cmd "... an entry for that file" test -n "$(entry_for "$p")"
tap_cmd "kexec-busy is installed" test -x "$IMA_STACK/bin/kexec-busy"

# the load comes last: what is measured between it and the hand-over must
# fit the segment's spare room (half a page without a configurable one).
# So every program init runs from here to the jump, kexec-busy included,
# runs once before it and is not measured again.
kexec-busy >/dev/null 2>&1 || true
seq 0 0 >/dev/null
tar --version >/dev/null
grep -c x /dev/null >/dev/null || true
rm -f "$D-none"
date +%s%N >/dev/null
sync
kexec -s -u 2>/dev/null || true
if o=$(kexec -s -l "$K/bzImage" --append="$cmdline" 2>&1); then
	tap_is "kexec -s -l: the next stage's kernel loads" "$(cat /sys/kernel/kexec_loaded)" 1
else
	tap_fail "kexec -s -l: the next stage's kernel loads" "$o"
fi
wc -l <"$ASCII" >"$KRES/entries-at-load"

# init executes the image with kexec-busy once this suite's TAP is saved
echo "busy $D $OWNER" >"$IMA_STACK_RESULTS/kexec-execute"
tap_done
