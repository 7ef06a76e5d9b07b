# kexec_file_load under lockdown=integrity (kernel-patches 0006), the
# control: the boot policy appraises every kexec kernel by signature, and
# our signed kernel still loads (see lockdown-hole.boot).
suites = 75-*
cmdline = lockdown=integrity
