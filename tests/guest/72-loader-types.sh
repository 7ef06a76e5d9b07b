#!/bin/bash
# kernel_read_file() reads regular files only (kernel-patches 0004): a path
# naming anything else is refused with EINVAL before it is opened.
#  - a FIFO written to the policy file: 6.1.192 blocks in filp_open(),
#    holding ima_write_mutex and the policy file, until the writer is killed
#    (here: after 10 s);
#  - a character device node: 6.1.192 opens it (its driver's open() runs)
#    before refusing it; an inotify watch on the node sees the open/close;
#  - the name swapped between a regular file and a FIFO or the node by a
#    racing renamer while the policy writer gives it: the object checked is
#    the one opened (the patch as first written opened the name again);
#  - the same through test_kernel_read_file (kernel-patches 0009) for every
#    id, by path and by path in the init namespace.
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/guest.sh"

D=$(mktemp -d /tmp/loader-types.XXXXXX)
mkfifo "$D/fifo"
# a device node of its own (a null device): nobody else opens this inode
mknod "$D/null" c 1 3

# timed CMD...: run CMD with a 10 s limit; prints its last line, or
# "blocked" when it had to be killed
timed() {
	local out rc=0
	out=$(timeout 10 "$@" 2>&1 | tail -n 1) || rc=$?
	if [ "$rc" = 124 ] || [ -z "$out" ]; then echo blocked; else echo "$out"; fi
}

# watched NAME CMD...: TAP line: CMD does not open $D/null (no inotify
# event on it while CMD runs; kcall watch reports what the queue held once
# CMD had exited)
watched() {
	local name=$1 ev
	shift
	kcall watch "$D/null" "$@" >"$D/watch.out" || true
	ev=$(grep -c -E '^(OPEN|CLOSE)$' "$D/watch.out" || true)
	if [ "$(head -n 1 "$D/watch.out")" != WATCHING ] || ! grep -q '^END ' "$D/watch.out"; then
		tap_fail "$name" "the inotify watch did not run: $(paste -sd' ' "$D/watch.out")"
	elif [ "$ev" = 0 ]; then
		tap_ok "$name"
	else
		tap_fail "$name" "the node was opened: $(grep -v -e WATCHING -e '^END' "$D/watch.out" | paste -sd' ')"
	fi
}

before=$(policy_text)
tap_is "FIFO path written to the policy file: EINVAL at once" "$(timed kcall write "$POLICY" "$D/fifo")" EINVAL
tap_errno "device node path written to the policy file: EINVAL" EINVAL kcall write "$POLICY" "$D/null"
watched "the device node was not opened for it" kcall write "$POLICY" "$D/null"
tap_is "active policy unchanged" "$(policy_text)" "$before"
tap_errno "the policy file is free again: a signed policy loads" OK kcall write "$POLICY" /etc/ima/extra.policy

# --- the name changing under the loader ----------------------------------------
# A racing renamer swaps a FIFO, or the device node, and an unsigned regular
# file under one name while the policy writer gives that name RACE_WRITES
# times. The object the type check saw must be the one opened: each write
# fails EINVAL (the FIFO or node) or EACCES (the unsigned file, refused by
# appraisal); a FIFO opened after the check would block the writer (killed
# by timeout after 60 s), a node opened after the check shows in the inotify
# watch. The renamer runs longer than the writer may and is stopped after it.
RACE_WRITES=1000
printf 'measure func=BPRM_CHECK\n' >"$D/unsigned-policy"
ln "$D/unsigned-policy" "$D/race"
# race SOURCE: swap SOURCE and the unsigned file under $D/race while the
# policy writer gives that name, all inside an inotify watch on the device
# node; $D/race.out gets the writer's outcomes ("blocked" when timeout
# killed it), $D/watch.out the watch's report
race() {
	local pid
	kcall swap_loop "$D/race" "$D/unsigned-policy" "$1" 90 >"$D/swaps" &
	pid=$!
	kcall watch "$D/null" sh -c "timeout 60 kcall write_repeat $POLICY $D/race $RACE_WRITES >$D/race.out || echo blocked >$D/race.out" \
		>"$D/watch.out" || :
	kill "$pid" 2>/dev/null || :
	wait "$pid" 2>/dev/null || :
}
# both outcomes must occur (sorted: EACCES 13, EINVAL 22), or the name
# never changed under the writer
outcomes='^EACCES [0-9]+ EINVAL [0-9]+$'
before=$(policy_text)
race "$D/fifo"
tap_like "FIFO and unsigned file swapped under the name, $RACE_WRITES policy writes: none blocks, each EACCES or EINVAL" \
	"$(paste -sd' ' "$D/race.out")" "$outcomes"
race "$D/null"
tap_like "device node and unsigned file swapped under the name: each write EACCES or EINVAL" \
	"$(paste -sd' ' "$D/race.out")" "$outcomes"
tap_is "the device node was never opened during the race" \
	"$(grep -c -E '^(OPEN|CLOSE)$' "$D/watch.out" || true)" 0
tap_is "active policy unchanged" "$(policy_text)" "$before"

# --- through test_kernel_read_file --------------------------------------------
T=/sys/devices/virtual/misc/test_kernel_read_file
[ -d "$T" ] || need_module test_kernel_read_file TEST_KERNEL_READ_FILE
# krf_sh ID TRIGGER PATH: a shell command making one call (for timed/watched)
krf_sh() {
	echo "echo 1 >$T/reset; echo READING_$1 >$T/id; printf %s '$3' >$T/$2; sed -n 's/^errno=-\{0,1\}//p' $T/result"
}
for id in FIRMWARE MODULE KEXEC_IMAGE KEXEC_INITRAMFS POLICY X509_CERTIFICATE UNKNOWN; do
	for trig in trigger_path trigger_path_initns; do
		tap_is "$id, $trig: FIFO -> EINVAL at once" "$(timed sh -c "$(krf_sh "$id" "$trig" "$D/fifo")")" EINVAL
		tap_is "$id, $trig: device node -> EINVAL" "$(sh -c "$(krf_sh "$id" "$trig" "$D/null")")" EINVAL
		watched "$id, $trig: the device node was not opened" sh -c "$(krf_sh "$id" "$trig" "$D/null")"
	done
done

rm -rf "$D"
tap_done
