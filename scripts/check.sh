#!/usr/bin/env bash
# make check: host tests, the guest suite, and the host audit of the guest's
# results; one TAP stream per suite, then the closing "N passed, M failed".
# Inputs: every stage's outputs (make builds them first), KVARIANT,
#         CHECK_SUITES (default: host guest), CHECK_BOOTS (the guest boots,
#         below), CHECK_RUN (name of the run, default check).
# Every guest boot's list is audited on the host (scripts/audit.sh).
# Skips are counted apart from passes; a suite that crashes or reports no
# plan counts as a failure.
. "$(dirname "$0")/lib.sh"

variant=${KVARIANT:-patched}
run_name=${CHECK_RUN:-check}
suites=${CHECK_SUITES:-host guest}
sumdir=$BUILD/$variant/check-$run_name
rm -rf "$sumdir" && mkdir -p "$sumdir"

pass=0 fail=0 skip=0

# tally NAME TAPFILE RC: count one suite's TAP; a missing plan or a non-zero
# exit with no failing line is a failure of its own
tally() {
	local name=$1 tap=$2 rc=$3 p f s
	p=$(grep -cE '^ok [0-9]+' "$tap" | tr -d ' ' || true)
	s=$(grep -cE '^ok [0-9]+.*# (SKIP|skip)' "$tap" || true)
	f=$(grep -cE '^not ok [0-9]+' "$tap" || true)
	p=$((p - s))
	# exit 77 (automake's "skipped") is fine when the TAP shows the skips
	[ "$rc" = 77 ] && [ "$s" -gt 0 ] && rc=0
	if ! grep -qE '^1\.\.[0-9]+' "$tap" || grep -q '^Bail out!' "$tap" ||
		{ [ "$rc" != 0 ] && [ "$f" = 0 ]; }; then
		echo "not ok - $name: suite did not finish (exit $rc, no plan or bailed out)"
		f=$((f + 1))
	fi
	pass=$((pass + p)) fail=$((fail + f)) skip=$((skip + s))
	printf '# %-34s %3d passed, %d failed, %d skipped\n' "$name" "$p" "$f" "$s"
}

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
		# one boot per line: name, test globs, extra kernel command line.
		# Tests that may crash an unfixed kernel get boots of their own, so
		# a crash there cannot hide other results. The main boot also
		# carries a fresh nonce and ends with the TPM quote (90-attest).
		while IFS='|' read -r boot glob extra; do
			[ -n "$boot" ] || continue
			rdir=$BUILD/$variant/results/$run_name-$boot
			nonce=
			[ "$boot" = main ] && nonce=$(openssl rand -hex 20)
			rc=0
			IMA_STACK_TESTS=$glob KCMDLINE_EXTRA=$extra IMA_STACK_NONCE=$nonce \
				"$TOP/scripts/boot.sh" check "$run_name-$boot" \
				2> >(tee "$sumdir/boot-$boot.err" >&2) || rc=$?
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
			suite "audit/$boot" "$TOP/scripts/audit.sh" "$rdir"
			if [ -n "$nonce" ]; then
				suite "attest/$boot" "$TOP/scripts/attest.sh" "$rdir" "$nonce"
			fi
		done <<<"${CHECK_BOOTS:-main|[0-7]*,9*|
parser|8[0-4]-*|
ahash|8[5-9]-*|ima.ahash_minsize=4096 ima_stack.policy=/etc/ima/loader-only-policy
ahash-bufsize|8[5-9]-*|ima.ahash_minsize=4096 ima.ahash_bufsize=65536 ima_stack.policy=/etc/ima/loader-only-policy}"
		;;
	*) die "unknown suite $s" ;;
	esac
done

echo "# --- summary ($variant kernel)"
cat "$sumdir/summary" 2>/dev/null || true
if [ "$skip" -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" = 0 ]
