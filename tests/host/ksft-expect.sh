#!/usr/bin/env bash
# Host test of tests/lib/ksft.sh, the reader of 95-kselftests.expect: fake
# kselftest scripts, each built to behave one known way, against an
# expectations file; every verdict below follows from how the script was
# written. The kernel log is a file here (the host's is never read or
# cleared).
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

mk() { # NAME BODY: an executable fake selftest in $tmp/ks/t/NAME
	mkdir -p "$tmp/ks/t"
	printf '#!/bin/sh\n%s\n' "$2" >"$tmp/ks/t/$1"
	chmod +x "$tmp/ks/t/$1"
}
mk pass.sh 'echo "all good [PASS]"; exit 0'
mk ignores.sh 'echo "x: trigger not present, ignoring test"; exit 0'
mk part.sh 'echo "a: works"; echo "b: platform trigger not present, ignoring test"; echo "c: works"'
mk twoparts.sh 'echo "b: platform trigger not present, ignoring test"; echo "d: other trigger not present, ignoring test"'
mk fails.sh 'echo "load failed [FAIL]"; exit 1'
mk skips.sh 'echo "not enabled [SKIP]"; exit 4'
mk refused.sh 'echo "load failed [FAIL]"; echo "KMSG:denied by policy" >"$KLOG"; exit 1'
mk refused-noreason.sh 'echo "load failed [FAIL]"; exit 1'
mk refused-exit0.sh 'echo "load failed [FAIL]"; echo "KMSG:denied by policy" >"$KLOG"; exit 0'
mk stdin.sh 'cat >/dev/null; echo ok; exit 0'
cat >"$tmp/expect" <<'X'
# comment
t/pass.sh|pass|[PASS]||
t/ignores.sh|pass|||
t/part.sh|ignore|platform trigger not present, ignoring test||no platform
t/part.sh|pass|||
t/twoparts.sh|ignore|platform trigger not present, ignoring test||no platform
t/twoparts.sh|pass|||
t/fails.sh|pass|||
t/skips.sh|pass|||
t/skips.sh|skip|||not configured
t/ignores.sh|skip|ignoring test||no trigger
t/pass.sh|skip|||should skip
t/refused.sh|refused|load failed [FAIL]|denied by policy|by design
t/refused-noreason.sh|refused|load failed [FAIL]|denied by policy|by design
t/refused-exit0.sh|refused|load failed [FAIL]|denied by policy|by design
t/refused.sh|refused|load failed [FAIL]||no kernel reason given
t/stdin.sh|pass|||
t/missing.sh|pass|||
t/pass.sh|maybe|||
X
export KLOG=$tmp/klog
got=$(
	. "$TOP/tests/lib/tap.sh" >/dev/null
	. "$TOP/tests/lib/ksft.sh"
	ksft_kmsg_clear() { : >"$KLOG"; }
	ksft_kmsg() { sed -n 's/^KMSG://p' "$KLOG"; }
	ksft_expect "$tmp/expect" "$tmp/ks" "$tmp/out" | grep '^\(not \)\?ok ' |
		sed 's/^\(not ok\|ok\) [0-9]* - /\1 - /'
)
. "$TOP/tests/lib/tap.sh"
want=$(cat <<'W'
ok - kselftest t/pass.sh passes
not ok - kselftest t/ignores.sh passes
ok - kselftest t/part.sh: part 'platform trigger not present, ignoring test' # SKIP no platform
ok - kselftest t/part.sh passes
ok - kselftest t/twoparts.sh: part 'platform trigger not present, ignoring test' # SKIP no platform
not ok - kselftest t/twoparts.sh passes
not ok - kselftest t/fails.sh passes
not ok - kselftest t/skips.sh passes
ok - kselftest t/skips.sh # SKIP not configured
ok - kselftest t/ignores.sh # SKIP no trigger
not ok - kselftest t/pass.sh skips: should skip
ok - kselftest t/refused.sh is refused by design: by design
not ok - kselftest t/refused-noreason.sh is refused by design: by design
not ok - kselftest t/refused-exit0.sh is refused by design: by design
not ok - 95-kselftests.expect: a refusal of t/refused.sh must name its OUTPUT and KMSG
ok - kselftest t/stdin.sh passes
not ok - kselftest t/missing.sh is installed
not ok - 95-kselftests.expect: unknown WANT 'maybe' for t/pass.sh
W
)
n=0
while IFS= read -r w; do
	n=$((n + 1))
	g=$(sed -n "${n}p" <<<"$got")
	tap_is "ksft.sh verdict $n: ${w#* - }" "$g" "$w"
done <<<"$want"
tap_is "ksft.sh gave exactly one verdict per expectation" "$(wc -l <<<"$got")" "$(wc -l <<<"$want")"
tap_cmd "ksft.sh kept each script's whole output" grep -q "c: works" "$tmp/out/t-part.sh.out"

# ksft_fw_watchdog: an entry left waiting is cancelled once, named in the
# log; one that goes away in time is not; a later entry of that name counts
# from its own start
fw=$tmp/fw
mkdir -p "$fw/stuck" "$fw/brief"
: >"$fw/stuck/loading"
: >"$fw/brief/loading"
(. "$TOP/tests/lib/ksft.sh" && ksft_fw_watchdog "$fw" 5 "$tmp/fw.log") &
wd=$!
sleep 3
rm -r "$fw/brief"
sleep 8
tap_is "watchdog: the entry left waiting 5 s is cancelled (-1 written), named once" \
	"$(cat "$fw/stuck/loading")|$(paste -sd' ' "$tmp/fw.log")" "-1|stuck"
rm -r "$fw/stuck"
mkdir -p "$fw/brief"
: >"$fw/brief/loading"
sleep 3
tap_is "watchdog: an entry that went away, back under its name 3 s ago, is not cancelled" \
	"$(cat "$fw/brief/loading")|$(paste -sd' ' "$tmp/fw.log")" "|stuck"
kill "$wd"
wait "$wd" 2>/dev/null || :
tap_done
