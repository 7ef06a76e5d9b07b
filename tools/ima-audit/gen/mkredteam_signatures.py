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
from imalog import QUOTE_PCRS as SEL, Log, d_ng, n_ng  # noqa: E402

fx = imalog.Fixtures(sys.argv[1], ("signatures-",), b"redteam signatures")
write, case, BOOT, AGG = fx.write, fx.case, fx.boot, fx.agg
NONCE = bytes(range(3, 23))

ak, _ = imalog.make_key("rsa", "redteam signatures AK")
write("signatures-ak.pem", tq.public_pem(ak))
ima_key, ima_cert = imalog.make_key("rsa", "redteam signatures IMA key")
imalog.write_cert(ima_cert, os.path.join(fx.out, "signatures-ima.der"))


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


# --- the digest's type and the signature's: ima-ngv2/ima-sigv2 records
# say what their digest is ("ima:" a file hash, "verity:" an fs-verity
# digest), and the kernel takes only a verity signature (type 6, version
# 3, over the hash of struct ima_file_id {6, algo, digest}) for a verity
# digest and only a file-hash one (type 3) for a file hash
VD = hashlib.sha256(b"signatures verity digest").digest()
FILE_ID = hashlib.sha256(bytes([6, imalog.HASH_IDS["sha256"]]) + VD).digest()
SIG3 = imalog.sig_v2("sha256", imalog.keyid(ima_cert),
                     imalog.sign_digest(ima_key, "sha256", VD))
SIG6 = bytes([6, 3]) + imalog.sig_v2(
    "sha256", imalog.keyid(ima_cert),
    imalog.sign_digest(ima_key, "sha256", FILE_ID))[2:]


def sigv2(kind, sig, tmpl="ima-sigv2"):
    log = Log()
    boot(log)
    log.add(tmpl, [kind.encode() + b":" + d_ng("sha256", VD),
                   n_ng("/usr/bin/verity"), sig])
    return log


log = sigv2("verity", SIG3)
case("signatures-verity-file-hash-sig",
     "an fs-verity digest signed by a valid file-hash signature (type 3) "
     "over its bytes: the kernel refuses a file-hash signature for a "
     "verity digest", log.bytes(),
     quote("signatures-verity-file-hash-sig", state(log)) + mchk, 1,
     [(1, "signature-type")])
case("signatures-verity-file-hash-sig-renamed",
     "the same record renamed ima-sig (d-ng|n-ng|sig), which would drop "
     "the type: a d-ng field holds no type, the record fails",
     imalog.relabel(log.bytes(), 1, "ima-sig"),
     quote("signatures-verity-file-hash-sig-renamed", state(log)) + mchk, 1,
     [(1, "malformed-field")])
log = sigv2("ima", SIG6)
case("signatures-ima-digest-verity-sig",
     "a file-hash digest (ima:) signed by a verity signature (type 6): "
     "refused", log.bytes(),
     quote("signatures-ima-digest-verity-sig", state(log)) + mchk, 1,
     [(1, "signature-type")])
log = sigv2("verity", SIG6)
case("signatures-verity-control",
     "control: the fs-verity digest with its verity signature (type 6, "
     "version 3, over the hash of its ima_file_id): verifies, passes",
     log.bytes(), quote("signatures-verity-control", state(log)) + mchk, 0)
