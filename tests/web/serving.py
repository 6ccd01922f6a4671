"""A real `deckcheck serve` for the tests that need processes (crashes, races): start, wait, kill, and a
visitor that keeps its CSRF cookie and posts forms. Only the standard library (urllib)."""
from __future__ import annotations

import json
import os
import re
import secrets
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

EXE = str(Path(sys.executable).with_name("deckcheck"))


class Server:
    """`deckcheck serve` on a database in a process group of its own (SIGKILL reaches every worker)."""

    def __init__(self, db: str, port: int, workers: int = 1, env: dict[str, str | None] | None = None,
                 args: tuple = ()):
        """`env` adds to this process's environment; a variable given as None is taken out of it."""
        import tempfile
        environ = dict(os.environ, DECKCHECK_DESK_RATE="0")
        for name, value in (env or {}).items():
            if value is None:
                environ.pop(name, None)
            else:
                environ[name] = value
        self.url = f"http://127.0.0.1:{port}"
        self.errors = tempfile.NamedTemporaryFile("w+", prefix="deckcheck-serve-", suffix=".log")
        self.proc = subprocess.Popen([EXE, "serve", "--port", str(port), "--workers", str(workers), "--db", db,
                                      *args],
                                     stdout=subprocess.DEVNULL, stderr=self.errors, text=True,
                                     start_new_session=True,
                                     env=environ)
        self.wait_healthy()

    def wait_healthy(self, seconds: float = 90) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise AssertionError(f"serve exited: {self.log()}")
            try:
                with urllib.request.urlopen(self.url + "/healthz", timeout=2) as r:
                    if json.load(r) == {"status": "ok"}:
                        return
            except OSError:
                time.sleep(0.1)
        raise AssertionError("the server did not answer /healthz")

    def log(self) -> str:
        """What the server wrote on stderr (tracebacks of its 500s) so far."""
        with open(self.errors.name, encoding="utf-8", errors="replace") as f:
            return f.read()

    def kill(self) -> None:
        """SIGKILL to the server and all its workers at once: a crash, nothing cleaned up."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.proc.wait(30)
        # a worker in the middle of an fsync dies only when the call returns, keeping its locks till then:
        # restart once every process of the server is gone, as a service manager would
        end = time.monotonic() + 60
        while time.monotonic() < end:
            try:
                os.killpg(self.proc.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.kill()
                return
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)  # a worker left behind
        except ProcessLookupError:
            pass


class Answer:
    def __init__(self, status: int, headers, body: bytes):
        self.status, self.headers, self.body = status, headers, body

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    def json(self):
        return json.loads(self.body)


class Visitor:
    """A browser in miniature: its CSRF cookie, same-origin headers, forms (urlencoded or multipart)."""

    def __init__(self, base: str):
        self.base = base
        self.cookie = ""
        self.token = ""
        page = self.request("GET", "/collection")
        found = re.search(r"deckcheck_csrf=([^;]+)", page.headers.get("set-cookie", ""))
        assert found, page.headers
        self.cookie = found.group(1)
        self.token = self.cookie

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict | None = None,
                timeout: float = 120) -> Answer:
        sent = {"Origin": self.base, "Sec-Fetch-Site": "same-origin", **(headers or {})}
        if self.cookie:
            sent["Cookie"] = f"deckcheck_csrf={self.cookie}"
        req = urllib.request.Request(self.base + path, data=body, method=method, headers=sent)

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args, **kwargs):
                return None
        opener = urllib.request.build_opener(NoRedirect)
        try:
            with opener.open(req, timeout=timeout) as r:
                return Answer(r.status, r.headers, r.read())
        except urllib.error.HTTPError as e:
            return Answer(e.code, e.headers, e.read())

    def form(self, path: str, fields: dict[str, str]) -> Answer:
        from urllib.parse import urlencode
        return self.request("POST", path, urlencode({"csrf_token": self.token, **fields}).encode(),
                            {"Content-Type": "application/x-www-form-urlencoded"})

    def upload(self, path: str, fields: dict[str, str], name: str, data: bytes) -> Answer:
        boundary = secrets.token_hex(12)
        parts = []
        for key, value in {"csrf_token": self.token, **fields}.items():
            parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'.encode())
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
                     "Content-Type: text/csv\r\n\r\n".encode() + data + b"\r\n")
        parts.append(f"--{boundary}--\r\n".encode())
        return self.request("POST", path, b"".join(parts),
                            {"Content-Type": f"multipart/form-data; boundary={boundary}"})

    def preview(self, sheet: bytes, collection: str = "main", name: str = "c.csv", mode: str = "merge"
                ) -> dict[str, str]:
        """Upload a sheet for preview; the confirmation form's fields."""
        page = self.upload("/collection/import", {"mode": mode, "collection": collection}, name, sheet)
        assert page.status == 200, page.text[:500]
        return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"',
                               page.text.split("/import/confirm")[1]))

    def json(self, method: str, path: str, payload: dict | None = None, token: str = "") -> Answer:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return self.request(method, path, None if payload is None else json.dumps(payload).encode(), headers)


@contextmanager
def in_thread(db_url: str, admin_token: str | None = None) -> Iterator[str]:
    """The app on `db_url` (with `admin_token`: a club server) served by uvicorn in a thread, on a free loopback
    port: its base URL (a loopback client is the keeper)."""
    import socket
    import threading

    import uvicorn

    from deckcheck.web import create_app
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(create_app(db_url=db_url, admin_token=admin_token), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()
