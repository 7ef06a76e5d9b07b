#!/bin/bash
# Booted with ima.ahash_minsize=4096: every loader buffer of a page or more
# is hashed through ahash (kernel-patches 0002). The loader's buffers are
# vmalloc()ed; an unfixed kernel hands them to sg_init_one(), which
# CONFIG_DEBUG_SG turns into a BUG. Each file loads and appraises, and each
# logged digest equals sha256 of the file.
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/guest.sh"

grep -qw 'ima.ahash_minsize=4096' /proc/cmdline ||
	tap_bail "this suite needs ima.ahash_minsize=4096 on the kernel command line"
tap_is "ahash threshold in force" "$(</sys/module/ima/parameters/ahash_minsize)" 4096
# the same suite runs a second time with ima.ahash_bufsize=65536: chunks of
# 16 pages per crypto_ahash_update() instead of the default one page
bs=$(sed -n 's/.*ima.ahash_bufsize=\([0-9]*\).*/\1/p' /proc/cmdline)
[ -z "$bs" ] || tap_is "ahash buffer size in force" "$(</sys/module/ima/parameters/ahash_bufsize)" "$bs"
# no FILE_CHECK rule may hash a file at open() before the loader's buffer is
# hashed, or the buffer path would not be exercised
tap_is "the loader-only policy is active" \
	"$(grep -c 'func=FILE_CHECK\|func=MMAP_CHECK\|func=BPRM_CHECK' "$IMA_SFS/policy" || true)" 0

TF=/sys/devices/virtual/misc/test_firmware
tap_errno "firmware, 300 kB, loads through ahash" OK \
	kcall write "$TF/trigger_request" ima-stack/fw-300k.bin
check_entry "firmware digest and signature logged" /usr/lib/firmware/ima-stack/fw-300k.bin

M=$IMA_STACK/modules
tap_errno "module loads through ahash" OK kcall finit_module "$M/test_module-imasig.ko"
kcall delete_module test_module >/dev/null || true
check_entry "module digest and signature logged" "$M/test_module-imasig.ko"
tap_errno "unsigned module still denied" EACCES kcall finit_module "$M/test_module-unsigned.ko"

K=$IMA_STACK/kexec
tap_errno "kexec kernel + initramfs load through ahash" OK \
	kcall kexec_file_load "$K/bzImage" "$K/initrd.cpio" "console=ttyS0"
kcall kexec_file_unload >/dev/null || true
check_entry "kexec kernel digest and signature logged" "$K/bzImage"
check_entry "kexec initramfs digest and signature logged" "$K/initrd.cpio"

tap_errno "two-page policy loads through ahash" OK \
	kcall write "$IMA_SFS/policy" /etc/ima/tests/two-pages
check_entry "policy digest and signature logged" /etc/ima/tests/two-pages

tap_done
