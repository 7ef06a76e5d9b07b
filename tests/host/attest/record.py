#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""An enrolled directory as `ima-attest enroll` writes it, for the tests
that need one without a TPM, written from its definition (include/
ima_attest.h, att_enrollment_format), never by the tool under test:

    record.py DIR BOOT KIND [AK_TPM2B]

DIR gets `verdict` (the enrollment record, naming boot BOOT, or none
when BOOT is '-'), and for KIND
  pass    a trusted enrollment: ak.pub (the AK's TPMT_PUBLIC, from
          AK_TPM2B, default tools/ima-attest/tests/data/ak.tpm2b: a
          tpm2_createak key), ak.pem (the same key), ak.name
          (nameAlg || sha256 of ak.pub), ek-cert.der (stand-in bytes),
          and the record naming them
  fail    a refused one: the EK proven, the AK binding refused, a reason
  mixed   the record of a trusted enrollment whose result says refused
          (its fields disagree: no record ima-attest writes)
Files are written 0600 and the directory made 0700.
"""
import hashlib
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.join(HERE, "..", "..", "..")


def tpmt_public(tpm2b):
    """The TPMT_PUBLIC inside a TPM2B_PUBLIC, and the RSA key in it."""
    size, = struct.unpack_from(">H", tpm2b, 0)
    area = tpm2b[2:2 + size]
    off = 2 + 2 + 4                         # type, nameAlg, attributes
    n, = struct.unpack_from(">H", area, off)
    off += 2 + n                            # authPolicy
    sym, = struct.unpack_from(">H", area, off)
    off += 2 + (4 if sym != 0x0010 else 0)  # TPMT_SYM_DEF_OBJECT
    scheme, = struct.unpack_from(">H", area, off)
    off += 2 + (2 if scheme != 0x0010 else 0)
    off += 2                                # keyBits
    exp, = struct.unpack_from(">I", area, off)
    off += 4
    n, = struct.unpack_from(">H", area, off)
    modulus = area[off + 2:off + 2 + n]
    return area, int.from_bytes(modulus, "big"), exp or 65537


def pem(modulus, exponent):
    from cryptography.hazmat.primitives.asymmetric import rsa
    from cryptography.hazmat.primitives import serialization as s
    key = rsa.RSAPublicNumbers(exponent, modulus).public_key()
    return key.public_bytes(s.Encoding.PEM,
                            s.PublicFormat.SubjectPublicKeyInfo)


def write(d, name, data):
    fd = os.open(os.path.join(d, name),
                 os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)


def main():
    d, boot, kind = sys.argv[1:4]
    ak = sys.argv[4] if len(sys.argv) > 4 else os.path.join(
        TOP, "tools", "ima-attest", "tests", "data", "ak.tpm2b")
    os.makedirs(d, mode=0o700, exist_ok=True)
    os.chmod(d, 0o700)
    area, modulus, exponent = tpmt_public(open(ak, "rb").read())
    name = b"\x00\x0b" + hashlib.sha256(area).digest()
    cert = b"stand-in EK certificate of " + name.hex().encode()
    ca = hashlib.sha256(b"stand-in manufacturer CA").hexdigest()
    ek_name = "000b" + hashlib.sha256(b"stand-in EK").hexdigest()
    trusted = kind == "pass"
    lines = ["ima-attest enrollment 1", "boot: " + boot,
             "manufacturer-ca-sha256: " + ca,
             "ek-certificate-sha256: " + hashlib.sha256(cert).hexdigest(),
             "ek-name: " + ek_name,
             "ak-name: " + (name.hex() if kind != "fail" else "-"),
             "tpm-identity: proven",
             "ak-binding: " + ("refused" if kind == "fail" else "proven"),
             "result: " + ("trusted" if trusted else "refused")]
    if kind == "fail":
        lines.append("reason: credential activation failed in the guest: "
                     "stand-in")
    else:
        write(d, "ak.pub", area)
        write(d, "ak.pem", pem(modulus, exponent))
        write(d, "ak.name", name)
    write(d, "ek-cert.der", cert)
    write(d, "verdict", ("\n".join(lines) + "\n").encode())


if __name__ == "__main__":
    main()
