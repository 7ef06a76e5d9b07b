#!/bin/bash
# kexec (READING_KEXEC_IMAGE / READING_KEXEC_INITRAMFS -> KEXEC_KERNEL_CHECK /
# KEXEC_INITRAMFS_CHECK, and KEXEC_CMDLINE): kexec_file_load takes a signed
# kernel and initramfs; either one unsigned is denied; the old kexec_load
# cannot be appraised and is refused. Images are loaded, never executed.
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/guest.sh"

K=$IMA_STACK/kexec
cmdline="console=ttyS0 ima-stack-kexec-test=$RANDOM"

tap_errno "kexec_file_load: signed kernel + signed initramfs" OK \
	kcall kexec_file_load "$K/bzImage" "$K/initrd.cpio" "$cmdline"
tap_is "/sys/kernel/kexec_loaded reports the image" "$(</sys/kernel/kexec_loaded)" 1
tap_errno "kexec_file_load: unload again" OK kcall kexec_file_unload
tap_is "/sys/kernel/kexec_loaded is clear" "$(</sys/kernel/kexec_loaded)" 0
check_entry "kexec kernel measured with its signature" "$K/bzImage"
check_entry "kexec initramfs measured with its signature" "$K/initrd.cpio"

# KEXEC_CMDLINE: an ima-buf entry whose digest is sha256 of the command line
# (without its NUL) and whose buffer is the command line itself
e=$(awk '$5 == "kexec-cmdline"' "$ASCII" | tail -n 1)
tap_is "KEXEC_CMDLINE entry digest = sha256 of the command line" \
	"$(echo "$e" | cut -d' ' -f4)" "sha256:$(printf '%s' "$cmdline" | sha256sum | cut -d' ' -f1)"
tap_is "KEXEC_CMDLINE entry carries the command line" \
	"$(echo "$e" | cut -d' ' -f6 | xxd -r -p)" "$cmdline"

tap_errno "kexec_file_load: unsigned kernel denied" EACCES \
	kcall kexec_file_load "$K/bzImage.unsigned" "$K/initrd.cpio" "$cmdline"
tap_errno "kexec_file_load: unsigned initramfs denied" EACCES \
	kcall kexec_file_load "$K/bzImage" "$K/initrd.cpio.unsigned" "$cmdline"
tap_errno "kexec_file_load: signed kernel, no initramfs" OK \
	kcall kexec_file_load "$K/bzImage" - "$cmdline"
tap_errno "kexec_file_load: unload" OK kcall kexec_file_unload
tap_errno "kexec_load (no file to appraise) denied" EACCES kcall kexec_load

# the same through kexec-tools, as an administrator would type it
if out=$(kexec -s -l "$K/bzImage" --initrd="$K/initrd.cpio" --append="$cmdline" 2>&1); then
	tap_is "kexec -s -l (kexec-tools) loads the signed pair" "$(</sys/kernel/kexec_loaded)" 1
else
	tap_fail "kexec -s -l (kexec-tools) loads the signed pair" "$out"
fi
tap_cmd "kexec -s -u unloads it" kexec -s -u
tap_kexec_refused "kexec -s -l refuses the unsigned kernel (EACCES)" "Permission denied" \
	"$K/bzImage.unsigned" --initrd="$K/initrd.cpio"
tap_is "nothing left loaded after the denials" "$(</sys/kernel/kexec_loaded)" 0

tap_done
