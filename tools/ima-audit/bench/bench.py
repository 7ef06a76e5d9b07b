#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Time ima-audit against `evmctl ima_measurement` on the same logs.

Logs of 1k, 10k and 100k entries are generated once into BUILD/bench
(fresh throwaway keys). Each tool sees the same log, keys and PCR values
(ima-audit: 'sha256:10 HEX' file; evmctl 1.4: --pcrs ALG,FILE with
'PCR-NN: HEX' lines). Prints medians of several runs, the ratio and the
peak RSS of each tool; for the signed scenarios also the floor measured
in the same run (`openssl speed` verify/s on one core: entries / (verify/s
x CPUs) seconds), ima-audit's ratio to it, and ima-audit's CPU/wall ratio
(near the CPU count when both cores were ours; lower when another process
had one). With --baseline BIN, that build of ima-audit is timed on the
same inputs too (the cost of new checks).
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, "..", "gen", "imagen.py")

SCENARIOS = {
    "rsa": dict(template="ima-sig", sign="rsa"),
    "ecdsa": dict(template="ima-sig", sign="ecdsa"),
    "unsigned": dict(template="ima-ng", sign=None),
}


def generate(d, name, count, sc):
    stamp = os.path.join(d, "done")
    if os.path.exists(stamp):
        return
    os.makedirs(d, exist_ok=True)
    cmd = [sys.executable, GEN, "--out", os.path.join(d, "log.bin"),
           "--count", str(count), "--template", sc["template"],
           "--seed", name, "--pcr-out", os.path.join(d, "pcrs.txt"),
           "--evmctl-pcrs", os.path.join(d, "evmctl"),
           "--manifest-out", os.path.join(d, "manifest.txt")]
    if sc["sign"]:
        cmd += ["--sign", sc["sign"], "--keydir", os.path.join(d, "keys")]
    t = time.time()
    subprocess.run(cmd, check=True)
    print("# generated %s (%d entries) in %.1fs" % (name, count,
                                                    time.time() - t))
    open(stamp, "w").close()


def run(cmd, rssfile):
    """Wall time, exit code, peak RSS (KiB) and CPU seconds (GNU time)."""
    t = time.perf_counter()
    p = subprocess.run(["/usr/bin/time", "-f", "%M %U %S", "-o", rssfile] +
                       cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - t
    with open(rssfile) as f:
        w = f.read().split()
    rss, cpu = int(w[-3]), float(w[-2]) + float(w[-1])
    return elapsed, p.returncode, rss, cpu, p.stderr.decode(errors="replace")


def bench(cmd, runs, rssfile):
    times, rss, rc, err, cpus = [], 0, None, "", []
    for _ in range(runs):
        t, rc, r, cpu, err = run(cmd, rssfile)
        times.append(t)
        cpus.append(cpu / t if t else 0)
        rss = max(rss, r)
    return statistics.median(times), rc, rss, statistics.median(cpus), err


def verify_per_sec(kind):
    """One core's verifications per second, measured now."""
    alg = {"rsa": "rsa2048", "ecdsa": "ecdsap256"}[kind]
    p = subprocess.run(["openssl", "speed", "-seconds", "2", alg],
                       capture_output=True, text=True)
    for line in p.stdout.splitlines():
        if (kind == "rsa" and re.match(r"rsa\s+2048 bits", line)) or \
           (kind == "ecdsa" and "nistp256" in line and "ecdsa" in line):
            return float(line.split()[-1])
    raise SystemExit("cannot read `openssl speed %s`: %s" % (alg, p.stdout))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--scenarios", default="rsa,ecdsa,unsigned")
    ap.add_argument("--baseline", help="another ima-audit build to time")
    a = ap.parse_args()
    tool = os.path.join(a.build, "ima-audit")
    cores = os.cpu_count()
    floors = {}
    print("# %s, %d CPUs, %s" % (time.strftime("%Y-%m-%d %H:%M"),
                                 os.cpu_count(),
                                 subprocess.run(["evmctl", "--version"],
                                                capture_output=True,
                                                text=True).stdout.strip()))
    print("# load average at start: %.2f %.2f %.2f" % os.getloadavg())
    print("%-9s %7s %10s %10s %7s %9s %9s %9s %6s %6s%s" % (
        "scenario", "entries", "ima-audit", "evmctl", "ratio",
        "rss-ours", "rss-evm", "floor", "x-flr", "cpu/w",
        " baseline  cost" if a.baseline else ""))
    for name in a.scenarios.split(","):
        sc = SCENARIOS[name]
        for count in map(int, a.sizes.split(",")):
            d = os.path.join(a.build, "bench", "%s-%d" % (name, count))
            generate(d, "%s%d" % (name, count), count, sc)
            log = os.path.join(d, "log.bin")
            ours = [tool, "--pcrs", os.path.join(d, "pcrs.txt")]
            evm = ["evmctl", "ima_measurement",
                   "--pcrs", "sha256," + os.path.join(d, "evmctl.sha256"),
                   "--pcrs", "sha1," + os.path.join(d, "evmctl.sha1")]
            if sc["sign"]:
                cert = os.path.join(d, "keys", "cert.der")
                ours += ["--key", cert, "--require-signatures"]
                evm += ["--verify-sig", "--key", cert]
            else:
                ours += ["--manifest", os.path.join(d, "manifest.txt")]
            runs = 3 if count >= 100000 else 5
            rssfile = os.path.join(d, "rss")
            t1, rc1, m1, c1, e1 = bench(ours + [log], runs, rssfile)
            t2, rc2, m2, c2, e2 = bench(evm + [log], runs, rssfile)
            note = ""
            if rc1 != 0:
                note += " ima-audit exit %d" % rc1
            if rc2 != 0:
                note += " evmctl exit %d" % rc2
            flr = "%8.3fs %5.2fx" % (0, 0)
            if sc["sign"]:
                if name not in floors:
                    floors[name] = verify_per_sec(sc["sign"])
                f = count / floors[name] / cores
                flr = "%8.3fs %5.2fx" % (f, t1 / f)
            else:
                flr = "%9s %6s" % ("-", "-")
            base = ""
            if a.baseline:
                bcmd = [a.baseline] + ours[1:]
                t3, rc3, m3, c3, e3 = bench(bcmd + [log], runs, rssfile)
                base = " %8.3fs %+5.1f%%" % (t3, 100 * (t1 - t3) / t3)
                if rc3 != 0:
                    note += " baseline exit %d" % rc3
            print("%-9s %7d %9.3fs %9.3fs %6.2fx %7.1fMi %7.1fMi %s %5.2f%s%s"
                  % (name, count, t1, t2, t2 / t1, m1 / 1024, m2 / 1024,
                     flr, c1, base, note))
            sys.stdout.flush()
    for k, v in sorted(floors.items()):
        print("# floor %s: openssl speed %.0f verify/s on one core, x %d "
              "cores" % (k, v, cores))


if __name__ == "__main__":
    main()
