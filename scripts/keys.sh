#!/usr/bin/env bash
# Stage keys: a CA, an IMA signing key it certifies, a module signing key and
# a rogue (uncertified) key for negative tests; and the TPM "manufacturer":
# a swtpm_localca CA that certifies the EK of every swtpm boot.sh makes.
# Inputs:  keys/*.cnf, IMA_KEY_TYPE (rsa | ec; default rsa = RSA-2048,
#          ec = prime256v1).
# Outputs: $CACHE/keys/<type>/ (private keys 0600), copied certificates in
#          build/keys/. Existing keys are kept; KEYS_REGEN=1 replaces them.
#          $CACHE/tpm-ca/: the manufacturer CA (root and issuing key, files
#          0600) and the swtpm_setup/swtpm_localca configuration using it;
#          build/keys/tpm-ca.pem (the verifier's trust root for TPMs) and
#          tpm-ca-chain.pem (the issuing CA). Made once, kept like the keys.
. "$(dirname "$0")/lib.sh"
need openssl openssl

type=${IMA_KEY_TYPE:-rsa}
case $type in
rsa) newkey=(-newkey rsa:2048) ;;
ec) newkey=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1) ;;
*) die "IMA_KEY_TYPE=$type: use rsa or ec" ;;
esac

dir=$KEYS_PRIVATE
out=$BUILD/keys
export OPENSSL_CONF=$TOP/keys/openssl-neutral.cnf
umask 077

# test_keys: in the current directory, the module signing key and the rogue
# (uncertified) key the tests need, the rogue of the IMA key's type
test_keys() {
	# sign-file and CONFIG_MODULE_SIG_KEY want key and certificate in one file
	run openssl req -x509 -new -newkey rsa:2048 -nodes -days 3650 -sha256 \
		-config "$TOP/keys/module.cnf" -keyout module.key -out module.crt 2>/dev/null
	cat module.key module.crt >module.pem && rm -f module.key module.crt
	run openssl req -x509 -new "${newkey[@]}" -nodes -days 3650 -sha256 \
		-config "$TOP/keys/rogue.cnf" -keyout rogue.key -out rogue.pem 2>/dev/null
	run openssl x509 -in rogue.pem -outform DER -out rogue.der
}

# import_keys SRC: the user's own CA certificate and IMA key (IMA_STACK_KEYS)
# instead of generated ones. SRC holds ca.pem (the CA the kernel will trust:
# CA:TRUE, keyCertSign), ima.pem (certified by it: CA:FALSE,
# digitalSignature) and ima.key (its private key, RSA or EC). The module
# and rogue keys the tests need are generated beside them; the CA's private
# key is never asked for. Checked before anything is written.
import_keys() {
	local src=$1 f ext pub1 pub2 kt
	local fix="fix it in IMA_STACK_KEYS=$src, or unset IMA_STACK_KEYS to use generated keys"
	[ -d "$src" ] || die "IMA_STACK_KEYS=$src is not a directory: give one holding ca.pem, ima.pem and ima.key"
	for f in ca.pem ima.pem ima.key; do
		[ -f "$src/$f" ] && [ -r "$src/$f" ] || die "IMA_STACK_KEYS=$src has no readable $f: $fix"
	done
	openssl x509 -in "$src/ca.pem" -noout 2>/dev/null ||
		die "$src/ca.pem is not a PEM certificate: $fix"
	openssl x509 -in "$src/ima.pem" -noout 2>/dev/null ||
		die "$src/ima.pem is not a PEM certificate: $fix"
	ext=$(openssl x509 -in "$src/ca.pem" -noout -ext basicConstraints,keyUsage 2>/dev/null)
	grep -q 'CA:TRUE' <<<"$ext" ||
		die "$src/ca.pem is not a CA certificate (no basicConstraints CA:TRUE): the kernel would not accept keys it certifies; $fix"
	grep -q 'Certificate Sign' <<<"$ext" ||
		die "$src/ca.pem lacks keyUsage keyCertSign: the kernel would not accept keys it certifies; $fix"
	openssl verify -partial_chain -CAfile "$src/ca.pem" "$src/ima.pem" >/dev/null 2>&1 ||
		die "$src/ima.pem is not certified by $src/ca.pem (openssl verify fails): the kernel would refuse it on .ima; $fix"
	ext=$(openssl x509 -in "$src/ima.pem" -noout -ext basicConstraints,keyUsage 2>/dev/null)
	! grep -q 'CA:TRUE' <<<"$ext" ||
		die "$src/ima.pem is a CA certificate: IMA wants a leaf key (CA:FALSE); $fix"
	grep -q 'Digital Signature' <<<"$ext" ||
		die "$src/ima.pem lacks keyUsage digitalSignature: the kernel refuses it for IMA; $fix"
	pub1=$(openssl pkey -in "$src/ima.key" -pubout 2>/dev/null) ||
		die "$src/ima.key is not a readable unencrypted private key: $fix"
	pub2=$(openssl x509 -in "$src/ima.pem" -noout -pubkey 2>/dev/null)
	[ "$pub1" = "$pub2" ] || die "$src/ima.key is not the key of $src/ima.pem: $fix"
	kt=$(openssl x509 -in "$src/ima.pem" -noout -text 2>/dev/null |
		sed -n 's/^ *\(Public Key Algorithm\|ASN1 OID\): //p' | tr '\n' ' ')
	case $kt in
	"rsaEncryption ") newkey=(-newkey rsa:2048) ;;
	"id-ecPublicKey prime256v1 ") newkey=(-newkey ec -pkeyopt ec_paramgen_curve:prime256v1) ;;
	*) die "$src/ima.pem: only RSA and EC prime256v1 keys are supported here (found: ${kt:-none}); $fix" ;;
	esac
	if [ -f "$dir/import.hash" ] && stamp_ok "$(cat "$src/ca.pem" "$src/ima.pem" | sha256sum)" "$dir/import.hash"; then
		log "keeping the imported keys in $dir"
		return 0
	fi
	rm -rf "$dir.new" && mkdir -p "$dir.new"
	cp "$src/ca.pem" "$src/ima.pem" "$src/ima.key" "$dir.new/"
	(
		cd "$dir.new" || die "cannot enter $dir.new"
		run openssl x509 -in ima.pem -outform DER -out ima.der
		test_keys
		cat ca.pem ima.pem | sha256sum >import.hash
		chmod 0600 ./*
	)
	rm -rf "$dir" && mv "$dir.new" "$dir"
	log "imported the CA and IMA key of $src into $dir (the kernel is rebuilt to trust this CA)"
}

files=(ca.key ca.pem ima.key ima.pem ima.der module.pem rogue.key rogue.der)
have=0
for f in "${files[@]}"; do [ -s "$dir/$f" ] && have=$((have + 1)); done

# the key descriptions are an input: keys made from other .cnf files are not
# replaced silently. What counts is what OpenSSL reads, each file's name and
# its lines but comments and blank ones, so that a comment can be corrected
# without new keys (stamp "rules HASH").
cnf_rules_hash() {
	local f
	for f in "$TOP"/keys/*.cnf; do
		basename "$f"
		grep -v -E '^[[:space:]]*(#|$)' "$f" || :
	done | sha256sum | cut -c1-16
}
# cnf_whole_hash_before_comments: the stamp keys made before that held, the
# whole files' content_hash, made while openssl-neutral.cnf's two opening
# comment lines still named a keys/gen.sh; so a key set of that time is
# still recognised, and its stamp rewritten, only when nothing else changed
cnf_whole_hash_before_comments() {
	local f
	for f in "$TOP"/keys/*.cnf; do
		printf '%s ' "$(basename "$f")"
		if [ "$(basename "$f")" = openssl-neutral.cnf ]; then
			{
				echo '# Neutral OpenSSL configuration: keys/gen.sh points OPENSSL_CONF here so that'
				echo "# the host's /etc/ssl/openssl.cnf cannot change what we generate."
				tail -n +3 "$f"
			} | sha256sum
		else
			sha256sum <"$f"
		fi
	done | sha256sum | cut -c1-16
}
cnf="rules $(cnf_rules_hash)"
if [ -n "${IMA_STACK_KEYS:-}" ]; then
	import_keys "$IMA_STACK_KEYS"
elif [ "$have" -eq "${#files[@]}" ] && [ "${KEYS_REGEN:-0}" != 1 ]; then
	if [ ! -f "$dir/cnf.hash" ]; then
		echo "$cnf" >"$dir/cnf.hash"
	elif stamp_ok "$(cnf_whole_hash_before_comments)" "$dir/cnf.hash"; then
		echo "$cnf" >"$dir/cnf.hash"
		log "keys in $dir: stamp of keys/*.cnf rewritten (comments no longer count)"
	elif ! stamp_ok "$cnf" "$dir/cnf.hash"; then
		die "keys/*.cnf changed since the keys in $dir were made: run \`KEYS_REGEN=1 make keys\` to replace every key (the kernel is rebuilt with the new CA)"
	fi
	log "keeping existing keys in $dir"
elif [ "$have" -gt 0 ] && [ "${KEYS_REGEN:-0}" != 1 ]; then
	die "$dir holds an incomplete key set ($have of ${#files[@]} files): remove it or run with KEYS_REGEN=1 to replace every key"
else
	[ "$have" -gt 0 ] && log "KEYS_REGEN=1: replacing the keys in $dir"
	rm -rf "$dir.new" && mkdir -p "$dir.new"
	cd "$dir.new" || die "cannot enter $dir.new"
	run openssl req -x509 -new "${newkey[@]}" -nodes -days 3650 -sha256 \
		-config "$TOP/keys/ca.cnf" -keyout ca.key -out ca.pem 2>/dev/null
	run openssl req -new "${newkey[@]}" -nodes -sha256 \
		-config "$TOP/keys/ima.cnf" -keyout ima.key -out ima.csr 2>/dev/null
	run openssl x509 -req -in ima.csr -CA ca.pem -CAkey ca.key \
		-CAcreateserial -days 3650 -sha256 -extfile "$TOP/keys/ima.cnf" \
		-extensions v3_ima -out ima.pem 2>/dev/null
	run openssl x509 -in ima.pem -outform DER -out ima.der
	test_keys
	rm -f ima.csr ca.srl
	run openssl verify -CAfile ca.pem ima.pem >/dev/null ||
		die "the IMA certificate does not verify against the CA: remove $dir.new and retry"
	echo "$cnf" >cnf.hash
	chmod 0600 ./*
	cd "$TOP" || die "cannot return to $TOP"
	rm -rf "$dir" && mv "$dir.new" "$dir"
	log "generated $type keys in $dir"
fi

# Public material for the other stages; private keys stay in the cache.
mkdir -p "$out"
chmod 0700 "$out"
umask 022
for f in ca.pem ima.pem ima.der rogue.der; do
	cmp -s "$dir/$f" "$out/$f" 2>/dev/null || cp "$dir/$f" "$out/$f"
done
chmod 0644 "$out"/*.pem "$out"/*.der
# (older trees linked the private directory here)
rm -f "$out/private"

# The TPM manufacturer: swtpm_localca makes its root CA and issuing key on
# its first use; a throwaway swtpm_setup run here is that first use, so the
# CA exists before any boot and never changes afterwards. Both PCR banks stay
# active (Debian's swtpm_setup.conf activates only sha256).
need swtpm_setup swtpm-tools
need swtpm_localca swtpm-tools
tca=$CACHE/tpm-ca
umask 077
mkdir -p "$tca"
cat >"$tca/localca.conf" <<EOF
statedir = $tca/state
signingkey = $tca/state/signkey.pem
issuercert = $tca/state/issuercert.pem
certserial = $tca/state/certserial
EOF
printf '%s\n' "--platform-manufacturer ima-stack" "--platform-version 2.1" \
	"--platform-model QEMU" >"$tca/localca.options"
cat >"$tca/swtpm_setup.conf" <<EOF
create_certs_tool = $(command -v swtpm_localca)
create_certs_tool_config = $tca/localca.conf
create_certs_tool_options = $tca/localca.options
active_pcr_banks = sha1,sha256
EOF
if [ "${KEYS_REGEN:-0}" = 1 ] || [ ! -s "$tca/state/swtpm-localca-rootca-cert.pem" ] ||
	[ ! -s "$tca/state/signkey.pem" ]; then
	rm -rf "$tca/state" "$tca/first"
	mkdir -p "$tca/state" "$tca/first"
	run swtpm_setup --tpm2 --tpmstate "$tca/first" --config "$tca/swtpm_setup.conf" \
		--create-ek-cert --pcr-banks sha1,sha256 --overwrite \
		>"$tca/first.log" 2>&1 ||
		die "swtpm_setup could not make the TPM manufacturer CA: see $tca/first.log"
	rm -rf "$tca/first"
	[ -s "$tca/state/swtpm-localca-rootca-cert.pem" ] ||
		die "swtpm_localca made no root CA in $tca/state: see $tca/first.log"
	log "generated the TPM manufacturer CA in $tca"
else
	log "keeping the existing TPM manufacturer CA in $tca"
fi
chmod 0700 "$tca" "$tca/state"
find "$tca" -type f -exec chmod 0600 {} +
umask 022
for f in swtpm-localca-rootca-cert.pem:tpm-ca.pem issuercert.pem:tpm-ca-chain.pem; do
	cmp -s "$tca/state/${f%%:*}" "$out/${f#*:}" 2>/dev/null ||
		cp "$tca/state/${f%%:*}" "$out/${f#*:}"
	chmod 0644 "$out/${f#*:}"
done
