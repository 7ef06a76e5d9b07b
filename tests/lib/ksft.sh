# shellcheck shell=bash
# ksft_expect EXPECT DIR OUT: run the kselftest scripts named in EXPECT
# (format: tests/guest/95-kselftests.expect) from DIR, one TAP line each
# (tests/lib/tap.sh), each script's whole output kept in OUT/. The kernel
# log is read through ksft_kmsg_clear and ksft_kmsg (dmesg in the guest;
# the host test of this file replaces them). Sourced, never run.

ksft_kmsg_clear() { dmesg -c >/dev/null; }
ksft_kmsg() { dmesg; }

# ksft_fw_watchdog DIR SECONDS LOG: every 2 s, cancel (write -1 to its
# "loading") each firmware fallback entry of DIR (/sys/class/firmware) seen
# waiting for SECONDS or more, and append its name to LOG; runs until
# killed. Why: fw_filesystem.sh's custom-fallback "nofile" batch (four
# request_firmware_nowait() calls, uevent=false, one name) cancels the one
# sysfs entry it waits for; a request of the batch that starts only after
# that cancel opens a new entry, which a custom fallback keeps with no
# timeout, and test_firmware's release then waits for it, unkillable: the
# guest hangs (seen once, the host under load). An entry gone is
# forgotten, so a later entry of the same name starts its own count.
ksft_fw_watchdog() {
	local dir=$1 limit=$2 log=$3 d n now
	local -A seen now_seen
	while sleep 2; do
		now=$(date +%s)
		now_seen=()
		for d in "$dir"/*/; do
			[ -e "$d/loading" ] || continue
			n=$(basename "$d")
			now_seen[$n]=${seen[$n]:-$now}
			if [ $((now - now_seen[$n])) -ge "$limit" ]; then
				echo -1 >"$d/loading" 2>/dev/null || :
				echo "$n" >>"$log"
				unset "now_seen[$n]"
			fi
		done
		seen=()
		for n in "${!now_seen[@]}"; do seen[$n]=${now_seen[$n]}; done
	done
}

ksft_expect() {
	local expect=$1 KS=$2 outdir=$3 script want output kmsg reason dir name rc out k rest ig
	mkdir -p "$outdir"
	local -A ignored why # SCRIPT -> declared "ignoring test" lines; SCRIPT:LINE -> reason
	while IFS='|' read -r script want output kmsg reason; do
		case $script in '' | '#'*) continue ;; esac
		if [ "$want" = ignore ]; then
			ignored[$script]+="$output"$'\n'
			why[$script:$output]=$reason
			continue
		fi
		dir=$KS/$(dirname "$script") name=$(basename "$script")
		[ -x "$dir/$name" ] || { tap_fail "kselftest $script is installed"; continue; }
		ksft_kmsg_clear
		rc=0
		out=$(cd "$dir" && timeout 600 ./"$name" </dev/null 2>&1) || rc=$?
		k=$(ksft_kmsg)
		printf '%s\n' "$out" >"$outdir/${script//\//-}.out"
		# the declared parts that ignore themselves: each one a skip; an
		# undeclared one is left in $rest and fails a pass
		rest=$(grep 'ignoring test' <<<"$out" || true)
		while IFS= read -r ig; do
			[ -n "$ig" ] || continue
			if grep -qF -- "$ig" <<<"$rest"; then
				tap_skip "kselftest $script: part '$ig'" "${why[$script:$ig]}"
				rest=$(grep -vF -- "$ig" <<<"$rest" || true)
			else
				tap_fail "kselftest $script: the part declared as ignored ('$ig') ran: update 95-kselftests.expect"
			fi
		done <<<"${ignored[$script]:-}"
		echo "$out" | tail -n 20 | sed 's/^/# | /'
		case $want in
		pass)
			# a script that "ignores" itself exits 0 too: that is no pass
			if [ "$rc" = 0 ] && [ -z "$rest" ] && ! grep -q '\[FAIL\]\|^not ok\|\[SKIP\]' <<<"$out" &&
				{ [ -z "$output" ] || grep -qF -- "$output" <<<"$out"; }; then
				tap_ok "kselftest $script passes"
			else
				tap_fail "kselftest $script passes" "exit $rc (4: skipped)" ${rest:+"undeclared parts ignored: $rest"}
			fi
			;;
		refused)
			if [ -z "$output" ] || [ -z "$kmsg" ]; then
				tap_fail "95-kselftests.expect: a refusal of $script must name its OUTPUT and KMSG"
			elif [ "$rc" = 1 ] && grep -qF -- "$output" <<<"$out" && grep -qF -- "$kmsg" <<<"$k"; then
				tap_ok "kselftest $script is refused by design: $reason"
			else
				tap_fail "kselftest $script is refused by design: $reason" \
					"exit $rc (want 1); output has \"$output\": $(grep -cF -- "$output" <<<"$out"); kernel log has \"$kmsg\": $(grep -cF -- "$kmsg" <<<"$k")"
			fi
			;;
		skip)
			if [ "$rc" = 4 ] || { [ "$rc" = 0 ] && [ -n "$output" ] && grep -qF -- "$output" <<<"$out"; }; then
				tap_skip "kselftest $script" "$reason"
			else
				tap_fail "kselftest $script skips: $reason" "exit $rc, want 4 (ksft_skip) or 0 with \"$output\""
			fi
			;;
		*) tap_fail "95-kselftests.expect: unknown WANT '$want' for $script" ;;
		esac
	done <"$expect"
}
