#!/usr/bin/env bash
# make check: host tests, the guest suite, and the host audit of the guest's
# results; one TAP stream per suite, then the closing "N passed, M failed".
# Inputs: every stage's outputs (make builds them first), KVARIANT,
#         CHECK_SUITES (default: host guest), CHECK_BOOTS (the guest boots,
#         default tests/guest/boots), CHECK_RUN (name of the run, default
#         check).
# Every guest boot's list is audited on the host (scripts/audit.sh).
# Skips are counted apart from passes; a suite that crashes or reports no
# plan counts as a failure.
. "$(dirname "$0")/lib.sh"

variant=${KVARIANT:-patched}
run_name=${CHECK_RUN:-check}
suites=${CHECK_SUITES:-host guest}
sumdir=$BUILD/$variant/check-$run_name
rm -rf "$sumdir" && mkdir -p "$sumdir"

pass=0 fail=0 skip=0 todo=0
# suite NAME CMD...: run CMD, show and keep its TAP, tally it
suite() {
	local name=$1 rc=0 f
	shift
	f=$sumdir/${name//\//-}
	echo "# --- $name"
	"$@" >"$f.tap" 2>"$f.err" || rc=$?
	sed -n '/^\(not \)\?ok \|^#\|^Bail/p' "$f.tap"
	if [ -s "$f.err" ] && [ "$rc" != 0 ]; then
		tail -n 5 "$f.err" | sed 's/^/# stderr: /'
	fi
	tally "$name" "$f.tap" "$rc" >>"$sumdir/summary"
}

for s in $suites; do
	case $s in
	host)
		# the auditor's own suite: unit, golden and fuzz tests (ASan/UBSan)
		suite "host/ima-audit" make -s -C "$TOP/tools/ima-audit" check
		for t in "$TOP"/tests/host/*.sh; do
			[ -f "$t" ] && suite "host/$(basename "$t" .sh)" bash "$t"
		done
		;;
	guest)
		# the boot table: tests/guest/boots (CHECK_BOOTS overrides, same
		# format); the guest's kernel config travels with its results
		while IFS='|' read -r boot glob extra; do
			[ -n "$boot" ] || continue
			rdir=$BUILD/$variant/results/$run_name-$boot
			nonce=
			[ "$boot" = main ] && nonce=$(openssl rand -hex 20)
			rc=0
			# boot.sh's messages show as they come and are kept; the pipe
			# is waited for, so the reason of a failed boot is never lost
			{ IMA_STACK_TESTS=$glob KCMDLINE_EXTRA=$extra IMA_STACK_NONCE=$nonce \
				"$TOP/scripts/boot.sh" check "$run_name-$boot" 2>&1 >&3 3>&- |
				tee "$sumdir/boot-$boot.err" >&2; } 3>&1 || rc=$?
			for tap in "$rdir"/tap/*.tap; do
				[ -f "$tap" ] || continue
				n=$(basename "$tap" .tap)
				echo "# --- guest/$boot/$n"
				sed -n '/^\(not \)\?ok \|^#\|^Bail/p' "$tap"
				tally "guest/$boot/$n" "$tap" "$(cat "$rdir/tap/$n.rc" 2>/dev/null || echo 1)" >>"$sumdir/summary"
			done
			if [ "$rc" != 0 ]; then
				why=$(grep -h 'error:' "$sumdir/boot-$boot.err" | tail -n 1 | sed 's/.*error: //')
				printf 'not ok 1 - %s boot: %s\n1..1\n' "$boot" "${why:-boot.sh exit $rc}" >"$sumdir/boot-$boot.tap"
				tally "guest/boot-$boot" "$sumdir/boot-$boot.tap" 1 >>"$sumdir/summary"
				continue
			fi
			suite "guest/$boot/ran" "$TOP/scripts/boot-ran.sh" "$rdir" "$glob"
			suite "audit/$boot" "$TOP/scripts/audit.sh" "$rdir"
			if [ -n "$nonce" ]; then
				suite "attest/$boot" "$TOP/scripts/attest.sh" "$rdir" "$nonce"
			fi
		done < <(if [ -n "${CHECK_BOOTS:-}" ]; then echo "$CHECK_BOOTS"; else
			sed -e '/^#/d' -e '/^$/d' "$TOP/tests/guest/boots"; fi)
		;;
	*) die "unknown suite $s" ;;
	esac
done

echo "# --- summary ($variant kernel)"
cat "$sumdir/summary" 2>/dev/null || true
if [ "${todo:-0}" -gt 0 ]; then
	echo "# ${todo} known limitation(s), reported as not ok # TODO (neither passed nor failed):"
	grep -h '^not ok [0-9]*.*# TODO' "$sumdir"/*.tap "$BUILD/$variant"/results/"$run_name"-*/tap/*.tap 2>/dev/null |
		sed 's/^not ok [0-9]* - /#   /' || true
fi
if [ "$skip" -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" = 0 ]
