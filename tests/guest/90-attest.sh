#!/bin/bash
# Attestation, guest side: a TPM quote over PCRs 0-10 with the host's nonce.
# With ima_stack.attest=1 the attestation agent (started by init) has made
# the endorsement key (EK, the TCG default RSA-2048 template) and under it
# the attestation key (AK: restricted RSA-2048 signing key, RSASSA-PKCS1-v1_5
# with sha256), and the host verifier has enrolled that AK by credential
# activation over the virtio-serial port; this test waits for that and
# quotes with the enrolled AK. Without the agent it makes its own EK and AK
# (which no verifier has enrolled). The AK quotes the sha1 and sha256 banks,
# PCRs 0-10, with the nonce from ima_stack.nonce as qualifying data. Written
# to $IMA_STACK_RESULTS/attest/ for the host (scripts/attest.sh):
#   quote.msg    TPMS_ATTEST, the signed bytes       (tpm2_quote -m)
#   quote.sig    TPMT_SIGNATURE                      (tpm2_quote -s, tss format)
#   quote.pcrs   the quoted PCR values, concatenated in selection order
#                                                    (tpm2_quote -o -F values)
#   pcr-list     the selection, as tpm2-tools spells it
#   ak.pem ek.pem  the AK's and EK's public keys; ak.name  the AK's TPM name
#   nonce        the qualifying data used (hex)
#   binary_runtime_measurements  a copy taken after the quote
#   binary_bios_measurements     the firmware's TCG event log (PCRs 0-7)
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

agent=/run/attest
stage=$(sed -n 's/.*\bima_stack\.stage=\([0-9]*\).*/\1/p' /proc/cmdline)
stage=${stage:-1}
if grep -qw ima_stack.attest=1 /proc/cmdline && [ "$stage" = 1 ]; then
	# the agent answers the host while the suites before this one ran
	for _ in $(seq 600); do
		[ -s "$agent/enrolled" ] && break
		sleep 0.5
	done
	tap_is "the host verifier enrolled this TPM's AK (the agent's record; the verdict is the host's)" \
		"$(cat "$agent/enrolled" 2>/dev/null || echo "no answer within 300 s: $(tail -n 2 /run/attest-agent.log 2>/dev/null | tr '\n' ' ')")" trusted
	ak=$agent/ak.ctx
	tap_cmd "the enrolled AK's public part as PEM (tpm2_readpublic)" \
		tpm2_readpublic -c "$ak" -f pem -o "$out/ak.pem"
	cp "$agent/ak.name" "$out/ak.name"
	tpm2_readpublic -c "$agent/ek.ctx" -f pem -o "$out/ek.pem" >/dev/null
elif grep -qw ima_stack.attest=1 /proc/cmdline; then
	# a kernel started by kexec: the host enrolled the AK in stage 1,
	# whose agent made it persistent; init carried the agent's record
	carried=$IMA_STACK_RESULTS/stage1/agent
	tap_is "stage $stage: the host verifier enrolled the AK in stage 1 (the agent's record, carried over kexec)" \
		"$(cat "$carried/enrolled" 2>/dev/null || echo "no record in $carried")" trusted
	ak=$(cat "$carried/ak.handle" 2>/dev/null || echo none)
	tap_cmd "the persistent AK ($ak) as PEM (tpm2_readpublic)" \
		tpm2_readpublic -c "$ak" -f pem -o "$out/ak.pem" -n "$work/ak.name"
	# hexname FILE: a TPM name as hex, or why there is none
	hexname() { [ -s "$1" ] && od -An -v -tx1 "$1" | tr -d ' \n' || echo "no name in $1"; }
	tap_is "the persistent AK is the key stage 1 enrolled (TPM names)" \
		"$(hexname "$work/ak.name")" "$(hexname "$carried/ak.name")"
	cp "$work/ak.name" "$out/ak.name" 2>/dev/null || true
	tpm2_createek -c "$work/ek.ctx" -G rsa -u "$out/ek.pem" -f pem >/dev/null
else
	tap_cmd "tpm2_createek: RSA EK in the endorsement hierarchy, public part as PEM" \
		tpm2_createek -c "$work/ek.ctx" -G rsa -u "$out/ek.pem" -f pem
	tap_cmd "tpm2_createak: restricted RSA signing key (rsassa, sha256) under the EK (not enrolled: no ima_stack.attest=1)" \
		tpm2_createak -C "$work/ek.ctx" -c "$work/ak.ctx" -G rsa -g sha256 \
		-s rsassa -u "$out/ak.pem" -f pem -n "$out/ak.name"
	ak=$work/ak.ctx
fi
# the firmware's event log, as the kernel found it (ACPI TPM2 table)
bios=/sys/kernel/security/tpm0/binary_bios_measurements
tap_cmd "the kernel exposes the firmware's TCG event log ($bios)" \
	cp "$bios" "$out/binary_bios_measurements"

# Everything run after the quote has run once before it, so the copy of
# the list below normally holds no entry the quote does not cover (a new
# executable would be measured, and extend PCR 10, after the quote).
cp "$out/nonce" "$work/warm" && rm -f "$work/warm"

tap_cmd "tpm2_quote over $list with the nonce as qualifying data" \
	tpm2_quote -c "$ak" -l "$list" -q "$nonce" -g sha256 \
	-m "$out/quote.msg" -s "$out/quote.sig" -o "$out/quote.pcrs" -F values
# the list as it is now: it may have grown since the quote
cp "$IMA_SFS/binary_runtime_measurements" "$out/binary_runtime_measurements"

# (whether these files prove anything is the host's verdict: scripts/attest.sh)

tap_done
