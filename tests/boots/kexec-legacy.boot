# A kexec_file_load, its unload, then a legacy kexec_load, executed
# (kernel-patches 0013: the IMA segment's mapping belongs to its image). A
# canary takes the memory the first image gave back and must see no write
# at the jump; the second kernel's list must be its own and whole
# (tests/host/boot/kexec-legacy.sh reads the console and both lists). The
# boot policy without the appraisal of kexec images, which would refuse
# kexec_load, and no secure_boot rules (ima_policy=tcb). The second kernel
# got no list (a legacy image), so its list cannot replay to PCR 10: the
# host check audits the first kernel's and the second's entry by entry.
# printk.devkmsg=on: the canary's console lines are not rate-limited (its
# "pass N done" lines must reach the console after a burst of changes).
suites = 98-kexec-legacy-1,98-kexec-legacy-2
cmdline = ima_policy=tcb printk.devkmsg=on
policy = ima-policy
policy-drop = appraise func=KEXEC_KERNEL_CHECK; appraise func=KEXEC_INITRAMFS_CHECK
audit = no
host-checks = tests/host/boot/kexec-legacy.sh
