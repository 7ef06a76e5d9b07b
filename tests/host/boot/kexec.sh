#!/usr/bin/env bash
# Host check of the kexec boot's results (issue 12; make check runs it after
# the kexec boot's audit): the hand-over as the host sees it, from the
# files the guest sent (stage1/: the first kernel's list and PCRs just
# before kexec -e; the top level: the second kernel's). Then copies of the
# results, each forged in one way, that each check must refuse.
# Usage: kexec.sh RESULTS_DIR [NONCE]   (NONCE: the host's for this boot;
#        without it the quote check fails)
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../../.." && pwd)
. "$TOP/tests/host/lib/boot.sh"
need_installed evmctl
boot_results "kexec.sh RESULTS_DIR" "${1:-}"
[ -s "$res/stage1/binary_runtime_measurements" ] && [ -s "$res/ascii_runtime_measurements" ] ||
	tap_bail "no stage1/ or measurement list in $res: not a kexec boot's results"

# records DIR NAME: "LINE TEXT" of the ima_kexec records NAME in DIR's list
records() {
	awk -v n="$2" '$3 == "ima-buf" && $5 == n {print NR, $6}' "$1/ascii_runtime_measurements" |
		while read -r l hex; do echo "$l $(xxd -r -p <<<"$hex")"; done
}
field() { sed -n "s/.*\\b$2=\\([0-9]*\\);.*/\\1/p" <<<"$1"; }

# Each check prints why it fails and returns 1; 0 when it holds.
# prefix: the first kernel's binary list is a byte prefix of the second's
c_prefix() {
	local sz
	sz=$(stat -c %s "$1/stage1/binary_runtime_measurements")
	cmp -s -n "$sz" "$1/stage1/binary_runtime_measurements" "$1/binary_runtime_measurements" ||
		{ echo "the first kernel's $sz bytes are not a prefix of the second kernel's list"; return 1; }
}
# aggregates: two boot_aggregates, both sha256 over the TPM's PCRs 0-9
c_aggregates() {
	local want p='' i got
	for i in $(seq 0 9); do p+=$(awk -v k="sha256:$i" '$1 == k {print tolower($2)}' "$1/pcrs.txt"); done
	want=sha256:$(printf '%s' "$p" | xxd -r -p | sha256sum | cut -d' ' -f1)
	got=$(awk '$5 == "boot_aggregate" {print $4}' "$1/ascii_runtime_measurements" | paste -sd' ')
	[ "$got" = "$want $want" ] || { echo "boot_aggregates: $got; want two of $want"; return 1; }
}
# execute: exactly one kexec_execute, the last entry before the second
# boot_aggregate, counting the entries before it, the list fitting the segment
c_execute() {
	local ex ba rec line c s b
	ex=$(records "$1" kexec_execute)
	[ "$(grep -c . <<<"$ex")" = 1 ] || { echo "kexec_execute records: $(grep -c . <<<"$ex"), want 1"; return 1; }
	ba=$(awk '$5 == "boot_aggregate" {print NR}' "$1/ascii_runtime_measurements" | sed -n 2p)
	rec=$ex line=${ex%% *}
	c=$(field "$rec" ima_runtime_measurements_count) s=$(field "$rec" kexec_segment_size)
	b=$(field "$rec" ima_binary_runtime_size)
	[ "$line" = "$((${ba:-0} - 1))" ] || { echo "kexec_execute at line $line, second boot_aggregate at ${ba:-none}"; return 1; }
	[ "$c" = "$((line - 1))" ] || { echo "kexec_execute counts ${c:-nothing}, $((line - 1)) entries before it"; return 1; }
	[ -n "$s" ] && [ -n "$b" ] && [ "$b" -lt "$s" ] || { echo "truncated hand-over: list $b bytes, segment $s bytes"; return 1; }
}
# stage1: the first kernel's list replays to its own PCR 10, both banks
c_stage1() {
	local alg n out
	n=$(wc -l <"$1/stage1/ascii_runtime_measurements")
	for alg in sha1 sha256; do
		awk -v a="$alg" '{split($1, k, ":")} k[1] == a {printf "PCR-%02d: %s\n", k[2], $2}' \
			"$1/stage1/pcrs.txt" >"$tmp/$alg"
		out=$(cd "$tmp" && evmctl -v ima_measurement --ignore-violations --pcrs "$alg,$tmp/$alg" \
			--verify-bank="$alg" "$1/stage1/binary_runtime_measurements" 2>&1 || true)
		grep -qxF "$alg PCR-10: succeed at entry $n" <<<"$out" ||
			{ echo "no '$alg PCR-10: succeed at entry $n' from evmctl"; return 1; }
	done
}

names=(prefix aggregates execute stage1)
declare -A what=(
	[prefix]="the first kernel's list (just before kexec -e) is a byte prefix of the second kernel's"
	[aggregates]="two boot_aggregates, each = sha256 over the TPM's PCRs 0-9"
	[execute]="one kexec_execute, last before the second boot_aggregate, counting the entries before it, no truncation"
	[stage1]="the first kernel's list replays to its PCR 10 in both banks (evmctl)")
for c in "${names[@]}"; do
	if why=$("c_$c" "$res"); then tap_ok "kexec hand-over: ${what[$c]}"; else
		tap_fail "kexec hand-over: ${what[$c]}" "$why"; fi
done
# ima-audit, from the binary lists: two kernels, one hand-over, its record
# right (count, size, fitting the segment), at the entry where the first
# kernel's list (read just before kexec -e) ends, and the whole list passing
c_audit() {
	local A=$TOP/tools/ima-audit/build/ima-audit n got rc=0
	make -s -C "$TOP/tools/ima-audit" >/dev/null 2>&1 || { echo "cannot build tools/ima-audit"; return 1; }
	"$A" --json --pcrs "$1/pcrs.txt" --key "$BUILD/keys/ima.der" "$1/binary_runtime_measurements" >"$tmp/audit.json" 2>&1 || rc=$?
	n=$(wc -l <"$1/stage1/ascii_runtime_measurements")
	got=$(jq -r '"\(.kernels) \(.handovers | length) \(.handovers[0].entry) \(.handovers[0].count) \(.handovers[0].ok)"' "$tmp/audit.json" 2>/dev/null)
	[ "$got" = "2 1 $n $n true" ] ||
		{ echo "ima-audit: kernels, hand-overs, entry, count, ok = '$got'; want '2 1 $n $n true'"; return 1; }
	[ "$rc" = 0 ] || { echo "ima-audit exit $rc: $(jq -r '.failures[] | "\(.index): \(.reason)"' "$tmp/audit.json" 2>/dev/null | head -n 3 | tr '\n' ' ')"; return 1; }
}
if why=$(c_audit "$res"); then
	tap_ok "ima-audit: two kernels, one kexec_execute hand-over at the first kernel's last entry, counted and sized right, the whole list passing"
else
	tap_fail "ima-audit: two kernels, one kexec_execute hand-over at the first kernel's last entry, counted and sized right, the whole list passing" "$why"
fi

# forged copies: each must fail exactly the check named
copy() { rm -rf "${tmp:?}/$1"; cp -a "$res" "$tmp/$1"; echo "$tmp/$1"; }
# rewrite_exec DIR SED: the kexec_execute record's text edited by SED
rewrite_exec() {
	local l line hex new
	l=$(awk '$3 == "ima-buf" && $5 == "kexec_execute" {print NR; exit}' "$1/ascii_runtime_measurements")
	line=$(sed -n "${l}p" "$1/ascii_runtime_measurements")
	hex=$(cut -d' ' -f6 <<<"$line")
	new=$(xxd -r -p <<<"$hex" | sed -E "$2" | xxd -p | tr -d '\n')
	[ "$new" != "$hex" ] || tap_bail "forgery $2 changed nothing"
	awk -v l="$l" -v h="$new" 'NR == l {$6 = h} {print}' "$1/ascii_runtime_measurements" >"$1/a.new"
	mv "$1/a.new" "$1/ascii_runtime_measurements"
}
forged() {
	local name=$1 check=$2 dir=$3
	if "c_$check" "$dir" >/dev/null; then
		tap_fail "forged ($name): the $check check refuses it" "it passed"
	else
		tap_ok "forged ($name): the $check check refuses it"
		"c_$check" "$dir" | sed "s/^/# /" || true
	fi
}
d=$(copy appended)
printf 'x' >>"$d/stage1/binary_runtime_measurements"
forged "a byte the second kernel never got, appended to the first kernel's list" prefix "$d"
d=$(copy count)
rewrite_exec "$d" 's/count=([0-9]+);/count=1\1;/'
forged "kexec_execute counts more entries than precede it" execute "$d"
d=$(copy twice)
awk '$3 == "ima-buf" && $5 == "kexec_execute" {print} {print}' "$res/ascii_runtime_measurements" >"$d/ascii_runtime_measurements"
forged "a second kexec_execute record" execute "$d"
d=$(copy truncated)
rewrite_exec "$d" 's/kexec_segment_size=[0-9]*;/kexec_segment_size=4096;/'
forged "the segment smaller than the list (a truncated hand-over)" execute "$d"
d=$(copy aggregate)
awk '$5 == "boot_aggregate" && ++n == 2 {$4 = "sha256:" substr("0000000000000000000000000000000000000000000000000000000000000000", 1, 64)} {print}' \
	"$res/ascii_runtime_measurements" >"$d/ascii_runtime_measurements"
forged "the second boot_aggregate zeroed" aggregates "$d"
d=$(copy pcr)
awk '$1 == "sha256:10" {c = substr($2, 1, 1); $2 = (c == "0" ? "1" : "0") substr($2, 2)} {print}' \
	"$res/stage1/pcrs.txt" >"$d/stage1/pcrs.txt"
forged "the first kernel's PCR 10 (sha256) changed" stage1 "$d"
d=$(copy stage1-longer)
tail -n 1 "$res/stage1/ascii_runtime_measurements" >>"$d/stage1/ascii_runtime_measurements"
forged "the first kernel's list one entry longer than the hand-over counts" audit "$d"
d=$(copy cut)
# the second kernel's list cut just after the kexec_execute record: its own
# boot_aggregate and entries withheld (the PCR 10 replay then fails)
# (the end of entry N+1, N the first kernel's entries: the kexec_execute record)
off=$(python3 "$TOP/tests/host/attest/ima_list.py" entries "$res/binary_runtime_measurements" |
	sed -n "$(($(wc -l <"$res/stage1/ascii_runtime_measurements") + 1))p" | cut -d' ' -f2)
[ -n "$off" ] || tap_bail "the second kernel's list has no entry after the first kernel's"
head -c "$off" "$res/binary_runtime_measurements" >"$d/binary_runtime_measurements"
forged "the second kernel's entries withheld after the kexec_execute record" audit "$d"

# The quote in the second kernel (90-attest, with the AK the host enrolled
# in the first kernel by credential activation, persistent in the TPM):
# checked with the host's own record of that AK and the host's nonce, over
# the whole list, both kernels' entries. The quote's files are the guest's;
# the AK and the nonce are never taken from it.
# c_quote DIR AK: ima-audit on DIR's list with DIR's quote, verified by AK
c_quote() {
	local A=$TOP/tools/ima-audit/build/ima-audit q=$1/attest rc=0 got
	[ -n "$nonce" ] || { echo "no nonce: the host chose none for this boot"; return 1; }
	[ -s "$2" ] || { echo "no enrolled AK ($2): the host verifier did not enroll this TPM"; return 1; }
	"$TOP/tools/ima-attest/build/ima-attest" enrolled --enrolled "$1/verifier" >/dev/null 2>&1 ||
		{ echo "the host verifier's enrollment is not trusted (ima-attest enrolled --enrolled $1/verifier)"; return 1; }
	"$A" --json --quote "$q/quote.msg" --quote-sig "$q/quote.sig" --quote-pcrs "$q/quote.pcrs" \
		--ak-pub "$2" --nonce "$nonce" --key "$BUILD/keys/ima.der" \
		"$q/binary_runtime_measurements" >"$tmp/quote.json" 2>&1 || rc=$?
	got=$(jq -r '.kernels' "$tmp/quote.json" 2>/dev/null)
	[ "$rc" = 0 ] || { echo "ima-audit exit $rc: $(jq -r '.failures[] | "\(.index): \(.reason)"' "$tmp/quote.json" 2>/dev/null | head -n 3 | tr '\n' ' ')"; return 1; }
	[ "$got" = 2 ] || { echo "the quoted list holds ${got:-no} kernels, want 2"; return 1; }
}
nonce=${2:-}
q_what="a fresh quote in the second kernel, by the AK the host enrolled in the first (persistent), with the host's nonce, covers the whole list of both kernels"
genuine=0
if why=$(c_quote "$res" "$res/verifier/ak.pem"); then tap_ok "$q_what"; genuine=1; else tap_fail "$q_what" "$why"; fi
# refused NAME DIR AK: the forged copy must fail the quote check, and only a
# check the genuine files pass can show that
refused() {
	if [ "$genuine" != 1 ]; then
		tap_fail "forged ($1): the quote check refuses it" "the genuine quote fails too: a refusal proves nothing"
	elif c_quote "$2" "$3" >/dev/null; then
		tap_fail "forged ($1): the quote check refuses it" "it passed"
	else
		tap_ok "forged ($1): the quote check refuses it"
		c_quote "$2" "$3" | sed 's/^/# /' || true
	fi
}
# forged: the same quote checked with a key the host never enrolled (a
# forger's own AK), and the first kernel's list presented for the quote
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$tmp/rogue.key" 2>/dev/null &&
	openssl pkey -in "$tmp/rogue.key" -pubout -out "$tmp/rogue.pem" 2>/dev/null ||
	tap_bail "openssl cannot make a key"
refused "a key the host never enrolled" "$res" "$tmp/rogue.pem"
d=$(copy quote-stage1)
cp "$res/stage1/binary_runtime_measurements" "$d/attest/binary_runtime_measurements"
refused "the first kernel's list presented for the second kernel's quote" "$d" "$res/verifier/ak.pem"
tap_done
