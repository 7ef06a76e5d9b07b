#!/bin/bash
# Backbone smoke checks, in the guest: TPM, key chain, signed policy by path.
# The PCR and boot_aggregate checks run on the host over the returned list.
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/guest.sh"

if [ -c /dev/tpm0 ] && [ -d /sys/class/tpm/tpm0/pcr-sha256 ]; then
	tap_ok "TPM 2.0 present with a sha256 PCR bank"
else
	tap_fail "TPM 2.0 present with a sha256 PCR bank" "$(ls -l /dev/tpm* 2>&1)"
fi

agg=$(awk '$5 == "boot_aggregate" {print $4; exit}' "$ASCII")
if [ -n "$agg" ] && [ "${agg#sha256:}" != "$(printf '%064d' 0)" ]; then
	tap_ok "boot_aggregate is not all zeros (IMA found the TPM)"
else
	tap_fail "boot_aggregate is not all zeros (IMA found the TPM)" "got: $agg"
fi

# .ima holds exactly our CA-certified key, loaded by the kernel from
# /etc/keys/x509_ima.der, and (IMA_APPRAISE_MODSIG) the build's module key
certs=/opt/ima-stack/certs
tap_is ".ima holds the IMA key and the module signing key, nothing else" \
	"$(ima_keyring_descriptions | sort)" \
	"$({ cert_desc $certs/ima.der; cert_desc $certs/module.der; } | sort)"

tap_is "the signed policy loaded by path at boot" "$(<"$IMA_STACK_RESULTS/policy-load")" OK

# its POLICY_CHECK entry: digest of the file and its signature
p=$(<"$IMA_STACK_RESULTS/policy-path")
entry=$(awk -v p="$p" '$5 == p' "$ASCII" | tail -n 1)
tap_is "policy entry digest = sha256 of $p" \
	"$(echo "$entry" | cut -d' ' -f4)" "sha256:$(sha256 "$p")"
tap_is "policy entry signature = its security.ima" \
	"$(echo "$entry" | cut -d' ' -f6)" "$(ima_xattr "$p")"
# (refused policy updates are 40-policy's)

tap_done
