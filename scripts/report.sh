#!/usr/bin/env bash
# Stage report: a readable account of one guest run — kernel, TPM, key
# chain, policy, what the loader let in and what it refused, and whether the
# measurement list is the one the TPM quoted. Always prints every section;
# exits 1 when any check in it failed, so a failure is reported, not a crash.
# The audit and the attestation are also written as pages (ima-audit
# --html, ima-attest verify --html): RESULTS_DIR/audit.html and
# attest.html, their paths printed before the verdict.
# Usage:   report.sh RESULTS_DIR NONCE
# Inputs:  RESULTS_DIR from boot.sh, build/keys, tools/ima-audit.
. "$(dirname "$0")/lib.sh"
set +e # every section runs; failures are collected in $failed
trap - ERR

rdir=$(cd "${1:?usage: report.sh RESULTS_DIR NONCE}" && pwd) || exit 99
nonce=${2:?usage: report.sh RESULTS_DIR NONCE}
keys=$BUILD/keys
audit=$TOP/tools/ima-audit/build/ima-audit
failed=()
# a page of an earlier run must not pass for this one's
rm -f "$rdir/audit.html" "$rdir/attest.html"

h() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
kv() { printf '  %-22s %s\n' "$1" "$2"; }
# tap_report NAME CMD...: a TAP-printing check, shown as PASS/FAIL lines;
# a not ok, a bail-out or a non-zero exit is a failure of the report
tap_report() {
	local name=$1 out rc
	shift
	out=$("$@" 2>&1)
	rc=$?
	sed -n 's/^ok [0-9]* - /  PASS  /p; s/^not ok [0-9]* - /  FAIL  /p; s/^Bail out! /  BROKEN  /p; s/^# /        /p' <<<"$out"
	if [ "$rc" != 0 ] || grep -qE '^(not ok|Bail out!)' <<<"$out"; then
		failed+=("$name")
	fi
}
file_or() { cat "$1" 2>/dev/null || echo "$2"; }

h "Kernel"
kv "release" "$(sed -n 's/^kernel: //p' "$rdir/env.txt" 2>/dev/null | cut -d' ' -f1)"
kv "command line" "$(sed -n 's/^cmdline: //p' "$rdir/env.txt" 2>/dev/null)"
kv "boot to results" "$(file_or "$rdir/boot-seconds" ?) s (QEMU TCG, swtpm)"

h "TPM"
kv "PCR banks read" "$(cut -d: -f1 "$rdir/pcrs.txt" 2>/dev/null | sort -u | paste -sd' ')"
kv "PCR 10 (sha256)" "$(awk '$1 == "sha256:10" {print tolower($2)}' "$rdir/pcrs.txt" 2>/dev/null)"
kv "boot_aggregate" "$(awk '$5 == "boot_aggregate" {print $4}' "$rdir/ascii_runtime_measurements" 2>/dev/null)"

h "Key chain"
kv "CA (built into kernel)" "$(openssl x509 -in "$keys/ca.pem" -noout -subject | sed 's/^subject=//')"
kv "IMA key" "$(openssl x509 -in "$keys/ima.pem" -noout -subject | sed 's/^subject=//')"
if v=$(openssl verify -CAfile "$keys/ca.pem" "$keys/ima.pem" 2>&1); then
	kv "  certified by CA" "${v##*: }"
else
	kv "  certified by CA" "NO: $v"
	failed+=("IMA key not certified by the CA")
fi
kv ".ima keyring (guest)" "$(grep -c . "$rdir/ima-keyring.txt" 2>/dev/null || echo 0) keys"
sed 's/^/                         /' "$rdir/ima-keyring.txt" 2>/dev/null

h "Policy"
kv "signed policy by path" "$(file_or "$rdir/policy-load" missing)"
[ "$(cat "$rdir/policy-load" 2>/dev/null)" = OK ] || failed+=("the signed policy did not load at boot")
kv "active rules" "$(grep -c . "$rdir/active-policy" 2>/dev/null || echo 0)"
kv "measurement entries" "$(wc -l <"$rdir/ascii_runtime_measurements" 2>/dev/null)"

h "What the loader let in and what it refused (guest tests)"
for tap in "$rdir"/tap/*.tap; do
	[ -f "$tap" ] || { echo "  (no guest test results)"; failed+=("no guest test results"); break; }
	n=$(basename "$tap" .tap)
	printf '  %s\n' "$n"
	tap_report "guest suite $n" cat "$tap"
	[ "$(cat "$rdir/tap/$n.rc" 2>/dev/null)" = 0 ] || failed+=("guest suite $n exit $(file_or "$rdir/tap/$n.rc" unknown)")
done

h "Measurement list vs TPM (host audit)"
tap_report "host audit" "$TOP/scripts/audit.sh" "$rdir"

h "Policy recorded in the measurement list (policy critical data)"
"$audit" --show-policy --pcrs "$rdir/pcrs.txt" "$rdir/binary_runtime_measurements" 2>&1 | sed 's/^/  /'

h "ima-audit report (its signature failures are the tampered and rogue fixtures; the audit above checks that they are exactly those)"
"$audit" --pcrs "$rdir/pcrs.txt" --key "$keys/ima.der" --html "$rdir/audit.html" \
	"$rdir/binary_runtime_measurements" 2>&1 | sed 's/^/  /'

h "Attestation: TPM identity, AK binding, firmware log, quote over PCRs 0-10 with nonce $nonce"
kv "TPM manufacturer CA" "$(openssl x509 -in "$keys/tpm-ca.pem" -noout -subject 2>/dev/null | sed 's/^subject=//')"
"$TOP/tools/ima-attest/build/ima-attest" enrolled --enrolled "$rdir/verifier" 2>&1 |
	sed 's/^/  host verifier: /' || true
tap_report "attestation" "$TOP/scripts/attest.sh" "$rdir" "$nonce"
# the two verdicts of record, on the guest's files, with the enrolled AK only
"$TOP/tools/ima-attest/build/ima-attest" verify --enrolled "$rdir/verifier" \
	--quote "$rdir/attest/quote.msg" --quote-sig "$rdir/attest/quote.sig" \
	--quote-pcrs "$rdir/attest/quote.pcrs" --nonce "$nonce" \
	--eventlog "$rdir/attest/binary_bios_measurements" \
	--list "$rdir/attest/binary_runtime_measurements" --html "$rdir/attest.html" >/dev/null 2>&1 ||
	failed+=("ima-attest verify (enrolled AK, firmware log, boot_aggregate)")
"$audit" --quote "$rdir/attest/quote.msg" --quote-sig "$rdir/attest/quote.sig" \
	--ak-pub "$rdir/verifier/ak.pem" --quote-pcrs "$rdir/attest/quote.pcrs" \
	--nonce "$nonce" "$rdir/attest/binary_runtime_measurements" >/dev/null 2>&1 ||
	failed+=("ima-audit --quote with the enrolled AK on the guest's quote and list")

h "Pages (open in a browser; they work offline)"
for p in audit attest; do
	if [ -s "$rdir/$p.html" ]; then
		kv "$p" "$rdir/$p.html"
	else
		kv "$p" "not written (see the section above)"
		failed+=("the $p page was not written")
	fi
done

echo
if [ ${#failed[@]} -eq 0 ]; then
	echo "  VERDICT: proven, and every check above passed:"
	echo "    TPM identity   the EK certificate chains to the manufacturer CA, certifies an EK and is the EK's key"
	echo "    AK binding     the AK is a restricted key of that TPM (credential activation, this boot)"
	echo "    firmware log   the SeaBIOS event log replays (sha1, sha256) to the quoted PCRs 0-9"
	echo "    list           the measurement list is the one the enrolled AK quoted for this nonce (PCR 10)"
	echo "    policy         the signed policy loaded, and the list records it"
	exit 0
fi
echo "  VERDICT: FAILED (${#failed[@]}):"
printf '    - %s\n' "${failed[@]}"
exit 1
