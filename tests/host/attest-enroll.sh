#!/usr/bin/env bash
# Host test: enrollment (tools/ima-attest enroll) against the real guest
# agent (rootfs/overlay/opt/ima-stack/attest-agent) driving a loopback
# swtpm on a unix socket, no kernel. Two TPMs are made at this test's start,
# each with an EK certificate from its own throwaway swtpm_localca CA
# ("manufacturer" A and B); the verifier trusts A. The genuine enrollment
# must pass and activate the credential; then a man in the middle
# (tests/host/attest/mitm.py) makes one attacker's edit per case, and each
# must be refused (exit 1) with its reason.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/host/lib/host.sh"
need_installed swtpm swtpm_setup swtpm_localca tpm2_createek python3 xxd
python3 -c 'import cryptography' 2>/dev/null || tap_bail "python3-cryptography not installed: run \`make deps\`"
. "$TOP/tests/host/attest/setup.sh"
agent=$TOP/rootfs/overlay/opt/ima-stack/attest-agent
mitm=$TOP/tests/host/attest/mitm.py

tpm A
tpm B
caA=$tmp/A/ca/swtpm-localca-rootca-cert.pem

# enroll NAME MODE [TPM]: ima-attest enroll with the agent on TPM (default
# A) behind the man in the middle; sets $rc and $out
n=0
enroll() {
	local t=${3:-A} s
	n=$((n + 1))
	s=$tmp/ch$n.sock
	TPM2TOOLS_TCTI=swtpm:path=$tmp/$t/tpm.sock \
		python3 "$mitm" "$s" "$2" "$tmp" -- "$agent" - "$tmp/agent-$n" \
		2>"$tmp/mitm-$n.err" &
	local mp=$!
	rc=0
	out=$("$attest" enroll --channel "$s" --ca "$caA" --ca-chain "$tmp/$t/chain.pem" \
		--out "$tmp/out-$n" --timeout 60 2>&1) || rc=$?
	wait "$mp" || true
}

# expect NAME RC REASON (an extended regular expression)
expect() {
	if [ "$rc" = "$2" ] && grep -qE -- "$3" <<<"$out"; then
		tap_ok "$1 (exit $2: $(grep -m1 -oE -- "$3" <<<"$out"))"
	else
		tap_fail "$1" "exit $rc, want $2 and /$3/; output:" "$out" \
			"agent/mitm stderr:" "$(tail -n 5 "$tmp/mitm-$n.err")"
	fi
}

enroll genuine none
expect "genuine TPM: EK certified by the trusted CA, AK activated" 0 'enrollment: PASS'
tap_is "the verifier kept the enrolled AK's name (the TPM's name of the AK)" \
	"$(xxd -p -c 100 "$tmp/out-$n/ak.name")" "$(xxd -p -c 100 "$tmp/agent-$n/ak.name")"
tap_is "the agent was told it is trusted" "$(cat "$tmp/agent-$n/enrolled")" trusted
TPM2TOOLS_TCTI=swtpm:path=$tmp/A/tpm.sock tpm2_readpublic -c "$tmp/agent-$n/ak.ctx" \
	-f der -o "$tmp/ak-tpm.der" >/dev/null
TPM2TOOLS_TCTI=swtpm:path=$tmp/A/tpm.sock tpm2_flushcontext -t
openssl pkey -pubin -in "$tmp/out-$n/ak.pem" -outform DER -out "$tmp/ak-verifier.der"
tap_cmd "the enrolled AK (ak.pem) is the TPM's AK public key (tpm2_readpublic -f der)" \
	cmp "$tmp/ak-verifier.der" "$tmp/ak-tpm.der"
# the other TPM's identity, for the substitution cases
TPM2TOOLS_TCTI=swtpm:path=$tmp/B/tpm.sock tpm2_nvread 0x01c00002 -o "$tmp/B/ek-cert.der" 2>/dev/null
od -An -v -tx1 "$tmp/B/ek-cert.der" | tr -d ' \n' >"$tmp/other-ekcert.hex"
TPM2TOOLS_TCTI=swtpm:path=$tmp/B/tpm.sock tpm2_createek -c "$tmp/B/ek.ctx" -G rsa -u "$tmp/B/ek.pub" >/dev/null
TPM2TOOLS_TCTI=swtpm:path=$tmp/B/tpm.sock tpm2_flushcontext -t
od -An -v -tx1 "$tmp/B/ek.pub" | tr -d ' \n' >"$tmp/other-ekpub.hex"

enroll other-ca none B
expect "a TPM whose EK certificate another CA issued is refused" 1 \
	'EK certificate does not chain to the manufacturer CA'
tap_is "no AK is kept for a refused enrollment" "$(ls "$tmp/out-$n")" "$(printf 'ek-cert.der\nverdict')"
enroll ekcert-other ekcert-other
expect "EK certificate of another TPM, from another CA, presented for this EK: refused" 1 \
	'EK certificate does not chain to the manufacturer CA'
enroll ekpub-other ekpub-other
expect "EK public area not the certified key (another TPM's EK with this certificate): refused" 1 \
	'EK public key does not match its certificate'
enroll ak-software ak-software
expect "a software key with every AK attribute claimed: credential activation fails, refused" 1 \
	'credential activation failed in the guest'
enroll ak-unrestricted ak-unrestricted
expect "an AK without the restricted attribute (name recomputed): refused" 1 \
	'AK attribute restricted is clear'
enroll akname-wrong akname-wrong
expect "an AK name that does not match its public area: refused" 1 \
	'AK name does not match its public area'
enroll answer-wrong answer-wrong
expect "a wrong activation answer: refused" 1 \
	'activation answer does not match the secret of this challenge'
enroll answer-replay answer-replay
expect "the answer of an earlier enrollment (replayed): refused" 1 \
	'activation answer does not match the secret of this challenge'
tap_is "the agent was told it is refused" "$(cat "$tmp/agent-$n/enrolled")" refused

refused_dir=$tmp/out-$n

# the verifier's record, read by the one rule the scripts call
# (ima-attest enrolled): what it proved, named field by field
enroll genuine-again none
rc=0
out=$("$attest" enrolled --enrolled "$tmp/out-$n" 2>&1) || rc=$?
expect "ima-attest enrolled on a trusted enrollment: exit 0" 0 '^enrollment: trusted'
tap_is "the record names the AK the TPM holds (ak-name: the agent's ak.name)" \
	"$(sed -n 's/^ak-name: //p' "$tmp/out-$n/verdict")" "$(xxd -p -c 100 "$tmp/agent-$n/ak.name")"
tap_is "the record names the EK certificate the TPM holds (its sha256)" \
	"$(sed -n 's/^ek-certificate-sha256: //p' "$tmp/out-$n/verdict")" \
	"$(TPM2TOOLS_TCTI=swtpm:path=$tmp/A/tpm.sock tpm2_nvread 0x01c00002 2>/dev/null | sha256sum | cut -d' ' -f1)"
rc=0
out=$("$attest" enrolled --enrolled "$refused_dir" 2>&1) || rc=$?
expect "ima-attest enrolled on a refused enrollment: exit 1, nothing named as proven" 1 \
	'ak-binding: refused$'
tap_done
