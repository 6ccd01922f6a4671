"""Bounds in front of the app of a real `deckcheck serve` (uvicorn with httptools), proved with raw sockets
(issue 19, item 5): header bytes and lines, the header-read timeout, an idle connection, the Host allow-list
of a server on every address."""
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

from deckcheck.web.protocol import MAX_HEADER_BYTES, MAX_HEADERS

EXE = str(Path(sys.executable).with_name("deckcheck"))
TIMEOUT = 1.5


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`deckcheck serve` on a free port, every address, a header timeout of 1.5 s."""
    db = tmp_path_factory.mktemp("limits") / "web.db"
    port = free_port()
    srv = Server(f"sqlite:///{db}", port,
                 env={"DECKCHECK_ALLOWED_HOSTS": None},  # serve makes the list from --host and --allowed-host
                 args=("--host", "0.0.0.0", "--allowed-host", "desk.club.example", "--header-timeout", str(TIMEOUT)))
    yield port
    srv.stop()


def request(path: str, host: str = "127.0.0.1", extra: str = "") -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: {host}\r\n{extra}Connection: close\r\n\r\n".encode()


def exchange(port: int, data: bytes, timeout: float = 10) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        return read_all(s)


def read_all(s: socket.socket) -> bytes:
    out = b""
    while True:
        try:
            chunk = s.recv(65536)
        except (ConnectionResetError, socket.timeout):
            return out
        if not chunk:
            return out
        out += chunk


def test_a_huge_header_is_refused_while_it_arrives(server):
    sent = 0
    with socket.create_connection(("127.0.0.1", server), timeout=10) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ")
        try:
            while sent < 64 * 2**20:  # the server reading it all would take 64 MB; it stops long before
                s.sendall(b"a" * 65536)
                sent += 65536
        except OSError:  # the server closed the connection: what we want
            pass
        answer = read_all(s)
    assert sent < 8 * 2**20, sent
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]
    assert b"content-security-policy:" in answer.lower() and b"connection: close" in answer.lower()
    assert b"200 OK" in exchange(server, request("/healthz"))  # the server is still there


def test_headers_up_to_the_limit_are_taken(server):
    extra = "".join(f"X-H{i}: {'v' * 100}\r\n" for i in range(60))
    assert b"200 OK" in exchange(server, request("/healthz", extra=extra))
    assert len(extra) < MAX_HEADER_BYTES


def test_too_many_header_lines_get_431(server):
    extra = "".join(f"X-H{i}: v\r\n" for i in range(MAX_HEADERS + 5))
    answer = exchange(server, request("/healthz", extra=extra))
    assert answer.startswith(b"HTTP/1.1 431 ") and b"header lines" in answer


def test_an_idle_connection_is_closed(server):
    with socket.create_connection(("127.0.0.1", server), timeout=TIMEOUT * 6) as s:
        start = time.monotonic()
        assert read_all(s) == b""  # closed, nothing said: nothing was asked
        assert time.monotonic() - start < TIMEOUT * 4


def test_headers_dripping_in_get_408(server):
    with socket.create_connection(("127.0.0.1", server), timeout=TIMEOUT * 6) as s:
        start = time.monotonic()
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        answer = b""
        try:
            for _ in range(int(TIMEOUT * 4 / 0.3)):
                s.sendall(b"X-Slow: 1\r\n")
                time.sleep(0.3)
        except OSError:
            pass
        answer = read_all(s)
    assert answer.startswith(b"HTTP/1.1 408 "), answer[:200]
    assert time.monotonic() - start < TIMEOUT * 5


def test_a_keep_alive_connection_gets_its_timeout_again_for_the_next_request(server):
    with socket.create_connection(("127.0.0.1", server), timeout=TIMEOUT * 6) as s:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        time.sleep(0.5)
        assert s.recv(65536).startswith(b"HTTP/1.1 200 ")
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never finished
        answer = read_all(s)
    assert answer.startswith(b"HTTP/1.1 408 ")


def test_malformed_http_gets_400_with_the_security_headers(server):
    answer = exchange(server, b"GARBAGE\x00 / HTTP/9\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 400 ") and b"content-security-policy:" in answer.lower()


@pytest.mark.parametrize("host, ok", [("127.0.0.1", True), ("localhost:1234", True), ("192.168.1.20", True),
                                      ("[fe80::1]", True), ("desk.club.example", True), ("evil.example", False),
                                      (socket.gethostname(), True)])
def test_a_server_on_every_address_answers_its_addresses_and_names(server, host, ok):
    answer = exchange(server, request("/healthz", host=host))
    assert answer.startswith(b"HTTP/1.1 200 " if ok else b"HTTP/1.1 400 "), answer[:200]


def test_head_and_405_over_http(server):
    answer = exchange(server, "HEAD / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 ") and body == b"" and b"content-length:" in head.lower()
    answer = exchange(server, request("/api/check"))
    assert answer.startswith(b"HTTP/1.1 405 ") and b"allow: POST" in answer


def test_serve_refuses_a_token_file_it_cannot_read(tmp_path):
    r = subprocess.run([EXE, "serve", "--admin-token-file", str(tmp_path / "missing")], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2 and "--admin-token-file" in r.stderr and "Traceback" not in r.stderr


def test_serve_refuses_a_bad_allowed_host_and_a_bad_rate(tmp_path):
    r = subprocess.run([EXE, "serve", "--allowed-host", "evil/x", "--db", f"sqlite:///{tmp_path / 'w.db'}"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--allowed-host" in r.stderr and "Traceback" not in r.stderr
    r = subprocess.run([EXE, "serve", "--db", f"sqlite:///{tmp_path / 'w.db'}"], capture_output=True, text=True,
                       timeout=60, env={**os.environ, "DECKCHECK_CHECK_RATE": "lots"})
    assert r.returncode == 2 and "DECKCHECK_CHECK_RATE" in r.stderr and "Traceback" not in r.stderr


def test_serve_with_a_token_on_the_command_line_warns(tmp_path):
    r = subprocess.run([EXE, "serve", "--admin-token", "s3cret", "--port", "-1"], capture_output=True, text=True,
                       timeout=60)
    assert "--admin-token-file" in r.stderr and "s3cret" not in r.stderr


def test_serve_refuses_a_preview_folder_others_may_enter(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    r = subprocess.run([EXE, "serve", "--preview-dir", str(shared), "--db", f"sqlite:///{tmp_path / 'w.db'}"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--preview-dir" in r.stderr and "chmod 700" in r.stderr
