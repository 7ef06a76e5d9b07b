#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Red-team fixtures on the reference manifest (--manifest).

Same NAME.args / NAME.expect format as gen/mkredteam.py (read there);
the expectations come from how each case is built here, never from a
run of ima-audit. Writes only its own files (names starting with
"manifest-"); mkredteam.py, which empties the directory, runs first in
`make regen-redteam`.

A manifest is sha256sum's output: on a line that starts with '\\' the
name is escaped, "\\\\", "\\n" and (coreutils 9.0) "\\r" and nothing
else; a line is never read as another path than the one written. md4
and md5 digests are collision-prone and are no reference.

usage: mkredteam_manifest.py OUT_DIR
"""
import hashlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imalog  # noqa: E402
from imalog import Log, d_ng, n_ng  # noqa: E402

fx = imalog.Fixtures(sys.argv[1], ("manifest-",), b"redteam manifest")
write, case, BOOT, AGG = fx.write, fx.case, fx.boot, fx.agg


def listed(name, reason, files, manifest, exit_, fails=(), errhas=()):
    """boot_aggregate and one ima-ng record per (path, algorithm, digest)
    in files; the PCR values and NAME.manifest (bytes as given)."""
    log = Log()
    log.add("ima-ng", [d_ng("sha256", AGG), n_ng("boot_aggregate")])
    for path, alg, dig in files:
        log.add("ima-ng", [d_ng(alg, dig), path + b"\0"])
    write(name + ".pcrs", imalog.pcr_lines(log, BOOT).encode())
    write(name + ".manifest", manifest)
    case(name, reason, log.bytes(), ["--pcrs", name + ".pcrs",
                                     "--manifest", name + ".manifest"],
         exit_, fails, errhas=errhas)


TOOL = hashlib.sha256(b"manifest tool").digest()
H = TOOL.hex().encode()
MD5 = hashlib.md5(b"manifest md5 file").digest()
MD4 = bytes.fromhex("31d6cfe0d16ae931b73c59d7e0c089c0")	# md4("")

# --- md4 and md5 are no reference
listed("manifest-md5-reference",
       "a manifest line 'md5:HEX PATH' (a file measured with ima_hash=md5 "
       "matched it): md5 is collision-prone, the manifest is refused",
       [(b"/usr/bin/m", "md5", MD5)],
       b"md5:%s  /usr/bin/m\n" % MD5.hex().encode(), 3,
       errhas=["manifest-md5-reference.manifest:1: md5 digests are "
               "collision-prone"])
listed("manifest-md4-reference",
       "the same with 'md4:HEX PATH': refused",
       [(b"/usr/bin/m", "md4", MD4)],
       b"%s  /usr/bin/ok\nmd4:%s  /usr/bin/m\n" % (H, MD4.hex().encode()),
       3, errhas=["manifest-md4-reference.manifest:2: md4 digests are "
                  "collision-prone"])
listed("manifest-md5-measured",
       "a file measured with md5, the manifest listing its sha256: no "
       "reference can vouch for an md5 digest",
       [(b"/usr/bin/m", "md5", MD5)],
       b"%s  /usr/bin/m\n" % H, 1, [(1, "manifest-algorithm")])

# --- names as sha256sum escapes them
listed("manifest-escape-unknown",
       "a '\\'-line whose name holds '\\t', an escape sha256sum never "
       "writes (it read as /usr/bin/tool): refused with its line",
       [(b"/usr/bin/tool", "sha256", TOOL)],
       b"%s  /usr/bin/ok\n\\%s  /usr/bin/\\tool\n" % (H, H), 3,
       errhas=["manifest-escape-unknown.manifest:2: byte 77: escape "
               "'\\x5ct' in a name"])
listed("manifest-escape-cr-other-path",
       "sha256sum 9.0 lists '/usr/bin/a<CR>b' as '\\...  /usr/bin/a\\rb'; "
       "the list has /usr/bin/arb with that digest: another path, not in "
       "the manifest (it read as /usr/bin/arb)",
       [(b"/usr/bin/arb", "sha256", TOOL)],
       b"\\%s  /usr/bin/a\\rb\n" % H, 1, [(1, "manifest-path")])
listed("manifest-escape-cr-control",
       "control: the file /usr/bin/a<CR>b itself matches its escaped line",
       [(b"/usr/bin/a\rb", "sha256", TOOL)],
       b"\\%s  /usr/bin/a\\rb\n" % H, 0)
listed("manifest-raw-cr-name",
       "a line whose name ends in a raw carriage return (a CRLF file, or "
       "sha256sum before 9.0 listing '/usr/bin/x<CR>'; it read as "
       "/usr/bin/x): refused with its line",
       [(b"/usr/bin/x", "sha256", TOOL)],
       b"%s  /usr/bin/x\r\n" % H, 3,
       errhas=["manifest-raw-cr-name.manifest:1: the path ends in a "
               "carriage return"])
listed("manifest-escape-control",
       "control: names with a backslash and a newline, as sha256sum "
       "escapes them, and a backslash on a line that is not escaped",
       [(b"/usr/bin/a\\b", "sha256", TOOL), (b"/usr/bin/n\nl", "sha256",
                                            TOOL),
        (b"/usr/bin/raw\\x", "sha256", TOOL)],
       b"\\%s  /usr/bin/a\\\\b\n\\%s  /usr/bin/n\\nl\n%s  /usr/bin/raw\\x\n"
       % (H, H, H), 0)
