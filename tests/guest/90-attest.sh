#!/bin/bash
# Attestation, guest side: a TPM quote over PCRs 0-10 with the host's nonce.
# The endorsement key (EK, the TCG default RSA-2048 template) is the parent of
# an attestation key (AK: restricted RSA-2048 signing key, RSASSA-PKCS1-v1_5
# with sha256); the AK quotes the sha1 and sha256 banks, PCRs 0-10, with the
# nonce from ima_stack.nonce as qualifying data. Written to
# $IMA_STACK_RESULTS/attest/ for the host (scripts/attest.sh):
#   quote.msg    TPMS_ATTEST, the signed bytes       (tpm2_quote -m)
#   quote.sig    TPMT_SIGNATURE                      (tpm2_quote -s, tss format)
#   quote.pcrs   the quoted PCR values, concatenated in selection order
#                                                    (tpm2_quote -o -F values)
#   pcr-list     the selection, as tpm2-tools spells it
#   ak.pem ek.pem  the AK's and EK's public keys; ak.name  the AK's TPM name
#   nonce        the qualifying data used (hex)
#   binary_runtime_measurements  a copy taken after the quote
# The guest only asserts that the tools ran; the verdict is the host's
# (ima-audit --quote).
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/guest.sh"

export TPM2TOOLS_TCTI=device:/dev/tpmrm0
out=$IMA_STACK_RESULTS/attest
work=/tmp/attest	# key contexts stay in the guest (tmpfs)
mkdir -p "$out" "$work"

nonce=$(tr -d '\n' <"$IMA_STACK_RESULTS/nonce" 2>/dev/null || true)
if [ -z "$nonce" ]; then
	tap_skip "TPM quote with the host's nonce" \
		"no nonce: boot with IMA_STACK_NONCE=\$(openssl rand -hex 20)"
	tap_done
fi
# TPM2B_DATA holds at most a sha512 digest plus its algorithm id; keep to 64
[[ $nonce =~ ^([0-9a-fA-F]{2}){1,64}$ ]] ||
	tap_bail "nonce '$nonce' is not 1-64 bytes of hex"
[ -c /dev/tpmrm0 ] || tap_bail "no /dev/tpmrm0 (TPM resource manager)"

# Selection: PCRs 0-10 of the sha256 bank, and of sha1 when it is allocated.
sel=0,1,2,3,4,5,6,7,8,9,10
list=sha256:$sel
[ -d /sys/class/tpm/tpm0/pcr-sha1 ] && list=sha1:$sel+$list
echo "$list" >"$out/pcr-list"
printf '%s\n' "$nonce" >"$out/nonce"

tap_cmd "tpm2_createek: RSA EK in the endorsement hierarchy, public part as PEM" \
	tpm2_createek -c "$work/ek.ctx" -G rsa -u "$out/ek.pem" -f pem
tap_cmd "tpm2_createak: restricted RSA signing key (rsassa, sha256) under the EK" \
	tpm2_createak -C "$work/ek.ctx" -c "$work/ak.ctx" -G rsa -g sha256 \
	-s rsassa -u "$out/ak.pem" -f pem -n "$out/ak.name"

# Everything run after the quote has run once before it, so the copy of
# the list below normally holds no entry the quote does not cover (a new
# executable would be measured, and extend PCR 10, after the quote).
cp "$out/nonce" "$work/warm" && rm -f "$work/warm"

tap_cmd "tpm2_quote over $list with the nonce as qualifying data" \
	tpm2_quote -c "$work/ak.ctx" -l "$list" -q "$nonce" -g sha256 \
	-m "$out/quote.msg" -s "$out/quote.sig" -o "$out/quote.pcrs" -F values
# the list as it is now: it may have grown since the quote
cp "$IMA_SFS/binary_runtime_measurements" "$out/binary_runtime_measurements"

# (whether these files prove anything is the host's verdict: scripts/attest.sh)

tap_done
