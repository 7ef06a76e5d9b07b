#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Open ima-audit's pages in headless chromium and check what they show.

    pagecheck.py CASES [SHOTS_DIR]

CASES has one case a line, tab-separated: NAME, PAGE, JSON (ima-audit
--json on the same input, run apart from the page: what the page must
agree with), EXPECT (the generator's NAME.expect: exit status and the
(entry, class) failures built in, or -), NAMES (hostile.py's names file,
or -), SHOT (a file name for a screenshot under SHOTS_DIR, or -).

Prints one line per check: "ok<TAB>NAME" or "not ok<TAB>NAME<TAB>why".
Every check reads the DOM: the verdict, the counts and the tables as a
person sees them, and the entry table after typing into its search box
and choosing in its filters with the keyboard.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser import Browser, BrowserError  # noqa: E402

WORD = {"pass": "PASS", "fail": "FAIL", "malformed": "MALFORMED"}


class Case:
    def __init__(self, b, name):
        self.b, self.name = b, name

    def check(self, what, cond, why=""):
        if cond:
            print("ok\t%s: %s" % (self.name, what))
        else:
            print("not ok\t%s: %s\t%s" % (self.name, what,
                                          str(why).replace("\n", " ")[:400]))
        sys.stdout.flush()
        return cond

    def js(self, expr):
        return self.b.js(expr)


def read_expect(path):
    exit_, fails = None, set()
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("exit "):
                exit_ = int(line[5:])
            elif line.startswith("fail "):
                _, idx, cls = line.split(" ", 2)
                fails.add((idx, cls))
    return exit_, fails


def table_search(c, text):
    """Type into the entry table's search box as a person would."""
    c.b.click("#f-text")
    c.js("document.getElementById('f-text').select()")
    c.b.key("Backspace", "Backspace", 8)
    if text:
        c.b.type(text)
    # the search waits 120 ms for more keys, then draws
    c.b.wait("document.getElementById('entries-shown').dataset.pending !== '1'")


def shown_rows(c):
    return c.js("""(() => { const p = document.getElementById('entries-shown');
        return Number(p.dataset.shown); })()""")


def visible_rows(c):
    return c.js("""[...document.querySelectorAll('#entries-table .vrow[data-index]')]
        .map((r) => ({index: Number(r.dataset.index),
            cells: [...r.children].map((s) => s.textContent)}))""")


def generic(c, rep):
    """What every page must agree on with the JSON report."""
    b = c.b
    state = c.js("document.documentElement.dataset.state")
    c.check("the page is drawn", state == "rendered", "state %r" % state)
    probs = b.problems()
    c.check("no console errors or warnings", not probs, probs)
    reqs = b.requests()
    c.check("no network requests", not reqs, reqs)
    if state != "rendered":
        return False
    word = c.js("document.getElementById('verdict-word').textContent")
    c.check("verdict %s as the JSON's result" % WORD[rep["result"]],
            word == WORD[rep["result"]], "shows %r" % word)
    fc = c.js("document.getElementById('failure-count').dataset.count")
    c.check("failure count %d" % rep["failure_count"],
            fc == str(rep["failure_count"]), "shows %r" % fc)
    ent = c.js("document.querySelector('[data-k=entries] td').textContent")
    c.check("entries %d in the summary" % rep["entries"],
            ent.split(" ")[0].replace(",", "") == str(rep["entries"]),
            "shows %r" % ent)
    total = c.js("Number(document.getElementById('entries-shown').dataset.total)")
    c.check("the entry table lists %d entries" % rep["entries"],
            total == rep["entries"], "lists %r" % total)
    groups = {}
    for f in rep["failures"]:
        groups[f["class"]] = groups.get(f["class"], 0) + 1
    got = c.js("""Object.fromEntries([...document.querySelectorAll('.fgroup')]
        .map((g) => [g.dataset.class, Number(g.querySelector('.fcount').dataset.count)]))""")
    c.check("failures grouped by class as the JSON lists them",
            got == groups, "page %r, JSON %r" % (got, groups))
    pcrs = c.js("""[...document.querySelectorAll('#pcrs tr[data-pcr]')].map((r) =>
        [Number(r.dataset.pcr), r.dataset.bank, r.dataset.status,
         r.children[3].textContent])""")
    want = [[p["pcr"], p["bank"], p["status"], p["computed"]] for p in rep["pcrs"]]
    c.check("PCR table: every bank's status and replayed value",
            sorted(pcrs) == sorted(want), "page %r, JSON %r" % (pcrs, want))
    failing = len({f["entry"] for f in rep["failures"] if f["entry"] is not None})
    pill = c.js("Number(document.querySelector('.pill[data-verdict=fail]').dataset.count)")
    c.check("entries with the fail verdict: %d, those a failure names" % failing,
            pill == failing, "page %r" % pill)
    return True


def expected(c, rep, expect):
    """The generator's intent: the exit status and each built-in failure."""
    exit_, fails = read_expect(expect)
    want = {0: "PASS", 1: "FAIL"}.get(exit_, "MALFORMED")
    word = c.js("document.getElementById('verdict-word').textContent")
    c.check("verdict %s as the case was built" % want, word == want,
            "shows %r" % word)
    searched = 0
    for idx, cls in sorted(fails):
        items = c.js("""(() => { const g = document.querySelector('.fgroup[data-class=%s]');
            return g ? [...g.querySelectorAll('li')].map((l) => l.dataset.entry) : null; })()"""
                     % json.dumps(cls))
        # a class lists its first MAX_GROUP (50) and says how many more
        # the table shows
        more = c.js("""(() => { const g = document.querySelector('.fgroup[data-class=%s]');
            return g ? g.textContent : ''; })()""" % json.dumps(cls))
        c.check("failure %s listed for entry %s" % (cls, idx),
                items is not None and (idx in items or (
                    len(items) == 50 and "more of this class" in more)),
                "listed: %r" % (items,))
        # the table's own view of the first few (each is a search typed)
        if idx == "-" or searched == 3:
            continue
        searched += 1
        table_search(c, "#" + idx)
        rows = visible_rows(c)
        ok = len(rows) == 1 and rows[0]["index"] == int(idx) and \
            rows[0]["cells"][6].startswith("fail") and cls in rows[0]["cells"][7]
        c.check("entry %s in the table: verdict fail, %s" % (idx, cls), ok, rows)
    table_search(c, "")


def filters(c, rep, names):
    """Search and filters against what the generator built."""
    n = rep["entries"]
    table_search(c, "script")
    want = sum(1 for x in names["names"]
               if x["bytes"] and b"script" in bytes.fromhex(x["bytes"]).lower())
    c.check("search 'script': %d entries" % want, shown_rows(c) == want,
            "shows %r" % shown_rows(c))
    table_search(c, "")
    c.check("search cleared: all %d entries" % n, shown_rows(c) == n,
            "shows %r" % shown_rows(c))
    _, fails = read_expect(names["expect"])
    nfail = len({i for i, _ in fails if i != "-"})
    c.b.select("#f-verdict", "1")	# fail
    c.check("filter verdict fail: %d entries" % nfail, shown_rows(c) == nfail,
            "shows %r" % shown_rows(c))
    c.b.select("#f-verdict", "")
    c.b.select("#f-class", "template-hash")
    rows = visible_rows(c)
    c.check("filter class template-hash: the entry built with it",
            [r["index"] for r in rows] ==
            [int(i) for i, k in fails if k == "template-hash"], rows)
    c.b.select("#f-class", "")
    c.b.select("#f-pcr", "10")
    c.check("filter PCR 10: all %d entries" % n, shown_rows(c) == n,
            "shows %r" % shown_rows(c))
    c.b.select("#f-pcr", "")


def hostile(c, names):
    """Names with markup, script and newlines cannot write into the page."""
    pw = c.js("typeof window.__pwned")
    c.check("no injected script ran", pw == "undefined", "window.__pwned is %s" % pw)
    title = c.js("document.title")
    c.check("the title is the page's", title.startswith("IMA audit: "), title)
    tags = c.js("""({script: document.scripts.length,
        style: document.querySelectorAll('style').length,
        img: document.querySelectorAll('img').length,
        svg: document.querySelectorAll('svg').length,
        b: document.querySelectorAll('b').length,
        handlers: [...document.querySelectorAll('*')].filter((e) =>
            [...e.attributes].some((a) => a.name.startsWith('on'))).length})""")
    c.check("no element from a name: 2 scripts, 1 style, no img/svg/b, no handler",
            tags == {"script": 2, "style": 1, "img": 0, "svg": 0, "b": 0,
                     "handlers": 0}, tags)
    lines = c.js("[...document.querySelectorAll('#verdict-why .line')].map((l) => l.textContent)")
    c.check("no name prints a line of the verdict",
            not any("PASS" in l for l in lines) and
            all(l.split(":")[0].strip() in ("result", "bound PCRs", "waived",
                                            "boot_aggregate", "error", "quote",
                                            "entry table", "failures")
                for l in lines),
            lines)
    for x in names["names"]:
        if not x["hostile"] or x["shown"] is None:
            continue
        table_search(c, "#%d" % x["entry"])
        rows = visible_rows(c)
        c.check("entry %d's name shown as text: %s" % (x["entry"], x["shown"][:40]),
                len(rows) == 1 and rows[0]["cells"][3] == x["shown"], rows)
    tmpl = [x["template"] for x in names["names"] if x.get("template")]
    opts = c.js("[...document.querySelectorAll('#f-template option')].map((o) => o.textContent)")
    c.check("a template name with markup is an option's text", tmpl[0] in opts, opts)
    table_search(c, "")


def attest(c, want):
    """ima-attest verify --html against its own text output and the
    records the test built (want: result, reasons, enrollment, rounds)."""
    state = c.js("document.documentElement.dataset.state")
    c.check("the page is drawn", state == "rendered", "state %r" % state)
    c.check("no console errors or warnings", not c.b.problems(), c.b.problems())
    c.check("no network requests", not c.b.requests(), c.b.requests())
    if state != "rendered":
        return
    word = c.js("document.getElementById('verdict-word').textContent")
    c.check("verdict %s as verify printed" % want["result"], word == want["result"],
            "shows %r" % word)
    reasons = c.js("[...document.querySelectorAll('#verdict-why .reason')].map((l) => l.textContent)")
    c.check("the reasons verify printed, in order",
            reasons == ["reason: " + r for r in want["reasons"]],
            "page %r, verify %r" % (reasons, want["reasons"]))
    enr = c.js("[...document.querySelectorAll('#enrollment tr')].map((r) => [r.children[0].textContent, r.children[1].textContent])")
    c.check("the enrollment record, line by line", enr == want["enrollment"],
            "page %r, built %r" % (enr, want["enrollment"]))
    rounds = c.js("[...document.querySelectorAll('#rounds tbody tr')].map((r) => [r.children[0].textContent, r.children[1].textContent, r.children[5].textContent])")
    c.check("the polling rounds as recorded", rounds == want["rounds"],
            "page %r, built %r" % (rounds, want["rounds"]))
    pw = c.js("typeof window.__pwned")
    c.check("no injected script ran", pw == "undefined", pw)
    tags = c.js("document.scripts.length + document.querySelectorAll('img,svg,b').length")
    c.check("no element from the records", tags == 3, tags)


def main():
    cases = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
    shots = sys.argv[2] if len(sys.argv) > 2 else None
    try:
        b = Browser()
    except (OSError, BrowserError) as e:
        print("bail\tchromium does not start: %s" % e)
        return 99
    with b:
        for name, page, rjson, expect, names, shot in cases:
            c = Case(b, name)
            try:
                with open(rjson) as f:
                    rep = json.load(f)
                b.open(page)
                if name.startswith("attest"):
                    attest(c, rep)
                    if shot != "-" and shots:
                        b.screenshot(os.path.join(shots, shot))
                    continue
                if not generic(c, rep):
                    continue
                if shot != "-" and shots:
                    b.screenshot(os.path.join(shots, shot))
                if expect != "-":
                    expected(c, rep, expect)
                if names != "-":
                    with open(names) as f:
                        nm = json.load(f)
                    nm["expect"] = expect
                    hostile(c, nm)
                    filters(c, rep, nm)
                probs = b.problems()
                c.check("still no console errors after using the page", not probs, probs)
                c.check("still no network requests", not b.requests(), b.requests())
            except (OSError, ValueError, KeyError, BrowserError) as e:
                c.check("the case runs", False, "%s: %s" % (type(e).__name__, e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
