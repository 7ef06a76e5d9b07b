#!/usr/bin/env bash
# Stage sign: the guest's whole root file system, laid out and signed with
# the IMA key as the last step before imaging: every regular file of the
# Debian root, the overlay, the guest tests, kcall and the test modules
# (tests/guest/kmod, built against the kernel) carries an evmctl v2
# signature in security.ima (so that a policy may appraise everything that
# is executed, mapped or read by root: policies/appraise-all.rules), modules also
# an appended one; then each suite's fixtures, with the unsigned, tampered
# and rogue-signed copies the negative tests need. Those copies, and the
# module signed only by an appended signature (FILE_CHECK knows no modsig),
# are owned by nobody (uid 65534), so that appraisal of root-owned files
# (FILE_CHECK fowner=0) leaves their reads alone and only the loader paths
# judge them.
# Inputs:  the keys (keys.sh), the kernel out/ and obj/ (kernel-build.sh),
#          build/rootfs.tar (rootfs.sh), rootfs/overlay/, tests/guest/,
#          tests/lib/, policies/, the policies the boot files join
#          (tests/boots/*.boot).
# Outputs: build/<variant>/signed/, the guest's tree, and its stamp;
#          build/<variant>/signed.keylime.json, the Keylime runtime policy
#          of the tree (scripts/keylime-policy.py: every root-owned file's
#          sha256, the keys the kernel puts on .ima, the IMA key as its
#          verification key), for ima-audit --manifest or a Keylime
#          verifier.
#          Rebuilt from scratch when an input changes; safe to run twice.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/boots.sh"
need evmctl ima-evm-utils
need setfattr attr
need python3 python3

variant=$(stage_variant)
# the user's own inputs first, before anything is built or marked done:
# IMA_STACK_POLICY=FILE (installed as /etc/ima/user-policy, loaded at boot by
# make demo and make shell) and IMA_STACK_FILES=DIR (copied to
# /opt/user-files, signed like the rest of the tree)
user_policy=${IMA_STACK_POLICY:-} user_files=${IMA_STACK_FILES:-}
if [ -n "$user_policy" ]; then
	[ -f "$user_policy" ] && [ -r "$user_policy" ] ||
		die "IMA_STACK_POLICY=$user_policy: no such readable file (give the path of an IMA policy, one rule a line)"
	lint=$("$TOP/scripts/policy-lint.sh" "$user_policy" 2>&1) ||
		die "IMA_STACK_POLICY=$user_policy does not parse as an IMA policy; fix these rules and run again:
$lint"
fi
if [ -n "$user_files" ]; then
	[ -d "$user_files" ] ||
		die "IMA_STACK_FILES=$user_files: no such directory (give a directory; its tree is copied to /opt/user-files and signed)"
	[ -r "$user_files" ] && [ -x "$user_files" ] || die "IMA_STACK_FILES=$user_files: the directory cannot be read"
fi
kdir=$CACHE/kernel/$variant
keys=$KEYS_PRIVATE
out=$BUILD/$variant/signed$IMAGE_TAG
[ -f "$kdir/out/stamp" ] || die "no $variant kernel: run \`make kernel\` first"
[ -f "$keys/ima.key" ] || die "no keys: run \`make keys\` first"

[ -e "$BUILD/rootfs.tar" ] || die "no rootfs tarball: run \`make rootfs\` first"
# what the boot files join into policies (read here, so that a bad boot file
# stops the stage before anything is built)
boot_policies=
for b in $(boot_names); do
	boot_read "$b"
	boot_policies+="$b: $B_POLICY | $B_POLICY_DROP"$'\n'
done

key=$( (cat "$kdir/out/stamp"; sha256sum <"$keys/ima.pem"; sha256sum <"$keys/rogue.der"
	readlink -f "$BUILD/rootfs.tar"
	content_hash "$TOP/policies" "$TOP/rootfs/overlay" "$TOP/tests/guest" "$TOP/tests/lib"
	echo "$boot_policies"; declare -f boot_policy_path boot_policy_compose
	sha256sum <"$0"; sha256sum <"$TOP/scripts/keylime-policy.py"; echo "tag=$IMAGE_TAG"
	[ -z "$user_policy" ] || { echo user-policy; sha256sum <"$user_policy"; }
	[ -z "$user_files" ] || { echo user-files; content_hash "$user_files"; }) | sha256sum | cut -c1-16)
if stamp_ok "$key" "$out.stamp" && [ -d "$out" ] && [ -s "$out.keylime.json" ]; then
	log "signed tree up to date (key $key)"
	exit 0
fi
rm -f "$out.stamp"
tmp=$out.tmp
rm -rf "$tmp"
mkdir -p "$tmp"/{etc/ima,etc/keys}

# ima_sign FILE [KEY]: security.ima = evmctl v2 signature (sha256)
ima_sign() {
	run evmctl ima_sign --hashalgo sha256 --key "${2:-$keys/ima.key}" "$1" >/dev/null 2>&1 ||
		die "evmctl ima_sign failed on $1"
}
# tamper FILE: keep the signature, change one byte in the middle
tamper() {
	local size off b
	size=$(stat -c %s "$1")
	off=$((size / 2))
	b=$(od -An -tu1 -j "$off" -N1 "$1" | tr -d ' ')
	printf "$(printf '\\%03o' $(((b + 1) & 255)))" |
		dd of="$1" bs=1 seek="$off" conv=notrunc status=none
}

# --- the guest suites' fixtures ---------------------------------------------
# Each suite that needs files declares them in tests/guest/NAME.fixtures, a
# bash fragment sourced here (in a subshell) with the helpers below. Paths
# are the guest's; FX_ROOT is the tree being built, KOUT/KOBJ the kernel's
# outputs. Each fragment's manifest, /opt/ima-stack/fixtures/NAME.manifest,
# lists what it made, so that the suites and the host audit read their
# expectations from the fixtures themselves:
#   file PATH SIZE SHA256 CLASS   CLASS: signed, unsigned, tampered (signed,
#                                 then one byte changed), rogue (signed by a
#                                 key outside .ima), modsig (appended)
#   value NAME TEXT...            a value the suite reads (fx_value)
declare -A fx_class
fx_order=()
_fx() { # PATH CLASS: record the newest class of PATH
	[ -n "${fx_class[$1]:-}" ] || fx_order+=("$1")
	fx_class[$1]=$2
}
# fx_blob PATH SIZE SEED: SIZE deterministic pseudo-random bytes
fx_blob() {
	mkdir -p "$(dirname "$FX_ROOT$1")"
	head -c "$2" < <(openssl enc -aes-256-ctr -nosalt -pass "pass:$3" -pbkdf2 \
		</dev/zero 2>/dev/null || true) >"$FX_ROOT$1"
	[ "$(stat -c %s "$FX_ROOT$1")" = "$2" ] || die "fixture $1: could not make $2 bytes"
	_fx "$1" unsigned
}
# fx_text PATH: standard input, byte for byte
fx_text() {
	mkdir -p "$(dirname "$FX_ROOT$1")"
	cat >"$FX_ROOT$1"
	_fx "$1" unsigned
}
# fx_copy PATH SRC [strip]: a copy of the host file SRC (stripped of debug
# information with "strip")
fx_copy() {
	[ -f "$2" ] || die "fixture $1: $2 does not exist"
	mkdir -p "$(dirname "$FX_ROOT$1")"
	if [ "${3:-}" = strip ]; then
		strip --strip-debug -o "$FX_ROOT$1" "$2"
	else
		cp "$2" "$FX_ROOT$1"
	fi
	_fx "$1" unsigned
}
# fx_sign PATH [rogue]: security.ima signature by the IMA key (or the rogue)
fx_sign() {
	if [ "${2:-}" = rogue ]; then
		ima_sign "$FX_ROOT$1" "$keys/rogue.key"
		_fx "$1" rogue
	else
		ima_sign "$FX_ROOT$1"
		_fx "$1" signed
	fi
}
# fx_modsig PATH: an appended module signature by the IMA key
fx_modsig() {
	run "$KOBJ/scripts/sign-file" sha256 "$keys/ima.key" "$keys/ima.der" "$FX_ROOT$1"
	_fx "$1" modsig
}
# fx_blacklist_sig PATH DESC: a PKCS#7 signature (DER, detached, no
# certificates) by the CA over DESC, the description of a .blacklist key
# ("bin:" and a hex digest): what add_key(2) needs to put DESC on the
# kernel's .blacklist keyring (CONFIG_SYSTEM_BLACKLIST_AUTH_UPDATE checks it
# against the built-in trusted keys). The CA's private key stays in the
# cache; only the signature enters the image. Returns 1, making nothing,
# when the CA's private key is not in the cache (IMA_STACK_KEYS imports a
# CA without it).
fx_blacklist_sig() {
	[ -f "$keys/ca.key" ] || return 1
	mkdir -p "$(dirname "$FX_ROOT$1")"
	printf '%s' "$2" | OPENSSL_CONF=$TOP/keys/openssl-neutral.cnf run openssl smime -sign \
		-binary -noattr -nocerts -md sha256 -signer "$keys/ca.pem" -inkey "$keys/ca.key" \
		-outform DER -out "$FX_ROOT$1" ||
		die "fixture $1: openssl smime could not sign \"$2\" with the CA in $keys"
	_fx "$1" unsigned
}
# fx_tamper PATH: one byte changed, the signature kept
fx_tamper() {
	tamper "$FX_ROOT$1"
	_fx "$1" tampered
}
# fx_variants PATH: PATH signed, plus PATH-unsigned, -tampered and -rogue
# copies (before the extension: fw.bin -> fw-unsigned.bin)
fx_variants() {
	local f=${1##*/} base=$1 ext='' v
	if [[ $f == *.* ]]; then
		ext=.${f##*.}
		base=${1%.*}
	fi
	for v in unsigned tampered rogue; do
		cp "$FX_ROOT$1" "$FX_ROOT$base-$v$ext"
		_fx "$base-$v$ext" unsigned
	done
	fx_sign "$1"
	fx_sign "$base-tampered$ext"
	fx_tamper "$base-tampered$ext"
	fx_sign "$base-rogue$ext" rogue
}
declare -A fx_uid
# fx_owner PATH UID: PATH owned by UID (else: root, and nobody for the
# unsigned, tampered and rogue classes)
fx_owner() { fx_uid[$1]=$2; }
fx_values=()
# fx_value NAME TEXT: a value the suite reads back (fixture_value NAME)
fx_value() { fx_values+=("value $1 $2"); }

# fixtures NAME FRAGMENT: run one fragment, write its manifest. (A subshell
# with an ERR trap of its own: under `|| die` bash would ignore its errors.)
fixtures() {
	local name=$1 frag=$2
	(
		trap 'printf "[%s] error: the fixtures of %s failed at %s:%s: %s\n" "$STAGE" "$name" "$frag" "$LINENO" "$BASH_COMMAND" >&2; exit 1' ERR
		# "... | fx_text PATH" must record PATH in this shell
		shopt -s lastpipe
		# shellcheck disable=SC2034 # KOUT and KOBJ are for the fragment
		FX_ROOT=$tmp KOUT=$kdir/out KOBJ=$kdir/obj
		# shellcheck source=/dev/null # a tests/guest/*.fixtures fragment
		. "$frag"
		mkdir -p "$tmp/opt/ima-stack/fixtures"
		{
			printf '# fixtures of %s (tests/guest/%s), made by scripts/sign.sh\n' "$name" "$(basename "$frag")"
			for p in "${fx_order[@]}"; do
				printf 'file %s %s %s %s\n' "$p" "$(stat -c %s "$FX_ROOT$p")" \
					"$(sha256sum <"$FX_ROOT$p" | cut -d' ' -f1)" "${fx_class[$p]}"
			done
			for v in "${fx_values[@]}"; do printf '%s\n' "$v"; done
		} >"$tmp/opt/ima-stack/fixtures/$name.manifest"
		# what must not verify is not root's: see the head of this file
		for p in "${fx_order[@]}"; do
			case ${fx_class[$p]} in
			unsigned | tampered | rogue | modsig) chown 65534:65534 "$FX_ROOT$p" ;;
			esac
			[ -z "${fx_uid[$p]:-}" ] || chown "${fx_uid[$p]}:${fx_uid[$p]}" "$FX_ROOT$p"
		done
	)
}

# 0. the Debian root, the overlay (init, configuration), the guest tests
#    and their helpers
t0=$(date +%s)
run tar --xattrs --numeric-owner -C "$tmp" -xf "$BUILD/rootfs.tar"
cp -a "$TOP/rootfs/overlay/." "$tmp/"
mkdir -p "$tmp/opt/ima-stack/tests" "$tmp/opt/ima-stack/bin" "$tmp/etc/ima" "$tmp/etc/keys"
cp -a "$TOP/tests/guest" "$TOP/tests/lib" "$tmp/opt/ima-stack/tests/"
rm -rf "$tmp/opt/ima-stack/tests/guest/bin"
# the guest's helper programs, tests/guest/bin/NAME.c -> /opt/ima-stack/bin/NAME
for c in "$TOP"/tests/guest/bin/*.c; do
	run gcc -static -O2 -Wall -Wextra -Werror -o "$tmp/opt/ima-stack/bin/$(basename "$c" .c)" "$c"
done
# the guest's test modules, tests/guest/kmod/NAME.c -> /opt/ima-stack/kmod/
# NAME.ko: built against this kernel (its tree and objects), stripped, with
# an appended signature by the kernel's module key (the IMA signature comes
# with the rest of the tree in 3b)
rm -rf "$tmp/opt/ima-stack/tests/guest/kmod"
kmb=$BUILD/$variant/kmod.build
rm -rf "$kmb" && mkdir -p "$kmb" "$tmp/opt/ima-stack/kmod"
cp "$TOP"/tests/guest/kmod/* "$kmb/"
run make -C "$kdir/src" O="$kdir/obj" M="$kmb" W=1 modules >"$LOGS/kmod-$variant.log" 2>&1 ||
	die "building the guest's test modules (tests/guest/kmod) failed: see $LOGS/kmod-$variant.log"
! grep -i 'warning' "$LOGS/kmod-$variant.log" >&2 ||
	die "the guest's test modules (tests/guest/kmod) build with warnings (above): fix them"
for ko in "$kmb"/*.ko; do
	strip --strip-debug -o "$tmp/opt/ima-stack/kmod/${ko##*/}" "$ko"
	run "$kdir/obj/scripts/sign-file" sha256 "$keys/module.pem" "$keys/module.pem" \
		"$tmp/opt/ima-stack/kmod/${ko##*/}"
done
rm -rf "$kmb"
echo "ima-stack-guest" >"$tmp/etc/hostname"

# 1. certificates: the kernel loads this one into .ima at boot
cp "$keys/ima.der" "$tmp/etc/keys/x509_ima.der"
mkdir -p "$tmp/opt/ima-stack/certs"
cp "$keys/ima.der" "$keys/rogue.der" "$tmp/opt/ima-stack/certs/"
# with IMA_APPRAISE_MODSIG the kernel also puts its module signing cert on .ima
openssl x509 -in "$keys/module.pem" -outform DER -out "$tmp/opt/ima-stack/certs/module.der"

# 2. policies
for p in "$TOP"/policies/*; do
	[ -f "$p" ] || continue
	case $p in *.rules) continue ;; esac
	cp "$p" "$tmp/etc/ima/$(basename "$p")"
done
# the policies the boots join from these files (tests/boots/*.boot: policy,
# policy-drop), as /etc/ima/BOOT-policy
for b in $(boot_names); do
	boot_read "$b"
	boot_policy_compose "$tmp"
done

# 2b. the user's own policy and files
if [ -n "$user_policy" ]; then
	cp "$user_policy" "$tmp/etc/ima/user-policy"
	chmod 0644 "$tmp/etc/ima/user-policy"
fi
if [ -n "$user_files" ]; then
	mkdir -p "$tmp/opt/user-files"
	cp -a "$user_files/." "$tmp/opt/user-files/"
	log "added $(find "$tmp/opt/user-files" -type f | wc -l) files of $user_files as /opt/user-files"
fi

# 2c. what standard test suites expect: the signed kernel at
#     /boot/vmlinuz-RELEASE, and the kernel tree's own kselftests for the
#     loader paths (firmware, kexec) in /opt/kselftests
release=$(cat "$kdir/out/release")
mkdir -p "$tmp/boot"
cp "$kdir/out/bzImage" "$tmp/boot/vmlinuz-$release"
ksb=$BUILD/$variant/kselftests.build
rm -rf "$ksb"
run make -s -C "$kdir/src/tools/testing/selftests" TARGETS="firmware kexec" O="$ksb" \
	INSTALL_PATH="$tmp/opt/kselftests" install >"$LOGS/kselftests-$variant.log" 2>&1 ||
	die "building the kernel's firmware and kexec selftests failed: see $LOGS/kselftests-$variant.log"
rm -rf "$ksb"

# 3. the installed module tree (modprobe under MODULE_CHECK appraisal)
mkdir -p "$tmp/usr/lib/modules"
cp -a "$kdir/out/modules/lib/modules/$release" "$tmp/usr/lib/modules/"

# 3b. every regular file so far, signed: evmctl -r over disjoint subtrees,
#     one per core (one evmctl process signs a whole subtree)
find "$tmp" -mindepth 1 -maxdepth 1 -type f -print0 |
	xargs -0 -r -n1 evmctl ima_sign --hashalgo sha256 --key "$keys/ima.key" >/dev/null 2>&1 ||
	die "evmctl ima_sign failed on a top-level file of the guest tree"
{ find "$tmp" -mindepth 1 -maxdepth 1 -type d ! -name usr; find "$tmp/usr" -mindepth 1 -maxdepth 1 -type d
	find "$tmp/usr" -mindepth 1 -maxdepth 1 -type f; } |
	xargs -r -P"$(nproc)" -n1 evmctl ima_sign -r --hashalgo sha256 --key "$keys/ima.key" >/dev/null 2>&1 ||
	die "evmctl ima_sign -r failed in the guest tree: check the IMA key in $keys"
nfiles=$(find "$tmp" -type f | wc -l)
unsigned=$(find "$tmp" -type f -print0 | xargs -0 getfattr --absolute-names -n security.ima 2>&1 >/dev/null |
	grep -c 'No such attribute') || true
[ "$unsigned" = 0 ] || die "$unsigned of $nfiles files in the guest tree were left unsigned"
log "signed all $nfiles files of the guest tree in $(($(date +%s) - t0)) s"

# 4. every suite's fixtures; bench-loader's 64 MiB only in the bench image
for frag in "$TOP"/tests/guest/*.fixtures; do
	name=$(basename "$frag" .fixtures)
	[ "$name" != bench-loader ] || [ -n "$IMAGE_TAG" ] || continue
	fixtures "$name" "$frag"
done

# 5. before anything is imaged: every signed fixture verifies against the
#    IMA certificate, every tampered or rogue one does not
nv=0
while read -r _ path _ _ class; do
	case $class in
	signed)
		run evmctl ima_verify --key "$keys/ima.der" "$tmp$path" >/dev/null 2>&1 ||
			die "evmctl ima_verify failed on $path right after signing: check the IMA key in $keys"
		;;
	tampered | rogue)
		! evmctl ima_verify --key "$keys/ima.der" "$tmp$path" >/dev/null 2>&1 ||
			die "the $class fixture $path verified: the signing step is broken"
		;;
	*) continue ;;
	esac
	nv=$((nv + 1))
done < <(cat "$tmp"/opt/ima-stack/fixtures/*.manifest | grep '^file ')
for p in ima-policy ${user_policy:+user-policy}; do
	run evmctl ima_verify --key "$keys/ima.der" "$tmp/etc/ima/$p" >/dev/null 2>&1 ||
		die "evmctl ima_verify failed on /etc/ima/$p right after signing: check the IMA key in $keys"
done

# 6. the tree's Keylime runtime policy, beside it: what the fixture
#    manifests say of each suite's files, said of every root-owned file
policy_sum=$(python3 "$TOP/scripts/keylime-policy.py" "$tmp" "$out.keylime.json" \
	--keyring .ima="$keys/ima.der" --keyring .ima="$tmp/opt/ima-stack/certs/module.der" \
	--verification-key "$keys/ima.der") ||
	die "writing the tree's Keylime policy $out.keylime.json failed"
log "Keylime runtime policy: $out.keylime.json ($policy_sum)"

rm -rf "$out" && mv "$tmp" "$out"
echo "$key" >"$out.stamp"
log "guest tree ready: $nfiles files signed, $nv fixture signatures checked with evmctl (key $key)"
