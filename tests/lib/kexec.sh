# shellcheck shell=bash
# shellcheck disable=SC2034 # K, BIN and OWNER are the suites'
# What the kexec hand-over suites (98-kexec-*) share: sourced after
# tests/lib/tap.sh in place of tests/lib/guest.sh, which it sources.
#   K      the kexec fixtures: the next stage's signed kernel and an
#          unsigned one (tests/guest/30-kexec.fixtures)
#   BIN    this kernel's binary measurement list
#   KRES   the kexec results, which a first stage writes and the second
#          reads ($IMA_STACK_RESULTS/kexec, made here)
#   OWNER  the owner of the files the first measure rule of
#          policies/kexec-cut.rules measures (the kexec-cut and kexec-busy
#          boots make such files: root reading them on tmpfs)
# and the helpers below.
# shellcheck source=tests/lib/guest.sh
. "$IMA_STACK/tests/lib/guest.sh"

K=$IMA_STACK/kexec
BIN=$IMA_SFS/binary_runtime_measurements
KRES=$IMA_STACK_RESULTS/kexec
OWNER=4250
mkdir -p "$KRES"

# kexec_records NAME: the ima_kexec records NAME (kexec_load, kexec_execute)
# as "LINE TEXT", LINE the 1-based line of the ascii list (LIST: another
# ascii list)
kexec_records() {
	awk -v n="$1" '$3 == "ima-buf" && $5 == n {print NR, $6}' "${2:-$ASCII}" |
		while read -r l hex; do echo "$l $(xxd -r -p <<<"$hex")"; done
}

# kexec_field TEXT NAME: the number NAME= in an ima_kexec record's text
kexec_field() { sed -n "s/.*\\b$2=\\([0-9]*\\);.*/\\1/p" <<<"$1"; }

# kexec_stage1_start BOOT: what every kexec boot's first stage checks
# first: a suite remains to run in the next kernel, whose command line goes
# into $cmdline and $KRES/next-cmdline, and BOOT's own policy
# (/etc/ima/BOOT-policy) is the one init loaded
kexec_stage1_start() {
	[ -n "${IMA_STACK_NEXT_TESTS:-}" ] ||
		tap_bail "the boot names no suite after this one: nothing would run after the kexec"
	cmdline=$(kexec_next_cmdline)
	echo "$cmdline" >"$KRES/next-cmdline"
	tap_is "the $1 policy is the one loaded" "$(<"$IMA_STACK_RESULTS/policy-path"):$(<"$IMA_STACK_RESULTS/policy-load")" \
		"/etc/ima/$1-policy:OK"
}

# kexec_slow_shutdown MS: loads the test module ima_stack_slow_shutdown
# (tests/guest/kmod) with shutdown_ms=MS. Its device, the newest, is the
# first that the jump's device shutdown stops, and that takes MS ms: the
# window between the reboot notifiers (where IMA hands its list over) and
# the TPM's shutdown and the jump, in which user space still runs, lasts
# that long, as on a machine whose devices take that long to stop (QEMU's
# take a few ms). Two TAP lines; its console lines say when it ran
# ("ima_stack_slow_shutdown: shutdown: waiting MS ms", "... done").
kexec_slow_shutdown() {
	local drv=/sys/bus/platform/devices/ima_stack_slow_shutdown/driver
	tap_errno "the test module ima_stack_slow_shutdown loads (shutdown_ms=$1)" OK \
		kcall finit_module "$IMA_STACK/kmod/ima_stack_slow_shutdown.ko" "shutdown_ms=$1"
	tap_is "... its device is bound: the jump's device shutdown waits $1 ms in it first" \
		"$(basename "$(readlink "$drv" 2>/dev/null || echo none)")" ima_stack_slow_shutdown
}

# kexec_next_cmdline: the command line for the next stage, this one with
# ima_stack.tests= the boot's remaining globs (IMA_STACK_NEXT_TESTS,
# set by init) and ima_stack.stage= one more (the caller checks first that
# IMA_STACK_NEXT_TESTS names a suite)
kexec_next_cmdline() {
	local stage=1 w next=() words
	read -ra words </proc/cmdline
	for w in "${words[@]}"; do
		case $w in
		ima_stack.stage=*) stage=${w#*=} ;;
		ima_stack.tests=*) ;;
		*) next+=("$w") ;;
		esac
	done
	next+=("ima_stack.tests=$IMA_STACK_NEXT_TESTS" "ima_stack.stage=$((stage + 1))")
	echo "${next[*]}"
}

# kexec_stage2_begin FILE STAGE1: the common start of a stage-2 suite.
# Bails unless stage 1 (suite STAGE1) left its list in stage1/ and
# kexec/FILE in the results; asserts (two TAP lines) that this kernel was
# started by kexec and that the list holds two boot_aggregates. Sets S1
# (stage 1's results), n1 (the entries stage 1 saved before kexec -e),
# n_load (the entries at load) and carried (the entries before this
# kernel's boot_aggregate).
# shellcheck disable=SC2034 # S1, n1, n_load and carried are the caller's
kexec_stage2_begin() {
	local r=$IMA_STACK_RESULTS ba
	S1=$r/stage1
	[ -s "$S1/ascii_runtime_measurements" ] && [ -s "$r/kexec/$1" ] ||
		tap_bail "no stage-1 results in $r (stage1/, kexec/$1): was this kernel started by $2?"
	tap_cmd "this kernel was started by kexec (ima_stack.stage=2)" grep -qw 'ima_stack.stage=2' /proc/cmdline
	n1=$(wc -l <"$S1/ascii_runtime_measurements")
	n_load=$(<"$r/kexec/entries-at-load")
	mapfile -t ba < <(awk '$5 == "boot_aggregate" {print NR}' "$ASCII")
	tap_is "two boot_aggregate entries: the first kernel's and this kernel's" "${#ba[@]}" 2
	carried=$((${ba[1]:-1} - 1))
}

# list_entry_sizes FILE: the size in bytes of each entry of a binary
# measurement list (native byte order, as securityfs gives it), one a line
# (the project's one reader of binary lists in shell; in Python it is
# imalog.entries in tools/ima-audit/gen):
# pcr (4), template digest (20), name length (4), name, data length (4),
# data. A truncated last entry is printed as "truncated".
list_entry_sizes() {
	od -An -v -tu1 "$1" | awk '
		{ for (i = 1; i <= NF; i++) b[n++] = $i }
		function u32(o) { return b[o] + 256 * b[o + 1] + 65536 * b[o + 2] + 16777216 * b[o + 3] }
		END {
			o = 0
			while (o < n) {
				if (o + 28 > n) { print "truncated"; exit }
				p = o + 28 + u32(o + 24)
				if (p + 4 > n) { print "truncated"; exit }
				sz = p + 4 + u32(p) - o
				if (o + sz > n) { print "truncated"; exit }
				print sz
				o += sz
			}
		}'
}

# kexec_fit S FILE: how many entries of binary list FILE fit a kexec
# segment of S bytes: the largest prefix whose size plus the 24-byte
# segment header (struct ima_kexec_hdr) is at most S
kexec_fit() {
	list_entry_sizes "$2" | awk -v s="$1" '
		$1 == "truncated" { exit 2 }
		{ t += $1; if (t + 24 > s) exit; k++ }
		END { print k + 0 }'
}

# tap_appraisal_enforced: five TAP lines (four when test_firmware does not
# load), appraisal as the boot policy
# wants it in this kernel: the signed policy loaded by path, our IMA key
# on .ima, an unsigned kexec kernel and an unsigned firmware blob refused
# with EACCES (a signed one loads). Needs $IMA_STACK/kexec (30-kexec).
tap_appraisal_enforced() {
	local tf=/sys/devices/virtual/misc/test_firmware
	tap_is "the signed policy loaded by path in this kernel" "$(<"$IMA_STACK_RESULTS/policy-load")" OK
	tap_cmd "the .ima keyring holds our IMA key" grep -qxF "$(cert_desc "$IMA_STACK/certs/ima.der")" <(ima_keyring_descriptions)
	tap_errno "kexec_file_load: unsigned kernel denied" EACCES \
		kcall kexec_file_load "$IMA_STACK/kexec/bzImage.unsigned" - "console=ttyS0"
	modprobe test_firmware 2>/dev/null || true
	if [ -d "$tf" ]; then
		tap_errno "request_firmware: signed blob loads" OK kcall write "$tf/trigger_request" ima-stack/fw.bin
		tap_errno "request_firmware: unsigned blob denied" EACCES kcall write "$tf/trigger_request" ima-stack/fw-unsigned.bin
	else
		tap_fail "test_firmware loads (for the unsigned firmware check)" "modprobe test_firmware failed"
	fi
}

# tap_list_replays WHY: two TAP lines, the whole list (the default one, its
# template digests sha1) replays to PCR 10 in the sha1 and the sha256 bank,
# checked with evmctl as the host audit does; WHY is added to a failure.
# evmctl is run once first, so that running it measures nothing new.
tap_list_replays() {
	local why=$1 tmp alg i n
	evmctl --version >/dev/null 2>&1 || true
	tmp=$(mktemp -d)
	for alg in sha1 sha256; do
		for i in $(seq 0 23); do
			printf 'PCR-%02d: %s\n' "$i" "$(<"/sys/class/tpm/tpm0/pcr-$alg/$i")"
		done >"$tmp/$alg"
	done
	cat "$IMA_SFS/binary_runtime_measurements" >"$tmp/list"
	n=$(wc -l <"$ASCII")
	for alg in sha1 sha256; do
		(cd "$tmp" && evmctl -v ima_measurement --ignore-violations --pcrs "$alg,$tmp/$alg" \
			--verify-bank="$alg" "$tmp/list" >"$tmp/evmctl-$alg.out" 2>&1) || true
		if grep -qxF "$alg PCR-10: succeed at entry $n" "$tmp/evmctl-$alg.out"; then
			tap_ok "the whole list ($n entries, both kernels) replays to PCR 10 ($alg bank)"
		else
			tap_fail "the whole list replays to PCR 10 ($alg bank)" "$why" \
				"no line '$alg PCR-10: succeed at entry $n'; evmctl said:" \
				"$(grep -v '^10 \|^hash(\|Failed to stat' "$tmp/evmctl-$alg.out" | tail -n 3)"
		fi
	done
	rm -rf "$tmp"
}
