#!/usr/bin/env bash
# Host tests of the keys stage's guard over keys/*.cnf (scripts/keys.sh): keys
# made from other key descriptions are never kept silently, a comment is not
# a description, and a key set stamped before comments stopped counting is
# recognised only when nothing else changed. On a copy of scripts/ and
# keys/ with a scratch cache; each expectation comes from the edit made.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/host/lib/host.sh"

top=$tmp/top
mkdir -p "$top"
cp -r "$TOP/scripts" "$TOP/keys" "$top/"
export IMA_STACK_CACHE=$tmp/cache BUILD=$tmp/build
unset IMA_STACK_KEYS KEYS_REGEN IMA_KEY_TYPE
stamp=$tmp/cache/keys/rsa/cnf.hash
# keys: the keys stage on the copy; "exit|its lines about the keys of
# keys/rsa, joined by ;"
keys() {
	local rc=0 out
	out=$(bash "$top/scripts/keys.sh" 2>&1) || rc=$?
	echo "$rc|$(grep -E 'keys/rsa|error' <<<"$out" | paste -sd';')"
}
ca() { sha256sum <"$tmp/cache/keys/rsa/ca.pem"; }

tap_like "a first run makes the keys" "$(keys)" '^0\|'
tap_like "their stamp is of the descriptions' rules" "$(cat "$stamp")" '^rules [0-9a-f]{16}$'
ca0=$(ca)
tap_like "a second run keeps them" "$(keys)" '^0\|.*keeping existing keys'

# a comment and a blank line are not what OpenSSL reads
printf '\n# a comment a reader added\n' >>"$top/keys/ima.cnf"
tap_like "a comment added to ima.cnf: the keys are kept" "$(keys)" '^0\|.*keeping existing keys'
tap_is "... and they are the same keys" "$(ca)" "$ca0"

# a rule changed: the keys no longer match their description
cp "$top/keys/ca.cnf" "$tmp/ca.cnf"
sed -i '0,/^[^#[:space:]].*=/s/=/= /' "$top/keys/ca.cnf"
tap_is "the edit changed a rule line of ca.cnf, not a comment" \
	"$(diff <(grep -v '^#' "$tmp/ca.cnf") <(grep -v '^#' "$top/keys/ca.cnf") | grep -c '^>')" 1
tap_like "a rule of ca.cnf changed: refused, naming the way out" "$(keys)" \
	'^1\|.*keys/\*\.cnf changed since the keys .*KEYS_REGEN=1 make keys'
cp "$tmp/ca.cnf" "$top/keys/ca.cnf"

# a stamp of the earlier kind: the whole files' content_hash, made while
# openssl-neutral.cnf opened with two lines naming keys/gen.sh
old=$tmp/old
cp -r "$top/keys" "$old"
git -C "$TOP" show a360ff8:keys/openssl-neutral.cnf | head -n 2 >"$tmp/head"
{ cat "$tmp/head"; tail -n +3 "$top/keys/openssl-neutral.cnf"; } >"$old/openssl-neutral.cnf"
tap_like "the earlier opening named keys/gen.sh" "$(head -n 1 "$old/openssl-neutral.cnf")" 'keys/gen\.sh'
(TOP=$top && . "$top/scripts/lib.sh" && content_hash "$old"/*.cnf) >"$tmp/old.stamp"
cp "$tmp/old.stamp" "$stamp"
tap_like "a stamp of the earlier kind, nothing else changed: kept, stamp rewritten" "$(keys)" \
	'^0\|.*stamp of keys/\*\.cnf rewritten.*;.*keeping existing keys'
tap_like "... the stamp is now of the rules" "$(cat "$stamp")" '^rules [0-9a-f]{16}$'
tap_is "... and the keys are the same" "$(ca)" "$ca0"
# the same earlier stamp, but ca.cnf's CN changed since those keys were made
sed -i 's/^CN *=.*/CN = another CA/' "$top/keys/ca.cnf"
tap_is "the edit changed ca.cnf's CN" "$(grep -c '^CN = another CA$' "$top/keys/ca.cnf")" 1
cp "$tmp/old.stamp" "$stamp"
tap_like "a stamp of the earlier kind, ca.cnf changed since: refused" "$(keys)" \
	'^1\|.*keys/\*\.cnf changed since the keys'
tap_done
