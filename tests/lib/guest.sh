# shellcheck shell=bash
# Helpers for guest tests (run inside the QEMU guest). Sourced, never run.

IMA_SFS=/sys/kernel/security/ima
ASCII=$IMA_SFS/ascii_runtime_measurements

# sha256 FILE: the hex digest alone
sha256() {
	sha256sum "$1" | cut -d' ' -f1
}

# ima_xattr FILE: security.ima as lower-case hex, no 0x
ima_xattr() {
	getfattr --absolute-names -n security.ima -e hex "$1" 2>/dev/null |
		sed -n 's/^security.ima=0x//p'
}

# cert_skid DER: the subject key identifier, lower-case hex (the kernel's key
# description ends with it)
cert_skid() {
	# X509v3 SKID extension: OID 2.5.29.14 = 06 03 55 1d 0e, then an OCTET
	# STRING wrapping an OCTET STRING of 20 bytes
	xxd -p "$1" | tr -d '\n' | sed -n 's/.*0603551d0e0416041\(4[0-9a-f]\{40\}\).*/\1/p' | cut -c2-
}

# ima_keyring_descriptions: descriptions of the keys on .ima, one a line
ima_keyring_descriptions() {
	local id ring
	ring=$(ima_keyring_id)
	[ -n "$ring" ] || return 0
	for id in $(keyctl rlist "$ring"); do
		keyctl rdescribe "$id" | cut -d';' -f5-
	done
}

# ima_keyring_id: the serial number of the .ima keyring, in decimal
ima_keyring_id() {
	local hex
	hex=$(awk '$8 == "keyring" && $9 == ".ima:" {print $1; exit}' /proc/keys)
	[ -n "$hex" ] && echo $((16#$hex))
}

# policy_text: the active policy as the kernel shows it
policy_text() {
	cat "$IMA_SFS/policy"
}

# log_entries NAME: ascii list lines whose file name field is NAME
log_entries() {
	awk -v n="$1" '$5 == n' "$ASCII"
}
