#!/usr/bin/env bash
# make check: host tests, the guest suite, and the host audit of the guest's
# results; one TAP stream per suite, then the closing "N passed, M failed".
# First runs the build stages (each a no-op when up to date; CHECK_BUILD=0
# skips them) and prints every stage's and suite's time at the end.
# Inputs: the sources of every stage, KVARIANT,
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
# the commit this run tests (taken at its start: the tree may move on)
commit=$(git -C "$TOP" rev-parse --short HEAD 2>/dev/null || echo unknown)$(
	git -C "$TOP" diff --quiet HEAD 2>/dev/null || echo ' with uncommitted changes')
times=()

# timed NAME CMD...: run CMD, remember how long it took
timed() {
	local n=$1 t0 rc=0
	shift
	t0=$(date +%s)
	"$@" || rc=$?
	times+=("$n $(($(date +%s) - t0))s")
	return "$rc"
}

# 1. the build stages, each a no-op when its inputs are unchanged; the
#    rootfs (network and disk bound) is made beside the kernel (CPU bound)
if [ "${CHECK_BUILD:-1}" = 1 ]; then
	t0=$(date +%s)
	"$TOP/scripts/rootfs.sh" >"$LOGS/rootfs-stage.log" 2>&1 &
	rpid=$!
	timed keys "$TOP/scripts/keys.sh"
	timed kernel-source "$TOP/scripts/kernel-source.sh"
	timed kernel-build "$TOP/scripts/kernel-build.sh"
	rrc=0
	wait "$rpid" || rrc=$?
	cat "$LOGS/rootfs-stage.log" >&2
	[ "$rrc" = 0 ] || die "the rootfs stage failed (above)"
	times+=("rootfs(beside) $(($(date +%s) - t0))s")
	timed sign "$TOP/scripts/sign.sh"
	timed image "$TOP/scripts/image.sh"
fi
# suite NAME CMD...: run CMD, show and keep its TAP, tally it
suite() {
	local name=$1 rc=0 f
	shift
	f=$sumdir/${name//\//-}
	echo "# --- $name"
	timed "$name" "$@" >"$f.tap" 2>"$f.err" || rc=$?
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
		# format). Boots run CHECK_JOBS at a time (default 2: TCG guests
		# are mostly idle vCPUs), then their results are read in table
		# order. Each boot's messages are kept whole in boot-NAME.err.
		mapfile -t rows < <(if [ -n "${CHECK_BOOTS:-}" ]; then echo "$CHECK_BOOTS"; else
			sed -e '/^#/d' -e '/^$/d' "$TOP/tests/guest/boots"; fi)
		jmax=${CHECK_JOBS:-2}
		nrun=0
		for row in "${rows[@]}"; do
			IFS='|' read -r boot glob extra <<<"$row"
			[ -n "$boot" ] || continue
			nonce=
			# the quote (90-attest): main, and kexec's second kernel with
			# the AK enrolled in the first (persistent in the TPM)
			case $boot in main | kexec) nonce=$(openssl rand -hex 20) ;; esac
			echo "$nonce" >"$sumdir/boot-$boot.nonce"
			if [ "$nrun" -ge "$jmax" ]; then
				wait -n || true
				nrun=$((nrun - 1))
			fi
			log "boot $boot: $glob${extra:+ ($extra)}"
			(
				t0=$(date +%s) brc=0
				IMA_STACK_TESTS=$glob KCMDLINE_EXTRA=$extra IMA_STACK_NONCE=$nonce \
					"$TOP/scripts/boot.sh" check "$run_name-$boot" \
					>"$sumdir/boot-$boot.out" 2>"$sumdir/boot-$boot.err" || brc=$?
				echo "$brc $(($(date +%s) - t0))" >"$sumdir/boot-$boot.rc"
			) &
			nrun=$((nrun + 1))
		done
		wait
		for row in "${rows[@]}"; do
			IFS='|' read -r boot glob extra <<<"$row"
			[ -n "$boot" ] || continue
			rdir=$BUILD/$variant/results/$run_name-$boot
			nonce=$(cat "$sumdir/boot-$boot.nonce")
			read -r rc secs <"$sumdir/boot-$boot.rc" || rc=99 secs=?
			times+=("boot-$boot ${secs}s")
			echo "# --- boot $boot (exit $rc, ${secs}s)"
			sed 's/^/#   /' "$sumdir/boot-$boot.err"
			for tap in "$rdir"/tap/*.tap; do
				[ -f "$tap" ] || continue
				n=$(basename "$tap" .tap)
				echo "# --- guest/$boot/$n"
				sed -n '/^\(not \)\?ok \|^#\|^Bail/p' "$tap"
				tally "guest/$boot/$n" "$tap" "$(cat "$rdir/tap/$n.rc" 2>/dev/null || echo 1)" >>"$sumdir/summary"
			done
			if [ "$rc" != 0 ]; then
				# a boot that died without an "error:" line still gets its
				# not ok (its stderr is shown above)
				why=$(grep -h 'error:' "$sumdir/boot-$boot.err" | tail -n 1 | sed 's/.*error: //' || true)
				printf 'not ok 1 - %s boot: %s\n1..1\n' "$boot" "${why:-boot.sh exit $rc}" >"$sumdir/boot-$boot.tap"
				tally "guest/boot-$boot" "$sumdir/boot-$boot.tap" 1 >>"$sumdir/summary"
				continue
			fi
			suite "guest/$boot/ran" "$TOP/scripts/boot-ran.sh" "$rdir" "$glob"
			suite "audit/$boot" "$TOP/scripts/audit.sh" "$rdir"
			[ -z "$nonce" ] || suite "attest/$boot" "$TOP/scripts/attest.sh" "$rdir" "$nonce"
			# verdicts.sh forges the main boot's fixtures (10-firmware's)
			[ "$boot" != main ] || suite "verdicts/$boot" "$TOP/tests/host/boot/verdicts.sh" "$rdir" "$nonce"
			[ "$boot" != kexec ] || suite "kexec/$boot" "$TOP/tests/host/boot/kexec.sh" "$rdir" "$nonce"
		done
		# the polling verifier against a running guest (make attest): a
		# boot of its own, after the table's (a CHECK_BOOTS selection
		# leaves it out)
		[ -n "${CHECK_BOOTS:-}" ] || suite "attest/poll" "$TOP/scripts/attest-poll.sh" "$run_name-poll"
		;;
	*) die "unknown suite $s" ;;
	esac
done

echo "# --- times: ${times[*]} (total $(elapsed))"
echo "# --- summary ($variant kernel)"
cat "$sumdir/summary" 2>/dev/null || true
if [ "${todo:-0}" -gt 0 ]; then
	echo "# ${todo} known limitation(s), reported as not ok # TODO (neither passed nor failed):"
	grep -h '^not ok [0-9]*.*# TODO' "$sumdir"/*.tap "$BUILD/$variant"/results/"$run_name"-*/tap/*.tap 2>/dev/null |
		sed 's/^not ok [0-9]* - /#   /' || true
fi
# what this run was, for scripts/redgreen.sh's table
{
	echo "date $(date -u '+%F %H:%M UTC')"
	echo "commit $commit (at the run's start)"
	echo "total $pass passed, $fail failed, $skip skipped, ${todo:-0} TODO, in $(elapsed)"
} >"$sumdir/meta"
if [ "$skip" -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" = 0 ]
