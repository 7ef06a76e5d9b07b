#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""prefix.py LIST PCRS N OUT.ima OUT.pcrs: the first N entries of an IMA
list (ima-ng/ima-sig, little-endian) and its PCR values: PCRs other than 10
copied from PCRS, PCR 10 replayed here (sha1 as logged, sha256 over the
template data)."""
import hashlib
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "ima-audit", "gen"))
from imalog import entries  # noqa: E402

lst, pcrs, n, out, outp = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
b = open(lst, "rb").read()
off = 0
p1, p256 = bytes(20), bytes(32)
for e in entries(b)[:n]:
    p1 = hashlib.sha1(p1 + e.digest).digest()
    p256 = hashlib.sha256(p256 + hashlib.sha256(e.data).digest()).digest()
    off = e.end
open(out, "wb").write(b[:off])
with open(outp, "w") as o:
    for line in open(pcrs):
        if line.split()[0] not in ("sha1:10", "sha256:10"):
            o.write(line)
    o.write(f"sha1:10 {p1.hex()}\nsha256:10 {p256.hex()}\n")
