#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Reference data (--manifest, --exclude): the cases in tests/reference.

A Keylime runtime policy given to --manifest (its digests, excludes,
keyrings, ima-buf entries and verification keys, by Keylime's rules in
keylime/ima/ima.py), sha256sum's -b and --tag forms, and --exclude. Each
list is signed with throwaway keys; each expectation is written from how
the case was built: which paths and digests the policy lists, which key
signed what, and, for an exclude, whether Python's re.match (what Keylime
calls) matches the path -- the reference implementation decides, never
ima-audit. Policies Keylime's schema or this reader refuse are refused
with exit 3 (an input not of its kind) and the line named; a bad
--exclude on the command line with exit 2.

usage: mkreference.py OUT_DIR
"""
import base64
import hashlib
import json
import os
import re
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imalog  # noqa: E402
from imalog import Log, d_ng, n_ng  # noqa: E402

out = sys.argv[1]
fx = imalog.Fixtures(out, ("",), b"reference")
write, BOOT, AGG = fx.write, fx.boot, fx.agg

key, cert = imalog.make_key("rsa", "reference test IMA key")
other, other_cert = imalog.make_key("ec", "a key the policy does not name")
imalog.write_cert(cert, os.path.join(out, "ima.der"))


def der(c):
    from cryptography.hazmat.primitives.serialization import Encoding
    return c.public_bytes(Encoding.DER)


def spki(c):
    from cryptography.hazmat.primitives.serialization import (
        Encoding, PublicFormat)
    return c.public_key().public_bytes(Encoding.DER,
                                       PublicFormat.SubjectPublicKeyInfo)


def fd(i):
    return hashlib.sha256(b"reference file %d" % i).digest()


FILES = {1: "/usr/bin/f1", 2: "/usr/lib/f2.so", 3: "/tmp/f3"}
KEYCERT = der(imalog.make_key("rsa", "a key put on .ima")[1])
BUF = b"kexec-cmdline: console=ttyS0"


def build(files=(1, 2, 3), signer=None, extra=()):
    """boot_aggregate, the files (ima-sig; signed by signer, if any), a
    key measured onto .ima (entry 4 with three files), a buffer, extra
    (path, digest) pairs as unsigned ima-ng records."""
    log = Log()
    log.add("ima-ng", [d_ng("sha256", AGG), n_ng("boot_aggregate")])
    for i in files:
        sig = b""
        if signer:
            k, c = signer
            sig = imalog.sig_v2("sha256", imalog.keyid(c),
                                imalog.sign_digest(k, "sha256", fd(i)))
        log.add("ima-sig", [d_ng("sha256", fd(i)), n_ng(FILES[i]), sig])
    log.add("ima-buf", [d_ng("sha256", hashlib.sha256(KEYCERT).digest()),
                        n_ng(".ima"), KEYCERT])
    log.add("ima-buf", [d_ng("sha256", hashlib.sha256(BUF).digest()),
                        n_ng("kexec-cmdline"), BUF])
    for p, d in extra:
        log.add("ima-ng", [d_ng("sha256", d), p.encode() + b"\0"])
    return log


def policy(files=(1, 2, 3), digests=None, excludes=(), keyrings=None,
           bufs=None, ignored=(), keys=(), **over):
    p = {"meta": {"version": 1, "generator": 0}, "release": 0,
         "digests": digests if digests is not None else
         {FILES[i]: [fd(i).hex()] for i in files},
         "excludes": list(excludes),
         "keyrings": keyrings if keyrings is not None else
         {".ima": [hashlib.sha256(KEYCERT).hexdigest()]},
         "ima": {"ignored_keyrings": list(ignored), "log_hash_alg": "sha1",
                 "dm_policy": None},
         "ima-buf": bufs if bufs is not None else
         {"kexec-cmdline": [hashlib.sha256(BUF).hexdigest()]},
         "verification-keys": ""}
    if keys:
        ring = {"pubkeys": [base64.b64encode(spki(c)).decode()
                            for c in keys],
                "keyids": [int.from_bytes(imalog.keyid(c), "big")
                           for c in keys]}
        p["verification-keys"] = json.dumps(ring)
    p.update(over)
    return json.dumps(p, indent=1) + "\n"


def case(name, reason, log, ref, exit_, fails=(), has=(), extra=(),
         errhas=(), ext=".json", todo=None):
    write(name + ext, ref.encode() if isinstance(ref, str) else ref)
    write(name + ".pcrs", imalog.pcr_lines(log, BOOT).encode())
    fx.case(name, reason, log.bytes(),
            ["--pcrs", name + ".pcrs", "--manifest", name + ext] +
            [shlex.quote(a) for a in extra], exit_, fails, has, errhas,
            todo)


def excluded_by(patterns, path):
    """What Keylime decides: re.match of the patterns joined as it joins
    them (keylime/common/validators.py valid_exclude_list)."""
    return bool(re.match("(" + ")|(".join(patterns) + ")", path))


# --- a Keylime runtime policy as the reference ------------------------
case("keylime-control", "control: every file, the key on .ima and the "
     "buffer are in the policy: pass", build(), policy(), 0,
     has=["keylime policy: keylime-control.json (version 1): 1 keyring(s), "
          "1 ima-buf name(s), 0 exclude(s), 0 verification key(s); "
          "buffers 2 checked, 2 match"])
case("keylime-unknown-path", "a file the policy does not list: "
     "manifest-path (Keylime: not_in_allowlist)", build(),
     policy(files=(1, 2)), 1, fails=[("3", "manifest-path")])
case("keylime-wrong-digest", "a file listed with another digest: "
     "manifest-digest (Keylime: runtime_policy_hash)", build(),
     policy(digests={FILES[1]: [fd(1).hex()], FILES[2]: [fd(9).hex()],
                     FILES[3]: [fd(3).hex()]}), 1,
     fails=[("2", "manifest-digest")])
case("keylime-several-digests", "control: a path may list several "
     "digests; one matching is enough", build(),
     policy(digests={FILES[1]: [fd(8).hex(), fd(1).hex()],
                     FILES[2]: [fd(2).hex()], FILES[3]: [fd(3).hex()]}),
     0)
case("keylime-sha1-digest", "a path listed with a sha1 digest only, "
     "measured with sha256: no digest of its algorithm (manifest-algorithm)",
     build(), policy(digests={FILES[1]: [hashlib.sha1(b"x").hexdigest()],
                              FILES[2]: [fd(2).hex()],
                              FILES[3]: [fd(3).hex()]}), 1,
     fails=[("1", "manifest-algorithm")])
assert excluded_by(["/tmp/.*"], FILES[3])
case("keylime-excluded", "the unlisted file's path matches the policy's "
     "exclude /tmp/.* (re.match): never judged, counted", build(),
     policy(files=(1, 2), excludes=["/tmp/.*"]), 0,
     has=["excluded:       1 entries never judged (1 pattern(s))"])
assert not excluded_by(["tmp/f3"], FILES[3])
case("keylime-exclude-anchored", "an exclude that matches inside the path "
     "but not at its start (tmp/f3 against /tmp/f3): re.match is anchored, "
     "so the file is judged", build(), policy(files=(1, 2),
                                               excludes=["tmp/f3"]), 1,
     fails=[("3", "manifest-path")])
PAT = r"(?:/usr)?/t[^/]{1,2}p/\w+\d$"
assert excluded_by([PAT], FILES[3])
case("keylime-exclude-translated", "an exclude with Python-only syntax "
     "that POSIX ERE says another way ((?:), \\w, \\d, {1,2}): the same "
     "paths match", build(), policy(files=(1, 2), excludes=[PAT]), 0,
     has=["excluded:       1 entries never judged"])
assert not excluded_by([r"/tmp/f\d\d"], FILES[3])
case("keylime-exclude-no-match", "an exclude \\d\\d that /tmp/f3 does not "
     "match: judged", build(), policy(files=(1, 2),
                                      excludes=[r"/tmp/f\d\d"]), 1,
     fails=[("3", "manifest-path")])
case("keylime-exclude-lookahead", "an exclude with a lookahead, which "
     "POSIX ERE cannot say: the policy is refused, never mis-matched",
     build(), policy(excludes=["/tmp/(?!keep)"]), 3,
     errhas=["excludes[0]: '/tmp/(?!keep)': byte 6: '(?!': lookaround"])
case("keylime-exclude-backref", "an exclude with a backreference: "
     "refused", build(), policy(excludes=[r"/(a)\1"]), 3,
     errhas=["a backreference or an octal escape"])
NONASCII = "/tmp/caf\u00e9"
assert excluded_by(["/tmp/caf.*"], NONASCII)
case("keylime-exclude-non-ascii", "a path with bytes outside printable "
     "ASCII that Python's re.match excludes (/tmp/caf.* against "
     "/tmp/caf\\u00e9): Keylime never judges it", build(
         extra=[(NONASCII, fd(5))]), policy(excludes=["/tmp/caf.*"]), 0,
     todo="paths outside printable ASCII are tested against no exclude "
     "(characters and bytes can match differently), so this one is judged "
     "and fails manifest-path: failing closed (README: --exclude)")
case("keylime-signed", "files in no digest list but signed by a "
     "verification key of the policy: accepted, as Keylime accepts them",
     build(signer=(key, cert)), policy(files=(), keys=[cert]), 0,
     has=["3 signed by a verification key"])
case("keylime-signed-other-key", "files signed by a key the policy does "
     "not name, in no digest list: each fails manifest-path",
     build(signer=(other, other_cert)), policy(files=(1,), keys=[cert]), 1,
     fails=[("2", "manifest-path"), ("3", "manifest-path")])
case("keylime-buf-unknown", "a buffer whose name the policy's ima-buf "
     "does not list: manifest-path", build(), policy(bufs={}), 1,
     fails=[("5", "manifest-path")])
case("keylime-buf-wrong-digest", "a buffer listed with another digest: "
     "manifest-digest", build(),
     policy(bufs={"kexec-cmdline": [fd(7).hex()]}), 1,
     fails=[("5", "manifest-digest")])
case("keylime-key-wrong-digest", "a key measured onto .ima that the "
     "policy's keyrings list with another digest: manifest-digest", build(),
     policy(keyrings={".ima": [fd(7).hex()]}), 1,
     fails=[("4", "manifest-digest")])
case("keylime-key-ignored", "control: the same key on a keyring the "
     "policy ignores (ima.ignored_keyrings): not judged", build(),
     policy(keyrings={}, ignored=[".ima"]), 0)
case("keylime-boot-aggregate", "the policy lists a boot_aggregate digest "
     "that is not the list's: manifest-digest (Keylime checks it by name)",
     build(), policy(digests={"boot_aggregate": [fd(6).hex()],
                              FILES[1]: [fd(1).hex()],
                              FILES[2]: [fd(2).hex()],
                              FILES[3]: [fd(3).hex()]}), 1,
     fails=[("0", "manifest-digest")])

# --- policies refused: Keylime's schema, or what a reader could read two
# ways; exit 3, the line named
L = build()


def refused(name, reason, text, errhas):
    case(name, reason, L, text, 3, errhas=errhas)


refused("keylime-bad-version", "meta.version 2: a format this reader does "
        "not know", policy(meta={"version": 2}),
        ["keylime-bad-version.json:3: meta.version 2"])
refused("keylime-no-meta", "no meta: an old allowlist, not a runtime "
        "policy", json.dumps({"digests": {}}) + "\n",
        ["no \"meta\": {\"version\": N}"])
refused("keylime-duplicate-path", "a path listed twice in digests (Python "
        "keeps the last, another reader the first): refused",
        policy().replace('"digests": {', '"digests": {\n  "/usr/bin/f1": '
                         '["%s"],' % fd(9).hex(), 1),
        ["duplicate key '/usr/bin/f1'"])
refused("keylime-uppercase-digest", "an uppercase digest (Keylime's "
        "schema: ^[0-9a-f]{40,128}$)",
        policy(digests={FILES[1]: [fd(1).hex().upper()]}),
        ["not lowercase hex"])
refused("keylime-odd-digest", "a digest of 50 hex digits: of no "
        "algorithm", policy(digests={FILES[1]: ["a" * 50]}),
        ["a digest of 50 hex digits is of no algorithm"])
refused("keylime-lone-surrogate", "a path holding a lone surrogate "
        "(\\udcff, what Python writes for an undecodable byte): no "
        "character, refused",
        policy().replace("/usr/bin/f1", "/usr/bin/f\\udcff"),
        ["lone surrogate \\udcff"])
refused("keylime-dm-policy", "a device-mapper policy: not read here, so "
        "refused rather than ignored",
        policy(ima={"ignored_keyrings": [], "log_hash_alg": "sha1",
                    "dm_policy": {"version": 1}}),
        ["dm_policy"])
refused("keylime-dsse", "a DSSE-signed policy: its payload must be "
        "verified and extracted first",
        json.dumps({"payload": "e30=", "payloadType": "x",
                    "signatures": []}) + "\n", ["DSSE"])
refused("keylime-bad-key", "a verification key that is not base64 DER",
        policy(**{"verification-keys":
                  json.dumps({"pubkeys": ["AAAA"], "keyids": []})}),
        ["pubkeys[0]"])

# --- sha256sum's -b and --tag forms as --manifest ----------------------
MF = {i: (FILES[i], fd(i)) for i in FILES}
case("manifest-binary-mode", "control: a manifest in sha256sum -b form "
     "('HEX *PATH')", build(), "".join("%s *%s\n" % (d.hex(), p)
                                       for p, d in MF.values()), 0,
     ext=".sums")
case("manifest-tag-form", "control: a manifest in sha256sum --tag form "
     "('SHA256 (PATH) = HEX')", build(),
     "".join("SHA256 (%s) = %s\n" % (p, d.hex()) for p, d in MF.values()),
     0, ext=".sums")
case("manifest-tag-wrong", "a --tag manifest listing another digest for "
     "one file: manifest-digest", build(),
     "".join("SHA256 (%s) = %s\n" % (p, (fd(9) if i == 2 else d).hex())
             for i, (p, d) in MF.items()), 1,
     fails=[("2", "manifest-digest")], ext=".sums")
case("manifest-tag-md5", "an MD5 --tag line: collision-prone, the "
     "manifest is refused (the one weak-digest rule)", build(),
     "MD5 (/usr/bin/f1) = %s\n" % hashlib.md5(b"x").hexdigest(), 3,
     errhas=["manifest-tag-md5.sums:1: md5 digests are collision-prone"],
     ext=".sums")
assert excluded_by([r"/tmp/f\d"], FILES[3])
case("manifest-exclude", "--exclude on the command line, with a "
     "sha256sum manifest that lacks the file: never judged", build(),
     "".join("%s  %s\n" % (d.hex(), p) for i, (p, d) in MF.items()
             if i != 3), 0, extra=["--exclude", r"/tmp/f\d"],
     has=["excluded:       1 entries never judged (1 pattern(s))"],
     ext=".sums")
case("manifest-exclude-refused", "--exclude with a lookbehind: the command "
     "line is refused (exit 2), never a pattern matched differently",
     build(), "".join("%s  %s\n" % (d.hex(), p) for p, d in MF.values()), 2,
     extra=["--exclude", "(?<=/tmp)/f3"],
     errhas=["--exclude: '(?<=/tmp)/f3': byte 1: '(?<': lookaround"],
     ext=".sums")

# --- the guest's real list (tests/real) against a policy with no digest
# and the real IMA key as its verification key: every file whose signature
# verifies passes, by Keylime's rule; the rest fails manifest-path. Which
# entries are signed comes from the list's sig fields, which of those fail
# from the real fixtures' own expectation (real-pcrs-keys: tampered and
# rogue-signed), never from a run of ima-audit.
REAL = os.path.join(out, "..", "real")


with open(os.path.join(REAL, "list.bin"), "rb") as fh:
    real = imalog.entries(fh.read())
with open(os.path.join(REAL, "real-pcrs-keys.expect")) as fh:
    sig_bad = {int(ln.split()[1]) for ln in fh if ln.startswith("fail ")}
with open(os.path.join(REAL, "ima.der"), "rb") as fh:
    from cryptography import x509 as _x509
    real_cert = _x509.load_der_x509_certificate(fh.read())
fails = []
for i, e in enumerate(real):
    fl = imalog.fields(e.data)
    name = fl[1].rstrip(b"\0")
    if i == 0 and name == b"boot_aggregate":
        continue            # the policy lists none: not judged
    if e.name == "ima-sig" and len(fl) == 3 and fl[2] and i not in sig_bad:
        continue            # verified with the policy's key
    fails.append((str(i), "manifest-path"))
write("keylime-real-signed.json", policy(files=(), keyrings={}, bufs={},
                                         keys=[real_cert]).encode())
write("keylime-real-signed.args",
      b"--pcrs ../real/pcrs.txt --manifest keylime-real-signed.json "
      b"../real/list.bin\n")
write("keylime-real-signed.expect", (
    "# the guest's real list, a policy without digests whose verification "
    "key is the real IMA key: the %d files signed with it pass, the rest "
    "(unsigned, tampered, rogue-signed, buffers) fail\nexit 1\n" %
    (len(real) - 1 - len(fails)) +
    "".join("fail %s %s\n" % f for f in sorted(fails, key=str))).encode())
