#!/bin/bash
# Under the appraise-all boot's policy (policies/appraise-all.rules after
# ima-policy, tests/boots/appraise-all.boot: every file of the image
# signed, BPRM_CHECK, MMAP_CHECK with PROT_EXEC and root-owned FILE_CHECK
# appraised, imasig only): what it refuses, what it lets through, and what
# IMA in 6.1 does not stop. The rest of the guest suite runs in the same
# boot and must pass as it does under the measure-only policy.
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/guest.sh"

A=/opt/ima-stack/appraise
grep -q 'appraise func=BPRM_CHECK appraise_type=imasig' "$IMA_SFS/policy" ||
	tap_bail "this suite needs the appraise-all policy (tests/boots/appraise-all.boot: /etc/ima/appraise-all-policy)"
rw=/var/lib/ima-stack-rw	# on the root file system (ext4), appraised
mkdir -p "$rw"
[ "$(stat -f -c %T "$rw")" = ext2/ext3 ] || tap_bail "$rw is not on the ext4 root"

# --- programs (BPRM_CHECK)
tap_errno "a signed program runs" OK kcall exec "$A/true-signed"
tap_errno "an unsigned program is refused on exec" EACCES kcall exec "$A/true-unsigned"
tap_errno "a signed program changed by one byte is refused" EACCES kcall exec "$A/true-tampered"
cp /usr/bin/true "$rw/true-copy"
tap_errno "a program copied at run time (the copy has no signature) is refused" EACCES \
	kcall exec "$rw/true-copy"
tap_errno "the program it was copied from still runs" OK kcall exec /usr/bin/true

# --- shared libraries (MMAP_CHECK, PROT_EXEC)
tap_errno "a signed library maps executable" OK kcall mmap_exec "$A/libx-signed.so"
tap_errno "an unsigned library is refused by mmap(PROT_EXEC)" EACCES \
	kcall mmap_exec "$A/libx-unsigned.so"
out=$(LD_PRELOAD=$A/libx-unsigned.so /usr/bin/true 2>&1 || true)
if grep -q 'cannot be preloaded (failed to map segment from shared object)' <<<"$out"; then
	tap_ok "the dynamic loader cannot map the unsigned library (LD_PRELOAD)"
else
	tap_fail "the dynamic loader cannot map the unsigned library (LD_PRELOAD)" "ld.so said: $out"
fi

# --- files written at run time (FILE_CHECK fowner=0)
tap_errno "root creates a new file on the root file system" OK \
	kcall write_new "$rw/state" "written at run time"
tap_errno "once closed, root cannot open it again (no signature)" EACCES kcall read "$rw/state"
echo "written at run time" >/var/tmp/state
tap_is "/var/tmp is tmpfs, where the guest keeps mutable state" "$(stat -f -c %T /var/tmp)" tmpfs
tap_errno "the same file on tmpfs (not appraised) reads back" OK kcall read /var/tmp/state
tap_errno "a signed root-owned file reads" OK kcall read /etc/hostname

# --- scripts
tap_errno "a root-owned unsigned script cannot be opened by its interpreter" EACCES \
	kcall read "$A/script-root-unsigned.sh"
tap_errno "an unsigned script executed directly is refused (BPRM_CHECK)" EACCES \
	kcall exec "$A/script-unsigned.sh"
if [ "$(bash "$A/script-unsigned.sh" 2>&1)" = ran ]; then
	tap_todo "an unsigned script not owned by root, given to its interpreter (bash FILE), is refused" \
		"IMA in 6.1 cannot tell a script read by an interpreter from data (execveat AT_EXECVE_CHECK came in 6.14)"
else
	tap_ok "an unsigned script not owned by root, given to its interpreter (bash FILE), is refused"
fi

tap_done
