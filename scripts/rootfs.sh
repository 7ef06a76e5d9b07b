#!/usr/bin/env bash
# Stage rootfs: a Debian bookworm guest made with debootstrap (minbase).
# Inputs:  rootfs/packages.txt, the host's apt sources (archive URI).
# Outputs: $CACHE/rootfs/bookworm-<hash>.tar (keyed by the package list),
#          linked as build/rootfs.tar.
. "$(dirname "$0")/lib.sh"
need debootstrap debootstrap

suite=bookworm
list=$TOP/rootfs/packages.txt
pkgs=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$list" | paste -sd, -)
key=$( (echo "$suite $pkgs"; sha256sum <"$0") | sha256sum | cut -c1-16)
tarball=$CACHE/rootfs/$suite-$key.tar
mkdir -p "$CACHE/rootfs"
if [ -s "$tarball" ]; then
	ln -sfn "$tarball" "$BUILD/rootfs.tar"
	log "rootfs up to date ($tarball)"
	exit 0
fi

# The archive URI comes from the host's own apt configuration, as apt itself
# resolves it (deb822 and one-line sources alike).
mirror=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(COMPONENT) $(TARGET_OF)' 2>/dev/null |
	awk -v s="$suite" '$2 == s && $3 == "main" && $4 == "deb" {print $1; exit}' || true)
[ -n "$mirror" ] || die "no Debian $suite archive in the host's apt sources: add one to /etc/apt/sources.list"

tmp=$CACHE/rootfs/tmp.$$
rm -rf "$tmp" && mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
log "debootstrap $suite minbase from the host's archive (about a minute; log: $LOGS/rootfs.log)"
[ "$V" = 1 ] && log "+ debootstrap --variant=minbase --include=$pkgs $suite $tmp/root $mirror"
debootstrap --variant=minbase --include="$pkgs" "$suite" "$tmp/root" "$mirror" \
	>"$LOGS/rootfs.log" 2>&1 ||
	die "debootstrap failed: see $LOGS/rootfs.log (tail: $(tail -n 2 "$LOGS/rootfs.log" | tr '\n' ' '))"
# trim what a test guest never needs
rm -rf "$tmp"/root/var/cache/apt/archives/*.deb "$tmp"/root/var/lib/apt/lists/* \
	"$tmp"/root/usr/share/doc/* "$tmp"/root/usr/share/man/* "$tmp"/root/usr/share/locale/*
tar --xattrs --numeric-owner -C "$tmp/root" -cf "$tarball.tmp" .
mv "$tarball.tmp" "$tarball"
ln -sfn "$tarball" "$BUILD/rootfs.tar"
log "rootfs ready: $tarball ($(du -h "$tarball" | cut -f1))"
