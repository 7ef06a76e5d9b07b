# The hand-over that does not fit (issue 12, kernel-patches 0014): stage 1
# loads the next kernel, then reads enough new tmpfs files (measured by its
# own policy's first rule) that the list outgrows the segment, and
# kexecs; stage 2 checks it got exactly the entries that fit, and no
# kexec_execute. The list is cut on purpose, so the whole-list audit must
# fail: tests/host/boot/kexec-cut.sh asserts how it fails instead.
suites = 98-kexec-cut-1,98-kexec-cut-2
policy = kexec-cut.rules ima-policy
audit = no
host-checks = tests/host/boot/kexec-cut.sh
