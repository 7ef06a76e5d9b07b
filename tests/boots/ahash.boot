# The ahash parameters of an unpatched kernel on the command line
# (kernel-patches 0002 removes them and the path they enable): the
# loader's digests are right.
suites = 8[5-9]-*
cmdline = ima.ahash_minsize=4096 ima.ahash_bufsize=65536
policy = loader-only-policy
