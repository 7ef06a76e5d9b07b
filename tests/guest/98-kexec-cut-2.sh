#!/bin/bash
# kexec hand-over that does not fit, stage 2 (kernel-patches 0013-0015;
# issue 12): runs in the kernel that 98-kexec-cut-1 loaded and init
# executed after outgrowing the segment. What it must have got: a strict
# prefix of the first kernel's list, exactly as many entries as fit in the
# segment of S bytes (the largest prefix of the list init saved just
# before kexec -e whose size plus the 24-byte header is at most S,
# computed here from the saved list's entry sizes), then its own
# boot_aggregate; no kexec_execute record (the first kernel measures it
# last, so it is the first thing not to fit); appraisal still enforced.
# Left out, beyond the cut: the saved list's entries after the prefix and
# the kexec_execute record measured after the save (the host's
# tests/host/boot/kexec-cut.sh replays exactly those against PCR 10).
# Without the series (pristine) the list is the one copied at load: the
# cut is at the load-time count (kexec/entries-at-load), not at what fits
# in S, and "as many entries as fit" fails saying so.
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/kexec.sh"

R=$IMA_STACK_RESULTS

kexec_stage2_begin segment-size 98-kexec-cut-1
s=$(<"$R/kexec/segment-size")
want=$(kexec_fit "$s" "$S1/binary_runtime_measurements") ||
	tap_bail "the saved list $S1/binary_runtime_measurements does not parse (a truncated entry)"
why="carried $carried entries; the first kernel had $n_load at load and $n1 at the save before kexec -e; $want fit in the $s-byte segment"
[ "$carried" != "$n_load" ] || why+=" (carried = the count at load: the list was copied at load, not at execute)"

# a strict prefix, entry for entry and byte for byte
if [ "$carried" -lt "$n1" ] && [ "$carried" -gt 0 ] &&
	cmp -s <(head -n "$carried" "$ASCII") <(head -n "$carried" "$S1/ascii_runtime_measurements"); then
	tap_ok "the list carried over is a strict prefix of the first kernel's ($carried of $n1 entries)"
else
	tap_fail "the list carried over is a strict prefix of the first kernel's" "$why"
fi
sz=$(list_entry_sizes "$S1/binary_runtime_measurements" | head -n "$carried" | awk '{t += $1} END {print t + 0}')
tap_cmd "the same in binary form: the first $carried entries ($sz bytes) are byte for byte the saved list's" \
	cmp -n "$sz" "$S1/binary_runtime_measurements" "$BIN"
tap_is "as many entries as fit in the segment: the largest prefix of the saved list with size + 24 <= $s bytes" \
	"$carried" "$want"
if [ "$carried" = "$want" ]; then
	tap_cmd "the cut is past the load ($n_load entries) and well before the save ($n1)" \
		test "$n_load" -lt "$carried" -a "$((carried + 20))" -le "$n1"
else
	tap_fail "the cut is past the load and well before the save" "$why"
fi
tap_is "no kexec_execute record: measured last, it did not fit" "$(kexec_records kexec_execute | wc -l)" 0
# the kexec_load record of the load is carried (it precedes the cut)
tap_is "the kexec_load record is carried over, with the segment size stage 1 used" \
	"$(kexec_records kexec_load | sed -n 's/.*kexec_segment_size=\([0-9]*\);.*/\1/p' | tail -n 1)" "$s"

tap_appraisal_enforced
tap_done
