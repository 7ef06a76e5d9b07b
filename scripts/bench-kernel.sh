#!/usr/bin/env bash
# make bench-kernel: IMA appraisal through the common loader against a plain
# sha256sum of the same 64 MiB in the same guest, shash and ahash.
# Inputs:  the patched kernel and image (make builds them first);
#          BENCH_ROUNDS (default 7).
# Outputs: medians and ratios on stdout; raw figures in
#          build/<variant>/results/bench-*/.
. "$(dirname "$0")/lib.sh"

variant=${KVARIANT:-patched}
rounds=${BENCH_ROUNDS:-7}
base="ima_stack.policy=/etc/ima/loader-only-policy"

declare -A load sum dd
for mode in shash ahash; do
	extra=$base
	[ "$mode" = ahash ] && extra+=" ima.ahash_minsize=4096"
	log "booting for the $mode run ($rounds rounds)"
	IMA_STACK_TESTS=bench-loader KCMDLINE_EXTRA="$extra ima_stack.bench_rounds=$rounds" \
		"$TOP/scripts/boot.sh" check "bench-$mode"
	tap=$BUILD/$variant/results/bench-$mode/tap/bench-loader.tap
	grep -q '^not ok' "$tap" && { cat "$tap" >&2; die "the $mode benchmark run failed (TAP above)"; }
	line=$(grep '^# bench: mode=.* median_load_us=' "$tap") ||
		die "no figures in $tap"
	load[$mode]=$(sed 's/.*median_load_us=\([0-9]*\).*/\1/' <<<"$line")
	sum[$mode]=$(sed 's/.*median_sha256sum_us=\([0-9]*\).*/\1/' <<<"$line")
	dd[$mode]=$(sed 's/.*median_dd_us=\([0-9]*\).*/\1/' <<<"$line")
	grep '^# bench: mode=.* load_us=' "$tap" | sed 's/^# bench: /  raw: /'
done

ms() { awk -v u="$1" 'BEGIN {printf "%.1f ms", u / 1000}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2fx", a / b}'; }
echo
echo "64 MiB signed firmware blob, request_firmware() with IMA appraisal (FIRMWARE_CHECK),"
echo "QEMU TCG guest, medians of $rounds rounds, page cache warm:"
printf '  %-38s %12s %14s\n' "" "median" "vs sha256sum"
printf '  %-38s %12s %14s\n' "sha256sum in the guest (shash boot)" "$(ms "${sum[shash]}")" "1.00x"
printf '  %-38s %12s %14s\n' "loader + IMA, shash (default)" "$(ms "${load[shash]}")" "$(ratio "${load[shash]}" "${sum[shash]}")"
printf '  %-38s %12s %14s\n' "sha256sum in the guest (ahash boot)" "$(ms "${sum[ahash]}")" "1.00x"
printf '  %-38s %12s %14s\n' "loader + IMA, ahash (ahash_minsize)" "$(ms "${load[ahash]}")" "$(ratio "${load[ahash]}" "${sum[ahash]}")"
printf '  %-38s %12s %14s\n' "dd, whole file into one 64 MiB buffer" "$(ms "${dd[shash]}")" "$(ratio "${dd[shash]}" "${sum[shash]}")"
echo "  ahash / shash load time: $(ratio "${load[ahash]}" "${load[shash]}")"
echo "  goal: loader <= 1.20x sha256sum; ahash no slower than shash"
