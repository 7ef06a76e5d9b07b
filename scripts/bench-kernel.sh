#!/usr/bin/env bash
# make bench-kernel: IMA appraisal through the common loader against a plain
# sha256sum of the same 64 MiB in the same guest (IMA hashes with shash:
# patch 0002 removed its ahash path).
# Inputs:  the patched kernel and image (make builds them first);
#          BENCH_ROUNDS (default 9).
# Outputs: medians and ratios on stdout (boots rootfs-bench.img, made by
#          `make bench-kernel`); raw figures in
#          build/<variant>/results/bench/tap/bench-loader.tap.
. "$(dirname "$0")/lib.sh"

variant=$(stage_variant)
rounds=${BENCH_ROUNDS:-9}
log "one boot, $rounds rounds of: loader+IMA, sha256sum, dd"
IMA_STACK_TESTS=bench-loader \
	KCMDLINE_EXTRA="ima_stack.policy=/etc/ima/loader-only-policy ima_stack.bench_rounds=$rounds" \
	"$TOP/scripts/boot.sh" check bench
tap=$(results_dir "$(variant_dir "$variant")" bench)/tap/bench-loader.tap
if grep -q '^not ok\|^Bail' "$tap"; then
	cat "$tap" >&2
	die "the benchmark run failed (TAP above)"
fi

declare -A med
for k in shash sha256sum dd; do
	line=$(grep "^# bench: $k " "$tap") || die "no $k figures in $tap"
	med[$k]=${line##*median_us=}
	echo "  raw $k (us): $(sed 's/.* us=\(.*\) median_us=.*/\1/' <<<"$line")"
done
ms() { awk -v u="$1" 'BEGIN {printf "%.1f ms", u / 1000}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2fx", a / b}'; }
row() { printf '  %-44s %10s %14s\n' "$1" "$(ms "${med[$2]}")" "$(ratio "${med[$2]}" "${med[sha256sum]}")"; }
echo
echo "64 MiB signed firmware blob, request_firmware() with IMA appraisal (FIRMWARE_CHECK),"
echo "QEMU TCG guest, one boot, modes interleaved, medians of $rounds rounds, page cache warm:"
printf '  %-44s %10s %14s\n' "" "median" "vs sha256sum"
row "sha256sum in the guest" sha256sum
row "loader + IMA (shash)" shash
row "dd, the whole file into one 64 MiB buffer" dd
echo "  goal: loader <= 1.20x sha256sum"
