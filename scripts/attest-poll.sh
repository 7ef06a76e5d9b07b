#!/usr/bin/env bash
# make attest: a verifier that polls a running guest. Boots the guest in
# polling mode (ima_stack.mode=attest, the agent serving the host), lets
# boot.sh's host verifier enroll its TPM (EK certificate, credential
# activation), then runs rounds: each a fresh nonce, a quote by the enrolled
# AK and only the list entries after the offset the verifier names,
# verified by `ima-attest poll` from its state file; the guest does work
# between rounds. Attack rounds follow (the last one reboots the machine:
# same TPM, the persistent AK), each refused at its poll with its
# reason, the state left where it was. Every round, passed or refused, is
# recorded (ima-attest poll --record); at the end the firmware's event log
# is verified against round 1's quote and the page shows it with every
# round (ima-attest verify --html --rounds). Prints TAP, one line per round.
# Usage:   attest-poll.sh [RUN_NAME]   (default attest)
# Inputs:  the kernel and image (make image), tools/ima-attest, build/keys.
# Outputs: build/<variant>/attest-<run>/ (state, every round's files, the
#          rounds' record rounds.jsonl, the page attest.html), boot.sh's
#          results in build/<variant>/results/<run>/.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib/tap.sh"
. "$TOP/scripts/enroll-wait.sh"
trap - ERR
set +e

run=${1:-attest}
variant=$(stage_variant)
work=$BUILD/$variant/run/$run
dir=$BUILD/$variant/attest-$run
state=$dir/state
rounds=$dir/rounds.jsonl
page=$dir/attest.html
key=$BUILD/keys/ima.der
# the state's directory is the verifier's own (ima-attest poll refuses one
# that others can write)
rm -rf "$dir" && mkdir -p "$(dirname "$dir")" && mkdir -m 0700 "$dir"
make -s -C "$TOP/tools/ima-attest" >&2 || tap_bail "cannot build tools/ima-attest"
attest=$TOP/tools/ima-attest/build/ima-attest

# this boot's name in the verifier's record; the last run's state goes
# before the boot starts (boot.sh removes it too, but only a moment later)
boot_id=$(openssl rand -hex 8)
rm -rf "$work"
IMA_STACK_ATTEST=1 IMA_STACK_NONCE='' IMA_STACK_BOOT_ID=$boot_id IMA_STACK_RESTART=1 BOOT_TIMEOUT=${BOOT_TIMEOUT:-900} \
	"$TOP/scripts/boot.sh" attest "$run" >"$dir/boot.log" 2>&1 &
boot_pid=$!
finish() {
	kill "$boot_pid" 2>/dev/null || true
	wait "$boot_pid" 2>/dev/null || true
}
trap finish EXIT

# enrollment: boot.sh's host verifier writes this boot's record when it is
# done (only a record naming $boot_id counts, and ima-attest decides
# whether it is trusted: scripts/enroll-wait.sh)
if why=$(enroll_wait "$attest" "$work/verifier" "$boot_id" "$boot_pid"); then
	tap_ok "enrollment: TPM identity and AK binding (host verifier, credential activation; $why)"
else
	tap_fail "enrollment: TPM identity and AK binding" "$why" "boot log $dir/boot.log"
	tap_bail "no enrolled AK: no round can be verified"
fi
enrolled=$work/verifier

# request R VERB [K=V...]: one message to the agent, the reply in $dir/R
request() {
	local r=$dir/$1
	shift
	rm -rf "$r"
	"$attest" request --channel "$work/attest.sock" --out "$r" "$@" >/dev/null 2>"$r.err"
}
next_offset() { sed -n 's/^next [0-9]* //p' "$state" 2>/dev/null | grep . || echo 0; }
# round NAME: a fresh nonce and the entries from the saved offset
round() {
	openssl rand -hex 20 >"$dir/$1.nonce"
	request "$1" QUOTE nonce="$(cat "$dir/$1.nonce")" offset="$(next_offset)" ||
		{ echo "request failed: $(cat "$dir/$1.err")"; return 2; }
}
# poll NAME [NONCE] [ENTRIES] [OFFSET]: the verifier on round NAME's files
polls=0
poll() {
	local r=$dir/$1
	rc=0
	polls=$((polls + 1))
	out=$("$attest" poll --state "$state" --enrolled "$enrolled" --key "$key" \
		--record "$rounds" --round "$1" \
		--quote "$r/msg" --quote-sig "$r/sig" --quote-pcrs "$r/pcrs" \
		--nonce "${2:-$(cat "$dir/$1.nonce")}" --entries "${3:-$r/entries}" \
		--offset "${4:-$(cat "$r/offset")}" 2>&1) || rc=$?
}
expect() {
	if [ "$rc" = "$2" ] && grep -qE -- "$3" <<<"$out"; then
		tap_ok "$1 ($(grep -m1 -oE -- "$3" <<<"$out"))"
		# a passing round's verdict names what it proved
		grep -E '^(proven|not proven)' <<<"$out" | sed 's/^/# /' || true
	else
		tap_fail "$1" "exit $rc, want $2 and /$3/:" "$out"
	fi
}
work() {
	request "work-$1" WORK what="$1" && [ "$(cat "$dir/work-$1/rc")" = 0 ] ||
		tap_fail "work between rounds: $1" "$(cat "$dir/work-$1.err" "$dir/work-$1/rc" 2>/dev/null)"
}

round r1
poll r1
expect "round 1: the list up to the quote verified from an empty state" 0 'round 1: PASS'
work exec
round r2
poll r2
expect "round 2, after running a signed program: only the new entries verified" 0 'round 2: PASS'
work module
work firmware
round r3
poll r3
expect "round 3, after loading a signed module and signed firmware" 0 'round 3: PASS'
round r4
poll r4
expect "round 4, nothing done: the entries left after round 3's quote" 0 'round 4: PASS'
# the firmware's event log of this boot, for the page (verified below
# against round 1's quote: the same boot, the same PCRs 0-9)
request eventlog EVENTLOG && [ -s "$dir/eventlog/log" ] ||
	tap_fail "the guest's firmware event log (EVENTLOG)" "$(cat "$dir/eventlog.err" "$dir/eventlog/why" 2>/dev/null)"

# attacks
round a-replay
poll r4 "$(cat "$dir/a-replay.nonce")"
expect "an old quote (round 4's) replayed for a fresh nonce: refused" 1 'does not match the nonce'
work new
round a-withheld
# the forgeries below take the round's first entry: there must be one
[ -s "$dir/a-withheld/entries" ] ||
	tap_bail "round a-withheld brought no new entry after running a new program: nothing to forge"
# the list's own reading: tests/host/attest/ima_list.py (START END ... a line)
ima_list=$TOP/tests/host/attest/ima_list.py
# the first entry withheld: the answer from the end of the first entry on
end1=$(python3 "$ima_list" entries "$dir/a-withheld/entries" | sed -n '1s/^[0-9]* \([0-9]*\) .*/\1/p')
tail -c +"$((end1 + 1))" "$dir/a-withheld/entries" >"$dir/withheld.ima"
sz() { stat -c %s "$1" 2>/dev/null || echo 0; }
skip=$(( $(sz "$dir/a-withheld/entries") - $(sz "$dir/withheld.ima") ))
poll a-withheld "" "$dir/withheld.ima" $(( $(cat "$dir/a-withheld/offset" 2>/dev/null || echo 0) + skip ))
expect "entries withheld (the answer skips the first entry and says so): refused" 1 'entries withheld or repeated'
poll a-withheld "" "$dir/withheld.ima"
expect "entries withheld (the answer skips the first entry, offset unchanged): refused" 1 'disagrees with the quote'
# the first entry's file digest altered, its template hash recomputed
python3 "$ima_list" alter "$dir/a-withheld/entries" 0 "$dir/altered.ima"
poll a-withheld "" "$dir/altered.ima"
expect "the list presented disagrees with the quoted PCR 10 (an entry altered, template hash recomputed): refused" 1 \
	'disagrees with the quote'
poll a-withheld
expect "the genuine answer to the same round passes from the unchanged state" 0 'PASS'
work unsigned
round a-unsigned
poll a-unsigned
expect "an unsigned program the verifier does not know, run between rounds: refused" 1 \
	'true-unsigned\): unsigned: a file the verifier does not know'
# the last attack: the machine reboots (same TPM, QEMU restarts it); the
# next boot's agent answers with the persistent AK the host enrolled, so
# only the quote's boot identity can tell
console=$(console_log "$variant" "$run")
agents() { grep -c 'ima-stack-init: attestation agent on' "$console" 2>/dev/null || echo 0; }
before=$(agents)
work restart
for _ in $(seq 600); do
	[ "$(agents)" -gt "$before" ] && break
	kill -0 "$boot_pid" 2>/dev/null || break
	sleep 0.5
done
if [ "$(agents)" -gt "$before" ]; then
	round a-reboot
	poll a-reboot
	# ima-attest checks the signature before the boot identity: this
	# reason means the new boot's quote verified with the enrolled AK
	expect "a reboot between rounds (the persistent AK quotes in the new boot): refused at the next poll" 1 \
		'the guest rebooted since the last round \(resetCount [0-9]+ -> [0-9]+'
else
	tap_fail "a reboot between rounds: refused at the next poll" "no agent of a new boot within 300 s (console $console)"
fi

# the page: round 1's quote, the firmware log against it, the list's
# boot_aggregate, and every round recorded above (passed and refused)
rc=0
out=$("$attest" verify --enrolled "$enrolled" --quote "$dir/r1/msg" --quote-sig "$dir/r1/sig" \
	--quote-pcrs "$dir/r1/pcrs" --nonce "$(cat "$dir/r1.nonce")" \
	--eventlog "$dir/eventlog/log" --list "$dir/r1/entries" \
	--html "$page" --rounds "$rounds" 2>&1) || rc=$?
expect "the firmware log replays to round 1's quoted PCRs 0-9, the list's boot_aggregate is theirs; the page: $page" \
	0 'result: PASS'
tap_is "every round polled is recorded ($polls), and the page embeds the record" \
	"$(wc -l <"$rounds" 2>/dev/null || echo 0) $(grep -c 'id="ima-rounds"' "$page" 2>/dev/null || echo 0)" \
	"$polls 1"

request bye BYE || true
wait "$boot_pid"
brc=$?
trap - EXIT
tap_is "the guest's boot ended cleanly after BYE (boot.sh exit status)" "$brc" 0
tap_done
