#!/usr/bin/env bash
# Host test: the audit as a page (ima-audit --html), checked in a real
# browser. Every fixture case of tools/ima-audit (golden, red-team, real
# guest runs: NAME.args beside NAME.expect, written by their generators)
# and a list whose names carry markup, script and newlines
# (html/hostile.py) are drawn as pages; Debian's headless chromium opens
# each (html/browser.py, the DevTools protocol on a pipe) and
# html/pagecheck.py reads the DOM: the verdict and the counts equal those
# of the --json report run apart, the failures built into a case are
# shown for their entries, search and filters find what was built, no
# name writes into the page, no console error, no network request. Then
# pages altered after the fact (a result, a PCR value, the script) must
# be caught: the checks can fail. Screenshots of a real guest run's page
# and of a forged list's go to build/html-report/.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/host/lib/host.sh"
here=$TOP/tests/host/html
chromium=${CHROMIUM:-/usr/bin/chromium}
shots=${BUILD:-$TOP/build}/html-report

[ -x "$chromium" ] || tap_bail "chromium not installed: run \`make deps\`"
command -v python3 >/dev/null || tap_bail "python3 not installed: run \`make deps\`"
make -s -C "$TOP/tools/ima-audit" >"$tmp/build.log" 2>&1 ||
	tap_bail "cannot build ima-audit: $(tail -n 3 "$tmp/build.log" | tr '\n' ' ')"
audit=$TOP/tools/ima-audit/build/ima-audit
mkdir -p "$shots" "$tmp/pages"

python3 "$here/hostile.py" "$tmp" || tap_bail "hostile.py failed"

# page DIR NAME: the case's page and, apart, its JSON report; both runs
# must exit as the case was built
cases=$tmp/cases
: >"$cases"
page() {
	local d=$1 n=$2 args want jrc=0 hrc=0 names=- shot=-
	args=$(cat "$d/$n.args")
	case " $args " in *" --show-policy "*) return 0 ;; esac
	want=$(sed -n 's/^exit //p' "$d/$n.expect")
	# a known limitation (a "todo" line): its built exit is what ought to be
	if grep -q '^todo ' "$d/$n.expect"; then
		tap_todo "$n: ima-audit --html exits as the case was built" \
			"$(sed -n 's/^todo //p' "$d/$n.expect")"
		return 0
	fi
	(cd "$d" && eval "set -- $args" && "$audit" --json --jobs 2 "$@" \
		>"$tmp/pages/$n.json" 2>"$tmp/pages/$n.err") || jrc=$?
	(cd "$d" && eval "set -- $args" && "$audit" --html "$tmp/pages/$n.html" \
		--jobs 2 "$@" >/dev/null 2>>"$tmp/pages/$n.err") || hrc=$?
	if [ "$jrc" != "$want" ] || [ "$hrc" != "$want" ]; then
		tap_fail "$n: ima-audit --html exits as the case was built" \
			"--json exit $jrc, --html exit $hrc, built for $want" "$(head -c 300 "$tmp/pages/$n.err")"
		return 0
	fi
	# no report (an input refused before any audit): the JSON object is
	# an error (a name in it cannot hold '"result":"error"': JSON escapes
	# its quotes), and no page; a report: a page
	if [ ! -s "$tmp/pages/$n.json" ] ||
		grep -q '"result":"error"' "$tmp/pages/$n.json"; then
		[ ! -e "$tmp/pages/$n.html" ] || tap_fail "$n: no report, no page" "a page was written"
		return 0
	fi
	[ -s "$tmp/pages/$n.html" ] || { tap_fail "$n: a page written" "no $tmp/pages/$n.html"; return 0; }
	[ "$want" -le 1 ] || return 0 # malformed: the JSON has no report to compare
	[ "$n" != hostile ] || names=$tmp/hostile.names.json
	case $n in
	real-quote) shot=demo-page.png ;;
	coverage-appended) shot=forged-page.png ;;
	hostile) shot=hostile-page.png ;;
	esac
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$tmp/pages/$n.html" "$tmp/pages/$n.json" \
		"$d/$n.expect" "$names" "$shot" >>"$cases"
}
page "$tmp" hostile
for d in golden redteam real; do
	for a in "$TOP/tools/ima-audit/tests/$d"/*.args; do
		n=$(basename "$a" .args)
		[ -f "${a%.args}.expect" ] && page "$(dirname "$a")" "$n"
	done
done

# ima-attest verify --html: no AK enrolled (a record that says so, with
# markup in its reason), the seabios firmware log, two polling rounds
# recorded with markup in a line; what the page must show is what verify
# prints and what was built here
make -s -C "$TOP/tools/ima-attest" >"$tmp/build-attest.log" 2>&1 ||
	tap_bail "cannot build ima-attest: $(tail -n 3 "$tmp/build-attest.log" | tr '\n' ' ')"
att=$tmp/attest
mkdir -p "$att/enrolled"
# an enrollment record (tools/ima-attest/README.md) that refuses, markup in
# its reason
printf '%s\n' 'ima-attest enrollment 1' 'boot: b-1' \
	"manufacturer-ca-sha256: $(printf 'ca' | sha256sum | cut -d' ' -f1)" \
	"ek-certificate-sha256: $(printf 'ek' | sha256sum | cut -d' ' -f1)" \
	"ek-name: 000b$(printf 'ekpub' | sha256sum | cut -d' ' -f1)" 'ak-name: -' \
	'tpm-identity: proven' 'ak-binding: refused' 'result: refused' \
	'reason: <img src=x onerror=window.__pwned=1> not activated' >"$att/enrolled/verdict"
printf '%s\n' '{"name":"r1","pass":true,"verified":12,"uncovered":0,"next_entry":12,"lines":["round 1: PASS"]}' \
	'{"name":"a-<b>x</b>","pass":false,"verified":null,"uncovered":null,"next_entry":null,"lines":["reason: </script><script>window.__pwned=2</script>"]}' \
	>"$att/rounds.jsonl"
: >"$att/empty"
run_rc "$TOP/tools/ima-attest/build/ima-attest" verify --enrolled "$att/enrolled" --quote "$att/empty" \
	--quote-sig "$att/empty" --quote-pcrs "$att/empty" --nonce 0102 \
	--eventlog "$TOP/tools/ima-attest/tests/data/seabios-q35.evlog" \
	--html "$att/attest.html" --rounds "$att/rounds.jsonl"
tap_is "ima-attest verify --html: exit 1 (no AK enrolled)" "$rc" 1
python3 - "$att/want.json" <<PY
import json, sys
out = """$out"""
json.dump({"result": "FAIL",
           "reasons": [l[8:] for l in out.splitlines() if l.startswith("reason: ")],
           "enrollment": [["TPM identity", "PASS: EK certificate chains to the manufacturer CA and certifies an EK, EK public key matches it"],
                          ["AK binding", "FAIL"],
                          ["reason", "<img src=x onerror=window.__pwned=1> not activated"],
                          ["boot", "b-1"]],
           "rounds": [["r1", "PASS", "round 1: PASS"],
                      ["a-<b>x</b>", "FAIL", "reason: </script><script>window.__pwned=2</script>"]]},
          open(sys.argv[1], "w"))
PY
printf 'attest\t%s\t%s\t-\t-\tattest-page.png\n' "$att/attest.html" "$att/want.json" >>"$cases"

# checks TAB-LINES: pagecheck.py's lines as TAP
checks() {
	local st name why
	while IFS=$'\t' read -r st name why; do
		case $st in
		ok) tap_ok "$name" ;;
		"not ok") tap_fail "$name" "$why" ;;
		bail) tap_bail "$name" ;;
		esac
	done <"$1"
}
python3 "$here/pagecheck.py" "$cases" "$shots" >"$tmp/checks" 2>"$tmp/checks.err" ||
	tap_fail "pagecheck.py ran to its end" "$(tail -n 5 "$tmp/checks.err")"
checks "$tmp/checks"
grep -q . "$tmp/checks" || tap_fail "pagecheck.py checked something" "$(tail -n 5 "$tmp/checks.err")"
for s in demo-page forged-page hostile-page attest-page; do
	tap_like "screenshot $s.png kept for a reader" "$(file -b "$shots/$s.png" 2>&1)" '^PNG image data'
done

# The checks can fail: pages altered after ima-audit wrote them, each
# against the unaltered JSON, must be caught by the named check.
# alter NAME FROM TO: hostile's page with the first FROM replaced by TO
alter() {
	python3 - "$tmp/pages/hostile.html" "$tmp/pages/$1.html" "$2" "$3" <<'PY'
import sys
src, dst, a, b = sys.argv[1:]
page = open(src, encoding="utf-8").read()
assert a in page, "no %r in the page" % a
open(dst, "w", encoding="utf-8").write(page.replace(a, b, 1))
PY
	printf '%s\t%s\t%s\t-\t-\t-\n' "$1" "$tmp/pages/$1.html" "$tmp/pages/hostile.json" >>"$tmp/altered"
}
if [ ! -s "$tmp/pages/hostile.html" ] || [ ! -s "$tmp/pages/hostile.json" ]; then
	tap_fail "altered pages: no page of the hostile list to alter"
	tap_done
fi
: >"$tmp/altered"
alter altered-result '"result":"fail"' '"result":"pass"'
alter altered-count '"failure_count":2' '"failure_count":1'
pcr=$(python3 -c 'import json,sys; print([p for p in json.load(open(sys.argv[1]))["pcrs"] if p["bank"]=="sha256"][0]["computed"])' "$tmp/pages/hostile.json")
other=$(tr 0-9a-f 1-9a-f0 <<<"$pcr") # every digit another
alter altered-pcr "\"computed\":\"$pcr\"" "\"computed\":\"$other\""
alter altered-script 'performance.mark(' 'performance.measure('
python3 "$here/pagecheck.py" "$tmp/altered" >"$tmp/altered.out" 2>&1 || true
caught() {
	if grep -qF "not ok	$1: $2" "$tmp/altered.out"; then
		tap_ok "an altered page is caught: $1 ($2)"
	else
		tap_fail "an altered page is caught: $1" "no failing check '$2':" "$(cat "$tmp/altered.out")"
	fi
}
caught altered-result "verdict FAIL as the JSON's result"
caught altered-count "failure count 2"
caught altered-pcr "PCR table: every bank's status and replayed value"
# the script no longer has the hash the CSP allows: it never runs
caught altered-script "the page is drawn"
caught altered-script "no console errors or warnings"

# a page that cannot be written: exit 2, no page, no temporary file left
run_rc "$audit" --pcrs "$tmp/hostile.pcrs" --html "$tmp/no-such-dir/p.html" "$tmp/hostile.bin"
tap_is "an unwritable page: exit 1 kept (the list fails)" "$rc" 1
g=$TOP/tools/ima-audit/tests/golden
run_rc "$audit" --pcrs "$g/ima-ng-pass.pcrs" --html "$tmp/no-such-dir/p.html" "$g/ima-ng-pass.bin"
tap_is "an unwritable page, the list passes: exit 2" "$rc" 2
tap_like "an unwritable page: named on stderr" "$out" "no-such-dir/p.html: cannot write the page: No such file or directory"
if ls "$tmp"/no-such-dir "$tmp"/pages/*.tmp-* >/dev/null 2>&1; then
	tap_fail "no temporary page left" "$(ls "$tmp"/pages/*.tmp-*)"
else
	tap_ok "no temporary page left"
fi
tap_done
