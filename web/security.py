"""Protections for input from strangers: a request-body limit enforced while reading, and CSRF tokens.

Both are plain ASGI middleware, so they hold for every route, the tournament desk's included.
"""
from __future__ import annotations

import hmac
import json
import secrets
from http.cookies import SimpleCookie

from starlette.datastructures import FormData
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..text import is_digits

CSRF_COOKIE = "deckcheck_csrf"
CSRF_COOKIE_HTTPS = "__Host-deckcheck_csrf"  # over HTTPS: Secure, Path=/, no Domain, so no other host can set it
CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"


class BodyTooLarge(HTTPException):
    """A request body over the server's limit (HTTP 413)."""

    def __init__(self, limit: int):
        size = f"{limit / 2**20:g} MB" if limit >= 2**20 else f"{limit / 2**10:g} KB"
        super().__init__(413, f"the request body is over the limit of {size} ({limit:,} bytes)")


class BodyLimit:
    """Refuse request bodies over `limit` bytes with 413, before reading them whole.

    A Content-Length over the limit is refused before a byte of the body is read; a body without
    one (chunked) is counted as it arrives and refused at the first chunk past the limit.
    """

    def __init__(self, app: ASGIApp, limit: int):
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = _header(scope, b"content-length")
        if length is not None and (not is_digits(length) or int(length) > self.limit):
            status = 413 if is_digits(length) else 400
            await _plain_error(scope, send, status, str(BodyTooLarge(self.limit).detail) if status == 413
                               else "bad Content-Length")
            return
        received = 0
        started = False

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    raise BodyTooLarge(self.limit)
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except BodyTooLarge as exc:
            if started:
                raise
            await _plain_error(scope, send, 413, str(exc.detail))


class CsrfCookie:
    """Give every visitor a random CSRF token in a cookie (SameSite=Strict); pages put it in their forms.

    The token is in `request.state.csrf_token`. A state-changing form must send it back
    (`check_csrf`): another site can make a browser post a form, but cannot read the cookie.
    """

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        cookie = SimpleCookie()
        try:
            cookie.load(_header(scope, b"cookie") or "")
        except Exception:  # a malformed Cookie header is treated as none
            cookie = SimpleCookie()
        name = csrf_cookie_name(scope)
        morsel = cookie.get(name)
        token = morsel.value if morsel is not None and _is_token(morsel.value) else None
        fresh = token is None
        if fresh:
            token = secrets.token_urlsafe(32)
        scope.setdefault("state", {})["csrf_token"] = token

        async def with_cookie(message: Message) -> None:
            if fresh and message["type"] == "http.response.start":
                secure = "; Secure" if name == CSRF_COOKIE_HTTPS else ""
                value = f"{name}={token}; Path=/; SameSite=Strict; HttpOnly{secure}"
                message.setdefault("headers", []).append((b"set-cookie", value.encode("latin-1")))
            await send(message)

        await self.app(scope, receive, with_cookie)


def check_csrf(request: Request, form: FormData | None = None) -> None:
    """Raise 403 unless the form field (or X-CSRF-Token header) equals the visitor's CSRF cookie."""
    cookie = request.cookies.get(csrf_cookie_name(request.scope), "")
    sent = (form.get(CSRF_FIELD) if form is not None else None) or request.headers.get(CSRF_HEADER, "")
    # surrogatepass: a JSON body may carry a lone surrogate ("\ud800"), which plain UTF-8 cannot encode
    if not cookie or not isinstance(sent, str) or not hmac.compare_digest(cookie.encode(),
                                                                           sent.encode("utf-8", "surrogatepass")):
        raise HTTPException(403, "the form's security token is missing or out of date; reload the page and "
                                 "try again")


def csrf_cookie_name(scope: Scope) -> str:
    """The CSRF cookie's name: with the __Host- prefix when the request came over HTTPS (the browser then
    refuses the cookie unless this very host set it, Secure, for the whole site)."""
    return CSRF_COOKIE_HTTPS if scope.get("scheme") == "https" else CSRF_COOKIE


SESSION_COOKIE = "deckcheck_session"
SESSION_COOKIE_HTTPS = "__Host-deckcheck_session"


def session_cookie_name(scope: Scope) -> str:
    """The sign-in cookie's name: over HTTPS with the __Host- prefix (Secure, this host only), as the CSRF cookie."""
    return SESSION_COOKIE_HTTPS if scope.get("scheme") == "https" else SESSION_COOKIE


def _is_token(value: str) -> bool:
    return 20 <= len(value) <= 100 and all(c.isalnum() or c in "-_" for c in value)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            text: str = value.decode("latin-1").strip()
            return text
    return None


TITLES = {400: "That request could not be used", 403: "Not allowed", 404: "Not found", 409: "Conflict",
          413: "Too large", 500: "Something went wrong"}
# The parts of pages that live updates (htmx) replace, and where an error answer to such an update is shown
# instead: an error in place of the whole checker would take the decklist away, so it goes in its report.
HTMX_TARGETS = {"checker": "reports", "reports": "reports", "results": "results", "entries": "entries"}


def htmx_error(hx_request: str | None, hx_target: str | None, status: int, message: str
               ) -> tuple[bytes, dict[str, str]] | None:
    """For a live update of a known part of a page: the error as that part (same id), with the headers that
    tell htmx where it goes (web/static/errors.js lets htmx show an answer so marked). None otherwise."""
    from html import escape
    target = HTMX_TARGETS.get(hx_target or "") if hx_request == "true" else None
    if target is None:
        return None
    body = (f'<div id="{target}" role="alert"><section class="panel failure"><h2>{TITLES.get(status, "Error")}</h2>'
            f'<p class="message">{escape(message)}</p></section></div>').encode()
    return body, {"HX-Retarget": f"#{target}", "HX-Reswap": "outerHTML"}


async def _plain_error(scope: Scope, send: Send, status: int, message: str,
                      headers: dict[str, str] | None = None) -> None:
    """An error answered by the middleware itself: JSON for the API, the part of a page a live update asked
    for, or a short HTML page; with the security headers (and `headers`), and the connection closed after it."""
    path = scope.get("path", "")
    extra: dict[str, str] = {**HEADERS, **(headers or {})}
    fragment = htmx_error(_header(scope, b"hx-request"), _header(scope, b"hx-target"), status, message)
    if path.startswith("/api/"):
        body, kind = json.dumps({"error": message}).encode(), b"application/json"
    elif fragment is not None:
        body, kind = fragment[0], b"text/html; charset=utf-8"
        extra.update(fragment[1])
    else:
        from html import escape
        body = (f'<!doctype html><html lang="en"><meta charset="utf-8">'
                f'<meta name="viewport" content="width=device-width, initial-scale=1">'
                f'<title>{status} · deckcheck</title><link rel="stylesheet" href="/static/style.css">'
                f'<main><section class="panel"><h1>{TITLES.get(status, "Error")}</h1>'
                f'<p class="message">{escape(message)}.</p><p><a class="button" href="/">Back to the deck check</a>'
                f"</p></section></main></html>").encode()
        kind = b"text/html; charset=utf-8"
    raw = [(b"content-type", kind), (b"content-length", str(len(body)).encode()), (b"connection", b"close")]
    raw += [(k.lower().encode(), v.encode()) for k, v in extra.items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
HEADERS = {"Content-Security-Policy": CSP, "X-Content-Type-Options": "nosniff", "Referrer-Policy": "same-origin"}


class SecurityHeaders:
    """A Content-Security-Policy that runs only our own scripts and styles (no inline code), and no framing.

    Escaping keeps user text out of the markup; this is the second wall behind it.
    """

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _v in headers}
                headers += [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()
                            if k.lower().encode() not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)
