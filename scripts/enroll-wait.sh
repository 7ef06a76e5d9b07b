# shellcheck shell=bash
# The wait for one boot's enrollment verdict, sourced by scripts/attest-poll.sh
# and tested without a boot by tests/host/attest-wait.sh.
#
#   enroll_wait VERDICT BOOT_ID PID [TRIES]
#     Waits (TRIES times 0.5 s, default 1800) until VERDICT, the file
#     `ima-attest enroll --boot BOOT_ID` writes (whole, by a rename), holds
#     the line "boot: BOOT_ID", or until process PID (the boot) is gone.
#     A verdict without that line, or naming another boot (one left by an
#     earlier run of the same run name), is never this boot's: it is waited
#     past, never read. Prints one line, the reason or what passed.
#     Returns 0 when this boot's verdict passes both steps (TPM identity
#     and AK binding) and names no failure, 1 when this boot's verdict
#     refuses, 2 when this boot wrote none (the boot ended, or time ran out).

# enroll_verdict_of VERDICT BOOT_ID: true when VERDICT is BOOT_ID's
enroll_verdict_of() {
	[ -f "$1" ] && grep -qxF "boot: $2" "$1"
}

enroll_wait() {
	local v=$1 id=$2 pid=$3 tries=${4:-1800} i
	[ -n "$id" ] || { echo "no boot id to wait for"; return 2; }
	for ((i = 0; i < tries; i++)); do
		enroll_verdict_of "$v" "$id" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.5
	done
	if ! enroll_verdict_of "$v" "$id"; then
		if [ -f "$v" ]; then
			echo "no verdict of boot $id ($v is another boot's: $(grep -m1 '^boot: ' "$v" || echo 'no boot line'))"
		else
			echo "no verdict of boot $id ($v does not exist)"
		fi
		return 2
	fi
	if grep -q '^PASS TPM identity' "$v" && grep -q '^PASS AK binding' "$v" &&
		! grep -q '^FAIL' "$v"; then
		echo "boot $id: $(grep -m1 '^PASS AK binding' "$v")"
		return 0
	fi
	echo "boot $id refused: $(grep -v '^boot: ' "$v" | tr '\n' ' ')"
	return 1
}
