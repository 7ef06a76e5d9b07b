#!/usr/bin/env bash
# Host test: the kernel build's ccache settings (kernel_ccache_env in
# scripts/lib.sh) never hand back an object whose .incbin input changed.
# certs/system_certificates.S embeds the trusted keys that way and
# arch/x86/boot/compressed/piggy.S the kernel itself: a stale hit there is a
# kernel that trusts the old CA, or a bzImage around the old kernel. An
# assembler file that .incbins a blob stands in for them; ccache's depend
# mode (which reads a compile's inputs from the compiler's dependency file,
# where .incbin never appears) returns the first blob's object for the
# second. Nothing here touches this machine's kernel.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/host/lib/host.sh"
for c in ccache gcc objcopy; do
	command -v "$c" >/dev/null || tap_bail "$c not installed: run \`make deps\`"
done

printf '.section .rodata\n.incbin "blob"\n' >"$tmp/t.S"
# incbin_twice CONF: compile t.S with the kernel build's ccache settings
# (a fresh cache; CONF: the text of ccache.conf), once with the blob
# "first" and once with it "second", the way kbuild calls the compiler
# (-Wp,-MMD); prints what the second object's .rodata holds
incbin_twice() {
	rm -rf "$tmp/cache" "$tmp/t.o"
	(
		export IMA_STACK_CACHE=$tmp/cache BUILD=$tmp/build
		. "$TOP/scripts/lib.sh"
		trap - ERR
		kernel_ccache_env
		mkdir -p "$CCACHE_DIR"
		printf '%s\n' "$1" >"$CCACHE_DIR/ccache.conf"
		cd "$tmp"
		for v in first second; do
			printf '%s' "$v" >blob
			ccache gcc -Wp,-MMD,t.d -c t.S -o t.o
		done
		objcopy -O binary -j .rodata t.o rodata.bin
		cat rodata.bin
	)
}

tap_is "kernel ccache settings: an .incbin input that changed is compiled again" \
	"$(incbin_twice '')" second
tap_is "... also when a ccache.conf turns depend mode on" \
	"$(incbin_twice 'depend_mode = true')" second
# the stand-in is sound: ccache's depend mode, not forced off, returns the
# object of the first blob for the second
stale() {
	cd "$tmp" && rm -rf c2 t2.o
	for v in first second; do
		printf '%s' "$v" >blob
		CCACHE_DIR=$tmp/c2 CCACHE_DEPEND=1 ccache gcc -Wp,-MMD,t.d -c t.S -o t2.o
	done
	objcopy -O binary -j .rodata t2.o r2.bin && cat r2.bin
}
tap_is "control: depend mode, not forced off, hands back the stale object" "$(stale)" first
tap_done
