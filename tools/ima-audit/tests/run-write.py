#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""--write-keylime: a Keylime runtime policy of what the audit proved.

    run-write.py IMA_AUDIT WORKDIR

Each case builds a list (gen/imalog.py) and knows from how it built it
which entries the audit proves (signed with the given key, bound and
covered) and which it cannot (a bad signature, entries after the
covered prefix, nothing bound, a name that is not UTF-8). The policy
written must hold exactly the proven entries, each under its path (key:
its keyring, buffer: its name), load with Python's json, follow
Keylime's schema for its digests, and, read back with --manifest, pass
the same list except the entries left out. One TAP line per check.
"""
import hashlib
import json
import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "gen"))
import imalog  # noqa: E402
from imalog import Log, d_ng, n_ng  # noqa: E402

binary, work = sys.argv[1], sys.argv[2]
os.makedirs(work, exist_ok=True)
BOOT = imalog.boot_pcrs(b"write")
AGG = imalog.boot_aggregate(BOOT, "sha256")
key, cert = imalog.make_key("rsa", "write test IMA key")
imalog.write_cert(cert, os.path.join(work, "ima.der"))
KEYCERT = imalog.make_key("ec", "a key put on .ima")[1]
bad = 0


def der(c):
    from cryptography.hazmat.primitives.serialization import Encoding
    return c.public_bytes(Encoding.DER)


def fd(i):
    return hashlib.sha256(b"write file %d" % i).digest()


def build(paths, bad_sig=()):
    """boot_aggregate, signed files (bad_sig: signed over another
    digest), a key on .ima, a buffer; returns the log and, per entry,
    (table, name, hex)."""
    log = Log()
    ents = [("digests", "boot_aggregate", AGG.hex())]
    log.add("ima-ng", [d_ng("sha256", AGG), n_ng("boot_aggregate")])
    for i, p in enumerate(paths):
        signed = fd(99) if i in bad_sig else fd(i)
        sig = imalog.sig_v2("sha256", imalog.keyid(cert),
                            imalog.sign_digest(key, "sha256", signed))
        log.add("ima-sig", [d_ng("sha256", fd(i)),
                            p if isinstance(p, bytes) else n_ng(p), sig])
        ents.append(("digests", p, fd(i).hex()))
    kd = der(KEYCERT)
    log.add("ima-buf", [d_ng("sha256", hashlib.sha256(kd).digest()),
                        n_ng(".ima"), kd])
    ents.append(("keyrings", ".ima", hashlib.sha256(kd).hexdigest()))
    buf = b"console=ttyS0"
    log.add("ima-buf", [d_ng("sha256", hashlib.sha256(buf).digest()),
                        n_ng("kexec-cmdline"), buf])
    ents.append(("ima-buf", "kexec-cmdline", hashlib.sha256(buf).hexdigest()))
    return log, ents


def tap(ok, name, why=""):
    global bad
    if ok:
        print("ok - write %s" % name)
    else:
        bad += 1
        print("not ok - write %s" % name)
        print("# " + why.replace("\n", " ")[:400])


def case(name, log, ents, proven, pcr_log=None, args=(), note=""):
    """proven: indices of ents the audit proves, from how log was built."""
    lst = os.path.join(work, name + ".bin")
    pcrs = os.path.join(work, name + ".pcrs")
    pol = os.path.join(work, name + ".json")
    with open(lst, "wb") as f:
        f.write(log.bytes())
    with open(pcrs, "w") as f:
        f.write(imalog.pcr_lines(pcr_log or log, BOOT))
    if os.path.exists(pol):
        os.unlink(pol)
    p = subprocess.run([binary, "--pcrs", pcrs, "--write-keylime", pol] +
                       list(args) + [lst], capture_output=True)
    if not os.path.exists(pol):
        tap(False, name, "no policy written (exit %d): %s" %
            (p.returncode, p.stderr.decode(errors="replace")))
        return
    try:
        with open(pol) as f:
            doc = json.load(f)
    except ValueError as e:
        tap(False, name, "the policy does not load with Python's json: %s"
            % e)
        return
    want = {}
    for i in proven:
        t, n, h = ents[i]
        n = n.decode() if isinstance(n, bytes) else n
        want.setdefault(t, {}).setdefault(n, []).append(h)
    got = {t: doc.get(t, {}) for t in ("digests", "keyrings", "ima-buf")}
    for t in got:
        if got[t] != {k: sorted(v) for k, v in want.get(t, {}).items()}:
            tap(False, name, "%s: wrote %s, proven %s" %
                (t, got[t], want.get(t, {})))
            return
    hexes = [h for t in got for v in got[t].values() for h in v]
    if doc.get("meta", {}).get("version") != 1 or \
            not all(re.fullmatch("[0-9a-f]{40,128}", h) for h in hexes):
        tap(False, name, "not Keylime's schema: %s" % doc)
        return
    # read back: the list passes it except the entries left out
    r = subprocess.run([binary, "--json", "--pcrs", pcrs, "--manifest",
                        pol, lst], capture_output=True)
    rep = json.loads(r.stdout or b"{}")
    failed = sorted({fl["entry"] for fl in rep.get("failures", [])
                     if fl["class"].startswith("manifest")})
    left = sorted(set(range(len(ents))) - set(proven))
    if failed != left:
        tap(False, name, "read back: manifest failures at %s, left out %s"
            % (failed, left))
        return
    tap(True, name + (" (%s)" % note if note else ""))


ima_der = os.path.join(work, "ima.der")
log, ents = build(["/usr/bin/a", "/usr/lib/b.so", "/etc/c"])
case("all-proven", log, ents, range(len(ents)), args=["--key", ima_der],
     note="every entry signed, bound and covered")
log, ents = build(["/usr/bin/a", "/usr/lib/b.so", "/etc/c"], bad_sig=(1,))
case("bad-signature", log, ents, [0, 1, 3, 4, 5], args=["--key", ima_der],
     note="the file whose signature fails is left out")
log, ents = build(["/usr/bin/a", "/usr/lib/b.so"])
# PCR values read after the first two entries: the rest are not covered
first = Log()
first.add("ima-ng", [d_ng("sha256", AGG), n_ng("boot_aggregate")])
first.add("ima-sig", [d_ng("sha256", fd(0)), n_ng("/usr/bin/a"),
                      imalog.sig_v2("sha256", imalog.keyid(cert),
                                    imalog.sign_digest(key, "sha256",
                                                       fd(0)))])
case("uncovered", log, ents, [0, 1], pcr_log=first,
     args=["--allow-uncovered"],
     note="entries after the covered prefix are left out")
log, ents = build(["/usr/bin/a", b"/usr/bin/caf\xff\0"])
case("not-utf8", log, ents, [0, 1, 3, 4],
     note="a proven name that is not UTF-8 cannot be written")
print("# %d failed" % bad)
sys.exit(1 if bad else 0)
