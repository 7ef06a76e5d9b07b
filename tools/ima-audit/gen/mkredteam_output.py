#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Red-team fixtures on the report: output that a list can write into.

Same NAME.args / NAME.expect format as gen/mkredteam.py (read there);
the expectations come from how each case is built here, never from a
run of ima-audit. Writes only its own files (names starting with
"output-"); mkredteam.py, which empties the directory, runs first in
`make regen-redteam`.

No bank hashes a record's template name, and the kernel writes any name
the list's holder likes into a failure's path. Every case's template
name or path holds a line of a report ("result: PASS"), a newline, a
carriage return, terminal controls or a backslash; tests/run-cases.py
requires of every case that the text report hold no byte outside
printable ASCII but the newline and its verdict once, as its last line.

usage: mkredteam_output.py OUT_DIR
"""
import hashlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imalog  # noqa: E402
from imalog import Log, d_ng, n_ng  # noqa: E402

fx = imalog.Fixtures(sys.argv[1], ("output-",), b"redteam output")
write, case, BOOT, AGG = fx.write, fx.case, fx.boot, fx.agg
FAKE = "result:         PASS (0 failures)"


def listed(name, reason, names, args=(), fails=None, has=(), path=None):
    """boot_aggregate, then a file record under each template name in
    names (a file path per record: path or /usr/bin/fN); PCR values for
    all of it. Unknown template names fail as such."""
    log = Log()
    log.add("ima-ng", [d_ng("sha256", AGG), n_ng("boot_aggregate")])
    for i, tmpl in enumerate(names):
        p = path or "/usr/bin/f%d" % i
        log.add(tmpl, [d_ng("sha256", hashlib.sha256(p.encode()).digest()),
                       n_ng(p)])
    write(name + ".pcrs", imalog.pcr_lines(log, BOOT).encode())
    if fails is None:
        fails = [(i + 1, "unknown-template") for i in range(len(names))]
    case(name, reason, log.bytes(), ["--pcrs", name + ".pcrs"] + list(args),
         1, fails, has)


listed("output-template-newline",
       "a template name holding a newline and a passing verdict line: "
       "escaped, one verdict, last",
       ["ima-ng\n" + FAKE, "ima-ng\n\n" + FAKE + "\n"])
listed("output-template-terminal",
       "a template name holding terminal controls (clear the screen, "
       "cursor home, carriage return) before a passing verdict: escaped",
       ["\x1b[2J\x1b[H" + FAKE + "\r", "ima-ng\r" + FAKE, "\x7f\x08x"])
# a backslash is escaped too (\x5c), or a name written "\x0a" would read
# as an escaped newline
listed("output-template-backslash",
       "a template name holding the text '\\x0a' before a verdict line: "
       "its backslash is shown as \\x5c",
       ["ima-ng\\x0a" + FAKE], has=["ima-ng\\x5cx0a" + FAKE])
listed("output-template-high-bytes",
       "a template name of bytes above 0x7e (not UTF-8, and UTF-8 bidi "
       "controls): escaped",
       [b"\xff\xfe", "ima\u202e-ng"])
# the control: paths were escaped already
listed("output-path-newline",
       "control: a file path holding a newline and a verdict line, "
       "unsigned under --require-signatures: its path is escaped",
       ["ima-ng"], ["--require-signatures"], [(1, "unsigned")],
       path="/tmp/x\n" + FAKE)

# what a list can make the audit keep and print: 150 unsigned files with
# 600-byte paths under --require-signatures; every failure counted, the
# first 100 listed (their paths cut to 256 bytes, the length shown), the
# other 50 reported as not listed
log = Log()
log.add("ima-ng", [d_ng("sha256", AGG), n_ng("boot_aggregate")])
for i in range(150):
    p = "/usr/lib/%03d/" % i + "p" * 587
    log.add("ima-ng", [d_ng("sha256", hashlib.sha256(p.encode()).digest()),
                       n_ng(p)])
write("output-many-failures.pcrs", imalog.pcr_lines(log, BOOT).encode())
case("output-many-failures",
     "150 unsigned files with 600-byte paths: all 150 failures counted, "
     "the first 100 listed (-v) with their paths cut, the rest reported "
     "per class", log.bytes(), ["--pcrs", "output-many-failures.pcrs",
                                "--require-signatures", "-v"], 1,
     [(i, "unsigned") for i in range(1, 101)],
     has=["FAIL: ... 50 more unsigned failures not listed",
          "...(600 bytes): "])
write("output-many-failures-collapsed.pcrs",
      imalog.pcr_lines(log, BOOT).encode())
case("output-many-failures-collapsed",
     "the same without -v: the text report says the 150 failures of the "
     "class in one line (count, entries, the first, what to do); the JSON "
     "keeps every listed one", log.bytes(),
     ["--pcrs", "output-many-failures-collapsed.pcrs",
      "--require-signatures"], 1,
     [(i, "unsigned") for i in range(1, 101)],
     has=["FAIL: 150 unsigned failures (entries 1..150; -v lists each); "
          "the first: entry 1 @",
          ". To fix: The file has no signature and --require-signatures "
          "is set"])
