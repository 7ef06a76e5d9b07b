#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The Keylime runtime policy of a signed tree (scripts/sign.sh).

    keylime-policy.py TREE OUT [--keyring KEYRING=CERT.der]...
                      [--verification-key CERT.der]...

Every regular file of TREE owned by root (uid 0: what keylime-policy
create --rootfs takes too; the negative fixtures, which must not verify,
are owned by nobody) with its sha256 digest, under its path in the guest;
each --keyring certificate a key the guest's kernel measures onto KEYRING
(an ima-buf record of that certificate); each --verification-key one whose
signatures vouch for a file in place of its digest (Keylime's
"verification-keys": the public key, its key id the certificate's subject
key identifier's last 4 bytes, as the kernel matches it). Keylime's format (keylime/ima/
types.py, meta.version 1), written as its tools write it (json.dumps);
ima-audit reads it with --manifest. A name that is not UTF-8 cannot be a
JSON string: it stops the stage, naming the file. Buffers a boot records
(the policy, kexec command lines) are in no tree: a policy of them comes
from a verified list (ima-audit --write-keylime). OUT is written to a
temporary file beside it and renamed into place.
"""
import argparse
import base64
import hashlib
import json
import os
import stat
import sys

from cryptography import x509
from cryptography.hazmat.primitives.serialization import (Encoding,
                                                          PublicFormat)

ap = argparse.ArgumentParser()
ap.add_argument("tree")
ap.add_argument("out")
ap.add_argument("--keyring", action="append", default=[])
ap.add_argument("--verification-key", action="append", default=[])
args = ap.parse_args()
tree, out = args.tree, args.out
digests = {}
for top, dirs, files in os.walk(os.fsencode(tree)):
    dirs.sort()
    for name in sorted(files):
        full = os.path.join(top, name)
        st = os.lstat(full)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != 0:
            continue
        rel = b"/" + os.path.relpath(full, os.fsencode(tree))
        try:
            path = rel.decode("utf-8")
        except UnicodeDecodeError:
            sys.exit("keylime-policy.py: %r is not UTF-8: a Keylime policy "
                     "cannot name it; rename it" % rel)
        h = hashlib.sha256()
        with open(full, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
        digests[path] = [h.hexdigest()]
keyrings = {}
for arg in args.keyring:
    ring, _, cert = arg.partition("=")
    with open(cert, "rb") as f:
        keyrings.setdefault(ring, []).append(hashlib.sha256(f.read())
                                             .hexdigest())
ring = {"pubkeys": [], "keyids": []}
for cert in args.verification_key:
    with open(cert, "rb") as f:
        c = x509.load_der_x509_certificate(f.read())
    skid = c.extensions.get_extension_for_class(x509.SubjectKeyIdentifier)
    ring["pubkeys"].append(base64.b64encode(c.public_key().public_bytes(
        Encoding.DER, PublicFormat.SubjectPublicKeyInfo)).decode())
    ring["keyids"].append(int.from_bytes(skid.value.digest[-4:], "big"))
policy = {
    "meta": {"version": 1, "generator": 0},
    "release": 0,
    "digests": digests,
    "excludes": [],
    "keyrings": {k: sorted(set(v)) for k, v in sorted(keyrings.items())},
    "ima": {"ignored_keyrings": [], "log_hash_alg": "sha1",
            "dm_policy": None},
    "ima-buf": {},
    "verification-keys": json.dumps(ring) if ring["pubkeys"] else "",
}
tmp = out + ".tmp"
with open(tmp, "w") as f:
    json.dump(policy, f, indent=1)
    f.write("\n")
os.replace(tmp, out)
print("%d files, %d keyring(s), %d verification key(s)" %
      (len(digests), len(keyrings), len(ring["pubkeys"])))
