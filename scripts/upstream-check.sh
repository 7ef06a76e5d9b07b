#!/usr/bin/env bash
# make check-6.12: does linux-source-6.12 have the bug patch 0003 fixes?
# One unpatched build of another Debian kernel source on our config, then
# the guest boots of UPSTREAM_BOOTS on it. Not part of `make check`.
# Inputs:  UPSTREAM_VERSION (default 6.12; the tarball is
#          /usr/src/linux-source-$UPSTREAM_VERSION.tar.xz, package
#          linux-source-$UPSTREAM_VERSION), UPSTREAM_BOOTS (boot names or
#          rows as CHECK_BOOTS takes them; default read-cache), the keys
#          and rootfs.
# Outputs: the variant upstream-$UPSTREAM_VERSION: $CACHE/kernel/upstream-VER
#          (its own pristine tree, objects, out/), build/upstream-VER/
#          (signed tree and image: its own modules, signed by its build
#          with our module key; its own bzImage as the kexec fixture) and
#          build/upstream-VER/check-upstream/ (the TAP, check.sh's summary).
# The kernel build takes the shared kernel lock (/tmp/ima-stack-kernel.lock).
# The 6.1 variants' directories are never touched.
. "$(dirname "$0")/lib.sh"
need flock util-linux

ver=${UPSTREAM_VERSION:-6.12}
case $ver in *[!0-9.]* | "") die "UPSTREAM_VERSION=$ver: give a version such as 6.12" ;; esac
tarball=/usr/src/linux-source-$ver.tar.xz
[ -f "$tarball" ] || die "$tarball not found: apt-get install linux-source-$ver"
boots=${UPSTREAM_BOOTS:-read-cache}
export KVARIANT=upstream-$ver LINUX_TARBALL=$tarball

"$TOP/scripts/keys.sh"
"$TOP/scripts/rootfs.sh"
"$TOP/scripts/kernel-source.sh"
log "waiting for the kernel lock, then building $KVARIANT"
t0=$(date +%s)
flock /tmp/ima-stack-kernel.lock "$TOP/scripts/kernel-build.sh"
log "kernel stage: $(($(date +%s) - t0)) s (lock wait included)"
"$TOP/scripts/sign.sh"
"$TOP/scripts/image.sh"
CHECK_RUN=upstream CHECK_SUITES=guest CHECK_BUILD=0 CHECK_BOOTS=$boots \
	"$TOP/scripts/check.sh"
