#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The command as a first-time user meets it: the cases in tests/command.

What a run prints when the user gave too little (no PCR values: one line
per failure class, with the count and the fix; -v every failure), the
policy the list claims when nothing attests it (--show-policy), the
recorded policy against the policy file as the kernel prints it back
(--expect-policy: comments, blank lines, spacing and option order do not
count, a changed or extra rule does, named with both lines), and every
mistake named: a mistyped, abbreviated or argument-less option (exit 2),
a directory or a missing file where a file is expected, a file of
another kind -- an ASCII list read as binary, evmctl's PCR file without
its bank, a binary file as PCR values, tpm2_quote's serialized values --
(exit 3). Expectations from how each case is built: the lists' own
records (gen/imalog.py), the policy file's rules, the documented limits
(100 failures listed per class).

usage: mkcommand.py OUT_DIR
"""
import hashlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imaforms  # noqa: E402
import imalog  # noqa: E402
from imalog import Log, d_ng, n_ng  # noqa: E402

out = sys.argv[1]
fx = imalog.Fixtures(out, ("",), b"command")
write, BOOT, AGG = fx.write, fx.boot, fx.agg
here = os.path.dirname(os.path.abspath(__file__))
REAL = os.path.join(out, "..", "real")
POLICY_FILE = os.path.join(here, "..", "..", "..", "policies", "ima-policy")
POLICY_ARG = "../../../../policies/ima-policy"     # from tests/command


def case(name, reason, args, exit_, fails=(), has=(), errhas=(),
         lacks=(), errlacks=(), data=None, list_arg=None):
    """A runner case; the list is NAME.bin (data) or list_arg."""
    if data is not None:
        write(name + ".bin", data)
    write(name + ".args", (" ".join(
        args + ([list_arg] if list_arg else
                [name + ".bin"] if data is not None else [])) +
        "\n").encode())
    lines = ["# %s" % reason, "exit %d" % exit_]
    lines += ["fail %s %s" % f for f in sorted(set(fails), key=str)]
    lines += ["stdout-has %s" % h for h in has]
    lines += ["stderr-has %s" % h for h in errhas]
    lines += ["stdout-lacks %s" % h for h in lacks]
    lines += ["stderr-lacks %s" % h for h in errlacks]
    write(name + ".expect", ("\n".join(lines) + "\n").encode())


# --- the real guest list with no PCR values: a first run --------------
with open(os.path.join(REAL, "list.bin"), "rb") as f:
    real = imalog.entries(f.read())
N = len(real)
assert all(e.pcr == 10 for e in real)
claimed = None
for i, e in enumerate(real):
    fl = imalog.fields(e.data)
    if e.name == "ima-buf" and fl[1].rstrip(b"\0") in (b"ima_policy",
                                                      b"ima_policy_loaded"):
        claimed = fl[2].decode()
KEPT = 100      # IMA_FAILURES_PER_CLASS: the first 100 of a class kept
case("first-run", "the real list and nothing that binds it: its %d "
     "unbound-pcr failures are one line with the count, the entries and "
     "what to do (--pcrs, --tpm-sysfs, --ignore-pcr); the JSON lists the "
     "first %d" % (N, KEPT), [], 1,
     [(str(i), "unbound-pcr") for i in range(KEPT)],
     has=["FAIL: %d unbound-pcr failures (entries 0..%d; -v lists each); "
          "the first: entry 0 @0: boot_aggregate: PCR 10 is not bound"
          % (N, N - 1), "--pcrs FILE", "--tpm-sysfs", "--ignore-pcr N"],
     lacks=["FAIL: entry 1 @"], list_arg="../real/list.bin")
case("first-run-verbose", "the same with -v: one line per listed failure, "
     "the rest counted", ["-v"], 1,
     [(str(i), "unbound-pcr") for i in range(KEPT)],
     has=["FAIL: entry 1 @", "FAIL: ... %d more unbound-pcr failures not "
          "listed" % (N - KEPT)], list_arg="../real/list.bin")
last_rule = [ln for ln in claimed.split("\n") if ln.strip()][-1]
case("show-policy-unbound", "--show-policy without PCR values: the policy "
     "the list claims, said to be attested by nothing (exit 1)",
     ["--show-policy"], 1, has=[last_rule],
     errhas=["NOT ATTESTED: nothing binds PCR 10"],
     list_arg="../real/list.bin")

# --- --expect-policy: the policy file against what the kernel printed --
with open(POLICY_FILE) as f:
    source = f.read().split("\n")
rules = [ln.strip() for ln in source if ln.strip() and
         not ln.strip().startswith("#")]
# the kernel prints each rule back with a blank after each word, and no
# comment (ima_policy_show); our policy is written in the kernel's order
printed = "".join(r + " \n" for r in rules).encode()


def policy_list(policy):
    log = Log()
    log.add("ima-ng", [d_ng("sha256", AGG), n_ng("boot_aggregate")])
    log.add("ima-ng", [d_ng("sha256", hashlib.sha256(b"a").digest()),
                       n_ng("/usr/bin/a")])
    log.add("ima-buf", [d_ng("sha256", hashlib.sha256(policy).digest()),
                        n_ng("ima_policy_loaded"), policy])
    return log


log = policy_list(printed)
write("policy.pcrs", imalog.pcr_lines(log, BOOT).encode())
case("expect-policy-own", "the project's own policies/ima-policy against "
     "the policy the kernel records of it (a blank after each rule, no "
     "comments): the same rules, passes", ["--pcrs", "policy.pcrs",
                                            "--expect-policy", POLICY_ARG],
     0, has=["matches expected"], data=log.bytes())
k = rules.index("measure func=KEXEC_CMDLINE")
changed = list(rules)
changed[k] = "measure func=KEXEC_CMDLINE uid=0"
line = next(i for i, ln in enumerate(source, 1)
            if ln.strip() == "measure func=KEXEC_CMDLINE")
write("policy-changed.policy", ("\n".join(
    ln if i != line else "measure func=KEXEC_CMDLINE uid=0"
    for i, ln in enumerate(source, 1))).encode())
case("expect-policy-changed", "one rule of the file differs from what the "
     "kernel recorded: the failure names the rule and both lines",
     ["--pcrs", "policy.pcrs", "--expect-policy", "policy-changed.policy"],
     1, [("2", "policy")],
     has=["rule %d differs: recorded 'measure func=KEXEC_CMDLINE', "
          "policy-changed.policy line %d 'measure func=KEXEC_CMDLINE uid=0'"
          % (k + 1, line)], data=log.bytes())
reordered = ["# the same rules, written another way", ""] + [
    "  " + " ".join([r.split()[0]] + r.split()[1:][::-1]) + "\t "
    for r in rules]
write("policy-reordered.policy", ("\n".join(reordered) + "\n").encode())
case("expect-policy-reordered", "control: the same rules with options in "
     "another order, other blanks and comments: they are the same rules",
     ["--pcrs", "policy.pcrs", "--expect-policy", "policy-reordered.policy"],
     0, data=log.bytes())
write("policy-extra.policy", ("\n".join(source) +
                              "\nmeasure func=FILE_CHECK\n").encode())
case("expect-policy-extra", "the file has a rule the kernel did not "
     "record: named", ["--pcrs", "policy.pcrs", "--expect-policy",
                       "policy-extra.policy"], 1, [("2", "policy")],
     has=["policy-extra.policy has 1 rule(s) more than the recorded "
          "policy"], data=log.bytes())

# --- mistakes on the command line: exit 2, one message each ----------
small = policy_list(printed)
case("option-mistyped", "a mistyped option: named, with the one meant",
     ["--manifets", "policy.pcrs"], 2,
     errhas=["unknown option '--manifets': did you mean '--manifest'?"],
     data=small.bytes())
case("option-ambiguous", "an abbreviation of several options: they are "
     "named", ["--pc", "policy.pcrs"], 2,
     errhas=["ambiguous option '--pc': --pcr, --pcrs, --pcr-value?"],
     data=small.bytes())
write("option-no-argument.args", b"--manifest\n")
write("option-no-argument.expect", (
    "# an option without its argument: said so, and nothing else\n"
    "exit 2\nstderr-has option '--manifest' requires an argument "
    "(a file)\nstderr-lacks unknown option\n").encode())
case("option-takes-none", "an argument to an option that takes none",
     ["--allow-sha1=yes"], 2,
     errhas=["option '--allow-sha1' takes no argument"], data=small.bytes())

# --- an input that cannot be read or is not of its kind: exit 3 -------
for opt in ("--pcrs", "--manifest", "--deny", "--key", "--ca",
            "--expect-policy"):
    name = "directory" + opt[1:]
    case(name, "a directory given as %s: exit 3, as for every input" % opt,
         [opt, "."], 3, errhas=[".: a directory, not a file"],
         data=small.bytes())
    name = "missing" + opt[1:]
    case(name, "a missing file given as %s: exit 3" % opt,
         [opt, "no-such-file"], 3,
         errhas=["no-such-file: No such file or directory"],
         data=small.bytes())
case("directory-list", "a directory given as the list: exit 3", [], 3,
     errhas=[".: a directory, not a measurement list"], list_arg=".")
case("missing-list", "a missing list: exit 3", [], 3,
     errhas=["no-such-list: No such file or directory"],
     list_arg="no-such-list")
write("ascii-as-binary.txt", imaforms.ascii(small.bytes()))
case("ascii-as-binary", "an ASCII list (ascii_runtime_measurements) given "
     "with --format binary: named as what it is", ["--format", "binary"], 3,
     errhas=["an ASCII list (ascii_runtime_measurements) read as binary: "
             "drop --format binary"], list_arg="ascii-as-binary.txt")
write("evmctl.pcrs", imalog.evmctl_pcrs(small, BOOT, "sha256").encode())
case("evmctl-without-bank", "evmctl's PCR file given as --pcrs FILE: it "
     "does not say its bank, so the message says how to give it",
     ["--pcrs", "evmctl.pcrs"], 3,
     errhas=["evmctl.pcrs: evmctl's PCR file ('PCR-NN: HEX' lines), which "
             "does not say its bank: give it, --pcrs sha256,evmctl.pcrs"],
     data=small.bytes())
case("evmctl-with-bank", "control: the same file with its bank",
     ["--pcrs", "sha256,evmctl.pcrs"], 0, data=small.bytes())
case("binary-as-pcrs", "a binary file (here a measurement list) given as "
     "PCR values: named binary, with what to give", ["--pcrs",
                                                     "../real/list.bin"],
     3, errhas=["../real/list.bin: binary, not PCR values text"],
     data=small.bytes())
# tpm2_quote -F serialized: TPML_PCR_SELECTION (132 bytes), a u32 count,
# TPML_DIGESTs (532 bytes each: u32 count, 8 x TPM2B_DIGEST of 66) as laid
# out in memory, for the values of the real quote
with open(os.path.join(REAL, "quote.pcrs"), "rb") as f:
    values = f.read()
ndig = len(values) // 32 + 1
nlists = (ndig + 7) // 8
write("serialized.pcrs", bytes(132) + nlists.to_bytes(4, "little") +
      bytes(532 * nlists))
with open(os.path.join(REAL, "real-quote.args")) as f:
    qargs = f.read().split()
nonce = qargs[qargs.index("--nonce") + 1]
case("quote-pcrs-serialized", "the quoted PCR values in tpm2_quote's -F "
     "serialized form: named, with the format to write",
     ["--quote", "../real/quote.msg", "--quote-sig", "../real/quote.sig",
      "--ak-pub", "../real/ak.pem", "--quote-pcrs", "serialized.pcrs",
      "--nonce", nonce], 3,
     errhas=["serialized.pcrs: PCR values file has %d bytes"
             % (136 + 532 * nlists), "tpm2_quote's -F serialized output: "
             "write -F values"], list_arg="../real/list.bin")
