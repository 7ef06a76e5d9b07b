# shellcheck shell=bash
# The wait for one boot's enrollment, sourced by scripts/attest-poll.sh and
# tested without a boot by tests/host/attest-wait.sh.
#
#   enroll_wait ATTEST DIR BOOT_ID PID [TRIES]
#     Waits (TRIES times 0.5 s, default 1800) until DIR holds the
#     enrollment record of boot BOOT_ID (`ima-attest enroll --boot
#     BOOT_ID` writes DIR/verdict whole, by a rename), or until process PID
#     (the boot) is gone. What the record says is decided by one rule, the
#     one `ima-attest verify` and `poll` apply: `ATTEST enrolled --enrolled
#     DIR --boot BOOT_ID` (ATTEST: the ima-attest binary). Its exit 3, no
#     record of this boot (none, another boot's, one left by an earlier
#     run of the same run name, or not a record), is waited past, never
#     read. Prints one line, what passed or why not. Returns 0 when this
#     boot's enrollment is trusted (TPM identity and AK binding proven, the
#     files it names checked), 1 when it is refused, 2 when this boot wrote
#     none (the boot ended, or time ran out) or it cannot be read.
enroll_wait() {
	local attest=$1 dir=$2 id=$3 pid=$4 tries=${5:-1800} i out rc
	[ -n "$id" ] || { echo "no boot id to wait for"; return 2; }
	for ((i = 0; ; i++)); do
		rc=0
		out=$("$attest" enrolled --enrolled "$dir" --boot "$id" 2>&1) || rc=$?
		[ "$rc" = 3 ] || break
		{ [ "$i" -lt "$tries" ] && kill -0 "$pid" 2>/dev/null; } || break
		sleep 0.5
	done
	case $rc in
	0)
		echo "boot $id: $(grep -m1 '^enrollment: ' <<<"$out")"
		return 0
		;;
	1)
		echo "boot $id refused: $(grep -v '^enrollment: ' <<<"$out" | tr '\n' ' ')"
		return 1
		;;
	3)
		echo "no enrollment of boot $id ($(grep -m1 '^reason: ' <<<"$out" | sed 's/^reason: //'))"
		return 2
		;;
	esac
	echo "the enrollment of boot $id cannot be read: $(tr '\n' ' ' <<<"$out")"
	return 2
}
