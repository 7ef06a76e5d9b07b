# kexec_file_load under lockdown=integrity (kernel-patches 0006): a
# policy whose imasig kexec rule has a condition must not lift
# LOCKDOWN_KEXEC (see lockdown-hole.boot).
suites = 75-*
cmdline = lockdown=integrity
policy = lockdown-cond-policy
