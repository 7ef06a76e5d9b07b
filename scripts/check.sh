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
# run_suite NAME CMD...: run CMD, keep its TAP, stderr, exit status and time
# (NAME.tap, .err, .rc under $sumdir); show_suite NAME: show and tally what
# run_suite kept. suite NAME CMD...: both, in turn. A suite run beside others
# (the boot pool) is shown later, in the order of the report.
sfile() { echo "$sumdir/${1//\//-}"; }
run_suite() {
	local name=$1 f t0 rc=0
	shift
	f=$(sfile "$name")
	t0=$(date +%s)
	"$@" >"$f.tap" 2>"$f.err" || rc=$?
	echo "$rc $(($(date +%s) - t0))" >"$f.rc"
}
show_suite() {
	local name=$1 f rc secs
	f=$(sfile "$name")
	read -r rc secs 2>/dev/null <"$f.rc" || rc=99 secs=?
	[ -f "$f.tap" ] || : >"$f.tap"
	times+=("$name ${secs}s")
	echo "# --- $name"
	sed -n '/^\(not \)\?ok \|^#\|^Bail/p' "$f.tap"
	if [ -s "$f.err" ] && [ "$rc" != 0 ]; then
		tail -n 5 "$f.err" | sed 's/^/# stderr: /'
	fi
	tally "$name" "$f.tap" "$rc" >>"$sumdir/summary"
}
suite() {
	run_suite "$@"
	show_suite "$1"
}
want() {
	case " $suites " in *" $1 "*) return 0 ;; esac
	return 1
}
for s in $suites; do
	case $s in host | guest) ;; *) die "unknown suite $s" ;; esac
done

# 2. the boot pool: the guest boots (tests/guest/boots; CHECK_BOOTS
#    overrides, same format) run CHECK_JOBS at a time (default 2: each TCG
#    guest keeps about one core busy), and last the polling verifier's own
#    boot (make attest; a CHECK_BOOTS selection leaves it out). The pool
#    starts before the host suites and gives up one of its slots while they
#    run: they mostly run one process at a time, beside one boot. Each boot's
#    messages are kept whole in boot-NAME.err; its host checks run in its
#    slot as soon as it ends; all are reported in table order once the pool
#    is done.
rows=()
if want guest; then
	mapfile -t rows < <(if [ -n "${CHECK_BOOTS:-}" ]; then echo "$CHECK_BOOTS"; else
		sed -e '/^#/d' -e '/^$/d' "$TOP/tests/guest/boots"; fi)
	# the host tools the boots and their checks run, built once here: two
	# makes in one directory at once would race (their own calls are then
	# no-ops; a failure here is theirs to report)
	make -s -C "$TOP/tools/ima-attest" >"$LOGS/tools-build.log" 2>&1 &&
		make -s -C "$TOP/tools/ima-audit" >>"$LOGS/tools-build.log" 2>&1 ||
		log "building the host tools failed (see $LOGS/tools-build.log): the checks that need them will say so"
fi
jmax=${CHECK_JOBS:-2}
hostjob=$sumdir/host-running
! { want host && want guest; } || : >"$hostjob"
# pool_wait: until fewer than the pool's current number of slots are busy
# (CHECK_JOBS less one while the host suites run: none at all for 1)
pool_wait() {
	local slots
	while :; do
		slots=$jmax
		[ ! -e "$hostjob" ] || slots=$((jmax - 1))
		[ "$(jobs -rp | wc -l)" -lt "$slots" ] && return 0
		sleep 1
	done
}
# boot_checks BOOT GLOB NONCE: the host checks of a boot that completed,
# run in its slot as soon as it ends; their names, in report order, in
# boot-BOOT.checks
boot_checks() {
	local boot=$1 glob=$2 nonce=$3 rdir=$BUILD/$variant/results/$run_name-$1 c=()
	c+=("guest/$boot/ran")
	run_suite "guest/$boot/ran" "$TOP/scripts/boot-ran.sh" "$rdir" "$glob"
	# kexec-cut: the list is cut on purpose, so the whole-list audit must
	# fail; tests/host/boot/kexec-cut.sh asserts how it fails. kexec-legacy:
	# the second kernel got no list (a legacy kexec_load image), so its list
	# cannot replay to PCR 10; tests/host/boot/kexec-legacy.sh audits the
	# first kernel's and checks the second's entry by entry
	if [ "$boot" != kexec-cut ] && [ "$boot" != kexec-legacy ]; then
		c+=("audit/$boot")
		run_suite "audit/$boot" "$TOP/scripts/audit.sh" "$rdir"
	fi
	if [ -n "$nonce" ]; then
		c+=("attest/$boot")
		run_suite "attest/$boot" "$TOP/scripts/attest.sh" "$rdir" "$nonce"
	fi
	# verdicts.sh forges the main boot's fixtures (10-firmware's)
	case $boot in
	main)
		c+=("verdicts/$boot")
		run_suite "verdicts/$boot" "$TOP/tests/host/boot/verdicts.sh" "$rdir" "$nonce" ;;
	kexec)
		c+=("kexec/$boot")
		run_suite "kexec/$boot" "$TOP/tests/host/boot/kexec.sh" "$rdir" "$nonce" ;;
	kexec-cut)
		c+=("kexec-cut/$boot")
		run_suite "kexec-cut/$boot" "$TOP/tests/host/boot/kexec-cut.sh" "$rdir" ;;
	kexec-legacy)
		c+=("kexec-legacy/$boot")
		run_suite "kexec-legacy/$boot" "$TOP/tests/host/boot/kexec-legacy.sh" "$rdir" ;;
	esac
	printf '%s\n' "${c[@]}" >"$sumdir/boot-$boot.checks"
}
pool() {
	local row boot glob extra nonce
	for row in "${rows[@]}"; do
		IFS='|' read -r boot glob extra <<<"$row"
		[ -n "$boot" ] || continue
		nonce=
		# the quote (90-attest): main, and kexec's second kernel with
		# the AK enrolled in the first (persistent in the TPM)
		case $boot in main | kexec) nonce=$(openssl rand -hex 20) ;; esac
		# kept to rerun the boot's host checks by hand (attest.sh, verdicts.sh)
		echo "$nonce" >"$sumdir/boot-$boot.nonce"
		pool_wait
		log "boot $boot: $glob${extra:+ ($extra)}"
		(
			t0=$(date +%s) brc=0
			IMA_STACK_TESTS=$glob KCMDLINE_EXTRA=$extra IMA_STACK_NONCE=$nonce \
				"$TOP/scripts/boot.sh" check "$run_name-$boot" \
				>"$sumdir/boot-$boot.out" 2>"$sumdir/boot-$boot.err" || brc=$?
			echo "$brc $(($(date +%s) - t0))" >"$sumdir/boot-$boot.rc"
			[ "$brc" != 0 ] || boot_checks "$boot" "$glob" "$nonce"
		) &
	done
	if [ -z "${CHECK_BOOTS:-}" ]; then
		pool_wait
		log "boot poll: the polling verifier (scripts/attest-poll.sh)"
		run_suite "attest/poll" "$TOP/scripts/attest-poll.sh" "$run_name-poll" &
	fi
	wait
}
if want guest; then
	pool &
	poolpid=$!
fi

# 3. the host suites, beside the pool
if want host; then
	# the auditor's own suite: unit, golden and fuzz tests (ASan/UBSan)
	suite "host/ima-audit" make -s -C "$TOP/tools/ima-audit" check
	for t in "$TOP"/tests/host/*.sh; do
		[ -f "$t" ] && suite "host/$(basename "$t" .sh)" bash "$t"
	done
fi
rm -f "$hostjob"

# 4. the boots' results and host checks, in table order
if want guest; then
	wait "$poolpid" || true
	for row in "${rows[@]}"; do
		IFS='|' read -r boot glob extra <<<"$row"
		[ -n "$boot" ] || continue
		rdir=$BUILD/$variant/results/$run_name-$boot
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
		# a boot that completed without its checks' list: they did not run
		if [ ! -s "$sumdir/boot-$boot.checks" ]; then
			printf 'not ok 1 - %s: the host checks of the boot did not run\n1..1\n' "$boot" >"$sumdir/boot-$boot.tap"
			tally "guest/boot-$boot" "$sumdir/boot-$boot.tap" 1 >>"$sumdir/summary"
			continue
		fi
		mapfile -t checks <"$sumdir/boot-$boot.checks"
		for c in "${checks[@]}"; do show_suite "$c"; done
	done
	# the polling verifier's boot ran last in the pool
	[ -n "${CHECK_BOOTS:-}" ] || show_suite "attest/poll"
fi

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
	echo "kernel the $variant tree, $(wc -l <"$CACHE/kernel/$variant/src.patches" 2>/dev/null || echo ?) patches (${KSERIES:-kernel-patches/series}; tree key $(cat "$CACHE/kernel/$variant/src.stamp" 2>/dev/null || echo ?))"
} >"$sumdir/meta"
if [ "$skip" -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" = 0 ]
