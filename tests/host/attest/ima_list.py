#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""List helpers for the host tests and scripts, in Python (independent of
ima-audit's C): IMA binary lists (ima-ng / ima-sig, little endian), read
with the project's one Python reader (imalog.entries, in
tools/ima-audit/gen), and the firmware's crypto-agile event log.

    ima_list.py entries LIST          one line per entry: START END SHA1 SHA256
                                      (START and END its byte offsets, SHA1
                                      as logged, SHA256 over the data)
    ima_list.py unsigned PATH OUT     an ima-sig entry for PATH without a
                                      signature (template hash computed)
    ima_list.py buf NAME TEXT OUT     an ima-buf entry (critical data NAME,
                                      TEXT its buffer), as the kernel logs it
    ima_list.py alter LIST N OUT      entry N's file digest changed, its
                                      template hash recomputed
    ima_list.py rename LIST NAME OUT  every entry logged under template NAME
                                      (its data, template hash and so its
                                      PCR extends unchanged: no bank hashes
                                      the template name)
    ima_list.py evlog-extends LOG     the firmware log's extends as
                                      tpm2_pcrextend arguments
"""
import hashlib
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "tools", "ima-audit", "gen"))
from imalog import entries  # noqa: E402


def record(data, name=b"ima-sig"):
    return (struct.pack("<I", 10) + hashlib.sha1(data).digest() +
            struct.pack("<I", len(name)) + name + struct.pack("<I", len(data)) + data)


def field(x):
    return struct.pack("<I", len(x)) + x


def main():
    cmd = sys.argv[1]
    if cmd == "entries":
        b = open(sys.argv[2], "rb").read()
        for e in entries(b):
            print(e.start, e.end, e.digest.hex(), hashlib.sha256(e.data).hexdigest())
    elif cmd == "unsigned":
        d = field(b"sha256:\0" + os.urandom(32)) + field(sys.argv[2].encode() + b"\0") + field(b"")
        open(sys.argv[3], "wb").write(record(d))
    elif cmd == "buf":
        buf = sys.argv[3].encode()
        d = (field(b"sha256:\0" + hashlib.sha256(buf).digest()) +
             field(sys.argv[2].encode() + b"\0") + field(buf))
        open(sys.argv[4], "wb").write(record(d, b"ima-buf"))
    elif cmd == "alter":
        b = bytearray(open(sys.argv[2], "rb").read())
        n = int(sys.argv[3])
        e = entries(bytes(b))[n]
        data = bytearray(e.data)
        data[4 + 8] ^= 1  # first byte of the d-ng digest
        rec = record(bytes(data), e.name.encode())
        open(sys.argv[4], "wb").write(bytes(b[:e.start]) + rec + bytes(b[e.end:]))
    elif cmd == "rename":
        b = open(sys.argv[2], "rb").read()
        out = b""
        for e in entries(b):
            out += (struct.pack("<I", e.pcr) + e.digest +
                    struct.pack("<I", len(sys.argv[3])) + sys.argv[3].encode() +
                    struct.pack("<I", len(e.data)) + e.data)
        open(sys.argv[4], "wb").write(out)
    elif cmd == "evlog-extends":
        b = open(sys.argv[2], "rb").read()
        size, = struct.unpack_from("<I", b, 28)
        spec = b[32:32 + size]
        n, = struct.unpack_from("<I", spec, 24)
        sizes = dict(struct.unpack_from("<HH", spec, 28 + 4 * i) for i in range(n))
        names = {4: "sha1", 0xb: "sha256"}
        off = 32 + size
        while off < len(b):
            pcr, typ, count = struct.unpack_from("<III", b, off)
            off += 12
            ds = []
            for _ in range(count):
                alg, = struct.unpack_from("<H", b, off)
                ds.append(f"{names[alg]}={b[off + 2:off + 2 + sizes[alg]].hex()}")
                off += 2 + sizes[alg]
            esize, = struct.unpack_from("<I", b, off)
            off += 4 + esize
            if typ != 3:
                print(f"{pcr}:" + ",".join(ds))


if __name__ == "__main__":
    main()
