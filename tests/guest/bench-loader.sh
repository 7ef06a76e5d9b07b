#!/bin/bash
# Loader benchmark (make bench-kernel; not part of make check): a 64 MiB
# signed firmware blob through request_firmware() with IMA appraisal (shash:
# patch 0002 removed IMA's ahash path), against sha256sum and dd of the same
# bytes in the same guest. Boot it with the loader-only policy, so that
# nothing but the loader hashes the blob. The modes are interleaved round by
# round in one boot, so that drift between boots cannot bias the ratios.
# Each timing starts from the same state: caches dropped (the inode and its
# IMA state go, so the next load hashes and verifies again), then the file
# read once to warm the page cache. Prints TAP plus "# bench:" lines.
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

us_since() { echo $((($(date +%s%N) - $1) / 1000)); }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }
warm() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	cat "$f" >/dev/null
}
# load: one timed request_firmware() of the blob
load() {
	warm
	local t r
	t=$(date +%s%N)
	r=$(kcall write "$TF/trigger_request" "$name")
	us_since "$t"
	[ "$r" = OK ] || tap_bail "loading $name failed: $r"
	# free the blob outside the timed window (test_firmware releases the
	# previous firmware when the next request starts)
	kcall write "$TF/trigger_request" ima-stack/fw.bin >/dev/null
}

declare -A t
for _ in $(seq "$rounds"); do
	t[shash]+=" $(load)"
	warm
	s=$(date +%s%N)
	sha256sum "$f" >/dev/null
	t[sha256sum]+=" $(us_since "$s")"
	warm
	s=$(date +%s%N)
	dd if="$f" of=/dev/null bs=64M count=1 status=none
	t[dd]+=" $(us_since "$s")"
done
check_entry "the blob was measured with its signature" "$f"
for k in shash sha256sum dd; do
	echo "# bench: $k rounds=$rounds us=${t[$k]# } median_us=$(tr ' ' '\n' <<<"${t[$k]# }" | median)"
done
tap_done
