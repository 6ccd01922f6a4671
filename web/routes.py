"""What the router answers from its whole table of routes: a 405 that lists every method of the path, and no-store
on the routes that show private data.

Starlette answers a method a path does not take from the first route whose path matches, so `PUT /cards/proposals`
said `Allow: GET` (the page) without the sign-in's POST, and a route with a catch-all parameter took a path another
route names exactly (`HEAD /cards/proposals/decide` became the card page of a card `proposals/decide`: 404). Here a
path named exactly by routes belongs to them, and a method none of the path's routes takes is a 405 listing all
their methods.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from starlette.exceptions import HTTPException
from starlette._utils import get_route_path
from starlette.routing import BaseRoute, Route, Router
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# Routes that show one person's data (a secret link's deck, a collection, the review of players' answers, a name
# remembered in a cookie): never kept by a browser's or a proxy's cache. The desk's pages say so themselves.
PRIVATE_ROUTES = frozenset({
    "/", "/cards/proposals", "/cards/proposals/decide", "/api/proposals", "/api/proposals/{pid}/{action}",
    "/cards/{card_id:path}/facts", "/check/facts", "/decks", "/decks/{deck_id}", "/decks/{deck_id}/facts",
    "/api/decks/{deck_id}", "/api/decks/{deck_id}/stats", "/collection", "/api/collection",
    "/api/collection/missing", "/collection/export.{kind}", "/collection/wants.csv", "/collection/import",
    "/collection/import/confirm", "/collection/undo", "/accounts", "/api/me", "/api/tokens", "/signin", "/decks/new",
    "/decks/{deck_id}/edit", "/api/decks", "/api/decks/{deck_id}/versions", "/decks/{deck_id}/decklist.txt",
    "/decks/{deck_id}/deck.csv", "/decks/{deck_id}/sheet", "/api/decks/{deck_id}/hand", "/decks/{deck_id}/rename",
    "/decks/{deck_id}/restore", "/cards/import", "/cards/import/confirm", "/cards/import/undo"})
NO_STORE = (b"cache-control", b"no-store")


def flat(routes: list[BaseRoute]) -> list[BaseRoute]:
    """The routes in the order the router tries them, those of included routers in their place (FastAPI keeps an
    included router as one entry; ours are included without a prefix, so their routes match as they are)."""
    out: list[BaseRoute] = []
    for route in routes:
        included = getattr(route, "original_router", None)
        out += flat(list(included.routes)) if included is not None else [route]
    return out


@dataclass(frozen=True)
class Entry:
    """What WholeTable needs of a route, read once (FastAPI's route attributes are properties)."""

    path: str
    regex: re.Pattern[str]
    methods: frozenset[str]
    exact: bool  # the path has no parameter


def entries(routes: list[BaseRoute]) -> dict[str, list[Entry]]:
    """The routes with methods by the first segment of their path ("" for one that starts with a parameter: those
    are tried for every path), in the router's order."""
    out: dict[str, list[Entry]] = {}
    for r in routes:
        if isinstance(r, Route) and r.methods:
            first = r.path.split("/")[1]
            out.setdefault("" if "{" in first else first, []).append(
                Entry(r.path, r.path_regex, frozenset(r.methods), not r.param_convertors))
    return out


def matching(table: dict[str, list[Entry]], path: str) -> list[Entry]:
    """The routes whose path matches, whatever their method, in the router's order (by their regex alone:
    Route.matches converts every parameter)."""
    first = path.split("/", 2)[1] if path.startswith("/") else ""
    candidates = table.get(first, []) + table.get("", []) if first else table.get("", [])
    return [e for e in candidates if e.regex.match(path)]


def owners(found: list[Entry]) -> list[Entry]:
    """The routes a path belongs to, of those matching it: the ones naming it exactly when there are any, else all."""
    exact = [e for e in found if e.exact]
    return exact or found


def allowed(found: list[Entry]) -> list[str]:
    """Every method of these routes, HEAD wherever GET is (HEAD is answered as GET), sorted."""
    methods = {m for e in found for m in e.methods}
    return sorted(methods | ({"HEAD"} if "GET" in methods else set()))


class WholeTable:
    """The app's router, with a 405's Allow from every route of the path and no-store on PRIVATE_ROUTES."""

    def __init__(self, router: Router, app: ASGIApp):
        self.router = router
        self.app = app
        self._table: tuple[int, dict[str, list[Entry]]] = (-1, {})

    def table(self) -> dict[str, list[Entry]]:
        """The router's routes flattened and indexed, again only when a route was added."""
        if self._table[0] != len(self.router.routes):
            self._table = (len(self.router.routes), entries(flat(self.router.routes)))
        return self._table[1]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        found = matching(self.table(), get_route_path(scope))
        methods = allowed(owners(found))
        if found and scope["method"] not in methods:
            raise HTTPException(status_code=405, headers={"Allow": ", ".join(methods)})
        route = next((e for e in found if scope["method"] in e.methods), None)  # the router's choice
        if route is None or route.path not in PRIVATE_ROUTES:
            await self.app(scope, receive, send)
            return

        async def private(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() != NO_STORE[0]]
                message = {**message, "headers": [*headers, NO_STORE]}
            await send(message)

        await self.app(scope, receive, private)


def use_whole_table(router: Router) -> None:
    """Put WholeTable in front of the router's own matching (after every route was added)."""
    router.middleware_stack = WholeTable(router, router.middleware_stack)
