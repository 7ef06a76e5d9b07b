#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Golden fixtures from a real guest run (make check's main boot).

    mkreal.py RESULTS_DIR IMA_CERT OUT_DIR [KEXEC_RESULTS_DIR]

Copies the public parts only: the measurement list, the TPM's PCR values,
the IMA certificate, and one quote triple (TPMS_ATTEST, signature, quoted
values) with the AK's public key and the nonce. Expectations come from the
run's fixture manifests (tests/guest/*.fixtures, made by scripts/sign.sh:
which files were signed tampered or by the rogue key), mapped to entry
indices through the ASCII list, never from ima-audit. A forged copy of the
list is added: one entry appended on PCR 11 (outside the quote).

With KEXEC_RESULTS_DIR (make check's kexec boot), its list, spanning two
kernels, is added: the whole list against the TPM's PCRs (the expected
signature failures from that boot's manifests), and the list cut just after
the kexec_execute record (the second kernel's entries withheld: the
hand-over leads nowhere and PCR 10 matches no prefix).
"""
import os
import shutil
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imalog  # noqa: E402

res, cert, out = sys.argv[1:4]
kres = sys.argv[4] if len(sys.argv) > 4 else None
os.makedirs(out, exist_ok=True)
for f in os.listdir(out):
    os.unlink(os.path.join(out, f))


def cp(src, dst):
    shutil.copyfile(src, os.path.join(out, dst))
    os.chmod(os.path.join(out, dst), 0o644)


att = os.path.join(res, "attest")
cp(os.path.join(res, "binary_runtime_measurements"), "list.bin")
cp(os.path.join(res, "pcrs.txt"), "pcrs.txt")
cp(cert, "ima.der")
for f in ("quote.msg", "quote.sig", "quote.pcrs", "ak.pem"):
    cp(os.path.join(att, f), f)
with open(os.path.join(att, "binary_runtime_measurements"), "rb") as f:
    quoted = f.read()
with open(os.path.join(res, "binary_runtime_measurements"), "rb") as f:
    assert f.read() == quoted, "the quoted list is not the audited list"
nonce = open(os.path.join(att, "nonce")).read().strip()

# path -> entry indices, from the ASCII list (PCR, hash, template, d, n)
paths = {}
with open(os.path.join(res, "ascii_runtime_measurements")) as f:
    for i, line in enumerate(f):
        fields = line.split()
        paths.setdefault(fields[4], []).append(i)
n = i + 1
assert n == len(imalog.records(quoted)), "ASCII and binary lists differ"

def expected_sig_fails(res, paths):
    """(index, class) of every entry of a tampered or rogue fixture"""
    fails = set()
    for s in open(os.path.join(res, "suites")).read().split():
        m = os.path.join(res, "fixtures", s + ".manifest")
        if not os.path.exists(m):
            continue
        for line in open(m):
            w = line.split()
            if len(w) < 5 or w[0] != "file" or \
                    w[4] not in ("tampered", "rogue"):
                continue
            assert w[1] in paths, "%s (%s) not in the list" % (w[1], w[4])
            cls = "bad-signature" if w[4] == "tampered" else "unknown-key"
            fails |= {(i, cls) for i in paths[w[1]]}
    return fails


sig_fails = expected_sig_fails(res, paths)
assert sig_fails, "no tampered or rogue fixture: not a main-boot run"


def write(name, text):
    with open(os.path.join(out, name), "w") as f:
        f.write(text)


def case(name, why, args, exit_, fails=(), log="list.bin"):
    write(name + ".args", " ".join(args + [log]) + "\n")
    lines = ["# " + why, "exit %d" % exit_]
    lines += ["fail %s %s" % f for f in sorted(fails)]
    write(name + ".expect", "\n".join(lines) + "\n")


quote = ["--quote", "quote.msg", "--quote-sig", "quote.sig", "--ak-pub",
         "ak.pem", "--quote-pcrs", "quote.pcrs", "--nonce", nonce]
case("real-quote", "the guest's genuine quote over its list", quote, 0)
case("real-pcrs-keys", "TPM PCR values and the IMA certificate: exactly the "
     "tampered and rogue-signed fixtures fail", ["--pcrs", "pcrs.txt",
                                                  "--key", "ima.der"],
     1, sig_fails)
case("real-quote-keys", "the quote and the IMA certificate: the same "
     "signature failures", quote + ["--key", "ima.der"], 1, sig_fails)

recs = imalog.records(quoted)
last = quoted[recs[-1][0]:recs[-1][1]]
with open(os.path.join(out, "list-appended.bin"), "wb") as f:
    f.write(quoted + last)
case("real-appended", "the last entry appended again after the quote",
     quote, 1, [(n, "uncovered")], "list-appended.bin")
with open(os.path.join(out, "list-pcr11.bin"), "wb") as f:
    f.write(quoted + struct.pack("<I", 11) + last[4:])
case("real-pcr11", "an entry appended on PCR 11, outside the quote", quote,
     1, [(n, "unbound-pcr")], "list-pcr11.bin")
if kres:
    cp(os.path.join(kres, "binary_runtime_measurements"), "kexec-list.bin")
    cp(os.path.join(kres, "pcrs.txt"), "kexec-pcrs.txt")
    with open(os.path.join(kres, "binary_runtime_measurements"), "rb") as f:
        klist = f.read()
    kpaths = {}
    with open(os.path.join(kres, "ascii_runtime_measurements")) as f:
        for i, line in enumerate(f):
            kpaths.setdefault(line.split()[4], []).append(i)
    krecs = imalog.records(klist)
    assert i + 1 == len(krecs), "kexec: ASCII and binary lists differ"
    # the first kernel's entries: its list as read just before kexec -e
    with open(os.path.join(kres, "stage1", "ascii_runtime_measurements")) as f:
        n1 = sum(1 for _ in f)
    kfails = expected_sig_fails(kres, kpaths)
    kargs = ["--pcrs", "kexec-pcrs.txt", "--key", "ima.der"]
    case("real-kexec", "two kernels and the kexec hand-over between them, "
         "against the TPM's PCRs", kargs, 1 if kfails else 0, kfails,
         "kexec-list.bin")
    # entry n1 is the kexec_execute record (measured last in the first
    # kernel); keep the entries up to it
    with open(os.path.join(out, "kexec-cut.bin"), "wb") as f:
        f.write(klist[:krecs[n1][1]])
    case("real-kexec-cut", "the second kernel's entries withheld after the "
         "kexec_execute record", kargs, 1,
         {(str(n1), "kexec-handover"), ("-", "pcr-mismatch")} |
         {(str(i), c) for i, c in kfails if i <= n1}, "kexec-cut.bin")
print("%d entries, %d expected signature failures; written to %s" %
      (n, len(sig_fails), out))
