#!/bin/bash
# Firmware through the common loader (READING_FIRMWARE -> FIRMWARE_CHECK):
# signed blobs load, unsigned/tampered/rogue ones are denied with EACCES, on
# every test_firmware path (direct, into a buffer, partial read), and the
# sysfs fallback cannot bypass appraisal.
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/guest.sh"

TF=/sys/devices/virtual/misc/test_firmware
FWDIR=/usr/lib/firmware/ima-stack
[ -d "$TF" ] || tap_bail "test_firmware is not in this kernel (CONFIG_TEST_FIRMWARE)"

tf() { printf '%s' "$2" >"$TF/$1"; }

# --- request_firmware(): whole file, kernel-allocated buffer
tap_errno "request_firmware: signed blob loads" OK \
	kcall write "$TF/trigger_request" ima-stack/fw.bin
check_entry "signed blob measured: digest and signature logged" "$FWDIR/fw.bin"
for v in unsigned tampered rogue; do
	tap_errno "request_firmware: $v blob denied" EACCES \
		kcall write "$TF/trigger_request" "ima-stack/fw-$v.bin"
done
check_entry "unsigned blob measured although denied (no signature)" "$FWDIR/fw-unsigned.bin" unsigned
check_entry "tampered blob measured with its stale signature" "$FWDIR/fw-tampered.bin"
check_entry "rogue-signed blob measured with its foreign signature" "$FWDIR/fw-rogue.bin"
tap_errno "request_firmware: missing blob" ENOENT \
	kcall write "$TF/trigger_request" ima-stack/no-such.bin

# --- request_firmware_into_buf() and request_partial_firmware_into_buf()
# batched requests report their result in test_result, the data in
# read_firmware
batched() { # NAME INTO_BUF PARTIAL OFFSET SIZE -> errno name of the result
	tf reset 1
	tf config_name "$1"
	tf config_num_requests 1
	tf config_into_buf "$2"
	tf config_partial "$3"
	tf config_file_offset "$4"
	tf config_buf_size "$5"
	tf trigger_batched_requests 1
	kcall errname "$(<"$TF/test_result")"
}
tap_is "into_buf: signed blob loads" "$(batched ima-stack/fw.bin 1 0 0 1024)" OK
# (sysfs reports a size of 4096: compare a stream, not the files)
if cmp -s <(cat "$TF/read_firmware") "$FWDIR/fw.bin"; then
	tap_ok "into_buf: the buffer holds the file's bytes"
else
	tap_fail "into_buf: the buffer holds the file's bytes" \
		"read_firmware: $(wc -c <"$TF/read_firmware" 2>&1) bytes, $(head -c 32 "$TF/read_firmware" 2>&1 | xxd -p)" \
		"file: $(head -c 32 "$FWDIR/fw.bin" | xxd -p)"
fi
tap_is "into_buf: unsigned blob denied" "$(batched ima-stack/fw-unsigned.bin 1 0 0 1024)" EACCES
tap_is "into_buf: buffer smaller than the file" "$(batched ima-stack/fw.bin 1 0 0 512)" EFBIG
tap_is "partial read: signed blob loads" "$(batched ima-stack/fw.bin 1 1 512 256)" OK
if cmp -s <(head -c 256 "$TF/read_firmware") <(tail -c +513 "$FWDIR/fw.bin" | head -c 256); then
	tap_ok "partial read: the buffer holds bytes 512..767"
else
	tap_fail "partial read: the buffer holds bytes 512..767"
fi
tap_is "partial read: unsigned blob denied (IMA reads the whole file)" \
	"$(batched ima-stack/fw-unsigned.bin 1 1 512 256)" EACCES
tap_is "partial read: tampered blob denied" \
	"$(batched ima-stack/fw-tampered.bin 1 1 0 256)" EACCES
tf reset 1

# --- the sysfs fallback: a user-space loader may not bypass appraisal
name=ima-stack/via-sysfs.bin
dev=/sys/class/firmware/${name//\//!}
kcall write "$TF/trigger_custom_fallback" "$name" >/tmp/fallback.out &
pid=$!
for _ in $(seq 100); do [ -e "$dev/loading" ] && break; sleep 0.1; done
if [ -e "$dev/loading" ]; then
	echo 1 >"$dev/loading"
	cat "$FWDIR/fw.bin" >"$dev/data"
	got=$(kcall write "$dev/loading" 0 || true)
	tap_is "sysfs fallback: completing the upload is refused" "$got" EACCES
else
	tap_fail "sysfs fallback: completing the upload is refused" "no $dev/loading appeared"
	echo -1 >"/sys/class/firmware/timeout" 2>/dev/null || true
fi
wait "$pid" || true
tap_is "sysfs fallback: the request fails" "$(</tmp/fallback.out)" ENODEV

tap_done
