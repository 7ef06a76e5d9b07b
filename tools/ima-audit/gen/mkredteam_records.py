#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Red-team fixtures on what a record is: violations and renamed templates.

Same NAME.args / NAME.expect format as gen/mkredteam.py (read there);
the expectations come from how each case is built here, never from a
run of ima-audit. Writes only its own files (names starting with
"records-", "violation-", "renaming-", "boot-empty-", "boot-zero-");
mkredteam.py, which empties the directory, runs first in `make
regen-redteam`. A throwaway AK and IMA key are made now; only their
public halves (records-ak.pem, records-ima.der) are written.

The forgeries use what the kernel does not hash: a violation extends
0xff.. whatever its template data says, and no bank hashes the template
name, so the holder of the list may rewrite a violation's data, or give
a record another template name under which its data still frames,
without changing any PCR value.

usage: mkredteam_records.py OUT_DIR
"""
import copy
import hashlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imalog  # noqa: E402
import tpmquote as tq  # noqa: E402
from imalog import (QUOTE_PCRS as SEL, PERMISSIVE_POLICY as PERMISSIVE,  # noqa: E402
                    STRICT_POLICY as STRICT, Log, d_ng, n_ng)

fx = imalog.Fixtures(sys.argv[1], ("records-", "violation-", "renaming-",
                                   "boot-empty-", "boot-zero-"),
                     b"redteam records")
write, case, BOOT, AGG = fx.write, fx.case, fx.boot, fx.agg
NONCE = bytes(range(1, 21))

ak, _ = imalog.make_key("rsa", "redteam records AK")
write("records-ak.pem", tq.public_pem(ak))
write("records-strict.policy", STRICT)
write("records-permissive.policy", PERMISSIVE)
# a manifest that lists every genuine file below
write("records-manifest", b"".join(b"%s  /usr/bin/f%d\n" % (
    hashlib.sha256(b"records file %d" % i).digest().hex().encode(), i)
    for i in range(10)))


def fd(i):
    return hashlib.sha256(b"records file %d" % i).digest()


def boot(log, digest=AGG):
    log.add("ima-ng", [d_ng("sha256", digest), n_ng("boot_aggregate")])


def policy(log, text):
    log.add("ima-buf", [d_ng("sha256", hashlib.sha256(text).digest()),
                        n_ng("ima_policy"), text])


def state(log):
    return imalog.pcr_state(BOOT, log)


def quote(name, st, nonce=NONCE):
    """A genuine quote of st (sha256 PCR 0-10) with the records AK."""
    return tq.quote_case(write, ak, "records-ak.pem", name, st, nonce, SEL)


relabel = imalog.relabel


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
case("violation-policy",
     "a violation (entry 3) rewritten as a permissive ima_policy record "
     "replays the same: its data attests nothing, so the recorded policy "
     "is still entry 1's", forged.bytes(),
     quote("violation-policy", st) +
     ["--expect-policy", "records-permissive.policy"], 1, [(1, "policy")])
case("violation-policy-control",
     "control: the same list passes against the real (strict) policy",
     forged.bytes(), quote("violation-policy-control", st) +
     ["--expect-policy", "records-strict.policy"], 0)

# --- template names are hashed by nothing: a file record renamed
log = Log()
boot(log)
log.add("ima-ng", [d_ng("sha256", hashlib.sha256(b"evil").digest()),
                   n_ng("/usr/bin/evil")])
st = state(log)
chk = ["--require-signatures", "--manifest", "records-manifest"]
case("renaming-no-name",
     "an unsigned file not in the manifest, its ima-ng record renamed "
     "'d-ng|xattrnames' (no name field): still unsigned and not in the "
     "manifest", relabel(log.bytes(), 1, "d-ng|xattrnames"),
     quote("renaming-no-name", st) + chk, 1,
     [(1, "unsigned"), (1, "manifest-path")])
case("renaming-no-digest",
     "the same record renamed 'xattrnames|n-ng' (no digest field): still "
     "unsigned, and no manifest digest matches",
     relabel(log.bytes(), 1, "xattrnames|n-ng"),
     quote("renaming-no-digest", st) + chk, 1,
     [(1, "unsigned"), (1, "manifest-digest")])
log = Log()
boot(log)
log.add("ima-sig", [d_ng("sha256", hashlib.sha256(b"evil").digest()),
                    n_ng("/usr/bin/evil"), b""])
case("renaming-buf-no-digest",
     "an unsigned ima-sig record renamed 'xattrnames|n-ng|buf': a buffer "
     "with no digest field is no checked buffer",
     relabel(log.bytes(), 1, "xattrnames|n-ng|buf"),
     quote("renaming-buf-no-digest", state(log)) + chk, 1,
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
    case("renaming-policy-" + nm,
         "the permissive policy (entry 3) renamed '%s' so that an earlier "
         "strict one would be the last: the renamed record fails" % tmpl,
         relabel(log.bytes(), 3, tmpl),
         quote("renaming-policy-" + nm, st) +
         ["--expect-policy", "records-strict.policy"], 1, [(3, "policy")])

# --- boot_aggregate with a quote
st = copy.deepcopy(BOOT)
case("boot-empty-list-quote",
     "an empty list and a quote whose PCR 10 is still zero (IMA never "
     "extended it): there is no boot_aggregate to verify", b"",
     quote("boot-empty-list-quote", st), 1,
     [("-", "boot-aggregate-unverified")])
case("boot-empty-list-quote-waived",
     "the same with --allow-unverified-boot: passes, the waiver printed",
     b"", quote("boot-empty-list-quote-waived", st) +
     ["--allow-unverified-boot"], 0,
     has=["boot_aggregate not verified (--allow-unverified-boot)"])
log = Log()
boot(log, b"\0" * 32)
log.add("ima-ng", [d_ng("sha256", fd(4)), n_ng("/usr/bin/f4")])
case("boot-zero-aggregate-quote",
     "boot_aggregate all zeros (no TPM) while a TPM quoted the list: "
     "nothing verified against PCRs 0-9", log.bytes(),
     quote("boot-zero-aggregate-quote", state(log)), 1,
     [(0, "boot-aggregate-unverified")])

# --- a file record renamed to read as a buffer (an IMA key signs files;
# these quotes answer another nonce)
NONCE_FILES = bytes(range(3, 23))
ima_key, ima_cert = imalog.make_key("rsa", "redteam records IMA key")
imalog.write_cert(ima_cert, os.path.join(fx.out, "records-ima.der"))
EMPTY = hashlib.sha256(b"").digest()
CONF = "/etc/ssh/sshd_config"
CONF_DIGEST = hashlib.sha256(b"PermitRootLogin no\n").digest()
# every genuine file below, and sshd_config with its real (non-empty) text
write("records-conf-manifest", b"".join(b"%s  /usr/bin/f%d\n" % (
    fd(i).hex().encode(), i) for i in range(10)) +
    b"%s  %s\n" % (CONF_DIGEST.hex().encode(), CONF.encode()))
# the same, sshd_config listed empty (the control: an empty file that is
# meant to be empty)
write("records-conf-manifest-empty", b"".join(b"%s  /usr/bin/f%d\n" % (
    fd(i).hex().encode(), i) for i in range(10)) +
    b"%s  %s\n" % (EMPTY.hex().encode(), CONF.encode()))


def buf(log, name, data, tmpl="ima-buf"):
    log.add(tmpl, [d_ng("sha256", hashlib.sha256(data).digest()),
                   n_ng(name), data])


def signed_file(log, i):
    sig = imalog.sig_v2("sha256", imalog.keyid(ima_cert),
                        imalog.sign_digest(ima_key, "sha256", fd(i)))
    log.add("ima-sig", [d_ng("sha256", fd(i)), n_ng("/usr/bin/f%d" % i),
                        sig])


# an empty file: its unsigned ima-sig record renamed ima-buf
mchk = ["--key", "records-ima.der", "--require-signatures"]
log = Log()
boot(log)
signed_file(log, 4)
log.add("ima-sig", [d_ng("sha256", EMPTY), n_ng(CONF), b""])
case("renaming-empty-file-as-buf",
     "root read %s truncated to empty (unsigned, not the manifest's "
     "digest); its ima-sig record renamed ima-buf reads as an empty "
     "buffer of the same digest: still an unsigned file not in the "
     "manifest" % CONF, relabel(log.bytes(), 2, "ima-buf"),
     quote("renaming-empty-file-as-buf", state(log), NONCE_FILES) + mchk +
     ["--manifest", "records-conf-manifest"], 1,
     [(2, "unsigned"), (2, "manifest-digest")])
log = Log()
boot(log)
signed_file(log, 4)
sig = imalog.sig_v2("sha256", imalog.keyid(ima_cert),
                    imalog.sign_digest(ima_key, "sha256", EMPTY))
log.add("ima-sig", [d_ng("sha256", EMPTY), n_ng(CONF), sig])
buf(log, "kexec-cmdline", b"console=ttyS0 ro")
case("renaming-empty-file-control",
     "control: the empty file signed, listed empty in the manifest, and a "
     "genuine ima-buf record (kexec-cmdline): passes", log.bytes(),
     quote("renaming-empty-file-control", state(log), NONCE_FILES) + mchk +
     ["--manifest", "records-conf-manifest-empty"], 0)
# a file whose content is its own security.ima bytes: the kernel logs an
# xattr that starts as a signature (0x03) in the sig field, valid or not,
# so the record's third field hashes to its digest; renamed ima-buf it
# read as a buffer and escaped --require-signatures
SELF = b"\x03\x02\x04" + b"not a signature of anything" * 3
log = Log()
boot(log)
signed_file(log, 6)
log.add("ima-sig", [d_ng("sha256", hashlib.sha256(SELF).digest()),
                    n_ng("/usr/bin/selfsig"), SELF])
case("renaming-self-signature-as-buf",
     "a file whose content equals its bogus signature xattr, its ima-sig "
     "record renamed ima-buf: a third field that starts as a signature is "
     "one, so the record is an unsigned file", relabel(log.bytes(), 2,
                                                        "ima-buf"),
     quote("renaming-self-signature-as-buf", state(log), NONCE_FILES) + mchk, 1,
     [(2, "unsigned")])

# --- every reading the kernel's template fields allow, not the three
# templates we use. A policy record under a custom template with one more
# field (ima_template_fmt or a rule's template=d-ng|n-ng|buf|iuid: the
# kernel leaves iuid empty for a buffer), renamed with its field names
# reordered, read as a file and hid the later policy
CUSTOM = "d-ng|n-ng|buf|iuid"


def custom_policies():
    """boot, the strict policy (entry 1), a file, the permissive policy
    (entry 3) under CUSTOM."""
    log = Log()
    boot(log)
    policy(log, STRICT)
    log.add("ima-ng", [d_ng("sha256", fd(3)), n_ng("/usr/bin/f3")])
    log.add(CUSTOM, [d_ng("sha256", hashlib.sha256(PERMISSIVE).digest()),
                     n_ng("ima_policy_loaded"), PERMISSIVE, b""])
    return log


log = custom_policies()
st = state(log)
for nm, tmpl in (("custom-fields", "d-ng|n-ng|xattrvalues|iuid"),
                 ("fields-reordered", "d-ng|xattrvalues|n-ng|iuid")):
    case("renaming-policy-" + nm,
         "the permissive policy (entry 3, template %s) renamed '%s' so "
         "that the earlier strict one would be the last: the renamed "
         "record fails" % (CUSTOM, tmpl), relabel(log.bytes(), 3, tmpl),
         quote("renaming-policy-" + nm, st) +
         ["--expect-policy", "records-strict.policy"], 1, [(3, "policy")])
case("renaming-policy-custom-control",
     "control: the same list under its own names: the permissive policy "
     "(entry 3, %s) is the recorded one" % CUSTOM, log.bytes(),
     quote("renaming-policy-custom-control", st) +
     ["--expect-policy", "records-permissive.policy"], 0)


# a boot_aggregate with the legacy d digest (ima_template_fmt=d|n-ng: sha1
# over PCRs 0-7), its value not the PCRs' (another boot), renamed to a
# template without a name field: no boot_aggregate was seen, nothing
# checked against the PCR values
def legacy_boot(name, reason, agg, tmpl, exit_, fails=()):
    log = Log()
    log.add("d|n-ng", [agg, n_ng("boot_aggregate")])
    log.add("ima-ng", [d_ng("sha256", fd(5)), n_ng("/usr/bin/f5")])
    write(name + ".pcrs", imalog.pcr_lines(log, BOOT).encode())
    case(name, reason, relabel(log.bytes(), 0, tmpl),
         ["--pcrs", name + ".pcrs"], exit_, fails)


legacy_boot("renaming-boot-legacy-digest",
            "a boot_aggregate (d|n-ng, sha1) of other PCRs 0-7 renamed "
            "'d|xattrnames': still the first entry's boot_aggregate, and "
            "it does not match", hashlib.sha1(b"another boot").digest(),
            "d|xattrnames", 1, [(0, "boot-aggregate")])
legacy_boot("renaming-boot-legacy-digest-control",
            "control: the boot_aggregate of these PCRs 0-7 under its own "
            "name d|n-ng: matches, passes",
            imalog.boot_aggregate(BOOT, "sha1"), "d|n-ng", 0)

# a file whose content equals its own EVM-protected xattrs' values,
# measured under evm-sig (the kernel fills iuid, igid and imode for a
# file), renamed so that xattrvalues is a buf field: its hash is the
# digest, and the record read as a buffer, no signature needed. A buffer
# the kernel writes fills no file field: read as a file, unsigned
XV = b"\x04\x04" + hashlib.sha256(b"records xattr").digest()
EVM_SIG = "d-ng|n-ng|evmsig|xattrnames|xattrlengths|xattrvalues|iuid|" \
          "igid|imode"
log = Log()
boot(log)
log.add(EVM_SIG, [d_ng("sha256", hashlib.sha256(XV).digest()),
                  n_ng("/usr/bin/xattrs"), b"", b"security.ima\0",
                  len(XV).to_bytes(4, "little"), XV, b"\0\0\0\0",
                  b"\0\0\0\0", b"\xed\x81"])
case("renaming-file-extra-fields-as-buf",
     "an unsigned file whose content equals its xattr values, its evm-sig "
     "record renamed with xattrvalues as buf: its iuid, igid and imode "
     "are filled, so it is no buffer the kernel writes: an unsigned file",
     relabel(log.bytes(), 1, EVM_SIG.replace("xattrvalues", "buf")),
     quote("renaming-file-extra-fields-as-buf", state(log)) +
     ["--require-signatures"], 1, [(1, "unsigned")])

# the limit of reading by data: a file field that can hold any bytes
# (xattrvalues; xattrlengths, xattrnames, iuid, igid, imode in their
# sizes) is, in a custom template where it is the file's only field
# besides its digest and name, what a buffer field is. An unsigned file
# whose content equals its one EVM xattr's value, measured under
# d-ng|n-ng|xattrvalues and renamed d-ng|n-ng|buf, reads as a buffer
log = Log()
boot(log)
log.add("d-ng|n-ng|xattrvalues", [d_ng("sha256", hashlib.sha256(XV).digest()),
                                   n_ng("/usr/bin/xattrs"), XV])
case("renaming-file-xattrvalues-as-buf",
     "an unsigned file whose content equals its only xattr value, measured "
     "under d-ng|n-ng|xattrvalues, renamed d-ng|n-ng|buf: an unsigned file",
     relabel(log.bytes(), 1, "d-ng|n-ng|buf"),
     quote("renaming-file-xattrvalues-as-buf", state(log)) +
     ["--require-signatures"], 1, [(1, "unsigned")],
     todo="its data is what a buffer record's is: the template, hashed by "
     "nothing, is the only difference (README: limits of reading by data)")
