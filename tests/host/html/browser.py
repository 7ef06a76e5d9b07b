# SPDX-License-Identifier: GPL-2.0-only
"""Debian's headless chromium, driven over the DevTools protocol on a pipe.

--remote-debugging-pipe: the browser reads commands on fd 3 and writes
replies and events on fd 4, NUL-separated JSON; no TCP port, nothing to
wait for but the pipe. Every page opened here is watched: console
messages, uncaught exceptions, log entries (CSP violations land there)
and every network request the page makes are kept for the test to
assert on.
"""
import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
         "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--disable-extensions",
         "--remote-debugging-pipe"]


class BrowserError(Exception):
    pass


class Browser:
    def __init__(self, width=1280, height=900, timeout=60):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="ima-page-chromium-")
        to_r, self._to_w = os.pipe()
        self._from_r, from_w = os.pipe()
        # out of the way of 3 and 4, which the child's shell redirects
        for name in ("to_r", "from_w"):
            fd = locals()[name]
            high = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10)
            os.close(fd)
            if name == "to_r":
                to_r = high
            else:
                from_w = high

        self.log = open(os.path.join(self.profile, "stderr.log"), "wb")
        # the browser's fd 3 reads our commands, its fd 4 writes to us
        self.proc = subprocess.Popen(
            ["bash", "-c", 'exec "$0" "$@" 3<&%d 4>&%d %d<&- %d>&-' %
             (to_r, from_w, to_r, from_w), CHROMIUM] + FLAGS +
            ["--user-data-dir=" + self.profile,
             "--window-size=%d,%d" % (width, height), "about:blank"],
            stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log,
            pass_fds=(to_r, from_w), close_fds=True)
        os.close(to_r)
        os.close(from_w)
        self._buf = b""
        self._id = 0
        self.events = []
        self.session = None
        self.width, self.height = width, height

    # --- the protocol --------------------------------------------------
    def _read_message(self, deadline):
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("no answer from chromium in %ds" %
                                   self.timeout)
            r, _, _ = select.select([self._from_r], [], [], left)
            if not r:
                continue
            chunk = os.read(self._from_r, 1 << 20)
            if not chunk:
                raise BrowserError("chromium closed its pipe (exit %s): %s"
                                   % (self.proc.poll(), self.stderr_tail()))
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method, params=None, session=True):
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        data = json.dumps(msg).encode() + b"\0"
        while data:
            n = os.write(self._to_w, data)
            data = data[n:]
        deadline = time.monotonic() + self.timeout
        while True:
            m = self._read_message(deadline)
            if m.get("id") == self._id:
                if "error" in m:
                    raise BrowserError("%s: %s" % (method, m["error"]))
                return m.get("result", {})
            if "method" in m:
                self.events.append(m)

    def pump(self, seconds):
        """Collect events for a while (what arrives after a command)."""
        deadline = time.monotonic() + seconds
        try:
            while True:
                m = self._read_message(deadline)
                if "method" in m:
                    self.events.append(m)
        except BrowserError:
            if self.proc.poll() is not None:
                raise

    def stderr_tail(self):
        try:
            with open(os.path.join(self.profile, "stderr.log"), "rb") as f:
                return f.read()[-600:].decode(errors="replace")
        except OSError:
            return ""

    # --- one page ------------------------------------------------------
    def open(self, path):
        """A fresh tab on file PATH, watched from before it loads."""
        if self.session:
            self.call("Target.closeTarget", {"targetId": self.target},
                      session=False)
        self.target = self.call("Target.createTarget", {"url": "about:blank"},
                                session=False)["targetId"]
        self.session = self.call("Target.attachToTarget",
                                 {"targetId": self.target, "flatten": True},
                                 session=False)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(domain + ".enable")
        self.call("Emulation.setDeviceMetricsOverride",
                  {"width": self.width, "height": self.height,
                   "deviceScaleFactor": 1, "mobile": False})
        self.events = []
        self.url = "file://" + os.path.abspath(path)
        self.call("Page.navigate", {"url": self.url})
        self.wait("document.readyState === 'complete'")
        # drawn or broken; a script that never ran sets neither
        try:
            self.wait("!!document.documentElement.dataset.state", 10)
        except BrowserError:
            pass
        self.pump(0.02)

    def js(self, expr):
        r = self.call("Runtime.evaluate", {"expression": expr,
                                           "returnByValue": True,
                                           "awaitPromise": True})
        if "exceptionDetails" in r:
            raise BrowserError("page script failed: %s: %s" % (
                expr[:80], r["exceptionDetails"].get("text")))
        return r["result"].get("value")

    def wait(self, cond, timeout=None):
        deadline = time.monotonic() + (timeout or self.timeout)
        while time.monotonic() < deadline:
            if self.js("!!(%s)" % cond):
                return
            self.pump(0.05)
        raise BrowserError("timed out waiting for %s" % cond)

    # --- as a person: the mouse and the keyboard ------------------------
    def click(self, selector):
        box = self.js("(() => { const e = document.querySelector(%s);"
                      " if (!e) return null; e.scrollIntoView({block: 'center'});"
                      " const r = e.getBoundingClientRect();"
                      " return [r.left + r.width / 2, r.top + r.height / 2]; })()"
                      % json.dumps(selector))
        if not box:
            raise BrowserError("nothing to click at %s" % selector)
        for t in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent",
                      {"type": t, "x": box[0], "y": box[1],
                       "button": "left", "clickCount": 1})

    def type(self, text):
        self.call("Input.insertText", {"text": text})

    def key(self, key, code, keycode):
        for t in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent",
                      {"type": t, "key": key, "code": code,
                       "windowsVirtualKeyCode": keycode})

    def select(self, selector, value):
        """Choose an option with the keyboard: focus, then arrow keys."""
        self.click(selector)
        self.key("Escape", "Escape", 27)
        want = self.js("[...document.querySelector(%s).options]"
                       ".findIndex((o) => o.value === %s)"
                       % (json.dumps(selector), json.dumps(value)))
        if want < 0:
            raise BrowserError("%s has no option %r" % (selector, value))
        self.js("document.querySelector(%s).focus()" % json.dumps(selector))
        self.key("Home", "Home", 36)
        for _ in range(want):
            self.key("ArrowDown", "ArrowDown", 40)
        got = self.js("document.querySelector(%s).value"
                      % json.dumps(selector))
        if got != value:
            raise BrowserError("%s: chose %r, wanted %r" % (
                selector, got, value))

    def screenshot(self, path, full=False):
        params = {"format": "png"}
        if full:
            params["captureBeyondViewport"] = True
        data = self.call("Page.captureScreenshot", params)["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    # --- what the page did ----------------------------------------------
    def problems(self):
        """Console errors and warnings, exceptions, log errors."""
        out = []
        for e in self.events:
            m, p = e["method"], e.get("params", {})
            if m == "Runtime.exceptionThrown":
                d = p.get("exceptionDetails", {})
                out.append("exception: %s %s" % (
                    d.get("text"), d.get("exception", {}).get("description")))
            elif m == "Runtime.consoleAPICalled" and \
                    p.get("type") in ("error", "warning", "assert"):
                out.append("console.%s: %s" % (p["type"], " ".join(
                    str(a.get("value", a.get("description")))
                    for a in p.get("args", []))))
            elif m == "Log.entryAdded" and \
                    p.get("entry", {}).get("level") in ("error", "warning"):
                out.append("log %s: %s" % (p["entry"]["level"],
                                           p["entry"].get("text")))
        return out

    def requests(self):
        """Every request the page made other than loading itself."""
        return [e["params"]["request"]["url"] for e in self.events
                if e["method"] == "Network.requestWillBeSent" and
                e["params"]["request"]["url"] != self.url]

    def close(self):
        try:
            if self.proc.poll() is None:
                try:
                    self.call("Browser.close", session=False)
                except BrowserError:
                    pass
                try:
                    self.proc.wait(10)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
        finally:
            os.close(self._to_w)
            os.close(self._from_r)
            self.log.close()
            shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
