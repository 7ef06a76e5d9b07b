# The kernel tree's own firmware and kexec selftests, as a new user would
# run them (95: the expected refusals declared in 95-kselftests.expect).
# The boot policy without firmware appraisal: the firmware selftests make
# their firmware at run time, so no signature can exist for it.
suites = 95-*
policy = ima-policy
policy-drop = appraise func=FIRMWARE_CHECK
