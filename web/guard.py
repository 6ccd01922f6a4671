"""The guards in front of every route (plain ASGI middleware, so pages and endpoints added later are covered):

- `HostGuard`: the `Host` header must name this server (an allow-list), else 400; an HTTP/1.1 request sends it
  exactly once (RFC 9112, 3.2), else 400. A page on another site
  cannot reach a server on 127.0.0.1 by DNS rebinding (its name resolving to 127.0.0.1): its requests carry
  its own name. A state-changing request (POST, PUT, PATCH, DELETE) sent by a browser must come from one of
  this server's own pages: `Origin` (or, without it, `Sec-Fetch-Site`) names this server, else 403.
  Programs (curl, scripts) send neither header and are not refused.
- `RateLimits`: checks (`POST /api/check`, `POST /check`) and event creation (`POST /api/events`,
  `POST /desk`) per client address and window, 429 with `Retry-After` past the limit; on a server listening on
  loopback, requests from this machine (not relayed by a proxy) are not counted.
- `QuietDisconnect`: a client gone before its request's body arrived (it closed the connection, or the server's
  body timeout did) is one line in the log, not an error with a traceback.
- `ProtocolFixes`: `HEAD` on every `GET` (and in the router's `Allow` of a 405), `WWW-Authenticate: Bearer` on 401,
  `Connection: close` after a 500.

Their options are fields of deckcheck.web.settings.Settings (`allowed_hosts`, `check_rate`, `event_rate`; the
header bounds of deckcheck.web.protocol: `header_timeout`), read here as a `GuardSettings`.
"""
from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from deckcheck.desk import wait_words
from deckcheck.rates import Rate, Windows

from .hosts import LOOPBACK_NAMES, WILDCARD_BINDS, is_loopback_address, loopback_bind
from .settings import Settings

SAFE_METHODS = ("GET", "HEAD", "OPTIONS", "TRACE")


# -- options ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class GuardSettings:
    """The options of the guards, read from the server's Settings: the host names it answers to, the rates."""

    allowed_hosts: tuple[str, ...] = LOOPBACK_NAMES
    check_rate: Rate = Rate(300, 60)
    event_rate: Rate = Rate(30, 3600)
    personal: bool = False  # listening on loopback only: the rates are for other machines, not its own user

    @classmethod
    def of(cls, settings: Settings) -> GuardSettings:
        """The guards' options of a deckcheck.web.settings.Settings (no host names: the loopback ones)."""
        names = tuple(h for h in settings.allowed_hosts.split(",") if h) or LOOPBACK_NAMES
        return cls(allowed_hosts=names, check_rate=Rate.parse(settings.check_rate, "--check-rate"),
                   event_rate=Rate.parse(settings.event_rate, "--event-rate"), personal=loopback_bind(settings.host))


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


# -- Host and Origin ------------------------------------------------------------------------------------
def split_host(value: str, scheme: str = "http") -> tuple[str, int | None] | None:
    """(host name, explicit port or None) of a Host header value; None when it is not a host[:port]."""
    if not value or any(c in value for c in "/\\?#@ \t") or not value.isascii():
        return None
    try:
        parts = urlsplit(f"{scheme}://{value}")
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if not host:
        return None
    return host.rstrip("."), port


def host_allowed(host: str, allowed: tuple[str, ...]) -> bool:
    """Whether a host name (from a Host header, lower case) is on the allow-list: any IP address when the server
    is bound to every address (our one rule), else as Starlette's TrustedHostMiddleware matches names and
    `*.example.org` (its subdomains, never example.org itself or evilexample.org)."""
    if _is_ip(host) and any(a in WILDCARD_BINDS for a in allowed):
        return True
    names = tuple(_bracketed(a) for a in allowed if a not in WILDCARD_BINDS or a == "0.0.0.0")
    return _trusted(_bracketed(host), names)


def _bracketed(name: str) -> str:
    """An IPv6 address as a Host header writes it ([::1]), which is how TrustedHostMiddleware compares it."""
    return f"[{name}]" if ":" in name else name


@lru_cache(maxsize=64)
def _trusted_host(allowed: tuple[str, ...]) -> TrustedHostMiddleware:
    return TrustedHostMiddleware(_let_in, allowed_hosts=list(allowed), www_redirect=False)


async def _let_in(scope: Scope, receive: Receive, send: Send) -> None:
    scope["deckcheck.host_allowed"] = True


async def _no_body() -> Message:
    return {"type": "http.disconnect"}


async def _drop(message: Message) -> None:
    return None


def _trusted(host: str, allowed: tuple[str, ...]) -> bool:
    """TrustedHostMiddleware's verdict on a host, asked with a scope of that Host alone. Its call never waits on
    anything (the app and the send it is given return at once), so it runs to its end here, synchronously."""
    scope: dict[str, object] = {"type": "http", "headers": [(b"host", host.encode("latin-1"))]}
    call = _trusted_host(allowed)(scope, _no_body, _drop)
    try:
        call.send(None)
    except StopIteration:
        return scope.get("deckcheck.host_allowed") is True
    call.close()  # it waited after all: refuse, as it would not have answered yet
    return False


def _default_port(scheme: str | None) -> int | None:
    return {"http": 80, "https": 443}.get(scheme or "")


def cross_site(scope: Scope, host: tuple[str, int | None] | None) -> str | None:
    """Why a state-changing request comes from another site (its Origin, or Sec-Fetch-Site); None if it does not.

    A request without either header is a program's (curl, a script), not a browser's: it is let through
    (the CSRF token still guards the forms).
    """
    origin = _header(scope, b"origin")
    if origin is not None:
        if host is None:
            return f"Origin {origin!r} with no Host"
        parts = urlsplit(origin) if origin != "null" else None
        try:
            origin_host, origin_port = (parts.hostname, parts.port or _default_port(parts.scheme)) if parts else ("", 0)
        except ValueError:
            return f"Origin {origin!r}"
        name, port = host
        ports = {port} if port is not None else {80, 443}  # behind a TLS proxy the scheme seen here is http
        if origin_host is None or origin_host.rstrip(".") != name or origin_port not in ports:
            return f"Origin {origin!r}"
        return None
    site = _header(scope, b"sec-fetch-site")
    if site is not None and site.lower() not in ("same-origin", "none"):
        return f"Sec-Fetch-Site {site!r}"
    return None


class HostGuard:
    """400 for a Host not on the allow-list; 403 for a state-changing request a browser sent from another site."""

    def __init__(self, app: ASGIApp, allowed_hosts: tuple[str, ...]):
        self.app = app
        self.allowed = allowed_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        hosts = [v for k, v in scope.get("headers", ()) if k.lower() == b"host"]
        if len(hosts) > 1 or (not hosts and scope.get("http_version") == "1.1"):
            await plain_error(scope, send, 400, f"an HTTP/1.1 request names its host in one Host header; this one has "
                                                f"{len(hosts) or 'no'} Host header{'' if len(hosts) == 1 else 's'}")
            return
        value = _header(scope, b"host")
        host = split_host(value.lower(), scope.get("scheme", "http")) if value is not None else None
        if value is not None and (host is None or not host_allowed(host[0], self.allowed)):
            shown = value if len(value) <= 100 else value[:100] + "..."
            await plain_error(scope, send, 400, f"this server does not answer to the host {shown!r}; open it by "
                                                "its own address (its keeper can add a name with "
                                                "--allowed-host)")
            return
        if scope.get("method", "GET") not in SAFE_METHODS:
            why = cross_site(scope, host)
            if why is not None:
                await plain_error(scope, send, 403, f"a request from another site ({why}) cannot change anything "
                                                    "here; open this server's own page and send it from there")
                return
        await self.app(scope, receive, send)


class QuietDisconnect:
    """A request whose client went away before its body arrived (Starlette's ClientDisconnect): one line in the
    log (INFO on "deckcheck.web"), no traceback; nobody is left to answer."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        from starlette.requests import ClientDisconnect
        try:
            await self.app(scope, receive, send)
        except ClientDisconnect:
            import logging
            client = scope.get("client") or ("?", 0)
            logging.getLogger("deckcheck.web").info("%s %s from %s: the connection closed before the request's "
                                                    "body arrived", scope.get("method"), scope.get("path"),
                                                    client[0])


# -- rate limits ----------------------------------------------------------------------------------------
LIMITED = {("POST", "/api/check"): "check", ("POST", "/check"): "check",
           ("POST", "/api/events"): "event", ("POST", "/desk"): "event"}
WHAT = {"check": ("checks", "check again"), "event": ("new events", "create the event again")}


# headers a reverse proxy adds: a request with one came from elsewhere, whatever address the proxy has
FORWARDED = (b"forwarded", b"x-forwarded-for", b"x-real-ip")


def own_user(scope: Scope) -> bool:
    """Whether a request comes from this machine itself: a loopback client address, not relayed by a proxy."""
    client = scope.get("client") or ("", 0)
    host = str(client[0])
    if not (host == "localhost" or is_loopback_address(host)):
        return False
    return not any(name.lower() in FORWARDED for name, _value in scope.get("headers", ()))


class RateLimits:
    """429 with Retry-After for checks and event creation past the rates of GuardSettings (per address); a personal
    server (listening on loopback) never throttles its own user (deckcheck.web.guard.own_user)."""

    def __init__(self, app: ASGIApp, settings: GuardSettings):
        self.app = app
        self.rates = {"check": settings.check_rate, "event": settings.event_rate}
        self.windows = Windows()
        self.personal = settings.personal

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = LIMITED.get((scope.get("method", ""), scope.get("path", ""))) if scope["type"] == "http" else None
        rate = self.rates.get(kind or "")
        if kind is not None and rate is not None and not rate.off and not (self.personal and own_user(scope)):
            client = scope.get("client") or ("", 0)
            wait = self.windows.hit(kind, str(client[0]), rate)
            if wait:
                seconds, words = wait_words(wait)
                what, again = WHAT[kind]
                await plain_error(scope, send, 429, f"more than {rate.count} {what} from your address within "
                                                    f"{rate.seconds} s; wait {words} and {again}",
                                  {"Retry-After": str(seconds)})
                return
        await self.app(scope, receive, send)


# -- protocol details ------------------------------------------------------------------------------------
BEARER = 'Bearer realm="deckcheck"'


class ProtocolFixes:
    """HEAD answered as GET without the body (and allowed where GET is); WWW-Authenticate on 401; Connection: close
    on 500."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        head = scope.get("method") == "HEAD"
        if head:
            scope = {**scope, "method": "GET"}

        async def fixed(message: Message) -> None:
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _v in headers}
                if status == 405:  # the router's Allow, with HEAD beside GET
                    headers = [(k, with_head(v) if k.lower() == b"allow" else v) for k, v in headers]
                if status == 401 and b"www-authenticate" not in names:
                    headers.append((b"www-authenticate", BEARER.encode()))
                if status >= 500 and b"connection" not in names:
                    headers.append((b"connection", b"close"))
                message = {**message, "headers": headers}
            elif head and message["type"] == "http.response.body":
                message = {**message, "body": b""}
            await send(message)

        await self.app(scope, receive, fixed)


def with_head(allow: bytes) -> bytes:
    """An Allow value with HEAD wherever GET is (this middleware answers HEAD for every GET)."""
    methods = [m.strip() for m in allow.decode("latin-1").split(",") if m.strip()]
    if "GET" in methods and "HEAD" not in methods:
        methods.append("HEAD")
    return ", ".join(sorted(methods)).encode("latin-1")


# -- who sees the saved decks ----------------------------------------------------------------------------
def is_keeper(client_host: str | None, authorization: str | None, admin_token: str | None) -> bool:
    """Whether a request comes from the server's keeper, the one person who sees the saved decks' ids (each is
    the secret link of a deck someone saved): on a club server (one with an admin token) whoever sends
    `Authorization: Bearer ADMIN_TOKEN`; on a personal server (no admin token) the user at this machine
    (a loopback address; behind a reverse proxy on this machine, every request is)."""
    import hmac
    if admin_token:
        scheme, _, sent = (authorization or "").partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(sent.strip().encode("utf-8", "surrogatepass"),
                                                                  admin_token.encode())
    return client_host is not None and (client_host == "localhost" or is_loopback_address(client_host))


# -- shared ----------------------------------------------------------------------------------------------
def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            text: str = value.decode("latin-1").strip()
            return text
    return None


async def plain_error(scope: Scope, send: Send, status: int, message: str,
                      headers: dict[str, str] | None = None) -> None:
    """An error the guards answer themselves (JSON for the API, else a short page): see security.plain_error."""
    from .security import _plain_error
    await _plain_error(scope, send, status, message, headers)
