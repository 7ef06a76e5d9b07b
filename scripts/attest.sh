#!/usr/bin/env bash
# Stage attest: what a remote verifier proves about one guest run, in order:
# the TPM's identity and the AK's binding to it (the host verifier's
# enrollment during the boot), the quote with that AK, the firmware's event
# log against the quoted PCRs 0-9, and the measurement list against the
# quoted PCR 10; then copies tampered with, each refused for its named
# reason. Prints TAP.
# Usage:   attest.sh RESULTS_DIR NONCE
# Inputs:  RESULTS_DIR/verifier/ from boot.sh's host verifier (ima-attest
#          enroll: verdict, the enrolled ak.pem, ek-cert.der) -- the host's
#          own record, never the guest's; RESULTS_DIR/attest/ from
#          tests/guest/90-attest.sh (quote.msg, quote.sig, quote.pcrs,
#          pcr-list, binary_runtime_measurements, binary_bios_measurements;
#          its ak.pem is the guest's claim and is only compared);
#          NONCE, the hex nonce this host chose for the run (IMA_STACK_NONCE);
#          build/keys/tpm-ca.pem, tpm-ca-chain.pem (the TPM manufacturer);
#          tools/ima-audit and tools/ima-attest (built here if needed);
#          tpm2_checkquote and tpm2_eventlog as independent cross-checks.
# The verdicts are ima-attest's (enrollment, firmware log) and ima-audit's
# (quote, list), both with the AK the host enrolled.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib/tap.sh"
need openssl openssl
need python3 python3
export OPENSSL_CONF=$TOP/keys/openssl-neutral.cnf

res=$(cd "${1:?usage: attest.sh RESULTS_DIR NONCE}" && pwd)
nonce=${2:?usage: attest.sh RESULTS_DIR NONCE}
a=$res/attest
v=$res/verifier
for f in quote.msg quote.sig quote.pcrs pcr-list ak.pem binary_runtime_measurements; do
	[ -s "$a/$f" ] || tap_bail "no $a/$f: boot with IMA_STACK_TESTS=90-attest IMA_STACK_NONCE=<hex>"
done
ima_audit=${IMA_AUDIT:-$TOP/tools/ima-audit/build/ima-audit}
if [ -z "${IMA_AUDIT:-}" ]; then
	make -s -C "$TOP/tools/ima-audit" >&2 || tap_bail "cannot build ima-audit"
fi
ima_attest=${IMA_ATTEST:-$TOP/tools/ima-attest/build/ima-attest}
if [ -z "${IMA_ATTEST:-}" ]; then
	make -s -C "$TOP/tools/ima-attest" >&2 || tap_bail "cannot build ima-attest"
fi
tpmca=$BUILD/keys/tpm-ca.pem
tpmchain=$BUILD/keys/tpm-ca-chain.pem

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The AK every quote is checked with: the one the host enrolled, when the
# enrollment is trusted; otherwise nothing the guest signed can be trusted.
# Whether it is, is ima-attest's one rule (ima-attest enrolled: the record
# read field by field, the AK files checked against what it names), the
# same verify and poll apply.
enrolled_ak=$v/ak.pem
enrolled=0
erc=0
enrolled_out=$("$ima_attest" enrolled --enrolled "$v" 2>&1) || erc=$?
[ "$erc" = 0 ] && enrolled=1
# proof STEP: what the record says of tpm-identity or ak-binding
proof() { sed -n "s/^$1: \([a-z ]*[a-z]\).*/\1/p" <<<"$enrolled_out" | head -n 1; }

# audit DIR [OPTIONS...]: ima-audit on the attestation files in DIR (files
# missing there come from the guest's), with the enrolled AK unless DIR has
# its own trusted-ak.pem; sets $rc and $out
audit() {
	local d=$1 f ak
	shift
	for f in quote.msg quote.sig quote.pcrs binary_runtime_measurements; do
		[ -e "$d/$f" ] || cp "$a/$f" "$d/$f"
	done
	ak=$enrolled_ak
	[ -e "$d/trusted-ak.pem" ] && ak=$d/trusted-ak.pem
	rc=0
	out=$("$ima_audit" --quote "$d/quote.msg" --quote-sig "$d/quote.sig" \
		--ak-pub "$ak" --quote-pcrs "$d/quote.pcrs" \
		--nonce "$nonce" "$@" "$d/binary_runtime_measurements" 2>&1) || rc=$?
}

# verify DIR: ima-attest verify (enrolled AK, quote, firmware log,
# boot_aggregate) on the files in DIR (missing ones from the guest's; the
# enrollment record from DIR/verifier when there); sets $rc and $out
verify() {
	local d=$1 f
	for f in quote.msg quote.sig quote.pcrs binary_runtime_measurements binary_bios_measurements; do
		[ -e "$d/$f" ] || [ -e "$d/$f.none" ] || cp "$a/$f" "$d/$f" 2>/dev/null || true
	done
	[ -e "$d/verifier" ] || cp -r "$v" "$d/verifier"
	rc=0
	out=$("$ima_attest" verify --enrolled "$d/verifier" --quote "$d/quote.msg" \
		--quote-sig "$d/quote.sig" --quote-pcrs "$d/quote.pcrs" --nonce "$nonce" \
		--eventlog "$d/binary_bios_measurements" \
		--list "$d/binary_runtime_measurements" 2>&1) || rc=$?
}

# expect NAME RC REASON: the last audit exited RC and printed REASON (an
# extended regular expression)
expect() {
	if [ "$rc" = "$2" ] && grep -qE -- "$3" <<<"$out"; then
		tap_ok "$1 (exit $2: $(grep -m1 -oE -- "$3" <<<"$out" | tr -s " "))"
	else
		tap_fail "$1" "exit $rc, want $2 and /$3/; output:" "$out"
	fi
}

# case_dir NAME: a fresh directory for one tampered copy
case_dir() {
	mkdir -p "$tmp/$1"
	echo "$tmp/$1"
}

# tamper MODE IN OUT [ARG]: an attacker's edit of the guest's files
# (tools/ima-audit/gen/tamper.py, over the generator's list parser)
tamper() {
	python3 "$TOP/tools/ima-audit/gen/tamper.py" "$@"
}

# --- 1. the TPM's identity and the AK's binding (the host verifier's record)
if [ "$erc" != 3 ]; then
	tap_is "TPM identity: the EK certificate (NV 0x01c00002) chains to the manufacturer CA, certifies an EK and is the EK's key (host verifier)" \
		"$(proof tpm-identity)" proven
	tap_is "AK binding: restricted TPM signing key, name recomputed, credential activated by that EK's TPM (host verifier)" \
		"$(proof ak-binding)" proven
	tap_is "the enrollment record checks field by field (ima-attest enrolled: the AK files are the AK it names)" \
		"$erc" 0
	grep -E '^(recorded )?reason: ' <<<"$enrolled_out" | sed 's/^/# /' || true
else
	tap_fail "TPM identity and AK binding" "no enrollment record in $v (the host verifier did not run: boot with IMA_STACK_ATTEST=1):" \
		"$enrolled_out"
fi
tap_cmd "the EK certificate verifies with openssl against the manufacturer CA (cross-check)" \
	openssl verify -CAfile "$tpmca" -untrusted "$tpmchain" <(openssl x509 -inform der -in "$v/ek-cert.der")
# keyhash PEM: sha256 of the public key's DER, or "unreadable PEM"
keyhash() { openssl pkey -pubin -in "$1" -outform DER 2>/dev/null | sha256sum | cut -d' ' -f1 | grep -v "^$(sha256sum </dev/null | cut -d' ' -f1)\$" || echo "unreadable $1"; }
tap_is "the AK the guest quoted with (its attest/ak.pem) is the enrolled AK" \
	"$(keyhash "$a/ak.pem")" "$(keyhash "$enrolled_ak")"
[ "$enrolled" = 1 ] || tap_bail "no AK enrolled: no quote of this guest can be trusted (see above)"

# --- 2. the firmware's event log against the quoted PCRs 0-9
verify "$(case_dir fw-good)"
expect "firmware event log: replays in both banks to the quoted PCRs 0-9" 0 \
	'firmware event log replays to the quoted PCRs 0-9: PASS'
expect "boot_aggregate derived from the replayed PCRs 0-9 is the list's first entry" 0 \
	"boot_aggregate: matches the list's first entry"
if command -v tpm2_eventlog >/dev/null; then
	# tpm2_eventlog's own replay ("pcrs:" section) against ours
	theirs=$(tpm2_eventlog "$a/binary_bios_measurements" 2>/dev/null | awk '
		/^pcrs:/ {p = 1; next}
		p && /^  [a-z0-9]+:$/ {bank = $1; sub(":", "", bank); next}
		p && /^    [0-9]+ *:/ {v = $NF; sub("^0x", "", v); print bank ":" $1 " " tolower(v)}')
	tap_is "tpm2_eventlog replays the firmware log to the same PCR values (cross-check)" \
		"$("$ima_attest" eventlog "$a/binary_bios_measurements" | sort)" "$(sort <<<"$theirs")"
else
	tap_skip "tpm2_eventlog cross-check" "tpm2_eventlog not installed (package tpm2-tools)"
fi
# evlog_case NAME MODE REASON: the log edited by MODE must be refused
evlog_case() {
	local d
	d=$(case_dir "fw-$1")
	python3 "$TOP/tests/host/attest/evlog_tamper.py" "$2" "$a/binary_bios_measurements" \
		"$d/binary_bios_measurements" 2>"$d/which"
	verify "$d"
	expect "firmware log with $1 ($(<"$d/which")) is refused" 1 "$3"
}
evlog_case "the last extend's sha256 digest altered" flip-digest \
	'PCR 7 sha256: the event log replays to'
evlog_case "the last extend removed" remove 'PCR 7 sha(1|256): the event log replays to'
evlog_case "its last event truncated" truncate 'firmware event log does not parse: event [0-9]+ truncated'
evlog_case "a wrong digest size in the Spec ID" spec-banks \
	'does not parse: Spec ID gives algorithm 0x0004 a digest size of 32'
evlog_case "an event size past the end" size-huge 'event size 4294967295 beyond the end'
d=$(case_dir fw-missing)
touch "$d/binary_bios_measurements.none"
verify "$d"
expect "no firmware event log: refused" 1 'firmware event log .*binary_bios_measurements: No such file'
d=$(case_dir fw-aggregate)
# the first entry (the boot_aggregate) with a byte of its digest changed
# (ima_list.py alter: its template hash follows, the list stays whole)
python3 "$TOP/tests/host/attest/ima_list.py" alter "$a/binary_runtime_measurements" 0 \
	"$d/binary_runtime_measurements"
verify "$d"
expect "a list whose boot_aggregate is not the one of the replayed firmware PCRs: refused" 1 \
	"boot_aggregate of the list is not the one derived from the firmware log"

# --- 3. the genuine quote and list
audit "$(case_dir good)"
expect "genuine quote, fresh nonce: quote verified, list replays to the quoted PCR 10" \
	0 'result: +PASS'
expect "boot_aggregate matches the quoted PCRs 0-9" 0 'boot_aggregate: match'
expect "every entry of the list is covered by the quoted PCR 10 (sha256)" \
	0 'PCR 10 sha256 +[0-9]+ measurements, match \(all covered\)'

# --- cross-check with tpm2-tools, independently of ima-audit: signature and
#     nonce with tpm2_checkquote; its PCR file check (-f values -l) fails for
#     8 or more PCRs (tpm2-tools issue #3542), so the pcrDigest (last 32
#     bytes of TPMS_ATTEST, sha256) is compared with openssl
if command -v tpm2_checkquote >/dev/null; then
	tap_cmd "tpm2_checkquote: signature by the enrolled AK and nonce (cross-check)" \
		tpm2_checkquote -u "$enrolled_ak" -m "$a/quote.msg" -s "$a/quote.sig" \
		-q "$nonce" -g sha256
else
	tap_skip "tpm2_checkquote cross-check" "tpm2_checkquote not installed (package tpm2-tools)"
fi
tap_is "pcrDigest = sha256 of the quoted PCR values (openssl cross-check)" \
	"$(tail -c 32 "$a/quote.msg" | od -An -tx1 | tr -d ' \n')" \
	"$(openssl dgst -sha256 -r "$a/quote.pcrs" | cut -d' ' -f1)"

# --- replay: the genuine quote, presented for a nonce the verifier did not
#     choose (an earlier round's quote answering this round's challenge)
d=$(case_dir replay)
nonce_real=$nonce
nonce=$(openssl rand -hex 20)
audit "$d"
expect "quote for another nonce (replayed) is refused" 1 'does not match the nonce'
nonce=$nonce_real

# --- another key. The signature proves only "made by the key in --ak-pub";
#     the verifier's --ak-pub is the AK it enrolled.
#     (a) The attacker has no access to the AK: they take this quote, put
#     the verifier's fresh nonce in it and sign it with their own key. The
#     verifier checks against the AK it trusts: refused.
d=$(case_dir forged)
fresh=$(openssl rand -hex 20)
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$d/attacker.key" 2>/dev/null
openssl pkey -in "$d/attacker.key" -pubout -out "$d/attacker.pem"
tamper set-nonce "$a/quote.msg" "$d/quote.msg" "$fresh"
openssl dgst -sha256 -sign "$d/attacker.key" -out "$d/quote.sig" "$d/quote.msg"
nonce=$fresh
audit "$d"
expect "quote carrying the fresh nonce, signed by another key (not the AK), is refused" \
	1 'does not verify with the AK public key'
#     (b) The same forgery, with the guest handing over the attacker's key
#     as its AK (attest/ak.pem): the verifier does not take the AK from the
#     guest's results, only from its enrollment, so it is refused. (The
#     attacker's key cannot be enrolled either: it is not in a TPM whose EK
#     the manufacturer certified, so credential activation fails -- the
#     ak-software case of tests/host/attest-enroll.sh.)
cp "$d/attacker.pem" "$d/ak.pem"
verify "$d"
expect "the same forgery, the guest handing over the attacker's key as the AK: refused (only the enrolled AK counts)" \
	1 'quote: .*does not verify with the AK public key'
#     (c') and without a trusted enrollment, no quote counts at all: a
#     verdict written by hand (the two PASS lines of the format before
#     enrollment records) beside the forger's key is no record
cp -r "$d" "$tmp/forged-refused"
d=$tmp/forged-refused
rm -rf "$d/verifier" && mkdir -m 0700 "$d/verifier"
printf 'PASS TPM identity: ...\nPASS AK binding: ...\n' >"$d/verifier/verdict"
cp "$d/attacker.pem" "$d/verifier/ak.pem"
verify "$d"
expect "the forger's key beside a hand-written PASS verdict: no AK enrolled, no quote is trusted" \
	1 'no AK enrolled in .* \(enrollment refused or not run'

nonce=$nonce_real
#     (c) The genuine quote, checked against another TPM's AK
d=$(case_dir other-ak)
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 2>/dev/null |
	openssl pkey -pubout -out "$d/trusted-ak.pem"
audit "$d"
expect "genuine quote checked against a different AK public key is refused" \
	1 'does not verify with the AK public key'

# --- the measurement list
# list_case NAME MODE WHAT NOTE REASON: a list tampered with by MODE must
# fail with REASON; DESCRIPTION names the entry the tamper helper chose
list_case() {
	local d
	d=$(case_dir "$1")
	tamper "$2" "$a/binary_runtime_measurements" "$d/binary_runtime_measurements" 2>"$d/which"
	audit "$d"
	expect "list with one entry $3 ($(<"$d/which")$4) is refused" 1 "$5"
}
list_case altered alter altered ", template hash recomputed" \
	'PCR 10 sha(1|256) matches no prefix of the log'
list_case altered-naive alter-naive altered ", template hash left" \
	'template hash mismatch'
list_case removed remove removed "" 'PCR 10 sha(1|256) matches no prefix of the log'
d=$(case_dir appended)
tamper append "$a/binary_runtime_measurements" "$d/binary_runtime_measurements" 2>/dev/null
audit "$d"
expect "list with an entry appended after the quote: flagged, verdict FAIL" \
	1 'entries [0-9]+\.\.[0-9]+ not covered by the quote'
audit "$d" --allow-uncovered
expect "the same with --allow-uncovered: the quoted prefix passes, the entry is reported as not covered" \
	0 'entries [0-9]+\.\.[0-9]+ not covered'

# --- the quoted PCR values
d=$(case_dir pcrs)
tamper flip-last "$a/quote.pcrs" "$d/quote.pcrs"
audit "$d"
expect "PCR values file with sha256 PCR 10 altered is refused" \
	1 'PCR values do not match the quoted pcrDigest'
d=$(case_dir pcrs-digest)
tamper flip-last "$a/quote.pcrs" "$d/quote.pcrs"
tamper set-digest "$a/quote.msg" "$d/quote.msg" "$d/quote.pcrs"
audit "$d"
expect "altered PCR values with pcrDigest recomputed in the quote: signature refused" \
	1 'does not verify with the AK public key'

tap_done
