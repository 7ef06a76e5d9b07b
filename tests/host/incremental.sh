#!/usr/bin/env bash
# Host test: with nothing changed, every build stage is a no-op (no rebuild,
# no relink, no re-sign, no new image). make check builds everything first,
# so this runs against the current outputs.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/lib/tap.sh"
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR

. "$TOP/scripts/paths.sh"
bz=$CACHE/kernel/patched/out/bzImage
img=$TOP/build/patched/rootfs.img
if [ ! -f "$bz" ] || [ ! -f "$img" ]; then
	tap_skip "stages are no-ops when nothing changed" "nothing built yet (run make)"
	tap_done
fi
before=$(stat -c '%Y %s' "$bz" "$CACHE/kernel/patched/obj/vmlinux" "$img")
for s in keys rootfs kernel-source kernel-build sign image; do
	out=$("$TOP/scripts/$s.sh" 2>&1)
	if grep -qE 'up to date|keeping existing' <<<"$out"; then
		tap_ok "$s: nothing to do"
	else
		tap_fail "$s: nothing to do" "$out"
	fi
done
tap_is "bzImage, vmlinux and the image were not touched" \
	"$(stat -c '%Y %s' "$bz" "$CACHE/kernel/patched/obj/vmlinux" "$img")" "$before"
tap_done
