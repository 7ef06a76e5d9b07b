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
# ok, not_ok, todo_line, relay, unit_tests, fuzz, tap_end (shared with
# ima-audit's run-check.sh)
# shellcheck source-path=SCRIPTDIR source=../../ima-audit/tests/tap-check.sh
. "$here/../ima-audit/tests/tap-check.sh"

echo "TAP version 13"
unit_tests "$B"/asan/test_*

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

fuzz "${FUZZ_SECONDS:-15}" "$here/tests/corpus" "$here/tests/public"

tap_end
