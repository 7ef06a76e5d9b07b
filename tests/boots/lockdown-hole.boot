# kexec_file_load under lockdown=integrity (issue 13 item 2,
# kernel-patches 0006): a policy that exempts tmpfs from appraisal before
# its imasig kexec rule must not lift LOCKDOWN_KEXEC (lockdown-cond: an
# imasig kexec rule with a condition; lockdown-sound: the boot policy,
# which appraises every kexec kernel by signature and still lets our
# signed kernel load).
suites = 75-*
cmdline = lockdown=integrity
policy = lockdown-hole-policy
