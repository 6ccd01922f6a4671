"""Bounds on what a connection may do before the app sees a request: uvicorn's httptools protocol with limits.

Measured with uvicorn 0.54 and httptools 0.9 (tests/web/test_web_limits.py): httptools buffers a header of
any size (one connection made a server hold a 300 MB header) and uvicorn arms no timer before the first
request's headers are complete (an idle or dripping connection stays open for ever, each holding a file
descriptor). uvicorn's `h11_max_incomplete_event_size` bounds headers only with the h11 parser, and its
`timeout_keep_alive` only runs between requests. So `serve` runs this protocol:

- the request line and headers together: at most MAX_HEADER_BYTES, at most MAX_HEADERS lines; past
  either, 431 and the connection closed (counted as the bytes arrive, never buffered past one read, and as the
  parser reads them, so a head that arrives whole in one read is held to the same limit);
- the request line and headers must be complete `header_timeout` seconds (Settings) after the connection opened (or the
  previous request ended), else 408 and the connection closed (an idle new connection is simply closed);
- the body must be complete `body_timeout` seconds (Settings) after its headers, else 408 and the connection
  closed (uvicorn waits for a stalled body for ever, and its keep-alive timer is stopped by every byte that
  arrives); time the server itself takes (its app not reading yet, an `Expect: 100-continue` not yet answered,
  an answer being written) does not count;
- at most `connections_per_address` (Settings) connections open at once from one client address, in each server
  process (loopback included; 0: no cap): past it a new connection gets 429 with Retry-After and is closed
  at once, before anything of it is read, so one client holding hundreds of idle or slow connections cannot
  take every file descriptor of the server while the others wait for the header timeout to free them;
- every answer written here (431, 408, 429, and a malformed request's 400) carries the security headers.
"""
from __future__ import annotations

from typing import Any

import asyncio
import os
import re
from collections.abc import Callable
from http import HTTPStatus

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .security import HEADERS

MAX_HEADER_BYTES = 32 * 1024   # browsers send 1-4 KB; Node allows 16 KB, nginx 8 KB per line
MAX_HEADERS = 100              # browsers send about 15
HEADER_TIMEOUT = 15.0          # seconds for the request line and headers: a phone on bad Wi-Fi needs 1-2
BODY_TIMEOUT = 60.0            # seconds for a body after its headers: the 2 MB upload limit at 35 KB/s
REQUEST_LINE_REST = len("  HTTP/1.1\r\n\r\n")  # the request line's spaces and version, the head's blank line
CONNECTIONS_PER_ADDRESS = 64   # a browser opens at most 6 per server; the benches' 16 clients fit well below it
RETRY_AFTER_S = 5              # an idle kept-alive connection is closed after 5 s (uvicorn_options below)
BLANK_LINE = re.compile(rb"\r?\n\r?\n")  # the end of a head: its last line's end and the empty line after it

# Open connections of this server process by client address (the protocol's callbacks all run in the process's
# one event loop, so no lock is needed).
_OPEN: dict[str, int] = {}


class _Refused(Exception):
    """Raised from a parser callback to stop reading; the answer is in the protocol's `refusal`."""


class _Timer:
    """A connection's timeout: armed once (again only after it fired or was cancelled), then `callback` runs."""

    def __init__(self, loop: asyncio.AbstractEventLoop, seconds: float, callback: Callable[[], None]) -> None:
        self.loop, self.seconds, self.callback = loop, seconds, callback
        self.handle: asyncio.TimerHandle | None = None

    def arm(self) -> None:
        if self.handle is None:
            self.handle = self.loop.call_later(self.seconds, self._fire)

    def cancel(self) -> None:
        if self.handle is not None:
            self.handle.cancel()
            self.handle = None

    def _fire(self) -> None:
        self.handle = None
        self.callback()


class GuardedHttpTools(HttpToolsProtocol):
    """uvicorn's httptools protocol with a bound on header bytes and lines, a header-read and a body-read timeout."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.header_bytes = 0  # the bytes received since the head began (whole reads)
        self.head_bytes = 0    # the head's bytes the parser has read, in this read or earlier ones
        self.header_lines = 0
        self.reading_body = False
        self.body_timeout = body_timeout()
        self.body_timer = _Timer(self.loop, self.body_timeout, self._body_timeout)
        self.reading_headers = True
        self.head_started = False  # a byte of the head's request line has come (empty lines before it do not count)
        self.head_tail = b""      # the last bytes of the previous read of this head: its blank line may span reads
        self.refusal: tuple[int, str] | None = None
        self.header_timeout = header_timeout()
        self.header_timer = _Timer(self.loop, self.header_timeout, self._header_timeout)
        self.counted: str | None = None  # the client address this connection counts against

    # timer and connection count ---------------------------------------------------------------------
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = self.client[0] if self.client else None  # None: a Unix socket, not capped
        cap = connections_per_address()
        if address is not None and cap:
            if _OPEN.get(address, 0) >= cap:
                self.refusal = (429, f"too many connections from your address: at most {cap} may be open at once; "
                                     f"close some and try again")
                self._refuse(*self.refusal, extra=(("retry-after", str(RETRY_AFTER_S)),))
                return
            _OPEN[address] = _OPEN.get(address, 0) + 1
            self.counted = address
        self.header_timer.arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self.header_timer.cancel()
        self.body_timer.cancel()
        if self.counted is not None:
            left = _OPEN.get(self.counted, 1) - 1
            if left > 0:
                _OPEN[self.counted] = left
            else:
                _OPEN.pop(self.counted, None)
            self.counted = None
        super().connection_lost(exc)

    def _header_timeout(self) -> None:
        if self.transport.is_closing():
            return
        if self.cycle is not None and not self.cycle.response_complete:
            self.header_timer.arm()  # a pipelined request waits for the one being answered: its turn has not come
            return
        if self.header_bytes == 0:
            self.transport.close()  # opened and never used
            return
        self._refuse(408, f"the request's headers did not arrive within {self.header_timeout:g} s")

    def _body_timeout(self) -> None:
        cycle = self.cycle
        if self.transport.is_closing() or not self.reading_body or cycle is None:
            return
        if not cycle.response_complete and (self.flow.read_paused or cycle.waiting_for_100_continue
                                            or cycle.response_started):
            self.body_timer.arm()  # the server's own turn: what came is not read yet, or the answer is on its way
            return
        if cycle.response_started:
            self.transport.close()  # answered without the body (a refusal): nothing more to say
            return
        self._refuse(408, f"the request's body did not arrive within {self.body_timeout:g} s of its headers")

    # counting ---------------------------------------------------------------------------------------
    def data_received(self, data: bytes) -> None:
        if self.refusal is not None or self.transport.is_closing():
            return
        if self.reading_headers:
            end = self._head_end(data)
            within = self.header_bytes + (len(data) if end is None else end)
            self.header_bytes += len(data)
            if within > MAX_HEADER_BYTES:  # counted by bytes: the whitespace and empty lines the parser drops too
                self.refusal = (431, too_large_head())
                self._refuse(*self.refusal)
                return
        try:
            super().data_received(data)
        except _Refused:  # pragma: no cover - httptools wraps it (below)
            pass
        if self.refusal is None and self.reading_headers and self.header_bytes > MAX_HEADER_BYTES:
            self.refusal = (431, too_large_head())
        if self.refusal is not None:
            if not self.transport.is_closing():
                self._refuse(*self.refusal)
        elif self.reading_body and not self.transport.is_closing():
            self.body_timer.arm()  # a body to come: its time runs from its headers, whatever arrives meanwhile

    def send_400_response(self, msg: str) -> None:
        """A request httptools cannot parse (or one a callback below refused)."""
        if self.refusal is None:
            self.refusal = (400, "the request is not valid HTTP/1.1")
        self._refuse(*self.refusal)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self.reading_headers = True
        self.header_lines = 0
        self.head_bytes = 0
        self.header_timer.arm()

    def on_url(self, url: bytes) -> None:
        self._count_head(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self.header_lines += 1
        if self.header_lines > MAX_HEADERS:
            self.refusal = (431, f"the request has more than {MAX_HEADERS} header lines")
            raise _Refused()
        self._count_head(len(name) + len(value) + len(": \r\n"))
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._count_head(len(self.parser.get_method()) + REQUEST_LINE_REST)
        self.header_timer.cancel()
        self.reading_headers = False
        self.header_bytes = 0
        self.reading_body = True
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self.reading_headers = True
        self.head_started, self.head_tail = False, b""
        self.reading_body = False
        self.body_timer.cancel()

    def _head_end(self, data: bytes) -> int | None:
        """How many bytes of this read belong to the head being read, when it ends in it (None: it goes on past
        it). Found in the bytes themselves, so that a head arriving whole in one read is held to the limit even
        where it is padded with the whitespace and empty lines the parser reads past without a callback."""
        start = 0
        if not self.head_started:
            start = len(data) - len(data.lstrip(b"\r\n"))  # empty lines before a request line: RFC 9112 §2.2
            if start == len(data):
                return None
            self.head_started = True
        seen = self.head_tail + data
        found = BLANK_LINE.search(seen, start)  # start > 0 only with no tail
        if found is None:
            self.head_tail = seen[-3:]
            return None
        return found.end() - len(self.head_tail)

    def _count_head(self, size: int) -> None:
        """Count bytes of the head as the parser reads them (a head that came in one read included); past
        MAX_HEADER_BYTES, the request is refused."""
        self.head_bytes += size
        if self.head_bytes > MAX_HEADER_BYTES:
            self.refusal = (431, too_large_head())
            raise _Refused()

    def _refuse(self, status: int, message: str, extra: tuple[tuple[str, str], ...] = ()) -> None:
        """Answer `status` with the message (plain text, the security headers) and close the connection."""
        self.header_timer.cancel()
        self.body_timer.cancel()
        body = (message + "\n").encode()
        lines = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}", "content-type: text/plain; charset=utf-8",
                 f"content-length: {len(body)}", "connection: close", "cache-control: no-store"]
        lines += [f"{k}: {v}" for k, v in extra]
        lines += [f"{k.lower()}: {v}" for k, v in HEADERS.items()]
        self.transport.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
        self.transport.close()


def too_large_head() -> str:
    """The 431's message for a request line and headers over MAX_HEADER_BYTES."""
    return f"the request line and headers are over the limit of {MAX_HEADER_BYTES // 1024} KB"


def header_timeout() -> float:
    """This worker's header-read timeout: Settings.header_timeout, as `serve` wrote it to the environment (it was
    checked there); HEADER_TIMEOUT when unset."""
    return _seconds("header_timeout", HEADER_TIMEOUT)


def body_timeout() -> float:
    """This worker's body-read timeout: Settings.body_timeout, as `serve` wrote it to the environment (it was
    checked there); BODY_TIMEOUT when unset."""
    return _seconds("body_timeout", BODY_TIMEOUT)


def _seconds(field: str, default: float) -> float:
    from .settings import Settings
    text = os.environ.get(Settings.env_names()[field]) or ""
    try:
        return float(text) if text else default
    except ValueError:
        return default


def connections_per_address() -> int:
    """This worker's cap on open connections per client address: Settings.connections_per_address, as `serve` wrote
    it to the environment (it was checked there); CONNECTIONS_PER_ADDRESS when unset; 0: no cap."""
    from .settings import Settings
    text = os.environ.get(Settings.env_names()["connections_per_address"]) or ""
    try:
        return max(0, int(text)) if text else CONNECTIONS_PER_ADDRESS
    except ValueError:
        return CONNECTIONS_PER_ADDRESS


def uvicorn_options() -> dict[str, Any]:
    """The uvicorn.run options that bound a connection (the protocol above, the h11 fallback's limit too)."""
    return {"http": GuardedHttpTools, "h11_max_incomplete_event_size": MAX_HEADER_BYTES, "timeout_keep_alive": 5}

