#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Memory and output of ima-audit on hostile lists (figures, not a test).

A list's holder chooses how much every record makes the audit keep and
print. For each scenario and list size this generates a list into
BUILD/bench-hostile, runs ima-audit on it for the text report and for
--json, and prints the list size, the failures counted and listed, the
peak RSS (GNU time) and the bytes each report wrote, against the goal:
peak RSS <= list size + 32 MiB, each report <= 4 MiB, whatever the list.
With --baseline BIN another build runs on the same lists (the code
before the bound).

Scenarios:
  long-paths   ima-ng records on an unbound PCR with 4000-byte paths,
               half of them bytes the report escapes (\\xNN), under
               --require-signatures and --manifest: three failures each
               (unbound-pcr, unsigned, manifest-path), each quoting the
               path (the issue's 22 MB / 4.3x RSS and 32 MB / 520 MB
               output lists)
  names        records under 255-byte unknown template names of escaped
               bytes: one failure each, its reason quoting the name
  policies     ima-buf policy records of 64 KiB each, all bound and
               covered: every one a candidate for the recorded policy
"""
import argparse
import hashlib
import os
import re
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "gen"))
import imalog  # noqa: E402

MIB = 1 << 20
GOAL_RSS_SLACK = 32 * MIB
GOAL_OUTPUT = 4 * MIB


def long_paths(size):
    log = imalog.Log()
    i = 0
    while len(log.parts) * 4100 < size:
        path = b"/x/%08d/" % i + bytes((j * 7 + i) % 256 | 0x80 if j % 2
                                       else 0x61 + j % 26
                                       for j in range(3985))
        log.add("ima-ng", [imalog.d_ng("sha256",
                                       hashlib.sha256(path).digest()),
                           path + b"\0"], pcr=11)
        i += 1
    return log, ["--require-signatures", "--manifest", "manifest"]


def names(size):
    log = imalog.Log()
    i = 0
    while len(log.parts) * 360 < size:
        name = b"\x1b[" + b"%08d" % i + bytes(0x80 + j % 128
                                                for j in range(245))
        log.add(name, [imalog.d_ng("sha256", b"\x11" * 32),
                       imalog.n_ng("/usr/bin/f")])
        i += 1
    return log, []


def policies(size):
    log = imalog.Log()
    i = 0
    while len(log.parts) * (64 << 10) < size:
        text = (b"measure func=FILE_CHECK uid=%d\n" % i) * 2260
        text = text[:64 << 10]
        log.add("ima-buf", [imalog.d_ng("sha256",
                                        hashlib.sha256(text).digest()),
                            imalog.n_ng("ima_policy_loaded"), text])
        i += 1
    return log, []


SCENARIOS = {"long-paths": long_paths, "names": names, "policies": policies}


def generate(d, name, size):
    """The list, its PCR values file and the arguments of the run."""
    os.makedirs(d, exist_ok=True)
    log, args = SCENARIOS[name](size)
    with open(os.path.join(d, "list.bin"), "wb") as f:
        f.write(log.bytes())
    with open(os.path.join(d, "pcrs"), "w") as f:
        f.write(imalog.pcr_lines(log, imalog.boot_pcrs(b"hostile"),
                                 pcrs=(10,)))
    with open(os.path.join(d, "manifest"), "w") as f:
        f.write("%s  /usr/bin/not-in-the-list\n" % ("ab" * 32))
    return len(log.parts), ["--pcrs", "pcrs"] + args + ["list.bin"]


def run(binary, d, args):
    """Peak RSS (bytes, GNU time: the process's own, not what the parent
    held when it forked) and the bytes written to stdout."""
    rssfile = os.path.join(d, "rss")
    p = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", rssfile,
                          binary] + args, cwd=d, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL)
    out = 0
    while True:
        chunk = p.stdout.read(1 << 16)
        if not chunk:
            break
        out += len(chunk)
    p.wait()
    with open(rssfile) as f:
        return int(f.read().split()[-1]) * 1024, out


def counts(binary, d, args):
    """failure_count and the failures listed, from one --json run read as
    it streams (the report of a build without the bound can be GBs)."""
    key = b'"class":"'
    p = subprocess.Popen([binary, "--json"] + args, cwd=d,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    listed, carry, last = 0, b"", b""
    while True:
        chunk = p.stdout.read(1 << 20)
        if not chunk:
            break
        data = carry + chunk
        listed += data.count(key)
        # a key cut in two is whole in the next round's data; one whole
        # in the carry was counted already, so the carry cannot hold one
        carry = data[-(len(key) - 1):]
        last = (last + chunk)[-4096:]
    p.wait()
    m = re.search(rb'"failure_count":(\d+)', last)
    return (int(m.group(1)) if m else "?"), listed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--baseline", help="another ima-audit binary")
    ap.add_argument("--sizes", default="8,32,128",
                    help="list sizes in MiB (default 8,32,128)")
    ap.add_argument("--scenarios", default=",".join(SCENARIOS))
    o = ap.parse_args()
    bins = [("this build", os.path.abspath(os.path.join(o.build,
                                                        "ima-audit")))]
    if o.baseline:
        bins.append(("baseline", os.path.abspath(o.baseline)))
    print("# %s, load average %s" % (time.strftime("%Y-%m-%d %H:%M"),
                                     " ".join(open("/proc/loadavg").read()
                                              .split()[:3])))
    print("| scenario | list | entries | build | failures counted / "
          "listed | peak RSS | RSS - list | text report | JSON report "
          "| goal |")
    print("| -------- | ---: | ------: | ----- | -----: | ---: | ---: | "
          "---: | ---: | ---- |")
    worst = True
    for name in o.scenarios.split(","):
        for mb in (int(x) for x in o.sizes.split(",")):
            d = os.path.abspath(os.path.join(o.build, "bench-hostile",
                                             "%s-%d" % (name, mb)))
            n, args = generate(d, name, mb * MIB)
            lsize = os.path.getsize(os.path.join(d, "list.bin"))
            for label, b in bins:
                rss, text = run(b, d, args)
                rss_j, js = run(b, d, ["--json"] + args)
                rss = max(rss, rss_j)
                fc, fl = counts(b, d, args)
                ok = rss <= lsize + GOAL_RSS_SLACK and \
                    text <= GOAL_OUTPUT and js <= GOAL_OUTPUT
                if label == "this build":
                    worst = worst and ok
                print("| %s | %.1f MiB | %d | %s | %s / %s | %.1f MiB | "
                      "%+.1f MiB | %.2f MiB | %.2f MiB | %s |" % (
                          name, lsize / MIB, n, label, fc, fl, rss / MIB,
                          (rss - lsize) / MIB, text / MIB, js / MIB,
                          "met" if ok else "MISSED"))
    print("# goal (peak RSS <= list + 32 MiB, each report <= 4 MiB) for "
          "this build: %s" % ("met in every row" if worst else
                              "MISSED in some row"))


if __name__ == "__main__":
    main()
