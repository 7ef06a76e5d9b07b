#!/usr/bin/env bash
# Host tests of the verdicts over a real guest run (make check runs this after
# the main boot): copies of the run's results, each changed in one way that
# must turn a verdict into a failure, with the expected failure written here.
# Usage: verdicts.sh RESULTS_DIR NONCE
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../../.." && pwd)
. "$TOP/tests/host/lib/boot.sh"
boot_results "verdicts.sh RESULTS_DIR NONCE" "${1:-}"
nonce=${2:?usage: verdicts.sh RESULTS_DIR NONCE}

# copy NAME: a private copy of the results
copy() { rm -rf "${tmp:?}/$1"; cp -a "$res" "$tmp/$1"; echo "$tmp/$1"; }
# audit_line DIR PATTERN: the TAP line of audit.sh on DIR that matches PATTERN
audit_line() { "$TOP/scripts/audit.sh" "$1" 2>/dev/null | grep -E "^(not )?ok [0-9]+ - .*$2" | head -n 1 || true; }
status() { case $1 in "not ok"*) echo "not ok" ;; ok*) echo ok ;; *) echo "missing" ;; esac; }

# 1. a tampered fixture a suite declares but the list does not show: the
#    signature verdict must fail (before, its expectation came from the list)
d=$(copy ghost)
echo "file /usr/lib/firmware/ima-stack/ghost-tampered.bin 1 0 tampered" >>"$d/fixtures/10-firmware.manifest"
l=$(audit_line "$d" "ima-audit: the only signature failures")
tap_is "audit: a declared tampered fixture missing from the list fails the signature check" \
	"$(status "$l")" "not ok"

# 2. the guest sent no active policy: the policy check is a failure, not gone
d=$(copy nopolicy)
rm -f "$d/active-policy"
l=$(audit_line "$d" "recorded policy")
tap_is "audit: no active policy returned -> the policy check fails (it does not vanish)" \
	"$(status "$l")" "not ok"

# 3. PCR 10 read from the TPM changed: ima-audit and evmctl both fail
d=$(copy pcr10)
awk '$1 == "sha256:10" {c = substr($2, 1, 1); $2 = (c == "0" ? "1" : "0") substr($2, 2)} {print}' \
	"$res/pcrs.txt" >"$d/pcrs.txt"
[ "$(md5sum <"$d/pcrs.txt")" != "$(md5sum <"$res/pcrs.txt")" ] || tap_bail "could not change PCR 10"
tap_is "audit: a changed PCR 10 value fails ima-audit's replay (sha256 bank)" \
	"$(status "$(audit_line "$d" "replays to TPM PCR 10 \\(sha256")")" "not ok"
tap_is "audit: a changed PCR 10 value fails evmctl's replay (sha256 bank)" \
	"$(status "$(audit_line "$d" "evmctl replays all [0-9]+ entries to PCR 10 \\(sha256")")" "not ok"

# 4. the demo report on a forged list: every section printed, exit 1, a
#    FAILED verdict (before, the report stopped at the first failing check)
d=$(copy report)
python3 - "$d/attest/binary_runtime_measurements" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
b[len(b) // 2] ^= 0x01
open(p, 'wb').write(b)
PY
rc=0
out=$("$TOP/scripts/report.sh" "$d" "$nonce" 2>&1) || rc=$?
tap_is "report: a forged list -> exit 1" "$rc" 1
missing=
for sec in "Kernel" "TPM" "Key chain" "Policy" "What the loader let in" \
	"Measurement list vs TPM" "ima-audit report" "Attestation"; do
	grep -q "== $sec" <<<"$out" || missing+="$sec; "
done
tap_is "report: every section is printed although a check failed" "$missing" ""
tap_is "report: the verdict says FAILED" "$(grep -c 'VERDICT: FAILED' <<<"$out")" 1
tap_done
