#!/usr/bin/env bash
# Host tests of scripts/measurements.sh (make measurements): the row of a
# run comes from the meta and times files check.sh wrote for it; a run
# already in the file is not added twice; a run without its records stops
# it. The runs here are files made by this test, and the expected rows
# follow from what was written into them.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/host/lib/host.sh"
m=$TOP/scripts/measurements.sh

a=$tmp/build/patched/check-check b=$tmp/build/pristine/check-pristine
mkdir -p "$a" "$b"
printf 'date 2026-12-05 10:00 UTC\ncommit abc1234 (at the run'"'"'s start)\ntotal 10 passed, 0 failed, 0 skipped, 0 TODO, in 9m05s\n' >"$a/meta"
printf '%s\n' 'keys 0s' 'kernel-build 3s' 'rootfs(beside) 40s' 'sign 21s' 'image 1s' 'host/ima-audit 130s' \
	'host/lint 45s' 'boot-main 75s' 'boot-kexec 170s' 'attest/poll 50s' >"$a/times"
printf 'date 2026-12-05 09:00 UTC\ncommit def5678 (at the run'"'"'s start)\ntotal 5 passed, 2 failed, 0 skipped, 0 TODO, in 3m00s\n' >"$b/meta"
printf '%s\n' 'boot-main 80s' 'boot-parser 20s' >"$b/times"
doc=$tmp/doc.md
printf '# M\n\nbefore\n<!-- runs:begin -->\n<!-- runs:end -->\nafter\n' >"$doc"
export MEASUREMENTS_DOC=$doc BUILD=$tmp/build

want_a='| 2026-12-05 10:00 UTC | abc1234 | check (patched) | 10 passed, 0 failed, 0 skipped, 0 TODO | 9m05s | 3 s | 21 s | 2 min 55 s (2) | 4 min 55 s (3) | kexec 2 min 50 s |'
want_b='| 2026-12-05 09:00 UTC | def5678 | pristine (pristine) | 5 passed, 2 failed, 0 skipped, 0 TODO | 3m00s | - | - | - | 1 min 40 s (2) | main 1 min 20 s |'
run_rc bash "$m" "$a"
tap_is "a run's row: its date, commit, result and wall time, the stages, host suites and boots summed" "$rc|$out" "0|$want_a"
run_rc bash "$m" --write
tap_is "--write: every run of build/, oldest first, between the markers, the rest of the file kept" \
	"$rc|$(sed -n '/^| 2026/p; /^before$/p; /^after$/p' "$doc" | paste -sd'~')" "0|before~$want_b~$want_a~after"
tap_is "--write: one table header" "$(grep -c '^| date | commit |' "$doc")" 1
run_rc bash "$m" --write
tap_is "--write again: a run already in the file is not added twice" "$rc|$(grep -c '^| 2026' "$doc")" "0|2"
sed -i 's/| 9m05s |/| 9m05s (edited) |/' "$doc"
run_rc bash "$m" --write "$a"
tap_is "--write: a run already in the file keeps its row as it is" "$(grep -c '9m05s (edited)' "$doc")/$(grep -c '^| 2026' "$doc")" 1/2
sed -i '/^total /d' "$b/meta"
run_rc bash "$m" "$b"
tap_like "a run whose meta lacks its total: refused, naming the file" "$rc|$out" "^1\|.*error: $b/meta lacks date, commit or total"
printf '# no markers\n' >"$doc"
run_rc bash "$m" --write "$a"
tap_like "a file without the markers: refused" "$rc|$out" "^1\|.*error: $doc lacks the marker lines"
tap_done
