#!/usr/bin/env bash
# make demo: boot the guest once, run the guest suite, and print a report a
# person can read: kernel, TPM, key chain, policy, what the loader let in
# and what it refused, and whether the measurement list matches the TPM.
# Inputs: the image and kernel (make builds them first).
# Outputs: build/<variant>/results/demo/, the report on stdout.
. "$(dirname "$0")/lib.sh"

variant=${KVARIANT:-patched}
rdir=$BUILD/$variant/results/demo
keys=$BUILD/keys

nonce=$(openssl rand -hex 20)
IMA_STACK_TESTS='[0-7]*,9*' IMA_STACK_NONCE=$nonce "$TOP/scripts/boot.sh" check demo

h() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
kv() { printf '  %-22s %s\n' "$1" "$2"; }

h "Kernel"
kv "release" "$(sed -n 's/^kernel: //p' "$rdir/env.txt" | cut -d' ' -f1)"
kv "command line" "$(sed -n 's/^cmdline: //p' "$rdir/env.txt")"
kv "boot to results" "$(cat "$rdir/boot-seconds") s (QEMU TCG, swtpm)"

h "TPM"
kv "PCR banks read" "$(cut -d: -f1 "$rdir/pcrs.txt" | sort -u | paste -sd' ')"
kv "PCR 10 (sha256)" "$(awk '$1 == "sha256:10" {print tolower($2)}' "$rdir/pcrs.txt")"
kv "boot_aggregate" "$(awk '$5 == "boot_aggregate" {print $4}' "$rdir/ascii_runtime_measurements")"

h "Key chain"
kv "CA (built into kernel)" "$(openssl x509 -in "$keys/ca.pem" -noout -subject | sed 's/^subject=//')"
kv "IMA key" "$(openssl x509 -in "$keys/ima.pem" -noout -subject | sed 's/^subject=//')"
kv "  certified by CA" "$(openssl verify -CAfile "$keys/ca.pem" "$keys/ima.pem" 2>&1 | sed 's/.*: //')"
kv ".ima keyring (guest)" "$(grep -c . "$rdir/ima-keyring.txt" 2>/dev/null || echo 0) keys"
sed 's/^/                         /' "$rdir/ima-keyring.txt" 2>/dev/null || true

h "Policy"
kv "signed policy by path" "$(cat "$rdir/policy-load") (/etc/ima/ima-policy)"
kv "active rules" "$(grep -c . "$rdir/active-policy" || true)"
kv "measurement entries" "$(wc -l <"$rdir/ascii_runtime_measurements")"

h "What the loader let in and what it refused (guest tests)"
for tap in "$rdir"/tap/*.tap; do
	printf '  %s\n' "$(basename "$tap" .tap)"
	sed -n 's/^ok [0-9]* - \(.*\)$/    PASS  \1/p; s/^not ok [0-9]* - \(.*\)$/    FAIL  \1/p' "$tap"
done

h "Measurement list vs TPM (host audit)"
"$TOP/scripts/audit.sh" "$rdir" | sed -n 's/^ok [0-9]* - /  PASS  /p; s/^not ok [0-9]* - /  FAIL  /p; s/^# /        /p'

h "Policy recorded in the measurement list (ima_policy critical data)"
"$TOP/tools/ima-audit/build/ima-audit" --show-policy "$rdir/binary_runtime_measurements" 2>&1 |
	sed 's/^/  /' || true

h "ima-audit report"
"$TOP/tools/ima-audit/build/ima-audit" --pcrs "$rdir/pcrs.txt" --key "$keys/ima.der" \
	"$rdir/binary_runtime_measurements" 2>&1 | sed 's/^/  /' || true

h "Attestation: TPM quote over PCRs 0-10 with nonce $nonce"
"$TOP/scripts/attest.sh" "$rdir" "$nonce" | sed -n 's/^ok [0-9]* - /  PASS  /p; s/^not ok [0-9]* - /  FAIL  /p'
if "$TOP/tools/ima-audit/build/ima-audit" --quote "$rdir/attest/quote.msg" \
	--quote-sig "$rdir/attest/quote.sig" --ak-pub "$rdir/attest/ak.pem" \
	--quote-pcrs "$rdir/attest/quote.pcrs" --nonce "$nonce" \
	"$rdir/attest/binary_runtime_measurements" >/dev/null 2>&1; then
	printf '\n  VERDICT: the measurement list is the one the TPM quoted for this nonce\n'
else
	printf '\n  VERDICT: attestation FAILED (see above)\n'
fi
