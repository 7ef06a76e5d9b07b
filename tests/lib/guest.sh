# shellcheck shell=bash
# Helpers for guest tests (run inside the QEMU guest). Sourced, never run.

IMA_SFS=/sys/kernel/security/ima
ASCII=$IMA_SFS/ascii_runtime_measurements
# where a policy is written (rules, or the path of a signed file) and read
POLICY=$IMA_SFS/policy

# sha256 FILE: the hex digest alone
sha256() {
	local out
	out=$(sha256sum "$1")
	echo "${out%% *}"
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

# cert_desc DER: the description the kernel gives the certificate's key
# ("NAME: SKID"), NAME made from the subject as x509_fabricate_name() does:
# CN alone, O alone, or "O: CN" unless CN repeats O's first 7 characters
cert_desc() {
	local subj cn o name
	subj=$(openssl x509 -inform DER -in "$1" -noout -subject -nameopt multiline,utf8,-esc_msb 2>/dev/null)
	cn=$(sed -n 's/^ *commonName *= //p' <<<"$subj" | head -n 1)
	o=$(sed -n 's/^ *organizationName *= //p' <<<"$subj" | head -n 1)
	if [ -z "$cn" ]; then
		name=$o
	elif [ -n "$o" ] && ! { [ ${#cn} -ge 7 ] && [ ${#o} -ge 7 ] && [ "${cn:0:7}" = "${o:0:7}" ]; }; then
		name="$o: $cn"
	else
		name=$cn
	fi
	printf '%s: %s\n' "$name" "$(cert_skid "$1")"
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
	cat "$POLICY"
}

# log_entries NAME: ascii list lines whose file name field is NAME
log_entries() {
	awk -v n="$1" '$5 == n' "$ASCII"
}

# entry_for PATH: the newest ascii list line for PATH (empty when none)
entry_for() {
	awk -v n="$1" '$5 == n' "$ASCII" | tail -n 1
}

# entry_count PATH: how many entries the list has for PATH
entry_count() {
	awk -v n="$1" '$5 == n' "$ASCII" | wc -l
}

# check_entry NAME PATH [SIGNED]: the list has an entry for PATH whose digest
# is sha256 of the file and whose signature field equals security.ima
# (SIGNED=unsigned: the field must be empty). One TAP line.
check_entry() {
	local name=$1 path=$2 real e want_sig
	real=$(readlink -f "$path")
	e=$(entry_for "$real")
	if [ -z "$e" ]; then
		tap_fail "$name" "no measurement entry for $real"
		return
	fi
	if [ "${3:-signed}" = unsigned ]; then
		want_sig=
	else
		want_sig=$(ima_xattr "$real")
	fi
	local got_d got_s want_d
	# PCR template-hash template digest name signature
	read -r _ _ _ got_d _ got_s _ <<<"$e"
	want_d=sha256:$(sha256 "$real")
	if [ "$got_d" = "$want_d" ] && [ "$got_s" = "$want_sig" ]; then
		tap_ok "$name"
	else
		tap_fail "$name" "entry: $e" "want digest $want_d" "want sig: ${want_sig:-(none)}"
	fi
}

# dmesg_since MARK: kernel messages from the line containing MARK on
dmesg_since() {
	dmesg | sed -n "/$1/,\$p"
}

# kmark TEXT: put TEXT into the kernel log (to slice dmesg later)
kmark() {
	echo "ima-stack-mark: $1" >/dev/kmsg
}

# kconfig SYMBOL: the running kernel's value of CONFIG_SYMBOL ("y", "m", a
# string; empty when not set), from /proc/config.gz (IMA_STACK_KCONFIG names
# another file, compressed or not). Returns 2 when there is no config to read.
kconfig() {
	local f=${IMA_STACK_KCONFIG:-/proc/config.gz}
	[ -r "$f" ] || return 2
	zcat -f "$f" | sed -n "s/^CONFIG_$1=//p"
}

# need_module MODULE SYMBOL: load MODULE (MODPROBE names the loader, for
# host tests). When it does not load, the suite ends here: a failure (exit 1)
# when the kernel was built with CONFIG_SYMBOL, a skip (exit 77) only when
# it was built without it, setup broken (exit 99) when the config is unknown.
need_module() {
	local err v
	err=$(${MODPROBE:-modprobe} "$1" 2>&1) && return 0
	v=$(kconfig "$2") ||
		tap_bail "$1 does not load and the kernel config (${IMA_STACK_KCONFIG:-/proc/config.gz}) cannot be read: is CONFIG_IKCONFIG_PROC set?"
	if [ -z "$v" ]; then
		tap_skip "$1 tests" "the kernel is built without CONFIG_$2"
	else
		tap_fail "$1 loads (the kernel has CONFIG_$2=$v)" "modprobe $1: ${err:-failed}"
	fi
	tap_done
}

# The suites' fixtures (tests/guest/*.fixtures, made by scripts/sign.sh):
# one manifest per fragment, "file PATH SIZE SHA256 CLASS" and
# "value NAME TEXT" lines.
FIXTURES=${IMA_STACK_FIXTURES:-/opt/ima-stack/fixtures}

# fixture_value FRAGMENT NAME: the value FRAGMENT declared (empty: bail out)
fixture_value() {
	local v
	v=$(sed -n "s/^value $2 //p" "$FIXTURES/$1.manifest" 2>/dev/null)
	if [ -z "$v" ]; then
		echo "no value '$2' in $FIXTURES/$1.manifest" >&2
		tap_bail "no value '$2' in $FIXTURES/$1.manifest"
	fi
	printf '%s\n' "$v"
}

# fixture_size PATH: the size the fixtures recorded for PATH (empty: bail)
fixture_size() {
	local v
	v=$(awk -v p="$1" '$1 == "file" && $2 == p {print $3}' "$FIXTURES"/*.manifest 2>/dev/null)
	if [ -z "$v" ]; then
		echo "no fixture $1 in $FIXTURES" >&2
		tap_bail "no fixture $1 in $FIXTURES"
	fi
	printf '%s\n' "$v"
}

# tap_kexec_refused NAME TEXT ARGS...: `kexec -s -l ARGS` must fail with
# TEXT, the strerror text kexec-tools prints for the syscall's errno (an
# image it loads anyway is unloaded again)
tap_kexec_refused() {
	local name=$1 text=$2 out
	shift 2
	if out=$(kexec -s -l "$@" 2>&1); then
		tap_fail "$name" "it loaded: $out"
		kexec -s -u || true
	elif grep -q -- "$text" <<<"$out"; then
		tap_ok "$name"
	else
		tap_fail "$name" "refused for another reason: $out"
	fi
}

# tap_kexec_loads NAME ARGS...: `kexec ARGS` (a load: -s -l for
# kexec_file_load, -l for kexec_load) must succeed and leave an image
# loaded; one TAP line, kexec's output when it fails
tap_kexec_loads() {
	local name=$1 out
	shift
	if out=$(kexec "$@" 2>&1); then
		tap_is "$name" "$(cat /sys/kernel/kexec_loaded)" 1
	else
		tap_fail "$name" "$out"
	fi
}
