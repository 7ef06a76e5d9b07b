#!/usr/bin/env bash
# Host tests of the boot files (tests/boots/*.boot, read by scripts/boots.sh)
# and of scripts/check.sh's loop over them: a file it cannot take stops it
# naming the file and line; every real boot file parses and names suites,
# policies and checks that exist; a new boot file is picked up with its
# suites, command line, policy and host checks, and nothing else of the run
# changes; CHECK_BOOTS takes names and ad-hoc rows; a boot for another
# kernel tree is a skip. check.sh runs on a copy of the harness whose boots
# and checks are stubs that write down how they were called; the
# expectations come from the boot files the test writes.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/host/lib/host.sh"

# --- 1. what a boot file may not say: each one stops the reader, naming
#        the file and line (or the file, for what is missing)
bad=$tmp/bad
mkdir -p "$bad"
# reads NAME: boot_read of $bad/NAME.boot; "exit|first line of stderr"
reads() {
	local rc=0 err
	err=$(IMA_STACK_BOOTS=$bad BUILD=$tmp/b bash -c ". '$TOP/scripts/lib.sh'; . '$TOP/scripts/boots.sh'; boot_read '$1'" 2>&1 >/dev/null) || rc=$?
	echo "$rc|$(head -n 1 <<<"$err")"
}
# refused NAME MESSAGE TEXT: a boot file of TEXT is refused, its error
# starting with MESSAGE (taken literally)
refused() {
	printf '%s\n' "$3" >"$bad/$1.boot"
	tap_like "boot file refused: $1" "$(reads "$1")" \
		"^1\|\[.*\] error: $(sed 's/[][\.*^$(){}?+|]/\\&/g' <<<"$2")"
}
refused unknown-key "$bad/unknown-key.boot:2: unknown key 'sutes'" $'# a typo\nsutes = 10-*'
refused twice "$bad/twice.boot:2: 'suites' given twice" $'suites = 10-*\nsuites = 20-*'
refused no-equals "$bad/no-equals.boot:1: not a 'KEY = VALUE' line" 'suites 10-*'
refused empty-value "$bad/empty-value.boot:1: 'cmdline' has no value" $'cmdline =\nsuites = 10-*'
refused yes-no "$bad/yes-no.boot:2: nonce: yes or no, not 'true'" $'suites = 10-*\nnonce = true'
refused no-suites "$bad/no-suites.boot: no 'suites = GLOB" 'cmdline = quiet'
refused blank-suites "$bad/blank-suites.boot:1: suites: comma-separated globs, no blanks" 'suites = 10-* 20-*'
refused policy-on-cmdline "$bad/policy-on-cmdline.boot:2: cmdline: ima_stack.policy, .tests and .nonce" \
	$'suites = 10-*\ncmdline = quiet ima_stack.policy=/etc/ima/x'
refused no-policy-file "$bad/no-policy-file.boot:2: policy: no file policies/no-such-policy" \
	$'suites = 10-*\npolicy = ima-policy no-such-policy'
refused drop-alone "$bad/drop-alone.boot: policy-drop needs a 'policy' line" \
	$'suites = 10-*\npolicy-drop = appraise func=FIRMWARE_CHECK'
refused no-check "$bad/no-check.boot:2: host-checks: no file tests/host/boot/no-such.sh" \
	$'suites = 10-*\nhost-checks = tests/host/boot/no-such.sh'
refused bad-tree "$bad/bad-tree.boot:2: trees: kernel versions such as 6.1 6.12, not 'bookworm'" \
	$'suites = 10-*\ntrees = bookworm'
refused driver-suites "$bad/driver-suites.boot: a driver boot has no suites" \
	$'driver = attest/poll scripts/attest-poll.sh\nsuites = 10-*'
refused driver-one "$bad/driver-one.boot:1: driver: a suite name (like attest/poll) and one script" \
	'driver = scripts/attest-poll.sh'
tap_like "boot file refused: a boot that does not exist, naming those that do" "$(reads no-such)" \
	"^1\|.*error: no boot 'no-such' \($bad/no-such.boot\); the boots are: bad-tree blank-suites "
tap_like "boot file refused: a name that is not one" "$(reads 'Main')" "^1\|.*error: boot name 'Main'"
# the control: comments, blanks and every key in a file that is right
printf '%s\n' '# a comment' '' '  # an indented comment' 'suites = 10-*,20-*' 'cmdline = quiet  ' \
	'policy = ima-policy appraise-all.rules' 'nonce = yes' 'audit = no' \
	'host-checks = tests/host/boot/kexec.sh' 'trees = 6.1 6.12' >"$bad/good.boot"
tap_is "a boot file with every key is read" "$(IMA_STACK_BOOTS=$bad BUILD=$tmp/b bash -c ". '$TOP/scripts/lib.sh'; . '$TOP/scripts/boots.sh'
	boot_read good; echo \"\$B_SUITES|\$(boot_kcmdline)|\$B_NONCE|\$B_AUDIT|\$B_CHECKS|\$B_TREES\"")" \
	"10-*,20-*|quiet ima_stack.policy=/etc/ima/good-policy|yes|no|tests/host/boot/kexec.sh|6.1 6.12"

# --- 2. the real boot files: each parses; its suites, policy parts and
#        checks exist; the policies it joins are the parts it names
lib() { BUILD=$tmp/b bash -c ". '$TOP/scripts/lib.sh'; . '$TOP/scripts/boots.sh'; $1"; }
mapfile -t names < <(lib boot_names)
tap_cmd "tests/boots holds boot files" test "${#names[@]}" -gt 0
for n in "${names[@]}"; do
	run_rc lib "boot_read '$n'; echo \"\$B_SUITES\""
	if [ "$rc" != 0 ]; then
		tap_fail "tests/boots/$n.boot parses" "$out"
		continue
	fi
	miss=
	IFS=, read -ra globs <<<"$out"
	for g in "${globs[@]}"; do
		# shellcheck disable=SC2206 # the glob, expanded against the suites
		m=("$TOP"/tests/guest/$g.sh)
		[ -f "${m[0]}" ] || miss+="$g "
	done
	tap_is "tests/boots/$n.boot parses, and each of its suite globs names a guest suite" "$miss" ""
done
root=$tmp/root
mkdir -p "$root/etc/ima"
lib "for n in \$(boot_names); do boot_read \"\$n\"; boot_policy_compose '$root'; done"
tap_is "appraise-all's policy: ima-policy, then appraise-all.rules" \
	"$(sha256sum <"$root/etc/ima/appraise-all-policy")" \
	"$(cat "$TOP/policies/ima-policy" "$TOP/policies/appraise-all.rules" | sha256sum)"
tap_is "kexec-cut's policy: kexec-cut.rules, then ima-policy" \
	"$(sha256sum <"$root/etc/ima/kexec-cut-policy")" \
	"$(cat "$TOP/policies/kexec-cut.rules" "$TOP/policies/ima-policy" | sha256sum)"
tap_is "kselftests' policy: ima-policy without its one FIRMWARE_CHECK appraise rule" \
	"$(diff "$TOP/policies/ima-policy" "$root/etc/ima/kselftests-policy" | grep '^[<>]')" \
	"$(grep '^appraise func=FIRMWARE_CHECK ' "$TOP/policies/ima-policy" | sed 's/^/< /')"
tap_is "kexec-busy's policy: kexec-cut.rules, then ima-policy" \
	"$(sha256sum <"$root/etc/ima/kexec-busy-policy")" \
	"$(cat "$TOP/policies/kexec-cut.rules" "$TOP/policies/ima-policy" | sha256sum)"
tap_is "kexec-legacy's policy: ima-policy without its two kexec appraise rules (a policy-drop of two)" \
	"$(diff "$TOP/policies/ima-policy" "$root/etc/ima/kexec-legacy-policy" | grep '^[<>]')" \
	"$(grep -E '^appraise func=KEXEC_(KERNEL|INITRAMFS)_CHECK ' "$TOP/policies/ima-policy" | sed 's/^/< /')"
tap_is "only the boots that join a policy write one" "$(ls "$root/etc/ima" | paste -sd' ')" \
	"appraise-all-policy kexec-busy-policy kexec-cut-policy kexec-legacy-policy kselftests-policy"
# a drop that matches no rule, or two, stops the sign stage
printf 'suites = 10-*\npolicy = ima-policy ima-policy\npolicy-drop = appraise func=FIRMWARE_CHECK\n' >"$bad/drop2.boot"
printf 'suites = 10-*\npolicy = ima-policy\npolicy-drop = appraise func=NO_SUCH_CHECK\n' >"$bad/drop0.boot"
printf 'suites = 10-*\npolicy = ima-policy\npolicy-drop = appraise func=FIRMWARE_CHECK ; appraise func=NO_SUCH_CHECK\n' >"$bad/drop10.boot"
for d in drop2:2 drop0:0 drop10:0; do
	run_rc env IMA_STACK_BOOTS="$bad" BUILD="$tmp/b" bash -c ". '$TOP/scripts/lib.sh'; . '$TOP/scripts/boots.sh'; boot_read ${d%:*}; boot_policy_compose '$root'"
	tap_like "policy-drop matching ${d#*:} rules: refused" "$rc|$out" \
		"^1\|.*error: boot ${d%:*}: policy-drop 'appraise func=[A-Z_]+' matches ${d#*:} rules of its policy"
done

# --- 3. check.sh over the boot files, on a copy of the harness: boot.sh,
#        boot-ran.sh, audit.sh, attest.sh, every host check and driver are
#        stubs that write one line to $calls, as they were called
fake=$tmp/fake
calls=$tmp/calls
mkdir -p "$fake/tests" "$fake/tools/ima-audit" "$fake/tools/ima-attest"
cp -r "$TOP/scripts" "$TOP/policies" "$fake/"
cp -r "$TOP/tests/lib" "$TOP/tests/boots" "$fake/tests/"
printf 'all:\n\t@true\n' >"$fake/tools/ima-audit/Makefile"
cp "$fake/tools/ima-audit/Makefile" "$fake/tools/ima-attest/Makefile"
# stub PATH: a script that writes "NAME ARGS" to $calls (a nonce as "nonce"),
# then one passing TAP line
stub() {
	mkdir -p "$(dirname "$fake/$1")"
	cat >"$fake/$1" <<STUB
#!/bin/bash
a=("\$@")
for i in "\${!a[@]}"; do [[ \${a[i]} =~ ^[0-9a-f]{40}\$ ]] && a[i]=nonce; done
echo "$1 \${a[*]##*/}" >>"$calls"
printf 'ok 1 - stub\n1..1\n'
STUB
	chmod +x "$fake/$1"
}
for s in scripts/boot-ran.sh scripts/audit.sh scripts/attest.sh scripts/attest-poll.sh \
	tests/host/boot/verdicts.sh tests/host/boot/kexec.sh tests/host/boot/kexec-cut.sh tests/host/boot/kexec-busy.sh tests/host/boot/kexec-legacy.sh \
	tests/host/boot/new-check.sh; do
	stub "$s"
done
cat >"$fake/scripts/boot.sh" <<STUB
#!/bin/bash
echo "scripts/boot.sh \$2 tests=\$IMA_STACK_TESTS cmdline=\$KCMDLINE_EXTRA nonce=\${IMA_STACK_NONCE:+yes}" >>"$calls"
r=$tmp/build/\${KVARIANT:-patched}/results/\$2/tap
mkdir -p "\$r"
printf 'ok 1 - %s\n1..1\n' "\$2" >"\$r/t.tap"
echo 0 >"\$r/t.rc"
STUB
chmod +x "$fake/scripts/boot.sh"
# fake_check VAR=VALUE...: check.sh (guest half) on the copy; its calls,
# sorted, in $tmp/calls.N, its summary's suite names in $tmp/suites.N, its
# last line in $last (N counts the runs)
runs=0
fake_check() {
	runs=$((runs + 1))
	: >"$calls"
	last=$(env BUILD="$tmp/build" CHECK_BUILD=0 CHECK_SUITES=guest CHECK_RUN=fake "$@" \
		bash "$fake/scripts/check.sh" 2>"$tmp/err.$runs" | tail -n 1) || true
	LC_ALL=C sort "$calls" >"$tmp/calls.$runs"
	{ sed -nE 's/^# ([^ ]+) +[0-9]+ passed.*/\1/p' "$tmp/build/patched/check-fake/summary" 2>/dev/null || :; } |
		LC_ALL=C sort >"$tmp/suites.$runs"
}
# added A B: the lines of file B that are not in file A, then "|", then the
# lines of A that are not in B
added() { echo "$(comm -13 "$1" "$2" | paste -sd';')|$(comm -23 "$1" "$2" | paste -sd';')"; }

fake_check
nb=${#names[@]}
tap_is "check.sh runs every boot file: one boot.sh call each but the driver's" \
	"$(grep -c '^scripts/boot.sh ' "$tmp/calls.1")/$(grep -c '^scripts/attest-poll.sh ' "$tmp/calls.1")" "$((nb - 1))/1"
tap_is "the main boot: its suites, a nonce, its audit, quote and verdicts checks" \
	"$(grep -E '^[^ ]+ (fake-main|.*/fake-main)( |$)' "$tmp/calls.1" | paste -sd';')" \
	"scripts/attest.sh fake-main nonce;scripts/audit.sh fake-main;scripts/boot-ran.sh fake-main [0-6]*,70-*,72-*,90-*;scripts/boot.sh fake-main tests=[0-6]*,70-*,72-*,90-* cmdline= nonce=yes;tests/host/boot/verdicts.sh fake-main nonce"
tap_is "the kexec-cut boot: its policy on the command line, no audit, its own check" \
	"$(grep -E ' fake-kexec-cut( |$)' "$tmp/calls.1" | paste -sd';')" \
	"scripts/boot-ran.sh fake-kexec-cut 98-kexec-cut-1,98-kexec-cut-2;scripts/boot.sh fake-kexec-cut tests=98-kexec-cut-1,98-kexec-cut-2 cmdline=ima_stack.policy=/etc/ima/kexec-cut-policy nonce=;tests/host/boot/kexec-cut.sh fake-kexec-cut "
tap_is "the run passes (the stubs' one line each)" "$last" "$(wc -l <"$tmp/suites.1") passed, 0 failed"

# the same run with one boot file more
cat >"$fake/tests/boots/new-boot.boot" <<'B'
# a boot added by tests/host/boots.sh
suites = 10-*,20-*
cmdline = quiet
policy = ima-policy extra.policy
host-checks = tests/host/boot/new-check.sh
B
fake_check
tap_is "a new boot file: booted once with its suites and command line, its checks run, no other call changes" \
	"$(added "$tmp/calls.1" "$tmp/calls.2")" \
	"scripts/audit.sh fake-new-boot;scripts/boot-ran.sh fake-new-boot 10-*,20-*;scripts/boot.sh fake-new-boot tests=10-*,20-* cmdline=quiet ima_stack.policy=/etc/ima/new-boot-policy nonce=;tests/host/boot/new-check.sh fake-new-boot |"
tap_is "a new boot file: the run reports its suite, ran, audit and check, and nothing else changes" \
	"$(added "$tmp/suites.1" "$tmp/suites.2")" "audit/new-boot;guest/new-boot/ran;guest/new-boot/t;new-check/new-boot|"
tap_is "a new boot file: the run's count grows by its four suites" "$last" "$(($(wc -l <"$tmp/suites.1") + 4)) passed, 0 failed"
root2=$tmp/root2
mkdir -p "$root2/etc/ima"
IMA_STACK_BOOTS=$fake/tests/boots BUILD=$tmp/b bash -c ". '$fake/scripts/lib.sh'; . '$fake/scripts/boots.sh'; boot_read new-boot; boot_policy_compose '$root2'"
tap_is "a new boot file: the sign stage joins its policy from the parts it names" \
	"$(sha256sum <"$root2/etc/ima/new-boot-policy")" "$(cat "$TOP/policies/ima-policy" "$TOP/policies/extra.policy" | sha256sum)"

# a boot for another kernel tree: reported as skipped, never booted
printf 'suites = 10-*\ntrees = 6.12\n' >"$fake/tests/boots/new-boot.boot"
fake_check
tap_is "a boot for tree 6.12 in a 6.1 run: not booted, nothing else changes" "$(added "$tmp/calls.1" "$tmp/calls.3")" "|"
tap_is "a boot for tree 6.12 in a 6.1 run: one skip in the run's count" "$last" "$(wc -l <"$tmp/suites.1") passed, 0 failed, 1 skipped"
# (a tree other than 6.1 exists when it has a series: kernel-patches/VER/series)
mkdir -p "$fake/kernel-patches/6.12" && : >"$fake/kernel-patches/6.12/series"
fake_check KVARIANT=patched-6.12 CHECK_BOOTS=new-boot
tap_is "the same boot in a 6.12 run: booted" "$(grep -c '^scripts/boot.sh fake-new-boot ' "$tmp/calls.4")" 1
rm "$fake/tests/boots/new-boot.boot"

# both trees in one run (KTREE unset, two series): the main boot once per
# tree, each tree's summary in its own variant's run, the closing line the
# sum: per tree main's test stub, ran, audit, attest and verdicts (5)
fake_check CHECK_BOOTS=main
tap_is "two trees: the main boot booted once per tree" "$(grep -c '^scripts/boot.sh fake-main ' "$tmp/calls.5")" 2
tap_is "two trees: each tree's run has its own summary of main's 5 suites" \
	"$(grep -c 'passed' "$tmp/build/patched/check-fake/summary"),$(grep -c 'passed' "$tmp/build/patched-6.12/check-fake/summary")" "5,5"
tap_is "two trees: the closing line sums both runs" "$last" "10 passed, 0 failed"
fake_check KTREE=6.12 CHECK_BOOTS=main
tap_is "KTREE=6.12: only the 6.12 kernel is booted" \
	"$(grep -c '^scripts/boot.sh fake-main ' "$tmp/calls.6"),$last" "1,5 passed, 0 failed"
fake_check KTREE=5.10 CHECK_BOOTS=main
tap_like "KTREE naming a tree without a series: refused, naming the trees" "$(cat "$tmp/err.7")" \
	"error: kernel tree '5.10': the trees are 6.1 6.12"
rm -r "$fake/kernel-patches"

# --- 4. CHECK_BOOTS: names, rows, a driver by name, mistakes
fake_check CHECK_BOOTS='main kexec-cut'
tap_is "CHECK_BOOTS by name: exactly those boots, each with what its file says" \
	"$(cut -d' ' -f1,2 "$tmp/calls.$runs" | sed 's,/results/[^ ]*/,/,' | paste -sd';')" \
	"scripts/attest.sh fake-main;scripts/audit.sh fake-main;scripts/boot-ran.sh fake-kexec-cut;scripts/boot-ran.sh fake-main;scripts/boot.sh fake-kexec-cut;scripts/boot.sh fake-main;tests/host/boot/kexec-cut.sh fake-kexec-cut;tests/host/boot/verdicts.sh fake-main"
fake_check CHECK_BOOTS='main|10-*|quiet'
tap_is "CHECK_BOOTS row with a boot's name: the row's suites and command line, the file's nonce and checks" \
	"$(paste -sd';' "$tmp/calls.$runs")" \
	"scripts/attest.sh fake-main nonce;scripts/audit.sh fake-main;scripts/boot-ran.sh fake-main 10-*;scripts/boot.sh fake-main tests=10-* cmdline=quiet nonce=yes;tests/host/boot/verdicts.sh fake-main nonce"
fake_check CHECK_BOOTS='kexec-cut|98-*|ima_stack.policy=/etc/ima/other'
tap_is "CHECK_BOOTS row naming its own policy: that one, not the file's" \
	"$(grep '^scripts/boot.sh' "$tmp/calls.$runs")" \
	"scripts/boot.sh fake-kexec-cut tests=98-* cmdline=ima_stack.policy=/etc/ima/other nonce="
fake_check CHECK_BOOTS='one-off|10-*|'
tap_is "CHECK_BOOTS row with a new name: booted and audited, nothing more" "$(paste -sd';' "$tmp/calls.$runs")" \
	"scripts/audit.sh fake-one-off;scripts/boot-ran.sh fake-one-off 10-*;scripts/boot.sh fake-one-off tests=10-* cmdline= nonce="
fake_check CHECK_BOOTS=poll
tap_is "CHECK_BOOTS=poll: the driver boot alone, counted as its suite" \
	"$(paste -sd';' "$tmp/calls.$runs")|$(paste -sd' ' "$tmp/suites.$runs")" "scripts/attest-poll.sh fake-poll|attest/poll"
# stops NAME CHECK_BOOTS ERROR: the run with that CHECK_BOOTS boots nothing
# and stops with ERROR (a regex)
stops() {
	fake_check CHECK_BOOTS="$2"
	tap_like "$1" "$(cat "$tmp/calls.$runs")|$(grep -h error: "$tmp/err.$runs")" "^\|.*error: $3"
}
stops "CHECK_BOOTS naming no boot file: the run stops, naming it and the boots there are" 'main no-such' \
	"no boot 'no-such' .*; the boots are: ahash appraise-all "
stops "CHECK_BOOTS naming a boot twice: the run stops" 'main,main' "boot main is named twice in this run"
stops "CHECK_BOOTS naming '*': not a glob over the current directory, a bad name" '*' "boot name '\*'"
stops "CHECK_BOOTS row for a driver boot: the run stops" 'poll|10-*|' \
	"CHECK_BOOTS row 'poll\|10-\*\|': boot poll makes its own boot"

tap_done
