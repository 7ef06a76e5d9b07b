#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Firmware logs from public test suites against what their sources ship.

    run-public.py IMA_ATTEST DIR

DIR/NAME.expect (tools/ima-audit/gen/mkpublic.py, from the source, never
from this tool) says whether the log parses ("parse ok") or is refused
and why ("parse refused TEXT"), its format ("format sha1|agile"), and the
PCR values the source shipped ("pcr BANK:N HEX"). `ima-attest eventlog
DIR/NAME.log` must agree: the exit status, the reason, the format it
names on stderr, and each shipped value among the values it prints (a
PCR it does not print was never extended: the shipped value must be
zeros). One TAP line per log, no plan (run-check.sh numbers them).
"""
import os
import subprocess
import sys

# the loop over the .expect files, shared with ima-audit's run-cases.py
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "ima-audit", "tests"))
import expectations  # noqa: E402

binary, d = os.path.abspath(sys.argv[1]), sys.argv[2]
FORMATS = {"sha1": "SHA1 (TCG 1.2) format", "agile": "crypto agile"}


def check(name):
    outcome, fmt, pcrs = None, None, []
    with open(os.path.join(d, name + ".expect")) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("parse "):
                outcome = line[6:]
            elif line.startswith("format "):
                fmt = line[7:]
            elif line.startswith("pcr "):
                bank_pcr, hexv = line[4:].split()
                pcrs.append((bank_pcr, hexv.lower()))
            elif line and not line.startswith("# "):
                return "malformed expect line %r" % line
    if outcome is None:
        return "no parse line"
    p = subprocess.run([binary, "eventlog", os.path.join(d, name + ".log")],
                       capture_output=True, timeout=60)
    out, err = p.stdout.decode(), p.stderr.decode(errors="replace")
    if outcome.startswith("refused "):
        why = outcome[8:]
        if p.returncode != 1:
            return "exit %d, expected 1 (refused: %s)" % (p.returncode, why)
        if why not in out:
            return "refused, but not for %r: %s" % (why, out[:200])
        return None
    if p.returncode != 0:
        return "exit %d, expected 0: %s" % (p.returncode, out[:200])
    if fmt and FORMATS[fmt] not in err:
        return "the format is not named %r: %s" % (FORMATS[fmt], err[:200])
    got = dict(line.split(" ", 1) for line in out.splitlines())
    for bank_pcr, want in pcrs:
        have = got.get(bank_pcr)
        if have is None and set(want) != {"0"}:
            return "%s: the log extends it not, the source has %s" % (
                bank_pcr, want)
        if have is not None and have != want:
            return "%s: replayed to %s, the source has %s" % (
                bank_pcr, have, want)
    return None


expectations.run_all(d, "public ", check)
