#!/usr/bin/env bash
# Did a guest boot run what its row of the boot table names? Prints TAP.
# Usage:   boot-ran.sh RESULTS_DIR GLOBS
# Inputs:  GLOBS as in tests/guest/boots; RESULTS_DIR/{suites,
#          unmatched-globs,tap/*.tap} from the guest's init.
# Checks:  every glob matches at least one suite in tests/guest (on the
#          host); the guest ran exactly those suites, each with a TAP file
#          and an exit status. A typo in the table, a renamed suite or a
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
		tap_fail "glob '$g' names a suite" "no $GUEST_TESTS/$g.sh: fix tests/guest/boots or CHECK_BOOTS"
	fi
done
if [ -s "$rdir/unmatched-globs" ]; then
	tap_fail "the guest matched every glob" "unmatched in the guest: $(paste -sd' ' "$rdir/unmatched-globs")"
fi
sorted() { printf '%s\n' "$@" | LC_ALL=C sort -u | sed '/^$/d'; }
got=$(sorted $(cat "$rdir/suites" 2>/dev/null || true))
tap_is "the guest ran exactly the suites the table names" \
	"$(paste -sd' ' <<<"$got")" "$(sorted "${want[@]}" | paste -sd' ')"
missing=()
for n in "${want[@]}"; do
	[ -f "$rdir/tap/$n.tap" ] && [ -f "$rdir/tap/$n.rc" ] || missing+=("$n")
done
tap_is "every suite returned its TAP and exit status" "${missing[*]:-}" ""
tap_done
