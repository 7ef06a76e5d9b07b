#!/usr/bin/env bash
# Host test: enrolling a machine that is not our guest (ima-attest
# challenge, then activate), by the steps tools/ima-attest/README.md gives
# its owner, with swtpm and tpm2-tools playing that machine: its TPM's EK
# certificate issued by a throwaway manufacturer CA (A), another TPM's by
# another (B). The genuine enrollment must be trusted and its AK's quote
# verified; each attacker's try must be refused, for the reason given with
# it, from how it was made. Then the command line: every command's --help,
# usage errors named, and --json one object whatever happens.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/host/lib/host.sh"
need_installed swtpm swtpm_setup swtpm_localca tpm2_createek tpm2_createak tpm2_activatecredential \
	tpm2_quote python3 xxd
python3 -c 'import cryptography' 2>/dev/null || tap_bail "python3-cryptography not installed: run \`make deps\`"
. "$TOP/tests/host/attest/setup.sh"
here=$TOP/tests/host/attest
evlog=$TOP/tools/ima-attest/tests/data/seabios-q35.evlog
tpm A
tpm B
caA=$tmp/A/ca/swtpm-localca-rootca-cert.pem

# on NAME CMD...: a tpm2-tools command on machine NAME's TPM
on() {
	local t=$1
	shift
	TPM2TOOLS_TCTI=swtpm:path=$tmp/$t/tpm.sock "$@"
}
# machine NAME: the owner's steps on NAME (README: step 1), in $tmp/NAME/m
machine() {
	local m=$tmp/$1/m
	mkdir -p "$m"
	on "$1" tpm2_createek -c "$m/ek.ctx" -G rsa -u "$m/ek.pub" >/dev/null
	on "$1" tpm2_nvread 0x01c00002 -o "$m/ek-cert.der" 2>/dev/null
	on "$1" tpm2_createak -C "$m/ek.ctx" -c "$m/ak.ctx" -G rsa -g sha256 -s rsassa \
		-u "$m/ak.pub" -n "$m/ak.name" >/dev/null
	on "$1" tpm2_flushcontext -t
}
# activate_on NAME CRED SECRET: the owner's step 2 on NAME; its exit code
activate_on() {
	local m=$tmp/$1/m rc=0
	on "$1" tpm2_startauthsession --policy-session -S "$m/session.ctx" >/dev/null &&
		on "$1" tpm2_policysecret -S "$m/session.ctx" -c e >/dev/null &&
		on "$1" tpm2_activatecredential -c "$m/ak.ctx" -C "$m/ek.ctx" -i "$2" -o "$3" \
			-P "session:$m/session.ctx" >/dev/null 2>&1 || rc=$?
	on "$1" tpm2_flushcontext "$m/session.ctx" >/dev/null 2>&1 || true
	on "$1" tpm2_flushcontext -t
	return "$rc"
}
# challenge DIR [OPTIONS...]: ima-attest challenge with A's files unless
# OPTIONS or CA, CHAIN, EKCERT, EKPUB, AKPUB name others; sets $rc and $out
challenge() {
	local d=$1 m=$tmp/A/m
	shift
	rc=0
	out=$("$attest" challenge --ca "${CA:-$caA}" --ca-chain "${CHAIN:-$tmp/A/chain.pem}" --out "$d" \
		--ek-cert "${EKCERT:-$m/ek-cert.der}" --ek-pub "${EKPUB:-$m/ek.pub}" \
		--ak-pub "${AKPUB:-$m/ak.pub}" "$@" 2>&1) || rc=$?
}
# run CMD...: ima-attest CMD; sets $rc and $out
run() {
	rc=0
	out=$("$attest" "$@" 2>&1) || rc=$?
}
expect() {
	if [ "$rc" = "$2" ] && grep -qE -- "$3" <<<"$out"; then
		tap_ok "$1 (exit $2: $(grep -m1 -oE -- "$3" <<<"$out"))"
	else
		tap_fail "$1" "exit $rc, want $2 and /$3/; output:" "$out"
	fi
}

machine A
machine B

# --- the genuine machine, step by step
v=$tmp/v
challenge "$v" --ak-name "$tmp/A/m/ak.name" --boot machine-a
expect "step 1: the EK certificate chains to the CA, the AK checks: the credential is made" 0 \
	'^challenge: made'
tap_is "DIR holds the credential and the challenge, no record yet, and never the secret in clear" \
	"$(cd "$v" && ls | tr '\n' ' ')$(grep -c '^secret-sha256: [0-9a-f]\{64\}$' "$v/challenge")" \
	"challenge credential ek-cert.der 1"
run enrolled --enrolled "$v"
expect "while the challenge is pending, nothing is trusted (enrolled: exit 3)" 3 \
	'a credential challenge is pending'
activate_on A "$v/credential" "$tmp/A/m/secret" ||
	tap_fail "the machine's TPM activates the credential made for its EK and AK" "tpm2_activatecredential failed"
run activate --out "$v" --secret "$tmp/A/m/secret"
expect "step 2: the secret the TPM released: the AK is trusted" 0 \
	'^enrollment: PASS \(EK certified, AK bound by credential activation\)$'
run enrolled --enrolled "$v" --boot machine-a
expect "ima-attest enrolled: trusted, by the rule verify and poll apply" 0 '^enrollment: trusted \(boot machine-a'
on A tpm2_readpublic -c "$tmp/A/m/ak.ctx" -f der -o "$tmp/A/m/ak-tpm.der" >/dev/null
on A tpm2_flushcontext -t
openssl pkey -pubin -in "$v/ak.pem" -outform DER -out "$tmp/ak-verifier.der"
tap_cmd "the enrolled AK (ak.pem) is the TPM's AK (tpm2_readpublic -f der)" \
	cmp "$tmp/ak-verifier.der" "$tmp/A/m/ak-tpm.der"
# the AK in use: the firmware's measurements in PCRs 0-7, a quote for a
# fresh nonce, verified with the enrolled AK against the firmware's log
while read -r ext; do on A tpm2_pcrextend "$ext"; done < <(python3 "$here/ima_list.py" evlog-extends "$evlog")
nonce=$(openssl rand -hex 20)
on A tpm2_quote -c "$tmp/A/m/ak.ctx" -l sha1:0,1,2,3,4,5,6,7,8,9+sha256:0,1,2,3,4,5,6,7,8,9 \
	-q "$nonce" -g sha256 -m "$tmp/q.msg" -s "$tmp/q.sig" -o "$tmp/q.pcrs" -F values >/dev/null
on A tpm2_flushcontext -t
run verify --enrolled "$v" --quote "$tmp/q.msg" --quote-sig "$tmp/q.sig" --quote-pcrs "$tmp/q.pcrs" \
	--nonce "$nonce" --eventlog "$evlog"
expect "its quote, verified with the AK enrolled this way, and its firmware log against it" 0 \
	'result: PASS'

# --- what must be refused
run activate --out "$v" --secret "$tmp/A/m/secret"
expect "the same secret again: the challenge answered once, none is pending (exit 2)" 2 \
	'no challenge pending in .*a challenge answers once'
w=$tmp/w
challenge "$w"
activate_on A "$w/credential" "$tmp/A/m/secret2" || true
python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[0] ^= 1; open(sys.argv[2], "wb").write(b)' \
	"$tmp/A/m/secret2" "$tmp/wrong"
run activate --out "$w" --secret "$tmp/wrong"
expect "a wrong secret (one bit of the released one flipped): refused" 1 \
	'activation answer does not match the secret of this challenge'
tap_is "the refused enrollment: its record says so, no AK kept, the challenge gone" \
	"$(sed -n 's/^ak-binding: //p; s/^result: //p' "$w/verdict" | tr '\n' ' ')$(cd "$w" && ls | tr '\n' ' ')" \
	"refused refused ek-cert.der verdict "
run activate --out "$w" --secret "$tmp/A/m/secret2"
expect "then the right secret: too late, the challenge answered once (exit 2)" 2 'no challenge pending'
# a software key (not in any TPM) with every AK attribute claimed, and A's
# genuine EK: the credential is made (nothing in the area tells), but A's
# TPM, holding no object of that name, does not activate it
python3 - "$tmp/soft.pub" <<'PY'
import struct, sys
from cryptography.hazmat.primitives.asymmetric import rsa
n = rsa.generate_private_key(public_exponent=65537, key_size=2048).public_key().public_numbers().n
# RSA, sha256 name, fixedTPM|fixedParent|sensitiveDataOrigin|userWithAuth|
# restricted|sign, no policy, no symmetric, RSASSA-sha256, 2048 bits
area = bytes.fromhex("0001000b00050072" "0000" "0010" "0014000b" "0800" "00000000" "0100") + n.to_bytes(256, "big")
open(sys.argv[1], "wb").write(struct.pack(">H", len(area)) + area)
PY
s=$tmp/s
AKPUB=$tmp/soft.pub challenge "$s"
expect "a software AK claiming every attribute: its area checks, the credential is made" 0 '^challenge: made'
rc=0
activate_on A "$s/credential" "$tmp/soft.secret" || rc=$?
tap_is "the machine's TPM refuses to activate it with its own AK (another name)" \
	"$([ "$rc" != 0 ] && echo refused || echo activated) $([ -s "$tmp/soft.secret" ] && echo secret || echo none)" \
	"refused none"
openssl rand 32 >"$tmp/guess"
run activate --out "$s" --secret "$tmp/guess"
expect "so the software AK's owner can only guess the secret: refused" 1 'does not match the secret'
# B's EK certificate, issued by another CA, with B's EK
EKCERT=$tmp/B/m/ek-cert.der EKPUB=$tmp/B/m/ek.pub challenge "$tmp/b"
expect "a TPM whose EK certificate another CA issued: refused, no credential made" 1 \
	'EK certificate does not chain to the manufacturer CA'
tap_is "the refused challenge left a record and no credential" "$(cd "$tmp/b" && ls | tr '\n' ' ')" \
	"ek-cert.der verdict "
# A's certificate with B's EK public area: not the certified key
EKPUB=$tmp/B/m/ek.pub challenge "$tmp/mix"
expect "A's EK certificate with B's EK public area: refused" 1 \
	'EK public key does not match its certificate'
# an AK name that is not the area's
printf '\x00\x0b%032d' 0 | head -c 34 >"$tmp/bad.name"
challenge "$tmp/n" --ak-name "$tmp/bad.name"
expect "an AK name that is not its area's: refused" 1 'AK name does not match its public area'
# inputs of the wrong kind, named, before anything is written
openssl pkey -pubin -in "$v/ak.pem" -out "$tmp/ak-pem.pub"
AKPUB=$tmp/ak-pem.pub challenge "$tmp/k"
expect "a PEM key given as --ak-pub: a usage error naming it" 2 \
	'--ak-pub .*a PEM file, not the TPM2B_PUBLIC that tpm2_createak -u writes'
tap_is "and nothing written" "$([ -e "$tmp/k" ] && echo written || echo none)" none
run challenge --ca /nonexistent --ek-cert x --ek-pub x --ak-pub x --out "$tmp/k"
expect "a CA file that is not there: named, exit 2" 2 '/nonexistent: No such file'
# the EK certificate in PEM, as some manufacturers publish it: the same
openssl x509 -inform DER -in "$tmp/A/m/ek-cert.der" -out "$tmp/ek-cert.pem"
EKCERT=$tmp/ek-cert.pem challenge "$tmp/p"
expect "the EK certificate as PEM: read as its DER, the credential made" 0 '^challenge: made'
tap_cmd "DIR/ek-cert.der is the certificate's DER" cmp "$tmp/p/ek-cert.der" "$tmp/A/m/ek-cert.der"

# --- a machine whose EK is ECC. swtpm certifies (NV 0x01c00016) a NIST
# P-384 EK of the TCG high range template H-3; tpm2_createek -G ecc makes
# the low range P-256 one, which swtpm does not certify. The owner's steps
# for it (README): the EK from its template, an AK with a sha256 name
# under it, the credential activated with the EK's empty authValue (H-3
# sets userWithAuth).
# ecc_ek NAME: the P-384 EK loaded, its context $tmp/NAME/e/ek.ctx
ecc_ek() {
	local e=$tmp/$1/e
	printf '%s' b26e7d28d11a50bc53d882bcf5fd3a1a074148bb35d3b4e4cb1c0ad9bde419ca \
		cb47ba09699646150f9fc000f3f80e12 | xxd -r -p >"$e/policy-b.bin"
	on "$1" tpm2_createprimary -C e -g sha384 -G ecc384:aes256cfb -L "$e/policy-b.bin" \
		-a 'fixedtpm|fixedparent|sensitivedataorigin|userwithauth|adminwithpolicy|restricted|decrypt' \
		-c "$e/ek.ctx" >/dev/null
}
# ecc_machine NAME: the owner's step 1 on NAME's ECC EK, in $tmp/NAME/e
ecc_machine() {
	local e=$tmp/$1/e
	mkdir -p "$e"
	ecc_ek "$1"
	on "$1" tpm2_readpublic -c "$e/ek.ctx" -o "$e/ek.pub" >/dev/null
	on "$1" tpm2_flushcontext -t
	on "$1" tpm2_create -C "$e/ek.ctx" -g sha256 -G rsa2048:rsassa-sha256:null \
		-a 'fixedtpm|fixedparent|sensitivedataorigin|userwithauth|restricted|sign' \
		-u "$e/ak.pub" -r "$e/ak.priv" >/dev/null
	on "$1" tpm2_flushcontext -t
	ecc_ek "$1"
	on "$1" tpm2_load -C "$e/ek.ctx" -u "$e/ak.pub" -r "$e/ak.priv" -c "$e/ak.ctx" \
		-n "$e/ak.name" >/dev/null
	on "$1" tpm2_flushcontext -t
	on "$1" tpm2_nvread 0x01c00016 -o "$e/ek-cert.der" 2>/dev/null
}
# ecc_activate NAME CRED SECRET: the owner's step 2 on NAME's ECC EK; its
# exit code
ecc_activate() {
	local e=$tmp/$1/e rc=0
	ecc_ek "$1"
	on "$1" tpm2_activatecredential -c "$e/ak.ctx" -C "$e/ek.ctx" -i "$2" -o "$3" \
		>/dev/null 2>&1 || rc=$?
	on "$1" tpm2_flushcontext -t
	return "$rc"
}
ecc_machine A
ecc_machine B
tap_is "swtpm's ECC EK certificate: NIST P-384, keyAgreement (the EK tpm2_createprimary made is its key)" \
	"$(openssl x509 -inform DER -in "$tmp/A/e/ek-cert.der" -noout -text |
		grep -oE 'NIST CURVE: P-384|Key Agreement' | tr '\n' ' ')" "NIST CURVE: P-384 Key Agreement "
EKCERT=$tmp/A/e/ek-cert.der EKPUB=$tmp/A/e/ek.pub AKPUB=$tmp/A/e/ak.pub \
	challenge "$tmp/ecc" --ak-name "$tmp/A/e/ak.name"
expect "a machine whose EK is ECC (P-384, template H-3): the credential is made" 0 '^challenge: made'
rc=0
ecc_activate A "$tmp/ecc/credential" "$tmp/A/e/secret" || rc=$?
tap_is "the machine's TPM activates it on its ECC EK (tpm2_activatecredential)" "$rc" 0
run activate --out "$tmp/ecc" --secret "$tmp/A/e/secret"
expect "ima-attest activate accepts the secret the ECC EK released: the AK is trusted" 0 \
	'^enrollment: PASS \(EK certified, AK bound by credential activation\)$'
# forged: B's ECC EK, certified by B's CA, with A's AK: the credential is
# made for B's key, so A's TPM cannot open it (another Z, another seed)
CA=$tmp/B/ca/swtpm-localca-rootca-cert.pem CHAIN=$tmp/B/chain.pem EKCERT=$tmp/B/e/ek-cert.der \
	EKPUB=$tmp/B/e/ek.pub AKPUB=$tmp/A/e/ak.pub challenge "$tmp/eccb"
expect "a credential made for another TPM's ECC EK (B's, by B's CA): made" 0 '^challenge: made'
rc=0
ecc_activate A "$tmp/eccb/credential" "$tmp/A/e/secret-b" || rc=$?
tap_is "... and A's TPM does not activate it with its ECC EK" \
	"$([ "$rc" != 0 ] && echo refused || echo activated) $([ -s "$tmp/A/e/secret-b" ] && echo secret || echo none)" \
	"refused none"
# the low range P-256 EK tpm2_createek -G ecc makes, with the P-384
# certificate: not the certified key
l=$tmp/A/l
mkdir -p "$l"
on A tpm2_createek -c "$l/ek.ctx" -G ecc -u "$l/ek.pub" >/dev/null
on A tpm2_flushcontext -t
on A tpm2_readpublic -c "$l/ek.ctx" -f pem -o "$l/ek.pem" >/dev/null
on A tpm2_flushcontext -t
EKCERT=$tmp/A/e/ek-cert.der EKPUB=$l/ek.pub AKPUB=$tmp/A/e/ak.pub challenge "$tmp/ecc256"
expect "tpm2_createek -G ecc's P-256 EK with the P-384 certificate: refused" 1 \
	'EK public key does not match its certificate'
# that P-256 EK certified by a CA made here (swtpm certifies none), as a
# manufacturer would (EKU tcg-kp-EKCertificate, keyAgreement): the low
# range template's sha256 and AES-128 against the TPM, with
# tpm2_createak and the policy session of the RSA steps
python3 - "$l/ek.pem" "$l/ca.pem" "$l/ek-cert.der" <<'PY'
import datetime, sys
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID, ObjectIdentifier
ek = serialization.load_pem_public_key(open(sys.argv[1], "rb").read())
ca = ec.generate_private_key(ec.SECP384R1())
now = datetime.datetime.now(datetime.timezone.utc)
name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "ima-stack test P-256 EK CA")])
def cert(subject, key, is_ca, usage):
    b = (x509.CertificateBuilder().subject_name(subject).issuer_name(name)
         .public_key(key).serial_number(x509.random_serial_number())
         .not_valid_before(now - datetime.timedelta(hours=1))
         .not_valid_after(now + datetime.timedelta(days=1))
         .add_extension(x509.BasicConstraints(ca=is_ca, path_length=None), critical=True)
         .add_extension(usage, critical=True))
    if not is_ca:
        b = b.add_extension(x509.ExtendedKeyUsage([ObjectIdentifier("2.23.133.8.1")]), critical=False)
    return b.sign(ca, hashes.SHA256())
ku = dict(digital_signature=False, content_commitment=False, key_encipherment=False,
          data_encipherment=False, encipher_only=False, decipher_only=False)
root = cert(name, ca.public_key(), True, x509.KeyUsage(key_agreement=False, key_cert_sign=True, crl_sign=True, **ku))
leaf = cert(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "EK")]), ek, False,
            x509.KeyUsage(key_agreement=True, key_cert_sign=False, crl_sign=False, **ku))
open(sys.argv[2], "wb").write(root.public_bytes(serialization.Encoding.PEM))
open(sys.argv[3], "wb").write(leaf.public_bytes(serialization.Encoding.DER))
PY
on A tpm2_createek -c "$l/ek.ctx" -G ecc >/dev/null
on A tpm2_createak -C "$l/ek.ctx" -c "$l/ak.ctx" -G rsa -g sha256 -s rsassa -u "$l/ak.pub" -n "$l/ak.name" >/dev/null
on A tpm2_flushcontext -t
CA=$l/ca.pem CHAIN=$l/ca.pem EKCERT=$l/ek-cert.der EKPUB=$l/ek.pub AKPUB=$l/ak.pub \
	challenge "$tmp/ecc256ok" --ak-name "$l/ak.name"
expect "a machine whose EK is ECC P-256 (the low range template): the credential is made" 0 '^challenge: made'
rc=0
on A tpm2_createek -c "$l/ek.ctx" -G ecc >/dev/null
on A tpm2_startauthsession --policy-session -S "$l/session.ctx" >/dev/null &&
	on A tpm2_policysecret -S "$l/session.ctx" -c e >/dev/null &&
	on A tpm2_activatecredential -c "$l/ak.ctx" -C "$l/ek.ctx" -i "$tmp/ecc256ok/credential" \
		-o "$l/secret" -P "session:$l/session.ctx" >/dev/null 2>&1 || rc=$?
on A tpm2_flushcontext "$l/session.ctx" >/dev/null 2>&1 || true
on A tpm2_flushcontext -t
tap_is "the machine's TPM activates it on its P-256 EK" "$rc" 0
run activate --out "$tmp/ecc256ok" --secret "$l/secret"
expect "ima-attest activate accepts the secret the P-256 EK released: the AK is trusted" 0 \
	'^enrollment: PASS \(EK certified, AK bound by credential activation\)$'

# --- JSON: one object, the verdict's fields, for a made challenge and a
# trusted and a refused enrollment
EKCERT=$tmp/ek-cert.pem "$attest" challenge --json --ca "$caA" --ca-chain "$tmp/A/chain.pem" \
	--out "$tmp/j" --ek-cert "$tmp/ek-cert.pem" --ek-pub "$tmp/A/m/ek.pub" \
	--ak-pub "$tmp/A/m/ak.pub" >"$tmp/j1.json" 2>"$tmp/j1.err" && rc=0 || rc=$?
activate_on A "$tmp/j/credential" "$tmp/j.secret" || true
"$attest" activate --json --out "$tmp/j" --secret "$tmp/j.secret" >"$tmp/j2.json" 2>>"$tmp/j1.err" || true
"$attest" enrolled --json --enrolled "$w" >"$tmp/j3.json" 2>>"$tmp/j1.err" || true
tap_is "--json: challenge, activate, enrolled (refused): one object each, what was proven named, nothing on stderr" \
	"$(python3 - "$tmp"/j1.json "$tmp"/j2.json "$tmp"/j3.json <<'PY'
import json, sys
out = []
for p in sys.argv[1:]:
    text = open(p).read()
    d = json.loads(text)
    e = d["enrollment"]
    out.append("%d:%s:%s:%s:%s:%s:%s" % (text.count("\n"), d["command"], d["exit_code"],
               e["tpm_identity"], e["ak_binding"], e["trusted"],
               ",".join(sorted(set(f["class"] for f in d["failures"])))))
print(" ".join(out))
PY
) $rc $(wc -c <"$tmp/j1.err")" \
	"1:challenge:0:proven:not-proven:False: 1:activate:0:proven:proven:True: 1:enrolled:1:proven:refused:False:enrollment 0 0"

# --- the command line, for people who did not write it
for c in enroll challenge activate enrolled verify poll request eventlog; do
	rc=0
	h=$("$attest" "$c" --help 2>&1) || rc=$?
	tap_like "ima-attest $c --help: exit 0, its usage, options and exit status" \
		"$rc $(head -n 1 <<<"$h") $(grep -c '^  --' <<<"$h") $(grep -c '^Exit status' <<<"$h")" \
		"^0 Usage: ima-attest $c .* [1-9][0-9]* 1\$"
done
run --help
expect "ima-attest --help: every command listed" 0 'eventlog +replay a firmware event log'
run --version
expect "ima-attest --version" 0 '^ima-attest [0-9]+\.[0-9]+\.[0-9]+'
run enroled --enrolled "$v"
expect "an unknown command: named, the nearest suggested (exit 2)" 2 \
	"unknown command 'enroled': did you mean 'enrolled'\?"
run verify --enrolled "$v" --quote "$tmp/q.msg" --quote-sig "$tmp/q.sig"
expect "options missing: each named with its argument (exit 2)" 2 \
	'missing --quote-pcrs VALUES, --nonce HEX, --eventlog LOG'
run poll --sate x
expect "a mistyped option: named, the nearest suggested (exit 2)" 2 \
	"unknown option '--sate': did you mean --state\?"
run enrolled --enrolled
expect "an option without its argument: 'requires an argument', nothing else" 2 \
	'^ima-attest enrolled: option --enrolled requires an argument \(DIR\)'
tap_is "... and only that: one line" "$(wc -l <<<"$out")" 1
run verify --enrolled "$v" --json=yes
expect "a flag given a value: named (exit 2)" 2 'option --json takes no argument'
run enroll --channel x --ca "$caA" --out "$tmp/t" --timeout soon
expect "a timeout that is no number: named (exit 2)" 2 "--timeout: a whole number of seconds, 1 or more \(not 'soon'\)"
# a usage error under --json: the object, with the error and the inputs
rc=0
"$attest" verify --json --enrolled "$v" --nonce 00 >"$tmp/e.json" 2>"$tmp/e.err" || rc=$?
tap_is "a usage error under --json: one object (error named, inputs given, result error), exit 2, nothing on stderr" \
	"$(python3 - "$tmp/e.json" <<'PY'
import json, sys
text = open(sys.argv[1]).read()
d = json.loads(text)
print(text.count("\n"), d["tool"], d["command"], d["result"], d["exit_code"],
      d["inputs"]["nonce"], "--quote MSG" in d["error"], bool(d["version"]))
PY
) $rc $(wc -c <"$tmp/e.err")" "1 ima-attest verify error 2 00 True True 2 0"
tap_done
