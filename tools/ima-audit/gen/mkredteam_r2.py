#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Red-team round 2: the r2-* fixtures in tests/redteam.

Same NAME.args / NAME.expect format as gen/mkredteam.py (read there);
the expectations come from how each case is built here, never from a
run of ima-audit. Writes only r2-* files (mkredteam.py, which empties
the directory, runs first in `make regen-redteam`). A throwaway AK is
made now; only its public half (r2-ak.pem) is written.

The forgeries use what the kernel does not hash: a violation extends
0xff.. whatever its template data says, and no bank hashes the template
name, so the holder of the list may rewrite a violation's data, or give
a record another template name under which its data still frames,
without changing any PCR value.

usage: mkredteam_r2.py OUT_DIR
"""
import copy
import hashlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imalog  # noqa: E402
import tpmquote as tq  # noqa: E402
from imalog import Log, d_ng, n_ng  # noqa: E402

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for f in os.listdir(out):
    if f.startswith("r2-"):
        os.unlink(os.path.join(out, f))

BOOT = imalog.boot_pcrs(b"redteam r2")
NONCE = bytes(range(1, 21))
SEL = list(range(11))
STRICT = b"appraise func=BPRM_CHECK appraise_type=imasig\n" \
         b"measure func=FILE_CHECK mask=MAY_READ uid=0\n"
PERMISSIVE = b"measure func=BPRM_CHECK\n"


def write(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


ak, _ = imalog.make_key("rsa", "redteam r2 AK")
write("r2-ak.pem", tq.public_pem(ak))
write("r2-strict.policy", STRICT)
write("r2-permissive.policy", PERMISSIVE)
AGG = imalog.boot_aggregate(BOOT, "sha256")
# a manifest that lists every genuine file below
write("r2-manifest", b"".join(b"%s  /usr/bin/f%d\n" % (
    hashlib.sha256(b"r2 file %d" % i).digest().hex().encode(), i)
    for i in range(10)))


def fd(i):
    return hashlib.sha256(b"r2 file %d" % i).digest()


def boot(log, digest=AGG):
    log.add("ima-ng", [d_ng("sha256", digest), n_ng("boot_aggregate")])


def policy(log, text):
    log.add("ima-buf", [d_ng("sha256", hashlib.sha256(text).digest()),
                        n_ng("ima_policy"), text])


def state(log):
    return imalog.pcr_state(BOOT, log)


def quote(name, st):
    """A genuine quote of st (sha256 PCR 0-10) with the r2 AK."""
    return tq.quote_case(write, ak, "r2-ak.pem", name, st, NONCE, SEL)


relabel = imalog.relabel


def case(name, reason, data, args, exit_, fails=(), has=()):
    imalog.write_case(write, name, reason, data, args, exit_, fails, has)


# --- a violation's template data is hashed by nothing
def with_violation(forged):
    log = Log()
    boot(log)
    policy(log, STRICT)
    log.add("ima-ng", [d_ng("sha256", fd(1)), n_ng("/usr/bin/f1")])
    if forged:
        # the violation's data rewritten as the ima_policy record
        log.add("ima-buf", [d_ng("sha256",
                                 hashlib.sha256(PERMISSIVE).digest()),
                            n_ng("ima_policy"), PERMISSIVE], violation=True)
    else:
        log.add("ima-ng", [d_ng("sha256", b"\0" * 32), n_ng("/var/log/x")],
                violation=True)
    log.add("ima-ng", [d_ng("sha256", fd(2)), n_ng("/usr/bin/f2")])
    return log


genuine, forged = with_violation(False), with_violation(True)
assert genuine.pcrs == forged.pcrs
st = state(genuine)
case("r2-violation-policy",
     "a violation (entry 3) rewritten as a permissive ima_policy record "
     "replays the same: its data attests nothing, so the recorded policy "
     "is still entry 1's", forged.bytes(),
     quote("r2-violation-policy", st) +
     ["--expect-policy", "r2-permissive.policy"], 1, [(1, "policy")])
case("r2-violation-policy-control",
     "control: the same list passes against the real (strict) policy",
     forged.bytes(), quote("r2-violation-policy-control", st) +
     ["--expect-policy", "r2-strict.policy"], 0)

# --- template names are hashed by nothing: a file record renamed
log = Log()
boot(log)
log.add("ima-ng", [d_ng("sha256", hashlib.sha256(b"evil").digest()),
                   n_ng("/usr/bin/evil")])
st = state(log)
chk = ["--require-signatures", "--manifest", "r2-manifest"]
case("r2-relabel-no-name",
     "an unsigned file not in the manifest, its ima-ng record renamed "
     "'d-ng|xattrnames' (no name field): still unsigned and not in the "
     "manifest", relabel(log.bytes(), 1, "d-ng|xattrnames"),
     quote("r2-relabel-no-name", st) + chk, 1,
     [(1, "unsigned"), (1, "manifest-path")])
case("r2-relabel-no-digest",
     "the same record renamed 'xattrnames|n-ng' (no digest field): still "
     "unsigned, and no manifest digest matches",
     relabel(log.bytes(), 1, "xattrnames|n-ng"),
     quote("r2-relabel-no-digest", st) + chk, 1,
     [(1, "unsigned"), (1, "manifest-digest")])
log = Log()
boot(log)
log.add("ima-sig", [d_ng("sha256", hashlib.sha256(b"evil").digest()),
                    n_ng("/usr/bin/evil"), b""])
case("r2-relabel-buf-no-digest",
     "an unsigned ima-sig record renamed 'xattrnames|n-ng|buf': a buffer "
     "with no digest field is no checked buffer",
     relabel(log.bytes(), 1, "xattrnames|n-ng|buf"),
     quote("r2-relabel-buf-no-digest", state(log)) + chk, 1,
     [(1, "buf-digest")])

# --- a later policy hidden by renaming its record
log = Log()
boot(log)
policy(log, STRICT)
log.add("ima-ng", [d_ng("sha256", fd(3)), n_ng("/usr/bin/f3")])
policy(log, PERMISSIVE)
st = state(log)
for nm, tmpl in (("no-buf", "d-ng|n-ng|evmsig"),
                 ("no-name", "d-ng|iuid|buf")):
    case("r2-relabel-policy-" + nm,
         "the permissive policy (entry 3) renamed '%s' so that an earlier "
         "strict one would be the last: the renamed record fails" % tmpl,
         relabel(log.bytes(), 3, tmpl),
         quote("r2-relabel-policy-" + nm, st) +
         ["--expect-policy", "r2-strict.policy"], 1, [(3, "policy")])

# --- boot_aggregate with a quote
st = copy.deepcopy(BOOT)
case("r2-empty-list-quote",
     "an empty list and a quote whose PCR 10 is still zero (IMA never "
     "extended it): there is no boot_aggregate to verify", b"",
     quote("r2-empty-list-quote", st), 1,
     [("-", "boot-aggregate-unverified")])
case("r2-empty-list-quote-waived",
     "the same with --allow-unverified-boot: passes, the waiver printed",
     b"", quote("r2-empty-list-quote-waived", st) +
     ["--allow-unverified-boot"], 0,
     has=["boot_aggregate not verified (--allow-unverified-boot)"])
log = Log()
boot(log, b"\0" * 32)
log.add("ima-ng", [d_ng("sha256", fd(4)), n_ng("/usr/bin/f4")])
case("r2-zero-boot-quote",
     "boot_aggregate all zeros (no TPM) while a TPM quoted the list: "
     "nothing verified against PCRs 0-9", log.bytes(),
     quote("r2-zero-boot-quote", state(log)), 1,
     [(0, "boot-aggregate-unverified")])
print("r2 red-team fixtures written to %s" % out)
