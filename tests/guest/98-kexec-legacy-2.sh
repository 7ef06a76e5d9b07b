#!/bin/bash
# kexec: a file load, then a legacy load, then execute; stage 2 (see
# 98-kexec-legacy-1). This kernel was started from the legacy image, which
# carries no measurement list: its list must be its own and whole, one
# boot_aggregate first and every entry whole, with nothing
# of the first kernel's list (written into a stale mapping) in it. That no
# page the first kernel no longer owned was written is the host check's
# (tests/host/boot/kexec-legacy.sh, the first kernel's console).
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/kexec.sh"

S1=$IMA_STACK_RESULTS/stage1
[ -s "$S1/ascii_runtime_measurements" ] && [ -s "$IMA_STACK_RESULTS/kexec/canary.out" ] ||
	tap_bail "no stage-1 results (stage1/, kexec/canary.out): was this kernel started by 98-kexec-legacy-1?"
tap_cmd "this kernel was started by kexec (ima_stack.stage=2)" grep -qw 'ima_stack.stage=2' /proc/cmdline
tap_is "the policy loaded again in this kernel" "$(<"$IMA_STACK_RESULTS/policy-path"):$(<"$IMA_STACK_RESULTS/policy-load")" \
	/etc/ima/kexec-legacy-policy:OK
tap_is "one boot_aggregate, the first entry: nothing was handed over" \
	"$(awk '$5 == "boot_aggregate" {print NR}' "$ASCII" | paste -sd' ')" 1
tap_is "no ima_kexec record of the first kernel" "$(kexec_records kexec_load | wc -l) $(kexec_records kexec_execute | wc -l)" "0 0"
# the binary list walks to its end, entry by entry, one entry per line of
# the ascii list (the template hashes: the host check)
sizes=$(list_entry_sizes "$IMA_SFS/binary_runtime_measurements")
tap_is "the binary list parses to its end, as many entries as the ascii list" \
	"$(grep -c truncated <<<"$sizes") $(wc -l <<<"$sizes")" "0 $(wc -l <"$ASCII")"
tap_done
