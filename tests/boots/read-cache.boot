# Rules of differing strictness sharing one cached appraisal
# (kernel-patches 0003): a policy of their own.
suites = 71-*
policy = read-cache-policy
