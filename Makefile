# ima-stack: signed IMA policies, a patched 6.1 kernel, a swtpm-backed QEMU
# guest and an auditor of IMA measurement lists.
#
#   make            build everything that is missing (kernel, keys, image)
#   make demo       build, boot the guest, print a readable report
#   make attest     poll a running guest (also the attest/poll suite of make check)
#   make check      host tests + guest suite + host audit; "N passed, M failed"
#   make lint       shellcheck on every script, the C warning flags (in make check)
#   make shell      the same guest with a root shell on the console
#   make check-pristine  the same guest tests on a kernel without the series
#   make check-6.12  the read-cache boot on unpatched linux-source-6.12 (patch 0003)
#   make redgreen   rewrite the series' red/green table from those two runs
#   make measurements  a dated row per run of make check in docs/measurements.md
#   make bench-kernel / bench-appraise   figures: loader vs sha256sum; appraise-all cost
#   make clean      drop build/ (caches stay); make distclean drops caches too
# V=1 prints the commands. Stages are scripts/*.sh; each re-runs only when
# its inputs change.

SHELL := /bin/bash
export V ?= 0
S := scripts

.PHONY: all deps keys kernel-source kernel rootfs sign image demo attest check \
	lint shell check-pristine check-6.12 redgreen measurements series-check bench-kernel \
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

# The guest suite on the same config without kernel-patches/series: the
# tests for the series' fixes must fail there. Not part of `make check`.
check-pristine: deps keys rootfs
	@KVARIANT=pristine $(S)/kernel-source.sh
	@KVARIANT=pristine $(S)/kernel-build.sh
	@KVARIANT=pristine $(S)/sign.sh
	@KVARIANT=pristine $(S)/image.sh
	@KVARIANT=pristine CHECK_RUN=pristine CHECK_SUITES=guest CHECK_BUILD=0 $(S)/check.sh

# The read-cache boot on an unpatched linux-source-6.12 with our config:
# does 6.12 have the bug patch 0003 fixes? Not part of `make check`.
check-6.12: deps
	@$(S)/deps.sh linux-source-6.12
	@UPSTREAM_VERSION=6.12 $(S)/upstream-check.sh

# the series' red/green table in README.md and the cover letter, from the
# last `make check` and `make check-pristine` (rows: kernel-patches/evidence)
redgreen:
	@$(S)/redgreen.sh --write

# a dated row in docs/measurements.md for each run of make check in build/
# (its own meta and times files), never typed
measurements:
	@$(S)/measurements.sh --write

# checkpatch --strict on every patch, and a build after every prefix of the
# series; for developers (slow: one kernel build per patch, with ccache)
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
