#!/usr/bin/env bash
# Host check of the kexec-cut boot's results (issue 12, kernel-patches 0014:
# the list outgrew the segment; make check runs it in place of the audit
# of that boot, whose whole-list verdicts are meant to fail here). From the
# files the guest sent: stage1/, the first kernel's list and PCRs just
# before kexec -e; kexec/segment-size, S from its kexec_load record; the
# top level, the second kernel's list and PCRs.
#  - ima-audit fails the list, and only as it must: class kexec-handover
#    exactly at the entry where the first kernel's part ends (a
#    boot_aggregate with no kexec_execute before it), and PCR 10 (both
#    banks) matching no prefix of the list; every template hash and both
#    boot_aggregates right; evmctl's replay fails too.
#  - what was left out is exactly this: the saved list's entries after the
#    carried prefix, then one kexec_execute record whose text is predicted
#    from S and the saved list (its size + 24, its count). Replaying the
#    saved list, that record, then the second kernel's own entries gives
#    the TPM's PCR 10 in both banks; forged variants of that record (a
#    count off by one, no record at all) must not.
#  - the carried count is recomputed here from the saved list's entry
#    sizes (independent of the guest's awk), and the first kernel's
#    console warned with that count.
# Pristine (the list copied at load, no ima_kexec records): the cut is at
# the load-time count, the predicted record is absent (the replay without
# it matches instead), the warning missing: those lines fail.
# Usage: kexec-cut.sh RESULTS_DIR
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../../.." && pwd)
. "$TOP/tests/host/lib/boot.sh"
need_installed evmctl jq
boot_results "kexec-cut.sh RESULTS_DIR" "${1:-}"
[ -s "$res/stage1/binary_runtime_measurements" ] && [ -s "$res/binary_runtime_measurements" ] &&
	[ -s "$res/kexec/segment-size" ] ||
	tap_bail "no stage1/, kexec/segment-size or measurement list in $res: not a kexec-cut boot's results"

s=$(<"$res/kexec/segment-size")
n1=$(wc -l <"$res/stage1/ascii_runtime_measurements")
carried=$(($(awk '$5 == "boot_aggregate" {print NR}' "$res/ascii_runtime_measurements" | sed -n 2p) - 1))
[ "$carried" -ge 0 ] || tap_bail "no second boot_aggregate in $res: the second kernel's list is not there"

# replay.py MODE ...: the lists' own arithmetic, in Python (hashlib):
#   fit S LIST: entries of LIST that fit a segment of S bytes (with the
#     24-byte header)
#   replay PCRS STAGE1 LIST CARRIED S DCOUNT|none: replay STAGE1 whole,
#     then a kexec_execute ima-buf record predicted from S and STAGE1 (its
#     count plus DCOUNT; "none": no record), then LIST from entry CARRIED
#     (the second kernel's boot_aggregate) on; prints "BANK match|mismatch"
#     against PCR 10 of PCRS. Template hashes are checked against the
#     lists' sha1 digests first (exit 3 if one differs).
#   The lists are read with the project's Python reader (imalog.entries).
export IMALOG_DIR=$TOP/tools/ima-audit/gen
cat >"$tmp/replay.py" <<'PY'
import hashlib, os, struct, sys

sys.path.insert(0, os.environ['IMALOG_DIR'])
import imalog

def entries(path):
    try:
        return [(e.digest, e.name, e.data, e.end - e.start)
                for e in imalog.entries(open(path, 'rb').read())]
    except ValueError as err:
        sys.exit(str(err))

def fields(*parts):
    return b''.join(struct.pack('<I', len(x)) + x for x in parts)

mode = sys.argv[1]
if mode == 'fit':
    s, t, k = int(sys.argv[2]), 24, 0
    for e in entries(sys.argv[3]):
        if t + e[3] > s:
            break
        t, k = t + e[3], k + 1
    print(k)
    sys.exit(0)

pcrs, stage1, lst, carried, s, dcount = sys.argv[2:8]
first = entries(stage1)
second = entries(lst)[int(carried):]
seq = [(e[0], e[2]) for e in first]
if dcount != 'none':
    size = sum(e[3] for e in first) + 24
    text = ('kexec_segment_size=%d;ima_binary_runtime_size=%d;ima_runtime_measurements_count=%d;'
            % (int(s), size, len(first) + int(dcount))).encode()
    data = fields(b'sha256:\0' + hashlib.sha256(text).digest(), b'kexec_execute\0', text)
    seq.append((hashlib.sha1(data).digest(), data))
seq += [(e[0], e[2]) for e in second]
want = {}
for line in open(pcrs):
    k, v = line.split()
    want[k] = bytes.fromhex(v)
for bank in ('sha1', 'sha256'):
    h = getattr(hashlib, bank)
    pcr = bytes(h().digest_size)
    for dig, data in seq:
        if dig == bytes(20):
            ext = b'\xff' * h().digest_size  # a violation
        else:
            if hashlib.sha1(data).digest() != dig:
                sys.exit(3)
            ext = h(data).digest()
        pcr = h(pcr + ext).digest()
    print(bank, 'match' if pcr == want[bank + ':10'] else 'mismatch')
PY
replay() {
	python3 "$tmp/replay.py" replay "$1/pcrs.txt" "$1/stage1/binary_runtime_measurements" \
		"$1/binary_runtime_measurements" "$carried" "$s" "$2"
}

# --- the cut, recomputed here
want=$(python3 "$tmp/replay.py" fit "$s" "$res/stage1/binary_runtime_measurements")
tap_is "the second kernel got as many entries as fit the $s-byte segment ($want of the $n1 saved)" "$carried" "$want"
# the first kernel's own list replays to its PCR 10 (this replay's
# arithmetic, checked against the TPM before it is used for the cut)
got=$(python3 "$tmp/replay.py" replay "$res/stage1/pcrs.txt" "$res/stage1/binary_runtime_measurements" \
	/dev/null 0 "$s" none | paste -sd' ')
tap_is "the saved first-kernel list replays to its PCR 10 (sha1, sha256)" "$got" "sha1 match sha256 match"

# --- ima-audit on the second kernel's list
A=$TOP/tools/ima-audit/build/ima-audit
make -s -C "$TOP/tools/ima-audit" >/dev/null 2>&1 || tap_bail "cannot build tools/ima-audit"
rc=0
"$A" --json --pcrs "$res/pcrs.txt" --key "$BUILD/keys/ima.der" "$res/binary_runtime_measurements" \
	>"$tmp/a.json" 2>"$tmp/a.err" || rc=$?
j() { jq -r "$1" "$tmp/a.json"; }
tap_is "ima-audit fails the list (exit 1)" "$rc" 1
tap_is "ima-audit: class kexec-handover, once, at entry $carried (where the first kernel's part ends)" \
	"$(j '[.failures[] | select(.class == "kexec-handover") | .entry] | map(tostring) | join(" ")')" "$carried"
tap_is "ima-audit: PCR 10 replay does not match the TPM (sha1, sha256)" \
	"$(j '[.pcrs[] | select(.pcr == 10) | "\(.bank) \(.status)"] | join(", ")')" "sha1 mismatch, sha256 mismatch"
tap_is "ima-audit: no other class of failure" \
	"$(j '[.failures[].class] | unique | join(" ")')" "kexec-handover pcr-mismatch"
tap_is "ima-audit: two kernels, every template hash right, boot_aggregate matching" \
	"$(j '"\(.kernels) \(.template_hash.failed) \(.boot_aggregate.status)"')" "2 0 match"
n=$(wc -l <"$res/ascii_runtime_measurements")
for alg in sha1 sha256; do
	awk -v a="$alg" '{split($1, k, ":")} k[1] == a {printf "PCR-%02d: %s\n", k[2], $2}' "$res/pcrs.txt" >"$tmp/$alg"
	(cd "$tmp" && evmctl -v ima_measurement --ignore-violations --pcrs "$alg,$tmp/$alg" \
		--verify-bank="$alg" "$res/binary_runtime_measurements" >"$tmp/evmctl-$alg.out" 2>&1) || true
	if grep -q "^$alg PCR-10: succeed" "$tmp/evmctl-$alg.out"; then
		tap_fail "evmctl: the list ($n entries) does not replay to PCR 10 ($alg bank)" \
			"$(grep "^$alg PCR-10: succeed" "$tmp/evmctl-$alg.out")"
	else
		tap_ok "evmctl: the list ($n entries) does not replay to PCR 10 ($alg bank)"
	fi
done

# --- exactly what was left out
tap_is "the saved list, the predicted kexec_execute record, then the second kernel's entries replay to PCR 10" \
	"$(replay "$res" 0 | paste -sd' ')" "sha1 match sha256 match"
for f in 1 -1 none; do
	got=$(replay "$res" "$f" | paste -sd' ')
	case $f in none) what="no kexec_execute record" ;; *) what="the record's count off by $f" ;; esac
	if [ "$got" = "sha1 mismatch sha256 mismatch" ]; then
		tap_ok "forged ($what): the replay refuses it"
	else
		tap_fail "forged ($what): the replay refuses it" "$got"
	fi
done
# forged: the segment one entry larger must give a different cut
e1=$(python3 "$tmp/replay.py" fit "$((s + 4096))" "$res/stage1/binary_runtime_measurements")
tap_cmd "forged (a segment one page larger): the fit check sees more entries ($e1 > $want)" test "$e1" -gt "$want"

# --- the first kernel said so (0014's warning, on the boot's console)
if [ -f "$console" ]; then
	tap_cmd "the first kernel warned: only $want measurements fit in the $s-byte segment" \
		grep -q "only $want measurements fit in the $s-byte segment" "$console"
else
	tap_fail "the first kernel warned: only $want measurements fit in the $s-byte segment" "no console log $console"
fi
tap_done
