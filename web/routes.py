"""What the router answers from its whole table of routes: a 405 that lists every method of the path, and no-store
on the routes that show private data.

Starlette answers a method a path does not take from the first route whose path matches, so `PUT /cards/proposals`
said `Allow: GET` (the page) without the sign-in's POST, and a route with a catch-all parameter took a path another
route names exactly (`HEAD /cards/proposals/decide` became the card page of a card `proposals/decide`: 404). Here a
path named exactly by routes belongs to them, and a method none of the path's routes takes is a 405 listing all
their methods.
"""
from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.routing import BaseRoute, Match, Router
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# Routes that show one person's data (a secret link's deck, a collection, the review of players' answers, a name
# remembered in a cookie): never kept by a browser's or a proxy's cache. The desk's pages say so themselves.
PRIVATE_ROUTES = frozenset({
    "/", "/cards/proposals", "/cards/proposals/decide", "/api/proposals", "/api/proposals/{pid}/{action}",
    "/cards/{card_id:path}/facts", "/check/facts", "/decks", "/decks/{deck_id}", "/decks/{deck_id}/facts",
    "/api/decks/{deck_id}", "/api/decks/{deck_id}/stats", "/collection", "/api/collection",
    "/api/collection/missing", "/collection/export.{kind}", "/collection/wants.csv", "/collection/import",
    "/collection/import/confirm", "/collection/undo"})
NO_STORE = (b"cache-control", b"no-store")


def flat(routes: list[BaseRoute]) -> list[BaseRoute]:
    """The routes in the order the router tries them, those of included routers in their place (FastAPI keeps an
    included router as one entry; ours are included without a prefix, so their routes match as they are)."""
    out: list[BaseRoute] = []
    for route in routes:
        included = getattr(route, "original_router", None)
        out += flat(list(included.routes)) if included is not None else [route]
    return out


def owners(routes: list[BaseRoute], scope: Scope) -> list[BaseRoute]:
    """The routes a request's path belongs to: those naming it exactly when there are any, else every route whose
    path matches (whatever its method)."""
    matching = [r for r in routes if getattr(r, "methods", None) and r.matches(scope)[0] is not Match.NONE]
    exact = [r for r in matching if not getattr(r, "param_convertors", None)]
    return exact or matching


def allowed(routes: list[BaseRoute]) -> list[str]:
    """Every method of these routes, HEAD wherever GET is (HEAD is answered as GET), sorted."""
    methods = {m for r in routes for m in (getattr(r, "methods", None) or ())}
    return sorted(methods | ({"HEAD"} if "GET" in methods else set()))


def chosen(routes: list[BaseRoute], scope: Scope) -> BaseRoute | None:
    """The route Starlette's router hands the request to: the first that matches it fully."""
    return next((r for r in routes if r.matches(scope)[0] is Match.FULL), None)


class WholeTable:
    """The app's router, with a 405's Allow from every route of the path and no-store on PRIVATE_ROUTES."""

    def __init__(self, router: Router, app: ASGIApp):
        self.router = router
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        routes = flat(self.router.routes)
        mine = owners(routes, scope)
        methods = allowed(mine)
        if mine and scope["method"] not in methods:
            raise HTTPException(status_code=405, headers={"Allow": ", ".join(methods)})
        route = chosen(routes, scope)
        if getattr(route, "path", None) not in PRIVATE_ROUTES:
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
