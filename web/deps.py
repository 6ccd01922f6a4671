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
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from deckcheck.library.accounts import Account, Accounts
from deckcheck.library.api import Catalog, CollectionApp
from deckcheck.library.decks import DeckBook
from deckcheck.db.collections import Collections
from deckcheck.library.desk import Desk
from deckcheck.library.people import ANONYMOUS, KEEPER, Person
from deckcheck.db.store import Store
from deckcheck.rates import Rate

from .cardsheets import kept_sheet
from .guard import is_keeper
from .hosts import loopback_bind
from .security import session_cookie_name
from .policy import Mode, may, refusal, rule_of
from .settings import Settings



ACCOUNTS_LOOK_S = 1.0


@dataclass
class Deckcheck:
    """What every request of one server process shares: settings, and the library over the database.

    `library` is deckcheck.library.api.CollectionApp: the card catalogue (read once, its name indexes built
    once) and the collections and saved decks.
    """

    settings: Settings
    _library: CollectionApp | None = None
    _cards_stamp: str | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _accounts_seen: tuple[float, bool] = (-1e9, False)  # (when, whether accounts existed): asked at most per second

    @property
    def library(self) -> CollectionApp:
        """The CollectionApp of the server's database, made on first use, made again when its cards changed
        (see fresh)."""
        if self._library is None:
            with self._lock:
                if self._library is None:
                    library = CollectionApp(self.settings.db_url)
                    self._cards_stamp = cards_stamp(library.catalog.store)  # read before the cards are
                    self._library = library
        return self._library

    def fresh(self) -> Deckcheck:
        """This server, its library dropped when any process wrote cards since it was read: once per request (the
        `server` dependency), so that the next check sees a CLI import, another worker's edit or another server's."""
        library = self._library
        if library is not None and cards_stamp(library.catalog.store) != self._cards_stamp:
            with self._lock:
                if self._library is library:
                    self._library = None
        return self

    @property
    def catalog(self) -> Catalog:
        """The card catalogue (deckcheck.library.api.Catalog)."""
        return self.library.catalog

    @property
    def collections(self) -> Collections:
        """The collections and saved decks (deckcheck.db.collections.Collections)."""
        return self.library.collections

    def catalog_collections(self) -> Collections:
        """The collections and saved decks (the name the statistics panel calls)."""
        return self.collections

    @property
    def accounts(self) -> Accounts:
        """The accounts of the server's database (deckcheck.library.accounts)."""
        return Accounts(self.catalog.store)

    def has_accounts(self) -> bool:
        """Whether the database holds accounts, read again when the last look is over ACCOUNTS_LOOK_S old (the
        first account made by `deckcheck users add` turns a running server into a club's within that time)."""
        now = time.monotonic()
        when, found = self._accounts_seen
        if now - when > ACCOUNTS_LOOK_S:
            found = self.accounts.exist()
            self._accounts_seen = (now, found)
        return found

    def mode(self) -> Mode:
        """What kind of server this is (deckcheck.web.policy.Mode): a club's when an admin token is set or accounts
        exist, else a personal one when bound to a loopback address, else an open one (other machines only look
        and check)."""
        if self.settings.admin_token or self.has_accounts():
            return Mode.CLUB
        return Mode.PERSONAL if loopback_bind(self.settings.host) else Mode.OPEN

    def cards_changed(self) -> None:
        """After this process changed cards (their write stamped the database for everyone): read them again."""
        with self._lock:
            self._library = None


def cards_stamp(store: Store) -> str | None:
    """The token of the last write of the database's cards, by any process (deckcheck.db.store.CARDS_VERSION_KEY)."""
    from deckcheck.db.store import cards_version
    with store.engine.connect() as con:
        return cards_version(con)


# -- dependencies ----------------------------------------------------------------------------------
def server(request: Request) -> Deckcheck:
    """The state every request of this server shares (settings, library): the one lookup in the app's state."""
    srv: Deckcheck = request.app.state.deckcheck
    return srv.fresh()


ServerDep = Annotated[Deckcheck, Depends(server)]


def settings(srv: ServerDep) -> Settings:
    """The server's settings (flags and environment, deckcheck.web.settings)."""
    return srv.settings


SettingsDep = Annotated[Settings, Depends(settings)]


def catalog(srv: ServerDep) -> Catalog:
    """The card catalogue of the server's database (read once, read again when cards change)."""
    return srv.catalog


CatalogDep = Annotated[Catalog, Depends(catalog)]


def owner(srv: Deckcheck, who: Person) -> Person:
    """Whose collections a request reaches (CONTRACTS §9): a signed-in account its own, the keeper the keeper's; an
    anonymous visitor none, but on a personal server (whoever reaches it sits at the machine) the keeper's."""
    return KEEPER if not who.known and srv.mode() is Mode.PERSONAL else who


def library(srv: ServerDep, who: PersonDep) -> CollectionApp:
    """The library with the collections of the person asking (deckcheck.library.api.CollectionApp.for_person)."""
    return srv.library.for_person(owner(srv, who))


LibraryDep = Annotated[CollectionApp, Depends(library)]


def collections(mine: LibraryDep) -> Collections:
    """The collections of the person asking, and the saved decks, of the server's database: another account's
    collections are not among them (a name of theirs is a name of none)."""
    return mine.collections


CollectionsDep = Annotated[Collections, Depends(collections)]


def rate_limit(config: SettingsDep) -> Rate:
    """The desk's submission rate limit (--desk-rate, $DECKCHECK_DESK_RATE)."""
    return config.rate_limit


RateLimitDep = Annotated[Rate, Depends(rate_limit)]


def desk(srv: ServerDep, limit: RateLimitDep) -> Desk:
    """The tournament desk on the server's database and catalogue (a light object: made per request)."""
    return Desk(catalog=srv.catalog, rate_limit=limit)


DeskDep = Annotated[Desk, Depends(desk)]


async def person(request: Request, srv: ServerDep) -> Person:
    """Who the request is (CONTRACTS §9): the admin token's bearer is the keeper; a personal API token's bearer or
    a signed-in browser is its account; on a server with neither accounts nor admin token the user at this
    machine is the keeper (deckcheck.web.guard.is_keeper); anyone else an anonymous visitor."""
    config = srv.settings
    client = request.client.host if request.client else None
    authorization = request.headers.get("authorization")
    if config.admin_token and is_keeper(client, authorization, config.admin_token):
        return KEEPER
    scheme, _, sent = (authorization or "").partition(" ")
    session = request.cookies.get(session_cookie_name(request.scope))
    if (scheme.lower() == "bearer" and sent.strip()) or session:  # a database look: off the event loop
        account = await run_in_threadpool(signed_in, srv, sent.strip() if scheme.lower() == "bearer" else "",
                                          session or "")
        if account is not None:
            return account.person()
    if srv.mode() is not Mode.CLUB and is_keeper(client, None, None):
        return KEEPER
    return ANONYMOUS


def signed_in(srv: Deckcheck, token: str, session: str) -> Account | None:
    """The account of a personal token, else of a session; None for neither."""
    account = srv.accounts.by_token(token) if token else None
    return account if account is not None or not session else srv.accounts.by_session(session)


PersonDep = Annotated[Person, Depends(person)]


async def allow(request: Request, srv: ServerDep, who: PersonDep) -> None:
    """Refuse (403) a request whose route this person may not call on this server (deckcheck.web.policy decides);
    a dependency of every route."""
    route = request.scope.get("route")
    rule = rule_of(request.method, getattr(route, "path", request.url.path))
    mode = srv.mode()
    request.state.person, request.state.mode = who, mode  # the page header says who is signed in
    if not may(who, rule, mode):
        raise HTTPException(403, refusal(who, rule, mode))


async def keeper(who: PersonDep) -> bool:
    """Whether the request is the server's keeper's, who alone sees saved-deck ids."""
    return who.is_keeper


KeeperDep = Annotated[bool, Depends(keeper)]


def person_of(request: Request, srv: Deckcheck) -> Person:
    """Who a request is, where a helper has the request but no dependency: what `allow` (a dependency of every
    route) found, the same answer as `person`."""
    found = getattr(request.state, "person", None)
    return found if isinstance(found, Person) else ANONYMOUS


def book(request: Request, srv: ServerDep, mine: CollectionsDep) -> DeckBook:
    """The kept decks (deckcheck.library.decks.DeckBook) over the server's shared catalogue, with the card sheet this
    browser brought for its session laid over it (web.cardsheets: its cards saved, changed and searched as the
    check page checks them, nothing of it written to the database), and the collections of the person asking (what a
    deck's builder counts as owned): a light object."""
    sheet = kept_sheet(request)
    return DeckBook(srv.catalog if sheet is None else sheet.over(srv.catalog), mine)


BookDep = Annotated[DeckBook, Depends(book)]


def templates(request: Request) -> Jinja2Templates:
    """The app's templates (its own folder and every router's TEMPLATES)."""
    env: Jinja2Templates = request.app.state.templates
    return env


class Pages:
    """Renders the pages of one request: `pages("check.html", {...}, status_code)`."""

    def __init__(self, request: Request, env: Jinja2Templates):
        self.request = request
        self.templates = env

    def __call__(self, template: str, context: dict[str, Any], status_code: int = 200) -> HTMLResponse:
        """A page (or, for an htmx request, the same template's fragment) with the request's CSRF token."""
        request = self.request
        who = getattr(request.state, "person", None)
        context = {"request": request, "csrf_token": request.state.csrf_token,
                   "me": who if who is not None and who.account_id is not None else None,
                   "offer_signin": getattr(request.state, "mode", Mode.PERSONAL) is not Mode.PERSONAL,
                   "is_htmx": request.headers.get("HX-Request") == "true", **context}
        return self.templates.TemplateResponse(request, template, context, status_code=status_code)


def pages(request: Request, env: Annotated[Jinja2Templates, Depends(templates)]) -> Pages:
    """The page renderer of a request."""
    return Pages(request, env)


PagesDep = Annotated[Pages, Depends(pages)]
