"""What routes need, as FastAPI dependencies: the server's settings, its card catalogue and collections, the desk,
and the page renderer. A route declares what it uses (`settings: SettingsDep`, `catalog: CatalogDep`,
`pages: PagesDep`...); tests swap any of them with `app.dependency_overrides`.

`server` is the one place that reaches into the app's state; everything else is built from it.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from deckcheck.library.api import Catalog
from deckcheck.db.collections import Collections
from deckcheck.db.desk import Desk, RateLimit

from .settings import Settings


@dataclass
class Deckcheck:
    """What every request of one server process shares: settings, and the library over the database.

    `library` is deckcheck.library.api.CollectionApp: the card catalogue (read once, its name indexes built
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
                    from deckcheck.library.api import CollectionApp
                    library = CollectionApp(self.settings.db_url)
                    self._cards_stamp = cards_stamp(library.catalog.store)
                    self._checked_at = now
                    self._library = library
        return self._library

    @property
    def catalog(self) -> Catalog:
        """The card catalogue (deckcheck.library.api.Catalog)."""
        return self.library.catalog

    @property
    def collections(self) -> Collections:
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
    from deckcheck.db.store import read_meta
    with store.engine.connect() as con:
        return read_meta(con, [_STAMP_KEY]).get(_STAMP_KEY)


def mark_cards_changed(store) -> None:
    """Record that cards changed now (an upsert of one meta row; SQLite and PostgreSQL alike)."""
    import datetime as dt

    from deckcheck.db.store import write_meta
    stamp = dt.datetime.now(dt.timezone.utc).isoformat(timespec="microseconds")
    with store.begin() as con:  # a writer's turn, as every other (deckcheck.db.store.Store.begin)
        write_meta(con, {_STAMP_KEY: stamp})


# -- dependencies ----------------------------------------------------------------------------------
def server(request: Request) -> Deckcheck:
    """The state every request of this server shares (settings, library): the one lookup in the app's state."""
    return request.app.state.deckcheck


ServerDep = Annotated[Deckcheck, Depends(server)]


def settings(srv: ServerDep) -> Settings:
    """The server's settings (flags and environment, deckcheck.web.settings)."""
    return srv.settings


SettingsDep = Annotated[Settings, Depends(settings)]


def catalog(srv: ServerDep) -> Catalog:
    """The card catalogue of the server's database (read once, read again when cards change)."""
    return srv.catalog


CatalogDep = Annotated[Catalog, Depends(catalog)]


def collections(srv: ServerDep) -> Collections:
    """The collections and saved decks of the server's database."""
    return srv.collections


CollectionsDep = Annotated[Collections, Depends(collections)]


def rate_limit(config: SettingsDep) -> RateLimit:
    """The desk's submission rate limit (--desk-rate, $DECKCHECK_DESK_RATE)."""
    return config.rate_limit


RateLimitDep = Annotated[RateLimit, Depends(rate_limit)]


def desk(srv: ServerDep, limit: RateLimitDep) -> Desk:
    """The tournament desk on the server's database and catalogue (a light object: made per request)."""
    return Desk(catalog=srv.catalog, rate_limit=limit)


DeskDep = Annotated[Desk, Depends(desk)]


def keeper(request: Request, config: SettingsDep) -> bool:
    """Whether the request is the server's keeper's, who alone sees saved-deck ids (deckcheck.web.guard.is_keeper)."""
    from .guard import is_keeper
    return is_keeper(request.client.host if request.client else None, request.headers.get("authorization"),
                     config.admin_token)


KeeperDep = Annotated[bool, Depends(keeper)]


def templates(request: Request) -> Jinja2Templates:
    """The app's templates (its own folder and every router's TEMPLATES)."""
    return request.app.state.templates


class Pages:
    """Renders the pages of one request: `pages("check.html", {...}, status_code)`."""

    def __init__(self, request: Request, env: Jinja2Templates):
        self.request = request
        self.templates = env

    def __call__(self, template: str, context: dict, status_code: int = 200) -> HTMLResponse:
        """A page (or, for an htmx request, the same template's fragment) with the request's CSRF token."""
        request = self.request
        context = {"request": request, "csrf_token": request.state.csrf_token,
                   "is_htmx": request.headers.get("HX-Request") == "true", **context}
        return self.templates.TemplateResponse(request, template, context, status_code=status_code)


def pages(request: Request, env: Annotated[Jinja2Templates, Depends(templates)]) -> Pages:
    """The page renderer of a request."""
    return Pages(request, env)


PagesDep = Annotated[Pages, Depends(pages)]
