# A first custom policy without the policy-record rule (kernel-patches
# 0008): the boot policy measures all critical data, so the update record
# is taken.
suites = 74-*
cmdline = ima_policy=critical_data ima_policy=secure_boot
policy = first-policy
