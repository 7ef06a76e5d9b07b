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
log=$B/check.log
: >"$log"

# ok, not_ok, todo_line, relay, unit_tests, fuzz, tap_end
# shellcheck source-path=SCRIPTDIR source=tap-check.sh
. "$here/tests/tap-check.sh"

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
unit_tests "$B"/asan/test_* "$B"/tsan/test_*

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
fuzz "${FUZZ_SECONDS:-20}" "$B/fuzz-corpus"

tap_end
