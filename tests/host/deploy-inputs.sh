#!/usr/bin/env bash
# Host tests of the user's own inputs (IMA_STACK_POLICY, IMA_STACK_KEYS,
# IMA_STACK_FILES): each bad input is built here with a known defect, and
# its stage must stop with one message naming the stage and the defect,
# leaving nothing marked as done; the good inputs must be taken as given.
# Runs the stages against a scratch cache and build directory: nothing of
# the project's cache or build/ is read or written.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/host/lib/host.sh"
export IMA_STACK_CACHE=$tmp/cache BUILD=$tmp/build OPENSSL_CONF=$TOP/keys/openssl-neutral.cnf
unset IMA_STACK_KEYS IMA_STACK_POLICY IMA_STACK_FILES KEYS_REGEN

# expect_die NAME STAGE PATTERN CMD...: CMD exits 1 with "[STAGE] error:"
# and a message matching PATTERN (grep -E)
expect_die() {
	local name=$1 stage=$2 pat=$3
	shift 3
	run_rc "$@"
	if [ "$rc" = 1 ] && grep -q "^\[$stage\] error: " <<<"$out" && grep -Eq "$pat" <<<"$out"; then
		tap_ok "$name"
	else
		tap_fail "$name" "exit $rc, wanted 1 and /$pat/ from stage $stage:" "$out"
	fi
}

# --- 1. the policy linter, rule by rule: each line has one known defect
lint=$TOP/scripts/policy-lint.sh
for p in "$TOP"/policies/*; do
	run_rc "$lint" "$p"
	tap_is "policy-lint: $(basename "$p") of this project parses" "$rc:$out" "0:"
done
while IFS= read -r line; do
	rule=${line%% => *} want=${line#* => }
	printf '# a comment\n\n%s\n' "$rule" >"$tmp/p"
	run_rc "$lint" "$tmp/p"
	if [ "$rc" = 1 ] && grep -q "^$tmp/p:3: .*$want" <<<"$out" && [ "$(wc -l <<<"$out")" = 1 ]; then
		tap_ok "policy-lint: '$rule' refused on its line ($want)"
	else
		tap_fail "policy-lint: '$rule' refused on its line ($want)" "exit $rc:" "$out"
	fi
done <<'CASES'
mesure func=FILE_CHECK => must start with an action
measure func=MODULE_CHEK => unknown func=MODULE_CHEK
measure fnuc=MODULE_CHECK => unknown option "fnuc"
measure func=FILE_CHECK # trailing note => a comment after a rule
measure func=BPRM_CHECK func=MMAP_CHECK => "func" given twice
measure func=FILE_CHECK mask=MAY_RUN => unknown mask=MAY_RUN
dont_measure fsmagic=0xzz => not a hexadecimal number
measure uid=root => a decimal id is expected
measure fsname<ext4 => compares only uid
audit func=BPRM_CHECK pcr=11 => pcr= belongs to a measure rule
measure func=BPRM_CHECK pcr=24 => a PCR number 0-23
measure func=BPRM_CHECK appraise_type=imasig => appraise_type= belongs to an appraise rule
appraise func=BPRM_CHECK appraise_type=imasig|modsig2 => unknown appraise_type
appraise func=KEY_CHECK => takes only measure or dont_measure
measure func=FILE_CHECK label=x => label= needs func=CRITICAL_DATA
measure func=FILE_CHECK keyrings=.ima => keyrings= needs func=KEY_CHECK
appraise func=FILE_CHECK appraise_algos=sha256,sha999 => unknown hash algorithm "sha999"
measure func=FILE_CHECK template=ima-fancy => unknown template=ima-fancy
CASES
run_rc "$lint" "$tmp/no-such-policy"
tap_is "policy-lint: a missing file is a usage error (exit 2)" "$rc" 2

# --- 2. IMA_STACK_KEYS: the user's CA and IMA key
osl() { openssl "$@" 2>/dev/null; }
# mkca DIR KU: a self-signed CA certificate with keyUsage KU
mkca() {
	mkdir -p "$1"
	printf '[req]\ndistinguished_name=dn\nprompt=no\nx509_extensions=v3\n[dn]\nCN=test CA\n[v3]\nbasicConstraints=critical,CA:TRUE\nkeyUsage=%s\nsubjectKeyIdentifier=hash\n' "$2" >"$1/ca.cnf"
	osl req -x509 -new -newkey rsa:2048 -nodes -days 30 -sha256 -config "$1/ca.cnf" \
		-keyout "$1/ca.key" -out "$1/ca.pem"
}
# mkleaf DIR CADIR BC KU: ima.key and ima.pem certified by CADIR's CA
mkleaf() {
	printf '[v3]\nbasicConstraints=critical,%s\nkeyUsage=%s\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n' "$3" "$4" >"$1/leaf.cnf"
	osl req -new -newkey rsa:2048 -nodes -sha256 -subj "/CN=test IMA key" \
		-keyout "$1/ima.key" -out "$1/ima.csr"
	osl x509 -req -in "$1/ima.csr" -CA "$2/ca.pem" -CAkey "$2/ca.key" -CAcreateserial \
		-days 30 -sha256 -extfile "$1/leaf.cnf" -extensions v3 -out "$1/ima.pem"
}
good=$tmp/k/good
mkca "$good" critical,keyCertSign,cRLSign
mkleaf "$good" "$good" CA:FALSE critical,digitalSignature

keys() { IMA_STACK_KEYS=$1 bash "$TOP/scripts/keys.sh"; }
no_import_dir() { ! compgen -G "$IMA_STACK_CACHE/keys/import-*" >/dev/null; }

expect_die "keys: IMA_STACK_KEYS naming no directory is refused" keys "is not a directory" \
	keys "$tmp/k/none"
mkdir -p "$tmp/k/nokey" && cp "$good/ca.pem" "$good/ima.pem" "$tmp/k/nokey/"
expect_die "keys: a directory without ima.key is refused, naming the file" keys "no readable ima.key" \
	keys "$tmp/k/nokey"
# refused_pair DIR NAME MESSAGE CA_KU LEAF_BC LEAF_KU: in $tmp/k/DIR a CA
# with keyUsage CA_KU and an IMA key it certifies (basicConstraints LEAF_BC,
# keyUsage LEAF_KU), refused with MESSAGE
refused_pair() {
	local d=$tmp/k/$1
	mkca "$d" "$4"
	mkleaf "$d" "$d" "$5" "$6"
	expect_die "keys: $2" keys "$3" keys "$d"
}
refused_pair noku "a CA without keyCertSign is refused" "lacks keyUsage keyCertSign" \
	critical,digitalSignature CA:FALSE critical,digitalSignature
d=$tmp/k/notca
mkca "$d" critical,keyCertSign
sed -i 's/CA:TRUE/CA:FALSE/' "$d/ca.cnf"
osl req -x509 -new -key "$d/ca.key" -days 30 -sha256 -config "$d/ca.cnf" -out "$d/ca.pem"
mkleaf "$d" "$good" CA:FALSE critical,digitalSignature
expect_die "keys: a CA certificate without CA:TRUE is refused" keys "not a CA certificate" keys "$d"
d=$tmp/k/other
mkca "$d" critical,keyCertSign
mkleaf "$d" "$d" CA:FALSE critical,digitalSignature
cp "$good/ca.pem" "$d/ca.pem"
expect_die "keys: an IMA key certified by another CA is refused" keys "is not certified by" keys "$d"
d=$tmp/k/swap
mkdir -p "$d" && cp "$good/ca.pem" "$good/ima.pem" "$d/"
osl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$d/ima.key"
expect_die "keys: an ima.key that is not the key of ima.pem is refused" keys "is not the key of" keys "$d"
refused_pair nodsig "an IMA certificate without digitalSignature is refused" "lacks keyUsage digitalSignature" \
	critical,keyCertSign CA:FALSE critical,keyEncipherment
refused_pair leafca "an IMA certificate that is itself a CA is refused" "is a CA certificate" \
	critical,keyCertSign CA:TRUE critical,digitalSignature,keyCertSign
tap_cmd "keys: no refused import left a key directory behind" no_import_dir

run_rc keys "$good"
kd=$(IMA_STACK_KEYS=$good bash -c ". '$TOP/scripts/paths.sh'; echo \$KEYS_PRIVATE")
tap_is "keys: a good CA and IMA key are imported" "$rc" 0
tap_cmd "keys: the imported CA is the one the kernel and the image get" \
	cmp -s "$good/ca.pem" "$BUILD/keys/ca.pem"
tap_cmd "keys: the imported IMA key signs (sign.sh's key is the user's)" \
	cmp -s "$good/ima.key" "$kd/ima.key"
perm=$(stat -c %a "$kd"/* | sort -u | tr '\n' ' ')
tap_is "keys: every file of the imported key set is 0600" "$perm" "600 "
tap_cmd "keys: the generated module and rogue keys are there" test -s "$kd/module.pem" -a -s "$kd/rogue.der"
run_rc keys "$good"
tap_cmd "keys: a second run keeps the imported set" grep -q "keeping the imported keys" <<<"$out"

# --- 3. sign.sh: the user's policy and files are checked before anything
printf 'measure func=BPRM_CHECK\nmeasure func=MODULE_CHEK\n' >"$tmp/bad-policy"
sign() { env "$@" bash "$TOP/scripts/sign.sh"; }
no_stamp() { ! compgen -G "$BUILD/*/signed*.stamp" >/dev/null; }
expect_die "sign: a policy that does not parse stops the stage, naming the rule" sign \
	"bad-policy:2: unknown func=MODULE_CHEK" sign IMA_STACK_POLICY="$tmp/bad-policy"
expect_die "sign: a policy file that does not exist stops the stage" sign \
	"IMA_STACK_POLICY=$tmp/none: no such readable file" sign IMA_STACK_POLICY="$tmp/none"
expect_die "sign: a files directory that does not exist stops the stage" sign \
	"IMA_STACK_FILES=$tmp/nodir: no such directory" sign IMA_STACK_FILES="$tmp/nodir"
tap_cmd "sign: no refused input left a signed tree marked done" no_stamp

tap_done
