"""Bounds in front of the app of a real `deckcheck serve` (uvicorn with httptools), proved with raw sockets
(issue 19, item 5; issue 28, item 5: every bound of the README's table, however the bytes arrive): header bytes
(in one read and across reads) and lines, the header-read and body-read timeouts, an idle connection, an idle
kept-alive one, the body limit, the check and event rates, one Host on HTTP/1.1, the Host allow-list of a server
on every address. The connection cap is proved in test_web_connections.py."""
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
UPLOAD_LIMIT = 8192
CHECKS, EVENTS = 3, 2  # the rates of the module's server, per minute and per hour


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """`deckcheck serve` on a free port, every address, header and body timeouts of 1.5 s, an 8 KB body limit,
    3 checks a minute and 2 new events an hour."""
    db = tmp_path_factory.mktemp("limits") / "web.db"
    port = free_port()
    srv = Server(f"sqlite:///{db}", port,
                 env={"DECKCHECK_ALLOWED_HOSTS": None,  # serve makes the list from --host and --allowed-host
                      "DECKCHECK_CHECK_RATE": f"{CHECKS}/60", "DECKCHECK_EVENT_RATE": f"{EVENTS}/3600"},
                 args=("--host", "0.0.0.0", "--allowed-host", "desk.club.example", "--header-timeout", str(TIMEOUT),
                       "--body-timeout", str(TIMEOUT), "--upload-limit", str(UPLOAD_LIMIT)))
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def server(served):
    """The module's server's port."""
    return int(served.url.rsplit(":", 1)[1])


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


def head_of(size: int) -> bytes:
    """A GET /healthz whose request line and headers are exactly `size` bytes."""
    start = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-Pad: "
    end = b"\r\n\r\n"
    return start + b"p" * (size - len(start) - len(end)) + end


@pytest.mark.parametrize("size", [33_000, 120_000, MAX_HEADER_BYTES + 1])
def test_a_head_over_the_limit_in_one_read_gets_431(server, size):
    answer = exchange(server, head_of(size))  # one write: the server reads it in one go (loopback)
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]
    assert b"over the limit of 32 KB" in answer and b"content-security-policy:" in answer.lower()


PADDED_HEADS = {  # heads over the limit by bytes the parser reads past without handing them to a callback
    "spaces before a value": b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad:" + b" " * 40_000 + b"v\r\n\r\n",
    "tabs before a value": b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad:" + b"\t" * 40_000 + b"v\r\n\r\n",
    "empty lines before the request line": b"\r\n" * 20_000 + b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    "spaces after the method": b"GET" + b" " * 40_000 + b"/healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    "spaces before the version": b"GET /healthz" + b" " * 40_000 + b"HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
}


@pytest.mark.parametrize("name", PADDED_HEADS)
def test_a_head_padded_past_the_limit_in_one_read_gets_431(server, name):
    """The limit is of bytes, not of what the parser keeps: whitespace and empty lines count too (found by a
    review: 40,000 spaces, tabs or blank lines in one read were answered 200)."""
    answer = exchange(server, PADDED_HEADS[name])
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]
    assert b"200 OK" in exchange(server, request("/healthz"))


def test_a_head_ending_across_two_reads_is_read_whole(server):
    """The blank line that ends a head may arrive split between reads; the request is answered as usual."""
    with socket.create_connection(("127.0.0.1", server), timeout=10) as s:
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r")
        time.sleep(0.2)
        s.sendall(b"\n")
        assert read_all(s).startswith(b"HTTP/1.1 200 ")


@pytest.mark.parametrize("step", [1000, 7])
def test_the_head_limit_is_the_same_however_the_bytes_are_split(server, step):
    """Exactly the limit is taken and one byte more refused, in one read or in pieces of `step` bytes."""
    def dripped(data: bytes) -> bytes:
        with socket.create_connection(("127.0.0.1", server), timeout=10) as s:
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            try:
                for at in range(0, len(data), step):
                    s.sendall(data[at:at + step])
                    if at % (step * 200) == 0:
                        time.sleep(0.001)  # some pieces are read apart
            except OSError:
                pass
            return read_all(s)
    assert exchange(server, head_of(MAX_HEADER_BYTES)).startswith(b"HTTP/1.1 200 ")
    assert dripped(head_of(MAX_HEADER_BYTES)).startswith(b"HTTP/1.1 200 ")
    assert dripped(head_of(MAX_HEADER_BYTES + 1)).startswith(b"HTTP/1.1 431 ")


@pytest.mark.parametrize("head, status", [
    (b"GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n", 400),
    (b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 400),
    (b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n", 400),
    (b"GET /healthz HTTP/1.0\r\n\r\n", 200),  # HTTP/1.0 has no Host to require
    (b"GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nConnection: close\r\n\r\n", 200),
])
def test_http_1_1_names_its_host_exactly_once(server, head, status):
    answer = exchange(server, head)
    assert answer.startswith(f"HTTP/1.1 {status} ".encode()), answer[:300]
    if status == 400:
        assert b"one Host header" in answer


def post_head(path: str, length: int | None, extra: str = "") -> bytes:
    """The head of a POST of JSON; `length` None: a chunked body."""
    size = "Transfer-Encoding: chunked" if length is None else f"Content-Length: {length}"
    return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n{size}\r\n{extra}"
            "\r\n").encode()


@pytest.mark.parametrize("length, sent", [(100, b'{"decklist": "'), (None, b'5\r\n{"dec\r\n'), (100, b"")])
def test_a_body_that_stalls_gets_408_and_leaves_no_traceback(served, server, length, sent):
    before = served.log()
    with socket.create_connection(("127.0.0.1", server), timeout=TIMEOUT * 8) as s:
        start = time.monotonic()
        s.sendall(post_head("/api/stats", length) + sent)  # and nothing more
        answer = read_all(s)
        waited = time.monotonic() - start
    assert answer.startswith(b"HTTP/1.1 408 "), answer[:300]
    assert b"body did not arrive within 1.5 s" in answer and b"content-security-policy:" in answer.lower()
    assert TIMEOUT * 0.9 < waited < TIMEOUT * 5
    logged = wait_for_log(served, before, "/api/stats")
    assert "Traceback" not in logged and "ClientDisconnect" not in logged and "ERROR" not in logged, logged
    assert logged.count("\n") == 1 and "the connection closed before the request's body arrived" in logged, logged


def wait_for_log(served, before: str, word: str, seconds: float = 5) -> str:
    """What the server logged after `before`, once it names `word` (or the seconds are over)."""
    end = time.monotonic() + seconds
    while True:
        new = served.log()[len(before):]
        if word in new or time.monotonic() > end:
            time.sleep(0.2)  # a traceback would follow its first line
            return served.log()[len(before):]
        time.sleep(0.05)


def test_a_client_that_closes_mid_body_is_one_quiet_line(served, server):
    before = served.log()
    with socket.create_connection(("127.0.0.1", server), timeout=10) as s:
        s.sendall(post_head("/api/stats", 100) + b'{"deck')
        time.sleep(0.3)  # the app is waiting for the rest
    logged = wait_for_log(served, before, "/api/stats")
    assert "Traceback" not in logged and "ClientDisconnect" not in logged, logged
    assert logged.count("\n") == 1 and "closed before the request's body arrived" in logged, logged


def test_stalled_bodies_do_not_hold_connections_past_the_timeout(server):
    held = [socket.create_connection(("127.0.0.1", server), timeout=TIMEOUT * 8) for _ in range(8)]
    try:
        for s in held:
            s.sendall(post_head("/api/stats", 1000) + b"{")
        start = time.monotonic()
        answers = [read_all(s) for s in held]
        assert all(a.startswith(b"HTTP/1.1 408 ") for a in answers), [a[:100] for a in answers]
        assert time.monotonic() - start < TIMEOUT * 5
    finally:
        for s in held:
            s.close()
    assert exchange(server, request("/healthz")).startswith(b"HTTP/1.1 200 ")


def test_a_body_dripping_after_its_answer_is_cut_off(server):
    """A request answered without its body (a 404, the connection kept alive) whose body keeps dripping: uvicorn's
    keep-alive timer stops at every byte that arrives, the body timeout does not."""
    with socket.create_connection(("127.0.0.1", server), timeout=TIMEOUT * 8) as s:
        s.sendall(post_head("/api/nothing-here", 5000))
        start = time.monotonic()
        try:
            for _ in range(int(TIMEOUT * 6 / 0.2)):
                s.sendall(b" ")
                time.sleep(0.2)
        except OSError:  # closed: what we want
            pass
        got = read_all(s)
    assert got.startswith(b"HTTP/1.1 404 "), got[:200]
    assert time.monotonic() - start < TIMEOUT * 5


def test_a_body_that_keeps_coming_is_read_to_the_end(server):
    """The body's time is not a gap between pieces: a body sent whole within it is answered."""
    body = b'{"decklist": "1 Thrust\\n"}'
    with socket.create_connection(("127.0.0.1", server), timeout=10) as s:
        s.sendall(post_head("/api/stats", len(body), "Connection: close\r\n"))
        for at in range(0, len(body), 5):
            s.sendall(body[at:at + 5])
            time.sleep(TIMEOUT / 2 / (len(body) / 5))
        answer = read_all(s)
    assert answer.startswith(b"HTTP/1.1 200 "), answer[:300]


def test_a_body_over_the_limit_gets_413_however_it_comes(server):
    answer = exchange(server, post_head("/api/stats", UPLOAD_LIMIT + 1, "Connection: close\r\n"))
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:300]  # at once: not one byte of the body was sent
    chunk = b"a" * 1000
    with socket.create_connection(("127.0.0.1", server), timeout=10) as s:
        s.sendall(post_head("/api/stats", None, "Connection: close\r\n"))
        try:
            for _ in range(UPLOAD_LIMIT // len(chunk) + 5):
                s.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            s.sendall(b"0\r\n\r\n")
        except OSError:
            pass
        answer = read_all(s)
    assert answer.startswith(b"HTTP/1.1 413 "), answer[:300]
    assert b"content-security-policy:" in answer.lower()


def test_an_idle_kept_alive_connection_is_closed_after_5_s(server):
    with socket.create_connection(("127.0.0.1", server), timeout=15) as s:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        time.sleep(0.3)
        assert s.recv(65536).startswith(b"HTTP/1.1 200 ")
        start = time.monotonic()
        assert read_all(s) == b""
        assert 4 < time.monotonic() - start < 10


@pytest.mark.parametrize("path, body, count", [
    ("/api/check", b'{"decklist": "1 Thrust"}', CHECKS),
    ("/api/events", b'{"name": "Friday"}', EVENTS),
])
def test_the_check_and_event_rates_hold_over_the_wire(server, path, body, count):
    answers = [exchange(server, post_head(path, len(body), "Connection: close\r\n") + body)
               for _ in range(count + 2)]
    assert not any(a.startswith(b"HTTP/1.1 429 ") for a in answers[:count]), [a[:100] for a in answers]
    for answer in answers[count:]:
        head = answer.split(b"\r\n\r\n")[0].lower()
        assert answer.startswith(b"HTTP/1.1 429 ") and b"retry-after:" in head, answer[:300]


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
    r = subprocess.run([EXE, "serve", "--admin-token", "s3cret", "--allowed-host", "http://x/"], capture_output=True,
                       text=True, timeout=60)  # a bad host name: refused after the warning, nothing started
    assert "--admin-token-file" in r.stderr and "s3cret" not in r.stderr


def test_serve_refuses_a_preview_folder_others_may_enter(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    r = subprocess.run([EXE, "serve", "--preview-dir", str(shared), "--db", f"sqlite:///{tmp_path / 'w.db'}"],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "--preview-dir" in r.stderr and "chmod 700" in r.stderr
