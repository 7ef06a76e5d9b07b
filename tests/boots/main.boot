# The main boot: the loader's paths under the boot policy (firmware,
# modules, kexec, policy, keys, the policy as critical data, the loader
# driven through test_kernel_read_file, non-regular files), then the TPM
# quote over the list with the host's fresh nonce (90-attest). make demo
# boots this one. tests/host/boot/verdicts.sh forges copies of its
# results (10-firmware's fixtures, the quote), which the audit and the
# report must refuse.
suites = [0-6]*,70-*,72-*,90-*
nonce = yes
host-checks = tests/host/boot/verdicts.sh
