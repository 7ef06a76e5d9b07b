#!/usr/bin/env bash
# Stage image: the guest's ext4 root file system.
# Inputs:  build/rootfs.tar (rootfs.sh), rootfs/overlay/, tests/guest/,
#          tests/lib/, build/<variant>/signed (sign.sh).
# Outputs: build/<variant>/rootfs.img (mkfs.ext4 -d keeps security.ima
#          xattrs; no loop mount) and its stamp.
. "$(dirname "$0")/lib.sh"
need mkfs.ext4 e2fsprogs

variant=${KVARIANT:-patched}
vdir=$BUILD/$variant
img=$vdir/rootfs$IMAGE_TAG.img
[ -e "$BUILD/rootfs.tar" ] || die "no rootfs tarball: run \`make rootfs\` first"
[ -f "$vdir/signed$IMAGE_TAG.stamp" ] || die "no signed tree for $variant: run \`make sign\` first"

key=$( (readlink -f "$BUILD/rootfs.tar"; content_hash "$TOP/rootfs/overlay" \
	"$TOP/tests/guest" "$TOP/tests/lib"; cat "$vdir/signed$IMAGE_TAG.stamp"
	sha256sum <"$0") | sha256sum | cut -c1-16)
if stamp_ok "$key" "$img.stamp" && [ -f "$img" ]; then
	log "image up to date ($img)"
	exit 0
fi
rm -f "$img.stamp"
root=$vdir/image-root$IMAGE_TAG
rm -rf "$root" && mkdir -p "$root"
run tar --xattrs --numeric-owner -C "$root" -xf "$BUILD/rootfs.tar"

# overlay: init and configuration
cp -a "$TOP/rootfs/overlay/." "$root/"
# guest tests and their helpers
mkdir -p "$root/opt/ima-stack/tests" "$root/opt/ima-stack/bin"
cp -a "$TOP/tests/guest" "$TOP/tests/lib" "$root/opt/ima-stack/tests/"
rm -rf "$root/opt/ima-stack/tests/guest/bin"
run gcc -static -O2 -Wall -Wextra -Werror -o "$root/opt/ima-stack/bin/kcall" \
	"$TOP/tests/guest/bin/kcall.c"
# signed material, xattrs and all (cp -a keeps security.ima)
cp -a "$vdir/signed$IMAGE_TAG/." "$root/"
echo "ima-stack-guest" >"$root/etc/hostname"

size_mb=$(($(du -sm "$root" | cut -f1) * 5 / 4 + 96))
rm -f "$img.tmp"
run mkfs.ext4 -q -F -L ima-stack -I 256 -E root_owner=0:0 -d "$root" "$img.tmp" "${size_mb}M" \
	>"$LOGS/image-$variant.log" 2>&1 ||
	die "mkfs.ext4 -d failed: see $LOGS/image-$variant.log"
mv "$img.tmp" "$img"
rm -rf "$root"
echo "$key" >"$img.stamp"
log "image ready: $img (${size_mb} MiB)"
