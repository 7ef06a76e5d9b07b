#!/bin/bash
# kexec hand-over, stage 1 (kernel-patches 0010-0016; issue 12). Loads our
# signed kernel for the next stage with `kexec -s -l` (no initramfs, the
# same root), loads it again, unloads it and loads it once more (the 6.12.y
# backport faulted in ima_dump_measurement_list() on a repeated load); each
# load is one ima_kexec "kexec_load" record. Then runs the 60 programs of
# its fixtures, each a new measurement the first kernel extends into PCR 10
# after the load, and leaves the image loaded: init snapshots the list
# (stage1/) and executes it with `kexec -s -e`. The next kernel's command
# line is this one with ima_stack.tests= the boot's remaining globs
# and ima_stack.stage=2; 98-kexec-2-handover checks what it received.
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/kexec.sh"

P=$IMA_STACK/kexec-progs

[ -n "${IMA_STACK_NEXT_TESTS:-}" ] ||
	tap_bail "the boot names no suite after this one: nothing would run after the kexec"
cmdline=$(kexec_next_cmdline)
echo "$cmdline" >"$KRES/next-cmdline"

# kexec_records, kexec_field, kexec_next_cmdline: tests/lib/kexec.sh
loaded() { cat /sys/kernel/kexec_loaded; }

# check_load NAME: the newest kexec_load record is new, counts the entries
# before it and had room for the list
check_load() {
	local n=$1 rec line s b c
	rec=$(kexec_records kexec_load | tail -n 1)
	tap_is "$n: one new ima_kexec kexec_load record" "$(kexec_records kexec_load | wc -l)" "$((nrec + 1))"
	nrec=$(kexec_records kexec_load | wc -l)
	line=${rec%% *} s=$(kexec_field "$rec" kexec_segment_size)
	b=$(kexec_field "$rec" ima_binary_runtime_size) c=$(kexec_field "$rec" ima_runtime_measurements_count)
	tap_is "$n: kexec_load counts the entries before it" "${c:-none}" "$((${line:-0} - 1))"
	if [ -n "$s" ] && [ -n "$b" ] && [ "$b" -lt "$s" ]; then
		tap_ok "$n: the segment ($s bytes) holds the list ($b bytes) with room to spare"
	else
		tap_fail "$n: the segment holds the list with room to spare" "record: ${rec:-none}"
	fi
}

# every command used from here to the snapshot in init runs once before the
# load, so none of them is first measured after it by surprise
wc -l <"$ASCII" >/dev/null
nrec=$(kexec_records kexec_load | wc -l)
kexec -s -u 2>/dev/null || true

kload() { kexec -s -l "$K/bzImage" --append="$cmdline" 2>&1; }
if o=$(kload); then tap_is "kexec -s -l: the next stage's kernel loads" "$(loaded)" 1; else
	tap_fail "kexec -s -l: the next stage's kernel loads" "$o"; fi
check_load "first load"
if o=$(kload); then tap_is "kexec -s -l again, replacing the loaded image" "$(loaded)" 1; else
	tap_fail "kexec -s -l again, replacing the loaded image" "$o"; fi
check_load "second load"
tap_cmd "kexec -s -u unloads it" kexec -s -u
tap_is "nothing loaded after the unload" "$(loaded)" 0
if o=$(kload); then tap_is "kexec -s -l after the unload" "$(loaded)" 1; else
	tap_fail "kexec -s -l after the unload" "$o"; fi
check_load "load after unload"

# the state at load, for stage 2: entries, and PCR 10 then
n_load=$(wc -l <"$ASCII")
echo "$n_load" >"$KRES/entries-at-load"
cat /sys/class/tpm/tpm0/pcr-sha1/10 >"$KRES/pcr10-sha1-at-load"

# measured after the load: the fixtures' programs, each a new entry
want=$(fixture_value 98-kexec-1-load programs)
ran=0 logged=0
for p in "$P"/prog-*; do
	"$p" && ran=$((ran + 1))
	[ -z "$(entry_for "$p")" ] || logged=$((logged + 1))
done
tap_is "$want signed programs ran after the load" "$ran" "$want"
tap_is "each of them is a new entry, measured after the load" "$logged" "$want"
n_now=$(wc -l <"$ASCII")
tap_cmd "the list grew by at least $want entries since the load ($n_load -> $n_now)" \
	test "$n_now" -ge "$((n_load + want))"
tap_is "the next stage is still loaded" "$(loaded)" 1

# init executes it once this suite's TAP is saved
touch "$IMA_STACK_RESULTS/kexec-execute"
tap_done
