#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The page's cost: file size and time to first paint for 1k/10k/100k.

    page.py --build DIR [--sizes 1000,10000,100000] [--runs N]

For each size: the ecdsa-signed list bench.py makes (gen/imagen.py,
kept under DIR/bench), ima-audit --html with its key and PCR values;
then N fresh tabs of headless chromium on the page (tests/host/html/
browser.py) and, per tab, the browser's own timings: first contentful
paint (the verdict box drawn), the page's "ima-rendered" mark (every
section and the first rows of the entry table), and a search typed into
the entry table until its count is drawn. Prints the medians. Figures,
not a test: nothing here passes or fails.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "tests", "host", "html"))
from bench import SCENARIOS, generate  # noqa: E402
from browser import Browser  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--sizes", default="1000,10000,100000")
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    tool = os.path.join(a.build, "ima-audit")
    print("# %s, %d CPUs, %s, load average %.2f" % (
        time.strftime("%Y-%m-%d %H:%M"), os.cpu_count(),
        subprocess.run(["/usr/bin/chromium", "--version"], capture_output=True,
                       text=True).stdout.strip(), os.getloadavg()[0]))
    print("# medians of %d fresh tabs; ms from navigation start" % a.runs)
    print("%8s %10s %9s %9s %10s %10s %10s" % (
        "entries", "page", "bytes/e", "--html", "1st-paint", "rendered",
        "search"))
    with Browser(timeout=120) as b:
        for count in map(int, a.sizes.split(",")):
            d = os.path.join(a.build, "bench", "ecdsa-%d" % count)
            generate(d, "ecdsa%d" % count, count, SCENARIOS["ecdsa"])
            page = os.path.join(d, "page.html")
            t = time.perf_counter()
            subprocess.run([tool, "--pcrs", os.path.join(d, "pcrs.txt"),
                            "--key", os.path.join(d, "keys", "cert.der"),
                            "--html", page, os.path.join(d, "log.bin")],
                           stdout=subprocess.DEVNULL, check=False)
            gen = time.perf_counter() - t
            size = os.path.getsize(page)
            fcp, done, search = [], [], []
            for _ in range(a.runs):
                b.open(page)
                if b.js("document.documentElement.dataset.state") != "rendered":
                    sys.exit("the page did not render: %s" % b.problems())
                b.wait("performance.getEntriesByName('first-contentful-paint').length")
                fcp.append(b.js("performance.getEntriesByName('first-contentful-paint')[0].startTime"))
                done.append(b.js("performance.getEntriesByName('ima-rendered')[0].startTime"))
                # the search as typed: one key, then the debounce and the
                # filter over every entry until the count is drawn
                b.click("#f-text")
                t = time.perf_counter()
                b.type("bin")
                b.wait("document.getElementById('entries-shown').dataset.pending === '0'")
                search.append((time.perf_counter() - t) * 1000)
            print("%8d %9.1fM %9.0f %8.2fs %8.0fms %8.0fms %8.0fms" % (
                count, size / 1e6, size / count, gen, statistics.median(fcp),
                statistics.median(done), statistics.median(search)))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
