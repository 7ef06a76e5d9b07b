#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Run fixtures against their intent: NAME.args + NAME.expect.

    run-cases.py IMA_AUDIT DIR [PREFIX]

NAME.expect was written by the generator from how the case was built
(gen/mkredteam.py, gen/mkgolden.py; gen/mkpublic.py from what a public
source ships): the exit status, the exact set of (entry index, failure
class) the JSON report must list, texts the report or stderr must
contain (stdout-has, stderr-has) and texts the report must not
(stdout-lacks). One TAP line per case (no plan, no
numbering: run-check.sh numbers them).
"""
import json
import os
import shlex
import subprocess
import sys

binary, d = sys.argv[1], sys.argv[2]
prefix = sys.argv[3] if len(sys.argv) > 3 else ""


def run(args):
    p = subprocess.run([binary] + args, cwd=d, capture_output=True,
                       timeout=120)
    return p.returncode, p.stdout, p.stderr


def check(name):
    with open(os.path.join(d, name + ".args")) as f:
        args = shlex.split(f.read())
    exp_exit, fails, has, errhas, reason = None, set(), [], [], ""
    lacks = []
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
    if rc in (0, 1) and not show:
        try:
            rep = json.loads(out)
        except ValueError as e:
            return "JSON report does not parse: %s" % e
        got = set()
        for fl in rep.get("failures", []):
            idx = fl.get("entry")
            got.add(("-" if idx is None else str(idx),
                     fl.get("class", "?")))
        if rep.get("failure_count") != len(rep.get("failures", [])):
            return "failure_count %s but %d failures listed" % (
                rep.get("failure_count"), len(rep.get("failures", [])))
        if got != fails:
            return "failures differ: missing %s, unexpected %s" % (
                sorted(fails - got), sorted(got - fails))
    if has or lacks:
        if not show:
            rc2, out, err = run(["--jobs", "2"] + args)
            if rc2 != rc:
                return "text run exit %d, JSON run %d" % (rc2, rc)
        text = out.decode(errors="replace")
        for h in has:
            if h not in text:
                return "report lacks %r" % h
        for h in lacks:
            if h in text:
                return "report has %r" % h
    return None


names = sorted(f[:-7] for f in os.listdir(d) if f.endswith(".expect"))
if not names:
    print("not ok - %sno .expect files in %s" % (prefix, d))
    sys.exit(1)
bad = 0
for name in names:
    try:
        why = check(name)
    except Exception as e:  # a broken case is a failure, never a skip
        why = "runner error: %r" % e
    if why:
        bad += 1
        print("not ok - %s%s" % (prefix, name))
        print("# " + why.replace("\n", " "))
    else:
        print("ok - %s%s" % (prefix, name))
sys.exit(1 if bad else 0)
