# A file load, its unload, then a legacy kexec_load, executed (issue 33
# item 6, kernel-patches 0013): a canary over the memory the first image
# gave back must see no write at the jump (tests/host/boot/kexec-legacy.sh
# reads the console). The boot policy without its appraisal of kexec
# images (which refuses kexec_load) and ima_policy=tcb without the
# secure_boot rules, so that kexec_load is allowed. The second kernel got
# no list (a legacy image), so its list cannot replay to PCR 10: the host
# check audits the first kernel's and checks the second's entry by entry.
suites = 98-kexec-legacy-1,98-kexec-legacy-2
cmdline = ima_policy=tcb
policy = ima-policy
policy-drop = appraise func=KEXEC_KERNEL_CHECK; appraise func=KEXEC_INITRAMFS_CHECK
audit = no
host-checks = tests/host/boot/kexec-legacy.sh
