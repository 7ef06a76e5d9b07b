# Text policy writes (kernel-patches 0005): no secure_boot rules, no
# signed-policy rule.
suites = 73-*
cmdline = ima_policy=tcb
policy = text-policy
