"""The cap on connections one client address holds open at once (`serve --connections-per-address`), proved with
raw sockets against a real `deckcheck serve` (uvicorn with httptools): past the cap a new connection gets 429
at once and is closed; the address's connections that are open keep working; another address is not affected;
a closed connection frees its place, and so does a stalled body at the body timeout."""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import free_port
from serving import Server
from test_web_limits import read_all  # what the server says until it closes the connection

EXE = str(Path(sys.executable).with_name("deckcheck"))
CAP = 4
BODY_TIMEOUT = 1.5


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`deckcheck serve` on every address with a cap of 4 connections per address (one process: one count) and a
    body timeout of 1.5 s."""
    db = tmp_path_factory.mktemp("connections") / "web.db"
    port = free_port()
    srv = Server(f"sqlite:///{db}", port,
                 env={"DECKCHECK_CONNECTIONS_PER_ADDRESS": str(CAP), "DECKCHECK_ALLOWED_HOSTS": None},
                 args=("--host", "0.0.0.0", "--header-timeout", "30", "--body-timeout", str(BODY_TIMEOUT)))
    yield port
    srv.stop()


def connect(port: int, source: str = "127.0.0.1") -> socket.socket:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(10)
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    return s


def ask(s: socket.socket, close: bool = True) -> bytes:
    """GET /healthz on the connection; the answer (its head and body). `close`: ask the server to close the
    connection, and close it here too; else it stays open (kept alive) for another request."""
    with_close = "Connection: close\r\n" if close else ""
    try:
        s.sendall(f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n{with_close}\r\n".encode())
    except OSError:  # refused before the request was written: what it said is still to be read
        pass
    out = b""
    while True:
        head, sep, body = out.partition(b"\r\n\r\n")
        if sep:
            length = [int(line.split(b":")[1]) for line in head.lower().split(b"\r\n")
                      if line.startswith(b"content-length:")]
            if length and len(body) >= length[0]:
                break
        try:
            chunk = s.recv(65536)
        except (ConnectionResetError, socket.timeout):
            break
        if not chunk:
            break
        out += chunk
    if close:
        s.close()
    return out


def hold(port: int) -> list[socket.socket]:
    """As many connections as the cap, each counted (it was answered once) and kept open."""
    held = [connect(port) for _ in range(CAP)]
    answers = [ask(s, close=False) for s in held]
    if not all(a.startswith(b"HTTP/1.1 200 ") for a in answers):
        for s in held:
            s.close()
        raise AssertionError(answers)
    return held


def settle(port: int, seconds: float = 10) -> None:
    """Until the server has seen every closed connection of this address go (a fresh one is answered)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        held = [connect(port) for _ in range(CAP)]
        answers = [ask(s, close=False) for s in held]
        for s in held:
            s.close()
        if all(a.startswith(b"HTTP/1.1 200 ") for a in answers):
            return
        time.sleep(0.2)
    raise AssertionError("closed connections were not let go")


def test_past_the_cap_a_new_connection_gets_429_at_once(server):
    settle(server)
    held = hold(server)
    try:
        start = time.monotonic()
        answer = ask(connect(server))
        assert time.monotonic() - start < 5  # not after a timeout: at once
        head = answer.split(b"\r\n\r\n")[0].lower()
        assert answer.startswith(b"HTTP/1.1 429 "), answer[:300]
        assert b"retry-after: 5" in head and b"connection: close" in head and b"content-security-policy:" in head
        assert b"at most 4 may be open at once" in answer
        # the connections that are open are served as before
        assert all(ask(s, close=False).startswith(b"HTTP/1.1 200 ") for s in held)
    finally:
        for s in held:
            s.close()
    settle(server)  # and their places are free again once they are closed
    assert ask(connect(server)).startswith(b"HTTP/1.1 200 ")


def test_another_address_is_not_affected(server):
    try:
        other = connect(server, source="127.0.0.2")
    except OSError:
        pytest.skip("no second loopback address to connect from")
    other.close()
    settle(server)
    held = hold(server)
    try:
        assert ask(connect(server)).startswith(b"HTTP/1.1 429 ")
        assert ask(connect(server, source="127.0.0.2")).startswith(b"HTTP/1.1 200 ")
    finally:
        for s in held:
            s.close()


def test_a_connection_refused_takes_no_place(server):
    """Refused connections are not counted: once the held ones close, as many as the cap are served again."""
    settle(server)
    held = hold(server)
    try:
        assert all(ask(connect(server)).startswith(b"HTTP/1.1 429 ") for _ in range(10))
    finally:
        for s in held:
            s.close()
    settle(server)


def test_stalled_bodies_hold_the_address_no_longer_than_the_body_timeout(server):
    """Issue 28: as many uploads as the cap that stop after their headers kept the address refused (429) for as
    long as they stayed open, which was for ever."""
    settle(server)
    held = [connect(server) for _ in range(CAP)]
    try:
        for s in held:
            s.sendall(b"POST /api/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 100\r\n\r\n{")
        start = time.monotonic()
        time.sleep(0.3)
        assert ask(connect(server)).startswith(b"HTTP/1.1 429 ")
        answers = [read_all(s) for s in held]  # each ends at its 408
        assert all(a.startswith(b"HTTP/1.1 408 ") for a in answers), [a[:100] for a in answers]
        assert time.monotonic() - start < BODY_TIMEOUT * 5
    finally:
        for s in held:
            s.close()
    settle(server)


def test_serve_refuses_a_bad_cap(tmp_path):
    r = subprocess.run([EXE, "serve", "--db", f"sqlite:///{tmp_path / 'w.db'}"], capture_output=True, text=True,
                       timeout=60, env={**os.environ, "DECKCHECK_CONNECTIONS_PER_ADDRESS": "-1"})
    assert r.returncode == 2 and "DECKCHECK_CONNECTIONS_PER_ADDRESS" in r.stderr and "Traceback" not in r.stderr
