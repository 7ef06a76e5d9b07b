#!/bin/bash
# The common loader's contract, for every kernel_read_file_id, through
# lib/test_kernel_read_file (kernel-patches 0009):
#  - EINVAL for a directory, a non-regular file, an empty file;
#  - EFBIG when the file exceeds the buffer; ETXTBSY while a writer has it;
#  - IMA appraises by the func read_idmap maps the id to (FILE_CHECK, not
#    appraised by our policy, for ids without a mapping), measures every
#    whole-file read with the digest of the bytes read, and for a partial
#    read appraises and measures the whole file before any byte is read.
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/guest.sh"

T=/sys/devices/virtual/misc/test_kernel_read_file
F=$IMA_STACK/krf
[ -d "$T" ] || need_module test_kernel_read_file TEST_KERNEL_READ_FILE

# krf ID PATH [BUF_SIZE [WANT_FILE_SIZE]]: one kernel_read_file_from_path()
# call; prints the errno name (OK on success). Sets $bytes and $digest.
krf() {
	echo 1 >"$T/reset"
	echo "READING_$1" >"$T/id"
	[ -z "${3:-}" ] || echo "$3" >"$T/buf_size"
	[ -z "${4:-}" ] || echo "$4" >"$T/want_file_size"
	printf '%s' "$2" >"$T/trigger_path"
	local r
	r=$(<"$T/result")
	bytes=$(sed -n 's/^bytes=//p' <<<"$r")
	digest=$(sed -n 's/^sha256=//p' <<<"$r")
	local e
	e=$(sed -n 's/^errno=-\{0,1\}//p' <<<"$r")
	[ "$e" = 0 ] && echo OK || echo "$e"
}

: >/var/tmp/empty
declare -A func=([FIRMWARE]=FIRMWARE_CHECK [MODULE]=MODULE_CHECK
	[KEXEC_IMAGE]=KEXEC_KERNEL_CHECK [KEXEC_INITRAMFS]=KEXEC_INITRAMFS_CHECK
	[POLICY]=POLICY_CHECK [X509_CERTIFICATE]=FILE_CHECK [UNKNOWN]=FILE_CHECK)
for id in FIRMWARE MODULE KEXEC_IMAGE KEXEC_INITRAMFS POLICY X509_CERTIFICATE UNKNOWN; do
	f=${func[$id]}
	tap_is "$id: directory -> EINVAL" "$(krf "$id" /etc)" EINVAL
	tap_is "$id: character device -> EINVAL" "$(krf "$id" /dev/null)" EINVAL
	tap_is "$id: empty file -> EINVAL" "$(krf "$id" /var/tmp/empty)" EINVAL
	# (files of their own: opening a file that has a writer makes IMA log an
	# open_writers violation for it, which would mask its measurement)
	head -c 8192 /dev/urandom >"/var/tmp/big-$id"
	tap_is "$id: file larger than the buffer -> EFBIG" "$(krf "$id" "/var/tmp/big-$id" 4096)" EFBIG
	head -c 512 /dev/urandom >"/var/tmp/busy-$id"
	exec 4>>"/var/tmp/busy-$id"
	tap_is "$id: file open for write -> ETXTBSY" "$(krf "$id" "/var/tmp/busy-$id")" ETXTBSY
	exec 4>&-

	# whole-file reads: appraisal by func, measurement of the bytes read
	got=$(krf "$id" "$F/signed-$id.bin")
	tap_is "$id ($f): signed file reads" "$got" OK
	krf "$id" "$F/signed-$id.bin" >/dev/null
	tap_is "$id: the loader's digest is sha256 of the file" "$digest" "$(sha256 "$F/signed-$id.bin")"
	check_entry "$id: measured, digest and signature logged" "$F/signed-$id.bin"
	if [ "$f" = FILE_CHECK ]; then
		tap_is "$id ($f, not appraised): unsigned file reads" "$(krf "$id" "$F/unsigned-$id.bin")" OK
	else
		tap_is "$id ($f): unsigned file -> EACCES" "$(krf "$id" "$F/unsigned-$id.bin")" EACCES
	fi
	check_entry "$id: unsigned file measured too" "$F/unsigned-$id.bin" unsigned

	# partial read (file_size wanted, buffer smaller than the file)
	got=$(krf "$id" "$F/partial-signed-$id.bin" 4096 1)
	tap_is "$id: partial read of a signed file" "$got" OK
	krf "$id" "$F/partial-signed-$id.bin" 4096 1 >/dev/null
	tap_is "$id: partial read returns the buffer's worth" "$bytes" 4096
	check_entry "$id: partial read measured as the whole file" "$F/partial-signed-$id.bin"
	if [ "$f" = FILE_CHECK ]; then
		tap_is "$id: partial read of an unsigned file (not appraised)" \
			"$(krf "$id" "$F/partial-unsigned-$id.bin" 4096 1)" OK
	else
		tap_is "$id: partial read of an unsigned file -> EACCES" \
			"$(krf "$id" "$F/partial-unsigned-$id.bin" 4096 1)" EACCES
	fi
done

# the fd flavour: a descriptor of this shell
exec 3<"$IMA_STACK/krf/signed-FIRMWARE.bin"
echo 1 >"$T/reset"
echo READING_FIRMWARE >"$T/id"
echo 3 >"$T/trigger_fd"
exec 3<&-
tap_is "kernel_read_file_from_fd() on a signed file" "$(sed -n 's/^errno=//p' "$T/result")" 0
exec 3<"$IMA_STACK/krf/unsigned-FIRMWARE.bin"
echo 3 >"$T/trigger_fd"
exec 3<&-
tap_is "kernel_read_file_from_fd() on an unsigned file -> EACCES" \
	"$(sed -n 's/^errno=-\{0,1\}//p' "$T/result")" EACCES
tap_is "kernel_read_file_from_path_initns() on a signed file" \
	"$(echo 1 >"$T/reset"; echo READING_FIRMWARE >"$T/id"
	   printf '%s' "$F/signed-FIRMWARE.bin" >"$T/trigger_path_initns"
	   sed -n 's/^errno=//p' "$T/result")" 0

tap_done
