#!/bin/bash
# kexec hand-over, stage 2 (kernel-patches 0010-0016; issue 12): runs in
# the kernel that 98-kexec-1-load loaded and init executed. What the first
# kernel measured up to the jump must be here, entry for entry, closed by
# exactly one kexec_execute record that counts the entries before it; then
# this kernel's own boot_aggregate; the whole list replays to PCR 10 in
# both banks; appraisal is still enforced; and a crash kernel loaded with
# kexec -s -p gets no IMA segment (no kexec_load record, where a normal
# load in this kernel gets one).
# Without the series the list is the one copied at load: it ends at the
# entry count stage 1 had then (stage 1 saved it in kexec/entries-at-load).
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/kexec.sh"

# kexec_stage2_begin, kexec_records, kexec_field, tap_appraisal_enforced:
# tests/lib/kexec.sh

kexec_stage2_begin entries-at-load 98-kexec-1-load
why="carried $carried entries; the first kernel had $n_load at load and $n1 when init snapshotted the list before kexec -e"
[ "$carried" != "$n_load" ] || why+=" (= the count at load: the list was copied at load, not at execute)"
if head -n "$n1" "$ASCII" | cmp -s - "$S1/ascii_runtime_measurements"; then
	tap_ok "the first kernel's list before kexec -e is a prefix of this one, entry for entry ($n1 entries)"
else
	tap_fail "the first kernel's list before kexec -e is a prefix of this one, entry for entry" "$why"
fi
sz=$(stat -c %s "$S1/binary_runtime_measurements")
tap_cmd "the same in binary form: the first kernel's $sz bytes are a prefix of this list" \
	cmp -n "$sz" "$S1/binary_runtime_measurements" "$BIN"
if [ "$carried" -gt "$n_load" ]; then
	tap_ok "more is carried over than the list at load ($carried > $n_load entries)"
else
	tap_fail "more is carried over than the list at load" "$why"
fi

# exactly one kexec_execute: the last carried entry, counting those before it
mapfile -t ex < <(kexec_records kexec_execute)
tap_is "exactly one ima_kexec kexec_execute record" "${#ex[@]}" 1
rec=${ex[0]:-}
line=${rec%% *} c=$(kexec_field "$rec" ima_runtime_measurements_count)
s=$(kexec_field "$rec" kexec_segment_size) b=$(kexec_field "$rec" ima_binary_runtime_size)
tap_is "kexec_execute is the last entry carried over (just before the boot_aggregate)" "${line:-none}" "$carried"
tap_is "kexec_execute counts the entries before it" "${c:-none}" "$(( ${line:-1} - 1 ))"
if [ -n "$s" ] && [ -n "$b" ] && [ "$b" -lt "$s" ]; then
	tap_ok "kexec_execute: the list ($b bytes) fit in the segment ($s bytes): nothing truncated"
else
	tap_fail "kexec_execute: the list fit in the segment" "record: ${rec:-none}"
fi
tap_is "the kexec_execute record's text" \
	"$(sed 's/[0-9]\+/N/g' <<<"${rec#* }")" \
	"kexec_segment_size=N;ima_binary_runtime_size=N;ima_runtime_measurements_count=N;"

# the whole list replays to PCR 10 in both banks (tests/lib/kexec.sh)
tap_list_replays "$why"

# appraisal is enforced in this kernel too
tap_appraisal_enforced

# kexec -p: the crash kernel gets no IMA segment. The control: a normal load
# in this kernel is one kexec_load record; the crash load adds none.
nrec=$(kexec_records kexec_load | wc -l)
if o=$(kexec -s -l "$K/bzImage" --append="console=ttyS0" 2>&1); then
	tap_is "control: a normal kexec -s -l here is one kexec_load record" \
		"$(kexec_records kexec_load | wc -l)" "$((nrec + 1))"
	kexec -s -u
else
	tap_fail "control: a normal kexec -s -l here is one kexec_load record" "$o"
fi
nrec=$(kexec_records kexec_load | wc -l)
if [ "$(cat /sys/kernel/kexec_crash_size)" -gt 0 ]; then
	if o=$(kexec -s -p "$K/bzImage" --append="console=ttyS0 ima_stack.stage=crash" 2>&1); then
		tap_is "kexec -s -p loads a crash kernel" "$(cat /sys/kernel/kexec_crash_loaded)" 1
		tap_is "kexec -s -p: no kexec_load record (the crash kernel gets no IMA segment)" \
			"$(kexec_records kexec_load | wc -l)" "$nrec"
		tap_cmd "kexec -s -p -u unloads it" kexec -s -p -u
	else
		tap_fail "kexec -s -p loads a crash kernel" "$o"
	fi
else
	tap_fail "kexec -s -p loads a crash kernel" "no crash kernel memory: is crashkernel= in tests/boots/kexec.boot?"
fi
tap_done
