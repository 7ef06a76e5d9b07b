#!/bin/bash
# One appraisal result per group of hooks (kernel-patches 0003), under
# policies/read-cache-policy (boot "read-cache"): a file that passed a rule
# appraising by hash must not pass, from the cache, a rule of the same group
# that demands a signature (or another hash algorithm). The other order, a
# signed file first, keeps working.
#  - issue 13's reproduction: an unsigned policy file with its hash in
#    security.ima, given to kexec_file_load as an initramfs first, is then
#    written to the policy file by path (6.1.192: accepted);
#  - FILE_CHECK, MMAP_CHECK, BPRM_CHECK: a hash rule for uid 1000, a
#    signature rule for root, same file owner (the same gap in each group);
#  - appraise_algos: the cached result is not checked against it;
#  - what else a rule asks: modsig allowed or not, permit_directio,
#    appraise_flag=check_blacklist (a signed runtime .blacklist addition);
#  - every pair of loader ids through test_kernel_read_file (kernel-patches
#    0009; skipped on a kernel without it).
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/guest.sh"

R=$IMA_STACK/readcache
K=$IMA_STACK/kexec
# a command as uid/gid 1000 without supplementary groups
as_user() { setpriv --reuid=1000 --regid=1000 --clear-groups "$@"; }

# --- issue 13, as reported ---------------------------------------------------
before=$(policy_text)
tap_errno "hash-only policy file written by path: refused (signature required)" EACCES \
	kcall write "$POLICY" "$R/policy-direct"
tap_errno "kexec_file_load: signed kernel, another hash-only policy file as initramfs (appraised by hash)" OK \
	kcall kexec_file_load "$K/bzImage" "$R/policy-via-kexec" "console=ttyS0"
tap_errno "kexec_file_load: unload" OK kcall kexec_file_unload
tap_errno "that file written by path next: refused, the initramfs's cached result does not count" EACCES \
	kcall write "$POLICY" "$R/policy-via-kexec"
tap_is "active policy unchanged (no rule of either file in it)" "$(policy_text)" "$before"
# the other order: a signed file passes both rules
before=$(policy_text)
tap_errno "signed policy file as initramfs" OK \
	kcall kexec_file_load "$K/bzImage" "$R/policy-signed" "console=ttyS0"
tap_errno "kexec_file_load: unload" OK kcall kexec_file_unload
tap_errno "the signed policy file written by path next: loads" OK \
	kcall write "$POLICY" "$R/policy-signed"
tap_is "its rule is appended" "$(policy_text)" "$(printf '%s\n%s' "$before" 'dont_measure fsmagic=0x71a3 ')"

# --- the FILE, MMAP and BPRM groups -------------------------------------------
tap_errno "FILE_CHECK: root opens a signed file of owner 4242" OK kcall read "$R/file-signed"
tap_errno "FILE_CHECK: uid 1000 opens the hash-only one (hash rule)" OK as_user kcall read "$R/file-hash"
tap_errno "FILE_CHECK: root opens it next: EACCES (signature rule), not the cached result" EACCES \
	kcall read "$R/file-hash"
tap_errno "MMAP_CHECK: root maps a signed file of owner 4243 PROT_EXEC" OK kcall mmap_exec "$R/mmap-signed"
tap_errno "MMAP_CHECK: uid 1000 maps the hash-only one" OK as_user kcall mmap_exec "$R/mmap-hash"
tap_errno "MMAP_CHECK: root maps it next: EACCES, not the cached result" EACCES \
	kcall mmap_exec "$R/mmap-hash"
tap_errno "BPRM_CHECK: root runs a signed program of owner 4244" OK kcall exec "$R/prog-signed"
tap_errno "BPRM_CHECK: uid 1000 runs the hash-only one" OK as_user kcall exec "$R/prog-hash"
tap_errno "BPRM_CHECK: root runs it next: EACCES, not the cached result" EACCES \
	kcall exec "$R/prog-hash"
# appraise_algos=sha512 for root, any algorithm for others
tap_errno "appraise_algos: root opens a file of owner 4245 hashed with sha512" OK kcall read "$R/algo-hash512"
tap_errno "appraise_algos: uid 1000 opens one hashed with sha256" OK as_user kcall read "$R/algo-hash"
tap_errno "appraise_algos: root opens that one next: EACCES (sha256 not allowed), not the cached result" EACCES \
	kcall read "$R/algo-hash"

# --- what else a rule asks: the modsig allowance, permit_directio, the
# blacklist. One cached status per group answers every rule of the group
# only if it was made under everything the rule asks (kernel-patches 0003).
TF=/sys/devices/virtual/misc/test_firmware
[ -d "$TF" ] || tap_bail "test_firmware is not in this kernel (CONFIG_TEST_FIRMWARE)"
# read_as FUNC PATH: PATH read by the loader for FUNC through a real
# interface; prints OK or the errno name. Where a refusal by appraisal
# (EACCES) is not the only failure, the one after an accepted appraisal is
# named in the test: POLICY parses the file (a module is no policy: EINVAL),
# KEXEC_IMAGE probes it as a kernel (ENOEXEC).
read_as() {
	case $1 in
	firmware) kcall write "$TF/trigger_request" "ima-stack/${2##*/}" ;;
	policy) kcall write "$POLICY" "$2" ;;
	kexec-image) kcall kexec_file_load "$2" - "console=ttyS0" ;;
	kexec-initramfs)
		kcall kexec_file_load "$K/bzImage" "$2" "console=ttyS0" &&
			kcall kexec_file_unload >/dev/null
		;;
	esac
}
# path_of KIND NAME: where the fixtures put NAME for a read as KIND
FW=/usr/lib/firmware/ima-stack
path_of() {
	if [ "$1" = firmware ]; then echo "$FW/rc-$2.ko"; else echo "$R/$2.ko"; fi
}
unload_test_module() { kcall delete_module test_module >/dev/null 2>&1 || :; }

# The modsig allowance: a module signed only by an appended signature is
# refused by every loader func whose rule does not allow modsig (FIRMWARE and
# KEXEC_INITRAMFS by hash, POLICY and KEXEC_IMAGE by imasig); finit_module
# accepting it under "imasig|modsig" must not make them accept it.
for f in firmware policy kexec-image kexec-initramfs; do
	tap_errno "modsig-only module read fresh as $f: refused" EACCES \
		read_as "$f" "$(path_of "$f" "ms-$f-fresh")"
	m=$(path_of "$f" "ms-$f-after-module")
	tap_errno "finit_module: a second copy (imasig|modsig rule)" OK kcall finit_module "$m"
	unload_test_module
	tap_errno "that copy read as $f next: refused, finit_module's modsig does not count for a rule without modsig" \
		EACCES read_as "$f" "$m"
done

# permit_directio: uid 1000's rule lets an O_DIRECT open through unappraised
# (IMA cannot hash it), root's rule does not
tap_errno "permit_directio: root opens a signed file of owner 4246 with O_DIRECT: refused (no permit_directio for root)" \
	EACCES kcall open_direct "$R/dio-root-fresh"
tap_errno "permit_directio: uid 1000 opens another with O_DIRECT (its rule has permit_directio)" OK \
	as_user kcall open_direct "$R/dio-user-then-root"
tap_errno "permit_directio: root opens that one with O_DIRECT next: refused, uid 1000's permit_directio does not count" \
	EACCES kcall open_direct "$R/dio-user-then-root"

# a signature verified by a key of the platform keyring answers
# KEXEC_KERNEL_CHECK only (0003 records it with the status); this guest
# boots without UEFI, so .platform is empty and no file can show it
tap_todo "a cached status made by a .platform key answers no other loader func" \
	"no key can be put on .platform in a guest without UEFI (SeaBIOS): reviewed, not exercised"

# appraise_flag=check_blacklist: the module's appended-signature digest is
# put on .blacklist (a signed runtime addition), after which finit_module
# refuses it, whatever read it before
bl=$(fixture_value 71-read-cache blacklist-desc)
if [ "$bl" = none ]; then
	tap_skip "check_blacklist" "no signed .blacklist addition: the CA's private key is not in the cache (IMA_STACK_KEYS)"
else
	ring=$(awk '$8 == "keyring" && $9 == ".blacklist:" {print $1; exit}' /proc/keys)
	[ -n "$ring" ] || tap_bail "no .blacklist keyring in /proc/keys (CONFIG_SYSTEM_BLACKLIST_KEYRING)"
	tap_errno "the module's digest added to .blacklist, signed by the CA" OK \
		kcall add_key blacklist "$bl" "$R/blacklist-bin.p7s" "$((16#$ring))"
	tap_errno "finit_module: the blacklisted module read fresh: refused" EACCES \
		kcall finit_module "$R/bl-direct.ko"
	unload_test_module
	tap_is "its blacklisted-hash record names the digest" \
		"$(log_entries blacklisted-hash | awk '{print $6}' | sort -u)" "${bl#bin:}"
	for s in firmware kexec-initramfs policy; do
		m=$(path_of "$s" "bl-$s")
		want=OK
		[ "$s" = policy ] && want=EINVAL
		tap_errno "the blacklisted module read as $s first (a rule without check_blacklist)" \
			"$want" read_as "$s" "$m"
		tap_errno "finit_module next: refused, the cached result was made without the blacklist check" \
			EACCES kcall finit_module "$m"
		unload_test_module
	done
fi

# --- every pair of loader ids, through test_kernel_read_file ------------------
T=/sys/devices/virtual/misc/test_kernel_read_file
[ -d "$T" ] || need_module test_kernel_read_file TEST_KERNEL_READ_FILE
# krf ID PATH: one kernel_read_file_from_path() of the whole file; the errno
# name (OK on success)
krf() {
	echo 1 >"$T/reset"
	echo "READING_$1" >"$T/id"
	printf '%s' "$2" >"$T/trigger_path"
	local e
	e=$(sed -n 's/^errno=-\{0,1\}//p' "$T/result")
	[ "$e" = 0 ] && echo OK || echo "$e"
}
for weak in FIRMWARE KEXEC_INITRAMFS; do
	for strict in POLICY MODULE KEXEC_IMAGE; do
		f=$R/hash-$weak-$strict.bin
		tap_is "$weak (by hash) reads a hash-only file" "$(krf "$weak" "$f")" OK
		tap_is "$strict (signature) reads it next: EACCES, not $weak's cached result" "$(krf "$strict" "$f")" EACCES
		# IMA keeps a rule's signature requirement with the file once a
		# rule demanded it (iint->flags), as 6.1 does when the stricter
		# read comes first: the weaker func now refuses the file too
		tap_is "$weak reads it again: EACCES (the signature requirement stays with the file)" "$(krf "$weak" "$f")" EACCES
		f=$R/signed-$strict-$weak.bin
		tap_is "$strict reads a signed file" "$(krf "$strict" "$f")" OK
		tap_is "$weak reads it next: OK" "$(krf "$weak" "$f")" OK
	done
done

tap_done
