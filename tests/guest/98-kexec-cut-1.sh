#!/bin/bash
# kexec hand-over that does not fit, stage 1 (kernel-patches 0013-0015;
# issue 12): the "copy what fits" path of 0014. Loads our signed kernel
# with `kexec -s -l`; the kexec_load record gives the segment size S (the
# list at load plus CONFIG_IMA_KEXEC_EXTRA_MEMORY_KB, page aligned). Then
# measures so many new entries that the list outgrows S by at least
# MARGIN bytes: root opens files it made on tmpfs, owned by uid 4250,
# which the boot's policy (policies/kexec-cut.rules) measures. The number
# is derived, not guessed: one probe file gives the exact size E of such
# an entry, and N = ceil((S + MARGIN - list size - 24) / E) more follow.
# Init then snapshots the list (stage1/) and executes the image; the
# kexec_execute record, measured last, is among what does not fit.
# 98-kexec-cut-2 checks what the next kernel got.
# Without the series (pristine) there is no kexec_load record: S is then
# taken as the series would size it (stated in a failing line), the list
# is copied at load and the next kernel gets the entries of the load.
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/kexec.sh"

D=/tmp/kexec-cut
# what the list must exceed the segment by: about 50 of these entries
MARGIN=16384
mkdir -p "$D"

kexec_stage1_start kexec-cut

# binsize: the list's binary size now, with the 24-byte segment header
binsize() { echo $(($(wc -c <"$BIN") + 24)); }
# mkfiles FROM TO: files FROM..TO of $D, 200-character names, each its own
# text, owned by $OWNER (not yet opened for reading: not yet measured)
name() { printf '%s/f-%05d-%0192d' "$D" "$1" 0; }
mkfiles() {
	local i f=()
	for ((i = $1; i <= $2; i++)); do
		f+=("$(name "$i")")
		echo "kexec-cut file $i" >"${f[-1]}"
	done
	chown "$OWNER" "${f[@]}"
}
# readfiles FROM TO: root opens each file for reading (bash's own open:
# no program runs), one measurement each
readfiles() {
	local i l
	for ((i = $1; i <= $2; i++)); do read -r l <"$(name "$i")"; done
}

# every command used from here to the snapshot in init runs once before the
# load, so none of them is first measured after it by surprise
binsize >/dev/null
wc -l <"$ASCII" >/dev/null
chown "$OWNER" "$D"
kexec -s -u 2>/dev/null || true
nrec=$(kexec_records kexec_load | wc -l)

if o=$(kexec -s -l "$K/bzImage" --append="$cmdline" 2>&1); then
	tap_is "kexec -s -l: the next stage's kernel loads" "$(cat /sys/kernel/kexec_loaded)" 1
else
	tap_fail "kexec -s -l: the next stage's kernel loads" "$o"
fi
b_load=$(binsize) n_load=$(wc -l <"$ASCII")
echo "$n_load" >"$KRES/entries-at-load"
rec=$(kexec_records kexec_load | tail -n 1)
tap_is "one new ima_kexec kexec_load record" "$(kexec_records kexec_load | wc -l)" "$((nrec + 1))"
s=$(kexec_field "$rec" kexec_segment_size)
if [ -n "$s" ]; then
	tap_cmd "the segment ($s bytes) holds the list at load ($b_load bytes)" test "$b_load" -le "$s"
else
	# pristine: no record; size it as 0014 would, so the boot goes on and
	# stage 2 shows what the kernel handed over instead
	s=$(((b_load + 40 * 1024 + 4095) / 4096 * 4096))
	tap_fail "the kexec_load record gives the segment size" \
		"no kexec_load record: taking S = ALIGN(list at load + 40 KiB, 4 KiB) = $s"
fi
echo "$s" >"$KRES/segment-size"

# the probe: the exact size of one such entry
mkfiles 1 1
b0=$(binsize) n0=$(wc -l <"$ASCII")
readfiles 1 1
e=$(($(binsize) - b0))
tap_is "the probe file is one new entry" "$(wc -l <"$ASCII")" "$((n0 + 1))"
tap_cmd "the probe file is measured (the policy's rule for tmpfs files of uid $OWNER)" \
	test -n "$(entry_for "$(name 1)")"
tap_cmd "one such entry is $e bytes (more than the 200-byte name)" test "$e" -gt 200
echo "$e" >"$KRES/entry-size"

# how many more make the list outgrow the segment by MARGIN bytes
b1=$(binsize) n1=$(wc -l <"$ASCII")
n=$(((s + MARGIN - b1 + e - 1) / e))
t0=$(date +%s%N)
mkfiles 2 $((n + 1))
readfiles 2 $((n + 1))
ms=$((($(date +%s%N) - t0) / 1000000))
echo "$n $ms" >"$KRES/files-ms"
b2=$(binsize) n2=$(wc -l <"$ASCII")
tap_is "$n more files read: $n more entries, nothing else measured ($ms ms)" "$n2" "$((n1 + n))"
tap_is "each of them $e bytes" "$b2" "$((b1 + n * e))"
tap_cmd "the list ($b2 bytes with its header) outgrows the segment ($s bytes) by at least $MARGIN bytes" \
	test "$b2" -ge "$((s + MARGIN))"
tap_is "the next stage is still loaded" "$(cat /sys/kernel/kexec_loaded)" 1

# init snapshots the list (stage1/) and executes the image once this
# suite's TAP is saved
touch "$IMA_STACK_RESULTS/kexec-execute"
tap_done
