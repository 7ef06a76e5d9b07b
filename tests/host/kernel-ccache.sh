#!/usr/bin/env bash
# Host test: the kernel build's compiler (scripts/kernel-cc with the
# settings of kernel_ccache_env, scripts/lib.sh) never hands back an object
# whose .incbin input changed, and still runs ccache in depend mode for
# everything else. certs/system_certificates.S embeds the trusted keys by
# .incbin and arch/x86/boot/compressed/piggy.S the kernel itself: a stale
# hit there is a kernel that trusts the old CA, or a bzImage around the old
# kernel. Files that .incbin a blob stand in for them; depend mode (which
# reads a compile's inputs from the compiler's dependency file, where
# .incbin never appears) returns the first blob's object for the second
# unless kernel-cc keeps the file away from ccache. kernel_incbin_check,
# which makes sure every .incbin in a tree is where kernel-cc looks, is
# run on forged trees. Nothing here touches this machine's kernel.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/host/lib/host.sh"
need_installed ccache gcc objcopy
kcc=$TOP/scripts/kernel-cc

printf '.section .rodata\n.incbin "blob"\n' >"$tmp/t.S"
# the way kernel/configs.c does it: a C file's top-level asm
printf 'asm(".section .rodata\\n.incbin \\"blob\\"\\n.previous");\n' >"$tmp/t.c"
# twice SRC CMD...: in a fresh cache with the kernel build's ccache
# settings, compile SRC with CMD the way kbuild does (-Wp,-MMD), once with
# the blob "first", once with it "second"; print the second object's .rodata
twice() {
	local src=$1
	shift
	rm -rf "$tmp/cache" "$tmp/t.o"
	(
		export IMA_STACK_CACHE=$tmp/cache BUILD=$tmp/build
		. "$TOP/scripts/lib.sh"
		trap - ERR
		kernel_ccache_env
		cd "$tmp"
		for v in first second; do
			printf '%s' "$v" >blob
			"$@" gcc -Wp,-MMD,t.d -c "$src" -o t.o
		done
		objcopy -O binary -j .rodata t.o rodata.bin
		cat rodata.bin
	)
}

tap_is "kernel-cc: an assembler file's .incbin input that changed is compiled again" \
	"$(twice t.S "$kcc")" second
tap_is "kernel-cc: ... and a C file's asm(\".incbin\") input" \
	"$(twice t.c "$kcc")" second
printf '.section .rodata\n.INCBIN "blob"\n' >"$tmp/u.S"
tap_is "kernel-cc: ... and one spelt .INCBIN (gas takes directives in any case)" \
	"$(twice u.S "$kcc")" second
# the stand-in is sound, and kernel-cc's test of the source is what saves
# it: the same settings with plain ccache return the first blob's object
tap_is "control: the same ccache settings without kernel-cc hand back the stale object" \
	"$(twice t.S ccache)" first

# depend mode is on for a file without .incbin, whatever ccache.conf and
# the caller's environment say: a miss runs no preprocessor (ccache's
# preprocessed_cache_miss stays 0) and the second compile is a hit
printf 'int f(void) { return 1; }\n' >"$tmp/a.c"
depend_stats() {
	rm -rf "$tmp/cache"
	(
		export IMA_STACK_CACHE=$tmp/cache BUILD=$tmp/build
		export CCACHE_NODEPEND=1 CCACHE_NODIRECT=1 CCACHE_NOCPP2=1
		. "$TOP/scripts/lib.sh"
		trap - ERR
		kernel_ccache_env
		mkdir -p "$CCACHE_DIR"
		printf 'depend_mode = false\ndirect_mode = false\nrun_second_cpp = false\n' \
			>"$CCACHE_DIR/ccache.conf"
		cd "$tmp"
		for _ in 1 2; do
			"$kcc" gcc -Wp,-MMD,a.d -c a.c -o a.o
		done
		ccache --print-stats | awk '
			$1 == "cache_miss" { m = $2 }
			$1 == "direct_cache_hit" { h = $2 }
			$1 == "preprocessed_cache_miss" { p = $2 }
			END { printf "miss=%s hit=%s preprocessor-misses=%s\n", m, h, p }'
	)
}
tap_is "kernel-cc: depend mode despite ccache.conf and CCACHE_NO*: one miss without the preprocessor, then a hit" \
	"$(depend_stats)" "miss=1 hit=1 preprocessor-misses=0"
# the objects are gcc's own: a kbuild-like layout (absolute source path
# under CCACHE_BASEDIR, -fmacro-prefix-map stripping the tree) compiled by
# gcc alone, then through kernel-cc twice (a miss, then a hit)
mkdir -p "$tmp/kernel/src" "$tmp/kernel/obj"
printf 'const char *where = __FILE__;\n' >"$tmp/kernel/src/where.c"
same_as_gcc() {
	rm -rf "$tmp/cache"
	(
		export IMA_STACK_CACHE=$tmp/cache BUILD=$tmp/build
		. "$TOP/scripts/lib.sh"
		trap - ERR
		kernel_ccache_env
		export CCACHE_BASEDIR=$tmp/kernel
		cd "$tmp/kernel/obj"
		set -- -Wp,-MMD,.w.d "-fmacro-prefix-map=$tmp/kernel/src/=" -c "$tmp/kernel/src/where.c"
		gcc "$@" -o gcc.o
		for o in miss hit; do
			"$kcc" gcc "$@" -o "$o.o"
			if cmp -s gcc.o "$o.o"; then echo "$o same"; else echo "$o differs: $(strings -a "$o.o" | grep where)"; fi
		done | paste -sd' '
	)
}
tap_is "kernel-cc: an object is byte for byte gcc's, on a miss and on a hit (__FILE__ is \"where.c\")" \
	"$(same_as_gcc)" "miss same hit same"
tap_is "kernel-cc: other calls pass through (-dumpversion)" \
	"$("$kcc" gcc -dumpversion)" "$(gcc -dumpversion)"

# kernel_incbin_check on forged trees: the files it knows, then one more
# in a header (which kernel-cc would never see), in arch/x86, and in
# another architecture (not built here, not searched)
incbin_check() {
	(
		. "$TOP/scripts/lib.sh"
		trap - ERR
		kernel_incbin_check "$1"
	)
}
tree=$tmp/tree
for f in certs/system_certificates.S kernel/configs.c arch/x86/boot/compressed/mkpiggy.c \
	arch/x86/purgatory/kexec-purgatory.S scripts/Makefile.lib; do
	mkdir -p "$tree/$(dirname "$f")" && echo '.incbin "x"' >"$tree/$f"
done
mkdir -p "$tree/include/linux" "$tree/Documentation"
echo 'nothing here' >"$tree/include/linux/plain.h"
echo '.incbin in prose' >"$tree/Documentation/x.rst"
tap_is "kernel_incbin_check: a tree whose .incbin users are the known ones passes" \
	"$(incbin_check "$tree")" ""
echo 'asm(".incbin \"blob\"");' >"$tree/include/linux/blob.h"
mkdir -p "$tree/arch/x86/include/asm" "$tree/arch/arm/kernel"
echo '.incbin "y"' >"$tree/arch/x86/include/asm/y.h"
echo '.incbin "z"' >"$tree/arch/arm/kernel/z.S"
echo 'asm(".INCBIN \"u\"");' >"$tree/include/linux/upper.h"
tap_is "kernel_incbin_check: names an unknown .incbin (or .INCBIN) in a header and in arch/x86, not in arch/arm" \
	"$(incbin_check "$tree" | paste -sd' ')" "arch/x86/include/asm/y.h include/linux/blob.h include/linux/upper.h"
# the trees the build compiles (make check extracts them before the host
# suites run; alone, this test may find none)
# (and every other Debian tree the cache holds: pristine-tree-6.12, ...)
kc=$(bash "$TOP/scripts/paths.sh" cache)/kernel
others=()
for d in "$kc"/pristine-tree-*; do
	[ -f "$d/Makefile" ] && others+=("$(basename "$d")")
done
for v in pristine-tree patched "${others[@]}"; do
	d=$kc/$v
	[ "$v" = patched ] && d=$d/src
	if [ -f "$d/Makefile" ]; then
		tap_is "kernel_incbin_check: the cache's $v tree passes" "$(incbin_check "$d")" ""
	else
		tap_skip "kernel_incbin_check: the cache's $v tree passes" "no $v tree in the cache yet (make kernel-source)"
	fi
done
if out=$(incbin_check "$tmp/no-such-tree" 2>&1); then
	tap_fail "kernel_incbin_check: a tree it cannot read is a failure" "it succeeded: $out"
else
	tap_ok "kernel_incbin_check: a tree it cannot read is a failure"
fi
tap_done
