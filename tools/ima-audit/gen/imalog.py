# SPDX-License-Identifier: GPL-2.0-only
"""Build IMA binary measurement lists with real template hashes.

The layout follows the kernel (security/integrity/ima/ima_fs.c,
ima_template_lib.c, ima_crypto.c): records of u32 pcr, sha1 template
digest, u32 name length, name, u32 data length (not for "ima"), data.
PCRs are extended the way ima_pcr_extend() does, violations with 0xff.
"""
import collections
import copy
import hashlib
import os
import struct

HASH_IDS = {"md5": 1, "sha1": 2, "sha256": 4, "sha384": 5, "sha512": 6,
            "sha224": 7}
BANKS = ("sha1", "sha256")


def d_ng(alg, digest):
    return alg.encode() + b":\0" + digest


def n_ng(path):
    return path.encode() + b"\0"


def sig_v2(hash_alg, keyid, sig):
    """evmctl v2 signature: type 3, version 2, hash algo, keyid, size."""
    return struct.pack(">BBB4sH", 3, 2, HASH_IDS[hash_alg], keyid,
                       len(sig)) + sig


class Log:
    def __init__(self, endian="little"):
        self.e = "<" if endian == "little" else ">"
        self.parts = []
        self.pcrs = {b: {} for b in BANKS}
        self.count = 0

    def u32(self, v):
        return struct.pack(self.e + "I", v)

    def _extend(self, pcr, data, violation):
        for bank in BANKS:
            size = hashlib.new(bank).digest_size
            old = self.pcrs[bank].get(pcr, b"\0" * size)
            new = b"\xff" * size if violation else \
                hashlib.new(bank, data).digest()
            self.pcrs[bank][pcr] = hashlib.new(bank, old + new).digest()

    def add(self, template, fields, pcr=10, violation=False,
            digest_override=None):
        """fields: list of bytes, one per template field."""
        name = template if isinstance(template, bytes) else \
            template.encode()
        if template == "ima":
            d, n = fields
            data = d + self.u32(len(n)) + n
            hashed = d + n.ljust(256, b"\0")
            body = data
        else:
            data = b"".join(self.u32(len(f)) + f for f in fields)
            hashed = data
            body = self.u32(len(data)) + data
        digest = b"\0" * 20 if violation else hashlib.sha1(hashed).digest()
        if digest_override is not None:
            digest = digest_override
        self._extend(pcr, hashed, violation)
        self.parts.append(self.u32(pcr) + digest + self.u32(len(name)) +
                          name + body)
        self.count += 1

    def raw(self, data):
        """Append bytes as they are (for hostile fixtures)."""
        self.parts.append(data)

    def bytes(self):
        return b"".join(self.parts)


def boot_pcrs(seed=b"boot"):
    """Deterministic PCR 0-9 values for both banks."""
    out = {}
    for bank in BANKS:
        out[bank] = {i: hashlib.new(bank, seed + bytes([i])).digest()
                     for i in range(10)}
    return out


def boot_aggregate(pcrs, bank):
    n = 8 if bank == "sha1" else 10
    return hashlib.new(bank, b"".join(pcrs[bank][i]
                                      for i in range(n))).digest()


def pcr_lines(log, boot, pcrs=(10,)):
    """Format A ('sha256:10 HEX') for PCR 0-9 and the replayed PCRs."""
    lines = []
    for bank in BANKS:
        for i in range(10):
            lines.append("%s:%d %s" % (bank, i, boot[bank][i].hex()))
        for p in pcrs:
            size = hashlib.new(bank).digest_size
            v = log.pcrs[bank].get(p, b"\0" * size)
            lines.append("%s:%d %s" % (bank, p, v.hex().upper()))
    return "\n".join(lines) + "\n"


def evmctl_pcrs(log, boot, bank):
    """evmctl 1.4 --pcrs file: 'PCR-NN: HEX' for PCR 0..23 in order."""
    size = hashlib.new(bank).digest_size
    lines = []
    for i in range(24):
        v = boot[bank].get(i) or log.pcrs[bank].get(i, b"\0" * size)
        lines.append("PCR-%02d: %s" % (i, v.hex()))
    return "\n".join(lines) + "\n"


# --- keys and signatures (python3-cryptography), imported lazily ---

def make_key(kind, cn="ima-audit test key"):
    """A throwaway key and self-signed cert with SKID = sha1(pubkey)."""
    import datetime
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec, rsa
    from cryptography.x509.oid import NameOID

    if kind == "rsa":
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    else:
        key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])
    now = datetime.datetime(2024, 1, 1)
    cert = (x509.CertificateBuilder()
            .subject_name(name).issuer_name(name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now)
            .not_valid_after(now + datetime.timedelta(days=3650))
            .add_extension(x509.BasicConstraints(ca=False, path_length=None),
                           critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(
                key.public_key()), critical=False)
            .sign(key, hashes.SHA256()))
    return key, cert


def keyid(cert):
    from cryptography import x509
    ski = cert.extensions.get_extension_for_class(x509.SubjectKeyIdentifier)
    return ski.value.digest[-4:]


def _hash_obj(alg):
    from cryptography.hazmat.primitives import hashes
    return {"md5": hashes.MD5(), "sha1": hashes.SHA1(),
            "sha256": hashes.SHA256(), "sha384": hashes.SHA384(),
            "sha512": hashes.SHA512()}[alg]


def sign_digest(key, alg, digest):
    from cryptography.hazmat.primitives.asymmetric import ec, padding, rsa
    from cryptography.hazmat.primitives.asymmetric.utils import Prehashed
    if isinstance(key, rsa.RSAPrivateKey):
        return key.sign(digest, padding.PKCS1v15(),
                        Prehashed(_hash_obj(alg)))
    return key.sign(digest, ec.ECDSA(Prehashed(_hash_obj(alg))))


def modsig(key, cert, alg, content):
    """Detached PKCS#7 without attributes, like scripts/sign-file."""
    from cryptography.hazmat.primitives.serialization import Encoding
    from cryptography.hazmat.primitives.serialization import pkcs7
    opts = [pkcs7.PKCS7Options.DetachedSignature,
            pkcs7.PKCS7Options.NoAttributes, pkcs7.PKCS7Options.NoCerts,
            pkcs7.PKCS7Options.Binary]
    return (pkcs7.PKCS7SignatureBuilder().set_data(content)
            .add_signer(cert, key, _hash_obj(alg))
            .sign(Encoding.DER, opts))


def write_cert(cert, path):
    from cryptography.hazmat.primitives.serialization import Encoding
    with open(path, "wb") as f:
        f.write(cert.public_bytes(Encoding.DER if path.endswith(".der")
                                  else Encoding.PEM))


def write_key(key, path):
    import os
    from cryptography.hazmat.primitives import serialization as s
    data = key.private_bytes(s.Encoding.PEM, s.PrivateFormat.PKCS8,
                             s.NoEncryption())
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)


class Entry(collections.namedtuple(
        "Entry", "start end pcr digest name data data_off")):
    """One record of a binary measurement list: its bytes data[start:end],
    the PCR, the sha1 template digest as logged, the template name, the
    template data (the fields, each u32 length and bytes) and where that
    data starts in the list."""
    __slots__ = ()


def entries(data, endian="little"):
    """Read a binary measurement list: the project's one reader in Python.

    Returns an Entry for each record, in order; the inverse of Log.add()
    for every template but "ima" (which has no template data length).
    Raises ValueError on a record that runs past the end.
    """
    e = "<" if endian == "little" else ">"
    off, out = 0, []
    while off < len(data):
        start = off
        if off + 28 > len(data):
            raise ValueError("truncated record header at %d" % off)
        pcr, = struct.unpack_from(e + "I", data, off)
        nlen, = struct.unpack_from(e + "I", data, off + 24)
        name = data[off + 28:off + 28 + nlen]
        off += 28 + nlen
        if off + 4 > len(data):
            raise ValueError("truncated record at %d" % start)
        dlen, = struct.unpack_from(e + "I", data, off)
        if off + 4 + dlen > len(data):
            raise ValueError("template data past the end at %d" % start)
        out.append(Entry(start, off + 4 + dlen, pcr, data[start + 4:start + 24],
                         name.decode(),
                         data[off + 4:off + 4 + dlen], off + 4))
        off += 4 + dlen
    return out


def fields(data, endian="little"):
    """The fields of an Entry's template data (u32 length, bytes each)."""
    e = "little" if endian == "little" else "big"
    f, off = [], 0
    while off + 4 <= len(data):
        n = int.from_bytes(data[off:off + 4], e)
        f.append(data[off + 4:off + 4 + n])
        off += 4 + n
    return f


def records(data, endian="little"):
    """(start, end, template name, template data offset) of each record:
    entries() in the shape the generators use."""
    return [(r.start, r.end, r.name, r.data_off)
            for r in entries(data, endian)]


def pcr_state(boot, log):
    """The PCR values of every bank after boot's values and log's entries."""
    st = copy.deepcopy(boot)
    for bank in BANKS:
        st[bank].update(copy.deepcopy(log.pcrs[bank]))
    return st


def relabel(data, index, name):
    """The list with record index given template name, data unchanged."""
    start, end, old, doff = records(data)[index]
    rec = (data[start:start + 24] + struct.pack("<I", len(name)) +
           name.encode() + data[start + 28 + len(old):end])
    return data[:start] + rec + data[end:]


def write_case(write, name, reason, data, args, exit_, fails=(), has=(),
               errhas=(), todo=None):
    """A runner case (tests/run-cases.py): NAME.bin, .args and .expect,
    the expectation written from how the case was built (todo: a known
    limitation, why the expectation does not hold yet)."""
    write(name + ".bin", data)
    write(name + ".args", (" ".join(args + [name + ".bin"]) + "\n").encode())
    lines = ["# %s" % reason, "exit %d" % exit_]
    lines += ["fail %s %s" % f for f in sorted(set(fails), key=str)]
    lines += ["stdout-has %s" % h for h in has]
    lines += ["stderr-has %s" % h for h in errhas]
    if todo:
        lines.append("todo %s" % todo)
    write(name + ".expect", ("\n".join(lines) + "\n").encode())


# what the red-team boots share: the PCRs a quote covers (0-10) and the
# policies they load, the strict one appraising every executable
QUOTE_PCRS = list(range(11))
STRICT_POLICY = b"appraise func=BPRM_CHECK appraise_type=imasig\n" \
                b"measure func=FILE_CHECK mask=MAY_READ uid=0\n"
PERMISSIVE_POLICY = b"measure func=BPRM_CHECK\n"


class Fixtures:
    """One generator's share of a fixture directory: the files whose
    names start with one of prefixes are its own and are removed first
    (prefix "": the whole directory); case() writes a runner case
    (tests/run-cases.py). With a seed, its boot: boot (boot_pcrs(seed))
    and agg (that boot's sha256 boot_aggregate)."""

    def __init__(self, out, prefixes, seed=None):
        self.out = out
        if seed is not None:
            self.boot = boot_pcrs(seed)
            self.agg = boot_aggregate(self.boot, "sha256")
        os.makedirs(out, exist_ok=True)
        for f in os.listdir(out):
            if f.startswith(tuple(prefixes)):
                os.unlink(os.path.join(out, f))

    def write(self, name, data):
        with open(os.path.join(self.out, name), "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())

    def case(self, name, reason, data, args, exit_, fails=(), has=(),
             errhas=(), todo=None):
        write_case(self.write, name, reason, data, args, exit_, fails, has,
                   errhas, todo)
