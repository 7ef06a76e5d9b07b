#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Generate a synthetic IMA measurement list (for benchmarks and fuzzing).

Every template hash and PCR value is computed for real; signatures are
made with a key generated now into --keydir (never committed).
"""
import argparse
import hashlib
import multiprocessing
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imalog  # noqa: E402

_KEY = None


def _init(pem):
    global _KEY
    from cryptography.hazmat.primitives import serialization
    _KEY = serialization.load_pem_private_key(pem, password=None)


def _sign(args):
    alg, digest = args
    return imalog.sign_digest(_KEY, alg, digest)


def file_digest(alg, i, seed):
    return hashlib.new(alg, b"%s content %d" % (seed.encode(), i)).digest()


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", required=True)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--template", default="ima-ng")
    ap.add_argument("--endian", default="little")
    ap.add_argument("--hash", default="sha256")
    ap.add_argument("--sign", choices=("rsa", "ecdsa"))
    ap.add_argument("--keydir")
    ap.add_argument("--seed", default="imagen")
    ap.add_argument("--policy", help="record this file as ima_policy")
    ap.add_argument("--pcr-out")
    ap.add_argument("--evmctl-pcrs", help="write PREFIX.sha1/.sha256")
    ap.add_argument("--manifest-out")
    ap.add_argument("--manifest-extra", type=int, default=0,
                    help="extra manifest paths not in the log")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    a = ap.parse_args()

    log = imalog.Log(a.endian)
    boot = imalog.boot_pcrs(a.seed.encode())
    balg = "sha1" if a.template == "ima" else a.hash
    bagg = imalog.boot_aggregate(boot, balg if balg in imalog.BANKS
                                 else "sha256")
    key = cert = None
    if a.sign:
        key, cert = imalog.make_key("rsa" if a.sign == "rsa" else "ec")
        os.makedirs(a.keydir, exist_ok=True)
        imalog.write_key(key, os.path.join(a.keydir, "key.pem"))
        imalog.write_cert(cert, os.path.join(a.keydir, "cert.der"))
        imalog.write_cert(cert, os.path.join(a.keydir, "cert.pem"))

    def fields(digest, path, sig=b""):
        if a.template == "ima":
            return [digest, path.encode()]
        f = [imalog.d_ng(a.hash if a.template != "ima" else "sha1", digest),
             imalog.n_ng(path)]
        if a.template in ("ima-sig", "ima-modsig"):
            f.append(sig)
        if a.template == "ima-modsig":
            f += [b"", b""]
        return f

    log.add(a.template, fields(bagg, "boot_aggregate"))
    if a.policy:
        with open(a.policy, "rb") as f:
            buf = f.read()
        log.add("ima-buf", [imalog.d_ng(a.hash,
                                        hashlib.new(a.hash, buf).digest()),
                            imalog.n_ng("ima_policy"), buf])
    alg = "sha1" if a.template == "ima" else a.hash
    digests = [file_digest(alg, i, a.seed) for i in range(a.count)]
    sigs = [b""] * a.count
    if key is not None:
        from cryptography.hazmat.primitives import serialization as s
        pem = key.private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8,
                                s.NoEncryption())
        kid = imalog.keyid(cert)
        with multiprocessing.Pool(a.jobs, _init, (pem,)) as pool:
            raw = pool.map(_sign, [(alg, d) for d in digests], 512)
        sigs = [imalog.sig_v2(alg, kid, r) for r in raw]
    paths = ["/usr/lib/%s/file%06d" % (a.seed, i) for i in range(a.count)]
    for d, p, sg in zip(digests, paths, sigs):
        log.add(a.template, fields(d, p, sg))

    with open(a.out, "wb") as f:
        f.write(log.bytes())
    if a.pcr_out:
        with open(a.pcr_out, "w") as f:
            f.write(imalog.pcr_lines(log, boot))
    if a.evmctl_pcrs:
        for bank in imalog.BANKS:
            with open("%s.%s" % (a.evmctl_pcrs, bank), "w") as f:
                f.write(imalog.evmctl_pcrs(log, boot, bank))
    if a.manifest_out:
        with open(a.manifest_out, "w") as f:
            for d, p in zip(digests, paths):
                f.write("%s  %s\n" % (d.hex(), p))
            for i in range(a.manifest_extra):
                f.write("%s  /opt/extra/file%07d\n" % (
                    hashlib.new(alg, b"x%d" % i).hexdigest(), i))


if __name__ == "__main__":
    main()
