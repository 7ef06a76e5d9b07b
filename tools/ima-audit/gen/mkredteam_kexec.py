#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Red-team fixtures on kernels: lists that span a kexec.

Same NAME.args / NAME.expect format as gen/mkredteam.py (read there);
the expectations come from how each case is built here, never from a
run of ima-audit. Writes only its own files (names starting with
"kexec-"); mkredteam.py, which empties the directory, runs first in
`make regen-redteam`. A throwaway AK is made now; only its public half
(kexec-ak.pem) is written.

The forgeries:

 * a list that spans a kexec, where only the first kernel recorded its
   policy: the policy the running (last) kernel enforces is recorded
   nowhere, yet the first kernel's record passed --expect-policy;
 * the same with the kernel boundary hidden: the kexec_execute record and
   the next kernel's boot_aggregate renamed (the template name is hashed
   by nothing) to templates without a name field.

usage: mkredteam_kexec.py OUT_DIR
"""
import hashlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imalog  # noqa: E402
import tpmquote as tq  # noqa: E402
from imalog import QUOTE_PCRS as SEL, Log, d_ng, n_ng  # noqa: E402

fx = imalog.Fixtures(sys.argv[1], ("kexec-",), b"redteam kexec")
write, case, BOOT, AGG = fx.write, fx.case, fx.boot, fx.agg
NONCE = bytes(range(3, 23))
# the strict policy, its loads measured (the kernels' policies tell apart)
STRICT = imalog.STRICT_POLICY + \
    b"measure func=CRITICAL_DATA label=ima_policy_loaded\n"
KEXEC_HDR = 24		# struct ima_kexec_hdr
SEGMENT = 65536

ak, _ = imalog.make_key("rsa", "redteam kexec AK")
write("kexec-ak.pem", tq.public_pem(ak))
write("kexec-strict.policy", STRICT)


def fd(i):
    return hashlib.sha256(b"kexec file %d" % i).digest()


def boot(log, tmpl="ima-ng"):
    log.add(tmpl, [d_ng("sha256", AGG), n_ng("boot_aggregate")])


def file_(log, i):
    log.add("ima-ng", [d_ng("sha256", fd(i)), n_ng("/usr/bin/f%d" % i)])


def buf(log, name, data, tmpl="ima-buf"):
    log.add(tmpl, [d_ng("sha256", hashlib.sha256(data).digest()),
                   n_ng(name), data])


def policy(log, text, tmpl="ima-buf"):
    buf(log, "ima_policy_loaded", text, tmpl)


def kexec(log, name, tmpl="ima-buf"):
    """An ima_kexec record as the kernel measures it, before appending it:
    the entries before it and their binary size plus the segment header."""
    text = b"kexec_segment_size=%d;ima_binary_runtime_size=%d;" \
           b"ima_runtime_measurements_count=%d;" % (
               SEGMENT, len(log.bytes()) + KEXEC_HDR, log.count)
    buf(log, name, text, tmpl)


def state(log):
    return imalog.pcr_state(BOOT, log)


def quote(name, st):
    """A genuine quote of st (sha256 PCR 0-10) with the kexec AK."""
    return tq.quote_case(write, ak, "kexec-ak.pem", name, st, NONCE, SEL)


relabel = imalog.relabel


# --- a kexec: the policy recorded by the first kernel only
def two_kernels(second_policy, tmpl_buf="ima-buf", tmpl_ng="ima-ng"):
    """boot, policy, f1, kexec_load, kexec_execute (entry 4), boot of the
    second kernel (entry 5), [its policy], f2."""
    log = Log()
    boot(log, tmpl_ng)
    policy(log, STRICT, tmpl_buf)
    file_(log, 1)
    kexec(log, "kexec_load", tmpl_buf)
    kexec(log, "kexec_execute", tmpl_buf)
    boot(log, tmpl_ng)
    if second_policy:
        policy(log, STRICT, tmpl_buf)
    file_(log, 2)
    return log


chk = ["--expect-policy", "kexec-strict.policy"]
log = two_kernels(False)
case("kexec-old-policy",
     "the second kernel (from entry 5) recorded no policy: entry 1 is the "
     "first kernel's, which says nothing of what the running kernel "
     "enforces, so no policy of the last kernel is recorded",
     log.bytes(), quote("kexec-old-policy", state(log)) + chk, 1,
     [("-", "policy")])
log = two_kernels(True)
case("kexec-own-policy-control",
     "control: the second kernel recorded the same policy itself (entry "
     "6): passes", log.bytes(),
     quote("kexec-own-policy-control", state(log)) + chk, 0)
log = two_kernels(True, "d-ng|n-ng|buf", "d-ng|n-ng")
case("kexec-custom-names-control",
     "control: the same list logged under custom template names that keep "
     "every field (d-ng|n-ng|buf, d-ng|n-ng): passes", log.bytes(),
     quote("kexec-custom-names-control", state(log)) + chk, 0)

# --- the kernel boundary hidden by renaming (template names are hashed
# by nothing): kexec_execute as d-ng|xattrnames|buf, the second kernel's
# boot_aggregate as d-ng|xattrnames; the list then reads as one kernel


def hidden_boundary(name, reason, log, exec_as, agg_as, values):
    """A case of log with its kexec_execute record (entry 4) renamed
    exec_as and the next kernel's boot_aggregate (entry 5) agg_as: both
    renamed records fail. values(name, log): the PCR arguments."""
    data = relabel(relabel(log.bytes(), 4, exec_as), 5, agg_as)
    case(name, reason, data, values(name, log) + chk, 1,
         [(4, "kexec-handover"), (5, "kexec-handover")])


hidden_boundary(
    "kexec-hidden-boundary",
    "the kexec_execute record (entry 4) and the next kernel's "
    "boot_aggregate (entry 5) renamed to templates without a name field, "
    "so that the first kernel's policy would be the last kernel's: both "
    "renamed records fail", two_kernels(False), "d-ng|xattrnames|buf",
    "d-ng|xattrnames", lambda name, log: quote(name, state(log)))

# --- the same boundary in the kernel's other fields: boot_aggregate with
# the legacy d digest (ima_template_fmt=d|n-ng), the ima_kexec records
# under a custom template with one more field (d-ng|n-ng|buf|iuid, iuid
# empty for a buffer); the second kernel recorded no policy. Renamed, the
# kexec_execute record read as a file and the boot_aggregate as a record
# without a name: one kernel, the first kernel's policy the last one's
AGG1 = imalog.boot_aggregate(BOOT, "sha1")
CUSTOM = "d-ng|n-ng|buf|iuid"


def custom_kernels(second_policy):
    log = Log()
    log.add("d|n-ng", [AGG1, n_ng("boot_aggregate")])
    policy(log, STRICT)
    file_(log, 1)
    for name in ("kexec_load", "kexec_execute"):
        text = b"kexec_segment_size=%d;ima_binary_runtime_size=%d;" \
               b"ima_runtime_measurements_count=%d;" % (
                   SEGMENT, len(log.bytes()) + KEXEC_HDR, log.count)
        log.add(CUSTOM, [d_ng("sha256", hashlib.sha256(text).digest()),
                         n_ng(name), text, b""])
    log.add("d|n-ng", [AGG1, n_ng("boot_aggregate")])
    if second_policy:
        policy(log, STRICT)
    file_(log, 2)
    return log


def pcrs(name, log):
    write(name + ".pcrs", imalog.pcr_lines(log, BOOT).encode())
    return ["--pcrs", name + ".pcrs"]


hidden_boundary(
    "kexec-hidden-custom-boundary",
    "kexec_execute (entry 4, %s) renamed 'd-ng|n-ng|xattrvalues|iuid' "
    "and the next kernel's boot_aggregate (entry 5, d|n-ng) renamed "
    "'d|xattrnames', so that the first kernel's policy would be the last "
    "kernel's: both renamed records fail" % CUSTOM, custom_kernels(False),
    "d-ng|n-ng|xattrvalues|iuid", "d|xattrnames", pcrs)
log = custom_kernels(True)
case("kexec-custom-boundary-control",
     "control: the same kernels under their own names, the second one "
     "recording its policy (entry 6): passes", log.bytes(),
     pcrs("kexec-custom-boundary-control", log) + chk, 0)

# --- which kernel a record belongs to: the TPM orders records on one PCR
# only. Records on different PCRs can be swapped without changing any
# replay, and a kexec record's entry count and byte size still hold after
# a swap of records of equal size (a violation, whose data nothing
# hashes, lengthened to match). The first kernel's policy, on PCR 11,
# swapped with a violation on PCR 12 of the second kernel, read as the
# second (last) kernel's. The quotes here select PCRs 0-12.
SEL12 = list(range(13))
PERMISSIVE = imalog.PERMISSIVE_POLICY
write("kexec-permissive.policy", PERMISSIVE)


def quote12(name, st):
    return tq.quote_case(write, ak, "kexec-ak.pem", name, st, NONCE, SEL12)


def policy_on(log, text, pcr):
    log.add("ima-buf", [d_ng("sha256", hashlib.sha256(text).digest()),
                        n_ng("ima_policy_loaded"), text], pcr=pcr)


def violation_sized(log, pcr, size):
    """A violation whose record is size bytes (its name padded)."""
    base = len(Log().u32(0)) * 4 + 20 + len("ima-ng") + 4 + 40 + 1
    log.add("ima-ng", [d_ng("sha256", b"\0" * 32),
                       n_ng("/var/log/" + "x" * (size - base - 9))],
            pcr=pcr, violation=True)


def cross_pcr(swapped, second_policy=False):
    """boot, [old policy on PCR 11 | violation on PCR 12], f1, kexec_load,
    kexec_execute (entry 4), boot (entry 5), [violation | old policy],
    [the second kernel's policy on PCR 11], f2."""
    probe = Log()
    policy_on(probe, STRICT, 11)
    size = len(probe.bytes())
    log = Log()
    boot(log)
    (violation_sized if swapped else policy_on)(
        log, *((12, size) if swapped else (STRICT, 11)))
    file_(log, 1)
    kexec(log, "kexec_load")
    kexec(log, "kexec_execute")
    boot(log)
    (policy_on if swapped else violation_sized)(
        log, *((STRICT, 11) if swapped else (12, size)))
    if second_policy:
        policy_on(log, PERMISSIVE, 11)
    file_(log, 2)
    return log


genuine, forged = cross_pcr(False), cross_pcr(True)
assert genuine.pcrs == forged.pcrs and len(genuine.bytes()) == len(
    forged.bytes())
chk12 = ["--expect-policy", "kexec-strict.policy"]
case("kexec-cross-pcr-policy",
     "the first kernel's policy (PCR 11) swapped with a violation of the "
     "same size (PCR 12) after the second kernel's boot_aggregate: every "
     "replay, count and size holds, so nothing the TPM orders puts it in "
     "the last kernel: no policy is attributed to it",
     forged.bytes(), quote12("kexec-cross-pcr-policy", state(forged)) +
     chk12, 1, [("-", "policy")])
case("kexec-cross-pcr-policy-genuine",
     "the same list in its genuine order: the TPM cannot tell it from the "
     "swapped one, so it is refused the same way (a known limit of "
     "attribution across PCRs)", genuine.bytes(),
     quote12("kexec-cross-pcr-policy-genuine", state(genuine)) + chk12, 1,
     [("-", "policy")])
log = cross_pcr(False, True)
case("kexec-cross-pcr-policy-control",
     "control: the second kernel recorded its policy on PCR 11 too; the "
     "kexec_execute count (4 entries, 3 of them on PCR 10) puts at most "
     "one PCR 11 record before the hand-over, so the second one is the "
     "last kernel's: passes", log.bytes(),
     quote12("kexec-cross-pcr-policy-control", state(log)) +
     ["--expect-policy", "kexec-permissive.policy"], 0)


# one kernel, two policies on two PCRs: loaded permissive (PCR 10), then
# strict (PCR 11); presented with the strict one first, the permissive
# one read as the last
def two_pcrs(swapped):
    log = Log()
    boot(log)
    file_(log, 1)
    if swapped:
        policy_on(log, STRICT, 11)
        policy_on(log, PERMISSIVE, 10)
    else:
        policy_on(log, PERMISSIVE, 10)
        policy_on(log, STRICT, 11)
    return log


genuine, forged = two_pcrs(False), two_pcrs(True)
assert genuine.pcrs == forged.pcrs
case("kexec-cross-pcr-last-policy",
     "one kernel, a permissive policy on PCR 10 and a later strict one on "
     "PCR 11, presented strict first: which was recorded last is cross-PCR "
     "order, which the TPM does not attest: no policy is attributed",
     forged.bytes(), quote12("kexec-cross-pcr-last-policy", state(forged)) +
     ["--expect-policy", "kexec-permissive.policy"], 1, [("-", "policy")])
