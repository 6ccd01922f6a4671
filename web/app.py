"""The app factory: settings, the shared card catalogue, templates, navigation and the routers.

Other parts of the web app (the tournament desk, the statistics panel) are routers of their own:
add the module to ROUTERS (it must define `router`, and may define `NAV`, a list of
(label, path) pairs for the navigation bar, and `TEMPLATES`, a folder of its templates).
Templates extend "base.html" and fill its blocks `title`, `content` and `scripts`.
"""
from __future__ import annotations

import importlib
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from jinja2 import ChoiceLoader, FileSystemLoader
from starlette.exceptions import HTTPException

from deckcheck.errors import DeckcheckError

from .security import TITLES, BodyLimit, CsrfCookie, SecurityHeaders, htmx_error
from .svg import grid_svg, heat

HERE = Path(__file__).resolve().parent
DEFAULT_UPLOAD_LIMIT = 2 * 1024 * 1024
ADMIN_TOKEN_ENV = "DECKCHECK_ADMIN_TOKEN"

# Routers in navigation order. A module here defines `router` and optionally `NAV` and `TEMPLATES`.
ROUTERS = ["deckcheck.web.check", "deckcheck.web.stats", "deckcheck.web.cards", "deckcheck.web.collection",
           "deckcheck.web.formats", "deckcheck.web.desk", "deckcheck.web.apidocs"]


@dataclass
class Settings:
    """What a server is started with: its database, the admin token (None: read-only), the body limit."""

    db_url: str | None = None
    admin_token: str | None = None
    upload_limit: int = DEFAULT_UPLOAD_LIMIT


@dataclass
class Deckcheck:
    """What every request of one server process shares: settings, and the library over the database.

    `library` is deckcheck.api.CollectionApp: the card catalogue (read once, its name indexes built
    once) and the collections and saved decks.
    """

    settings: Settings
    _library: Any = None
    _cards_stamp: str | None = None
    _checked_at: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def library(self):
        """The CollectionApp of the server's database, made on first use, made again when cards changed.

        Another worker's card edit is seen within STALE_SECONDS: the database's `cards_changed` stamp is
        read at most that often.
        """
        now = time.monotonic()
        if self._library is not None and now - self._checked_at > STALE_SECONDS:
            self._checked_at = now
            if cards_stamp(self._library.catalog.store) != self._cards_stamp:
                self._library = None
        if self._library is None:
            with self._lock:
                if self._library is None:
                    from deckcheck.api import CollectionApp
                    library = CollectionApp(self.settings.db_url)
                    self._cards_stamp = cards_stamp(library.catalog.store)
                    self._checked_at = now
                    self._library = library
        return self._library

    @property
    def catalog(self):
        """The card catalogue (deckcheck.api.Catalog)."""
        return self.library.catalog

    @property
    def collections(self):
        """The collections and saved decks (deckcheck.db.collections.Collections)."""
        return self.library.collections

    def catalog_collections(self):
        """The collections and saved decks (the name the statistics panel calls)."""
        return self.collections

    def cards_changed(self) -> None:
        """After this process changed cards: stamp the database (for the other workers) and read them again."""
        mark_cards_changed(self.library.catalog.store)
        with self._lock:
            self._library = None


STALE_SECONDS = 2.0
_STAMP_KEY = "web_cards_changed"


def cards_stamp(store) -> str | None:
    """When cards were last changed through the web app (None: never)."""
    from sqlalchemy import text
    with store.engine.connect() as con:
        row = con.execute(text("select value from deckcheck_meta where key = :k"), {"k": _STAMP_KEY}).first()
    return row[0] if row else None


def mark_cards_changed(store) -> None:
    """Record that cards changed now (an upsert of one meta row; SQLite and PostgreSQL alike)."""
    import datetime as dt

    from sqlalchemy import text
    stamp = dt.datetime.now(dt.timezone.utc).isoformat(timespec="microseconds")
    with store.engine.begin() as con:
        con.execute(text("insert into deckcheck_meta (key, value) values (:k, :v) "
                         "on conflict (key) do update set value = excluded.value"), {"k": _STAMP_KEY, "v": stamp})


def state(request: Request) -> Deckcheck:
    """The Deckcheck state of the app serving a request."""
    return request.app.state.deckcheck


def create_app(db_url: str | None = None, admin_token: str | None = None,
               upload_limit: int = DEFAULT_UPLOAD_LIMIT) -> FastAPI:
    """A web app over one database. Without an admin token (argument or $DECKCHECK_ADMIN_TOKEN) cards are read-only."""
    settings = Settings(db_url=db_url, admin_token=admin_token or os.environ.get(ADMIN_TOKEN_ENV) or None,
                        upload_limit=upload_limit)
    app = FastAPI(title="deckcheck", summary="Deck checking and collections for Highlander: The Card Game",
                  version=_version(), docs_url=None, redoc_url=None)  # their pages load scripts from a CDN
    app.state.deckcheck = Deckcheck(settings)
    app.add_middleware(CsrfCookie)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(BodyLimit, limit=upload_limit)
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    folders = [HERE / "templates"]
    nav: list[tuple[str, str]] = []
    for name in ROUTERS:
        module = importlib.import_module(name)
        app.include_router(module.router)
        nav += getattr(module, "NAV", [])
        if getattr(module, "TEMPLATES", None):
            folders.append(Path(module.TEMPLATES))
    templates = Jinja2Templates(directory=folders[0])
    templates.env.loader = ChoiceLoader([FileSystemLoader(str(f)) for f in folders])
    templates.env.globals["nav"] = nav
    templates.env.globals["version"] = _version()
    templates.env.globals["grid_svg"] = grid_svg
    templates.env.globals["heat"] = heat
    templates.env.globals["error_titles"] = TITLES
    templates.env.globals["all_named"] = lambda message, cards: all(c in message for c in cards)
    app.state.templates = templates

    @app.get("/healthz", tags=["api"])
    def healthz() -> dict:
        """Liveness: {"status": "ok"}."""
        return {"status": "ok"}

    _error_handlers(app)
    return app


def render(request: Request, template: str, context: dict, status_code: int = 200) -> HTMLResponse:
    """A page (or, for an htmx request, the same template's fragment) rendered with the request's CSRF token."""
    context = {"request": request, "csrf_token": request.state.csrf_token,
               "is_htmx": request.headers.get("HX-Request") == "true", **context}
    return request.app.state.templates.TemplateResponse(request, template, context, status_code=status_code)


async def request_json(request: Request) -> Any:
    """The request's body read as JSON; ValueError when it is not JSON, or is nested deeper than Python's parser
    goes ("[[[[..." thousands deep, which raises RecursionError: a bug's 500 where a 400 is due)."""
    try:
        return await request.json()
    except RecursionError:
        raise ValueError("it is nested too deep") from None


def wants_json(request: Request) -> bool:
    """Whether a request is for the JSON API rather than a page."""
    return request.url.path.startswith("/api/") or request.url.path == "/healthz"


def error_response(request: Request, status: int, message: str) -> Response:
    """{"error": message} for the API; for a live update, the part of the page it asked for holding the message;
    otherwise a small page with the message for people."""
    if wants_json(request):
        return JSONResponse({"error": message}, status_code=status)
    fragment = htmx_error(request.headers.get("HX-Request"), request.headers.get("HX-Target"), status, message)
    if fragment is not None:
        return HTMLResponse(fragment[0], status_code=status, headers=fragment[1])
    return render(request, "error.html", {"status": status, "message": message}, status_code=status)


def _error_handlers(app: FastAPI) -> None:
    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        message = exc.detail if isinstance(exc.detail, str) else "bad request"
        if exc.status_code == 404 and message == "Not Found":
            message = f"nothing at {request.url.path}"
        return error_response(request, exc.status_code, message)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p not in ("query", "body", "path"))
        return error_response(request, 400, f"{where}: {first.get('msg', 'invalid')}" if where else "bad request")

    @app.exception_handler(DeckcheckError)
    async def bad_input(request: Request, exc: DeckcheckError) -> Response:
        return error_response(request, 400, str(exc) or "bad input")

    @app.exception_handler(Exception)
    async def broken(request: Request, exc: Exception) -> Response:
        """A bug: the caller still gets the API's JSON error (or a plain page); the traceback goes to the log."""
        from .security import HEADERS  # this handler runs outside the middleware that adds them
        message = "an internal error; it was logged for the server's keeper"
        if wants_json(request):
            return JSONResponse({"error": message}, status_code=500, headers=HEADERS)
        fragment = htmx_error(request.headers.get("HX-Request"), request.headers.get("HX-Target"), 500, message)
        if fragment is not None:  # a live update: shown in its place, as a refused one is
            return HTMLResponse(fragment[0], status_code=500, headers={**HEADERS, **fragment[1]})
        return HTMLResponse(f"<!doctype html><title>500</title><p>{message}</p>", status_code=500, headers=HEADERS)


def _version() -> str:
    from deckcheck import __version__
    return __version__
