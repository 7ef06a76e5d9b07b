# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# The TAP of the tools' run-check.sh (ima-audit's and ../ima-attest's),
# which source this after setting B, their build directory. Every result
# is numbered here and counted in pass, fail, skip and todo:
#
#   ok NAME              a pass ("... # SKIP REASON" in NAME: a skip)
#   not_ok NAME [DIAG]   a failure, DIAG on a "#" line after it
#   todo_line NAME       "not ok ... # TODO": a known limitation, neither
#   relay FILE LABEL     a runner's "ok - NAME" / "not ok - NAME" lines and
#                        "#" comments (tests/run-cases.py, run-forms.py,
#                        ../ima-attest's run-public.py), each one of ours
#   unit_tests BIN...    cmocka binaries, their TAP renumbered
#   fuzz SECONDS DIR...  a libFuzzer pass over every $B/fuzz/fuzz_* target
#   tap_end              the plan and "N passed, M failed"; false on a
#                        failure (the script's exit status)
n=0
pass=0
fail=0
skip=0
todo=0

ok() {
	n=$((n + 1))
	case $1 in
	*" # SKIP "*) skip=$((skip + 1)) ;;
	*) pass=$((pass + 1)) ;;
	esac
	echo "ok $n - $1"
}

not_ok() {
	n=$((n + 1))
	fail=$((fail + 1))
	echo "not ok $n - $1"
	[ -n "${2:-}" ] && echo "# $2"
}

todo_line() {
	n=$((n + 1))
	todo=$((todo + 1))
	echo "not ok $n - $1"
}

# A runner that printed no result line fails, as LABEL, with the end of
# FILE.
relay() {
	seen=0
	while IFS= read -r line; do
		case $line in
		"ok - "*) seen=$((seen + 1)); ok "${line#ok - }" ;;
		"not ok - "*"# TODO "*) seen=$((seen + 1)); todo_line "${line#not ok - }" ;;
		"not ok - "*) seen=$((seen + 1)); not_ok "${line#not ok - }" ;;
		"#"*) echo "$line" ;;
		esac
	done <"$1"
	[ $seen -gt 0 ] || not_ok "$2: no case ran" "$(tail -n 3 "$1")"
}

# Each result "BIN: TEST" (a $B/tsan/ binary's BIN is tsan:BIN); its
# stderr also goes to $log when set. A binary that printed no result, or
# exited non-zero with no failure among them, fails.
unit_tests() {
	for t in "$@"; do
		case $t in *.o | *.d) continue ;; esac
		[ -x "$t" ] || continue
		name=$(basename "$t")
		case $t in "$B"/tsan/*) name=tsan:$name ;; esac
		out=$B/$name.tap
		TSAN_OPTIONS="halt_on_error=1 exitcode=66" CMOCKA_MESSAGE_OUTPUT=TAP "$t" \
			>"$out" 2>"$out.err"
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
		[ -z "${log:-}" ] || cat "$out.err" >>"$log"
		if [ $seen = 0 ] || { [ $rc != 0 ] && [ $fail = $before ]; }; then
			not_ok "$name exited $rc" "$(tail -n 5 "$out.err" | tr '\n' ' ')"
		fi
	done
}

# SECONDS shared among the targets (3 each at least); each runs from its
# own corpus ($B/corpus-NAME, kept between runs) and the seeds in DIR...
fuzz() {
	total=$1
	shift
	targets=0
	for f in "$B"/fuzz/fuzz_*; do
		[ -x "$f" ] && targets=$((targets + 1))
	done
	[ $targets -gt 0 ] || return 0
	secs=$((total / targets))
	[ $secs -lt 3 ] && secs=3
	for f in "$B"/fuzz/fuzz_*; do
		[ -x "$f" ] || continue
		name=$(basename "$f")
		corpus=$B/corpus-$name
		mkdir -p "$corpus"
		if "$f" -max_total_time=$secs -timeout=10 -rss_limit_mb=1024 \
			-print_final_stats=1 "$corpus" "$@" >"$B/$name.log" 2>&1; then
			runs=$(sed -n 's/^stat::number_of_executed_units: *//p' \
				"$B/$name.log")
			ok "fuzz $name (${secs}s, ${runs:-?} runs)"
		else
			not_ok "fuzz $name" "see $B/$name.log: $(grep -m1 -E 'ERROR|SUMMARY' "$B/$name.log")"
		fi
	done
}

tap_end() {
	echo "1..$n"
	if [ $todo -gt 0 ]; then
		echo "# $todo known limitation(s), reported as not ok # TODO (neither passed nor failed)"
	fi
	if [ $skip -gt 0 ] || [ $todo -gt 0 ]; then
		echo "$pass passed, $fail failed, $skip skipped, $todo TODO"
	else
		echo "$pass passed, $fail failed"
	fi
	[ $fail = 0 ]
}
