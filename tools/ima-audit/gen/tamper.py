#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Edit a real guest's attestation files the way an attacker would.

    tamper.py MODE IN OUT [ARG]

List modes (IN is a little-endian binary_runtime_measurements; the entry
in the middle of the list is the one changed, named on stderr):
  alter        flip one byte of its path and recompute its template hash
  alter-naive  flip the same byte, leave the template hash
  remove       drop it
  append       append a copy of the last entry (a measurement the quote
               never saw)
Quote modes (IN is a TPMS_ATTEST from tpm2_quote -m):
  set-nonce HEX    replace extraData (the qualifying data)
  set-digest FILE  replace pcrDigest (sha256, the last 32 bytes) with the
                   sha256 of FILE
Byte mode:
  flip-last    flip the last byte (of a quote.pcrs file: sha256 PCR 10)
"""
import hashlib
import struct
import sys

import imalog


def list_edit(mode, data):
    recs = imalog.records(data)
    i = len(recs) // 2          # an entry in the middle, not boot_aggregate
    start, end, name, dstart = recs[i]
    if mode == "append":
        out = data + data[recs[-1][0]:recs[-1][1]]
    elif mode == "remove":
        out = data[:start] + data[end:]
    else:
        rec = bytearray(data[start:end])
        d = dstart - start
        # the second field (n-ng, the path): u32 length, then the name
        f1 = struct.unpack_from("<I", rec, d)[0]
        rec[d + 4 + f1 + 4] ^= 0x01
        if mode == "alter":
            rec[4:24] = hashlib.sha1(bytes(rec[d:])).digest()
        out = data[:start] + bytes(rec) + data[end:]
    sys.stderr.write("entry %d (%s)\n" % (i, name))
    return out


def quote_edit(mode, data, arg):
    # TPMS_ATTEST: magic, type, TPM2B qualifiedSigner, TPM2B extraData, ...
    s = struct.unpack_from(">H", data, 6)[0]
    e = 8 + s
    elen = struct.unpack_from(">H", data, e)[0]
    if mode == "set-nonce":
        n = bytes.fromhex(arg)
        return data[:e] + struct.pack(">H", len(n)) + n + data[e + 2 + elen:]
    return data[:-32] + hashlib.sha256(open(arg, "rb").read()).digest()


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    mode, src, dst = sys.argv[1:4]
    arg = sys.argv[4] if len(sys.argv) > 4 else None
    data = open(src, "rb").read()
    if mode in ("alter", "alter-naive", "remove", "append"):
        out = list_edit(mode, data)
    elif mode in ("set-nonce", "set-digest") and arg:
        out = quote_edit(mode, data, arg)
    elif mode == "flip-last":
        out = data[:-1] + bytes([data[-1] ^ 0x01])
    else:
        sys.exit("tamper.py: unknown mode or missing argument: " + mode)
    open(dst, "wb").write(out)


if __name__ == "__main__":
    main()
