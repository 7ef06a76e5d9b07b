#!/bin/bash
# Loader benchmark (make bench-kernel; not part of make check): a 64 MiB
# signed firmware blob through request_firmware() with IMA appraisal,
# against sha256sum of the same bytes in the same guest. Boot it with the
# loader-only policy, so that nothing but the loader hashes the blob, once
# as is (shash) and once with ima.ahash_minsize=4096 (ahash).
# Each round drops the caches (the inode and its IMA state go, so the next
# load hashes and verifies again), reads the file once to warm the page
# cache, then times the operation. Prints TAP plus "# bench:" lines.
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/guest.sh"

rounds=7
for w in $(</proc/cmdline); do
	case $w in ima_stack.bench_rounds=*) rounds=${w#*=} ;; esac
done
name=ima-stack/fw-64m.bin
f=/usr/lib/firmware/$name
TF=/sys/devices/virtual/misc/test_firmware
mode=shash
grep -qw 'ima.ahash_minsize=4096' /proc/cmdline && mode=ahash

us_since() { # START(ns) -> elapsed microseconds
	local end
	end=$(date +%s%N)
	echo $(((end - $1) / 1000))
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }

warm() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	cat "$f" >/dev/null
}

load_us=() sum_us=() dd_us=()
for _ in $(seq "$rounds"); do
	warm
	t=$(date +%s%N)
	r=$(kcall write "$TF/trigger_request" "$name")
	load_us+=("$(us_since "$t")")
	[ "$r" = OK ] || tap_bail "loading $name failed: $r"
	echo 1 >"$TF/release_all_firmware" 2>/dev/null || true
	warm
	t=$(date +%s%N)
	sha256sum "$f" >/dev/null
	sum_us+=("$(us_since "$t")")
	# what reading the whole file into one 64 MiB buffer costs by itself
	warm
	t=$(date +%s%N)
	dd if="$f" of=/dev/null bs=64M count=1 status=none
	dd_us+=("$(us_since "$t")")
done
check_entry "the blob was measured with its signature ($mode)" "$f"
# (IMA logs one entry: later rounds produce the same template hash, which
# the list does not repeat; they are hashed and appraised all the same,
# because dropping the inode drops its IMA state)

lm=$(printf '%s\n' "${load_us[@]}" | median)
sm=$(printf '%s\n' "${sum_us[@]}" | median)
dm=$(printf '%s\n' "${dd_us[@]}" | median)
echo "# bench: mode=$mode rounds=$rounds load_us=${load_us[*]} sha256sum_us=${sum_us[*]} dd_us=${dd_us[*]}"
echo "# bench: mode=$mode median_load_us=$lm median_sha256sum_us=$sm median_dd_us=$dm"
tap_ok "benchmark ran ($mode)"
tap_done
