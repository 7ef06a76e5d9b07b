#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Every case's list in the other forms a kernel writes: same verdicts.

    run-forms.py IMA_AUDIT OUT_DIR CASE_DIR... 

For each CASE_DIR/NAME.args whose last argument is the list, the list is
rendered (gen/imaforms.py, written from the kernel's show functions, not
from ima-audit's reader) as

  ascii       ascii_runtime_measurements (big-endian lists with
              --byte-order big: the ASCII form does not carry it),
  sha256      binary_runtime_measurements_sha256 (--list-bank sha256),
  sha256-ascii  ascii_runtime_measurements_sha256,

and ima-audit must give each exactly the exit status and the JSON report
of the binary list, but for the "input" object (and, for the per-bank
forms, the byte offsets, which grow by 12 bytes a record). A list the
kernel could not have written in a form (unknown template, a space in a
name, a sha1 template digest that is not its data's for the per-bank
forms, a malformed list) is a TAP skip with the reason. One TAP line per
case and form, no plan (run-check.sh numbers them).
"""
import json
import os
import shlex
import struct
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "gen"))
import imaforms  # noqa: E402

binary, outdir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
os.makedirs(outdir, exist_ok=True)


def run(d, args):
    p = subprocess.run([binary] + args, cwd=d, capture_output=True,
                       timeout=120)
    return p.returncode, p.stdout


def strip(out, offsets):
    rep = json.loads(out)
    rep.pop("input", None)
    if offsets:
        for f in rep.get("failures", []):
            f.pop("offset", None)
    return rep


def endian_of(data):
    return "<" if not data or struct.unpack_from("<I", data)[0] <= 23 \
        else ">"


def forms(data, e):
    """(form, file bytes, extra args, offsets differ) or the skip reason."""
    out = []
    try:
        out.append(("ascii", imaforms.ascii(data, e),
                    ["--byte-order", "big"] if e == ">" else [], False))
    except (imaforms.NotRenderable, struct.error) as why:
        out.append(("ascii", None, str(why), False))
    try:
        bank = imaforms.per_bank(data, "sha256", e)
        out.append(("sha256", bank, ["--list-bank", "sha256"], True))
        out.append(("sha256-ascii", imaforms.ascii(bank, e, 32),
                    ["--byte-order", "big"] if e == ">" else [], True))
    except (imaforms.NotRenderable, struct.error) as why:
        out.append(("sha256", None, str(why), True))
        out.append(("sha256-ascii", None, str(why), True))
    return out


def check(d, name):
    with open(os.path.join(d, name + ".args")) as f:
        args = shlex.split(f.read())
    if not args or args[-1].startswith("-") or \
            not os.path.isfile(os.path.join(d, args[-1])):
        return [("-", "skip", "the last argument is not a list file")]
    with open(os.path.join(d, args[-1]), "rb") as f:
        data = f.read()
    show = "--show-policy" in args
    base = [] if show else ["--json", "--jobs", "2"]
    rc, out = run(d, base + args)
    if rc not in (0, 1):
        return [("-", "skip", "the binary list is refused (exit %d): no "
                 "other form of it" % rc)]
    res = []
    for form, body, extra, offsets in forms(data, endian_of(data)):
        if body is None:
            res.append((form, "skip", extra))
            continue
        path = os.path.join(outdir, "%s-%s.list" % (name, form))
        with open(path, "wb") as f:
            f.write(body)
        rc2, out2 = run(d, base + extra + args[:-1] + [path])
        if rc2 != rc:
            res.append((form, "fail", "exit %d, the binary list's %d" %
                        (rc2, rc)))
        elif show and out2 != out:
            res.append((form, "fail", "--show-policy prints another policy"))
        elif not show and strip(out2, offsets) != strip(out, offsets):
            a, b = strip(out, offsets), strip(out2, offsets)
            keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
            res.append((form, "fail", "the JSON report differs in %s" %
                        ", ".join(keys)))
        else:
            res.append((form, "ok", ""))
    return res


def tap_text(s):
    """s as one TAP line's text: nothing from a case's input may start a
    line of its own or send a terminal control."""
    return "".join(c if " " <= c <= "~" else "\\x%02x" % ord(c)
                   if ord(c) < 256 else "\\u%04x" % ord(c) for c in s)


bad = 0
for d in sys.argv[3:]:
    label = os.path.basename(os.path.normpath(d))
    names = sorted(f[:-5] for f in os.listdir(d) if f.endswith(".args"))
    if not names:
        print("not ok - forms %s: no cases" % label)
        bad += 1
    for name in names:
        try:
            results = check(d, name)
        except Exception as e:  # a broken case fails, never skips
            results = [("-", "fail", "runner error: %r" % e)]
        for form, verdict, why in results:
            what = "forms %s %s %s" % (label, name, form)
            if verdict == "ok":
                print("ok - " + what)
            elif verdict == "skip":
                print("ok - %s # SKIP %s" % (what, tap_text(why)))
            else:
                bad += 1
                print("not ok - " + what)
                print("# " + tap_text(why))
sys.exit(1 if bad else 0)
