# shellcheck shell=bash
# Sourced by the ima-attest host tests (attest-enroll, attest-poll,
# attest-wait, attest-machine) after tests/host/lib/host.sh (TAP, $tmp):
# the ASan/UBSan build of ima-attest (or $IMA_ATTEST) in $attest, openssl
# run with the neutral config, and $pids, the background processes
# (swtpm, relays) killed on exit with $tmp removed; tpm NAME makes a TPM.
# IMA_ATTEST: another build to test (an older one, to show a case red)
if [ -n "${IMA_ATTEST:-}" ]; then
	attest=$IMA_ATTEST
else
	make -s -C "$TOP/tools/ima-attest" build/asan/ima-attest >&2 || tap_bail "cannot build ima-attest"
	# shellcheck disable=SC2034 # for the tests that source this
	attest=$TOP/tools/ima-attest/build/asan/ima-attest
fi
export OPENSSL_CONF=$TOP/keys/openssl-neutral.cnf
pids=()
# shellcheck disable=SC2154 # $tmp is host.sh's
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

# tpm NAME: a TPM 2.0 (swtpm, unix sockets $tmp/NAME/tpm.sock and
# tpm.sock.ctrl; banks sha1 and sha256) whose EK certificate a CA of its own
# issued (swtpm_localca: "manufacturer" NAME; root
# $tmp/NAME/ca/swtpm-localca-rootca-cert.pem, intermediate
# $tmp/NAME/chain.pem)
tpm() {
	local d=$tmp/$1
	mkdir -p "$d/ca" "$d/state"
	printf '%s\n' "statedir = $d/ca" "signingkey = $d/ca/signkey.pem" \
		"issuercert = $d/ca/issuercert.pem" "certserial = $d/ca/certserial" >"$d/localca.conf"
	printf '%s\n' "--platform-manufacturer ima-stack-test-$1" "--platform-version 2.1" \
		"--platform-model QEMU" >"$d/localca.options"
	printf '%s\n' "create_certs_tool = $(command -v swtpm_localca)" \
		"create_certs_tool_config = $d/localca.conf" \
		"create_certs_tool_options = $d/localca.options" \
		"active_pcr_banks = sha1,sha256" >"$d/setup.conf"
	swtpm_setup --tpm2 --tpmstate "$d/state" --config "$d/setup.conf" \
		--create-ek-cert --create-platform-cert --pcr-banks sha1,sha256 \
		--overwrite >"$d/setup.log" 2>&1 || tap_bail "swtpm_setup for $1 failed: $(tail -n 3 "$d/setup.log")"
	swtpm socket --tpm2 --tpmstate dir="$d/state" --flags startup-clear \
		--server type=unixio,path="$d/tpm.sock" \
		--ctrl type=unixio,path="$d/tpm.sock.ctrl" >"$d/swtpm.log" 2>&1 &
	pids+=($!)
	for _ in $(seq 100); do
		[ -S "$d/tpm.sock" ] && [ -S "$d/tpm.sock.ctrl" ] && break
		sleep 0.1
	done
	[ -S "$d/tpm.sock" ] || tap_bail "swtpm for $1 did not start"
	cat "$d/ca/issuercert.pem" >"$d/chain.pem"
}
