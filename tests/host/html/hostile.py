#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A measurement list whose names try to write into the page.

    hostile.py OUTDIR

Writes OUTDIR/hostile.bin, hostile.pcrs (PCRs 0-10, so every entry is
bound and covered) and hostile.expect (run-cases format: the exit status
and the (entry, class) failures built in), and hostile.names.json: every
entry's name as bytes (hex) and as the page must show it, and which
entries carry an injection. Two failures are built in, so the verdict the
page must show is FAIL: a template hash broken on purpose and a record
under an unknown template whose name is markup.
"""
import hashlib
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "tools", "ima-audit",
                                "gen"))
import imalog  # noqa: E402

NAMES = [
    "</script><script>window.__pwned=1;document.title='PWNED'</script>",
    "<img src=x onerror=\"window.__pwned=2\">",
    "<!--",
    "-->",
    "/etc/passwd\nresult:         PASS (0 failures)",
    "\"};window.__pwned=3;//",
    "<style>*{display:none!important}</style>",
    "&lt;b&gt;entity&lt;/b&gt; &amp; <b>bold</b>",
    "/usr/bin/\u202egnp.exe",
    "/line\u2028separator\u2029",
    "javascript:window.__pwned=4",
    "<svg onload=\"window.__pwned=5\"></svg>",
]
BAD_TEMPLATE = "<svg onload=window.__pwned=6>"


def shown(b):
    """As the page shows a name (the text report's rule): control
    characters, '\\', line/paragraph separators and bidi controls as
    \\xNN or \\u{N}; invalid UTF-8 bytes read as the code points the
    JSON report gives them (U+0080..U+00FF)."""
    try:
        s = b.decode("utf-8")
    except UnicodeDecodeError:
        s = b.decode("latin-1")
    out = []
    for c in s:
        n = ord(c)
        if n < 0x20 or 0x7f <= n <= 0x9f or c == "\\":
            out.append("\\x%02x" % n)
        elif n in (0x61c, 0x200e, 0x200f, 0xfeff) or \
                0x2028 <= n <= 0x202e or 0x2066 <= n <= 0x2069:
            out.append("\\u{%x}" % n)
        else:
            out.append(c)
    return "".join(out)


def main():
    out = sys.argv[1]
    boot = imalog.boot_pcrs(b"hostile")
    log = imalog.Log()
    agg = imalog.boot_aggregate(boot, "sha256")
    log.add("ima-ng", [imalog.d_ng("sha256", agg), imalog.n_ng("boot_aggregate")])
    names = [{"entry": 0, "bytes": b"boot_aggregate".hex(),
              "shown": "boot_aggregate", "hostile": False}]
    raw = [n.encode() for n in NAMES] + [b"/bin/\xff\xfe-not-utf8"]
    for i, b in enumerate(raw):
        d = hashlib.sha256(b).digest()
        log.add("ima-ng", [imalog.d_ng("sha256", d), b + b"\0"])
        names.append({"entry": log.count - 1, "bytes": b.hex(),
                      "shown": shown(b), "hostile": True})
    # a template hash broken on purpose (the digest logged is not the
    # data's): the PCR is extended with the data as it stands, so the
    # entry stays covered and only its own check fails
    broken = log.count
    tb = b"/bin/tampered"
    log.add("ima-ng", [imalog.d_ng("sha256", hashlib.sha256(tb).digest()),
                       tb + b"\0"], digest_override=b"\x5a" * 20)
    names.append({"entry": broken, "bytes": tb.hex(), "shown": shown(tb),
                  "hostile": False})
    unknown = log.count
    log.add(BAD_TEMPLATE, [b"opaque"])
    names.append({"entry": unknown, "bytes": None, "shown": None,
                  "hostile": True, "template": BAD_TEMPLATE})
    last = log.count
    log.add("ima-ng", [imalog.d_ng("sha256", hashlib.sha256(b"ok").digest()),
                       b"/bin/ok\0"])
    names.append({"entry": last, "bytes": b"/bin/ok".hex(), "shown": "/bin/ok",
                  "hostile": False})

    # the sha1 bank extends the template digest as logged (the broken one
    # too), as the kernel does; imalog's replay hashes the data
    data = log.bytes()
    pcr = b"\0" * 20
    for start, _end, _name, _doff in imalog.records(data):
        pcr = hashlib.sha1(pcr + data[start + 4:start + 24]).digest()
    log.pcrs["sha1"][10] = pcr
    with open(os.path.join(out, "hostile.bin"), "wb") as f:
        f.write(data)
    with open(os.path.join(out, "hostile.pcrs"), "w") as f:
        f.write(imalog.pcr_lines(log, boot))
    with open(os.path.join(out, "hostile.args"), "w") as f:
        f.write("--pcrs hostile.pcrs hostile.bin\n")
    with open(os.path.join(out, "hostile.expect"), "w") as f:
        f.write("# names carry markup, script and newlines; two failures built in\n"
                "exit 1\nfail %d template-hash\nfail %d unknown-template\n"
                % (broken, unknown))
    with open(os.path.join(out, "hostile.names.json"), "w") as f:
        json.dump({"entries": log.count, "names": names}, f, indent=1)


if __name__ == "__main__":
    main()
