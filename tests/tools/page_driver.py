#!/usr/bin/env python3
"""Drives the viewer page (`feerie serve`) in headless Chromium as a user would, quickly,
and prints what the page shows at the end as one JSON object. Used by
tests/tools/serve_test.cpp for what `--dump-dom` cannot do: clicks that come while the next
position is still loading (back then forward, a move clicked twice).

    page_driver.py CHROMIUM URL ACTION...

ACTION is `click:MOVE` (the button of MOVE, e.g. `a1a4`, without waiting for the
answer), `back`, `forward` (the buttons), `wait:MS`, `hold` (from then on the browser holds
back the answers of /api/moves) or `release-reversed` (waits until at least two are held,
then lets them through, the last asked first: an answer for a position the user has left
arrives after the answer for the position now shown). After the actions the script waits
until the page has been still for a second and prints {"fen", "board", "value", "ply",
"error", "forward_disabled"}: the FEN field, the FEN the board's SVG was drawn for, and the
texts of the value, the line counter and the error.

Chromium is spoken to over its DevTools protocol: a WebSocket written here with the
standard library alone (no module to install on the test machine).
"""
import base64
import http.client
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time


class DevTools:
    def __init__(self, chromium):
        self.profile = tempfile.mkdtemp(prefix="feerie_page_driver_")
        self.process = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-proxy-server",
             "--remote-debugging-port=0", "--user-data-dir=" + self.profile, "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            self._connect()
        except BaseException:
            self.close()
            raise

    def _connect(self):
        # With port 0 Chromium chooses a free port and writes it, and the browser's
        # WebSocket path, to DevToolsActivePort in the profile.
        active = os.path.join(self.profile, "DevToolsActivePort")
        for _ in range(300):
            if os.path.exists(active) and len(open(active).read().split()) >= 2:
                break
            time.sleep(0.1)
        port, _ = open(active).read().split()[:2]
        self.port = int(port)
        page = self._page_websocket_path()
        self.socket = socket.create_connection(("127.0.0.1", self.port), timeout=60)
        key = base64.b64encode(os.urandom(16)).decode()
        self.socket.sendall(("GET %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
                             "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n"
                             % (page, self.port, key)).encode())
        received = b""
        while b"\r\n\r\n" not in received:
            received += self.socket.recv(4096)
        self.pending = received.split(b"\r\n\r\n", 1)[1]
        self.last_id = 0
        self.events = []  # what Chromium sent besides the answers to calls

    def _page_websocket_path(self):
        for _ in range(100):
            try:
                connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
                connection.request("GET", "/json")
                targets = json.loads(connection.getresponse().read())
                connection.close()
                url = [t for t in targets if t["type"] == "page"][0]["webSocketDebuggerUrl"]
                return "/" + url.split("/", 3)[3]
            except (OSError, ValueError, IndexError, http.client.HTTPException):
                time.sleep(0.1)
        raise RuntimeError("Chromium offered no page to drive")

    def _read(self, n):
        while len(self.pending) < n:
            part = self.socket.recv(65536)
            if not part:
                raise EOFError("Chromium closed the connection")
            self.pending += part
        data, self.pending = self.pending[:n], self.pending[n:]
        return data

    def _receive(self):
        message = b""
        while True:
            first, second = self._read(2)
            n = second & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            message += self._read(n)
            if first & 0x80:
                return json.loads(message)

    def _send(self, obj):
        data = json.dumps(obj).encode()
        mask = os.urandom(4)
        header = bytes([0x81])
        if len(data) < 126:
            header += bytes([0x80 | len(data)])
        elif len(data) < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(data))
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", len(data))
        self.socket.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def call(self, method, **params):
        self.last_id += 1
        self._send({"id": self.last_id, "method": method, "params": params})
        while True:
            message = self._receive()
            if message.get("id") == self.last_id:
                if "error" in message:
                    raise RuntimeError(method + ": " + json.dumps(message["error"]))
                return message["result"]
            self.events.append(message)

    def held_requests(self):
        """The ids of the requests paused since the last call (Fetch.requestPaused)."""
        self.evaluate("0")  # a round trip, to read the events sent meanwhile
        paused = [e["params"]["requestId"] for e in self.events if e.get("method") == "Fetch.requestPaused"]
        self.events = [e for e in self.events if e.get("method") != "Fetch.requestPaused"]
        return paused

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(expression + ": " + json.dumps(result["exceptionDetails"]))
        return result["result"].get("value")

    def close(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


SHOWN = """JSON.stringify({
  fen: document.getElementById("fen").value,
  board: (document.querySelector("#board svg") || {dataset: {}}).dataset.fen || null,
  value: document.getElementById("value").textContent,
  ply: document.getElementById("ply").textContent,
  error: document.getElementById("error").textContent,
  forward_disabled: document.getElementById("forward").disabled})"""


def main():
    chromium, url, actions = sys.argv[1], sys.argv[2], sys.argv[3:]
    browser = DevTools(chromium)
    try:
        browser.call("Page.navigate", url=url)
        deadline = time.time() + 60
        while not browser.evaluate('document.body !== null && document.body.dataset.ready === "true"'):
            if time.time() > deadline:
                raise RuntimeError("the page did not settle: " + url)
            time.sleep(0.05)
        # The page's requests in flight, counted, so that a slow answer (a loaded machine)
        # is waited for rather than taken for a settled page.
        browser.evaluate("(() => { window.__inflight = 0; const f = window.fetch; "
                         "window.fetch = (...a) => { window.__inflight++; "
                         "return f(...a).finally(() => { window.__inflight--; }); }; return true; })()")
        for action in actions:
            if action.startswith("click:"):
                selector = '#moves tr[data-move="%s"] button' % action[len("click:"):]
                if not browser.evaluate("(() => { const b = document.querySelector('%s'); if (b) b.click(); "
                                        "return b !== null; })()" % selector):
                    raise RuntimeError("no button for " + action)
            elif action in ("back", "forward"):
                browser.evaluate('document.getElementById("%s").click()' % action)
            elif action == "hold":
                browser.call("Fetch.enable", patterns=[{"urlPattern": "*/api/moves*", "requestStage": "Request"}])
            elif action == "release-reversed":
                held, deadline = [], time.time() + 30
                while len(held) < 2:
                    if time.time() > deadline:
                        raise RuntimeError("fewer than two answers held: %d" % len(held))
                    held += browser.held_requests()
                    time.sleep(0.05)
                browser.call("Fetch.continueRequest", requestId=held[-1])
                time.sleep(0.5)  # that answer shown first
                for request in reversed(held[:-1]):
                    browser.call("Fetch.continueRequest", requestId=request)
                browser.call("Fetch.disable")
            elif action.startswith("wait:"):
                time.sleep(int(action[len("wait:"):]) / 1000)
            else:
                raise RuntimeError("unknown action " + action)
        # Settled: no request in flight and the same page for a whole second.
        shown, still_since, deadline = None, time.time(), time.time() + 120
        while time.time() - still_since < 1.0:
            if time.time() > deadline:
                raise RuntimeError("the page did not settle after the actions")
            now = browser.evaluate(SHOWN)
            if now != shown or browser.evaluate("window.__inflight") != 0:
                shown, still_since = now, time.time()
            time.sleep(0.1)
        print(shown)
    finally:
        browser.close()


if __name__ == "__main__":
    main()
