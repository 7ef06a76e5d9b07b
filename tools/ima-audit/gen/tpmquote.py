# SPDX-License-Identifier: GPL-2.0-only
"""TPM 2.0 quotes as a TPM marshals them (TPM 2.0 Part 2, big-endian).

    TPMS_ATTEST: magic u32, type u16, qualifiedSigner TPM2B, extraData
    TPM2B, clockInfo (clock u64, resetCount u32, restartCount u32, safe
    u8), firmwareVersion u64, TPMS_QUOTE_INFO (TPML_PCR_SELECTION: count
    u32, then hash u16, sizeofSelect u8, bitmap; pcrDigest TPM2B).
    TPMT_SIGNATURE: sigAlg u16, hash u16, then RSASSA: TPM2B sig;
    ECDSA: TPM2B r, TPM2B s.

Everything a test may want to break is a parameter; the signer is a
throwaway key made by the caller (imalog.make_key).
"""
import hashlib
import struct

TPM_GENERATED = 0xff544347
ST_QUOTE = 0x8018
ST_CERTIFY = 0x8017
ALG = {"sha1": 0x0004, "sha256": 0x000b, "sha384": 0x000c,
       "sha512": 0x000d}
RSASSA, ECDSA = 0x0014, 0x0018


def tpm2b(b):
    return struct.pack(">H", len(b)) + b


def selection(sel):
    """sel: list of (bank, [pcr...]) in order; a bank may repeat."""
    out = struct.pack(">I", len(sel))
    for bank, pcrs in sel:
        bm = bytearray(3)
        for p in pcrs:
            bm[p // 8] |= 1 << (p % 8)
        out += struct.pack(">HB", ALG[bank], 3) + bytes(bm)
    return out


def values(sel, pcrs):
    """Quoted values in selection order (tpm2_quote -o FILE -F values).

    pcrs: {bank: {pcr: bytes}}; a PCR not in it is all zeros."""
    out = b""
    for bank, sel_pcrs in sel:
        size = hashlib.new(bank).digest_size
        for p in sorted(set(sel_pcrs)):
            out += pcrs.get(bank, {}).get(p, b"\0" * size)
    return out


def attest(sel, pcrs, nonce, magic=TPM_GENERATED, type_=ST_QUOTE,
           digest_alg="sha256", digest=None, clock=123456, reset=1,
           restart=0):
    if digest is None:
        digest = hashlib.new(digest_alg, values(sel, pcrs)).digest()
    body = (struct.pack(">IH", magic, type_) + tpm2b(b"\0\x0b" + b"\x42" * 32)
            + tpm2b(nonce) + struct.pack(">QIIB", clock, reset, restart, 1)
            + struct.pack(">Q", 0x2023))
    if type_ == ST_QUOTE:
        body += selection(sel) + tpm2b(digest)
    else:
        # TPMS_CERTIFY_INFO: name, qualifiedName
        body += tpm2b(b"\0\x0b" + b"\x01" * 32) + tpm2b(b"\0\x0b" +
                                                          b"\x02" * 32)
    return body


def sign(key, msg, hash_alg="sha256"):
    """TPMT_SIGNATURE over msg with key (RSA: RSASSA, EC: ECDSA)."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
    from cryptography.hazmat.primitives.asymmetric.utils import \
        decode_dss_signature
    h = {"sha1": hashes.SHA1(), "sha256": hashes.SHA256()}[hash_alg]
    if isinstance(key, rsa.RSAPrivateKey):
        s = key.sign(msg, padding.PKCS1v15(), h)
        return struct.pack(">HH", RSASSA, ALG[hash_alg]) + tpm2b(s)
    r, s = decode_dss_signature(key.sign(msg, ec.ECDSA(h)))
    n = (key.curve.key_size + 7) // 8
    return (struct.pack(">HH", ECDSA, ALG[hash_alg]) +
            tpm2b(r.to_bytes(n, "big")) + tpm2b(s.to_bytes(n, "big")))


def plain_sign(key, msg):
    """What `tpm2_quote -f plain` / `openssl dgst -sign` writes."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
    if isinstance(key, rsa.RSAPrivateKey):
        return key.sign(msg, padding.PKCS1v15(), hashes.SHA256())
    return key.sign(msg, ec.ECDSA(hashes.SHA256()))


def public_pem(key):
    from cryptography.hazmat.primitives import serialization as s
    return key.public_key().public_bytes(
        s.Encoding.PEM, s.PublicFormat.SubjectPublicKeyInfo)


def quote_case(write, ak, ak_pem, name, st, nonce, sel_pcrs):
    """A genuine quote of st (sha256 bank, sel_pcrs) signed by ak, written
    as NAME.msg, .sig and .vals; the ima-audit arguments that give it."""
    sel = [("sha256", sel_pcrs)]
    msg = attest(sel, st, nonce)
    write(name + ".msg", msg)
    write(name + ".sig", sign(ak, msg))
    write(name + ".vals", values(sel, st))
    return ["--quote", name + ".msg", "--quote-sig", name + ".sig",
            "--ak-pub", ak_pem, "--quote-pcrs", name + ".vals",
            "--nonce", nonce.hex()]
