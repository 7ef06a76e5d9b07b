#!/usr/bin/env bash
# Host test: the wait for one boot's enrollment (scripts/enroll-wait.sh,
# used by make attest), without a boot. A run of make attest once read the
# verdict an earlier run of the same name had left, before boot.sh removed
# it: "ok - enrollment" from a stale file, and round 1's quote sent before
# this boot's enrollment. Here stale records are put in place and a stand-in
# for the boot (a background shell) writes this boot's record, or none;
# the wait must accept only this boot's, and only when it is trusted, which
# `ima-attest enrolled` decides (the one rule verify and poll apply). Then
# the record ima-attest enroll writes itself: an old one is removed when it
# starts, nothing is visible while it runs, the new one names its boot, and
# a link planted where a file goes is never written through.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/host/lib/host.sh"
. "$TOP/scripts/enroll-wait.sh"
need_installed python3
python3 -c 'import cryptography' 2>/dev/null || tap_bail "python3-cryptography not installed: run \`make deps\`"
. "$TOP/tests/host/attest/setup.sh"
# a manufacturer CA for the enrollments below, which never reach a TPM:
# enroll reads its CA before it waits for a guest, and refuses one it
# cannot use
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tmp/ca.key" -subj /CN=wait-test-ca \
	-days 1 -out "$tmp/ca.pem" 2>/dev/null
ca=$tmp/ca.pem

# record DIR BOOT [pass|fail|mixed|old]: an enrolled directory as
# ima-attest enroll writes it (tests/host/attest/record.py; BOOT "-": none
# named), or (old) the two PASS lines of the format before records
record() {
	if [ "${3:-pass}" = old ]; then
		mkdir -p "$1" && chmod 0700 "$1"
		printf 'PASS TPM identity: EK certificate chains to the manufacturer CA\nPASS AK binding: credential activated\nboot: %s\n' \
			"$2" >"$1/verdict"
	else
		python3 "$TOP/tests/host/attest/record.py" "$1" "$2" "${3:-pass}"
	fi
}
# boot SECONDS [BOOT KIND]: a stand-in for boot.sh: lives SECONDS, and when
# BOOT is given writes that boot's record of KIND halfway; sets $bpid
boot() {
	(
		sleep "$(awk -v s="$1" 'BEGIN {print s / 2}')"
		[ -z "${2:-}" ] || record "$v" "$2" "${3:-pass}"
		sleep "$(awk -v s="$1" 'BEGIN {print s / 2}')"
	) &
	bpid=$!
	pids+=("$bpid")
}
# wait_case NAME WANT_RC WANT_RE: enroll_wait on $v for boot "new", with
# the stand-in's pid and a 20 s limit
wait_case() {
	local rc=0 out
	out=$(enroll_wait "$attest" "$v" new "$bpid" 40) || rc=$?
	wait "$bpid" 2>/dev/null || true
	if [ "$rc" = "$2" ] && grep -qE -- "$3" <<<"$out"; then
		tap_ok "$1 (rc $rc: $out)"
	else
		tap_fail "$1" "rc $rc, want $2 and /$3/: $out"
	fi
}

v=$tmp/w
# 1. the stale record of the run before, and this boot writes none
record "$v" old
boot 2
wait_case "a trusted record of another boot in place, this boot writing none: not accepted" 2 \
	"is boot old's, not boot new's"
rm -rf "$v"
record "$v" -
boot 2
wait_case "a trusted record naming no boot in place: not accepted" 2 \
	"is boot -'s, not boot new's"
rm -rf "$v"
record "$v" new old
boot 2
wait_case "this boot's name under two PASS lines (the format before records, or a hand-written file): not accepted" 2 \
	"not an enrollment record: line 1"
rm -rf "$v"
boot 1
wait_case "no record at all, the boot ending: not accepted" 2 "No such file or directory"
# 2. the stale record is trusted, this boot's comes later and refuses
record "$v" old
boot 2 new fail
wait_case "a stale trusted record, then this boot's refusing one: refused" 1 \
	"boot new refused: .*ak-binding: refused"
record "$v" old
boot 2 new mixed
wait_case "this boot's record with both steps proven and the result refused (fields that disagree): not accepted" 2 \
	"not an enrollment record: its fields disagree with its result"
# 3. the control: a stale one, then this boot's trusted record
record "$v" old
boot 2 new pass
wait_case "a stale record, then this boot's trusted one: accepted" 0 "boot new: enrollment: trusted"
record "$v" new
boot 1
out=$(enroll_wait "$attest" "$v" new "$bpid" 0) && rc=0 || rc=$?
tap_is "this boot's trusted record already there, no time to wait: accepted at once" "$rc" 0
# ... and the files it names must be what it proved
cp "$v/ak.pem" "$tmp/ak.pem.good"
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 2>/dev/null | openssl pkey -pubout >"$v/ak.pem"
out=$(enroll_wait "$attest" "$v" new "$$" 0) && rc=0 || rc=$?
tap_like "this boot's trusted record, ak.pem another key: refused (rc $rc)" "$rc $out" \
	"^1 .*ak.pem is not the AK of .*ak.pub"
cp "$tmp/ak.pem.good" "$v/ak.pem"
chmod 0777 "$v"
out=$(enroll_wait "$attest" "$v" new "$$" 0) && rc=0 || rc=$?
tap_like "the same directory writable by others: refused (rc $rc)" "$rc $out" \
	"^1 .*writable by others \(mode 0777\)"
chmod 0700 "$v"

# 4. the record ima-attest enroll writes itself. A channel that accepts
#    and never answers: while enroll waits, neither the old record nor a
#    partial new one is there; it ends (timeout) with this boot's refusing
#    record. A link is planted where the verdict went before (a fixed name
#    beside it, .verdict.tmp, opened with fopen "w"): never written through.
o=$tmp/out
record "$o" old
echo untouched >"$tmp/victim"
ln -s "$tmp/victim" "$o/.verdict.tmp"
python3 - "$tmp/silent.sock" <<'PY' &
import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1])
s.listen(1)
c, _ = s.accept()
time.sleep(30)
PY
pids+=($!)
for _ in $(seq 50); do [ -S "$tmp/silent.sock" ] && break; sleep 0.1; done
erc=0
"$attest" enroll --channel "$tmp/silent.sock" --ca "$ca" --out "$o" --timeout 3 \
	--boot new >"$tmp/enroll.out" 2>&1 &
epid=$!
sleep 1
if [ -e "$o/verdict" ]; then
	tap_fail "ima-attest enroll running: no record visible (the old one removed, the new one not yet renamed)" \
		"$(cat "$o/verdict")"
else
	tap_ok "ima-attest enroll running: no record visible (the old one removed, the new one not yet renamed)"
fi
wait "$epid" || erc=$?
tap_is "ima-attest enroll against a guest that never answers: exit 2 (I/O)" "$erc" 2
out=$(enroll_wait "$attest" "$o" new "$epid" 1) && rc=0 || rc=$?
tap_is "its record is this boot's and refuses (enroll_wait rc)" "$rc" 1
tap_is "its record names the boot" "$(sed -n 2p "$o/verdict")" "boot: new"
tap_cmd "the record says why" grep -qx 'reason: timed out waiting for the guest' "$o/verdict"
tap_is "its verdict is printed once, last" "$(tail -n 1 "$tmp/enroll.out")" "enrollment: FAIL"
tap_is "the link planted at the old temporary name was not written through" "$(cat "$tmp/victim")" untouched
tap_is "the record is a file of its own, mode 0600" "$(stat -c '%F %a' "$o/verdict")" "regular file 600"
tap_is "no temporary record left beside it" "$(find "$o" -name '.verdict.*' ! -name .verdict.tmp | wc -l)" 0
# a link planted at the record's own name: replaced, never followed
rm -f "$o/verdict"
ln -s "$tmp/victim" "$o/verdict"
"$attest" enroll --channel "$tmp/none.sock" --ca "$ca" --out "$o" --timeout 1 \
	--boot new3 >/dev/null 2>&1 || true
tap_is "a link planted at the record's name: the record replaces it, the link's target untouched" \
	"$(stat -c %F "$o/verdict") $(cat "$tmp/victim")" "regular file untouched"
# a stale record and a channel that does not exist: enroll replaces it
record "$o" old pass
"$attest" enroll --channel "$tmp/none.sock" --ca "$ca" --out "$o" --timeout 1 \
	--boot new2 >/dev/null 2>&1 || true
out=$(enroll_wait "$attest" "$o" old "$$" 1) && rc=0 || rc=$?
tap_is "after an enroll of boot new2, the old boot's record is gone (enroll_wait for it: rc 2)" "$rc" 2
tap_is "and its AK too (no ak.pem, ak.pub, ak.name of another enrollment left)" \
	"$(find "$o" -name 'ak.*' | wc -l)" 0
# an enrollment directory others can write is refused before anything
mkdir -m 0777 "$tmp/open"
chmod 0777 "$tmp/open"
rc=0
out=$("$attest" enroll --channel "$tmp/none.sock" --ca "$ca" --out "$tmp/open" --timeout 1 \
	--boot new 2>&1) || rc=$?
tap_like "ima-attest enroll into a directory others can write: exit 2, nothing written" \
	"$rc $(find "$tmp/open" -mindepth 1 | wc -l) $out" "^2 0 .*writable by others"
# 4b. inputs the enrollment cannot use are refused before the wait for a
#     guest (before, a CA that is no certificate waited the whole --timeout
#     on the channel, and only then failed): each exits 2 at once, names
#     the input, and leaves no record
: >"$tmp/empty.pem"
printf 'not a certificate\n' >"$tmp/text.pem"
for c in "ca:$tmp/none.pem:No such file" "ca:$tmp/empty.pem:no PEM certificate" \
	"ca-chain:$tmp/text.pem:no PEM certificate in the CA chain file"; do
	IFS=: read -r opt file want <<<"$c"
	args=(--ca "$ca")
	[ "$opt" = ca ] && args=(--ca "$file")
	[ "$opt" = ca-chain ] && args+=(--ca-chain "$file")
	rc=0
	start=$(date +%s)
	out=$(timeout 60 "$attest" enroll --channel "$tmp/none.sock" "${args[@]}" \
		--out "$tmp/early" --timeout 600 --boot early 2>&1) || rc=$?
	tap_like "enroll --$opt $(basename "$file"): exit 2 before any wait, the input named, no record" \
		"$rc $(( $(date +%s) - start < 10 ? 1 : 0 )) $([ -e "$tmp/early/verdict" ] && echo verdict || echo none) $out" \
		"^2 1 none .*$(basename "$file"): $want"
done
# 5. boot names that could forge a line are refused
for bad in "" "a b" "x
PASS AK binding" "$(printf 'a%.0s' $(seq 65))" "../x"; do
	rc=0
	"$attest" enroll --channel "$tmp/none.sock" --ca "$ca" --out "$tmp/bad" --timeout 1 \
		--boot "$bad" >/dev/null 2>&1 || rc=$?
	tap_is "enroll --boot '$(printf '%s' "$bad" | tr '\n' '|' | cut -c1-20)': usage error (exit 2), no record" \
		"$rc $([ -e "$tmp/bad/verdict" ] && echo verdict || echo none)" "2 none"
done
tap_done
