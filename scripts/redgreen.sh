#!/usr/bin/env bash
# make redgreen: the series' red/green table, from runs, never typed. For each
# row of kernel-patches/evidence, the counts of its suites in the last
# `make check` (patched) and `make check-pristine` runs, and for a suite that
# failed the first checks that failed, as the run printed them. When a run
# of the previous version of the series exists (REDGREEN_PREVIOUS, default
# build/series-check/check-previous: the old kernel-patches/ in the
# series-check variant, the boots that matter), a column between the two
# shows it: a fix that existed before must show its new tests red there.
# Usage:   redgreen.sh [--write] [PATCHED_DIR PRISTINE_DIR]
#          One table per tree (KTREE: one or more, default every tree; the
#          directories given: one): its runs (defaults: build/patched[-VER]/
#          check-check, build/pristine[-VER]/check-pristine), its rows
#          (kernel-patches[/VER]/evidence); --write: replace the table
#          between the tree's redgreen markers of README.md
#          (<!-- redgreen:begin --> for 6.1, <!-- redgreen-VER:begin -->)
#          and of its cover letter (kernel-patches[/VER]/0000-cover-letter.patch);
#          REDGREEN_README, REDGREEN_COVER and REDGREEN_EVIDENCE override
#          the files, for tests)
# Inputs:  each run's summary, meta and TAP files (scripts/check.sh), the
#          guest results next to them (build/<variant>/results/<run>-<boot>).
# Exit:    0; 1 when a row names a suite the patched run does not have (a
#          renamed or dropped suite must not vanish from the table), or a
#          run's summary is missing.
. "$(dirname "$0")/lib.sh"

write=0
if [ "${1:-}" = --write ]; then
	write=1
	shift
fi
# several trees: one table each, in turn
read -ra rg_trees <<<"${KTREE:-$(kernel_trees | paste -sd' ')}"
if [ ${#rg_trees[@]} -gt 1 ] && [ $# = 0 ]; then
	args=()
	[ "$write" = 0 ] || args=(--write)
	for t in "${rg_trees[@]}"; do
		KTREE=$t "$0" "${args[@]}" || exit
	done
	exit 0
fi
ktree=${rg_trees[0]:-6.1}
tree_check "$ktree"
pdir=${1:-$(check_dir "$(variant_dir "$(variant_of patched "$ktree")")" check)}
odir=${2:-$(check_dir "$(variant_dir "$(variant_of pristine "$ktree")")" pristine)}
evidence=${REDGREEN_EVIDENCE:-$(tree_patches "$ktree")/evidence}
for d in "$pdir" "$odir"; do
	[ -f "$d/summary" ] || die "no summary in $d: run \`make check\` and \`make check-pristine\` first"
done
# the previous series' run: REDGREEN_PREVIOUS, or by default (when the two
# runs are the default ones too) build/series-check/check-previous if it ran;
# that run is of the 6.1 series, so the 6.1 table only
vdir=${REDGREEN_PREVIOUS:-}
if [ -n "$vdir" ]; then
	[ -f "$vdir/summary" ] || die "no summary in REDGREEN_PREVIOUS=$vdir"
elif [ -z "${1:-}" ] && [ "$ktree" = 6.1 ] && [ -f "$BUILD/series-check/check-previous/summary" ]; then
	vdir=$BUILD/series-check/check-previous
fi

# meta DIR KEY: a line of the run's meta file (check.sh writes it)
meta() { sed -n "s/^$2 //p" "$1/meta" 2>/dev/null | head -n 1; }
# run_of DIR: the run's name, from DIR = check_dir VDIR RUN
run_of() { basename "$1" | sed 's/^check-//'; }

# tapfile DIR NAME: where the run kept suite NAME's TAP
tapfile() {
	local dir=$1 name=$2 run boot
	run=$(run_of "$dir")
	case $name in
	guest/*/*)
		boot=${name#guest/}
		boot=${boot%%/*}
		echo "$(results_dir "$(dirname "$dir")" "$run" "$boot")/tap/${name##*/}.tap"
		;;
	*) echo "$dir/${name//\//-}.tap" ;;
	esac
}

# clip N: each line cut to at most N characters at a word boundary, "..."
# marking a cut
clip() {
	awk -v n="$1" '{
		if (length($0) <= n) { print; next }
		s = substr($0, 1, n); sub(/[ ,;:]+[^ ]*$/, "", s); print s "..."
	}'
}

# firstfail TAPFILE: the descriptions of the first two failed checks
firstfail() {
	[ -f "$1" ] || return 0
	grep -E '^not ok [0-9]*' "$1" | grep -vE '# (TODO|todo)' | head -n 2 |
		sed -E 's/^not ok [0-9]* *-? *//; s/\|/\//g' | clip 90 | paste -sd';' | sed 's/;/; /g'
}

# cell DIR GLOBS: the counts of the suites matching GLOBS in run DIR, summed,
# with the first failures; "boot failed: why" for a boot that did not finish;
# "not run" when nothing matches. Sets $cell_out, and $matched to the number
# of suites that matched.
cell() {
	local dir=$1 globs=$2 g name p f s t P=0 F=0 S=0 T=0 n=0 fails='' ff boot bf=''
	matched=0
	while read -r name p f s t; do
		for g in $globs; do
			# shellcheck disable=SC2053
			if [[ $name == $g ]]; then
				n=$((n + 1)) P=$((P + p)) F=$((F + f)) S=$((S + s)) T=$((T + t))
				if [ "$f" != 0 ]; then
					ff=$(firstfail "$(tapfile "$dir" "$name")")
					[ -z "$ff" ] || fails+="${fails:+; }$ff"
				fi
				break
			fi
		done
	done < <(sed -nE 's/^# ([^ ]+) +([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped, ([0-9]+) todo$/\1 \2 \3 \4 \5/p' "$dir/summary")
	# a boot that did not finish has one line, guest/boot-NAME
	for g in $globs; do
		case $g in
		guest/*/*)
			boot=${g#guest/}
			boot=${boot%%/*}
			if grep -q "^# guest/boot-$boot " "$dir/summary" && [ -f "$dir/boot-$boot.tap" ]; then
				bf+="${bf:+; }boot \`$boot\` failed: $(sed -n 's/^not ok 1 - [^:]*: //p' "$dir/boot-$boot.tap" | head -n 1 |
					sed -E 's/ \(console tail above[^)]*\)//; s/\|/\//g' | clip 120)"
			fi
			;;
		esac
	done
	matched=$n
	if [ "$n" = 0 ]; then
		cell_out=${bf:-not run}
		return 0
	fi
	local out="$P passed"
	[ "$F" = 0 ] || out+=", $F failed"
	[ "$S" = 0 ] || out+=", $S skipped"
	[ "$T" = 0 ] || out+=", $T TODO"
	[ "$n" = 1 ] || out+=" ($n suites)"
	[ -z "$fails" ] || out+=": $fails"
	[ -z "$bf" ] || out+="; $bf"
	cell_out=$out
}

describe() {
	local d=$1
	local c t w
	c=$(meta "$d" commit)
	t=$(meta "$d" total)
	w=$(meta "$d" date)
	echo "${w:-date not recorded}, commit ${c:-not recorded}: ${t:-totals not recorded}"
}

table() {
	local patches globs what p o v bad=0
	echo "Generated by \`make redgreen\` from the last runs, not typed:"
	echo "- with the series, \`make check\`: $(describe "$pdir")"
	if [ -n "$vdir" ]; then
		echo "- with the previous version of the series (the same tests; $(meta "$vdir" kernel); only the boots its run names): $(describe "$vdir")"
	fi
	echo "- without it, \`make check-pristine\` (same config, image and boots): $(describe "$odir")"
	echo
	if [ -n "$vdir" ]; then
		echo "| patches | what the suites check | suites | with the series | with the previous series | without |"
		echo "|---|---|---|---|---|---|"
	else
		echo "| patches | what the suites check | suites | with the series | without |"
		echo "|---|---|---|---|---|"
	fi
	while IFS='|' read -r patches globs what; do
		cell "$pdir" "$globs"
		p=$cell_out
		if [ "$matched" = 0 ]; then
			echo "redgreen: no suite of the patched run matches '$globs' (kernel-patches/evidence): renamed or dropped?" >&2
			bad=1
		fi
		v=
		if [ -n "$vdir" ]; then
			cell "$vdir" "$globs"
			v=" $cell_out |"
		fi
		cell "$odir" "$globs"
		o=$cell_out
		echo "| $patches | $what | \`${globs// /\` \`}\` | $p |$v $o |"
	done < <(sed -e '/^#/d' -e '/^$/d' "$evidence")
	return "$bad"
}

rc=0
out=$(table) || rc=$?
if [ "$write" = 0 ]; then
	printf '%s\n' "$out"
	exit "$rc"
fi
[ "$rc" = 0 ] || die "not writing a table with missing suites (above)"

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
printf '%s\n' "$out" >"$tmp"
readme=${REDGREEN_README:-$TOP/README.md} cover=${REDGREEN_COVER:-$(tree_patches "$ktree")/0000-cover-letter.patch}
mark=redgreen
[ "$ktree" = 6.1 ] || mark=redgreen-$ktree
splice "$readme" "<!-- $mark:begin -->" "<!-- $mark:end -->" "$tmp"
log "table written into $readme"
splice "$cover" '[redgreen:begin]' '[redgreen:end]' "$tmp"
log "table written into $cover"
