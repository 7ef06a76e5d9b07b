#!/usr/bin/env bash
# Host tests of scripts/redgreen.sh, the red/green table of the series: every
# cell comes from the runs' summaries and TAP, a suite the table names but
# the patched run lacks stops it, a boot that did not finish is shown as
# such. The runs here are files made by this test; the expected cells follow
# from how they were made.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/host/lib/host.sh"
rg=$TOP/scripts/redgreen.sh

# sumline NAME P F S T: a summary line as check.sh's tally prints it
sumline() { printf '# %-34s %3d passed, %d failed, %d skipped, %d todo\n' "$@"; }
# row PATCHES: the table row of those patches
row() { grep -F "| $1 |" <<<"$out" | head -n 1; }

P=$tmp/patched/check-check O=$tmp/pristine/check-pristine
mkdir -p "$P" "$O" "$tmp/pristine/results/pristine-b1/tap" "$tmp/pristine/results/pristine-b4/tap"
{
	sumline guest/b1/10-a 5 0 0 0
	sumline guest/b2/20-b 3 0 0 1
	sumline guest/b3/30-c 2 0 0 0
	sumline guest/b4/40-d 1 0 0 0
	sumline audit/b1 11 0 0 0
	sumline audit/b2 11 0 0 0
} >"$P/summary"
{
	sumline guest/b1/10-a 3 2 0 0
	sumline guest/boot-b3 0 1 0 0
	sumline guest/b4/40-d 0 1 0 0
	sumline audit/b1 10 1 0 0
	sumline audit/b2 11 0 0 0
} >"$O/summary"
cat >"$tmp/pristine/results/pristine-b1/tap/10-a.tap" <<'T'
ok 1 - first
not ok 2 - the FIFO path is refused at once
# a diagnostic
not ok 3 - the device node is not opened
not ok 4 - a known gap # TODO not fixed
ok 5 - last
1..5
T
printf 'not ok 1 - b3 boot: kernel oops: BUG: unable to handle page fault (console tail above; full log /x/console-b3)\n1..1\n' >"$O/boot-b3.tap"
# 108 characters: cut to the last whole word within 90
printf "not ok 1 - the first kernel's list (just before kexec -e) is a byte prefix of the second kernel's list, entry for entry\n1..1\n" \
	>"$tmp/pristine/results/pristine-b4/tap/40-d.tap"
printf 'ok 1 - x\nnot ok 2 - no recorded policy\n1..2\n' >"$O/audit-b1.tap"
printf 'date 2026-12-03 10:00 UTC\ncommit abc1234\ntotal 32 passed, 0 failed, 0 skipped, 1 TODO, in 1m00s\n' >"$P/meta"
cat >"$tmp/evidence" <<'E'
# a comment
0001|guest/b1/10-a|loader types
0002|guest/b2/20-b|with a todo
0003|guest/b3/30-c|crashes unfixed
0004|audit/*|audits
0006|guest/b4/40-d|long
E
export REDGREEN_EVIDENCE=$tmp/evidence

run_rc bash "$rg" "$P" "$O"
tap_is "a complete evidence file: exit 0" "$rc" 0
tap_is "a red suite: its counts and its first two failed checks, from its TAP" "$(row 0001)" \
	"| 0001 | loader types | \`guest/b1/10-a\` | 5 passed | 3 passed, 2 failed: the FIFO path is refused at once; the device node is not opened |"
tap_is "a TODO is counted as a TODO, never as a pass; not run where a run lacks the suite" "$(row 0002)" \
	"| 0002 | with a todo | \`guest/b2/20-b\` | 3 passed, 1 TODO | not run |"
tap_is "a boot that did not finish: its reason, not 'not run', without the console pointer" "$(row 0003)" \
	"| 0003 | crashes unfixed | \`guest/b3/30-c\` | 2 passed | boot \`b3\` failed: kernel oops: BUG: unable to handle page fault |"
tap_is "a glob sums its suites and names the failures of each" "$(row 0004)" \
	"| 0004 | audits | \`audit/*\` | 22 passed (2 suites) | 21 passed, 1 failed (2 suites): no recorded policy |"
tap_is "a long failure: cut at a word, marked ..." "$(row 0006)" \
	"| 0006 | long | \`guest/b4/40-d\` | 1 passed | 0 passed, 1 failed: the first kernel's list (just before kexec -e) is a byte prefix of the second kernel's... |"
tap_like "the header names each run's date, commit and totals, or says they were not recorded" \
	"$(sed -n 2,3p <<<"$out" | paste -sd'|')" \
	'2026-12-03 10:00 UTC, commit abc1234: 32 passed.*\|.*date not recorded, commit not recorded'

# a run of the previous series: a column between the two, only its boots
V=$tmp/series-check/check-previous
mkdir -p "$V" "$tmp/series-check/results/previous-b1/tap"
sumline guest/b1/10-a 4 1 0 0 >"$V/summary"
printf 'ok 1 - first\nnot ok 2 - the renamed FIFO is opened\nok 3 - x\nok 4 - y\nok 5 - z\n1..5\n' \
	>"$tmp/series-check/results/previous-b1/tap/10-a.tap"
printf 'kernel the series-check tree, 16 patches (old/series; tree key 0123)\n' >"$V/meta"
run_rc env REDGREEN_PREVIOUS="$V" bash "$rg" "$P" "$O"
tap_is "the previous series' column: its counts and failures, between the two" "$(row 0001)" \
	"| 0001 | loader types | \`guest/b1/10-a\` | 5 passed | 4 passed, 1 failed: the renamed FIFO is opened | 3 passed, 2 failed: the FIFO path is refused at once; the device node is not opened |"
tap_is "... 'not run' for a boot its run did not have" "$(row 0003)" \
	"| 0003 | crashes unfixed | \`guest/b3/30-c\` | 2 passed | not run | boot \`b3\` failed: kernel oops: BUG: unable to handle page fault |"
tap_like "... and the header says which kernel it booted" "$out" 'previous version of the series \(the same tests; the series-check tree, 16 patches \(old/series'
run_rc env REDGREEN_PREVIOUS="$tmp/nothing-here" bash "$rg" "$P" "$O"
tap_like "REDGREEN_PREVIOUS without a summary: exit 1" "$rc $out" '^1 .*no summary in REDGREEN_PREVIOUS'

# a suite renamed or dropped from the patched run must not vanish
echo '0005|guest/b1/11-renamed|renamed' >>"$tmp/evidence"
run_rc bash "$rg" "$P" "$O"
tap_is "a row whose suite the patched run lacks: exit 1" "$rc" 1
tap_like "... and it says which" "$out" "no suite of the patched run matches 'guest/b1/11-renamed'"
printf 'intro\n<!-- redgreen:begin -->\nold\n<!-- redgreen:end -->\nafter\n' >"$tmp/README.md"
printf 'cover\n[redgreen:begin]\nold\n[redgreen:end]\nend\n' >"$tmp/cover"
cp "$tmp/README.md" "$tmp/README.orig"
run_rc env REDGREEN_README="$tmp/README.md" REDGREEN_COVER="$tmp/cover" bash "$rg" --write "$P" "$O"
cmp -s "$tmp/README.md" "$tmp/README.orig" && same=unchanged || same=changed
tap_is "--write with a missing suite: exit 1, README unchanged" "$rc $same" "1 unchanged"

sed -i '$d' "$tmp/evidence"
run_rc env REDGREEN_README="$tmp/README.md" REDGREEN_COVER="$tmp/cover" bash "$rg" --write "$P" "$O"
tap_is "--write: exit 0" "$rc" 0
tap_is "--write replaces only what lies between README's markers" \
	"$(sed -n '1p;2p;$p' "$tmp/README.md" | paste -sd'|')" 'intro|<!-- redgreen:begin -->|after'
tap_like "... with the table" "$(cat "$tmp/README.md")" '\| 0001 \| loader types .*\| 3 passed, 2 failed'
tap_is "... and the cover letter's, the table the same" \
	"$(sed -n '/^\[redgreen:begin\]$/,/^\[redgreen:end\]$/p' "$tmp/cover" | sed '1d;$d')" \
	"$(sed -n '/^<!-- redgreen:begin -->$/,/^<!-- redgreen:end -->$/p' "$tmp/README.md" | sed '1d;$d')"
printf 'no markers\n' >"$tmp/bad"
run_rc env REDGREEN_README="$tmp/bad" REDGREEN_COVER="$tmp/cover" bash "$rg" --write "$P" "$O"
tap_like "a file without the markers is refused, exit 1" "$rc $out" '^1 .*lacks the marker lines'
rm "$O/summary"
run_rc bash "$rg" "$P" "$O"
tap_like "a run without a summary: exit 1, and what to run" "$rc $out" '^1 .*no summary in .*make check-pristine'
tap_done
