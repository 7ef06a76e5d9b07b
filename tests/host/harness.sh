#!/usr/bin/env bash
# Host tests of the harness itself: each class of "a check that cannot fail"
# or "a failure that hides" has a case here built to trip it, with the
# expected outcome written next to it. Nothing here touches this machine's
# kernel: modprobe is a stub, consoles and results are files made here.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/host/lib/host.sh"

# --- 1. the oops detector reads kernel reports only
detect() { # FILE: "crash" or "clean"
	if bash -c ". '$TOP/scripts/lib.sh'; console_errors '$1'" >/dev/null 2>&1; then
		echo crash
	else
		echo clean
	fi
}
cat >"$tmp/clean.log" <<'L'
[    0.000000] Linux version 6.1.0 (ima-stack@build)
ima-stack-init: running 10-firmware
# BUG: a test diagnostic that quotes a kernel message
not ok 3 - Oops: a test named after an oops
ok 4 - Kernel panic - not syncing is not printed here
[    5.123456] ima-stack-mark: BUG: a marker a test wrote to /dev/kmsg
ima-stack-init: 10-firmware: exit 0, 12 ok, 0 not ok
L
tap_is "oops detector: test output and markers that mention BUG/Oops/panic are not oopses" \
	"$(detect "$tmp/clean.log")" clean
n=0
while IFS= read -r line; do
	n=$((n + 1))
	{ cat "$tmp/clean.log"; printf '%s\r\n' "$line"; } >"$tmp/crash$n.log"
	tap_is "oops detector: finds '${line:15:40}'" "$(detect "$tmp/crash$n.log")" crash
done <<'L'
[   12.345678] BUG: unable to handle page fault for address: ffffc90000d3d000
[    3.100000] Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000100
[    7.000001] kernel BUG at include/linux/scatterlist.h:163!
[    7.000002] Oops: 0000 [#1] PREEMPT SMP NOPTI
[    9.000000] general protection fault, probably for non-canonical address 0xdead000000000100
[   10.000000] WARNING: CPU: 1 PID: 213 at security/integrity/ima/ima_policy.c:1 ima_parse_add_rule+0x1/0x2
L

# --- 2. a boot runs exactly the suites its boot file names
g=$tmp/guest
mkdir -p "$g" "$tmp/r/tap"
for s in 10-a 20-b 90-c; do : >"$g/$s.sh"; done
mkres() { # SUITES...: a results dir in which the guest ran SUITES
	rm -rf "$tmp/r" && mkdir -p "$tmp/r/tap"
	printf '%s\n' "$@" >"$tmp/r/suites"
	for s in "$@"; do echo 'ok 1 - x' >"$tmp/r/tap/$s.tap"; echo 0 >"$tmp/r/tap/$s.rc"; done
}
ran() { GUEST_TESTS=$g "$TOP/scripts/boot-ran.sh" "$tmp/r" "$1"; }
mkres 10-a 20-b 90-c
run_rc ran '[0-2]*,9*'
tap_is "boot-ran: the suites the table names all ran -> pass" "$rc" 0
run_rc ran '[0-2]*,9*,3*'
tap_is "boot-ran: a glob that matches no suite (a typo) -> fail" "$rc/$(grep -c '^not ok' <<<"$out")" 1/1
mkres 10-a 90-c
run_rc ran '[0-2]*,9*'
tap_is "boot-ran: a suite that did not run in the guest -> fail" "$rc" 1
mkres 10-a 20-b 90-c
rm "$tmp/r/tap/20-b.rc"
run_rc ran '[0-2]*,9*'
tap_is "boot-ran: a suite without an exit status -> fail" "$rc" 1
mkres 10-a 20-b 90-c
echo '3*' >"$tmp/r/unmatched-globs"
run_rc ran '[0-2]*,9*'
tap_is "boot-ran: a glob the guest could not match -> fail" "$rc" 1

# --- 3. a missing test module skips only when the kernel lacks it
printf '#!/bin/sh\necho "modprobe: FATAL: Module $1 not found" >&2\nexit 1\n' >"$tmp/modprobe"
chmod +x "$tmp/modprobe"
need() { # CONFIG_FILE: run need_module against the stub modprobe
	bash -c "set -euo pipefail; IMA_STACK_KCONFIG='$1' MODPROBE='$tmp/modprobe'
		. '$TOP/tests/lib/tap.sh'; . '$TOP/tests/lib/guest.sh'
		need_module test_kernel_read_file TEST_KERNEL_READ_FILE; tap_ok 'reached the tests'; tap_done"
}
printf 'CONFIG_IKCONFIG=y\nCONFIG_TEST_KERNEL_READ_FILE=m\n' >"$tmp/config-m"
run_rc need "$tmp/config-m"
tap_is "need_module: configured module that does not load -> not ok, exit 1" \
	"$rc/$(grep -c '^not ok' <<<"$out")/$(grep -c 'reached the tests' <<<"$out")" 1/1/0
printf 'CONFIG_IKCONFIG=y\n# CONFIG_TEST_KERNEL_READ_FILE is not set\n' >"$tmp/config-n"
run_rc need "$tmp/config-n"
tap_is "need_module: module the kernel is built without -> skip, exit 77" \
	"$rc/$(grep -c '# SKIP' <<<"$out")" 77/1
run_rc need "$tmp/no-such-config"
tap_is "need_module: no kernel config to decide -> bail out, exit 99" "$rc" 99

# --- 4. the tally: what counts as a pass, a failure, a skip, a todo
tally_of() { # TAPTEXT RC: "pass fail skip todo"
	printf '%s\n' "$1" >"$tmp/t.tap"
	bash -c ". '$TOP/scripts/lib.sh'; pass=0 fail=0 skip=0 todo=0
		tally t '$tmp/t.tap' '$2' >/dev/null; echo \$pass \$fail \$skip \$todo"
}
tap_is "tally: ok lines with a plan and exit 0 are passes" "$(tally_of $'ok 1 - a\nok 2 - b\n1..2' 0)" "2 0 0 0"
tap_is "tally: no plan -> a failure" "$(tally_of $'ok 1 - a' 0)" "1 1 0 0"
tap_is "tally: exit 77 without a skip line -> a failure" "$(tally_of $'ok 1 - a\n1..1' 77)" "1 1 0 0"
tap_is "tally: a skip is not a pass" "$(tally_of $'ok 1 - a # SKIP why\n1..1' 77)" "0 0 1 0"
tap_is "tally: not ok # TODO is neither a pass nor a failure" \
	"$(tally_of $'ok 1 - a\nnot ok 2 - b # TODO known\n1..2' 0)" "1 0 0 1"
tap_is "tally: a bail-out -> a failure" "$(tally_of $'ok 1 - a\nBail out! broken' 99)" "1 1 0 0"
tap_is "tally: non-zero exit with only ok lines -> a failure" "$(tally_of $'ok 1 - a\n1..1' 2)" "1 1 0 0"
# the plan is a promise: fewer or more results than planned, results out
# of sequence, two plans (two streams run together) or a plan between
# results each count one failure of their own
tap_is "tally: fewer results than the plan -> a failure" "$(tally_of $'ok 1 - a\nok 2 - b\n1..3' 0)" "2 1 0 0"
tap_is "tally: more results than the plan -> a failure" "$(tally_of $'1..1\nok 1 - a\nok 2 - b' 0)" "2 1 0 0"
tap_is "tally: a result number out of sequence -> a failure" "$(tally_of $'ok 1 - a\nok 1 - b\n1..2' 0)" "2 1 0 0"
tap_is "tally: two plans -> a failure" "$(tally_of $'ok 1 - a\n1..1\nok 1 - b\n1..1' 0)" "2 1 0 0"
tap_is "tally: a plan between results -> a failure" "$(tally_of $'ok 1 - a\n1..2\nok 2 - b' 0)" "2 1 0 0"
tap_is "tally: plan first, then the results (control)" "$(tally_of $'1..2\nok 1 - a\nok - b' 0)" "2 0 0 0"
# a result without a number is still a result
tap_is "tally: an unnumbered not ok is a failure" "$(tally_of $'ok 1 - a\nnot ok - b\n1..2' 0)" "1 1 0 0"
# the directive is what follows the first unescaped "#": an escaped one is
# part of the name, so a failure named "a \# TODO" is not a known limitation
tap_is "tally: an escaped '# TODO' in a failure's name -> still a failure" \
	"$(tally_of $'not ok 1 - file a\\# TODO b\n1..1' 1)" "0 1 0 0"
tap_is "tally: an escaped '# SKIP' in a pass's name -> a pass" \
	"$(tally_of $'ok 1 - file a\\# SKIP b\n1..1' 0)" "1 0 0 0"
tap_is "tally: not ok # SKIP -> a failure, never a skip" "$(tally_of $'not ok 1 - a # SKIP why\n1..1' 1)" "0 1 0 0"
# names come from outside (a path in the list, a tool's output): tap.sh
# escapes "#" and "\" and folds newlines, so no name can forge a directive
# or a result line
tap_of() { # CMDS: the tally of the stream tap.sh writes for CMDS
	local rc=0
	bash -c ". '$TOP/tests/lib/tap.sh'; $1; tap_done" >"$tmp/n.tap" 2>&1 || rc=$?
	tally_of "$(cat "$tmp/n.tap")" "$rc"
}
tap_is "tap.sh: a failure named 'x # TODO y' is a failure" "$(tap_of 'tap_fail "x # TODO y"')" "0 1 0 0"
tap_is "tap.sh: a pass named 'x # SKIP y' is a pass" "$(tap_of 'tap_ok "x # SKIP y"')" "1 0 0 0"
tap_is "tap.sh: a name ending in a backslash keeps the directive of a skip" \
	"$(tap_of 'tap_skip "x\\" why')" "0 0 1 0"
tap_is "tap.sh: a newline in a name forges no result" \
	"$(tap_of 'tap_fail "$(printf "a\nok 9 - forged")"')" "0 1 0 0"

# --- 5. a boot that dies is a failure of the run, never the end of it
# (check.sh once died itself on a boot whose stderr had no "error:" line,
# taking the summary with it): a copy of the harness with boot.sh stubbed
fake=$tmp/fake
mkdir -p "$fake/scripts" "$fake/tests"
cp -r "$TOP/scripts/." "$fake/scripts/"
cp -r "$TOP/tests/lib" "$fake/tests/"
# stub_boot MESSAGE: boot.sh prints MESSAGE on stderr and exits 3
stub_boot() {
	printf '#!/bin/bash\necho %q >&2\nexit 3\n' "$1" >"$fake/scripts/boot.sh"
	chmod +x "$fake/scripts/boot.sh"
}
# fake_check: check.sh on one boot of the stub; "EXIT LAST-LINE BOOT-LINE"
fake_check() {
	local out rc=0
	out=$(BUILD=$tmp/fake-build CHECK_BUILD=0 CHECK_SUITES=guest CHECK_RUN=fake \
		CHECK_BOOTS='dead|10-*|' bash "$fake/scripts/check.sh" 2>/dev/null) || rc=$?
	echo "$rc|$(tail -n 1 <<<"$out")|$(head -n 1 "$tmp/fake-build/patched/check-fake/boot-dead.tap" 2>/dev/null || echo none)"
}
stub_boot "boot.sh: line 9: syntax error near unexpected token"
tap_is "check.sh: a boot that dies without an 'error:' line -> one failure, the run completes" \
	"$(fake_check)" "1|0 passed, 1 failed|not ok 1 - dead boot: boot.sh exit 3"
stub_boot "[boot] error: the guest kernel oopsed"
tap_is "check.sh: a boot that dies with its reason -> one failure naming it" \
	"$(fake_check)" "1|0 passed, 1 failed|not ok 1 - dead boot: the guest kernel oopsed"

# --- 6. the boot pool beside the host suites: the host suites hold one of
# CHECK_JOBS' slots while they run, the report follows the table whatever
# order the boots end in, and every boot is reported once. Stubs: a host
# suite that runs 4 s, and boots of 3, 1 and 1 s that record, as they
# start, how many boots were running and whether the host suites were.
pool=$tmp/pool
mkdir -p "$pool/run" "$fake/tools/ima-audit" "$fake/tools/ima-attest"
printf 'all:\n\t@true\ncheck:\n\t@sleep 4; printf "ok 1 - host stub\\n1..1\\n"\n' \
	>"$fake/tools/ima-audit/Makefile"
printf 'all:\n\t@true\n' >"$fake/tools/ima-attest/Makefile"
cat >"$fake/scripts/boot.sh" <<STUB
#!/bin/bash
n=\${2#fake-}
h=no; [ -e "$tmp/fake-build/patched/check-fake/host-running" ] && h=yes
echo "\$n \$(ls "$pool/run" | wc -l) \$h" >>"$pool/starts"
: >"$pool/run/\$n"
case \$n in a) sleep 3 ;; *) sleep 1 ;; esac
mkdir -p "$tmp/fake-build/patched/results/\$2/tap"
printf 'ok 1 - %s\\n1..1\\n' "\$n" >"$tmp/fake-build/patched/results/\$2/tap/t.tap"
echo 0 >"$tmp/fake-build/patched/results/\$2/tap/t.rc"
rm "$pool/run/\$n"
STUB
printf '#!/bin/bash\nprintf "ok 1 - stub\\n1..1\\n"\n' >"$fake/scripts/boot-ran.sh"
cp "$fake/scripts/boot-ran.sh" "$fake/scripts/audit.sh"
cp "$fake/scripts/boot-ran.sh" "$fake/scripts/lint.sh"
chmod +x "$fake/scripts/"{boot,boot-ran,audit,lint}.sh
out=$(BUILD=$tmp/fake-build CHECK_BUILD=0 CHECK_SUITES="host guest" CHECK_RUN=fake CHECK_JOBS=2 \
	CHECK_BOOTS=$'a|x|\nb|x|\nc|x|' bash "$fake/scripts/check.sh" 2>/dev/null) || true
tap_is "pool: the run's total (2 host: ima-audit's and lint's stubs, + 3 boots x 3 suites)" "$(tail -n 1 <<<"$out")" "11 passed, 0 failed"
tap_is "pool: boots are reported in the order of the run, not the order they end in" \
	"$(sed -n 's|^# --- guest/\([a-z]\)/t$|\1|p' <<<"$out" | paste -sd,)" "a,b,c"
tap_is "pool: the first boot starts while the host suites run, alone" \
	"$(head -n 1 "$pool/starts" 2>/dev/null)" "a 0 yes"
tap_is "pool: no boot starts when the host suites and another boot hold both slots" \
	"$(awk '{n = $2 + ($3 == "yes")} n >= 2 {print "over: " $0}' "$pool/starts")" ""
tap_is "pool: every boot started once" "$(cut -d' ' -f1 "$pool/starts" | sort | paste -sd,)" "a,b,c"
# CHECK_JOBS=1: one thing at a time, the host suites first
rm -f "$pool/starts"
out=$(BUILD=$tmp/fake-build CHECK_BUILD=0 CHECK_SUITES="host guest" CHECK_RUN=fake CHECK_JOBS=1 \
	CHECK_BOOTS=$'a|x|\nb|x|\nc|x|' bash "$fake/scripts/check.sh" 2>/dev/null) || true
tap_is "pool, CHECK_JOBS=1: each boot starts alone, after the host suites" \
	"$(paste -sd, "$pool/starts")" "a 0 no,b 0 no,c 0 no"

tap_done
