#!/bin/bash
# kexec_file_load under lockdown=integrity (issue 13 item 2, kernel-patches
# 0006). Our bzImage has no PE signature, so kimage_validate_signature()
# lets it in under LOCKDOWN_KEXEC only when ima_appraise_signature() says
# the IMA policy makes every kexec kernel carry an IMA signature; otherwise
# it refuses with EPERM. IMA's own appraisal refuses with EACCES, earlier.
#
# Run by two boots, both with lockdown=integrity; the expectations follow
# from the policy the boot loaded (ima_stack.policy=):
#   lockdown-hole  policies/lockdown-hole-policy: "dont_appraise
#                  fsmagic=0x01021994" (tmpfs) before the imasig
#                  KEXEC_KERNEL_CHECK rule. A kernel on tmpfs is never
#                  appraised, so the policy promises nothing: every kernel
#                  without a PE signature is refused with EPERM, the
#                  unsigned one on tmpfs (loaded on a kernel without 0006)
#                  and our IMA-signed one on the root file system alike.
#   lockdown-cond  policies/lockdown-cond-policy: the imasig
#                  KEXEC_KERNEL_CHECK rule has a condition (fsmagic=ext4)
#                  and nothing follows it for kexec: the kernel on tmpfs
#                  matches no appraise rule; the same outcome as above.
#   lockdown-sound policies/ima-policy: every kexec kernel is
#                  signature-appraised: our signed kernel loads under
#                  lockdown, the unsigned one on tmpfs is refused by IMA
#                  (EACCES).
# Images are loaded, never executed.
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/guest.sh"

K=$IMA_STACK/kexec
cmdline="console=ttyS0 ima-stack-lockdown-test=$RANDOM"
LOCKDOWN=/sys/kernel/security/lockdown
TMPFS_MAGIC=1021994

policy=/etc/ima/ima-policy
read -ra words </proc/cmdline
for w in "${words[@]}"; do
	case $w in ima_stack.policy=*) policy=${w#*=} ;; esac
done
echo "# policy: $policy"

[ -f "$LOCKDOWN" ] || tap_bail "$LOCKDOWN missing: the kernel lacks CONFIG_SECURITY_LOCKDOWN_LSM"
[ "$(cat "$IMA_STACK_RESULTS/policy-load")" = OK ] ||
	tap_bail "the boot policy $policy did not load: $(cat "$IMA_STACK_RESULTS/policy-load.err")"
{ [ -f "$K/bzImage" ] && [ -f "$K/bzImage.unsigned" ]; } || tap_bail "no kexec images in $K"

# the hole: how the policy file was written decides what must happen
cond_rule='appraise func=KEXEC_KERNEL_CHECK fsmagic=0xef53 appraise_type=imasig'
if grep -qx 'dont_appraise fsmagic=0x01021994' "$policy"; then
	hole=dont_appraise
	echo "# the policy exempts tmpfs from appraisal: kexec must stay locked down"
elif grep -qx "$cond_rule" "$policy"; then
	hole=conditional
	echo "# the policy demands a signature only on ext4: kexec must stay locked down"
else
	hole=0
	echo "# the policy signature-appraises every kexec kernel"
fi

tap_is "lockdown is on: $LOCKDOWN shows [integrity]" \
	"$(grep -o '\[[a-z]*\]' "$LOCKDOWN")" "[integrity]"
# the kernel shows each rule with a trailing blank
active=$(policy_text | sed 's/[[:space:]]*$//')
if [ "$hole" = dont_appraise ]; then
	tap_is "the active policy has the tmpfs exemption first" \
		"$(grep -m1 -E '^(dont_)?appraise ' <<<"$active")" "dont_appraise fsmagic=0x1021994"
elif [ "$hole" = conditional ]; then
	tap_is "the active policy's only kexec kernel rule is conditional" \
		"$(grep -E '^(dont_)?appraise ' <<<"$active" | grep -v -E 'func=(KEXEC_INITRAMFS|MODULE|POLICY)_CHECK')" "$cond_rule"
else
	tap_is "the active policy appraises kexec kernels by signature, unconditionally" \
		"$(grep -c -x 'appraise func=KEXEC_KERNEL_CHECK appraise_type=imasig' <<<"$active")" 1
	tap_is "and exempts nothing from appraisal" "$(grep -c '^dont_appraise' <<<"$active" || true)" 0
fi

# unload_stray: a refusal that did not happen leaves an image loaded; drop
# it so that the next check starts from nothing loaded
unload_stray() {
	[ "$(</sys/kernel/kexec_loaded)" = 0 ] || kcall kexec_file_unload >/dev/null 2>&1 || true
}

# the unsigned kernel, copied to a tmpfs of our own
T=$(mktemp -d)
mount -t tmpfs lockdown-kexec "$T"
trap 'umount "$T" 2>/dev/null || true; rmdir "$T" 2>/dev/null || true' EXIT
cp "$K/bzImage.unsigned" "$T/bzImage"
tap_is "the copy is on tmpfs (f_type 0x$TMPFS_MAGIC)" "$(stat -f -c %t "$T/bzImage")" "$TMPFS_MAGIC"
tap_is "the copy has no security.ima" "$(ima_xattr "$T/bzImage")" ""

if [ "$hole" != 0 ]; then
	want_tmpfs=EPERM want_tmpfs_text="Operation not permitted"
	want_root=EPERM
else
	want_tmpfs=EACCES want_tmpfs_text="Permission denied"
	want_root=OK
fi
tap_errno "kexec_file_load: unsigned kernel on tmpfs refused" "$want_tmpfs" \
	kcall kexec_file_load "$T/bzImage" - "$cmdline"
tap_is "nothing loaded after it" "$(</sys/kernel/kexec_loaded)" 0
unload_stray
# the same through kexec-tools
tap_kexec_refused "kexec -s -l refuses the unsigned kernel on tmpfs ($want_tmpfs)" \
	"$want_tmpfs_text" "$T/bzImage" --append="$cmdline"

# our IMA-signed kernel on the root file system (ext4)
tap_is "the signed kernel carries an IMA signature (security.ima type 03)" \
	"$(ima_xattr "$K/bzImage" | cut -c1-2)" 03
if [ "$hole" != 0 ]; then
	name="kexec_file_load: signed kernel on the root fs refused too (the answer is per policy)"
else
	name="kexec_file_load: signed kernel on the root fs loads under lockdown"
fi
tap_errno "$name" "$want_root" kcall kexec_file_load "$K/bzImage" - "$cmdline"
[ "$want_root" = OK ] || { tap_is "nothing loaded after it" "$(</sys/kernel/kexec_loaded)" 0; unload_stray; }
if [ "$want_root" = OK ]; then
	tap_is "/sys/kernel/kexec_loaded reports the image" "$(</sys/kernel/kexec_loaded)" 1
	tap_errno "kexec_file_load: unload" OK kcall kexec_file_unload
	tap_kexec_loads "kexec -s -l loads the signed kernel under lockdown" -s -l "$K/bzImage" --append="$cmdline"
	tap_cmd "kexec -s -u unloads it" kexec -s -u
fi
tap_is "nothing left loaded" "$(</sys/kernel/kexec_loaded)" 0

tap_done
