#!/usr/bin/env bash
# make lint (and the host/lint suite of make check): the static checks of
# the whole tree. Prints TAP.
#   - shellcheck at severity warning on every shell script (a file whose
#     first line runs sh or bash, or whose first lines say "# shellcheck
#     shell="), following what each sources (-x, paths from the script's
#     directory); a warning that is not one carries a directive with the
#     reason beside it;
#   - every C file compiled, syntax and warnings only, with the warning
#     flags of the builds, WARN = -Wall -Wextra -Werror, by gcc and clang
#     (the tools build with both); cmocka tests also with
#     -Wno-unused-parameter, as their builds (a test takes a state it may
#     not use); and each tool's Makefile still sets that WARN.
# Inputs: the files git tracks (every file under the tree without git).
. "$(dirname "$0")/lib.sh"
. "$TOP/tests/lib/tap.sh"
command -v shellcheck >/dev/null || tap_bail "shellcheck not found (package shellcheck): run \`make deps\`"
WARN="-Wall -Wextra -Werror"

cd "$TOP"
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

# --- C: the flags each file is built with
# cflags FILE: the include directories and options of FILE's build
cflags() {
	case $1 in
	tools/ima-audit/*) printf '%s\n' -std=c11 -D_GNU_SOURCE -Itools/ima-audit/include ;;
	tools/ima-attest/*) printf '%s\n' -std=gnu11 -D_GNU_SOURCE -Itools/ima-attest/include -Itools/ima-audit/include \
		-DDATA_DIR=\"tools/ima-attest/tests/data\" ;;
	*) echo -std=gnu11 ;;
	esac
	case $1 in */tests/test_*.c) echo -Wno-unused-parameter ;; esac
}
c=() bad=()
for f in "${files[@]}"; do
	case $f in *.c) [ -f "$f" ] && c+=("$f") ;; esac
done
ccs=()
for cc in gcc clang; do command -v "$cc" >/dev/null && ccs+=("$cc"); done
[ ${#ccs[@]} -gt 0 ] || tap_bail "neither gcc nor clang found: run \`make deps\`"
for f in "${c[@]}"; do
	mapfile -t fl < <(cflags "$f")
	for cc in "${ccs[@]}"; do
		# shellcheck disable=SC2086 # WARN is a list of flags
		if ! o=$("$cc" -fsyntax-only $WARN "${fl[@]}" "$f" 2>&1); then
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
