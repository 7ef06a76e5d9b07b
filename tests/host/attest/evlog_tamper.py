#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""An attacker's edit of a firmware event log (TCG crypto-agile format),
with a parser of its own, independent of tools/ima-attest.

    evlog_tamper.py MODE IN OUT

  flip-digest   the sha256 digest of the last event that extends a PCR,
                one bit flipped (the sha1 digest left)
  remove        the last event that extends a PCR removed
  truncate      the last event cut in the middle of its digests
  spec-banks    the Spec ID's sha1 entry claims a digest size of 32
  size-huge     the last event's eventSize set to 0xffffffff

Writes what it changed to stderr: "PCR N" (the PCR whose replay must then
differ from the quote) or "parse" (the log must fail to parse).
"""
import struct
import sys


def records(b):
    """Offsets of the TCG_PCR_EVENT2 records: (start, pcr, type, digests
    [(alg, off, size)], end)."""
    size = struct.unpack_from("<I", b, 28)[0]
    spec = b[32:32 + size]
    n = struct.unpack_from("<I", spec, 24)[0]
    sizes = dict(struct.unpack_from("<HH", spec, 28 + 4 * i) for i in range(n))
    off = 32 + size
    out = []
    while off < len(b):
        start = off
        pcr, typ, count = struct.unpack_from("<III", b, off)
        off += 12
        digs = []
        for _ in range(count):
            alg = struct.unpack_from("<H", b, off)[0]
            digs.append((alg, off + 2, sizes[alg]))
            off += 2 + sizes[alg]
        esize = struct.unpack_from("<I", b, off)[0]
        off += 4 + esize
        out.append((start, pcr, typ, digs, off))
    return out


def main():
    mode, src, dst = sys.argv[1:4]
    b = bytearray(open(src, "rb").read())
    recs = [r for r in records(b) if r[2] != 3]  # not EV_NO_ACTION
    start, pcr, _, digs, end = recs[-1]
    if mode == "flip-digest":
        off = [d for d in digs if d[0] == 0x000b][0][1]
        b[off] ^= 1
        what = f"PCR {pcr}"
    elif mode == "remove":
        del b[start:end]
        what = f"PCR {pcr}"
    elif mode == "truncate":
        b = b[:digs[0][1] + 4]
        what = "parse"
    elif mode == "spec-banks":
        size = struct.unpack_from("<I", b, 28)[0]
        n = struct.unpack_from("<I", b, 32 + 24)[0]
        for i in range(n):
            o = 32 + 28 + 4 * i
            if struct.unpack_from("<H", b, o)[0] == 0x0004:
                struct.pack_into("<H", b, o + 2, 32)
        assert size
        what = "parse"
    elif mode == "size-huge":
        off = digs[-1][1] + digs[-1][2]
        struct.pack_into("<I", b, off, 0xffffffff)
        what = "parse"
    else:
        sys.exit(f"unknown mode {mode}")
    open(dst, "wb").write(b)
    print(what, file=sys.stderr)


if __name__ == "__main__":
    main()
