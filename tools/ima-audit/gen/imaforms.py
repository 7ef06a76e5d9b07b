# SPDX-License-Identifier: GPL-2.0-only
"""The other forms the kernel writes a measurement list in, made from a
binary_runtime_measurements list the way the kernel makes them:

 * ascii(): ascii_runtime_measurements, ima_ascii_measurements_show() in
   security/integrity/ima/ima_fs.c with the field_show functions of
   ima_template_lib.c ("%2d " PCR, hex template digest, name, then ' '
   and each non-empty field: hex, "algo:" + hex, a string, or a number);
 * per_bank(): binary_runtime_measurements_<bank> (Linux 6.10+): the same
   records, each template digest the bank's hash of the template data
   (ima_calc_field_array_hash), violations all zeros.

Written from the kernel's code, not from ima-audit's reader: the tests
that feed these forms to ima-audit expect the verdicts of the binary list
they were made from. A record the kernel cannot have written in a way the
ASCII form renders faithfully (an unknown template, a string field with a
space, newline or inner NUL, a number field of an odd size) raises
NotRenderable with the reason.
"""
import hashlib
import struct

BUILTINS = {
    "ima": "d|n",
    "ima-ng": "d-ng|n-ng",
    "ima-sig": "d-ng|n-ng|sig",
    "ima-ngv2": "d-ngv2|n-ng",
    "ima-sigv2": "d-ngv2|n-ng|sig",
    "ima-buf": "d-ng|n-ng|buf",
    "ima-modsig": "d-ng|n-ng|sig|d-modsig|modsig",
    "evm-sig": "d-ng|n-ng|evmsig|xattrnames|xattrlengths|xattrvalues|"
               "iuid|igid|imode",
}
# ima_template.c supported_fields[]: field_show of each field
SHOW = {
    "d": "hex", "n": "string", "d-ng": "digest", "d-ngv2": "digest",
    "n-ng": "string", "sig": "hex", "buf": "hex", "d-modsig": "digest",
    "modsig": "hex", "evmsig": "hex", "iuid": "uint", "igid": "uint",
    "imode": "uint", "xattrnames": "string", "xattrlengths": "hex",
    "xattrvalues": "hex",
}


class NotRenderable(Exception):
    pass


def template_fields(name):
    fmt = BUILTINS.get(name, name)
    ids = fmt.split("|")
    if not all(i in SHOW for i in ids):
        raise NotRenderable("unknown template %r" % name)
    return ids


def parse(data, endian="<", digest_len=20):
    """(pcr, digest, name, [field bytes]) per record."""
    off, out = 0, []
    while off < len(data):
        if off + 8 + digest_len > len(data):
            raise NotRenderable("truncated record at %d" % off)
        pcr = struct.unpack_from(endian + "I", data, off)[0]
        digest = data[off + 4:off + 4 + digest_len]
        off += 4 + digest_len
        nlen = struct.unpack_from(endian + "I", data, off)[0]
        name = data[off + 4:off + 4 + nlen].decode("latin-1")
        off += 4 + nlen
        ids = template_fields(name)
        fields = []
        if name == "ima":
            d = data[off:off + 20]
            n = struct.unpack_from(endian + "I", data, off + 20)[0]
            fields = [d, data[off + 24:off + 24 + n]]
            off += 24 + n
        else:
            dlen = struct.unpack_from(endian + "I", data, off)[0]
            end = off + 4 + dlen
            p = off + 4
            for _ in ids:
                flen = struct.unpack_from(endian + "I", data, p)[0]
                fields.append(data[p + 4:p + 4 + flen])
                p += 4 + flen
            if p != end or end > len(data):
                raise NotRenderable("record at %d does not frame" % off)
            off = end
        out.append((pcr, digest, name, fields))
    return out


def _string(b, legacy):
    if legacy:
        s = b
    else:
        if not b.endswith(b"\0") or b"\0" in b[:-1]:
            raise NotRenderable("a string field not ending in its NUL")
        s = b[:-1]
    if b" " in s or b"\n" in s or b"\0" in s:
        raise NotRenderable("a space or newline in a string field (the "
                            "kernel writes '_' for a space)")
    return s


def show(fid, b, endian, legacy):
    kind = SHOW[fid]
    if kind == "hex":
        return b.hex().encode()
    if kind == "string":
        if fid == "xattrnames":
            if b" " in b or b"\n" in b or b"\0" in b:
                raise NotRenderable("a space, newline or NUL in xattrnames")
            return b
        return _string(b, legacy)
    if kind == "digest":
        nul = b.find(b"\0")
        if nul < 1 or b[nul - 1:nul] != b":":
            raise NotRenderable("a digest field without 'algo:\\0'")
        return b[:nul] + b[nul + 1:].hex().encode()
    fmt = {1: "B", 2: "H", 4: "I", 8: "Q"}.get(len(b))
    if not fmt:
        raise NotRenderable("a number field of %d bytes" % len(b))
    return str(struct.unpack(endian + fmt, b)[0]).encode()


def ascii(data, endian="<", digest_len=20):
    lines = []
    for pcr, digest, name, fields in parse(data, endian, digest_len):
        ids = template_fields(name)
        line = b"%2d " % pcr + digest.hex().encode() + b" " + \
            name.encode("latin-1")
        for fid, b in zip(ids, fields):
            line += b" "
            if b:
                line += show(fid, b, endian, name == "ima")
        lines.append(line + b"\n")
    return b"".join(lines)


def _hashed(name, fields, endian):
    if name == "ima":
        return fields[0] + fields[1].ljust(256, b"\0")
    return b"".join(struct.pack(endian + "I", len(f)) + f for f in fields)


def per_bank(data, bank, endian="<"):
    """The list as binary_runtime_measurements_<bank>. A record whose sha1
    template digest is not its data's cannot be carried over (which wrong
    digest would the other bank have logged?): NotRenderable."""
    out = []
    for pcr, digest, name, fields in parse(data, endian, 20):
        hashed = _hashed(name, fields, endian)
        if digest == b"\0" * 20:
            new = b"\0" * hashlib.new(bank).digest_size
        elif hashlib.sha1(hashed).digest() != digest:
            raise NotRenderable("a record whose template digest is not "
                                "its data's")
        else:
            new = hashlib.new(bank, hashed).digest()
        nm = name.encode("latin-1")
        if name == "ima":
            body = fields[0] + struct.pack(endian + "I", len(fields[1])) + \
                fields[1]
        else:
            body = b"".join(struct.pack(endian + "I", len(f)) + f
                            for f in fields)
            body = struct.pack(endian + "I", len(body)) + body
        out.append(struct.pack(endian + "I", pcr) + new +
                   struct.pack(endian + "I", len(nm)) + nm + body)
    return b"".join(out)


if __name__ == "__main__":
    # imaforms.py ascii|sha256|sha256-ascii IN OUT: one form of a list
    import sys
    form, src, dst = sys.argv[1:4]
    with open(src, "rb") as f:
        data = f.read()
    e = "<" if not data or struct.unpack_from("<I", data)[0] <= 23 else ">"
    try:
        if form == "ascii":
            body = ascii(data, e)
        elif form == "sha256":
            body = per_bank(data, "sha256", e)
        else:
            body = ascii(per_bank(data, "sha256", e), e, 32)
    except (NotRenderable, struct.error) as why:
        sys.exit("%s: %s" % (src, why))
    with open(dst, "wb") as f:
        f.write(body)
