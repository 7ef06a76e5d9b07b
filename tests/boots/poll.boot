# The polling verifier (make attest): scripts/attest-poll.sh boots the
# guest in polling mode, enrolls its TPM and runs its rounds and attack
# rounds, each a TAP line.
driver = attest/poll scripts/attest-poll.sh
