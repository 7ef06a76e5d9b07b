# shellcheck shell=bash
# Sourced by the ima-attest host tests (attest-enroll, attest-poll,
# attest-wait) after tests/lib/tap.sh: the ASan/UBSan build of ima-attest
# (or $IMA_ATTEST) in $attest, a scratch directory $tmp, and $pids, the background
# processes (swtpm, relays) killed on exit with $tmp removed.
# IMA_ATTEST: another build to test (an older one, to show a case red)
if [ -n "${IMA_ATTEST:-}" ]; then
	attest=$IMA_ATTEST
else
	make -s -C "$TOP/tools/ima-attest" build/asan/ima-attest >&2 || tap_bail "cannot build ima-attest"
	# shellcheck disable=SC2034 # for the tests that source this
	attest=$TOP/tools/ima-attest/build/asan/ima-attest
fi
tmp=$(mktemp -d)
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
