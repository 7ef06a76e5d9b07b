#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Write the red-team fixtures: forged lists, quotes and keys.

Every case is NAME.args (arguments, relative to the directory; the
runner adds --json --jobs 2) and NAME.expect, written here from how the
case was built, never from a run of ima-audit:

    # one line: why this case must fail (or pass)
    exit N                  expected exit status
    fail INDEX CLASS        one expected failure (INDEX '-': not an entry)
    stdout-has TEXT         the text report (run again without --json)
                            contains TEXT
    stderr-has TEXT         stderr contains TEXT

With `exit 0` or `exit 1` the set of (INDEX, CLASS) in the JSON report's
failures must equal the set of `fail` lines exactly. A throwaway AK and
IMA key are made now; their private halves go to KEYDIR (build/, thrown
away); only public parts are written.

usage: mkredteam.py OUT_DIR KEYDIR
"""
import copy
import hashlib
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imalog  # noqa: E402
import tpmquote as tq  # noqa: E402
from imalog import (QUOTE_PCRS as SEL, PERMISSIVE_POLICY as PERMISSIVE,  # noqa: E402
                    STRICT_POLICY as STRICT, Log, d_ng, n_ng)

out, keydir = sys.argv[1], sys.argv[2]
os.makedirs(keydir, exist_ok=True)
fx = imalog.Fixtures(out, ("",), b"redteam")  # emptied: the topics follow
write, BOOT = fx.write, fx.boot
NONCE = bytes(range(1, 21))

ak, _ = imalog.make_key("rsa", "redteam AK")
ak_ec, _ = imalog.make_key("ec", "redteam EC AK")
other_ak, _ = imalog.make_key("rsa", "redteam other AK")
imalog.write_key(ak, os.path.join(keydir, "ak.pem"))
write("ak.pem", tq.public_pem(ak))
write("ak-ec.pem", tq.public_pem(ak_ec))
write("other-ak.pem", tq.public_pem(other_ak))
write("strict.policy", STRICT)
write("permissive.policy", PERMISSIVE)
ima_key, ima_cert = imalog.make_key("rsa", "redteam IMA key")
imalog.write_cert(ima_cert, os.path.join(out, "ima-cert.der"))


def fd(i):
    return hashlib.sha256(b"redteam file %d" % i).digest()


def entry_file(i, pcr=10):
    return ("ima-ng", [d_ng("sha256", fd(i)), n_ng("/usr/bin/f%d" % i)], pcr)


def entry_policy(policy, pcr=10):
    return ("ima-buf", [d_ng("sha256", hashlib.sha256(policy).digest()),
                        n_ng("ima_policy"), policy], pcr)


def genuine():
    """boot_aggregate, the strict policy (entry 1), files f2..f6."""
    agg = imalog.boot_aggregate(BOOT, "sha256")
    ents = [("ima-ng", [d_ng("sha256", agg), n_ng("boot_aggregate")], 10),
            entry_policy(STRICT)]
    ents += [entry_file(i) for i in range(2, 7)]
    return ents


def build(ents):
    log = Log()
    for t, fields, pcr in ents:
        log.add(t, fields, pcr=pcr)
    return log


def tpm_state(log):
    """PCR values a TPM would hold: PCR 0-9 from 'firmware', the rest
    from the list."""
    st = copy.deepcopy(BOOT)
    for bank in imalog.BANKS:
        st[bank].update(copy.deepcopy(log.pcrs[bank]))
    return st


def pcr_text(state, banks=("sha1", "sha256"), pcrs=SEL):
    lines = []
    for bank in banks:
        size = hashlib.new(bank).digest_size
        for p in pcrs:
            lines.append("%s:%d %s" % (bank, p, state[bank].get(
                p, b"\0" * size).hex()))
    return "\n".join(lines) + "\n"


def case(name, reason, log, args, exit_, fails=(), has=(), errhas=()):
    """fails: (index or '-', class) pairs."""
    write(name + ".bin", log if isinstance(log, bytes) else log.bytes())
    write(name + ".args", " ".join(args + [name + ".bin"]) + "\n")
    lines = ["# %s" % reason, "exit %d" % exit_]
    lines += ["fail %s %s" % (i, c) for i, c in sorted(
        set(fails), key=lambda x: (x[0] == "-", str(x[0]).zfill(8), x[1]))]
    lines += ["stdout-has %s" % h for h in has]
    lines += ["stderr-has %s" % h for h in errhas]
    write(name + ".expect", "\n".join(lines) + "\n")


def quote_files(name, state, sel=None, nonce=NONCE, key=ak, msg_edit=None,
                sig_edit=None, vals_edit=None, **kw):
    """Writes NAME.msg/.sig/.vals; returns the ima-audit arguments."""
    sel = sel if sel is not None else [("sha256", SEL)]
    msg = tq.attest(sel, state, nonce, **kw)
    sig = tq.sign(key, msg)
    vals = tq.values(sel, state)
    if msg_edit:
        msg = msg_edit(msg)
    if sig_edit:
        sig = sig_edit(sig)
    if vals_edit:
        vals = vals_edit(vals)
    write(name + ".msg", msg)
    write(name + ".sig", sig)
    write(name + ".vals", vals)
    return ["--quote", name + ".msg", "--quote-sig", name + ".sig",
            "--ak-pub", "ak.pem", "--quote-pcrs", name + ".vals",
            "--nonce", NONCE.hex()]


def unattested(n):
    return [("-", "quote-unattested")]


G = genuine()
glog = build(G)
gstate = tpm_state(glog)

# --- controls: genuine cases pass (a tool that fails everything fails here)
case("good-quote", "genuine list and quote: passes", glog,
     quote_files("good-quote", gstate) + ["--expect-policy",
                                          "strict.policy"], 0)
write("good.pcrs", pcr_text(gstate))
case("good-pcrs", "genuine list and PCR values, no quote: passes", glog,
     ["--pcrs", "good.pcrs", "--expect-policy", "strict.policy"], 0)

# --- binding: entries on a PCR nothing binds
ents = G + [entry_policy(PERMISSIVE, pcr=11)]
log = build(ents)
case("binding-unquoted-policy",
     "a permissive ima_policy entry on PCR 11, outside the quote (PCR 0-10)"
     ": unbound, and never the recorded policy", log,
     quote_files("binding-unquoted-policy", tpm_state(log)) +
     ["--expect-policy", "permissive.policy"], 1,
     [(7, "unbound-pcr"), (1, "policy")])
case("binding-unquoted-show-policy",
     "--show-policy prints the bound policy, not the forged PCR 11 one",
     log, quote_files("binding-unquoted-show-policy", tpm_state(log)) +
     ["--show-policy"], 1, [], has=["appraise func=BPRM_CHECK"])
ents = G[:4] + [entry_file(40, pcr=11)] + G[4:]
log = build(ents)
case("binding-unquoted-file",
     "a file measurement on PCR 11 in the middle of the list, outside the "
     "quote", log, quote_files("binding-unquoted-file", tpm_state(log)), 1,
     [(4, "unbound-pcr")])
write("binding-noquote.pcrs", pcr_text(tpm_state(log)))
case("binding-noquote-pcr11",
     "no quote, values for PCR 0-10 only: the PCR 11 entry is unbound",
     log, ["--pcrs", "binding-noquote.pcrs", "--require-coverage"], 1,
     [(4, "unbound-pcr")])
case("binding-ignore-pcr11",
     "the same with --ignore-pcr 11: waived, and the waiver is printed",
     log, ["--pcrs", "binding-noquote.pcrs", "--ignore-pcr", "11"], 0,
     has=["PCR 11 not bound (--ignore-pcr)"])
ents = G + [entry_policy(PERMISSIVE, pcr=11)]
log = build(ents)
write("binding-ignored-policy.pcrs", pcr_text(tpm_state(log)))
case("binding-ignored-policy",
     "--ignore-pcr 11 waives the PCR 11 entry but its policy is still not "
     "the recorded one", log, ["--pcrs", "binding-ignored-policy.pcrs",
                               "--ignore-pcr", "11", "--expect-policy",
                               "permissive.policy"], 1, [(1, "policy")])

# --- coverage: values that cover nothing; one coverage rule
n = len(G)
case("coverage-covers-nothing",
     "sha256 PCR 10 = 0 on a non-empty list: covers no entry", glog,
     ["--pcr-value", "sha256:10=" + "00" * 32], 1,
     [("-", "pcr-covers-nothing")] + [(i, "uncovered") for i in range(n)])
case("coverage-covers-nothing-allowed",
     "a value covering nothing fails even with --allow-uncovered", glog,
     ["--pcr-value", "sha256:10=" + "00" * 32, "--allow-uncovered"], 1,
     [("-", "pcr-covers-nothing")])
pre = build(G[:4])
write("coverage-prefix.pcrs", pcr_text(tpm_state(pre)))
case("coverage-tail",
     "PCR values read after entry 3, no quote: entries 4-6 are uncovered",
     glog, ["--pcrs", "coverage-prefix.pcrs"], 1,
     [(4, "uncovered"), (5, "uncovered"), (6, "uncovered")])
case("coverage-tail-allowed",
     "the same with --allow-uncovered: passes, the tail is reported",
     glog, ["--pcrs", "coverage-prefix.pcrs", "--allow-uncovered"], 0,
     has=["not covered"])
case("coverage-appended",
     "an entry appended after the quote is uncovered", build(G + [
         entry_file(50)]), quote_files("coverage-appended", gstate), 1,
     [(7, "uncovered")])
case("coverage-appended-policy-allowed",
     "--allow-uncovered: an ima_policy entry appended after the quote is "
     "not the recorded policy", build(G + [entry_policy(PERMISSIVE)]),
     quote_files("coverage-appended-policy-allowed", gstate) +
     ["--allow-uncovered", "--expect-policy", "permissive.policy"], 1,
     [(1, "policy")])

# --- boot: boot_aggregate is required with a quote
case("boot-quote-no-boot-pcrs",
     "a quote over sha256 PCR 10 only cannot verify boot_aggregate", glog,
     quote_files("boot-quote-no-boot-pcrs", gstate,
                 sel=[("sha256", [10])]), 1,
     [(0, "boot-aggregate-unverified")])
case("boot-quote-no-boot-pcrs-waived",
     "the same with --allow-unverified-boot: passes, waiver printed", glog,
     quote_files("boot-quote-no-boot-pcrs-waived", gstate,
                 sel=[("sha256", [10])]) + ["--allow-unverified-boot"], 0,
     has=["boot_aggregate not verified (--allow-unverified-boot)"])
bad_boot = copy.deepcopy(gstate)
bad_boot["sha256"][4] = b"\x44" * 32
case("boot-aggregate-forged",
     "the quoted PCR 0-9 are not the ones boot_aggregate was made from",
     glog, quote_files("boot-aggregate-forged", bad_boot), 1,
     [(0, "boot-aggregate")])


# --- keys: undecodable keys
def unknown_oid(der):
    """An RSA cert/key with the rsaEncryption OID made unknown."""
    oid = bytes.fromhex("06092a864886f70d010101")
    assert oid in der
    return der.replace(oid, bytes.fromhex("06092a864886f70d01017f"))


from cryptography.hazmat.primitives.serialization import Encoding  # noqa
write("bad-oid-cert.der", unknown_oid(ima_cert.public_bytes(Encoding.DER)))
case("keys-ak-unknown-oid",
     "--ak-pub: a certificate whose public key algorithm is unknown: "
     "exit 3 naming the file", glog,
     quote_files("keys-ak-unknown-oid", gstate)[:4] +
     ["--ak-pub", "bad-oid-cert.der", "--quote-pcrs",
      "keys-ak-unknown-oid.vals", "--nonce", NONCE.hex()], 3,
     errhas=["bad-oid-cert.der"])
case("keys-ima-unknown-oid",
     "--key: the same certificate is refused, exit 3 naming the file",
     glog, ["--pcrs", "good.pcrs", "--key", "bad-oid-cert.der"], 3,
     errhas=["bad-oid-cert.der"])
write("garbage-key.pem", b"-----BEGIN PUBLIC KEY-----\nAAAA\n"
      b"-----END PUBLIC KEY-----\n")
case("keys-ak-garbage",
     "an AK file that is no key: exit 3 naming the file", glog,
     ["--quote", "good-quote.msg", "--quote-sig", "good-quote.sig",
      "--ak-pub", "garbage-key.pem", "--quote-pcrs", "good-quote.vals",
      "--nonce", NONCE.hex()], 3, errhas=["garbage-key.pem"])

# --- quote files: truncated / oversized quote inputs exit 3
for nm, edit in (("sig-truncated", lambda s: s[:-1]),
                 ("sig-oversized", lambda s: s + b"\0"),
                 ("sig-short-rsa", lambda s: s[:4] + struct.pack(
                     ">H", 255) + s[6:-1])):
    case("quote-" + nm, "TPMT_SIGNATURE %s: exit 3" % nm, glog,
         quote_files("quote-" + nm, gstate, sig_edit=edit), 3,
         errhas=["quote-%s.sig" % nm])
case("quote-sig-plain-truncated", "a plain RSA signature one byte short: "
     "exit 3", glog, quote_files("quote-sig-plain-truncated", gstate,
                                 sig_edit=lambda s: s[6:-1]), 3,
     errhas=["quote-sig-plain-truncated.sig"])
case("quote-msg-truncated", "TPMS_ATTEST one byte short: exit 3", glog,
     quote_files("quote-msg-truncated", gstate, msg_edit=lambda m: m[:-1]), 3,
     errhas=["quote-msg-truncated.msg"])
case("quote-msg-trailing", "TPMS_ATTEST with a trailing byte: exit 3", glog,
     quote_files("quote-msg-trailing", gstate, msg_edit=lambda m: m + b"\0"),
     3, errhas=["quote-msg-trailing.msg"])
case("quote-vals-truncated", "quoted PCR values one byte short: exit 3", glog,
     quote_files("quote-vals-truncated", gstate, vals_edit=lambda v: v[:-1]),
     3, errhas=["quote-vals-truncated.vals"])
case("quote-vals-oversized", "quoted PCR values with an extra byte: exit 3",
     glog, quote_files("quote-vals-oversized", gstate,
                       vals_edit=lambda v: v + b"\0"), 3,
     errhas=["quote-vals-oversized.vals"])

# --- the list edited after a genuine quote
for nm, ents in (("removed", G[:3] + G[4:]),
                 ("inserted", G[:3] + [entry_file(60)] + G[3:]),
                 ("reordered", G[:3] + [G[4], G[3]] + G[5:])):
    case("list-" + nm, "an entry %s after the quote: PCR 10 matches no "
         "prefix" % nm, build(ents), quote_files("list-" + nm, gstate), 1,
         [("-", "pcr-mismatch")])
ents = G[:3] + [("ima-buf", [d_ng("sha256", b"\x11" * 32), n_ng("kexec"),
                              b"critical data"], 10)] + G[3:]
log = build(ents)
case("list-buf-digest", "an ima-buf entry whose digest is not its buffer's",
     log, quote_files("list-buf-digest", tpm_state(log)), 1,
     [(3, "buf-digest")])

# --- the quote itself
case("quote-certify", "a TPM_ST_ATTEST_CERTIFY, not a quote", glog,
     quote_files("quote-certify", gstate, type_=tq.ST_CERTIFY), 1,
     [("-", "quote-type")] + unattested(n))
case("quote-magic", "magic is not TPM_GENERATED_VALUE", glog,
     quote_files("quote-magic", gstate, magic=0x12345678), 1,
     [("-", "quote-magic")] + unattested(n))
args = quote_files("quote-nonce-extra", gstate)
args[-1] = NONCE.hex() + "00"
case("quote-nonce-extra", "the verifier's nonce has an extra byte", glog,
     args, 1, [("-", "quote-nonce")] + unattested(n))
args = quote_files("quote-nonce-missing", gstate)
args[-1] = NONCE[:-1].hex()
case("quote-nonce-missing", "the verifier's nonce lacks a byte", glog, args, 1,
     [("-", "quote-nonce")] + unattested(n))
args = quote_files("quote-other-ak", gstate, key=other_ak)
case("quote-other-ak", "signed by another key than the AK", glog, args, 1,
     [("-", "quote-signature")] + unattested(n))
args = quote_files("quote-ak-alg-mismatch", gstate)
args[5] = "ak-ec.pem"
case("quote-ak-alg-mismatch", "RSASSA signature, EC AK", glog, args, 1,
     [("-", "quote-signature")] + unattested(n))
case("quote-vals-altered", "quoted PCR values altered: pcrDigest differs",
     glog, quote_files("quote-vals-altered", gstate,
                       vals_edit=lambda v: v[:-1] + bytes([v[-1] ^ 1])), 1,
     [("-", "quote-pcr-digest")] + unattested(n))
case("binding-sha1-quote",
     "a quote over the sha1 bank only: sha1 binds no PCR", glog,
     quote_files("binding-sha1-quote", gstate, sel=[("sha1", SEL)]), 1,
     [(0, "boot-aggregate-unverified")] +
     [(i, "unbound-pcr") for i in range(n)])
write("sha1-only.pcrs", pcr_text(gstate, banks=("sha1",)))
case("binding-sha1-pcrs", "no quote, sha1 values only: no PCR bound", glog,
     ["--pcrs", "sha1-only.pcrs"], 1,
     [(i, "unbound-pcr") for i in range(n)])
case("binding-sha1-pcrs-allowed", "sha1 values only, --allow-sha1: passes, "
     "the waiver printed", glog, ["--pcrs", "sha1-only.pcrs", "--allow-sha1"],
     0, has=["sha1 values bind PCRs (--allow-sha1)"])
case("quote-sel-duplicate", "the sha256 bank selected twice: exit 3", glog,
     quote_files("quote-sel-duplicate", gstate,
                 sel=[("sha256", SEL), ("sha256", SEL)]), 3,
     errhas=["twice"])
case("quote-sel-empty", "an empty PCR selection binds nothing", glog,
     quote_files("quote-sel-empty", gstate, sel=[]), 1,
     [(0, "boot-aggregate-unverified")] +
     [(i, "unbound-pcr") for i in range(n)])
case("quote-sel-empty-bitmap", "a sha256 selection with no PCR set", glog,
     quote_files("quote-sel-empty-bitmap", gstate, sel=[("sha256", [])]), 1,
     [(0, "boot-aggregate-unverified")] +
     [(i, "unbound-pcr") for i in range(n)])

# --- evmctl interop: 'PCR-NN: HEX' files with --pcrs ALG,FILE
write("evmctl-sha256.pcrs", imalog.evmctl_pcrs(glog, gstate, "sha256"))
case("interop-evmctl-pcrs", "evmctl's PCR file as it is: passes", glog,
     ["--pcrs", "sha256,evmctl-sha256.pcrs"], 0)
write("evmctl-sha1.pcrs", imalog.evmctl_pcrs(glog, gstate, "sha1"))
case("interop-evmctl-sha1", "evmctl's sha1 PCR file alone binds nothing",
     glog, ["--pcrs", "sha1,evmctl-sha1.pcrs"], 1,
     [(i, "unbound-pcr") for i in range(n)])
case("interop-evmctl-sha1-allowed", "the same with --allow-sha1: passes",
     glog, ["--pcrs", "sha1,evmctl-sha1.pcrs", "--allow-sha1"], 0)
case("interop-evmctl-pcrs-tail", "evmctl's PCR file read before the last "
     "entries: uncovered", build(G + [entry_file(70)]),
     ["--pcrs", "sha256,evmctl-sha256.pcrs"], 1, [(7, "uncovered")])
print("red-team fixtures written to %s" % out)
