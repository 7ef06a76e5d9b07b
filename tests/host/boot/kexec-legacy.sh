#!/usr/bin/env bash
# Host check of the kexec-legacy boot's results (issue 33 item 6; make check
# runs it in place of that boot's audit: the second kernel was started from
# a legacy kexec_load image, which hands no list over, so its list cannot
# replay to the TPM's PCR 10, which holds the first kernel's extends too).
# From the files the guest sent and the boot's console:
#  - the first kernel's console: the canary of 98-kexec-legacy-1 armed, its
#    own tests (a byte written through /proc/PID/mem, a pipe page written
#    wrong) reported, and no
#    other page of it changed up to the jump ("Starting new kernel"): the
#    kernel wrote nothing into memory it had handed to the canary;
#  - the first kernel's list, read just before kexec -e (stage1/): ima-audit
#    passes it against the PCRs read with it;
#  - the second kernel's list: one boot_aggregate, first; every entry's
#    template hash (sha1) is sha1 of its template data; nothing after the
#    last entry.
# Usage: kexec-legacy.sh RESULTS_DIR
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../../.." && pwd)
. "$TOP/tests/host/lib/boot.sh"
need_installed jq
boot_results "kexec-legacy.sh RESULTS_DIR" "${1:-}"
[ -s "$res/stage1/binary_runtime_measurements" ] && [ -s "$res/binary_runtime_measurements" ] &&
	[ -s "$res/kexec/canary.out" ] ||
	tap_bail "no stage1/, kexec/canary.out or measurement list in $res: not a kexec-legacy boot's results"

# --- the first kernel's console: the canary ------------------------------------
[ -f "$console" ] || tap_bail "no console log $console"
first_kernel "$console" >"$tmp/first"
tap_jumped "$console"
pages=$(awk '$1 == "armed" {print $3; exit}' "$res/kexec/canary.out")
tap_cmd "the canary armed on the console (${pages:-?} pages of memory, and its pipes)" \
	grep -q "ima-stack-canary: armed, ${pages:-x} pages at .*, [0-9]* pipes" "$tmp/first"
tap_is "its own tests reported on the console, once each: memory page 5, pipe 0 page 3" \
	"$(grep -c 'ima-stack-canary: CHANGED page 5 ' "$tmp/first" || true) $(grep -c 'ima-stack-canary: CHANGED pipe 0 page 3 ' "$tmp/first" || true)" "1 1"
# the window: the stale write of a kernel without 0013 comes in the reboot
# notifiers, before the slow device's shutdown; two canary passes ending
# after that began mean one whole pass (the later) made after the write
passes=$(awk '/ima_stack_slow_shutdown: shutdown: waiting/ {w = 1} w && /ima-stack-canary: pass [0-9]* done/ {n++} END {print n + 0}' "$tmp/first")
tap_cmd "the slow device's shutdown held the jump back (ima_stack_slow_shutdown: waiting)" \
	grep -q 'ima_stack_slow_shutdown: shutdown: waiting' "$tmp/first"
tap_cmd "the canary ended passes in that window ($passes lines, 2 at least: one whole pass after the notifiers)" \
	test "$passes" -ge 2
other=$(grep 'ima-stack-canary: CHANGED' "$tmp/first" | grep -v -e 'CHANGED page 5 ' -e 'CHANGED pipe 0 page 3 ' || true)
if [ -z "$other" ]; then
	tap_ok "no other page of the canary changed up to the jump: nothing was written into memory the kernel had handed out"
else
	tap_fail "no other page of the canary changed up to the jump: nothing was written into memory the kernel had handed out" \
		"$(printf '%s\n' "$other" | head -n 5)"
fi

tap_is "the legacy image's purgatory found its segments as loaded (no digest mismatch)" \
	"$(grep -c 'sha256 digests do not match' "$console" || true)" 0

# --- the first kernel's list, just before the jump -------------------------------
A=$TOP/tools/ima-audit/build/ima-audit
make -s -C "$TOP/tools/ima-audit" >/dev/null 2>&1 || tap_bail "cannot build tools/ima-audit"
rc=0
"$A" --json --pcrs "$res/stage1/pcrs.txt" --key "$BUILD/keys/ima.der" \
	"$res/stage1/binary_runtime_measurements" >"$tmp/audit.json" 2>&1 || rc=$?
if [ "$rc" = 0 ]; then
	tap_ok "ima-audit: the first kernel's list (just before kexec -e) passes against its PCRs"
else
	tap_fail "ima-audit: the first kernel's list (just before kexec -e) passes against its PCRs" \
		"exit $rc: $(jq -r '.failures[] | "\(.index): \(.reason)"' "$tmp/audit.json" 2>/dev/null | head -n 3 | tr '\n' ' ')"
fi
# the per-bank lists of a kernel that has them (Linux 6.10+:
# binary_runtime_measurements_ALG, template digests in that bank): the
# first kernel's each framed, its template hashes right in its bank, as
# many entries as the sha1 list, replayed to PCR 10 in both banks; the
# second kernel's each framed, its template hashes right and as many
# entries as its sha1 list (its PCR 10 still holds the first kernel's
# extends, so it cannot replay). A bank ima-audit cannot hash is named.
banklists() {
	local dir=$1 who=$2 pcrs=${3:-} f alg rc n bank st
	n=$(wc -l <"$dir/ascii_runtime_measurements")
	for f in "$dir"/binary_runtime_measurements_*; do
		[ -f "$f" ] || continue
		alg=${f##*/binary_runtime_measurements_}
		case $alg in tpm_alg_*)
			tap_todo "$who per-bank list $alg: not checked (a bank the kernel cannot hash)" "$(basename "$f")"
			continue ;;
		esac
		rc=0
		"$A" --json ${pcrs:+--pcrs "$pcrs"} --key "$BUILD/keys/ima.der" "$f" >"$tmp/b.json" 2>"$tmp/b.err" || rc=$?
		if [ "$rc" -gt 1 ]; then
			tap_fail "$who per-bank list $alg: read by ima-audit" "exit $rc: $(head -c 300 "$tmp/b.err")"
			continue
		fi
		tap_is "$who per-bank list $alg: $n entries framed as the sha1 list's, every template hash right in the $alg bank" \
			"$(jq -r '"\(.entries) \(.template_hash.failed)/\(.unknown_templates)"' "$tmp/b.json")" "$n 0/0"
		[ -n "$pcrs" ] || continue
		for bank in sha1 sha256; do
			st=$(jq -r ".pcrs[] | select(.pcr == 10 and .bank == \"$bank\") | \"\(.status) \(.covered)/\(.measurements)\"" "$tmp/b.json")
			tap_is "$who per-bank list $alg: replays to PCR 10 ($bank bank), every entry covered" "$st" "match $n/$n"
		done
	done
}
banklists "$res/stage1" "the first kernel's" "$res/stage1/pcrs.txt"

# --- the second kernel's list: its own, whole -----------------------------------
tap_is "the second kernel's list: one boot_aggregate, first" \
	"$(awk '$5 == "boot_aggregate" {print NR}' "$res/ascii_runtime_measurements" | paste -sd' ')" 1
got=$(python3 - "$res/binary_runtime_measurements" 2>&1 <<'PY'
import hashlib, struct, sys
d = open(sys.argv[1], 'rb').read()
o = n = bad = 0
while o < len(d):
    if o + 28 > len(d):
        sys.exit('truncated entry at byte %d' % o)
    th = d[o + 4:o + 24]
    nl = struct.unpack('<I', d[o + 24:o + 28])[0]
    p = o + 28 + nl
    if p + 4 > len(d):
        sys.exit('truncated entry at byte %d' % o)
    dl = struct.unpack('<I', d[p:p + 4])[0]
    data = d[p + 4:p + 4 + dl]
    if len(data) != dl:
        sys.exit('truncated entry at byte %d' % o)
    # a violation's template hash is all zeros
    if th != bytes(20) and hashlib.sha1(data).digest() != th:
        bad += 1
    n += 1
    o = p + 4 + dl
print(n, bad)
PY
) || got="error: $got"
tap_is "the second kernel's list: every entry's template hash right, no trailing bytes ($(wc -l <"$res/ascii_runtime_measurements") entries)" \
	"$got" "$(wc -l <"$res/ascii_runtime_measurements") 0"
banklists "$res" "the second kernel's"
tap_done
