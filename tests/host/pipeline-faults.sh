#!/usr/bin/env bash
# Host tests of the pipeline's failure paths: each fault must end with a
# non-zero exit and one message naming the stage, the cause and the fix.
# Nothing here touches this machine's kernel. Needs the built kernel and
# image (make check builds them first) for the boot faults.
set -euo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/tests/host/lib/host.sh"
. "$TOP/scripts/paths.sh"

# fails NAME PATTERN CMD...: CMD exits non-zero and its stderr matches PATTERN
fails() {
	local name=$1 pat=$2 rc=0 out
	shift 2
	out=$("$@" 2>&1 >/dev/null) || rc=$?
	if [ "$rc" != 0 ] && grep -qE -- "$pat" <<<"$out"; then
		tap_ok "$name"
	else
		tap_fail "$name" "exit $rc, stderr:" "$out" "want a non-zero exit and /$pat/"
	fi
}

# --- a missing host command names its package and the fix
fails "missing command: names the package and 'make deps'" \
	'no-such-tool-x not found \(package pkg-x\): run `make deps`' \
	bash -c ". '$TOP/scripts/lib.sh'; need no-such-tool-x pkg-x"

# --- kernel-source: a patch that does not apply, a series naming a missing
#     file; on a tiny stand-in tarball and a scratch cache
mkdir -p "$tmp/src/linux-source-6.1" "$tmp/p"
printf 'VERSION = 6\n' >"$tmp/src/linux-source-6.1/Makefile"
printf 'hello\n' >"$tmp/src/linux-source-6.1/file.c"
tar -C "$tmp/src" -cJf "$tmp/linux.tar.xz" linux-source-6.1
# mkpatch NAME LINE: a patch of file.c that turns LINE into "hello again"
# (it applies to the stand-in tree only for LINE "hello")
mkpatch() {
	printf -- '--- a/file.c\n+++ b/file.c\n@@ -1 +1 @@\n-%s\n+hello again\n' "$2" >"$tmp/p/$1"
}
mkpatch 0001-bad.patch goodbye
kenv=(env IMA_STACK_CACHE="$tmp/cache" BUILD="$tmp/build" LINUX_TARBALL="$tmp/linux.tar.xz"
	KSERIES="$tmp/p/series")
printf '# fixes\n0001-bad.patch\n' >"$tmp/p/series"
fails "kernel-source: a patch that does not apply is named" \
	'kernel-source\] error: patch 0001-bad.patch \(#1 in series\) does not apply' \
	"${kenv[@]}" "$TOP/scripts/kernel-source.sh"
printf '0002-missing.patch\n' >"$tmp/p/series"
fails "kernel-source: a series entry without its file is named" \
	'series names 0002-missing.patch but .* does not exist' \
	"${kenv[@]}" "$TOP/scripts/kernel-source.sh"
# a series whose first patch applies and whose second does not: the tree is
# left half-patched, so it must not be marked ready, and the next run (with
# the series fixed) must start again from pristine, not patch twice
mkpatch 0001-good.patch hello
printf '0001-good.patch\n0001-bad.patch\n' >"$tmp/p/series"
fails "kernel-source: the second patch of a series failing is named" \
	'patch 0001-bad.patch \(#2 in series\) does not apply' "${kenv[@]}" "$TOP/scripts/kernel-source.sh"
tap_is "kernel-source: the half-patched tree is not marked ready" \
	"$(cat "$tmp/cache/kernel/patched/src.stamp" 2>/dev/null || echo none)" none
printf '0001-good.patch\n' >"$tmp/p/series"
if out=$("${kenv[@]}" "$TOP/scripts/kernel-source.sh" 2>&1); then
	tap_is "kernel-source: after the fix the tree is pristine + the series, applied once" \
		"$(cat "$tmp/cache/kernel/patched/src/file.c")" "hello again"
else
	tap_fail "kernel-source: after the fix the tree is pristine + the series, applied once" "$out"
fi

# --- kernel config: an option that cannot survive olddefconfig is named
if [ -f "$CACHE/kernel/patched/src.stamp" ]; then
	cp -r "$TOP/kernel-patches/config" "$tmp/frags"
	printf '# an option 6.1 does not have\nCONFIG_IMA_TRUSTED_KEYRING=y\n' >"$tmp/frags/zz-bad.config"
	fails "kernel config: a dropped option is named" \
		'dropped: CONFIG_IMA_TRUSTED_KEYRING=y .*|1 requested kconfig option' \
		env KCONFIG_FRAGMENTS="$tmp/frags" "$TOP/scripts/kernel-build.sh" --check-config
	if out=$("$TOP/scripts/kernel-build.sh" --check-config 2>&1); then
		tap_ok "kernel config: the project's own fragments all survive"
	else
		tap_fail "kernel config: the project's own fragments all survive" "$out"
	fi
else
	tap_skip "kernel config: a dropped option is named" "no kernel tree in the cache yet (run make kernel-source)"
	tap_skip "kernel config: the project's own fragments all survive" "no kernel tree in the cache yet"
fi

# --- boot faults, with the real kernel and image
if [ -f "$TOP/build/patched/rootfs.img" ]; then
	mkdir -p "$tmp/bin"
	# swtpm_setup probes and runs the real one; the daemon boot.sh starts
	# (the only call with --terminate) "fails to start"
	real=$(command -v swtpm)
	printf '#!/bin/sh\ncase "$*" in *--terminate*) ;; *) exec %s "$@" ;; esac\necho "swtpm: simulated failure" >&2\nexit 1\n' \
		"$real" >"$tmp/bin/swtpm"
	chmod +x "$tmp/bin/swtpm"
	fails "boot: swtpm failing to start is reported" \
		'boot\] error: swtpm exited at start' \
		env PATH="$tmp/bin:$PATH" "$TOP/scripts/boot.sh" check fault-swtpm
	fails "boot: a QEMU timeout is reported, not waited out" \
		'boot\] error: QEMU timed out after 2s' \
		env BOOT_TIMEOUT=2 "$TOP/scripts/boot.sh" check fault-timeout
	fails "boot: a guest kernel panic is reported with the console tail" \
		'boot\] error: the guest kernel oopsed or panicked' \
		env KCMDLINE_EXTRA="init=/no/such/init" BOOT_TIMEOUT=120 "$TOP/scripts/boot.sh" check fault-panic
else
	for n in "swtpm failing to start" "a QEMU timeout" "a guest kernel panic"; do
		tap_skip "boot: $n is reported" "no guest image yet (run make image)"
	done
fi

tap_done
