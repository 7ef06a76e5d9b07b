#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Run every check of ima-attest and print TAP: cmocka unit tests (ASan/UBSan,
# renumbered), the sanitizer build of the command on the real firmware log
# fixture against tpm2_eventlog's replay of it, and a short libFuzzer pass
# per fuzz target. Ends with "N passed, M failed"; exits 1 on any failure.
#   run-check.sh BUILD_DIR
set -u
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
n=0
pass=0
fail=0
todo=0

ok() {
	n=$((n + 1))
	pass=$((pass + 1))
	echo "ok $n - $1"
}

# the runners' TAP relayed (shared with ima-audit's run-check.sh)
# shellcheck source-path=SCRIPTDIR source=../../ima-audit/tests/relay.sh
. "$here/../ima-audit/tests/relay.sh"

not_ok() {
	n=$((n + 1))
	fail=$((fail + 1))
	echo "not ok $n - $1"
	[ -n "${2:-}" ] && echo "# $2"
}

# a known limitation (relay): neither a pass nor a failure of the suite
todo_line() {
	n=$((n + 1))
	todo=$((todo + 1))
	echo "not ok $n - $1"
}

echo "TAP version 13"
for t in "$B"/asan/test_*; do
	[ -x "$t" ] || continue
	case $t in *.o | *.d) continue ;; esac
	name=$(basename "$t")
	out=$B/$name.tap
	CMOCKA_MESSAGE_OUTPUT=TAP "$t" >"$out" 2>"$out.err"
	rc=$?
	seen=0
	before=$fail
	while IFS= read -r line; do
		case $line in
		"ok "*) seen=$((seen + 1)); ok "$name: ${line#* - }" ;;
		"not ok "*) seen=$((seen + 1)); not_ok "$name: ${line#* - }" ;;
		"#"*) echo "$line" ;;
		esac
	done <"$out"
	if [ $seen = 0 ] || { [ $rc != 0 ] && [ $fail = $before ]; }; then
		not_ok "$name exited $rc" "$(tail -n 5 "$out.err" | tr '\n' ' ')"
	fi
done

# the command (sanitizer build) on the real log: tpm2_eventlog's values
got=$("$B/asan/ima-attest" eventlog "$here/tests/data/seabios-q35.evlog" 2>/dev/null | sort)
if [ "$got" = "$(sort "$here/tests/data/seabios-q35.pcrs")" ]; then
	ok "ima-attest eventlog (ASan/UBSan) on the SeaBIOS log: the values tpm2_eventlog replayed"
else
	not_ok "ima-attest eventlog on the SeaBIOS log" "$(echo "$got" | head -n 3 | tr '\n' ' ')"
fi
# firmware logs from public test suites against what their sources ship
# (tests/public/SOURCES; written by ../ima-audit/gen/mkpublic.py)
"${PYTHON:-python3}" "$here/tests/run-public.py" "$B/asan/ima-attest" \
	"$here/tests/public" >"$B/public.out" 2>&1
relay "$B/public.out" public
rc=0
"$B/asan/ima-attest" eventlog /dev/null >/dev/null 2>&1 || rc=$?
if [ $rc = 1 ]; then ok "ima-attest eventlog on an empty log: exit 1"; else not_ok "ima-attest eventlog on an empty log" "exit $rc, want 1"; fi

set -- "$B"/fuzz/fuzz_*
targets=0
for f in "$@"; do
	case $f in *.o | *.d) continue ;; esac
	[ -x "$f" ] && targets=$((targets + 1))
done
if [ $targets -gt 0 ]; then
	secs=$(( ${FUZZ_SECONDS:-15} / targets ))
	[ $secs -lt 3 ] && secs=3
	for f in "$@"; do
		case $f in *.o | *.d) continue ;; esac
		[ -x "$f" ] || continue
		name=$(basename "$f")
		corpus=$B/corpus-$name
		mkdir -p "$corpus"
		if "$f" -max_total_time=$secs -timeout=10 -rss_limit_mb=1024 \
			-print_final_stats=1 "$corpus" "$here/tests/corpus" "$here/tests/public" \
			>"$B/$name.log" 2>&1; then
			runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$B/$name.log")
			ok "fuzz $name (${secs}s, ${runs:-?} runs)"
		else
			not_ok "fuzz $name" "see $B/$name.log: $(grep -m1 -E 'ERROR|SUMMARY' "$B/$name.log")"
		fi
	done
fi

echo "1..$n"
if [ $todo -gt 0 ]; then
	echo "$pass passed, $fail failed, $todo TODO"
else
	echo "$pass passed, $fail failed"
fi
[ $fail = 0 ]
