# Policy files loaded by path (kernel-patches 0001, 0007): the last line,
# line and file limits, NUL. A boot of its own: the unfixed kernel oopses
# in 81-policy-parser-page, and a crash must not hide other results.
suites = 8[0-4]-*
