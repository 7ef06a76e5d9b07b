#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Keys from the list (--ca): the cases in tests/listkeys.

Each list measures a key put on the .ima keyring (an ima-buf record named
".ima" holding the key's certificate, as a KEY_CHECK rule makes the kernel
write it) and files signed with it; ima-audit gets the CA, not the key.
The expectation of each case is written from how it is built: which key
chains to which CA, which records the PCR values given cover, on which
PCR each record lies. Throwaway CA and keys are made now; only the
public halves are written.

usage: mklistkeys.py OUT_DIR
"""
import datetime
import hashlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imalog  # noqa: E402
from imalog import Log, d_ng, n_ng  # noqa: E402

from cryptography import x509  # noqa: E402
from cryptography.hazmat.primitives import hashes  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec, rsa  # noqa: E402
from cryptography.hazmat.primitives.serialization import Encoding  # noqa
from cryptography.x509.oid import NameOID  # noqa: E402

out = sys.argv[1]
fx = imalog.Fixtures(out, ("",), b"listkeys")  # the whole directory is ours
write, BOOT, AGG = fx.write, fx.boot, fx.agg
NOW = datetime.datetime(2024, 1, 1)


def cert(cn, key, issuer=None, issuer_key=None, ca=False, usage=True,
         days=3650):
    """A certificate of key, signed by issuer (self-signed without one)."""
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])
    b = (x509.CertificateBuilder().subject_name(name)
         .issuer_name(issuer.subject if issuer else name)
         .public_key(key.public_key())
         .serial_number(x509.random_serial_number())
         .not_valid_before(NOW)
         .not_valid_after(NOW + datetime.timedelta(days=days))
         .add_extension(x509.BasicConstraints(ca=ca, path_length=None),
                        critical=True)
         .add_extension(x509.SubjectKeyIdentifier.from_public_key(
             key.public_key()), critical=False))
    ku = dict(digital_signature=usage and not ca, content_commitment=False,
              key_encipherment=not usage, data_encipherment=False,
              key_agreement=False, key_cert_sign=ca, crl_sign=ca,
              encipher_only=False, decipher_only=False)
    b = b.add_extension(x509.KeyUsage(**ku), critical=True)
    return b.sign(issuer_key or key, hashes.SHA256())


ca_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
ca = cert("listkeys test CA", ca_key, ca=True)
other_key = ec.generate_private_key(ec.SECP256R1())
other_ca = cert("another CA", other_key, ca=True)
ima_key = ec.generate_private_key(ec.SECP256R1())
ima = cert("IMA key signed by the CA", ima_key, ca, ca_key)
rogue_key = ec.generate_private_key(ec.SECP256R1())
rogue = cert("rogue IMA key", rogue_key, other_ca, other_key)
expired = cert("IMA key, expired", ima_key, ca, ca_key, days=1)
as_ca = cert("a CA as IMA key", ima_key, ca, ca_key, ca=True)
no_sign = cert("key without digitalSignature", ima_key, ca, ca_key,
               usage=False)
write("ca.pem", ca.public_bytes(Encoding.PEM))
write("other-ca.pem", other_ca.public_bytes(Encoding.PEM))
write("ima.der", ima.public_bytes(Encoding.DER))


def fd(i):
    return hashlib.sha256(b"listkeys file %d" % i).digest()


def boot(log):
    log.add("ima-ng", [d_ng("sha256", AGG), n_ng("boot_aggregate")])


def key(log, crt, pcr=10, digest=None):
    der = crt.public_bytes(Encoding.DER)
    log.add("ima-buf", [d_ng("sha256", digest or
                             hashlib.sha256(der).digest()),
                        n_ng(".ima"), der], pcr=pcr)


def signed(log, i, k, crt, tamper=False):
    d = fd(i)
    s = imalog.sign_digest(k, "sha256", hashlib.sha256(b"other").digest()
                           if tamper else d)
    log.add("ima-sig", [d_ng("sha256", d), n_ng("/usr/bin/f%d" % i),
                        imalog.sig_v2("sha256", imalog.keyid(crt), s)])


def build(steps):
    log = Log()
    for s in steps:
        s(log)
    return log


def pcrs(log, pcr_list=(10,)):
    return imalog.pcr_lines(log, BOOT, pcr_list)


def case(name, reason, steps, args, exit_, fails=(), has=(), values=None,
         pcr_list=(10,)):
    log = build(steps)
    write(name + ".pcrs", pcrs(build(values) if values else log, pcr_list))
    imalog.write_case(write, name, reason, log.bytes(),
                      ["--pcrs", name + ".pcrs"] + args, exit_, fails, has)


CA = ["--ca", "ca.pem", "--require-signatures"]
good = [boot, lambda g: key(g, ima), lambda g: signed(g, 1, ima_key, ima),
        lambda g: signed(g, 2, ima_key, ima)]

case("control", "control: the key chains to the CA, its record and the "
     "files are covered: both signatures verify with it",
     good, CA, 0, has=["signatures:     2 verified, 0 failed",
                       "list keys:      1 .ima key(s) chained to ca.pem"])
case("control-no-ca", "control: without --ca the list's key is not used "
     "and the signatures are counted, not checked",
     good, ["--require-signatures"], 0,
     has=["signatures:     not checked (no --key); 2 signed"])
case("expired-control", "control: a key past its dates chains (the "
     "kernel's keyring restriction checks no dates)",
     [boot, lambda g: key(g, expired),
      lambda g: signed(g, 1, ima_key, expired)], CA, 0,
     has=["signatures:     1 verified, 0 failed"])
case("rogue-key", "a key issued by another CA: refused, naming it; the "
     "files it signed have no key",
     [boot, lambda g: key(g, rogue), lambda g: signed(g, 1, rogue_key, rogue),
      lambda g: signed(g, 2, rogue_key, rogue)], CA, 1,
     fails=[("1", "list-key"), ("2", "unknown-key"), ("3", "unknown-key")],
     has=["'/CN=rogue IMA key' does not chain to ca.pem"])
case("rogue-key-own-ca", "control: the same list with the rogue key's CA "
     "passes (the chain, not the key, decides)",
     [boot, lambda g: key(g, rogue), lambda g: signed(g, 1, rogue_key, rogue),
      lambda g: signed(g, 2, rogue_key, rogue)],
     ["--ca", "other-ca.pem", "--require-signatures"], 0)
case("ca-as-key", "a CA certificate on .ima: not an IMA signing key",
     [boot, lambda g: key(g, as_ca), lambda g: signed(g, 1, ima_key, as_ca)],
     CA, 1, fails=[("1", "list-key"), ("2", "unknown-key")],
     has=["is a CA certificate"])
case("no-digital-signature", "a key whose key usage lacks "
     "digitalSignature: refused",
     [boot, lambda g: key(g, no_sign),
      lambda g: signed(g, 1, ima_key, no_sign)],
     CA, 1, fails=[("1", "list-key"), ("2", "unknown-key")],
     has=["key usage without digitalSignature"])
case("key-after-file", "the file is measured before the key record: the "
     "kernel could not have appraised it with that key",
     [boot, lambda g: signed(g, 1, ima_key, ima), lambda g: key(g, ima),
      lambda g: signed(g, 2, ima_key, ima)],
     CA, 1, fails=[("1", "unknown-key")])
case("bad-signature", "a signature of the list's key over another digest",
     [boot, lambda g: key(g, ima), lambda g: signed(g, 1, ima_key, ima),
      lambda g: signed(g, 2, ima_key, ima, tamper=True)],
     CA, 1, fails=[("3", "bad-signature")])
case("key-buf-forged", "the key record's digest is not its buffer's: no "
     "key, and the files it would verify have none",
     [boot, lambda g: key(g, ima, digest=hashlib.sha256(b"x").digest()),
      lambda g: signed(g, 1, ima_key, ima)],
     CA, 1, fails=[("1", "buf-digest"), ("2", "unknown-key")])
case("key-uncovered", "the PCR values end before the key record "
     "(--allow-uncovered): the key is attested by nothing, and so are the "
     "signatures it verified",
     good, CA + ["--allow-uncovered"], 1,
     fails=[("2", "list-key"), ("3", "list-key")], values=[boot])
case("key-ignored-pcr", "the key record on PCR 11, waived with "
     "--ignore-pcr 11: nothing attests the key",
     [boot, lambda g: key(g, ima, pcr=11),
      lambda g: signed(g, 1, ima_key, ima)],
     CA + ["--ignore-pcr", "11"], 1, fails=[("2", "list-key")])
case("key-and-keyfile", "control: one file signed by the list's key, one "
     "by a --key key the list does not carry: both verify",
     [boot, lambda g: key(g, ima), lambda g: signed(g, 1, ima_key, ima),
      lambda g: signed(g, 2, rogue_key, rogue)],
     CA + ["--key", "rogue.der"], 0,
     has=["signatures:     2 verified, 0 failed"])
write("rogue.der", rogue.public_bytes(Encoding.DER))
