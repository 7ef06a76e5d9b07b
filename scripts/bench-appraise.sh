#!/usr/bin/env bash
# make bench-appraise: what appraising everything costs. Boot-to-results
# time of the same guest suites (the main boot's, without 90-attest) under
# the measure-only boot policy (policies/ima-policy) and under the
# appraise-all boot's policy (tests/boots/appraise-all.boot), in
# alternating boots, and the time the sign stage takes to sign the whole
# guest tree. Figures, not a test.
# Inputs:  the patched kernel, image, rootfs tarball and keys (make builds
#          them first); BENCH_BOOTS (boots per policy, default 3).
# Outputs: medians and their ratio on stdout; per-boot figures in
#          build/<variant>/bench-appraise/times.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/boots.sh"

variant=$(stage_variant)
n=${BENCH_BOOTS:-3}
out=$BUILD/$variant/bench-appraise
rm -rf "$out" && mkdir -p "$out"
# the main boot's suites without the quote, and the appraise-all boot's
# policy
boot_read main
suites=$(tr ',' '\n' <<<"$B_SUITES" | grep -v '^90-' | paste -sd,)
boot_read appraise-all
all_policy=$(boot_policy_path)
[ -n "$all_policy" ] || die "tests/boots/appraise-all.boot names no policy"

# 1. the sign stage from scratch, in a scratch build directory (the real
#    signed tree is left alone)
scratch=$out/sign-scratch
mkdir -p "$scratch"
ln -s "$(readlink -f "$BUILD/rootfs.tar")" "$scratch/rootfs.tar"
log "timing the sign stage from scratch (scratch dir $scratch)"
t0=$(date +%s.%N)
BUILD=$scratch STAGE=sign "$TOP/scripts/sign.sh" 2>"$out/sign.log" ||
	die "the sign stage failed: see $out/sign.log"
sign_s=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}')
nfiles=$(sed -n 's/.*signed all \([0-9]*\) files of the guest tree in \([0-9]*\) s/\1/p' "$out/sign.log")
tree_s=$(sed -n 's/.*signed all \([0-9]*\) files of the guest tree in \([0-9]*\) s/\2/p' "$out/sign.log")
[ -n "$nfiles" ] || die "the sign stage did not report its file count: see $out/sign.log"
rm -rf "$scratch"

# 2. the boots, alternating so that load on the machine hits both alike
for i in $(seq "$n"); do
	for pol in measure appraise-all; do
		extra=
		[ "$pol" = measure ] || extra=ima_stack.policy=$all_policy
		log "boot $i/$n under $pol"
		t0=$(date +%s.%N)
		IMA_STACK_TESTS=$suites KCMDLINE_EXTRA=$extra \
			"$TOP/scripts/boot.sh" check "bench-$pol-$i" 2>>"$out/boots.log" ||
			die "boot $i under $pol failed: see $out/boots.log"
		s=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}')
		rdir=$(results_dir "$(variant_dir "$variant")" "bench-$pol-$i")
		# a boot whose suites failed measures something else: refuse it
		if cat "$rdir"/tap/*.tap | grep '^not ok\|^Bail' | grep -qv '# TODO'; then
			die "boot $i under $pol had failing checks: see $rdir/tap"
		fi
		echo "$pol $s" >>"$out/times"
	done
done

med() { grep "^$1 " "$out/times" | cut -d' ' -f2 | sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
m1=$(med measure) m2=$(med appraise-all)
echo
echo "Guest suites $suites, QEMU TCG, boot to results (swtpm start to results read), $n boots each, alternating:"
printf '  %-34s %8s s   (%s)\n' "measure-only (ima-policy)" "$m1" "$(grep '^measure ' "$out/times" | cut -d' ' -f2 | tr '\n' ' ')"
printf '  %-34s %8s s   (%s)\n' "appraise-all" "$m2" "$(grep '^appraise-all ' "$out/times" | cut -d' ' -f2 | tr '\n' ' ')"
printf '  %-34s %8s\n' "appraise-all / measure-only" "$(awk -v a="$m2" -v b="$m1" 'BEGIN {printf "%.2fx", a / b}')"
echo "Sign stage from scratch: $sign_s s in all; the whole tree ($nfiles files) signed in $tree_s s on $(nproc) cores"
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
