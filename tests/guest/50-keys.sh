#!/bin/bash
# Keys: the kernel loaded /etc/keys/x509_ima.der into .ima at boot; .ima takes
# only keys certified by a built-in trusted key; KEY_CHECK logs what .ima got.
set -euo pipefail
trap 'echo "# error at line $LINENO: $BASH_COMMAND"' ERR
. "$IMA_STACK/tests/lib/tap.sh"
. "$IMA_STACK/tests/lib/guest.sh"

C=$IMA_STACK/certs
ring=$(ima_keyring_id)
[ -n "$ring" ] || tap_bail "no .ima keyring in /proc/keys"

tap_is "/etc/keys/x509_ima.der is the certificate we built" \
	"$(sha256 /etc/keys/x509_ima.der)" "$(sha256 $C/ima.der)"
tap_errno "a certificate our CA did not sign is refused by .ima" ENOKEY \
	kcall add_key asymmetric "" "$C/rogue.der" "$ring"
# the same with keyctl(1), as an administrator would type it
if out=$(keyctl padd asymmetric "" "$ring" <"$C/rogue.der" 2>&1); then
	tap_fail "keyctl padd of the rogue certificate into .ima fails" "it was added: $out"
else
	tap_is "keyctl padd of the rogue certificate into .ima fails" \
		"${out##*: }" "Required key not available"
fi
tap_errno "garbage is refused by .ima" EBADMSG \
	kcall add_key asymmetric "" /etc/hostname "$ring"
tap_is ".ima still holds exactly the boot-time keys" \
	"$(ima_keyring_descriptions | sort)" \
	"$({ cert_desc $C/ima.der; cert_desc $C/module.der; } | sort)"

# KEY_CHECK (queued at boot, logged when the policy arrived): an ima-buf
# entry named after the keyring whose buffer is the DER certificate
want=$(xxd -p "$C/ima.der" | tr -d '\n')
if awk '$3 == "ima-buf" && $5 == ".ima" {print $6}' "$ASCII" | grep -qx "$want"; then
	tap_ok "KEY_CHECK entry for .ima carries our DER certificate"
else
	tap_fail "KEY_CHECK entry for .ima carries our DER certificate" \
		"entries: $(awk '$5 == ".ima" {print $3, $4, substr($6, 1, 40)}' "$ASCII" | tr '\n' '|')"
fi
d=$(awk -v w="$want" '$5 == ".ima" && $6 == w {print $4}' "$ASCII" | head -n 1)
tap_is "KEY_CHECK digest = sha256 of the certificate" "$d" "sha256:$(sha256 $C/ima.der)"

tap_done
