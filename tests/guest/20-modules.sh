#!/bin/bash
# Modules (READING_MODULE -> MODULE_CHECK, appraise_type=imasig|modsig):
# finit_module takes a module signed in security.ima or by an appended
# signature from a .ima key; unsigned and tampered modules get EACCES, and
# init_module from a buffer cannot be appraised, so it is refused.
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/guest.sh"

M=$IMA_STACK/modules
loaded() { grep -q '^test_module ' /proc/modules; }

tap_errno "finit_module: module signed in security.ima loads" OK \
	kcall finit_module "$M/test_module-imasig.ko"
loaded && tap_ok "test_module is listed in /proc/modules" ||
	tap_fail "test_module is listed in /proc/modules"
tap_errno "delete_module: unload it again" OK kcall delete_module test_module
check_entry "imasig module measured with its signature" "$M/test_module-imasig.ko"

tap_errno "finit_module: module with an appended signature (modsig) loads" OK \
	kcall finit_module "$M/test_module-modsig.ko"
tap_errno "delete_module: unload the modsig module" OK kcall delete_module test_module
# a modsig entry carries no security.ima: the ima-sig field holds the
# appended signature, so only the digest is compared here
e=$(entry_for "$M/test_module-modsig.ko")
tap_is "modsig module measured (digest of the whole file)" \
	"$(echo "$e" | cut -d' ' -f4)" "sha256:$(sha256 "$M/test_module-modsig.ko")"

tap_errno "finit_module: unsigned module denied" EACCES \
	kcall finit_module "$M/test_module-unsigned.ko"
tap_errno "finit_module: tampered module denied" EACCES \
	kcall finit_module "$M/test_module-tampered.ko"
check_entry "unsigned module measured although denied" "$M/test_module-unsigned.ko" unsigned
tap_errno "init_module from a buffer denied (nothing to appraise)" EACCES \
	kcall init_module "$M/test_module-imasig.ko"
loaded && tap_fail "no test_module left loaded after the denials" ||
	tap_ok "no test_module left loaded after the denials"

tap_done
