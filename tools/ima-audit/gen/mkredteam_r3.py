#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Red-team round 3: the r3-* fixtures in tests/redteam.

Same NAME.args / NAME.expect format as gen/mkredteam.py (read there);
the expectations come from how each case is built here, never from a
run of ima-audit. Writes only r3-* files (mkredteam.py, which empties
the directory, runs first in `make regen-redteam`). A throwaway AK and
IMA key are made now; only their public halves (r3-ak.pem, r3-ima.der)
are written.

The forgeries:

 * a list that spans a kexec, where only the first kernel recorded its
   policy: the policy the running (last) kernel enforces is recorded
   nowhere, yet the first kernel's record passed --expect-policy;
 * the same with the kernel boundary hidden: the kexec_execute record and
   the next kernel's boot_aggregate renamed (the template name is hashed
   by nothing) to templates without a name field;
 * an unsigned empty file's ima-sig record renamed ima-buf: its empty sig
   field reads as an empty buffer whose sha256 is the file digest, and
   the record escaped --require-signatures and --manifest as a buffer.

usage: mkredteam_r3.py OUT_DIR
"""
import hashlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imalog  # noqa: E402
import tpmquote as tq  # noqa: E402
from imalog import Log, d_ng, n_ng  # noqa: E402

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for f in os.listdir(out):
    if f.startswith("r3-"):
        os.unlink(os.path.join(out, f))

BOOT = imalog.boot_pcrs(b"redteam r3")
NONCE = bytes(range(3, 23))
SEL = list(range(11))
STRICT = b"appraise func=BPRM_CHECK appraise_type=imasig\n" \
         b"measure func=FILE_CHECK mask=MAY_READ uid=0\n" \
         b"measure func=CRITICAL_DATA label=ima_policy_loaded\n"
KEXEC_HDR = 24		# struct ima_kexec_hdr
SEGMENT = 65536


def write(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


ak, _ = imalog.make_key("rsa", "redteam r3 AK")
write("r3-ak.pem", tq.public_pem(ak))
ima_key, ima_cert = imalog.make_key("rsa", "redteam r3 IMA key")
imalog.write_cert(ima_cert, os.path.join(out, "r3-ima.der"))
write("r3-strict.policy", STRICT)
AGG = imalog.boot_aggregate(BOOT, "sha256")
EMPTY = hashlib.sha256(b"").digest()
CONF = "/etc/ssh/sshd_config"
CONF_DIGEST = hashlib.sha256(b"PermitRootLogin no\n").digest()


def fd(i):
    return hashlib.sha256(b"r3 file %d" % i).digest()


# every genuine file below, and sshd_config with its real (non-empty) text
write("r3-manifest", b"".join(b"%s  /usr/bin/f%d\n" % (
    fd(i).hex().encode(), i) for i in range(10)) +
    b"%s  %s\n" % (CONF_DIGEST.hex().encode(), CONF.encode()))
# the same, sshd_config listed empty (the control: an empty file that is
# meant to be empty)
write("r3-manifest-empty", b"".join(b"%s  /usr/bin/f%d\n" % (
    fd(i).hex().encode(), i) for i in range(10)) +
    b"%s  %s\n" % (EMPTY.hex().encode(), CONF.encode()))


def boot(log, tmpl="ima-ng"):
    log.add(tmpl, [d_ng("sha256", AGG), n_ng("boot_aggregate")])


def file_(log, i):
    log.add("ima-ng", [d_ng("sha256", fd(i)), n_ng("/usr/bin/f%d" % i)])


def buf(log, name, data, tmpl="ima-buf"):
    log.add(tmpl, [d_ng("sha256", hashlib.sha256(data).digest()),
                   n_ng(name), data])


def policy(log, text, tmpl="ima-buf"):
    buf(log, "ima_policy_loaded", text, tmpl)


def kexec(log, name, tmpl="ima-buf"):
    """An ima_kexec record as the kernel measures it, before appending it:
    the entries before it and their binary size plus the segment header."""
    text = b"kexec_segment_size=%d;ima_binary_runtime_size=%d;" \
           b"ima_runtime_measurements_count=%d;" % (
               SEGMENT, len(log.bytes()) + KEXEC_HDR, log.count)
    buf(log, name, text, tmpl)


def signed_file(log, i):
    sig = imalog.sig_v2("sha256", imalog.keyid(ima_cert),
                        imalog.sign_digest(ima_key, "sha256", fd(i)))
    log.add("ima-sig", [d_ng("sha256", fd(i)), n_ng("/usr/bin/f%d" % i),
                        sig])


def state(log):
    return imalog.pcr_state(BOOT, log)


def quote(name, st):
    """A genuine quote of st (sha256 PCR 0-10) with the r3 AK."""
    return tq.quote_case(write, ak, "r3-ak.pem", name, st, NONCE, SEL)


relabel = imalog.relabel


def case(name, reason, data, args, exit_, fails=(), has=()):
    imalog.write_case(write, name, reason, data, args, exit_, fails, has)


# --- a kexec: the policy recorded by the first kernel only
def two_kernels(second_policy, tmpl_buf="ima-buf", tmpl_ng="ima-ng"):
    """boot, policy, f1, kexec_load, kexec_execute (entry 4), boot of the
    second kernel (entry 5), [its policy], f2."""
    log = Log()
    boot(log, tmpl_ng)
    policy(log, STRICT, tmpl_buf)
    file_(log, 1)
    kexec(log, "kexec_load", tmpl_buf)
    kexec(log, "kexec_execute", tmpl_buf)
    boot(log, tmpl_ng)
    if second_policy:
        policy(log, STRICT, tmpl_buf)
    file_(log, 2)
    return log


chk = ["--expect-policy", "r3-strict.policy"]
log = two_kernels(False)
case("r3-kexec-old-policy",
     "the second kernel (from entry 5) recorded no policy: entry 1 is the "
     "first kernel's, which says nothing of what the running kernel "
     "enforces, so no policy of the last kernel is recorded",
     log.bytes(), quote("r3-kexec-old-policy", state(log)) + chk, 1,
     [("-", "policy")])
log = two_kernels(True)
case("r3-kexec-own-policy-control",
     "control: the second kernel recorded the same policy itself (entry "
     "6): passes", log.bytes(),
     quote("r3-kexec-own-policy-control", state(log)) + chk, 0)
log = two_kernels(True, "d-ng|n-ng|buf", "d-ng|n-ng")
case("r3-kexec-custom-names-control",
     "control: the same list logged under custom template names that keep "
     "every field (d-ng|n-ng|buf, d-ng|n-ng): passes", log.bytes(),
     quote("r3-kexec-custom-names-control", state(log)) + chk, 0)

# --- the kernel boundary hidden by renaming (template names are hashed
# by nothing): kexec_execute as d-ng|xattrnames|buf, the second kernel's
# boot_aggregate as d-ng|xattrnames; the list then reads as one kernel
log = two_kernels(False)
data = relabel(relabel(log.bytes(), 4, "d-ng|xattrnames|buf"), 5,
               "d-ng|xattrnames")
case("r3-kexec-hidden-boundary",
     "the kexec_execute record (entry 4) and the next kernel's "
     "boot_aggregate (entry 5) renamed to templates without a name field, "
     "so that the first kernel's policy would be the last kernel's: both "
     "renamed records fail", data,
     quote("r3-kexec-hidden-boundary", state(log)) + chk, 1,
     [(4, "kexec-handover"), (5, "kexec-handover")])
# --- an empty file: its unsigned ima-sig record renamed ima-buf
mchk = ["--key", "r3-ima.der", "--require-signatures"]
log = Log()
boot(log)
signed_file(log, 4)
log.add("ima-sig", [d_ng("sha256", EMPTY), n_ng(CONF), b""])
case("r3-empty-file-as-buf",
     "root read %s truncated to empty (unsigned, not the manifest's "
     "digest); its ima-sig record renamed ima-buf reads as an empty "
     "buffer of the same digest: still an unsigned file not in the "
     "manifest" % CONF, relabel(log.bytes(), 2, "ima-buf"),
     quote("r3-empty-file-as-buf", state(log)) + mchk +
     ["--manifest", "r3-manifest"], 1,
     [(2, "unsigned"), (2, "manifest-digest")])
log = Log()
boot(log)
signed_file(log, 4)
sig = imalog.sig_v2("sha256", imalog.keyid(ima_cert),
                    imalog.sign_digest(ima_key, "sha256", EMPTY))
log.add("ima-sig", [d_ng("sha256", EMPTY), n_ng(CONF), sig])
buf(log, "kexec-cmdline", b"console=ttyS0 ro")
case("r3-empty-file-control",
     "control: the empty file signed, listed empty in the manifest, and a "
     "genuine ima-buf record (kexec-cmdline): passes", log.bytes(),
     quote("r3-empty-file-control", state(log)) + mchk +
     ["--manifest", "r3-manifest-empty"], 0)
# --- a file whose content is its own security.ima bytes: the kernel logs
# an xattr that starts as a signature (0x03) in the sig field, valid or
# not, so the record's third field hashes to its digest; renamed ima-buf
# it read as a buffer and escaped --require-signatures
SELF = b"\x03\x02\x04" + b"not a signature of anything" * 3
log = Log()
boot(log)
signed_file(log, 6)
log.add("ima-sig", [d_ng("sha256", hashlib.sha256(SELF).digest()),
                    n_ng("/usr/bin/selfsig"), SELF])
case("r3-self-signature-as-buf",
     "a file whose content equals its bogus signature xattr, its ima-sig "
     "record renamed ima-buf: a third field that starts as a signature is "
     "one, so the record is an unsigned file", relabel(log.bytes(), 2,
                                                        "ima-buf"),
     quote("r3-self-signature-as-buf", state(log)) + mchk, 1,
     [(2, "unsigned")])
# --- a file measured with md5 (ima_hash=md5) and signed over that digest:
# md5 collisions are practical (chosen prefix), so whoever got one file's
# md5 signed can make another with the same digest: the signature attests
# nothing. (A manifest refuses md5 digests already: its parser takes the
# sha1 and sha2 lengths only.)
MD5 = hashlib.md5(b"r3 md5 file").digest()
log = Log()
boot(log)
sig = imalog.sig_v2("md5", imalog.keyid(ima_cert),
                    imalog.sign_digest(ima_key, "md5", MD5))
log.add("ima-sig", [d_ng("md5", MD5), n_ng("/usr/bin/md5file"), sig])
case("r3-md5-signature",
     "a file signed over its md5 digest, the signature valid: it attests "
     "nothing (md5 collisions), so --require-signatures fails it",
     log.bytes(), quote("r3-md5-signature", state(log)) + mchk, 1,
     [(1, "signature-algorithm")])
log = Log()
boot(log)
signed_file(log, 5)
case("r3-md5-signature-control",
     "control: the same list with the file measured and signed over "
     "sha256: passes", log.bytes(),
     quote("r3-md5-signature-control", state(log)) + mchk, 0)
print("r3 red-team fixtures written to %s" % out)
