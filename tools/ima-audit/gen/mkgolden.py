#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write the golden fixtures: tests/golden/NAME.bin + NAME.args (+ inputs).

Private keys are made now into KEYDIR (build/, git-ignored) and only the
certificates are written next to the fixtures. NAME.expect is written here
from how each fixture was built: its exit status and the set of (entry,
failure class) injected (format: gen/mkredteam.py); tests/run-cases.py
compares it first. NAME.json and NAME.exit, written by `make regen-golden`
running ima-audit, are a format check only.

usage: mkgolden.py GOLDEN_DIR KEYDIR
"""
import hashlib
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imalog  # noqa: E402
from imalog import Log, d_ng, n_ng, sig_v2  # noqa: E402

out, keydir = sys.argv[1], sys.argv[2]
os.makedirs(out, exist_ok=True)
os.makedirs(keydir, exist_ok=True)
BOOT = imalog.boot_pcrs(b"golden")


def path(name):
    return os.path.join(out, name)


def write(name, data, mode="wb"):
    with open(path(name), mode) as f:
        f.write(data)


def fixture(name, log, args, exit_=0, fails=(), why=""):
    """fails: (entry index or '-', failure class) the fixture injects."""
    write(name + ".bin", log.bytes() if isinstance(log, Log) else log)
    write(name + ".args", " ".join(args + [name + ".bin"]) + "\n", "w")
    lines = ["# %s" % (why or name), "exit %d" % exit_]
    lines += ["fail %s %s" % f for f in sorted(set(fails), key=str)]
    write(name + ".expect", "\n".join(lines) + "\n", "w")


def pcrs(name, log, pcr_list=(10,)):
    write(name, imalog.pcr_lines(log, BOOT, pcr_list), "w")
    return ["--pcrs", name]


def fdigest(i, alg="sha256"):
    return hashlib.new(alg, b"golden file %d" % i).digest()


def files(n, start=0):
    return [("/usr/bin/prog%d" % i, fdigest(i)) for i in range(start,
                                                                start + n)]


def boot_entry(log, template="ima-ng", alg="sha256", extra=()):
    agg = imalog.boot_aggregate(BOOT, alg)
    if template == "ima":
        log.add("ima", [agg, b"boot_aggregate"])
    else:
        log.add(template, [d_ng(alg, agg), n_ng("boot_aggregate")] +
                list(extra))


def manifest(name, entries):
    write(name, "".join("%s  %s\n" % (d.hex(), p) for p, d in entries), "w")
    return ["--manifest", name]


for f in os.listdir(out):
    os.unlink(path(f))

rsa_key, rsa_cert = imalog.make_key("rsa", "golden rsa")
ec_key, ec_cert = imalog.make_key("ec", "golden ec")
other_key, other_cert = imalog.make_key("rsa", "golden unknown")
imalog.write_key(rsa_key, os.path.join(keydir, "rsa.pem"))
imalog.write_key(ec_key, os.path.join(keydir, "ec.pem"))
imalog.write_cert(rsa_cert, path("rsa-cert.der"))
imalog.write_cert(ec_cert, path("ec-cert.pem"))

# --- passing logs -----------------------------------------------------------
log = Log()
boot_entry(log)
fl = files(5)
for p, d in fl:
    log.add("ima-ng", [d_ng("sha256", d), n_ng(p)])
fixture("ima-ng-pass", log,
        pcrs("ima-ng-pass.pcrs", log) + manifest("ima-ng-pass.manifest", fl))

log = Log("big")
boot_entry(log)
for p, d in files(4):
    log.add("ima-ng", [d_ng("sha256", d), n_ng(p)])
tpm2 = ["  sha1:"] + ["    %-2d: 0x%s" % (i, v.hex().upper()) for i, v in
                     sorted(list(BOOT["sha1"].items()) +
                            [(10, log.pcrs["sha1"][10])])]
tpm2 += ["  sha256:"] + ["    %-2d: 0x%s" % (i, v.hex().upper()) for i, v in
                         sorted(list(BOOT["sha256"].items()) +
                                [(10, log.pcrs["sha256"][10])])]
write("big-endian.pcrs", "\n".join(tpm2) + "\n", "w")
fixture("big-endian", log, ["--pcrs", "big-endian.pcrs"])

log = Log()
boot_entry(log, "ima", "sha1")
for i in range(3):
    log.add("ima", [fdigest(i, "sha1"), b"/sbin/legacy%d" % i])
fixture("legacy-ima", log, pcrs("legacy-ima.pcrs", log))


def signed_log(key, cert, name, tamper=False):
    log = Log()
    boot_entry(log, "ima-sig", extra=[b""])
    kid = imalog.keyid(cert)
    for i, (p, d) in enumerate(files(6)):
        sig = sig_v2("sha256", kid, imalog.sign_digest(key, "sha256", d))
        if tamper and i == 1:
            sig = sig[:-1] + bytes([sig[-1] ^ 1])	# bad signature
        if tamper and i == 2:
            other = imalog.sign_digest(other_key, "sha256", d)
            sig = sig_v2("sha256", imalog.keyid(other_cert), other)
        if tamper and i == 3:
            sig = b""					# unsigned
        if tamper and i == 4:
            sig = sig_v2("sha1", kid, imalog.sign_digest(key, "sha1",
                                                         fdigest(i, "sha1")))
        log.add("ima-sig", [d_ng("sha256", d), n_ng(p), sig])
    return log


log = signed_log(rsa_key, rsa_cert, "ima-sig-rsa")
fixture("ima-sig-rsa", log, pcrs("ima-sig-rsa.pcrs", log) +
        ["--key", "rsa-cert.der", "--require-signatures"])
log = signed_log(ec_key, ec_cert, "ima-sig-ecdsa")
fixture("ima-sig-ecdsa", log, pcrs("ima-sig-ecdsa.pcrs", log) +
        ["--key", "ec-cert.pem", "--key", "rsa-cert.der"])
log = signed_log(rsa_key, rsa_cert, "ima-sig-bad", tamper=True)
fixture("ima-sig-bad", log, pcrs("ima-sig-bad.pcrs", log) +
        ["--key", "rsa-cert.der", "--require-signatures"], 1,
        [(2, "bad-signature"), (3, "unknown-key"), (4, "unsigned"),
         (5, "signature-algorithm")], "entries 2-5 tampered as built")
fixture("ima-sig-nokeys", log, pcrs("ima-sig-bad.pcrs", log))

# modsig: PKCS#7 over the "module" content; d-modsig is its digest
log = Log()
boot_entry(log, "ima-modsig", extra=[b"", b"", b""])
for i in range(3):
    content = b"module %d contents" % i
    key, cert = (rsa_key, rsa_cert) if i != 1 else (ec_key, ec_cert)
    p7 = imalog.modsig(key, cert, "sha256", content)
    dmod = hashlib.sha256(content).digest()
    if i == 2:
        dmod = hashlib.sha256(content + b"!").digest()	# tampered
    log.add("ima-modsig", [d_ng("sha256", hashlib.sha256(content + p7)
                                .digest()), n_ng("/lib/modules/m%d.ko" % i),
                           b"", d_ng("sha256", dmod), p7])
fixture("ima-modsig", log, pcrs("ima-modsig.pcrs", log) +
        ["--key", "rsa-cert.der", "--key", "ec-cert.pem"], 1,
        [(3, "bad-signature")], "entry 3: d-modsig of other content")

# ima-buf policy record, custom template format, violation
policy = b"measure func=BPRM_CHECK\nmeasure func=FILE_MMAP mask=MAY_EXEC\n"
write("policy-good.txt", policy)
write("policy-other.txt", policy.replace(b"FILE_MMAP", b"MODULE_CHECK"))
log = Log()
boot_entry(log)
log.add("ima-buf", [d_ng("sha256", hashlib.sha256(policy).digest()),
                    n_ng("ima_policy"), policy])
log.add("d-ng|n-ng|sig", [d_ng("sha512", hashlib.sha512(b"x").digest()),
                          n_ng("/custom/template"), b""])
log.add("ima-ng", [d_ng("sha256", fdigest(1)), n_ng("/tmp/written")],
        violation=True)
log.add("ima-ng", [d_ng("sha256", fdigest(2)), n_ng("/after/violation")])
fixture("policy-match", log, pcrs("policy.pcrs", log) +
        ["--expect-policy", "policy-good.txt"])
fixture("policy-mismatch", log, pcrs("policy.pcrs", log) +
        ["--expect-policy", "policy-other.txt"], 1, [(1, "policy")])

# PCR read before the last entries were added: prefix coverage
log = Log()
boot_entry(log)
for p, d in files(3):
    log.add("ima-ng", [d_ng("sha256", d), n_ng(p)])
prefix = pcrs("partial.pcrs", log)
for p, d in files(3, 3):
    log.add("ima-ng", [d_ng("sha256", d), n_ng(p)])
fixture("partial-coverage", log, prefix + ["--allow-uncovered"], 0,
        why="entries 4-6 after the values, allowed")
fixture("partial-coverage-strict", log, prefix + ["--require-coverage"], 1,
        [(4, "uncovered"), (5, "uncovered"), (6, "uncovered")])

# failures
log = Log()
boot_entry(log)
for p, d in files(3):
    log.add("ima-ng", [d_ng("sha256", d), n_ng(p)])
write("wrong.pcrs", "sha256:10 " + "ab" * 32 + "\n", "w")
fixture("pcr-mismatch", log, ["--pcrs", "wrong.pcrs", "--pcr-value",
                              "sha1:10=" + log.pcrs["sha1"][10].hex()], 1,
        [("-", "pcr-mismatch")])
wrong_boot = "".join("sha256:%d %s\n" % (i, "00" * 32) for i in range(10))
wrong_boot += "sha256:10 %s\n" % log.pcrs["sha256"][10].hex()
write("wrong-boot.pcrs", wrong_boot, "w")
fixture("boot-aggregate-mismatch", log, ["--pcrs", "wrong-boot.pcrs"], 1,
        [(0, "boot-aggregate")])
mf = files(3)
mf = [mf[0], (mf[1][0], fdigest(99))]	# wrong digest, one path missing
fixture("manifest-fail", log, pcrs("manifest-fail.pcrs", log) +
        manifest("manifest-fail.manifest", mf), 1,
        [(2, "manifest-digest"), (3, "manifest-path")])

log = Log()
boot_entry(log)
log.add("ima-ng", [d_ng("sha256", fdigest(0)), n_ng("/bin/tampered")],
        digest_override=b"\x13" * 20)
log.add("ima-foo", [b"opaque"])
log.add("ima-ng", [b"sha256\0" + fdigest(1), n_ng("/bad/dng")])
fixture("bad-entries", log, ["--ignore-pcr", "10"], 1,
        [(1, "template-hash"), (2, "unknown-template"),
         (3, "malformed-field")])

# --- malformed input (exit 3) ----------------------------------------------
good = Log()
boot_entry(good)
good.add("ima-ng", [d_ng("sha256", fdigest(0)), n_ng("/bin/sh")])
data = good.bytes()
fixture("truncated", data[:-5], [], 3)
fixture("truncated-header", data + data[:17], [], 3)
hostile = Log()
boot_entry(hostile)
hostile.raw(struct.pack("<I", 10) + b"\0" * 20 +
            struct.pack("<I", 0x7fffff00) + b"ima-ng")
fixture("hostile-name-length", hostile, [], 3)
past = Log()
boot_entry(past)
past.raw(struct.pack("<I", 10) + b"\1" * 20 + struct.pack("<I", 6) +
         b"ima-ng" + struct.pack("<II", 12, 4) + b"sha1" +
         struct.pack("<I", 0xfffffff0))
fixture("field-past-end", past, [], 3)
zero = Log()
boot_entry(zero)
zero.raw(struct.pack("<I", 10) + b"\1" * 20 + struct.pack("<I", 6) +
         b"ima-ng" + struct.pack("<I", 0))
fixture("zero-length-template", zero, [], 3)
fixture("garbage", bytes(range(7, 250)), [], 3)
fixture("max-size", data, ["--max-size", "100"], 3)
fixture("empty", b"", [], 0, why="an empty list: nothing to bind")

# --- binding (issue 10) ------------------------------------------------------
log = Log()
boot_entry(log)
log.add("ima-ng", [d_ng("sha256", fdigest(0)), n_ng("/bin/a")])
log.add("ima-ng", [d_ng("sha256", fdigest(1)), n_ng("/bin/on11")], pcr=11)
fixture("unbound-pcr", log, pcrs("unbound.pcrs", log), 1,
        [(2, "unbound-pcr")], "entry 2 on PCR 11, values for 0-10 only")
fixture("no-values", log, [], 1,
        [(0, "unbound-pcr"), (1, "unbound-pcr"), (2, "unbound-pcr")],
        "no PCR value at all: nothing is bound")
fixture("ignored-pcrs", log, ["--ignore-pcr", "10-11"], 0,
        why="--ignore-pcr 10-11: waived")
