#!/usr/bin/env bash
# make interdiff: how each patch of a tree's series differs from the 6.1
# patch it ports. A series other than 6.1's names three kinds of patch:
#   ../NNNN-*.patch   6.1's own file, applied unchanged (nothing to show)
#   a port            its notes after "---" hold the line
#                     "Port of the 6.1 series' NNNN-NAME.patch", naming the
#                     6.1 patch it ports
#   its own           neither (a change 6.1 does not need): listed
# For a port, the two patches are compared as changes, not as text: each is
# reduced to its files and hunks, line numbers and index lines dropped (a
# hunk moved by 124 lines is the same hunk), then `diff -u` of the two
# (like git range-diff): "-" lines are 6.1's, "+" lines the port's.
# Usage:   interdiff.sh [PATCH...]   (default: every port of every tree
#          KTREE names, default every tree but 6.1)
# Exit:    0; 1 when a port names a 6.1 patch that does not exist.
. "$(dirname "$0")/lib.sh"

# changes PATCH: the patch reduced to what it changes
changes() {
	awk '
		/^diff --git / { body = 1; print; next }
		!body { next }
		/^index / { next }
		/^-- *$/ { exit }
		/^@@ / { sub(/^@@ [^@]* @@/, "@@"); print; next }
		{ print }' "$1"
}

# ported_from PATCH: the 6.1 patch PATCH names as the one it ports
ported_from() {
	sed -n "s/^ *Port of the 6\.1 series' \([0-9][0-9]*-[^ :]*\.patch\).*/\1/p" "$1" | head -n 1
}

# show PATCH: the port against its 6.1 patch
show() {
	local p=$1 from
	from=$(ported_from "$p")
	if [ -z "$from" ]; then
		printf '=== %s: not a port (no "Port of the 6.1 series'"'"' ..." line): a change of this tree only\n\n' "${p#"$TOP"/}"
		return 0
	fi
	if [ ! -f "$TOP/kernel-patches/$from" ]; then
		printf '=== %s: ports %s, which kernel-patches/ does not have\n\n' "${p#"$TOP"/}" "$from"
		return 1
	fi
	printf '=== %s\n    ports kernel-patches/%s\n' "${p#"$TOP"/}" "$from"
	# the reviewer's note: what the port says differs
	sed -n "/^ *Port of the 6\.1 series'/,/^ *\$/p" "$p" | sed 's/^ */    /'
	if diff -u --label "6.1: $from" --label "$(kernel_tree_of "$p"): $(basename "$p")" \
		<(changes "$TOP/kernel-patches/$from") <(changes "$p"); then
		echo "    (the same changes, hunk for hunk)"
	fi
	echo
}

# kernel_tree_of PATCH: the tree whose directory holds PATCH
kernel_tree_of() {
	basename "$(dirname "$1")"
}

rc=0
if [ $# -gt 0 ]; then
	for p in "$@"; do show "$(realpath "$p")" || rc=1; done
	exit "$rc"
fi
read -ra trees <<<"${KTREE:-$(kernel_trees | grep -vx 6.1 | paste -sd' ')}"
for t in "${trees[@]}"; do
	tree_check "$t"
	[ "$t" != 6.1 ] || continue
	series=$(tree_patches "$t")/series
	echo "##### the $t series ($series)"
	while read -r p; do
		case $p in
		../*) printf '=== %s: 6.1'"'"'s own patch, applied unchanged\n\n' "$(basename "$p")" ;;
		*) show "$(tree_patches "$t")/$p" || rc=1 ;;
		esac
	done < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$series")
done
exit "$rc"
