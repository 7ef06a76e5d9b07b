#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The table of public inputs tried: ours, the peers', the shipped value.

    peers.py IMA_AUDIT IMA_ATTEST OUT.md

For every firmware log in tools/ima-attest/tests/public and every case in
tools/ima-audit/tests/public, runs our tool and a peer on the same input
and writes one Markdown row: source, kind, our result, the peer's result
(read from its output, never from its exit status: tpm2_eventlog and
evmctl exit 0 on inputs they did not verify), and what the source ships.
A measurement, dated: the file says when and with which versions.
"""
import datetime
import os
import re
import shlex
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
attest_dir = os.path.join(here, "..", "..", "ima-attest", "tests", "public")
audit_dir = os.path.join(here, "..", "tests", "public")
audit, attest, out = (os.path.abspath(a) for a in sys.argv[1:4])


def run(argv, cwd=None):
    try:
        p = subprocess.run(argv, cwd=cwd, capture_output=True, timeout=60)
    except FileNotFoundError:
        return None, "", ""
    return (p.returncode, p.stdout.decode(errors="replace"),
            p.stderr.decode(errors="replace"))


def version(argv):
    rc, o, e = run(argv)
    text = (o + e).strip().splitlines()
    return text[0] if text else "not installed"


def sources(d):
    rows = {}
    with open(os.path.join(d, "SOURCES")) as f:
        for line in f:
            if line.startswith("#"):
                continue
            name, repo, path, commit, lic, shipped = \
                line.rstrip("\n").split("\t")
            rows.setdefault(name, (repo, path, commit, lic, []))[4] \
                .append(shipped)
    return rows


def tpm2_pcrs(text):
    vals, bank, on = {}, None, False
    for line in text.splitlines():
        if line.startswith("pcrs:"):
            on = True
        elif on and re.match(r"^  \w+:\s*$", line):
            bank = line.strip()[:-1]
        elif on and bank:
            m = re.match(r"^\s+(\d+)\s*: 0x([0-9a-fA-F]+)", line)
            if m:
                vals["%s:%s" % (bank, m.group(1))] = m.group(2).lower()
    return vals


def cell(s):
    return s.replace("|", "\\|").replace("\n", " ")


def exp_events(log):
    with open(log, "rb") as f:
        return f.read(4096).decode("latin-1")


def firmware_rows():
    rows = []
    for name, (repo, path, commit, lic, shipped) in \
            sorted(sources(attest_dir).items()):
        log = os.path.join(attest_dir, name)
        rc, o, e = run([attest, "eventlog", log])
        ours = dict(line.split(" ", 1) for line in o.splitlines()
                    if not line.startswith("reason:"))
        if rc == 0:
            m = re.search(r": (SHA1 \(TCG 1.2\) format|crypto agile)[^\n]*",
                          e)
            us = "parsed, %d PCR values; %s" % (
                len(ours), m.group(0)[2:] if m else "?")
        else:
            r = re.search(r"does not parse: (.*?) \(record", o)
            us = "refused: " + (r.group(1) if r else o.strip()[:80])
        prc, po, pe = run(["tpm2_eventlog", log])
        if prc is None:
            peer = "tpm2_eventlog not installed"
        elif prc < 0 or prc > 128:
            peer = "tpm2_eventlog crashed (signal %d)" % (
                -prc if prc < 0 else prc - 128)
        elif "ERROR" in pe:
            peer = "tpm2_eventlog: " + pe.strip().splitlines()[0][:70]
        else:
            theirs = tpm2_pcrs(po)
            diff = sorted(k for k in set(theirs) & set(ours)
                          if theirs[k] != ours[k])
            only = sorted(set(theirs) - set(ours))
            if not theirs:
                peer = "tpm2_eventlog: no PCR values printed"
            elif rc != 0:
                peer = "tpm2_eventlog accepts it (%d PCR values)" % \
                    len(theirs)
            elif diff:
                peer = "tpm2_eventlog differs: %s %s..." % (
                    diff[0], theirs[diff[0]][:12])
            elif only:
                peer = "tpm2_eventlog: also %s" % ", ".join(only[:3])
            else:
                peer = "tpm2_eventlog: the same %d values" % len(theirs)
        with open(log[:-4] + ".expect") as f:
            exp = f.read()
        n = exp.count("\npcr ")
        if "StartupLocality" in exp_events(log) and "differs: sha" \
                "1:0" in peer:
            peer += " (it extends the StartupLocality EV_NO_ACTION event)"
        rows.append(("%s `%s`@%s (%s)" % (repo, path, commit, lic),
                     "firmware log", us, peer,
                     "%s%s" % ("; ".join(shipped),
                               " — %d value(s), all equal to ours" % n
                               if n and rc == 0 else "")))
    return rows


def audit_rows():
    rows = []
    srcs = sources(audit_dir)
    for case in sorted(f[:-5] for f in os.listdir(audit_dir)
                       if f.endswith(".args")):
        with open(os.path.join(audit_dir, case + ".args")) as f:
            args = shlex.split(f.read())
        lst = args[-1]
        repo, path, commit, lic, shipped = srcs.get(
            lst, ("?", "?", "?", "?", ["?"]))
        rc, o, e = run([audit] + args, cwd=audit_dir)
        res = re.search(r"^result: +(.*)$", o, re.M)
        fails = sorted(set(re.findall(r"^FAIL: (?:entry \d+ @\d+: )?(?:[^:]*: )?"
                                      r"([^\n]{0,50})", o, re.M)))
        ent = re.search(r"^entries: +(\d+)", o, re.M)
        th = re.search(r"^template hash: +(.*)$", o, re.M)
        us = "%s; %s entries, template hash %s%s" % (
            res.group(1) if res else "exit %d" % rc,
            ent.group(1) if ent else "?", th.group(1) if th else "?",
            ("; " + "; ".join(fails[:2])) if fails else "")
        if re.search(r"\.(bin)$", lst):
            prc, po, pe = run(["evmctl", "ima_measurement", "-v",
                               "--ignore-violations",
                               os.path.join(audit_dir, lst)])
            lines = [x for x in (po + pe).splitlines()
                     if re.match(r"^\s?\d+ [0-9a-f]{40} ", x)]
            peer = ("evmctl: lists %d entries, %s" % (
                len(lines), "no verdict: 'Failed to read any TPM PCRs'"
                if "Failed to read any TPM PCRs" in po + pe else
                (po + pe).strip().splitlines()[-1][:60]))
            if "Unable to read template" in po + pe:
                peer = "evmctl: 'Unable to read template', no verdict"
        else:
            peer = "evmctl: reads no ASCII list"
        with open(os.path.join(audit_dir, case + ".expect")) as f:
            why = f.readline()[2:].strip()
        rows.append(("%s `%s`@%s (%s)" % (repo, path, commit, lic),
                     "IMA list" + (" (ASCII)" if not lst.endswith(".bin")
                                   else ""), us, peer, why))
    return rows


today = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
head = ["# Public inputs tried", "",
        "Written by `tools/ima-audit/gen/peers.py` on %s (%s; %s)." % (
            today, version(["tpm2_eventlog", "--version"]),
            version(["evmctl", "--version"])),
        "Inputs, their sources and licences: "
        "`tools/ima-attest/tests/public/SOURCES`, "
        "`tools/ima-audit/tests/public/SOURCES`. The peers' results are "
        "read from what they print; their exit status says nothing "
        "(evmctl exits 0 without a verdict, tpm2_eventlog 0 on logs the "
        "PC Client spec forbids). The tests (`make check`) hold the "
        "shipped values; this table is what was seen.", "",
        "| source | kind | ima-audit / ima-attest | peer | shipped |",
        "| ------ | ---- | ---------------------- | ---- | ------- |"]
rows = firmware_rows() + audit_rows()
with open(out, "w") as f:
    f.write("\n".join(head) + "\n")
    for r in rows:
        f.write("| " + " | ".join(cell(c) for c in r) + " |\n")
print("%d inputs" % len(rows))
