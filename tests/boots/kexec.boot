# The kexec hand-over (issue 12): stage 1 loads the next kernel, runs 60
# programs and kexecs; stage 2 (the second kernel) checks the list it got,
# then 90-attest quotes over it with the AK the host enrolled in stage 1
# (made persistent by the agent). crashkernel= makes room for
# 98-kexec-2's kexec -p. tests/host/boot/kexec.sh checks the two kernels'
# list on the host, and forged copies of it.
suites = 98-kexec-1-*,98-kexec-2-*,90-*
cmdline = crashkernel=64M
nonce = yes
host-checks = tests/host/boot/kexec.sh
