#!/usr/bin/env bash
# Stage kernel-source: a pristine Debian kernel tree (linux-source-VER)
# with its series applied in order.
# Inputs:  KVARIANT or KTREE (lib.sh, stage_variant: patched, pristine or
#          series-check, on tree 6.1 or VER), the tree's tarball
#          /usr/src/linux-source-VER.tar.xz (package linux-source-VER;
#          LINUX_TARBALL overrides), the tree's series (kernel-patches/series
#          for 6.1, kernel-patches/VER/series for the others; KSERIES
#          overrides) and the patches it names, by paths relative to it.
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

variant=$(stage_variant)
ktree=$(kernel_tree "$variant")
tarball=${LINUX_TARBALL:-$(tree_tarball "$ktree")}
[ -f "$tarball" ] || die "$tarball not found (package linux-source-$ktree): run \`make deps\`"

# one pristine tree per Debian source; 6.1's keeps its old name
pristine=$CACHE/kernel/pristine-tree
[ "$ktree" = 6.1 ] || pristine=$CACHE/kernel/pristine-tree-$ktree
kdir=$CACHE/kernel/$variant
series=${KSERIES:-$(tree_patches "$ktree")/series}
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
if [ "$(variant_base "$variant")" != pristine ]; then
	[ -f "$series" ] || die "no series file $series for the $ktree tree"
	while read -r p; do
		[ -n "$p" ] || continue
		[ -f "$pdir/$p" ] ||
			die "series names $p but $pdir/$p does not exist: fix $series"
		patches+=("$pdir/$p")
	done < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$series")
fi

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
		die "patch $(basename "$p") (#$n in series) does not apply to pristine linux-source-$ktree: refresh it against the tree"
	fi
	[ "$V" = 1 ] && log "applied $(basename "$p")"
done
# patch(1) leaves .orig/.rej files only on fuzz or failure; keep the tree clean
find "$kdir/src" -name '*.orig' -delete
# which patches the tree has: kernel-build.sh merges their config fragments
for p in "${patches[@]}"; do basename "$p"; done >"$kdir/src.patches"
echo "$key" >"$kdir/src.stamp"
log "tree ready: $variant, ${#patches[@]} patches applied (key $key)"
