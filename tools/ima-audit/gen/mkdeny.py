#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A deny list (--deny): the cases in tests/deny.

Every list holds files signed with a throwaway IMA key (given with --key,
so each signature verifies); the deny list names some of their digests in
one of its forms. The expectation of each case is written from how it is
built: which digests the deny list names, in which algorithm.

usage: mkdeny.py OUT_DIR
"""
import hashlib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imalog  # noqa: E402
from imalog import Log, d_ng, n_ng  # noqa: E402

out = sys.argv[1]
fx = imalog.Fixtures(out, ("",), b"deny")  # the whole directory is ours
write, BOOT, AGG = fx.write, fx.boot, fx.agg

key, cert = imalog.make_key("rsa", "deny test IMA key")
imalog.write_cert(cert, os.path.join(out, "ima.der"))


def fd(i):
    return hashlib.sha256(b"deny file %d" % i).digest()


def path(i):
    return "/usr/bin/f%d" % i


def signed(log, i, pcr=10):
    s = imalog.sign_digest(key, "sha256", fd(i))
    log.add("ima-sig", [d_ng("sha256", fd(i)), n_ng(path(i)),
                        imalog.sig_v2("sha256", imalog.keyid(cert), s)],
            pcr=pcr)


def build(files=(1, 2, 3), buf=None, pcr11=()):
    log = Log()
    log.add("ima-ng", [d_ng("sha256", AGG), n_ng("boot_aggregate")])
    for i in files:
        signed(log, i, 11 if i in pcr11 else 10)
    if buf is not None:
        log.add("ima-buf", [d_ng("sha256", hashlib.sha256(buf).digest()),
                            n_ng(".ima"), buf])
    return log


def case(name, reason, log, deny_text, exit_, fails=(), has=(), extra=(),
         pcrs=(10,)):
    write(name + ".deny", deny_text)
    write(name + ".pcrs", imalog.pcr_lines(log, BOOT, pcrs))
    imalog.write_case(write, name, reason, log.bytes(),
                      ["--pcrs", name + ".pcrs", "--key", "ima.der",
                       "--require-signatures", "--deny", name + ".deny"] +
                      list(extra), exit_, fails, has)


def sums(ids, fmt="%s  %s\n"):
    return "".join(fmt % (fd(i).hex(), path(i)) for i in ids)


case("control", "control: the deny list names other files: every "
     "signature verifies, nothing is denied", build(), sums((7, 8)), 0,
     has=["deny list:      control.deny, 2 digests; 3 entries checked, "
          "0 denied"])
case("signed-denied", "a revoked file, its signature valid: denied "
     "(sha256sum form)", build(), sums((8, 2)), 1, fails=[("2", "denied")],
     has=["signatures:     3 verified, 0 failed"])
case("binary-mode", "the same in sha256sum -b form ('*' before the path)",
     build(), sums((2,), "%s *%s\n"), 1, fails=[("2", "denied")])
case("tag-form", "the same in sha256sum --tag form",
     build(), "".join("SHA256 (%s) = %s\n" % (path(i), fd(i).hex())
                      for i in (3,)), 1, fails=[("3", "denied")])
case("other-path", "the revoked digest listed under another path: a "
     "revoked file is revoked wherever it lies", build(),
     "%s  /opt/elsewhere\n" % fd(1).hex(), 1, fails=[("1", "denied")])
case("keylime-policy", "the revoked digests in a Keylime runtime policy's "
     "\"digests\"", build(),
     json.dumps({"meta": {"version": 1}, "release": 0,
                 "digests": {path(1): [fd(1).hex()],
                             "/usr/sbin/x": [fd(9).hex(), fd(3).hex()]},
                 "excludes": [], "keyrings": {},
                 "ima": {"ignored_keyrings": [], "log_hash_alg": "sha1",
                         "dm_policy": None},
                 "ima-buf": {}, "verification-keys": ""}, indent=1) + "\n",
     1, fails=[("1", "denied"), ("3", "denied")])
KEYBUF = b"a revoked key's certificate"
case("buffer-denied", "a measured buffer (a key put on .ima) whose digest "
     "is listed: denied too", build((1,), KEYBUF),
     "sha256:%s\n" % hashlib.sha256(KEYBUF).hexdigest(), 1,
     fails=[("2", "denied")])
case("sha1-list", "a deny list of sha1 digests against sha256 "
     "measurements: no entry can be cleared, each fails", build((1, 2)),
     "%s  %s\n" % (hashlib.sha1(b"deny file 1").hexdigest(), path(1)), 1,
     fails=[("1", "deny-algorithm"), ("2", "deny-algorithm")])
case("ignored-pcr", "a revoked file on a PCR waived with --ignore-pcr: "
     "attested by nothing, yet the machine ran it: denied",
     build((1, 2), pcr11=(2,)), sums((2,)), 1, fails=[("2", "denied")],
     extra=["--ignore-pcr", "11"])
case("comments-crlf", "control: comments, blank lines and CRLF ends "
     "(a list edited elsewhere) name nothing in the list",
     build(), "# revoked 2024\r\n\r\n" + sums((7,)).replace("\n", "\r\n"),
     0)
# a deny list that cannot be read: an input error, never a pass
write("bad.deny", sums((1,)) + "not a digest\n")
write("bad.pcrs", imalog.pcr_lines(build(), BOOT))
imalog.write_case(write, "bad-file", "a deny list with a line that is no "
                  "digest: refused (exit 3), naming the line",
                  build().bytes(), ["--pcrs", "bad.pcrs", "--deny",
                                    "bad.deny"], 3)
with open(os.path.join(out, "bad-file.expect"), "a") as f:
    f.write("stderr-has bad.deny:2:\n")
