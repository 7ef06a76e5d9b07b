#!/usr/bin/env bash
# make demo: boot the guest once, run the guest suite, and print the report
# (scripts/report.sh): the whole report always, and a non-zero exit when a
# check in it failed.
# Inputs: the image and kernel (make builds them first).
# Outputs: build/<variant>/results/demo/, the report on stdout.
. "$(dirname "$0")/lib.sh"

variant=${KVARIANT:-patched}
nonce=$(openssl rand -hex 20)
# the main boot of make check (tests/guest/boots)
row=$(boot_row main)
# IMA_STACK_POLICY: the user's own policy (sign.sh installed it) is the one
# loaded by path instead of ours; our suites then show what it enforces
extra=${row#*|}${IMA_STACK_POLICY:+ ima_stack.policy=/etc/ima/user-policy}
IMA_STACK_TESTS=${row%%|*} KCMDLINE_EXTRA=$extra IMA_STACK_NONCE=$nonce \
	"$TOP/scripts/boot.sh" check demo
exec "$TOP/scripts/report.sh" "$BUILD/$variant/results/demo" "$nonce"
