#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run fixtures against their intent: NAME.args + NAME.expect.

    run-cases.py IMA_AUDIT DIR [PREFIX]

NAME.expect was written by the generator from how the case was built
(gen/mkredteam.py, gen/mkgolden.py; gen/mkpublic.py from what a public
source ships): the exit status, the exact set of (entry index, failure
class) the JSON report must list, texts the report or stderr must
contain (stdout-has, stderr-has) and texts they must not (stdout-lacks,
stderr-lacks); a `todo REASON` line marks a known limitation (the
expectation is what ought to hold; its failure is reported "not ok ...
# TODO REASON", never as a pass). Every case is also run for the text
report, which must hold its verdict ("result:") once, as its last line,
and, like stderr, no byte outside printable ASCII but the newline:
nothing from the input may print a line or a terminal control of its
own. Under --json stdout is one JSON object whatever the exit status,
naming the tool, its version and the input; an error (exit 2 or 3
without a report) says its exit code and message; every failure names
its pcr, key_id, got and expected (null when none). One TAP line per
case (no plan, no numbering: run-check.sh numbers them).
"""
import json
import os
import re
import shlex
import subprocess
import sys

import expectations

binary, d = sys.argv[1], sys.argv[2]
prefix = sys.argv[3] if len(sys.argv) > 3 else ""


def run(args):
    p = subprocess.run([binary] + args, cwd=d, capture_output=True,
                       timeout=120)
    return p.returncode, p.stdout, p.stderr


RAW = re.compile(rb"[^\n\x20-\x7e]")


def raw_bytes(what, data):
    """Why data (an output) is not plain text, or None."""
    m = RAW.search(data)
    return None if not m else "%s holds byte 0x%02x at %d" % (
        what, m.group()[0], m.start())


def verdict_last(text):
    """Why the text report's verdict is not once, last, or None."""
    lines = text.decode(errors="replace").rstrip("\n").split("\n")
    res = [i for i, ln in enumerate(lines) if ln.startswith("result:")]
    if len(res) != 1 or res[0] != len(lines) - 1:
        return "the verdict is not one last 'result:' line (%d such " \
               "lines, at %s of %d)" % (len(res), res, len(lines))
    return None


def check(name):
    with open(os.path.join(d, name + ".args")) as f:
        args = shlex.split(f.read())
    exp_exit, fails, has, errhas, reason = None, set(), [], [], ""
    todo[name] = None
    lacks, errlacks = [], []
    with open(os.path.join(d, name + ".expect")) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# "):
                reason = reason or line[2:]
            elif line.startswith("exit "):
                exp_exit = int(line[5:])
            elif line.startswith("fail "):
                _, idx, cls = line.split(" ", 2)
                fails.add((idx, cls))
            elif line.startswith("stdout-has "):
                has.append(line[11:])
            elif line.startswith("stdout-lacks "):
                lacks.append(line[13:])
            elif line.startswith("stderr-has "):
                errhas.append(line[11:])
            elif line.startswith("stderr-lacks "):
                errlacks.append(line[13:])
            elif line.startswith("todo "):
                todo[name] = line[5:]
            elif line:
                return "malformed expect line %r" % line
    if exp_exit is None:
        return "no exit line in %s.expect" % name
    show = "--show-policy" in args
    rc, out, err = run(args if show else ["--json", "--jobs", "2"] + args)
    if rc != exp_exit:
        return "exit %d, expected %d (%s): %s" % (
            rc, exp_exit, reason, err.decode(errors="replace")[:300])
    for h in errhas:
        if h not in err.decode(errors="replace"):
            return "stderr lacks %r: %s" % (h, err[:300])
    for h in errlacks:
        if h in err.decode(errors="replace"):
            return "stderr has %r: %s" % (h, err[:300])
    if not show:
        try:
            rep = json.loads(out)
        except ValueError as e:
            return "stdout is not one JSON object (exit %d): %s" % (rc, e)
        if rep.get("tool") != "ima-audit" or not rep.get("version") or \
                "name" not in rep.get("input", {}) or \
                rep.get("exit_code") != rc:
            return "JSON object lacks tool, version, input name or exit " \
                "code %d: %s" % (rc, out[:200])
        if rc not in (0, 1) and not (rep.get("error") or {}).get(
                "message"):
            return "exit %d, and the JSON object has no error message" % rc
    if rc in (0, 1) and not show:
        for fl in rep.get("failures", []):
            if not all(k in fl for k in ("pcr", "key_id", "got",
                                         "expected")):
                return "a failure lacks pcr, key_id, got or expected: %s" \
                    % fl
        got = set()
        for fl in rep.get("failures", []):
            idx = fl.get("entry")
            got.add(("-" if idx is None else str(idx),
                     fl.get("class", "?")))
        unlisted = sum(rep.get("failures_not_listed", {}).values())
        if rep.get("failure_count") != len(rep.get("failures", [])) + \
                unlisted:
            return "failure_count %s but %d failures listed, %d not" % (
                rep.get("failure_count"), len(rep.get("failures", [])),
                unlisted)
        if got != fails:
            return "failures differ: missing %s, unexpected %s" % (
                sorted(fails - got), sorted(got - fails))
    why = raw_bytes("stderr", err)
    if why:
        return why
    if not show:
        rc2, out, err = run(["--jobs", "2"] + args)
        if rc2 != rc:
            return "text run exit %d, JSON run %d" % (rc2, rc)
        why = raw_bytes("the text report", out) or raw_bytes("stderr", err)
        if not why and out:
            why = verdict_last(out)
        if why:
            return why
    text = out.decode(errors="replace")
    for h in has:
        if h not in text:
            return "report lacks %r" % h
    for h in lacks:
        if h in text:
            return "report has %r" % h
    return None


todo = {}
expectations.run_all(d, prefix, check, todo)
