#!/bin/bash
# kexec while a process keeps measuring, stage 2 (kernel-patches 0011;
# issue 36): runs in the kernel that init started with kexec-busy. The
# worker's files measured before the list was handed over are here, in
# order; the whole list replays to PCR 10 in both banks: nothing the
# worker measured after the hand-over extended the TPM. (That the worker
# went on after the hand-over is on the console, where it counts the files
# it opened: tests/host/boot/kexec-busy.sh compares.)
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/kexec.sh"

# kexec_stage2_begin: tests/lib/kexec.sh
kexec_stage2_begin entries-at-load 98-kexec-busy-1

# the worker's files carried over: b-000001 to b-M, in order, all before
# this kernel's boot_aggregate
mapfile -t idx < <(awk '$5 ~ /^\/tmp\/busy\/b-[0-9]+$/ {sub(/.*\/b-0*/, "", $5); print NR, $5}' "$ASCII")
m=${#idx[@]}
echo "$m" >"$IMA_STACK_RESULTS/kexec/busy-carried"
tap_cmd "the worker's files measured before the hand-over are here ($m of them)" test "$m" -ge 1
tap_is "... files 1 to $m, in order" "$(printf '%s\n' "${idx[@]}" | cut -d' ' -f2 | paste -sd' ')" \
	"$(seq 1 "$m" | paste -sd' ')"
last=0
[ "$m" = 0 ] || last=${idx[m - 1]}
tap_cmd "... all before this kernel's boot_aggregate (entry $((carried + 1)))" test "${last%% *}" -le "$carried"

why="the first kernel's worker had $m of its files carried over; the console says how many it opened"
tap_list_replays "$why"
tap_done
