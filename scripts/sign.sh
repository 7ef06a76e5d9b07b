#!/usr/bin/env bash
# Stage sign: everything the guest's loader paths read, signed with the IMA
# key (security.ima, evmctl v2 signatures) or, for modsig, with an appended
# PKCS#7 signature; plus unsigned, tampered and rogue-signed copies for the
# negative tests.
# Inputs:  build/keys (keys.sh), the kernel out/ and obj/ (kernel-build.sh),
#          policies/.
# Outputs: build/signed/, a tree laid out as in the guest, and its stamp.
#          Rebuilt from scratch when an input changes; safe to run twice.
. "$(dirname "$0")/lib.sh"
need evmctl ima-evm-utils
need setfattr attr

variant=${KVARIANT:-patched}
kdir=$CACHE/kernel/$variant
keys=$BUILD/keys/private
out=$BUILD/$variant/signed
[ -f "$kdir/out/stamp" ] || die "no $variant kernel: run \`make kernel\` first"
[ -f "$keys/ima.key" ] || die "no keys: run \`make keys\` first"

key=$( (cat "$kdir/out/stamp"; sha256sum <"$keys/ima.pem"; sha256sum <"$keys/rogue.der"
	content_hash "$TOP/policies"; sha256sum <"$0") | sha256sum | cut -c1-16)
if stamp_ok "$key" "$out.stamp" && [ -d "$out" ]; then
	log "signed tree up to date (key $key)"
	exit 0
fi
rm -f "$out.stamp"
tmp=$out.tmp
rm -rf "$tmp"
mkdir -p "$tmp"/{etc/ima,etc/keys,usr/lib/firmware/ima-stack,opt/ima-stack/modules,opt/ima-stack/kexec}

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
# blob FILE SIZE SEED: deterministic pseudo-random bytes
blob() {
	head -c "$2" < <(openssl enc -aes-256-ctr -nosalt -pass "pass:$3" -pbkdf2 \
		</dev/zero 2>/dev/null || true) >"$1"
}
# variants DIR NAME EXT: NAME.EXT signed; -unsigned, -tampered, -rogue copies
variants() {
	local d=$1 n=$2 e=$3
	cp "$d/$n$e" "$d/$n-unsigned$e"
	cp "$d/$n$e" "$d/$n-tampered$e"
	cp "$d/$n$e" "$d/$n-rogue$e"
	ima_sign "$d/$n$e"
	ima_sign "$d/$n-tampered$e"
	tamper "$d/$n-tampered$e"
	ima_sign "$d/$n-rogue$e" "$keys/rogue.key"
}

# 1. certificates: the kernel loads this one into .ima at boot
cp "$keys/ima.der" "$tmp/etc/keys/x509_ima.der"
mkdir -p "$tmp/opt/ima-stack/certs"
cp "$keys/ima.der" "$keys/rogue.der" "$tmp/opt/ima-stack/certs/"
# with IMA_APPRAISE_MODSIG the kernel also puts its module signing cert on .ima
openssl x509 -in "$keys/module.pem" -outform DER -out "$tmp/opt/ima-stack/certs/module.der"

# 2. policies
for p in "$TOP"/policies/*; do
	[ -f "$p" ] || continue
	cp "$p" "$tmp/etc/ima/$(basename "$p")"
done
variants "$tmp/etc/ima" ima-policy ""
for p in "$tmp"/etc/ima/*; do
	case $p in *-unsigned | *-tampered | *-rogue | */ima-policy) continue ;; esac
	ima_sign "$p"
done

# 2b. policy files for the parser tests (tests/guest/8*-policy-parser*.sh),
#     all signed: appraisal comes before parsing, and only parsing is tested
pt=$tmp/etc/ima/tests
mkdir -p "$pt"
rule='measure func=FIRMWARE_CHECK'
printf '%s' "$rule" >"$pt/no-newline"                       # 27 bytes
{ head -c 4068 /dev/zero | tr '\0' '#'; printf '\n%s' "$rule"; } >"$pt/page-no-newline"  # 4096
printf '%s\n\0\n' "$rule" >"$pt/nul-byte"
: >"$pt/empty"
{ printf '%s\n' "$rule"; head -c 2000000 < <(yes '# padding' || true); } >"$pt/huge"          # > 1 MiB
{ head -c 4095 /dev/zero | tr '\0' '#'; printf '\n%s\n' "$rule"; } >"$pt/long-line"  # 4095 + NL
{ head -c 4094 /dev/zero | tr '\0' '#'; printf '\n%s\n' "$rule"; } >"$pt/longest-line" # 4094 + NL
printf '%s\nbogus rule\n' "$rule" >"$pt/bad-rule"
printf '%s\r\n' "$rule" >"$pt/crlf"
# larger than a page, for the ahash path (ima.ahash_minsize=4096)
{ for _ in $(seq 120); do echo "# filler line so that this policy exceeds one page"; done
	echo "$rule"; } >"$pt/two-pages"
[ "$(stat -c %s "$pt/no-newline")" = 27 ] && [ "$(stat -c %s "$pt/page-no-newline")" = 4096 ] ||
	die "policy edge-case files have the wrong sizes: fix scripts/sign.sh"
for f in "$pt"/*; do ima_sign "$f"; done

# 3. firmware for test_firmware (read from /usr/lib/firmware)
fw=$tmp/usr/lib/firmware/ima-stack
# 1 KiB: the size test_firmware can load into a buffer and read back
blob "$fw/fw.bin" 1024 firmware
variants "$fw" fw .bin
blob "$fw/fw-300k.bin" 307200 firmware-300k
ima_sign "$fw/fw-300k.bin"
# 64 MiB for the loader benchmark (make bench-kernel)
blob "$fw/fw-64m.bin" $((64 << 20)) firmware-64m
ima_sign "$fw/fw-64m.bin"

# 3b. files for the loader contract tests (tests/guest/70-kernel-read-file.sh):
#     a fresh signed and unsigned file for every kernel_read_file_id, since
#     IMA measures a file once per boot
krf=$tmp/opt/ima-stack/krf
mkdir -p "$krf"
for id in FIRMWARE MODULE KEXEC_IMAGE KEXEC_INITRAMFS POLICY X509_CERTIFICATE UNKNOWN; do
	for kind in signed unsigned partial-signed partial-unsigned; do
		blob "$krf/$kind-$id.bin" 8192 "krf-$kind-$id"
	done
	ima_sign "$krf/signed-$id.bin"
	ima_sign "$krf/partial-signed-$id.bin"
done

# 4. modules: the installed tree is IMA-signed so that modprobe works under
#    MODULE_CHECK appraisal; test_module comes in four flavours
release=$(cat "$kdir/out/release")
mkdir -p "$tmp/usr/lib/modules"
cp -a "$kdir/out/modules/lib/modules/$release" "$tmp/usr/lib/modules/"
find "$tmp/usr/lib/modules" -name '*.ko' | while read -r m; do ima_sign "$m"; done
mods=$tmp/opt/ima-stack/modules
src_ko=$kdir/obj/lib/test_module.ko
[ -f "$src_ko" ] || die "$src_ko missing: is CONFIG_TEST_LKM=m in kernel-patches/config/test.config?"
strip --strip-debug -o "$mods/test_module-unsigned.ko" "$src_ko"
# appended signature by the IMA key (verified against .ima under modsig)
cp "$mods/test_module-unsigned.ko" "$mods/test_module-modsig.ko"
run "$kdir/obj/scripts/sign-file" sha256 "$keys/ima.key" "$keys/ima.der" "$mods/test_module-modsig.ko"
# security.ima signature on the plain module
cp "$mods/test_module-unsigned.ko" "$mods/test_module-imasig.ko"
ima_sign "$mods/test_module-imasig.ko"
cp "$mods/test_module-imasig.ko" "$mods/test_module-tampered.ko"
ima_sign "$mods/test_module-tampered.ko"
tamper "$mods/test_module-tampered.ko"

# 5. kexec: our own bzImage (relocatable) and a small initramfs
kx=$tmp/opt/ima-stack/kexec
cp "$kdir/out/bzImage" "$kx/bzImage"
(cd "$TOP/rootfs" && echo packages.txt | cpio -o -H newc --quiet) >"$kx/initrd.cpio"
for f in bzImage initrd.cpio; do
	cp "$kx/$f" "$kx/$f.unsigned"
	ima_sign "$kx/$f"
done

# 6. check one signature of each kind before anything is imaged
for f in etc/ima/ima-policy usr/lib/firmware/ima-stack/fw.bin opt/ima-stack/kexec/bzImage \
	opt/ima-stack/modules/test_module-imasig.ko; do
	run evmctl ima_verify --key "$keys/ima.der" "$tmp/$f" >/dev/null 2>&1 ||
		die "evmctl ima_verify failed on $f right after signing: check the IMA key in $keys"
done
if evmctl ima_verify --key "$keys/ima.der" "$tmp/etc/ima/ima-policy-tampered" >/dev/null 2>&1; then
	die "a tampered file verified: the signing step is broken"
fi

rm -rf "$out" && mv "$tmp" "$out"
echo "$key" >"$out.stamp"
n=$( (getfattr -R --absolute-names -n security.ima "$out" 2>/dev/null || true) | grep -c '^# file' || true)
log "signed $n files (key $key)"
