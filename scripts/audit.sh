#!/usr/bin/env bash
# Stage audit: check a guest run's measurement list against its TPM, on the
# host. Prints TAP.
# Usage:   audit.sh RESULTS_DIR
# Inputs:  RESULTS_DIR/{binary_runtime_measurements,ascii_runtime_measurements,
#          pcrs.txt} from boot.sh; build/keys/ima.der.
# Checks:  boot_aggregate = sha256(PCR0 || ... || PCR9) of the sha256 bank;
#          the list replays to PCR 10 in the sha1 and sha256 banks
#          (evmctl ima_measurement, one bank at a time).
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib/tap.sh"
need evmctl ima-evm-utils
need xxd xxd

res=$(cd "${1:?usage: audit.sh RESULTS_DIR}" && pwd)
bin=$res/binary_runtime_measurements
ascii=$res/ascii_runtime_measurements
pcrs=$res/pcrs.txt
[ -s "$bin" ] && [ -s "$pcrs" ] || tap_bail "no measurement list or PCR values in $res"

# pcr ALG N: the value the guest read from the TPM, lower case
pcr() {
	awk -v k="$1:$2" '$1 == k {print tolower($2)}' "$pcrs"
}

# boot_aggregate over the sha256 bank, PCRs 0-9
cat_pcrs=
for i in $(seq 0 9); do cat_pcrs+=$(pcr sha256 "$i"); done
want=$(printf '%s' "$cat_pcrs" | xxd -r -p | sha256sum | cut -d' ' -f1)
got=$(awk '$5 == "boot_aggregate" {print $4; exit}' "$ascii")
tap_is "boot_aggregate = sha256 over TPM sha256 PCRs 0-9" "$got" "sha256:$want"

# PCR 10 replay, one bank at a time, against the TPM's value
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for alg in sha1 sha256; do
	awk -v a="$alg" '{split($1, k, ":")} k[1] == a {printf "PCR-%02d: %s\n", k[2], $2}' \
		"$pcrs" >"$tmp/$alg"
	if [ ! -s "$tmp/$alg" ]; then
		tap_fail "PCR 10 replay ($alg bank)" "the guest read no $alg PCR values"
		continue
	fi
	if out=$(cd "$tmp" && evmctl ima_measurement --pcrs "$alg,$tmp/$alg" \
		--verify-bank="$alg" "$bin" 2>&1); then
		tap_ok "measurement list replays to TPM PCR 10 ($alg bank, evmctl)"
	else
		tap_fail "measurement list replays to TPM PCR 10 ($alg bank, evmctl)" "$out"
	fi
done
tap_done
