#!/usr/bin/env bash
# make measurements: a dated row in docs/measurements.md for each run of
# `make check` (or check-pristine; either on any tree) whose records are in build/,
# from what that run wrote down itself (check.sh's meta and times files),
# never typed. A run whose row is already in the file is not added again.
# Usage:   measurements.sh [--write] [CHECK_DIR...]
#          (default: every build/<variant>/check-<run>/ with a meta and a
#          times file; without --write the rows are printed;
#          MEASUREMENTS_DOC overrides the file, for tests)
# Row:     date, commit, run and kernel variant, result, wall time, the
#          kernel build, the sign stage, the host suites (summed), the guest
#          boots (how many, summed; a boot's host checks run in its slot and
#          are not in it) and the longest boot.
. "$(dirname "$0")/lib.sh"

write=0
if [ "${1:-}" = --write ]; then
	write=1
	shift
fi
doc=${MEASUREMENTS_DOC:-$TOP/docs/measurements.md}
dirs=("$@")
if [ ${#dirs[@]} = 0 ]; then
	for d in "$BUILD"/*/check-*/; do
		[ -f "$d/meta" ] && [ -f "$d/times" ] && dirs+=("${d%/}")
	done
fi
[ ${#dirs[@]} -gt 0 ] || die "no run with meta and times files in $BUILD: run \`make check\` first"

# row DIR: the table row of the run DIR
row() {
	local d=$1 date commit total result wall run variant
	date=$(sed -n 's/^date //p' "$d/meta")
	commit=$(sed -n 's/^commit \([^ ]*\).*/\1/p' "$d/meta")
	total=$(sed -n 's/^total //p' "$d/meta")
	[ -n "$date" ] && [ -n "$commit" ] && [ -n "$total" ] || die "$d/meta lacks date, commit or total: not written by scripts/check.sh"
	result=${total% in *} wall=${total##* in }
	result=${result%,}
	run=$(basename "$d") variant=$(basename "$(dirname "$d")")
	awk -v date="$date" -v commit="$commit" -v run="${run#check-} ($variant)" -v result="$result" -v wall="$wall" '
		function t(s) { sub(/s$/, "", s); return s + 0 }
		function fmt(s) { return s >= 60 ? sprintf("%d min %02d s", s / 60, s % 60) : sprintf("%d s", s) }
		$1 == "kernel-build" { kb = fmt(t($2)) }
		$1 == "sign" { sg = fmt(t($2)) }
		$1 ~ /^host\// { host += t($2); nh++ }
		$1 ~ /^boot-/ || $1 == "attest/poll" {
			b += t($2); nb++
			if (t($2) > longest) { longest = t($2); lname = $1; sub(/^boot-/, "", lname) }
		}
		END {
			printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", date, commit, run, result,
				wall, kb == "" ? "-" : kb, sg == "" ? "-" : sg,
				nh ? fmt(host) " (" nh ")" : "-", nb ? fmt(b) " (" nb ")" : "-",
				nb ? lname " " fmt(longest) : "-"
		}' "$d/times"
}
rows=$(for d in "${dirs[@]}"; do row "$d"; done)
if [ "$write" = 0 ]; then
	printf '%s\n' "$rows"
	exit 0
fi

begin='<!-- runs:begin -->' end='<!-- runs:end -->'
grep -qxF -- "$begin" "$doc" && grep -qxF -- "$end" "$doc" || die "$doc lacks the marker lines '$begin' and '$end'"
header='| date | commit | run (kernel) | result | wall | kernel build | sign | host suites (n) | boots (n) | longest boot |'
# the rows already there, then the new ones: a run is its date, commit and
# run name, and a run already in the file keeps its row as it is
old=$(awk -v b="$begin" -v e="$end" '$0 == b {f = 1; next} $0 == e {f = 0} f && /^\| [0-9]/' "$doc")
new=()
while IFS= read -r r; do
	key=$(cut -d'|' -f2-4 <<<"$r")
	cut -d'|' -f2-4 <<<"$old" | grep -qxF -- "$key" || new+=("$r")
done <<<"$rows"
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
{
	echo "$header"
	echo '|---|---|---|---|---|---|---|---|---|---|'
	{ [ -z "$old" ] || printf '%s\n' "$old"; [ ${#new[@]} = 0 ] || printf '%s\n' "${new[@]}"; } | LC_ALL=C sort
} >"$tmp"
splice "$doc" "$begin" "$end" "$tmp"
log "${#new[@]} new row(s) in $doc"
