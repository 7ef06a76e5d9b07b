#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""prefix.py LIST PCRS N OUT.ima OUT.pcrs: the first N entries of an IMA
list (ima-ng/ima-sig, little-endian) and its PCR values: PCRs other than 10
copied from PCRS, PCR 10 replayed here (sha1 as logged, sha256 over the
template data)."""
import hashlib
import struct
import sys

lst, pcrs, n, out, outp = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
b = open(lst, "rb").read()
off = 0
p1, p256 = bytes(20), bytes(32)
for _ in range(n):
    digest = b[off + 4:off + 24]
    nlen, = struct.unpack_from("<I", b, off + 24)
    off += 28 + nlen
    dlen, = struct.unpack_from("<I", b, off)
    data = b[off + 4:off + 4 + dlen]
    off += 4 + dlen
    p1 = hashlib.sha1(p1 + digest).digest()
    p256 = hashlib.sha256(p256 + hashlib.sha256(data).digest()).digest()
open(out, "wb").write(b[:off])
with open(outp, "w") as o:
    for line in open(pcrs):
        if line.split()[0] not in ("sha1:10", "sha256:10"):
            o.write(line)
    o.write(f"sha1:10 {p1.hex()}\nsha256:10 {p256.hex()}\n")
