#!/usr/bin/env bash
# make lint (and the host/lint suite of make check): the static checks of
# the whole tree. Prints TAP.
#   - shellcheck at severity warning on every shell script (a file whose
#     first line runs sh or bash, or whose first lines say "# shellcheck
#     shell="), following what each sources (-x, paths from the script's
#     directory); a warning that is not one carries a directive with the
#     reason beside it;
#   - every C file compiled, syntax and warnings only, by gcc and clang (the
#     tools build with both) with WARN = -Wall -Wextra -Werror and the rest
#     of its build's flags (a tool's BASE_CFLAGS; cmocka tests also
#     -Wno-unused-parameter, as their builds); and each tool's Makefile
#     still sets that WARN.
# Inputs: the files git tracks (every file under the tree without git).
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib/tap.sh"
command -v shellcheck >/dev/null || tap_bail "shellcheck not found (package shellcheck): run \`make deps\`"
WARN="-Wall -Wextra -Werror"

cd "$TOP" || die "cannot enter $TOP"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	mapfile -t files < <(git ls-files)
else
	mapfile -t files < <(find . -path ./build -prune -o -type f -print | sed 's,^\./,,')
fi

# --- shell
sh=()
for f in "${files[@]}"; do
	[ -f "$f" ] || continue
	if head -n 1 "$f" | grep -qE '^#!.*[/ ](ba)?sh([[:space:]]|$)' ||
		head -n 3 "$f" | grep -q '^# shellcheck shell='; then
		sh+=("$f")
	fi
done
if out=$(shellcheck -x -P SCRIPTDIR -S warning -f gcc "${sh[@]}" 2>&1); then
	tap_ok "shellcheck -S warning: ${#sh[@]} shell scripts, no warning"
else
	tap_fail "shellcheck -S warning: ${#sh[@]} shell scripts, no warning" "$out"
fi

# --- C: each file with the flags of its own build. A tool's files (its
# BASE_CFLAGS, read from its Makefile, less the dependency-file options),
# compiled in its directory after a build of the tool, which makes the
# headers it generates; the guest's kcall.c as sign.sh builds it.
# tool_cflags DIR: DIR's BASE_CFLAGS
tool_cflags() {
	make -s --no-print-directory -C "$1" -f Makefile -f - lint-print-cflags <<<'lint-print-cflags: ; @echo $(BASE_CFLAGS)' |
		tr ' ' '\n' | grep -v '^-M' | sed '/^$/d'
}
ccs=()
for cc in gcc clang; do command -v "$cc" >/dev/null && ccs+=("$cc"); done
[ ${#ccs[@]} -gt 0 ] || tap_bail "neither gcc nor clang found: run \`make deps\`"
c=() bad=()
for f in "${files[@]}"; do
	case $f in
	# kernel modules: sign.sh builds them against each kernel with W=1
	# and refuses a warning
	tests/guest/kmod/*) ;;
	*.c) [ -f "$f" ] && c+=("$f") ;;
	esac
done
declare -A cflags
for f in "${c[@]}"; do
	dir=. fl=()
	case $f in
	tools/*/*)
		dir=${f#tools/} dir=tools/${dir%%/*}
		if [ -z "${cflags[$dir]:-}" ]; then
			make -s -C "$dir" >/dev/null 2>&1 || bad+=("make -C $dir failed")
			cflags[$dir]=$(tool_cflags "$dir")
		fi
		mapfile -t fl <<<"${cflags[$dir]}"
		;;
	esac
	# cmocka tests, as their builds: a test takes a state it may not use
	case $f in */tests/test_*.c) fl+=(-Wno-unused-parameter -DDATA_DIR='"tests/data"') ;; esac
	for cc in "${ccs[@]}"; do
		# shellcheck disable=SC2086 # WARN is a list of flags
		if ! o=$(cd "$dir" && "$cc" -fsyntax-only $WARN "${fl[@]}" "${f#"$dir"/}" 2>&1); then
			bad+=("$cc $f: $(head -n 3 <<<"$o")")
		fi
	done
done
if [ ${#bad[@]} = 0 ]; then
	tap_ok "C: ${#c[@]} files compile with $WARN (${ccs[*]})"
else
	tap_fail "C: ${#c[@]} files compile with $WARN (${ccs[*]})" "${bad[@]}"
fi
mk=()
for m in tools/*/Makefile; do
	grep -qE "^WARN[[:space:]]*:?=[[:space:]]*${WARN}[[:space:]]*\$" "$m" || mk+=("$m")
done
tap_is "every tool's Makefile builds with WARN := $WARN" "${mk[*]:-}" ""
tap_done
