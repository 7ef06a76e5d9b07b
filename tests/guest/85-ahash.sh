#!/bin/bash
# Booted with ima.ahash_minsize=4096 ima.ahash_bufsize=65536, the parameters
# that turned on IMA's asynchronous hash path. Patch 0002 removes that path:
# the parameters no longer exist and every loader buffer is hashed with
# shash, whatever the command line says. An unpatched kernel takes the ahash
# path for every buffer of a page or more; the loader's buffers are
# vmalloc()ed and sg_init_one() on them is a BUG under CONFIG_DEBUG_SG, at
# the first load below. Each file loads and appraises, and each logged digest
# equals sha256 of the file.
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/guest.sh"

for w in ima.ahash_minsize=4096 ima.ahash_bufsize=65536; do
	grep -qw "$w" /proc/cmdline ||
		tap_bail "this suite needs $w on the kernel command line"
done
# an unpatched kernel has both (they are writable module parameters); not a
# bail: the loads below are what must fail there
P=/sys/module/ima/parameters
for p in ahash_minsize ahash_bufsize; do
	if [ -e "$P/$p" ]; then
		tap_fail "no $p parameter" "$P/$p exists: $(<"$P/$p")"
	else
		tap_ok "no $p parameter"
	fi
done
# no FILE_CHECK rule may hash a file at open() before the loader's buffer is
# hashed, or the buffer path would not be exercised
tap_is "the loader-only policy is active" \
	"$(grep -c 'func=FILE_CHECK\|func=MMAP_CHECK\|func=BPRM_CHECK' "$IMA_SFS/policy" || true)" 0

TF=/sys/devices/virtual/misc/test_firmware
tap_errno "firmware, 300 kB, loads" OK \
	kcall write "$TF/trigger_request" ima-stack/fw-300k.bin
check_entry "firmware digest and signature logged" /usr/lib/firmware/ima-stack/fw-300k.bin

M=$IMA_STACK/modules
tap_errno "module loads" OK kcall finit_module "$M/test_module-imasig.ko"
kcall delete_module test_module >/dev/null || true
check_entry "module digest and signature logged" "$M/test_module-imasig.ko"
tap_errno "unsigned module still denied" EACCES kcall finit_module "$M/test_module-unsigned.ko"

K=$IMA_STACK/kexec
tap_errno "kexec kernel + initramfs load" OK \
	kcall kexec_file_load "$K/bzImage" "$K/initrd.cpio" "console=ttyS0"
kcall kexec_file_unload >/dev/null || true
check_entry "kexec kernel digest and signature logged" "$K/bzImage"
check_entry "kexec initramfs digest and signature logged" "$K/initrd.cpio"

tap_errno "two-page policy loads" OK \
	kcall write "$IMA_SFS/policy" /etc/ima/tests/two-pages
check_entry "policy digest and signature logged" /etc/ima/tests/two-pages

tap_done
