#!/usr/bin/env bash
# Stage image: the guest's ext4 root file system, from the signed tree.
# Inputs:  build/<variant>/signed (sign.sh: the whole guest tree, signed).
# Outputs: build/<variant>/rootfs.img (mkfs.ext4 -d keeps owners and the
#          security.ima xattrs; no loop mount) and its stamp.
. "$(dirname "$0")/lib.sh"
need mkfs.ext4 e2fsprogs

variant=$(stage_variant)
vdir=$BUILD/$variant
img=$vdir/rootfs$IMAGE_TAG.img
tree=$vdir/signed$IMAGE_TAG
[ -f "$tree.stamp" ] || die "no signed tree for $variant: run \`make sign\` first"

key=$( (cat "$tree.stamp"; sha256sum <"$0") | sha256sum | cut -c1-16)
if stamp_ok "$key" "$img.stamp" && [ -f "$img" ]; then
	log "image up to date ($img)"
	exit 0
fi
rm -f "$img.stamp"
size_mb=$(($(du -sm "$tree" | cut -f1) * 5 / 4 + 96))
rm -f "$img.tmp"
run mkfs.ext4 -q -F -L ima-stack -I 256 -E root_owner=0:0 -d "$tree" "$img.tmp" "${size_mb}M" \
	>"$LOGS/image-$variant.log" 2>&1 ||
	die "mkfs.ext4 -d failed: see $LOGS/image-$variant.log"
mv "$img.tmp" "$img"
echo "$key" >"$img.stamp"
log "image ready: $img (${size_mb} MiB)"
