#!/usr/bin/env bash
# shellcheck source-path=SCRIPTDIR
# make check: host tests, the guest suite, and the host audit of the guest's
# results; one TAP stream per suite, then the closing "N passed, M failed".
# First runs the build stages (each a no-op when up to date; CHECK_BUILD=0
# skips them) and prints every stage's and suite's time at the end.
# Inputs: the sources of every stage; the kernels: KVARIANT (one), or
#         CHECK_KERNEL (patched or pristine, default patched) on every tree
#         KTREE names (default: every tree, scripts/lib.sh kernel_trees);
#         CHECK_SUITES (default: host guest), CHECK_BOOTS (the guest boots:
#         names of tests/boots/NAME.boot or ad-hoc NAME|GLOBS|EXTRA rows;
#         default every boot file), CHECK_RUN (name of the run, default
#         check), CHECK_JOBS (boots at a time, default 2).
# Each boot is one file (scripts/boots.sh says what it may hold): this
# script runs every one the same way, then the host checks it names.
# Skips are counted apart from passes; a suite that crashes or reports no
# plan counts as a failure.
# Several trees: the keys and the rootfs are made once, each tree's kernel,
# signed tree and image in turn (one kernel build at a time), then one run
# per tree, the host suites in the first only; the closing line sums them.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/boots.sh"

if [ -z "${KVARIANT:-}" ]; then
	kind=${CHECK_KERNEL:-patched}
	case $kind in patched | pristine) ;; *) die "CHECK_KERNEL=$kind: patched or pristine" ;; esac
	read -ra trees <<<"${KTREE:-$(kernel_trees | paste -sd' ')}"
	[ ${#trees[@]} -gt 0 ] || die "KTREE is empty: name a tree ($(kernel_trees | paste -sd' '))"
	variants=()
	for t in "${trees[@]}"; do
		tree_check "$t"
		variants+=("$(variant_of "$kind" "$t")")
	done
	if [ ${#variants[@]} = 1 ]; then
		export KVARIANT=${variants[0]}
	else
		times=()
		if [ "${CHECK_BUILD:-1}" = 1 ]; then
			t0=$(date +%s)
			"$TOP/scripts/rootfs.sh" >"$LOGS/rootfs-stage.log" 2>&1 &
			rpid=$!
			"$TOP/scripts/keys.sh"
			for v in "${variants[@]}"; do
				for st in kernel-source kernel-build; do
					t1=$(date +%s)
					KVARIANT=$v "$TOP/scripts/$st.sh"
					times+=("$st($v) $(($(date +%s) - t1))s")
				done
			done
			rrc=0
			wait "$rpid" || rrc=$?
			cat "$LOGS/rootfs-stage.log" >&2
			[ "$rrc" = 0 ] || die "the rootfs stage failed (above)"
			times+=("rootfs(beside) $(($(date +%s) - t0))s")
			for v in "${variants[@]}"; do
				for st in sign image; do
					t1=$(date +%s)
					KVARIANT=$v "$TOP/scripts/$st.sh"
					times+=("$st($v) $(($(date +%s) - t1))s")
				done
			done
		fi
		# one run per tree; the host suites (which do not depend on the
		# kernel) in the first only
		suites=${CHECK_SUITES:-host guest}
		P=0 F=0 S=0 T=0 lines=()
		for i in "${!variants[@]}"; do
			v=${variants[i]} s=$suites
			[ "$i" = 0 ] || s=$(sed 's/\bhost\b//; s/^ *//; s/ *$//' <<<"$suites")
			[ -n "$s" ] || continue
			echo "# === the $(kernel_tree "$v") tree: the $v kernel (suites: $s)"
			rc=0
			KVARIANT=$v CHECK_SUITES=$s CHECK_BUILD=0 "$0" || rc=$?
			m=$(check_dir "$(variant_dir "$v")" "${CHECK_RUN:-check}")/meta
			read -r p f sk td < <(sed -n 's/^total \([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped, \([0-9]*\) TODO.*/\1 \2 \3 \4/p' "$m" 2>/dev/null) ||
				{ p=0 f=1 sk=0 td=0; }
			# a run that ended without its totals is a failure of its own
			[ "$rc" = 0 ] || [ "$f" != 0 ] || f=1
			P=$((P + p)) F=$((F + f)) S=$((S + sk)) T=$((T + td))
			lines+=("$(printf '# %-6s %-14s %d passed, %d failed, %d skipped, %d TODO' "$(kernel_tree "$v")" "$v" "$p" "$f" "$sk" "$td")")
		done
		echo "# === every tree (${variants[*]}${times[*]:+; build: ${times[*]}}; total $(elapsed))"
		printf '%s\n' "${lines[@]}"
		if [ "$S" -gt 0 ]; then
			echo "$P passed, $F failed, $S skipped"
		else
			echo "$P passed, $F failed"
		fi
		[ "$F" = 0 ]
		exit
	fi
fi

variant=$(stage_variant)
export KVARIANT=$variant
vdir=$(variant_dir "$variant")
run_name=${CHECK_RUN:-check}
suites=${CHECK_SUITES:-host guest}
sumdir=$(check_dir "$vdir" "$run_name")
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
	read -r rc secs 2>/dev/null <"$f.rc" || rc=99 secs='?'
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

# 2. the boot pool: the guest boots (tests/boots/*.boot, in the order of
#    their names; CHECK_BOOTS selects some, see plan_boots) run CHECK_JOBS
#    at a time (default 2: each TCG guest keeps about one core busy). The
#    pool starts before the host suites and gives up one of its slots while
#    they run: they mostly run one process at a time, beside one boot. Each
#    boot's messages are kept whole in boot-NAME.err; its host checks run in
#    its slot as soon as it ends; all are reported in the order of the run
#    once the pool is done.
# The run's boots: their names in order (boots) and what each needs, by
# name. plan_boot NAME [SUITES CMDLINE]: the boot file NAME, or an ad-hoc
# row (suites and command line given): with the name of a boot file it
# keeps that file's nonce, audit and host checks and its policy unless the
# row's command line names one; with another name it has none of them and
# is audited.
boots=()
declare -A p_suites p_kcmd p_nonce p_audit p_checks p_driver p_skip
plan_boot() {
	local n=$1 tree
	[ -z "${p_suites[$n]+x}" ] || die "boot $n is named twice in this run"
	if [ $# = 1 ] || [ -f "$BOOTS_DIR/$n.boot" ]; then
		boot_read "$n"
	else
		case $n in "" | *[!A-Za-z0-9_.-]* | -*) die "CHECK_BOOTS row '$n|$2|$3': name the boot with letters, digits, '.', '_' and '-'" ;; esac
		B_NAME=$n B_POLICY='' B_POLICY_DROP='' B_NONCE=no B_AUDIT=yes B_CHECKS='' B_TREES='' B_DRIVER=''
	fi
	if [ $# = 3 ]; then
		[ -z "$B_DRIVER" ] || die "CHECK_BOOTS row '$n|$2|$3': boot $n makes its own boot; give its name alone"
		[ -n "$2" ] || die "CHECK_BOOTS row '$n||$3': no suites"
		B_SUITES=$2 B_CMDLINE=$3
		case " $3 " in *" ima_stack.policy="*) B_POLICY='' ;; esac
	fi
	boots+=("$n")
	p_suites[$n]=$B_SUITES p_kcmd[$n]=$(boot_kcmdline) p_nonce[$n]=$B_NONCE p_audit[$n]=$B_AUDIT
	p_checks[$n]=$B_CHECKS p_driver[$n]=$B_DRIVER p_skip[$n]=
	tree=$(kernel_tree)
	boot_applies "$tree" || p_skip[$n]="for kernel trees $B_TREES, this is $tree"
	return 0
}
# plan_boots: every boot file, or CHECK_BOOTS: lines, each an ad-hoc row
# NAME|GLOBS|EXTRA or boot names (blanks or commas between them)
plan_boots() {
	local line n g e names
	if [ -z "${CHECK_BOOTS:-}" ]; then
		while read -r n; do plan_boot "$n"; done < <(boot_names)
		[ ${#boots[@]} -gt 0 ] || die "no boot files in $BOOTS_DIR"
		return 0
	fi
	while IFS= read -r line; do
		case $line in
		*"|"*)
			IFS='|' read -r n g e <<<"$line"
			plan_boot "$n" "$g" "$e" ;;
		*)
			read -ra names <<<"${line//,/ }"
			for n in "${names[@]}"; do plan_boot "$n"; done ;;
		esac
	done <<<"$CHECK_BOOTS"
}
if want guest; then
	plan_boots
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
# boot_checks BOOT NONCE: the host checks of a boot that completed, run in
# its slot as soon as it ends: the suites it ran, the audit, the quote, its
# own; their names, in report order, in boot-BOOT.checks
boot_checks() {
	local boot=$1 nonce=$2 rdir c=() s
	rdir=$(results_dir "$vdir" "$run_name" "$boot")
	c+=("guest/$boot/ran")
	run_suite "guest/$boot/ran" "$TOP/scripts/boot-ran.sh" "$rdir" "${p_suites[$boot]}"
	if [ "${p_audit[$boot]}" = yes ]; then
		c+=("audit/$boot")
		run_suite "audit/$boot" "$TOP/scripts/audit.sh" "$rdir"
	fi
	if [ -n "$nonce" ]; then
		c+=("attest/$boot")
		run_suite "attest/$boot" "$TOP/scripts/attest.sh" "$rdir" "$nonce"
	fi
	for s in ${p_checks[$boot]}; do
		c+=("$(basename "$s" .sh)/$boot")
		run_suite "$(basename "$s" .sh)/$boot" "$TOP/$s" "$rdir" "$nonce"
	done
	printf '%s\n' "${c[@]}" >"$sumdir/boot-$boot.checks"
}
pool() {
	local boot nonce drv
	for boot in "${boots[@]}"; do
		[ -z "${p_skip[$boot]}" ] || continue
		if [ -n "${p_driver[$boot]}" ]; then
			read -r _ drv <<<"${p_driver[$boot]}"
			pool_wait
			log "boot $boot: $drv"
			run_suite "${p_driver[$boot]%% *}" "$TOP/$drv" "$run_name-$boot" &
			continue
		fi
		nonce=
		[ "${p_nonce[$boot]}" = no ] || nonce=$(openssl rand -hex 20)
		# kept to rerun the boot's host checks by hand (attest.sh, verdicts.sh)
		echo "$nonce" >"$sumdir/boot-$boot.nonce"
		pool_wait
		log "boot $boot: ${p_suites[$boot]}${p_kcmd[$boot]:+ (${p_kcmd[$boot]})}"
		(
			t0=$(date +%s) brc=0
			IMA_STACK_TESTS=${p_suites[$boot]} KCMDLINE_EXTRA=${p_kcmd[$boot]} IMA_STACK_NONCE=$nonce \
				"$TOP/scripts/boot.sh" check "$run_name-$boot" \
				>"$sumdir/boot-$boot.out" 2>"$sumdir/boot-$boot.err" || brc=$?
			echo "$brc $(($(date +%s) - t0))" >"$sumdir/boot-$boot.rc"
			[ "$brc" != 0 ] || boot_checks "$boot" "$nonce"
		) &
	done
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
	# make lint: shellcheck on every script, the C warning flags
	suite "host/lint" "$TOP/scripts/lint.sh"
	for t in "$TOP"/tests/host/*.sh; do
		[ -f "$t" ] && suite "host/$(basename "$t" .sh)" bash "$t"
	done
fi
rm -f "$hostjob"

# 4. the boots' results and host checks, in the order of the run
if want guest; then
	wait "$poolpid" || true
	for boot in "${boots[@]}"; do
		if [ -n "${p_skip[$boot]}" ]; then
			echo "# --- boot $boot: skipped, ${p_skip[$boot]}"
			printf 'ok 1 - boot %s # SKIP %s\n1..1\n' "$boot" "${p_skip[$boot]}" >"$sumdir/boot-$boot.tap"
			tally "guest/boot-$boot" "$sumdir/boot-$boot.tap" 0 >>"$sumdir/summary"
			continue
		fi
		if [ -n "${p_driver[$boot]}" ]; then
			show_suite "${p_driver[$boot]%% *}"
			continue
		fi
		rdir=$(results_dir "$vdir" "$run_name" "$boot")
		read -r rc secs <"$sumdir/boot-$boot.rc" || rc=99 secs='?'
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
fi

echo "# --- times: ${times[*]} (total $(elapsed))"
# kept for make measurements (scripts/measurements.sh), one "NAME Ns" a line
printf '%s\n' "${times[@]}" >"$sumdir/times"
echo "# --- summary ($variant kernel)"
cat "$sumdir/summary" 2>/dev/null || true
if [ "${todo:-0}" -gt 0 ]; then
	echo "# ${todo} known limitation(s), reported as not ok # TODO (neither passed nor failed):"
	r=$(results_dir "$vdir" "$run_name" @)
	grep -h '^not ok [0-9]*.*# TODO' "$sumdir"/*.tap "${r%@}"*/tap/*.tap 2>/dev/null |
		sed 's/^not ok [0-9]* - /#   /' || true
fi
# what this run was, for scripts/redgreen.sh's table and make measurements
{
	echo "date $(date -u '+%F %H:%M UTC')"
	echo "commit $commit (at the run's start)"
	echo "total $pass passed, $fail failed, $skip skipped, ${todo:-0} TODO, in $(elapsed)"
	echo "kernel the $variant tree, $(wc -l <"$CACHE/kernel/$variant/src.patches" 2>/dev/null || echo ?) patches (${KSERIES:-$(tree_patches "$(kernel_tree "$variant")" | sed "s,^$TOP/,,")/series}; tree key $(cat "$CACHE/kernel/$variant/src.stamp" 2>/dev/null || echo ?))"
} >"$sumdir/meta"
if [ "$skip" -gt 0 ]; then
	echo "$pass passed, $fail failed, $skip skipped"
else
	echo "$pass passed, $fail failed"
fi
[ "$fail" = 0 ]
