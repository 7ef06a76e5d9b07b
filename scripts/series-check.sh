#!/usr/bin/env bash
# Developer check of a tree's series (not part of make check): every patch
# passes checkpatch.pl --strict, and the tree builds after each prefix of
# the series (patch 1, 1-2, 1-2-3, ...), with the project's config, and
# without a warning (each prefix's log: build/logs/series-check[-VER]-prefix-K.log).
# Inputs:  KTREE (one tree, default 6.1), its series (kernel-patches/series,
#          kernel-patches/VER/series), the cached pristine tree and keys.
# Outputs: TAP on stdout; builds in $CACHE/kernel/series-check (6.1) or
#          series-check-VER.
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib/tap.sh"

ktree=${KTREE:-6.1}
[[ $ktree != *[[:space:]]* ]] || die "KTREE='$ktree': series-check checks one tree's series"
tree_check "$ktree"
variant=$(variant_of series-check "$ktree")
series=$(tree_patches "$ktree")/series
pdir=$(dirname "$series")
mapfile -t patches < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$series")
tree=$CACHE/kernel/pristine-tree
[ "$ktree" = 6.1 ] || tree=$CACHE/kernel/pristine-tree-$ktree
[ -f "$tree/scripts/checkpatch.pl" ] || tap_bail "no kernel tree in the cache: run \`make kernel-source\`"

for p in "${patches[@]}"; do
	out=$(cd "$tree" && perl scripts/checkpatch.pl --strict --no-tree \
		"$pdir/$p" 2>&1 | grep -E '^(ERROR|WARNING|CHECK)|^total:' || true)
	errors=$(sed -n 's/^total: \([0-9]*\) errors.*/\1/p' <<<"$out")
	# warnings that cannot go away here are explained after each patch's ---
	if [ "$errors" = 0 ]; then
		tap_ok "checkpatch --strict: $p ($(grep -c '^WARNING\|^CHECK' <<<"$out" || true) notes)"
	else
		tap_fail "checkpatch --strict: $p" "$out"
	fi
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# prefix: the tree with the patches in $tmp/series, configured with their
# fragments, built. IMA_STACK_KERNEL_LOCK=FILE: each prefix's build holds
# flock FILE, so other kernel builds on the machine interleave with it
[ -z "${IMA_STACK_KERNEL_LOCK:-}" ] || exec 9>"$IMA_STACK_KERNEL_LOCK"
# every prefix really builds and writes its own log (no stamp, no log left
# from before); the first starts from no objects, so its log covers the
# whole tree and each later one what its patch made recompile
sc=$CACHE/kernel/$variant
blog=$LOGS/kernel-$variant-build.log
rm -rf "$sc/obj"
prefix() {
	local rc=0
	rm -f "$sc/out/stamp" "$blog"
	[ -z "${IMA_STACK_KERNEL_LOCK:-}" ] || flock 9
	KVARIANT=$variant KSERIES="$tmp/series" "$TOP/scripts/kernel-source.sh" &&
		KVARIANT=$variant IMA_STACK_KERNEL_LOCK='' "$TOP/scripts/kernel-build.sh" || rc=$?
	[ -z "${IMA_STACK_KERNEL_LOCK:-}" ] || flock -u 9
	return "$rc"
}
# the series' patches side by side in $tmp (a 6.12 series names some of
# 6.1's as ../NNNN-*.patch)
names=()
for p in "${patches[@]}"; do
	[ -f "$pdir/$p" ] || tap_bail "$series names $p, which does not exist"
	cp "$pdir/$p" "$tmp/"
	names+=("$(basename "$p")")
done
for k in $(seq 1 ${#patches[@]}); do
	printf '%s\n' "${names[@]:0:k}" >"$tmp/series"
	t0=$(date +%s)
	if prefix >&2; then
		tap_ok "builds with patches 1-$k (${patches[k - 1]}; $(($(date +%s) - t0)) s)"
		# ccache replays a hit's warnings; each prefix's log is kept
		what="patches 1-$k build without a compiler or modpost warning"
		if [ ! -f "$blog" ]; then
			tap_fail "$what" "the build wrote no log ($blog)"
		else
			cp "$blog" "$LOGS/$variant-prefix-$k.log"
			warn=$(grep -i 'warning' "$blog" || true)
			if [ -z "$warn" ]; then
				tap_ok "$what"
			else
				tap_fail "$what" "$(head -n 20 <<<"$warn"; echo "full log: $LOGS/$variant-prefix-$k.log")"
			fi
		fi
	else
		tap_fail "builds with patches 1-$k (${patches[k - 1]})" "see $LOGS/kernel-$variant-*.log"
		tap_skip "patches 1-$k build without a compiler or modpost warning" "the build failed"
	fi
	log "prefix $k of ${#patches[@]} done ($(elapsed))"
done
tap_done
