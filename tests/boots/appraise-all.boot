# The main boot's suites again with every file of the image appraised
# (policies/appraise-all.rules after the boot policy), and 96: what that
# refuses and what it does not.
suites = [0-6]*,70-*,72-*,96-*
policy = ima-policy appraise-all.rules
