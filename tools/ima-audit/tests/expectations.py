# SPDX-License-Identifier: GPL-2.0-only
"""The loop of the runners over DIR/NAME.expect files (run-cases.py here,
../ima-attest's run-public.py): one TAP line per case, no plan and no
numbering (run-check.sh numbers them, tap-check.sh's relay)."""
import os
import sys


def run_all(d, prefix, check, todo=None):
    """check(NAME) says why the case fails, or None; a case that raises
    fails too (never a skip). todo maps a NAME to the reason it is a
    known limitation (filled by check): such a case prints "# TODO
    REASON", ok or not, and does not fail the run. Exits 1 when a case
    failed or DIR has no .expect file."""
    todo = {} if todo is None else todo
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
        if todo.get(name):
            # a known limitation: the expectation is what ought to hold
            print("%s - %s%s # TODO %s" % ("ok" if not why else "not ok",
                                            prefix, name, todo[name]))
            if why:
                print("# " + why.replace("\n", " "))
        elif why:
            bad += 1
            print("not ok - %s%s" % (prefix, name))
            print("# " + why.replace("\n", " "))
        else:
            print("ok - %s%s" % (prefix, name))
    sys.exit(1 if bad else 0)
