# ima-stack: signed IMA policies, patched Debian kernels (6.1 and 6.12), a
# swtpm-backed QEMU guest and an auditor of IMA measurement lists.
#
#   make            build everything that is missing (kernel, keys, image)
#   make demo       build, boot the guest, print a readable report
#   make attest     poll a running guest (also the attest/poll suite of make check)
#   make check      host tests + guest suite + host audit; "N passed, M failed"
#   make lint       shellcheck on every script, the C warning flags (in make check)
#   make shell      the same guest with a root shell on the console
#   make check-pristine  the same guest tests on kernels without the series
#   make redgreen   rewrite each series' red/green table from those two runs
#   make interdiff  how each 6.12 port differs from the 6.1 patch it ports
#   make measurements  a dated row per run of make check in docs/measurements.md
#   make bench-kernel / bench-appraise   figures: loader vs sha256sum; appraise-all cost
#   make clean      drop build/ (caches stay); make distclean drops caches too
# V=1 prints the commands. Stages are scripts/*.sh; each re-runs only when
# its inputs change.
# KTREE picks the Debian kernel source (linux-source-VER): 6.1 or 6.12.
# check, check-pristine and redgreen take every tree unless KTREE names
# some (KTREE=6.12, KTREE="6.1 6.12"); the other targets take one, 6.1
# unless KTREE says otherwise (make demo KTREE=6.12).
export KTREE

SHELL := /bin/bash
export V ?= 0
S := scripts

.PHONY: all deps keys kernel-source kernel rootfs sign image demo attest check \
	lint shell check-pristine redgreen interdiff measurements series-check bench-kernel \
	bench-appraise clean distclean

all: image

deps:
	@$(S)/deps.sh

keys: deps
	@$(S)/keys.sh

kernel-source: deps
	@$(S)/kernel-source.sh

kernel: keys kernel-source
	@$(S)/kernel-build.sh

rootfs: deps
	@$(S)/rootfs.sh

sign: kernel rootfs
	@$(S)/sign.sh

image: sign
	@$(S)/image.sh

demo: image
	@$(S)/demo.sh

# a verifier polling a running guest (enrollment, rounds, attack rounds)
attest: image
	@$(S)/attest-poll.sh

# check runs the build stages itself (timed, rootfs beside the kernel)
check: deps
	@$(S)/check.sh

# shellcheck at severity warning on every shell script, every C file with
# the builds' warning flags; TAP (make check runs it as host/lint)
lint: deps
	@$(S)/lint.sh

shell: image
	@KCMDLINE_EXTRA="$${IMA_STACK_POLICY:+ima_stack.policy=/etc/ima/user-policy}" $(S)/boot.sh shell

# The guest suite on the same config without the series, on each tree:
# the tests for the series' fixes must fail there. Not part of `make check`.
check-pristine: deps
	@CHECK_KERNEL=pristine CHECK_RUN=pristine CHECK_SUITES=guest $(S)/check.sh

# each tree's red/green table in README.md and its cover letter, from its
# last `make check` and `make check-pristine` (rows: kernel-patches/evidence,
# kernel-patches/VER/evidence)
redgreen:
	@$(S)/redgreen.sh --write

# each port in a tree's series beside the 6.1 patch it ports (what changed)
interdiff:
	@$(S)/interdiff.sh

# a dated row in docs/measurements.md for each run of make check in build/
# (its own meta and times files), never typed
measurements:
	@$(S)/measurements.sh --write

# checkpatch --strict on every patch, and a build after every prefix of
# KTREE's series (default 6.1); for developers (slow: one kernel build per
# patch, with ccache)
series-check: keys kernel-source
	@$(S)/series-check.sh

# IMA appraisal through the loader vs sha256sum in the guest; figures, not a
# test. Its own image (the check image plus a 64 MiB signed blob).
bench-kernel: kernel rootfs
	@IMA_STACK_IMAGE_TAG=-bench $(S)/sign.sh
	@IMA_STACK_IMAGE_TAG=-bench $(S)/image.sh
	@IMA_STACK_IMAGE_TAG=-bench $(S)/bench-kernel.sh

# what appraising every file costs: boot-to-results under the measure-only
# policy and under appraise-all (alternating boots), and the sign stage's
# time; figures, not a test
bench-appraise: image
	@$(S)/bench-appraise.sh

clean:
	rm -rf build

distclean: clean
	rm -rf "$$(bash $(S)/paths.sh cache)"
