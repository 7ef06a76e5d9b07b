#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Red-team fixtures on signatures: what a signature in a record attests.

Same NAME.args / NAME.expect format as gen/mkredteam.py (read there);
the expectations come from how each case is built here, never from a
run of ima-audit. Writes only its own files (names starting with
"signatures-"); mkredteam.py, which empties the directory, runs first in
`make regen-redteam`. A throwaway AK and IMA key are made now; only
their public halves (signatures-ak.pem, signatures-ima.der) are written.

usage: mkredteam_signatures.py OUT_DIR
"""
import hashlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imalog  # noqa: E402
import tpmquote as tq  # noqa: E402
from imalog import Log, d_ng, n_ng  # noqa: E402

fx = imalog.Fixtures(sys.argv[1], ("signatures-",))
write, case = fx.write, fx.case

BOOT = imalog.boot_pcrs(b"redteam signatures")
NONCE = bytes(range(3, 23))
SEL = list(range(11))

ak, _ = imalog.make_key("rsa", "redteam signatures AK")
write("signatures-ak.pem", tq.public_pem(ak))
ima_key, ima_cert = imalog.make_key("rsa", "redteam signatures IMA key")
imalog.write_cert(ima_cert, os.path.join(fx.out, "signatures-ima.der"))
AGG = imalog.boot_aggregate(BOOT, "sha256")


def fd(i):
    return hashlib.sha256(b"signatures file %d" % i).digest()


def boot(log):
    log.add("ima-ng", [d_ng("sha256", AGG), n_ng("boot_aggregate")])


def signed_file(log, i):
    sig = imalog.sig_v2("sha256", imalog.keyid(ima_cert),
                        imalog.sign_digest(ima_key, "sha256", fd(i)))
    log.add("ima-sig", [d_ng("sha256", fd(i)), n_ng("/usr/bin/f%d" % i),
                        sig])


def state(log):
    return imalog.pcr_state(BOOT, log)


def quote(name, st):
    """A genuine quote of st (sha256 PCR 0-10) with the signatures AK."""
    return tq.quote_case(write, ak, "signatures-ak.pem", name, st, NONCE,
                         SEL)


mchk = ["--key", "signatures-ima.der", "--require-signatures"]
# --- a file measured with md5 (ima_hash=md5) and signed over that digest:
# md5 collisions are practical (chosen prefix), so whoever got one file's
# md5 signed can make another with the same digest: the signature attests
# nothing. (A manifest refuses md5 digests already: its parser takes the
# sha1 and sha2 lengths only.)
MD5 = hashlib.md5(b"signatures md5 file").digest()
log = Log()
boot(log)
sig = imalog.sig_v2("md5", imalog.keyid(ima_cert),
                    imalog.sign_digest(ima_key, "md5", MD5))
log.add("ima-sig", [d_ng("md5", MD5), n_ng("/usr/bin/md5file"), sig])
case("signatures-md5",
     "a file signed over its md5 digest, the signature valid: it attests "
     "nothing (md5 collisions), so --require-signatures fails it",
     log.bytes(), quote("signatures-md5", state(log)) + mchk, 1,
     [(1, "signature-algorithm")])
log = Log()
boot(log)
signed_file(log, 5)
case("signatures-md5-control",
     "control: the same list with the file measured and signed over "
     "sha256: passes", log.bytes(),
     quote("signatures-md5-control", state(log)) + mchk, 0)
