#!/usr/bin/env bash
# Host test: incremental verification (ima-attest poll) round by round,
# against a loopback swtpm (unix socket, no kernel) that plays a running
# guest: it is certified by a throwaway manufacturer CA and enrolled through
# the real agent (ima-attest enroll), its PCRs 0-7 are extended with a real
# SeaBIOS log's digests and PCR 10 with a real guest list's entries
# (tests/host/attest/data/guest.ima, signed by data/ima.der) as the rounds
# go, and each round is quoted with the enrolled AK for a fresh nonce.
# Genuine rounds must pass from the saved state; each attack round must be
# refused with its reason and leave the state where it was.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/host/lib/host.sh"
need_installed swtpm swtpm_setup swtpm_ioctl swtpm_localca tpm2_quote python3
. "$TOP/tests/host/attest/setup.sh"
agent=$TOP/rootfs/overlay/opt/ima-stack/attest-agent
here=$TOP/tests/host/attest
list=$here/data/guest.ima
key=$here/data/ima.der
evlog=$TOP/tools/ima-attest/tests/data/seabios-q35.evlog

# the guest's TPM, certified by its manufacturer
tpm tpm
d=$tmp/tpm
export TPM2TOOLS_TCTI=swtpm:path=$d/tpm.sock

# enrollment, as in a boot (the agent behind a relay that changes nothing)
TPM2TOOLS_TCTI=$TPM2TOOLS_TCTI python3 "$here/mitm.py" "$tmp/ch.sock" none "$tmp" -- \
	"$agent" - "$tmp/agent" 2>"$tmp/agent.err" &
mp=$!
"$attest" enroll --channel "$tmp/ch.sock" --ca "$d/ca/swtpm-localca-rootca-cert.pem" \
	--ca-chain "$d/ca/issuercert.pem" --out "$tmp/enrolled" --timeout 60 >"$tmp/enroll.out" 2>&1 ||
	tap_bail "enrollment failed: $(cat "$tmp/enroll.out")"
wait "$mp" || true
# the AK survives a TPM reset only when persistent (the reboot round): the
# agent made the trusted AK persistent before it recorded the enrollment
tpm2_flushcontext -t
ak=$(cat "$tmp/agent/ak.handle" 2>/dev/null || echo none)
tpm2_readpublic -c "$ak" -n "$tmp/persistent.name" >/dev/null 2>&1 || : >"$tmp/persistent.name"
tap_is "the agent made the enrolled AK persistent (0x81000010, the same TPM name)" \
	"$ak $(od -An -v -tx1 "$tmp/persistent.name" | tr -d ' \n')" \
	"0x81000010 $(od -An -v -tx1 "$tmp/agent/ak.name" | tr -d ' \n')"

# the firmware's measurements into PCRs 0-7
while read -r ext; do tpm2_pcrextend "$ext"; done < <(python3 "$here/ima_list.py" evlog-extends "$evlog")
mapfile -t ent < <(python3 "$here/ima_list.py" entries "$list")
[ "${#ent[@]}" -ge 90 ] || tap_bail "the fixture list has ${#ent[@]} entries, the rounds need 90"

extended=0
# extend_to N: PCR 10 extended with entries up to N (exclusive), in order
extend_to() {
	local h1 h2
	while [ "$extended" -lt "$1" ]; do
		read -r _ _ h1 h2 <<<"${ent[$extended]}"
		tpm2_pcrextend "10:sha1=$h1,sha256=$h2"
		extended=$((extended + 1))
	done
}
start_of() { read -r s _ <<<"${ent[$1]}"; echo "$s"; }
end_of() { local x; read -r _ x _ <<<"${ent[$(($1 - 1))]}"; echo "$x"; }

# quote DIR: a fresh nonce and a quote of PCRs 0-10, both banks, in DIR
quote() {
	mkdir -p "$1"
	openssl rand -hex 20 >"$1/nonce"
	tpm2_quote -c "$ak" -l sha1:0,1,2,3,4,5,6,7,8,9,10+sha256:0,1,2,3,4,5,6,7,8,9,10 \
		-q "$(cat "$1/nonce")" -g sha256 -m "$1/quote.msg" -s "$1/quote.sig" \
		-o "$1/quote.pcrs" -F values >/dev/null
}
# chunk DIR FROM TO: the list's bytes FROM..TO as the guest's answer
chunk() { slice "$list" "$2" "$3" >"$1/entries"; }
# slice FILE FROM TO: bytes FROM..TO of FILE
slice() { dd if="$1" iflag=skip_bytes,count_bytes bs=64K skip="$2" count=$(($3 - $2)) status=none; }
# poll DIR OFFSET [NONCE]: one round; sets $rc and $out. Every round is
# recorded (--record, named after DIR), as make attest does; $tmp/polls
# lists each round's name and exit code, in order, for the check of the
# record at the end
poll() {
	rc=0
	out=$("$attest" poll --state "$tmp/state" --enrolled "$tmp/enrolled" --key "$key" \
		--record "$tmp/rounds.jsonl" --round "$(basename "$1")" \
		--quote "$1/quote.msg" --quote-sig "$1/quote.sig" --quote-pcrs "$1/quote.pcrs" \
		--nonce "${3:-$(cat "$1/nonce")}" --entries "$1/entries" --offset "$2" 2>&1) || rc=$?
	echo "$(basename "$1") $rc" >>"$tmp/polls"
}
expect() {
	if [ "$rc" = "$2" ] && grep -qE -- "$3" <<<"$out"; then
		tap_ok "$1 (exit $2: $(grep -m1 -oE -- "$3" <<<"$out"))"
	else
		tap_fail "$1" "exit $rc, want $2 and /$3/; output:" "$out"
	fi
}
state_is() { tap_is "$1" "$(sed -n 's/^next //p' "$tmp/state")" "$2 $(start_of "$2")"; }
# extend_record FILE: PCR 10 extended with the one record in FILE, as the
# guest's kernel would when it measured it
extend_record() {
	local h1 h2
	read -r h1 h2 < <(python3 "$here/ima_list.py" entries "$1" | cut -d' ' -f3,4)
	tpm2_pcrextend "10:sha1=$h1,sha256=$h2"
}
# renamed DIR FROM FILE NAME: round FROM's quote and nonce in DIR, with
# FILE's records under template NAME as the guest's answer
renamed() {
	mkdir -p "$1"
	cp "$2"/quote.* "$2/nonce" "$1/"
	python3 "$here/ima_list.py" rename "$3" "$4" "$1/entries"
}

# a machine whose IMA measured nothing: PCR 10 still zero, no entry sent.
# A running IMA extends boot_aggregate before any process starts, so a
# quote from user space that covers no entry must be refused (before, this
# round passed with 0 entries and so would every later one)
quote "$tmp/a-empty"
: >"$tmp/a-empty/entries"
poll "$tmp/a-empty" 0
expect "a first round whose quoted PCR 10 is zero, no entry (IMA measured nothing): refused" 1 \
	'the quoted PCR 10 covers no entry'
tap_is "the refused first round wrote no state" "$([ -e "$tmp/state" ] && echo state || echo none)" none
rm -f "$tmp/state"

# round 1: entries 0-39 quoted; the guest sends 45 (5 made after the quote)
extend_to 40
quote "$tmp/r1"
chunk "$tmp/r1" 0 "$(end_of 45)"
poll "$tmp/r1" 0
expect "round 1: 40 entries verified from an empty state (boot_aggregate, signatures, PCR 10), 5 after the quote left" \
	0 'round 1: PASS, 40 new entries verified, 5 after the quote'
state_is "the state names entry 40 and its byte offset as the next" 40
tap_like "round 1's verdict names what it proved: boot identity recorded, entries from 0 with the boot_aggregate, signatures" \
	"$(grep '^proven:' <<<"$out")" \
	'boot identity recorded .*40 new entries from entry 0 .*boot_aggregate = the quoted PCRs 0-9; every new file entry.s signature verified'
# the firmware log (ima-attest verify, no list) with round 1's quote of
# both banks: the control; then the log's last sha256 digest flipped
# (tests/host/attest/evlog_tamper.py, the sha1 one left) against a quote
# that carries sha1 PCRs 0-10 and sha256 PCR 10 only: the log's sha256
# PCRs 0-9, from which boot_aggregate is derived, are bound by nothing
# (before, "replays to the quoted PCRs 0-9: PASS", result PASS)
fwverify() {
	rc=0
	out=$("$attest" verify --enrolled "$tmp/enrolled" --quote "$1/quote.msg" \
		--quote-sig "$1/quote.sig" --quote-pcrs "$1/quote.pcrs" \
		--nonce "$(cat "$1/nonce")" --eventlog "$2" 2>&1) || rc=$?
}
fwverify "$tmp/r1" "$evlog"
expect "the firmware log against a quote of both banks' PCRs 0-10: verified" 0 \
	'replays to the quoted PCRs 0-9: PASS'
mkdir -p "$tmp/a-fw"
openssl rand -hex 20 >"$tmp/a-fw/nonce"
tpm2_quote -c "$ak" -l sha1:0,1,2,3,4,5,6,7,8,9,10+sha256:10 \
	-q "$(cat "$tmp/a-fw/nonce")" -g sha256 -m "$tmp/a-fw/quote.msg" -s "$tmp/a-fw/quote.sig" \
	-o "$tmp/a-fw/quote.pcrs" -F values >/dev/null
python3 "$here/evlog_tamper.py" flip-digest "$evlog" "$tmp/a-fw/forged.evlog" 2>/dev/null
fwverify "$tmp/a-fw" "$tmp/a-fw/forged.evlog"
expect "a log with a sha256 digest altered, the quote without sha256 PCRs 0-9: refused" 1 \
	"the event log's sha256 bank is not quoted for PCRs 0x0003ff"

# round 2: the verifier asks from entry 40; 30 new entries. A link is
# planted where the state was written before (state.new beside it, opened
# with fopen "w", then renamed): the new state must not go through it
echo untouched >"$tmp/victim"
ln -s "$tmp/victim" "$tmp/state.new"
extend_to 70
quote "$tmp/r2"
chunk "$tmp/r2" "$(start_of 40)" "$(end_of 70)"
poll "$tmp/r2" "$(start_of 40)"
expect "round 2: only the 30 entries after the saved offset, verified from the saved PCR 10" \
	0 'round 2: PASS, 30 new entries verified, 0 after'
state_is "the state moved to entry 70" 70
tap_like "round 2's verdict: the same boot, 30 entries from entry 40, no boot_aggregate claimed" \
	"$(grep '^proven:' <<<"$out" | grep -v 'boot_aggregate')" \
	'the same boot as the last round .*clock not backwards\); 30 new entries from entry 40 '
tap_is "the link planted at the state's old temporary name was not written through" \
	"$(cat "$tmp/victim")" untouched
tap_is "the state is a file of its own (mode 0600), not the link" "$(stat -c '%F %a' "$tmp/state")" \
	"regular file 600"
rm -f "$tmp/state.new"

# --- files the verifier trusts: only its own, only what they name
# pollwith STATE ENROLLED: round 2's files again with another state or
# enrollment; sets $rc and $out
pollwith() {
	rc=0
	out=$("$attest" poll --state "$1" --enrolled "$2" --key "$key" \
		--quote "$tmp/r2/quote.msg" --quote-sig "$tmp/r2/quote.sig" \
		--quote-pcrs "$tmp/r2/quote.pcrs" --nonce "$(cat "$tmp/r2/nonce")" \
		--entries "$tmp/r2/entries" --offset "$(start_of 40)" 2>&1) || rc=$?
}
cp -p "$tmp/state" "$tmp/state.saved"
ln -s "$tmp/state.saved" "$tmp/state-link"
pollwith "$tmp/state-link" "$tmp/enrolled"
expect "a state that is a symbolic link: refused, not read (exit 2)" 2 'state-link: a symbolic link'
mkdir -m 0777 "$tmp/open" && chmod 0777 "$tmp/open"
cp -p "$tmp/state.saved" "$tmp/open/state"
pollwith "$tmp/open/state" "$tmp/enrolled"
expect "a state in a directory others can write: refused (exit 2)" 2 'writable by others \(mode 0777\)'
python3 "$here/record.py" "$tmp/other-enrolled" - pass
pollwith "$tmp/state.saved" "$tmp/other-enrolled"
expect "the state of this enrollment with another enrolled AK's record: refused" 1 \
	'is of another enrolled AK'
# verifywith ENROLLED QDIR: ima-attest verify (the firmware log) with the
# enrolled directory and QDIR's quote; sets $rc and $out
verifywith() {
	rc=0
	out=$("$attest" verify --enrolled "$1" --quote "$2/quote.msg" --quote-sig "$2/quote.sig" \
		--quote-pcrs "$2/quote.pcrs" --nonce "$(cat "$2/nonce")" --eventlog "$evlog" 2>&1) || rc=$?
}
# a forger holding another key (not in any TPM): round 1's quote signed
# with it; the directory's record says PASS in the format before records
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$tmp/forger.key" 2>/dev/null
mkdir -p "$tmp/forged-q"
cp "$tmp/r1/quote.msg" "$tmp/r1/quote.pcrs" "$tmp/r1/nonce" "$tmp/forged-q/"
openssl dgst -sha256 -sign "$tmp/forger.key" -out "$tmp/forged-q/quote.sig" "$tmp/forged-q/quote.msg"
mkdir -m 0700 "$tmp/forged-enrolled"
openssl pkey -in "$tmp/forger.key" -pubout -out "$tmp/forged-enrolled/ak.pem"
printf 'PASS TPM identity: EK certificate chains to the manufacturer CA\nPASS AK binding: credential activated\n' \
	>"$tmp/forged-enrolled/verdict"
verifywith "$tmp/forged-enrolled" "$tmp/forged-q"
expect "a hand-written two-line PASS verdict with the forger's key: no AK enrolled, refused" 1 \
	'not an enrollment record: line 1'
# the genuine record, ak.pem swapped for the forger's key
cp -rp "$tmp/enrolled" "$tmp/swapped-enrolled"
cp "$tmp/forged-enrolled/ak.pem" "$tmp/swapped-enrolled/ak.pem"
verifywith "$tmp/swapped-enrolled" "$tmp/forged-q"
expect "the genuine record with ak.pem swapped for the forger's key: refused (ak.pem is not the AK it proved)" 1 \
	'ak.pem is not the AK of .*ak.pub'
# the genuine enrollment in a directory others can write, the genuine quote
cp -rp "$tmp/enrolled" "$tmp/open-enrolled"
chmod 0777 "$tmp/open-enrolled"
verifywith "$tmp/open-enrolled" "$tmp/r1"
expect "the genuine enrollment in a directory others can write: refused" 1 \
	'writable by others \(mode 0777\)'
verifywith "$tmp/enrolled" "$tmp/r1"
expect "the control: the genuine enrollment and quote, verified" 0 'result: PASS'


# attacks, each against the state after round 2
extend_to 80
poll "$tmp/r2" "$(start_of 70)" "$(openssl rand -hex 20)"
expect "an old quote (round 2's) replayed for this round's nonce: refused" 1 'does not match the nonce'
quote "$tmp/a-withheld"
chunk "$tmp/a-withheld" "$(start_of 75)" "$(end_of 80)"
poll "$tmp/a-withheld" "$(start_of 75)"
expect "entries withheld (the answer starts 5 entries after the offset asked for): refused" 1 \
	'entries withheld or repeated'
poll "$tmp/a-withheld" "$(start_of 70)"
expect "entries withheld, the answer claiming the offset asked for: refused" 1 \
	'the list presented disagrees with the quote'
mkdir -p "$tmp/a-altered"
cp "$tmp/a-withheld"/quote.* "$tmp/a-withheld/nonce" "$tmp/a-altered/"
python3 "$here/ima_list.py" alter "$list" 72 "$tmp/altered.ima"
slice "$tmp/altered.ima" "$(start_of 70)" "$(end_of 80)" >"$tmp/a-altered/entries"
poll "$tmp/a-altered" "$(start_of 70)"
expect "the list presented disagrees with the quoted PCR 10 (entry 72 altered, template hash recomputed): refused" 1 \
	'the list presented disagrees with the quote'
state_is "after the refused rounds the state is still at entry 70" 70
chunk "$tmp/a-withheld" "$(start_of 70)" "$(end_of 80)"
poll "$tmp/a-withheld" "$(start_of 70)"
expect "round 3, the genuine answer to the same quote: passes from the unchanged state" 0 \
	'PASS, 10 new entries verified'
# the guest runs a program that nobody signed
python3 "$here/ima_list.py" unsigned /tmp/evil "$tmp/evil.ima"
extend_record "$tmp/evil.ima"
quote "$tmp/a-unsigned"
cp "$tmp/evil.ima" "$tmp/a-unsigned/entries"
poll "$tmp/a-unsigned" "$(start_of 80)"
expect "an unsigned program run between rounds (in the list, quoted): refused" 1 \
	'entry 80 \(/tmp/evil\): unsigned: a file the verifier does not know'
# the same record sent under the template name "ima-buf" (same length and
# layout; no bank hashes the name, so the same template hash and PCR 10):
# its empty sig field read as a buffer, and buffers carry no signature
# (before, "round 4: PASS, 1 new entries verified")
renamed "$tmp/a-renamed" "$tmp/a-unsigned" "$tmp/evil.ima" ima-buf
tap_is "the renamed record differs from the unsigned one only in its template name" \
	"$(cmp -l "$tmp/evil.ima" "$tmp/a-renamed/entries" | wc -l)" 3
poll "$tmp/a-renamed" "$(start_of 80)"
expect "the unsigned program's record renamed ima-buf (template hash and PCR 10 unchanged): refused" 1 \
	'entry 80 \(/tmp/evil\): unsigned: a file the verifier does not know'
state_is "after the renamed record the state is still at entry 80" 80
# more failures than the 8 reasons kept before: 12 more unsigned programs
# run after entry 80, each its own reason (before, 8 printed, 5 unsaid)
: >"$tmp/many.ima"
for i in $(seq 1 12); do
	python3 "$here/ima_list.py" unsigned "/tmp/evil-$i" "$tmp/evil-$i.ima"
	extend_record "$tmp/evil-$i.ima"
	cat "$tmp/evil-$i.ima" >>"$tmp/many.ima"
done
quote "$tmp/a-many"
cat "$tmp/evil.ima" "$tmp/many.ima" >"$tmp/a-many/entries"
poll "$tmp/a-many" "$(start_of 80)"
tap_is "13 unsigned programs (entries 80-92): refused, each one a reason of its own" \
	"$rc $(grep -cE '^reason: entry (8[0-9]|9[0-2]) \(/tmp/evil(-[0-9]+)?\): unsigned' <<<"$out")" "1 13"
# the same round under --json: one object, every failure with its class
# and the entry it names, the inputs named (not recorded: no --record)
rc=0
"$attest" poll --json --state "$tmp/state" --enrolled "$tmp/enrolled" --key "$key" \
	--quote "$tmp/a-many/quote.msg" --quote-sig "$tmp/a-many/quote.sig" \
	--quote-pcrs "$tmp/a-many/quote.pcrs" --nonce "$(cat "$tmp/a-many/nonce")" \
	--entries "$tmp/a-many/entries" --offset "$(start_of 80)" >"$tmp/a-many.json" 2>"$tmp/a-many.err" || rc=$?
tap_is "--json on the 13 unsigned programs: exit 1, one JSON object, 13 unsigned failures naming entries 80-92, nothing on stderr" \
	"$(python3 - "$tmp/a-many.json" "$(cat "$tmp/a-many/nonce")" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
d = json.loads(text)
ents = sorted(int(re.match(r"entry (\d+) ", f["reason"]).group(1))
              for f in d["failures"] if f["class"] == "unsigned")
print(text.count("\n"), d["tool"], d["command"], d["result"], d["exit_code"],
      d["failures_by_class"], ents == list(range(80, 93)),
      d["inputs"]["nonce"] == sys.argv[2], d["round"]["pass"], d["version"] != "")
PY
) $rc $(wc -c <"$tmp/a-many.err")" \
	"1 ima-attest poll fail 1 {'unsigned': 13} True True False True 1 0"
# the clock: a state whose last quote was later than this one
cp "$tmp/state" "$tmp/state.good"
sed -i 's/^clock .*/clock 99999999999/' "$tmp/state"
quote "$tmp/a-clock"
: >"$tmp/a-clock/entries"
poll "$tmp/a-clock" "$(start_of 80)"
expect "a quote whose TPM clock is before the last round's: refused" 1 'the TPM clock went backwards'
cp "$tmp/state.good" "$tmp/state"
# a reboot between rounds: TPM reset (swtpm re-initialised, TPM2_Startup(CLEAR))
swtpm_ioctl --unix "$d/tpm.sock.ctrl" -i >/dev/null
tpm2_startup -c
quote "$tmp/a-reboot"
: >"$tmp/a-reboot/entries"
poll "$tmp/a-reboot" "$(start_of 80)"
expect "the guest rebooted between rounds (resetCount changed): refused" 1 \
	'the guest rebooted since the last round \(resetCount'

# kexec into a kernel that measures nothing. After that reset, a new boot:
# the firmware again, a new state, entries 0-39 quoted
rm -f "$tmp/state"
while read -r ext; do tpm2_pcrextend "$ext"; done < <(python3 "$here/ima_list.py" evlog-extends "$evlog")
extended=0
extend_to 40
quote "$tmp/k1"
chunk "$tmp/k1" 0 "$(end_of 40)"
poll "$tmp/k1" 0
expect "after the reset, a new state: entries 0-39 quoted and verified" 0 'PASS, 40 new entries verified'
# the kernel's last record at kexec -e (patch 0015), then a kernel without
# IMA: its user space quotes PCR 10 ending at that record (before, this
# round passed, and so would every later one, with no entries)
python3 "$here/ima_list.py" buf kexec_execute \
	'kexec_segment_size=1048576;ima_binary_runtime_size=9000;ima_runtime_measurements_count=40;' \
	"$tmp/exec.ima"
extend_record "$tmp/exec.ima"
quote "$tmp/k2"
cp "$tmp/exec.ima" "$tmp/k2/entries"
poll "$tmp/k2" "$(end_of 40)"
expect "kexec into a kernel that measures nothing (the quoted PCR 10 ends at kexec_execute): refused" 1 \
	'the quoted PCR 10 ends at kexec_execute \(entry 40\)'
# the same kexec_execute record sent under the name "ima-sig": a buffer by
# its data (digest = hash of the third field) whatever its name, so the
# hand-over is still seen (without --key this round passed before; with
# it, it was refused only because the text is no signature)
renamed "$tmp/k2r" "$tmp/k2" "$tmp/exec.ima" ima-sig
poll "$tmp/k2r" "$(end_of 40)"
expect "the kexec_execute record renamed ima-sig, the quote ending there: refused" 1 \
	'the quoted PCR 10 ends at kexec_execute \(entry 40\)'
state_is "the refused round left the state at entry 40" 40
# the control: the next kernel's IMA extends its boot_aggregate (the same
# PCRs 0-9, so entry 0's bytes) before its user space quotes
read -r _ _ bh1 bh2 <<<"${ent[0]}"
tpm2_pcrextend "10:sha1=$bh1,sha256=$bh2"
quote "$tmp/k3"
{ cat "$tmp/exec.ima"; slice "$list" 0 "$(end_of 1)"; } >"$tmp/k3/entries"
poll "$tmp/k3" "$(end_of 40)"
expect "the same hand-over to a kernel whose IMA extended its boot_aggregate: passes" 0 \
	'PASS, 2 new entries verified'

# --- the record of the rounds (make attest's page shows it)
# every round above, in order: its name, passed exactly when it exited 0;
# and what some of them must say, from how they were made
tap_is "the record holds every round polled, in order, passed exactly when the round exited 0" \
	"$(python3 - "$tmp/rounds.jsonl" "$tmp/polls" <<'PY'
import json, sys
rec = [json.loads(l) for l in open(sys.argv[1])]
polls = [l.split() for l in open(sys.argv[2])]
bad = [i for i, (r, (n, rc)) in enumerate(zip(rec, polls))
       if r["name"] != n or r["pass"] != (rc == "0") or
       (r["pass"] != (not r["failures"]))]
print(len(rec), len(polls), bad)
PY
)" "$(n=$(wc -l <"$tmp/polls"); echo "$n $n []")"
# want NAME N FIELDS...: round NAME's Nth record (1: the first of that name)
tap_is "the record says what each round verified and why each refused one failed (from how the rounds were made)" \
	"$(python3 - "$tmp/rounds.jsonl" <<'PY'
import json, sys
rec = [json.loads(l) for l in open(sys.argv[1])]
def nth(name, n=1):
    return [r for r in rec if r["name"] == name][n - 1]
def classes(r):
    return sorted(set(f["class"] for f in r["failures"]))
out = []
for name, n in (("r1", 1), ("r2", 1), ("a-withheld", 3), ("k3", 1)):
    r = nth(name, n)
    out.append("%s:%s/%s/%s" % (name, r["verified"], r["uncovered"], r["next_entry"]))
for name, n in (("a-empty", 1), ("r2", 2), ("a-withheld", 1), ("a-altered", 1),
                ("a-unsigned", 1), ("a-many", 1), ("a-clock", 1), ("k2", 1)):
    r = nth(name, n)
    out.append("%s:%s" % (name, ",".join(classes(r))))
# a reset may or may not set the TPM clock back too: the reboot is what counts
out.append("a-reboot:%s" % ("reboot" in classes(nth("a-reboot"))))
out.append("a-many:%d" % len(nth("a-many")["failures"]))
print(" ".join(out))
PY
)" "r1:40/5/40 r2:30/0/70 a-withheld:10/0/80 k3:2/0/42 a-empty:pcr-covers-nothing r2:quote-nonce a-withheld:offset a-altered:bad-signature,pcr-mismatch a-unsigned:unsigned a-many:unsigned a-clock:clock k2:kexec-handover a-reboot:True a-many:13"

# the firmware's event log as the guest's agent sends it (EVENTLOG; the
# file it reads named for this test), then the page: round 1's quote, that
# log, every round recorded
TPM2TOOLS_TCTI=$TPM2TOOLS_TCTI IMA_STACK_BIOS_LOG=$evlog python3 "$here/mitm.py" "$tmp/ev.sock" none "$tmp" -- \
	"$agent" - "$tmp/agent-ev" 2>"$tmp/agent-ev.err" &
mp=$!
rc=0
"$attest" request --channel "$tmp/ev.sock" --out "$tmp/eventlog" --timeout 60 EVENTLOG >/dev/null 2>&1 || rc=$?
wait "$mp" || true
tap_is "the agent's EVENTLOG answer is the firmware's event log, byte for byte" \
	"$rc $(cat "$tmp/eventlog/verb" 2>/dev/null) $(cmp -s "$evlog" "$tmp/eventlog/log" && echo same)" "0 EVENTLOG same"
cp "$tmp/rounds.jsonl" "$tmp/rounds.before"
rc=0
out=$("$attest" verify --enrolled "$tmp/enrolled" --quote "$tmp/r1/quote.msg" \
	--quote-sig "$tmp/r1/quote.sig" --quote-pcrs "$tmp/r1/quote.pcrs" --nonce "$(cat "$tmp/r1/nonce")" \
	--eventlog "$tmp/eventlog/log" --html "$tmp/attest.html" --rounds "$tmp/rounds.jsonl" 2>&1) || rc=$?
expect "verify --html --rounds: the firmware log against round 1's quote, the page written" 0 'result: PASS'
tap_is "the page embeds the record as written: every round, the same objects" \
	"$(python3 - "$tmp/attest.html" "$tmp/rounds.before" <<'PY'
import json, re, sys
page = open(sys.argv[1]).read()
m = re.search(r'<script type="application/json" id="ima-rounds">(.*?)</script>', page, re.S)
rounds = json.loads(m.group(1)) if m else None
rec = [json.loads(l) for l in open(sys.argv[2])]
print(rounds == rec, len(rec))
PY
)" "True $(wc -l <"$tmp/polls")"

# the record is a file the verifier trusts: never through a link, never in
# a directory others can write, never one others can write; each refused
# before the round (exit 2), the state and the link's target untouched
# pollrec RECORD: round 2's files again with the saved state and RECORD
pollrec() {
	cp -p "$tmp/state.saved" "$tmp/state.rec"
	rc=0
	out=$("$attest" poll --state "$tmp/state.rec" --enrolled "$tmp/enrolled" --key "$key" \
		--record "$1" --quote "$tmp/r2/quote.msg" --quote-sig "$tmp/r2/quote.sig" \
		--quote-pcrs "$tmp/r2/quote.pcrs" --nonce "$(cat "$tmp/r2/nonce")" \
		--entries "$tmp/r2/entries" --offset "$(start_of 40)" 2>&1) || rc=$?
}
echo untouched >"$tmp/victim2"
mkdir -m 0700 "$tmp/recdir"
ln -s "$tmp/victim2" "$tmp/recdir/rounds.jsonl"
pollrec "$tmp/recdir/rounds.jsonl"
tap_like "a record that is a symbolic link: exit 2, its target untouched, the state unchanged" \
	"$rc $(cat "$tmp/victim2") $(cmp -s "$tmp/state.rec" "$tmp/state.saved" && echo same) $out" \
	"^2 untouched same .*a symbolic link"
pollrec "$tmp/open/rounds.jsonl"
tap_like "a record in a directory others can write: exit 2, nothing written there" \
	"$rc $([ -e "$tmp/open/rounds.jsonl" ] && echo written || echo none) $out" "^2 none .*writable by others"
cp "$tmp/rounds.before" "$tmp/recdir/open.jsonl"
chmod 0666 "$tmp/recdir/open.jsonl"
pollrec "$tmp/recdir/open.jsonl"
tap_like "a record others can write: exit 2, left as it was" \
	"$rc $(cmp -s "$tmp/recdir/open.jsonl" "$tmp/rounds.before" && echo same) $out" "^2 same .*writable by others"
tap_done
