#!/usr/bin/env bash
# Stage kernel-source: a pristine linux-source-6.1 tree with
# kernel-patches/series applied in order.
# Inputs:  /usr/src/linux-source-6.1.tar.xz (package linux-source-6.1;
#          LINUX_TARBALL overrides), kernel-patches/series and its patches
#          (KSERIES overrides), KVARIANT (patched|pristine).
# Outputs: $CACHE/kernel/<variant>/src (linked from build/kernel-<variant>),
#          src.patches (the patches applied, one a line), a stamp holding
#          the content hash of the inputs.
#
# The tree lives in the cache, at a fixed path, so that a fresh clone reuses
# it and its objects. Files whose content changes are touched so that make
# rebuilds exactly them; unchanged files keep their mtimes.
. "$(dirname "$0")/lib.sh"
need rsync rsync
need patch patch

variant=${KVARIANT:-patched}
tarball=${LINUX_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
[ -f "$tarball" ] || die "$tarball not found (package linux-source-6.1): run \`make deps\`"

pristine=$CACHE/kernel/pristine-tree
case $variant in
upstream-*) pristine=$CACHE/kernel/pristine-tree-${variant#upstream-} ;;
esac
kdir=$CACHE/kernel/$variant
series=${KSERIES:-$TOP/kernel-patches/series}
pdir=$(dirname "$series")
mkdir -p "$kdir"
ln -sfn "$kdir" "$BUILD/kernel-$variant"

# 1. the pristine tree, extracted once per tarball
# (content, not size and mtime: a rebuilt package may keep both)
tarhash=$(sha256sum <"$tarball" | cut -c1-16)
if ! stamp_ok "$tarhash" "$pristine.stamp" || [ ! -f "$pristine/Makefile" ]; then
	log "extracting $tarball (about a minute)"
	rm -rf "$pristine" "$pristine.tmp" && mkdir -p "$pristine.tmp"
	run tar -xJf "$tarball" -C "$pristine.tmp" --strip-components=1
	mv "$pristine.tmp" "$pristine"
	echo "$tarhash" >"$pristine.stamp"
fi

# 2. the list of patches for this variant
patches=()
if [ "$variant" != pristine ] && [ "${variant#upstream-}" = "$variant" ] && [ -f "$series" ]; then
	while read -r p; do
		[ -n "$p" ] || continue
		[ -f "$pdir/$p" ] ||
			die "series names $p but $pdir/$p does not exist: fix $series"
		patches+=("$pdir/$p")
	done < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$series")
fi
case $variant in
patched | pristine | series-check | upstream-?*) ;;
*) die "KVARIANT=$variant: use patched, pristine or upstream-VER" ;;
esac

key=$( (echo "$tarhash"; for p in "${patches[@]}"; do sha256sum <"$p"; done) | sha256sum | cut -c1-16)
if stamp_ok "$key" "$kdir/src.stamp" && [ -f "$kdir/src/Makefile" ] && [ -f "$kdir/src.patches" ]; then
	log "tree up to date ($variant, ${#patches[@]} patches, key $key)"
	exit 0
fi

# 3. sync from pristine; touch what changed so make sees it
log "syncing $variant tree from pristine"
mkdir -p "$kdir/src"
rm -f "$kdir/src.stamp"
rsync -a --delete --out-format='%n' "$pristine/" "$kdir/src/" |
	{ grep -v '/$' || true; } | (cd "$kdir/src" && xargs -r -d '\n' touch -c --)

# 4. apply the series in order
n=0
for p in "${patches[@]}"; do
	n=$((n + 1))
	if ! out=$(cd "$kdir/src" && patch -p1 --forward --batch -s <"$p" 2>&1); then
		printf '%s\n' "$out" | tail -n 20 >&2
		die "patch $(basename "$p") (#$n in series) does not apply to pristine linux-source-6.1: refresh it against the tree"
	fi
	[ "$V" = 1 ] && log "applied $(basename "$p")"
done
# patch(1) leaves .orig/.rej files only on fuzz or failure; keep the tree clean
find "$kdir/src" -name '*.orig' -delete
# which patches the tree has: kernel-build.sh merges their config fragments
for p in "${patches[@]}"; do basename "$p"; done >"$kdir/src.patches"
echo "$key" >"$kdir/src.stamp"
log "tree ready: $variant, ${#patches[@]} patches applied (key $key)"
