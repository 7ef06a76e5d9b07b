#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Run every check and print TAP: cmocka unit tests (renumbered), golden
# tests (tests/golden/NAME.args -> NAME.json + NAME.exit) and a short
# libFuzzer pass. Ends with "N passed, M failed"; exits 1 on any failure.
#
#   run-check.sh BUILD_DIR            run everything
#   run-check.sh --regen BUILD_DIR    rewrite tests/golden/*.json and *.exit
set -u

regen=0
if [ "${1:-}" = "--regen" ]; then
	regen=1
	shift
fi
B=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
golden=$here/tests/golden
n=0
pass=0
fail=0
skip=0
todo=0
log=$B/check.log
: >"$log"

# a "# SKIP reason" in the name is a skip, counted apart from passes
ok() {
	n=$((n + 1))
	case $1 in
	*" # SKIP "*) skip=$((skip + 1)) ;;
	*) pass=$((pass + 1)) ;;
	esac
	echo "ok $n - $1"
}

# shellcheck source-path=SCRIPTDIR source=relay.sh
. "$here/tests/relay.sh"

# a known limitation: "not ok N - NAME # TODO REASON" (relay), neither a
# pass nor a failure of the suite
todo_line() {
	n=$((n + 1))
	todo=$((todo + 1))
	echo "not ok $n - $1"
}

not_ok() {
	n=$((n + 1))
	fail=$((fail + 1))
	echo "not ok $n - $1"
	[ -n "${2:-}" ] && echo "# $2"
}

# Golden snapshots (a format check only; the verdict is checked by the
# intent-based cases below): run from tests/golden so that arguments stay
# relative.
run_golden() {
	bin=$1
	for args in "$golden"/*.args; do
		[ -e "$args" ] || continue
		name=$(basename "$args" .args)
		out=$B/golden-$name.out
		(cd "$golden" && eval "set -- $(cat "$args")" &&
			"$bin" --json --jobs 2 "$@" >"$out" 2>"$out.err")
		rc=$?
		if [ $regen = 1 ]; then
			cp "$out" "$golden/$name.json"
			echo $rc >"$golden/$name.exit"
			echo "regenerated $name (exit $rc)"
			continue
		fi
		want=$(cat "$golden/$name.exit" 2>/dev/null)
		if [ "$rc" != "$want" ]; then
			not_ok "golden $name" "exit $rc, expected $want: $(head -c 300 "$out.err")"
		elif ! cmp -s "$out" "$golden/$name.json"; then
			not_ok "golden $name" "output differs: diff $out $golden/$name.json"
			diff "$golden/$name.json" "$out" >>"$log" 2>&1
		else
			ok "golden $name"
		fi
	done
}

if [ $regen = 1 ]; then
	run_golden "$B/ima-audit"
	exit 0
fi

echo "TAP version 13"

# Unit tests: cmocka prints TAP with its own numbering; renumber. Each runs
# under ASan/UBSan, then under ThreadSanitizer (tsan: prefix).
for t in "$B"/asan/test_* "$B"/tsan/test_*; do
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
		"ok "*)
			seen=$((seen + 1))
			ok "$name: ${line#* - }"
			;;
		"not ok "*)
			seen=$((seen + 1))
			not_ok "$name: ${line#* - }"
			;;
		"#"*)
			echo "$line"
			;;
		esac
	done <"$out"
	cat "$out.err" >>"$log"
	if [ $seen = 0 ] || { [ $rc != 0 ] && [ $fail = $before ]; }; then
		not_ok "$name exited $rc" "$(tail -n 5 "$out.err")"
	fi
done

run_golden "$B/asan/ima-audit"

# --version says include/ima_version.h's version, as text or (--json) as
# one JSON object
want=$(sed -n 's/^#define IMA_AUDIT_VERSION "\(.*\)"$/\1/p' \
	"$here/include/ima_version.h")
got=$("$B/asan/ima-audit" --version 2>&1)
if [ -n "$want" ] && [ "$got" = "ima-audit $want" ]; then
	ok "--version: ima-audit $want"
else
	not_ok "--version" "got '$got', want 'ima-audit $want'"
fi
got=$("$B/asan/ima-audit" --json --version 2>&1)
if [ "$got" = "{\"tool\":\"ima-audit\",\"version\":\"$want\"}" ]; then
	ok "--json --version: one JSON object"
else
	not_ok "--json --version" "got '$got'"
fi

# Intent-based cases: expectations written by the generators from how each
# case was built (tests/run-cases.py). A runner that cannot start fails.
run_cases() {
	dir=$1
	label=$2
	bin=${3:-$B/asan/ima-audit}
	TSAN_OPTIONS="halt_on_error=1 exitcode=66" \
		"${PYTHON:-python3}" "$here/tests/run-cases.py" "$bin" \
		"$dir" "$label " >"$B/cases.out" 2>&1
	relay "$B/cases.out" "$label"
}
run_cases "$here/tests/golden" golden-intent
run_cases "$here/tests/redteam" redteam
run_cases "$here/tests/real" real
run_cases "$here/tests/public" public
run_cases "$here/tests/listkeys" listkeys
run_cases "$here/tests/deny" deny
run_cases "$here/tests/reference" reference
run_cases "$here/tests/command" command
# Every case's list rendered as the kernel's ASCII and per-bank lists
# (gen/imaforms.py): the same exit status and report as the binary list.
"${PYTHON:-python3}" "$here/tests/run-forms.py" "$B/asan/ima-audit" \
	"$B/forms" "$here/tests/golden" "$here/tests/redteam" \
	"$here/tests/real" >"$B/forms.out" 2>&1
relay "$B/forms.out" forms
# --write-keylime: the policy holds exactly what the audit proved, and
# reads back (tests/run-write.py builds its lists)
"${PYTHON:-python3}" "$here/tests/run-write.py" "$B/asan/ima-audit" \
	"$B/write" >"$B/write.out" 2>&1
relay "$B/write.out" write
run_cases "$here/tests/golden" tsan:golden-intent "$B/tsan/ima-audit"
run_cases "$here/tests/redteam" tsan:redteam "$B/tsan/ima-audit"
run_cases "$here/tests/real" tsan:real "$B/tsan/ima-audit"
run_cases "$here/tests/public" tsan:public "$B/tsan/ima-audit"
run_cases "$here/tests/listkeys" tsan:listkeys "$B/tsan/ima-audit"
run_cases "$here/tests/deny" tsan:deny "$B/tsan/ima-audit"
run_cases "$here/tests/reference" tsan:reference "$B/tsan/ima-audit"
run_cases "$here/tests/command" tsan:command "$B/tsan/ima-audit"

# Fuzz pass: FUZZ_SECONDS shared among the targets.
set -- "$B"/fuzz/fuzz_*
targets=0
for f in "$@"; do [ -x "$f" ] && targets=$((targets + 1)); done
if [ $targets -gt 0 ]; then
	secs=$(( ${FUZZ_SECONDS:-20} / targets ))
	[ $secs -lt 3 ] && secs=3
	for f in "$@"; do
		[ -x "$f" ] || continue
		name=$(basename "$f")
		corpus=$B/corpus-$name
		mkdir -p "$corpus"
		if "$f" -max_total_time=$secs -timeout=10 -rss_limit_mb=1024 \
			-print_final_stats=1 "$corpus" "$B/fuzz-corpus" \
			>"$B/$name.log" 2>&1; then
			runs=$(sed -n 's/^stat::number_of_executed_units: *//p' \
				"$B/$name.log")
			ok "fuzz $name (${secs}s, ${runs:-?} runs)"
		else
			not_ok "fuzz $name" "see $B/$name.log: $(grep -m1 -E 'ERROR|SUMMARY' "$B/$name.log")"
		fi
	done
fi

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
