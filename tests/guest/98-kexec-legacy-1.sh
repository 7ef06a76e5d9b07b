#!/bin/bash
# kexec: a file load, then a legacy load, then execute (kernel-patches
# 0010-0013; issue 33 item 6). A design that keeps one mapping of the
# loaded image's IMA segment and refreshes it only at kexec_file_load
# (mainline's, and linux-source-6.12's) still holds the mapping of image A
# after A was unloaded and its pages freed; when a legacy kexec_load image
# is executed next, the measurement list is written through it into pages
# the kernel has since handed to someone else. 0013 maps per image: the
# mapping goes with A.
#
# Under policies/kexec-legacy-policy (no kexec appraisal: kexec_load is
# allowed) and without secure_boot rules: `kexec -s -l` our kernel (A),
# `kexec -s -u`, then a canary (kcall canary) takes memory at once: 32
# pipes of 1 MiB (pipe buffers are unmovable pages, from the free lists the
# kexec image's pages went back to) and 32 MiB of anonymous memory, on the
# CPU that freed A's pages (CPU 0, where this suite and init are pinned: a
# CPU hands out the pages it freed last first), so that A's pages are among
# its own rather than the next image's; then it moves to CPU 1, checks the
# head of every page over and over and reports a changed page on
# /dev/kmsg, which reaches the console (its own tests: one byte written
# through /proc/PID/mem into a memory page, one pipe page written wrong on
# purpose, both reported). Then
# `kexec -l` (legacy) loads the next stage's kernel, init executes it.
# The stale write comes in the reboot notifiers; the test module
# ima_stack_slow_shutdown (loaded first, before image A) holds the jump
# back for 3 s after them, so that the canary scans all its pages several
# times in between (in QEMU that window is a few milliseconds otherwise).
# Should the stale write land in the next image's pages instead (made
# large for that: a 64 MiB initrd), its purgatory finds their digest
# changed, says so on the serial console, and the second kernel never
# starts: the boot fails, a failure too. With ima_stack.kexec_legacy=
# control on the command line (a row of its own, to tell that from a
# legacy kexec that fails by itself), the file load and unload are left
# out and nothing else changes. The host check of this boot
# (tests/host/boot/kexec-legacy.sh) reads the first kernel's console: the
# canary armed, its own test seen, and no other change up to the jump;
# 98-kexec-legacy-2 checks the second kernel's list.
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/kexec.sh"

CANARY_MIB=32

loaded() { cat /sys/kernel/kexec_loaded; }

kexec_stage1_start kexec-legacy
# this suite (so the loads and the unload) and init, which runs
# `kexec -e`, on CPU 0; the canary scans on CPU 1
tap_cmd "this suite and init pinned to CPU 0" sh -c "taskset -p -c 0 $$ && taskset -p -c 0 1"
kexec -s -u 2>/dev/null || true
kexec -u 2>/dev/null || true
# the window between the notifiers and the jump: 3 s, many canary passes
kexec_slow_shutdown 3000

if grep -qw 'ima_stack.kexec_legacy=control' /proc/cmdline; then
	tap_skip "kexec -s -l and -u of image A" "the control boot (ima_stack.kexec_legacy=control): no file load before the legacy one"
else
	tap_kexec_loads "kexec -s -l (kexec_file_load): image A loaded" -s -l "$K/bzImage" --append="$cmdline"
	tap_cmd "kexec -s -u: image A unloaded, its pages freed" kexec -s -u
fi
tap_is "nothing loaded" "$(loaded)" 0

# the canary, at once: the pages A just gave back are the first handed out
setsid kcall canary "$CANARY_MIB" 0 1 >"$KRES/canary.out" 2>&1 </dev/null &
echo $! >"$KRES/canary.pid"
for _ in $(seq 100); do
	grep -q '^armed ' "$KRES/canary.out" && break
	sleep 0.1
done
read -r word addr pages _ npipes <"$KRES/canary.out" || :
if [ "${word:-}" = armed ] && [ "${pages:-0}" -gt 0 ] && [ "${npipes:-0}" -gt 0 ]; then
	tap_ok "canary armed: $pages pages of memory, $npipes pipes of 256 pages"
else
	tap_bail "the canary did not arm: $(head -c 200 "$KRES/canary.out")"
fi
# its own test: one byte of page 5 changed from outside is reported
printf Z | dd of="/proc/$(<"$KRES/canary.pid")/mem" bs=1 seek=$((addr + 5 * 4096 + 40)) conv=notrunc status=none
for _ in $(seq 50); do
	grep -q '^changed page 5 ' "$KRES/canary.out" && break
	sleep 0.1
done
tap_cmd "the canary sees a change: a byte of its page 5 written through /proc/PID/mem is reported" \
	grep -q '^changed page 5 ' "$KRES/canary.out"
tap_cmd "its pipe scan sees the page it wrote wrong (pipe 0, page 3)" \
	grep -q '^changed pipe 0 page 3 ' "$KRES/canary.out"
tap_is "and nothing else changed so far" "$(grep -c '^changed ' "$KRES/canary.out")" 2

# the legacy load: the image init executes
# the legacy image is large (a 64 MiB initrd of random bytes, which the
# next kernel fails to unpack and ignores), so that pages freed with A
# that the canary did not take are likely among its own; its purgatory
# prints on the serial console when a segment's digest no longer matches
head -c $((64 << 20)) /dev/urandom >/tmp/kexec-legacy-initrd
tap_kexec_loads "kexec -l (kexec_load, allowed by this policy): the next stage's kernel loaded" \
	-l "$K/bzImage" --initrd=/tmp/kexec-legacy-initrd --append="$cmdline" \
	--console-serial --serial=0x3f8 --serial-baud=115200
tap_is "the canary saw no change after the load" "$(grep -c '^changed ' "$KRES/canary.out")" 2
kmark "kexec-legacy: canary running, executing the legacy image next"

# init snapshots the list (stage1/) and executes the image once this
# suite's TAP is saved; the canary runs on until the jump
touch "$IMA_STACK_RESULTS/kexec-execute"
tap_done
