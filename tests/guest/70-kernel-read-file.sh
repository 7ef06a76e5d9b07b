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
# call. Sets $res to the errno name (OK on success), $bytes and $digest to
# what the module reports. Shell builtins only: a fork costs tens of ms
# under TCG, and this runs a hundred times.
krf() {
	echo 1 >"$T/reset"
	echo "READING_$1" >"$T/id"
	[ -z "${3:-}" ] || echo "$3" >"$T/buf_size"
	[ -z "${4:-}" ] || echo "$4" >"$T/want_file_size"
	# (the trigger fails only for a bad setting; then $res stays empty)
	printf '%s' "$2" >"$T/trigger_path" || true
	local line e=''
	bytes='' digest=''
	while IFS= read -r line || [ -n "$line" ]; do
		case $line in
		bytes=*) bytes=${line#bytes=} ;;
		sha256=*) digest=${line#sha256=} ;;
		errno=*) e=${line#errno=} e=${e#-} ;;
		esac
	done <"$T/result"
	if [ "$e" = 0 ]; then res=OK; else res=$e; fi
}

: >/var/tmp/empty
declare -A func=([FIRMWARE]=FIRMWARE_CHECK [MODULE]=MODULE_CHECK
	[KEXEC_IMAGE]=KEXEC_KERNEL_CHECK [KEXEC_INITRAMFS]=KEXEC_INITRAMFS_CHECK
	[POLICY]=POLICY_CHECK [X509_CERTIFICATE]=FILE_CHECK [UNKNOWN]=FILE_CHECK)
for id in FIRMWARE MODULE KEXEC_IMAGE KEXEC_INITRAMFS POLICY X509_CERTIFICATE UNKNOWN; do
	f=${func[$id]}
	krf "$id" /etc
	tap_is "$id: directory -> EINVAL" "$res" EINVAL
	krf "$id" /dev/null
	tap_is "$id: character device -> EINVAL" "$res" EINVAL
	krf "$id" /var/tmp/empty
	tap_is "$id: empty file -> EINVAL" "$res" EINVAL
	# (files of their own: opening a file that has a writer makes IMA log an
	# open_writers violation for it, which would mask its measurement)
	head -c 8192 /dev/urandom >"/var/tmp/big-$id"
	krf "$id" "/var/tmp/big-$id" 4096
	tap_is "$id: file larger than the buffer -> EFBIG" "$res" EFBIG
	head -c 512 /dev/urandom >"/var/tmp/busy-$id"
	exec 4>>"/var/tmp/busy-$id"
	krf "$id" "/var/tmp/busy-$id"
	tap_is "$id: file open for write -> ETXTBSY" "$res" ETXTBSY
	exec 4>&-

	# whole-file reads: appraisal by func, measurement of the bytes read
	krf "$id" "$F/signed-$id.bin"
	tap_is "$id ($f): signed file reads" "$res" OK
	tap_is "$id: the loader's digest is sha256 of the file" "$digest" "$(sha256 "$F/signed-$id.bin")"
	check_entry "$id: measured, digest and signature logged" "$F/signed-$id.bin"
	if [ "$f" = FILE_CHECK ]; then
		krf "$id" "$F/unsigned-$id.bin"
		tap_is "$id ($f, not appraised): unsigned file reads" "$res" OK
	else
		krf "$id" "$F/unsigned-$id.bin"
		tap_is "$id ($f): unsigned file -> EACCES" "$res" EACCES
	fi
	check_entry "$id: unsigned file measured too" "$F/unsigned-$id.bin" unsigned

	# partial read (file_size wanted, buffer smaller than the file)
	krf "$id" "$F/partial-signed-$id.bin" 4096 1
	tap_is "$id: partial read of a signed file" "$res" OK
	tap_is "$id: partial read returns the buffer's worth" "$bytes" 4096
	check_entry "$id: partial read measured as the whole file" "$F/partial-signed-$id.bin"
	if [ "$f" = FILE_CHECK ]; then
		krf "$id" "$F/partial-unsigned-$id.bin" 4096 1
		tap_is "$id: partial read of an unsigned file (not appraised)" "$res" OK
	else
		krf "$id" "$F/partial-unsigned-$id.bin" 4096 1
		tap_is "$id: partial read of an unsigned file -> EACCES" "$res" EACCES
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
