#!/usr/bin/env bash
# make demo: boot the guest once, run the guest suite, and print the report
# (scripts/report.sh): the whole report always, and a non-zero exit when a
# check in it failed.
# Inputs: the image and kernel (make builds them first).
# Outputs: build/<variant>/results/demo/, the report on stdout.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/boots.sh"

variant=$(stage_variant)
nonce=$(openssl rand -hex 20)
# the main boot of make check (tests/boots/main.boot), with a fresh nonce
boot_read main
[ "$B_NONCE" = yes ] || die "tests/boots/main.boot: the demo's boot must say 'nonce = yes' (its report ends with the quote's verdict)"
# IMA_STACK_POLICY: the user's own policy (sign.sh installed it) is the one
# loaded by path instead of ours; our suites then show what it enforces
extra=$(boot_kcmdline)
extra+=${IMA_STACK_POLICY:+${extra:+ }ima_stack.policy=/etc/ima/user-policy}
IMA_STACK_TESTS=$B_SUITES KCMDLINE_EXTRA=$extra IMA_STACK_NONCE=$nonce \
	"$TOP/scripts/boot.sh" check demo
exec "$TOP/scripts/report.sh" "$(results_dir "$(variant_dir "$variant")" demo)" "$nonce"
