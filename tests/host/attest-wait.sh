#!/usr/bin/env bash
# Host test: the wait for one boot's enrollment verdict (scripts/enroll-wait.sh,
# used by make attest), without a boot. A run of make attest once read the
# verdict an earlier run of the same name had left, before boot.sh removed
# it: "ok - enrollment" from a stale file, and round 1's quote sent before
# this boot's enrollment. Here stale verdicts are put in place and a stand-in
# for the boot (a background shell) writes this boot's verdict, or none;
# the wait must accept only this boot's, and only when it passes. Then the
# verdict ima-attest enroll writes itself: an old one is removed when it
# starts, nothing is visible while it runs, the new one names its boot.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib/tap.sh"
. "$TOP/scripts/enroll-wait.sh"
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
command -v python3 >/dev/null || tap_bail "python3 not installed: run \`make deps\`"
. "$TOP/tests/host/attest/setup.sh"

pass_lines='PASS TPM identity: EK certificate chains to the manufacturer CA and certifies an EK, EK public key matches it
PASS AK binding: restricted TPM signing key, name recomputed, credential activated by the EK'"'"'s TPM'
# verdict FILE BOOT [pass|fail|mixed]: a verdict as ima-attest enroll writes
# it (BOOT "-": the format before boot lines), put in place by a rename
verdict() {
	{
		case ${3:-pass} in
		pass) echo "$pass_lines" ;;
		fail) printf 'PASS TPM identity: ...\nFAIL AK binding\nreason: activation failed\n' ;;
		mixed) echo "$pass_lines"; echo "FAIL AK binding" ;;
		esac
		[ "$2" = - ] || echo "boot: $2"
	} >"$1.tmp"
	mv "$1.tmp" "$1"
}
# boot SECONDS [BOOT KIND]: a stand-in for boot.sh: lives SECONDS, and when
# BOOT is given writes that boot's verdict of KIND halfway; sets $bpid
boot() {
	(
		sleep "$(awk -v s="$1" 'BEGIN {print s / 2}')"
		[ -z "${2:-}" ] || verdict "$v" "$2" "${3:-pass}"
		sleep "$(awk -v s="$1" 'BEGIN {print s / 2}')"
	) &
	bpid=$!
	pids+=("$bpid")
}
# wait_case NAME WANT_RC WANT_RE: enroll_wait on $v for boot "new", with
# the stand-in's pid and a 20 s limit
wait_case() {
	local rc=0 out
	out=$(enroll_wait "$v" new "$bpid" 40) || rc=$?
	wait "$bpid" 2>/dev/null || true
	if [ "$rc" = "$2" ] && grep -qE -- "$3" <<<"$out"; then
		tap_ok "$1 (rc $rc: $out)"
	else
		tap_fail "$1" "rc $rc, want $2 and /$3/: $out"
	fi
}

mkdir -p "$tmp/w"
v=$tmp/w/verdict
# 1. the stale verdict of the run before, and this boot writes none
verdict "$v" old
boot 2
wait_case "a passing verdict of another boot in place, this boot writing none: not accepted" 2 \
	"is another boot's: boot: old"
rm -f "$v"
verdict "$v" -
boot 2
wait_case "a passing verdict without a boot line (the old format) in place: not accepted" 2 \
	"another boot's: no boot line"
rm -f "$v"
boot 1
wait_case "no verdict at all, the boot ending: not accepted" 2 "does not exist"
# 2. the stale verdict passes, this boot's comes later and refuses
verdict "$v" old
boot 2 new fail
wait_case "a stale passing verdict, then this boot's refusing one: refused" 1 \
	"boot new refused: .*FAIL AK binding"
verdict "$v" old
boot 2 new mixed
wait_case "this boot's verdict with both PASS lines and a FAIL line: refused" 1 "boot new refused"
# 3. the control: a stale one, then this boot's passing verdict
verdict "$v" old
boot 2 new pass
wait_case "a stale verdict, then this boot's passing one: accepted" 0 "boot new: PASS AK binding"
verdict "$v" new
boot 1
out=$(enroll_wait "$v" new "$bpid" 0) && rc=0 || rc=$?
tap_is "this boot's passing verdict already there, no time to wait: accepted at once" "$rc" 0

# 4. the verdict ima-attest enroll writes. A channel that accepts and never
#    answers: while enroll waits, neither the old verdict nor a partial new
#    one is there; it ends (timeout) with this boot's refusing verdict.
o=$tmp/out
mkdir -p "$o"
verdict "$o/verdict" old
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
"$attest" enroll --channel "$tmp/silent.sock" --ca /dev/null --out "$o" --timeout 3 \
	--boot new >"$tmp/enroll.out" 2>&1 &
epid=$!
sleep 1
if [ -e "$o/verdict" ]; then
	tap_fail "ima-attest enroll running: no verdict visible (the old one removed, the new one not yet renamed)" \
		"$(cat "$o/verdict")"
else
	tap_ok "ima-attest enroll running: no verdict visible (the old one removed, the new one not yet renamed)"
fi
wait "$epid" || erc=$?
tap_is "ima-attest enroll against a guest that never answers: exit 2 (I/O)" "$erc" 2
out=$(enroll_wait "$o/verdict" new "$epid" 1) && rc=0 || rc=$?
tap_is "its verdict is this boot's and refuses (enroll_wait rc)" "$rc" 1
tap_is "its verdict's last line names the boot" "$(tail -n 1 "$o/verdict")" "boot: new"
tap_cmd "the verdict says why" grep -qx 'reason: timed out waiting for the guest' "$o/verdict"
tap_is "no temporary verdict left beside it" "$(find "$o" -name '.verdict*' | wc -l)" 0
# a stale verdict and a channel that does not exist: enroll replaces it
verdict "$o/verdict" old
"$attest" enroll --channel "$tmp/none.sock" --ca /dev/null --out "$o" --timeout 1 \
	--boot new2 >/dev/null 2>&1 || true
out=$(enroll_wait "$o/verdict" old "$$" 1) && rc=0 || rc=$?
tap_is "after an enroll of boot new2, the old boot's verdict is gone (enroll_wait for it: rc 2)" "$rc" 2
# 5. boot names that could forge a line are refused
for bad in "" "a b" "x
PASS AK binding" "$(printf 'a%.0s' $(seq 65))" "../x"; do
	rc=0
	"$attest" enroll --channel "$tmp/none.sock" --ca /dev/null --out "$tmp/bad" --timeout 1 \
		--boot "$bad" >/dev/null 2>&1 || rc=$?
	tap_is "enroll --boot '$(printf '%s' "$bad" | tr '\n' '|' | cut -c1-20)': usage error (exit 2), no verdict" \
		"$rc $([ -e "$tmp/bad/verdict" ] && echo verdict || echo none)" "2 none"
done
tap_done
