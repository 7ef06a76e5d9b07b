#!/usr/bin/env bash
# Did a guest boot run the suites its boot file names? Prints TAP.
# Usage:   boot-ran.sh RESULTS_DIR GLOBS
# Inputs:  GLOBS, a boot's suites (tests/boots/NAME.boot); RESULTS_DIR/{suites,
#          unmatched-globs,tap/*.tap} from the guest's init.
# Checks:  every glob matches at least one suite in tests/guest (on the
#          host); the guest ran exactly those suites, each with a TAP file
#          and an exit status. A typo in a boot file, a renamed suite or a
#          suite the guest skipped is a failure, never a silent pass.
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$(dirname "$0")/paths.sh"
. "$TOP/tests/lib/tap.sh"
rdir=${1:?usage: boot-ran.sh RESULTS_DIR GLOBS}
globs=${2:?usage: boot-ran.sh RESULTS_DIR GLOBS}
GUEST_TESTS=${GUEST_TESTS:-$TOP/tests/guest}

IFS=, read -ra gl <<<"$globs"
want=()
for g in "${gl[@]}"; do
	n=0
	for t in "$GUEST_TESTS"/$g.sh; do
		[ -f "$t" ] || continue
		want+=("$(basename "$t" .sh)")
		n=$((n + 1))
	done
	if [ "$n" -gt 0 ]; then
		tap_ok "glob '$g' names $n suite(s)"
	else
		tap_fail "glob '$g' names a suite" "no $GUEST_TESTS/$g.sh: fix the boot's suites (tests/boots/NAME.boot) or CHECK_BOOTS"
	fi
done
if [ -s "$rdir/unmatched-globs" ]; then
	tap_fail "the guest matched every glob" "unmatched in the guest: $(paste -sd' ' "$rdir/unmatched-globs")"
fi
sorted() { printf '%s\n' "$@" | LC_ALL=C sort -u | sed '/^$/d'; }
mapfile -t ran < <(cat "$rdir/suites" 2>/dev/null || true)
got=$(sorted "${ran[@]}")
tap_is "the guest ran exactly the suites the boot names" \
	"$(paste -sd' ' <<<"$got")" "$(sorted "${want[@]}" | paste -sd' ')"
missing=()
for n in "${want[@]}"; do
	[ -f "$rdir/tap/$n.tap" ] && [ -f "$rdir/tap/$n.rc" ] || missing+=("$n")
done
tap_is "every suite returned its TAP and exit status" "${missing[*]:-}" ""
tap_done
