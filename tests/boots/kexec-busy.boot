# kexec while a process keeps measuring (issue 36, kernel-patches 0011):
# stage 1 loads the next kernel; init executes it with kexec-busy, whose
# worker keeps reading new tmpfs files (measured by the policy's first
# rule, policies/kexec-cut.rules) until the CPUs stop for the jump, and
# counts them on the console; stage 2 checks that the list it got replays
# to PCR 10 in both banks. tests/host/boot/kexec-busy.sh reads the console:
# the worker opened more files than were carried over.
suites = 98-kexec-busy-1,98-kexec-busy-2
cmdline = printk.devkmsg=on
policy = kexec-cut.rules ima-policy
host-checks = tests/host/boot/kexec-busy.sh
