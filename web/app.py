"""The app factory: settings, the shared card catalogue, templates, navigation and the routers.

Other parts of the web app (the tournament desk, the statistics panel) are routers of their own:
add the module to ROUTERS (it must define `router`, and may define `NAV`, a list of
(label, path) pairs for the navigation bar, and `TEMPLATES`, a folder of its templates).
Templates extend "base.html" and fill its blocks `title`, `content` and `scripts`.
"""
from __future__ import annotations

import importlib
import json
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from jinja2 import ChoiceLoader, FileSystemLoader
from starlette.exceptions import HTTPException

from deckcheck import limits
from deckcheck.errors import DeckcheckError
from deckcheck.library.decks import ChangeRefused
from deckcheck.version import __version__
from deckcheck.report import is_data_unknown

from .decks import page_text
from .deps import Deckcheck, Pages, allow, server
from .errors import status_of
from .models import ApiRoute, Health
from .previews import use as use_previews
from .guard import GuardSettings, HostGuard, ProtocolFixes, QuietDisconnect, RateLimits
from .routes import use_whole_table
from .security import TITLES, BodyLimit, CsrfCookie, SecurityHeaders, htmx_error
from .settings import Settings
from .svg import grid_svg, heat, legend_square

HERE = Path(__file__).resolve().parent
ADMIN_TOKEN_ENV = Settings.env_names()["admin_token"]

# Routers in navigation order. A module here defines `router` and optionally `NAV` and `TEMPLATES`.
# deckcheck.web.facts comes before deckcheck.web.cards: its /cards/{id}/facts and /cards/proposals would be read
# as card ids by the card page's /cards/{id:path}.
# deckcheck.web.builder comes before deckcheck.web.check: its /decks/new would be read as a deck's id by /decks/{id}.
ROUTERS = ["deckcheck.web.builder", "deckcheck.web.deckpage", "deckcheck.web.check", "deckcheck.web.keptdecks",
           "deckcheck.web.stats", "deckcheck.web.facts", "deckcheck.web.cardimport", "deckcheck.web.cards",
           "deckcheck.web.collection", "deckcheck.web.formats", "deckcheck.web.desk", "deckcheck.web.deskcheck",
           "deckcheck.web.rounds", "deckcheck.web.disputes", "deckcheck.web.judges", "deckcheck.web.apidocs",
           "deckcheck.web.accounts"]


def state(request: Request) -> Deckcheck:
    """The Deckcheck state of the app serving a request (routes declare `srv: ServerDep` instead)."""
    return server(request)


def create_app(settings: Settings | None = None, *, db_url: str | None = None, admin_token: str | None = None,
               upload_limit: int | None = None, allowed_hosts: Iterable[str] | None = None) -> FastAPI:
    """A web app over one database, with these settings (deckcheck.web.settings; default: from the environment,
    the keyword arguments overriding). Without an admin token cards are read-only. It answers only requests
    whose Host is one of `allowed_hosts` (default: localhost, 127.0.0.1, ::1; deckcheck.web.guard)."""
    if settings is None:
        settings = Settings.from_env(db_url=db_url, admin_token=admin_token, upload_limit=upload_limit,
                                     allowed_hosts=None if allowed_hosts is None else ",".join(allowed_hosts))
    app = FastAPI(title="deckcheck", summary="Deck checking and collections for Highlander: The Card Game",
                  version=_version(), docs_url=None, redoc_url=None)  # their pages load scripts from a CDN
    app.router.route_class = ApiRoute  # /healthz's answer checked against its model too
    app.state.deckcheck = Deckcheck(settings)
    use_previews(settings.preview_dir)  # collection sheets waiting for confirmation: a private folder
    guard = GuardSettings.of(settings)
    # the last added runs first: security headers on every answer, the middleware's own refusals included
    app.add_middleware(CsrfCookie)
    app.add_middleware(RateLimits, settings=guard)
    app.add_middleware(BodyLimit, limit=settings.upload_limit)
    app.add_middleware(HostGuard, allowed_hosts=guard.allowed_hosts)
    app.add_middleware(ProtocolFixes)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(QuietDisconnect)  # outermost: a body that never came is no error of any layer
    app.mount("/static", StaticFiles(directory=HERE / "static"), name="static")

    folders = [HERE / "templates"]
    nav: list[tuple[str, str]] = []
    for name in ROUTERS:
        module = importlib.import_module(name)
        app.include_router(module.router, dependencies=[Depends(allow)])
        nav += getattr(module, "NAV", [])
        if getattr(module, "TEMPLATES", None):
            folders.append(Path(module.TEMPLATES))
    templates = Jinja2Templates(directory=folders[0])
    templates.env.loader = ChoiceLoader([FileSystemLoader(str(f)) for f in folders])
    templates.env.globals["nav"] = nav
    templates.env.globals["version"] = _version()
    templates.env.globals["grid_svg"] = grid_svg
    templates.env.globals["legend_square"] = legend_square
    templates.env.filters["tojson_pretty"] = lambda value: json.dumps(value, ensure_ascii=False, indent=2)
    templates.env.filters["page_text"] = page_text
    templates.env.globals["heat"] = heat
    templates.env.globals["is_data_unknown"] = is_data_unknown
    templates.env.globals["errors_shown"] = limits.ERRORS_SHOWN.value
    templates.env.globals["error_titles"] = TITLES
    templates.env.globals["all_named"] = lambda message, cards: all(c in message for c in cards)
    from deckcheck.unverified import decided_issues, names_of, unverified
    templates.env.globals["unverified_groups"] = unverified
    templates.env.globals["decided_issues"] = decided_issues
    templates.env.globals["unverified_names"] = names_of
    app.state.templates = templates

    @app.get("/healthz", tags=["api"], summary="Liveness", response_model=Health)
    def healthz() -> dict[str, str]:
        """Liveness: {"status": "ok"}."""
        return {"status": "ok"}

    _error_handlers(app)
    _openapi_as_answered(app)
    use_whole_table(app.router)
    return app


def _openapi_as_answered(app: FastAPI) -> None:
    """/openapi.json as the app answers: a parameter FastAPI cannot read is a 400 {"error"} here (the handler
    below), not FastAPI's 422 with its own error list."""
    made = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            doc = made()
            bad_request = {"description": "Bad request",
                           "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}}
            for ops in doc.get("paths", {}).values():
                for op in ops.values():
                    if op.get("responses", {}).pop("422", None) is not None:
                        op["responses"].setdefault("400", bad_request)
            schemas = doc.get("components", {}).get("schemas", {})
            for name in ("HTTPValidationError", "ValidationError"):
                schemas.pop(name, None)
            app.openapi_schema = doc
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def render(request: Request, template: str, context: dict[str, Any], status_code: int = 200) -> HTMLResponse:
    """A page (or, for an htmx request, the same template's fragment) rendered with the request's CSRF token.
    Routes take `pages: PagesDep` (deckcheck.web.deps) instead; the error handlers, which get no dependencies,
    call this."""
    return Pages(request, request.app.state.templates)(template, context, status_code)


async def request_json(request: Request) -> Any:
    """The request's body read as JSON; ValueError when it is not JSON, or is nested deeper than Python's parser
    goes ("[[[[..." thousands deep, which raises RecursionError: a bug's 500 where a 400 is due)."""
    import json
    import sys
    try:
        return await request.json()
    except RecursionError:
        raise ValueError("it is nested too deep") from None
    except json.JSONDecodeError as exc:  # where it breaks, as an editor counts: line and column from 1
        raise ValueError(f"{exc.msg} at line {exc.lineno}, column {exc.colno}") from None
    except UnicodeDecodeError as exc:
        raise ValueError(f"it is not UTF-8 text (byte {exc.start + 1} of the body)") from None
    except ValueError as exc:  # Python's bound on the digits of a number (4,300): its own words name a setting
        if "digits" in str(exc):
            raise ValueError(f"a number in it has more than {sys.get_int_max_str_digits():,} digits") from None
        raise


def looks_like_json(body: bytes) -> bool:
    """Whether a body sent without a JSON content type is JSON all the same (`curl -d '{...}'` sends it as a form):
    its first character that is no space opens an object or an array (a form's fields never start so)."""
    return body.lstrip(b" \t\r\n\xef\xbb\xbf")[:1] in (b"{", b"[")


def wants_json(request: Request) -> bool:
    """Whether a request is for the JSON API rather than a page."""
    return request.url.path.startswith("/api/") or request.url.path == "/healthz"


NO_STORE = {"Cache-Control": "no-store"}  # an error answers this request only: never kept by a cache


def error_response(request: Request, status: int, message: str, suggestions: list[str] | None = None) -> Response:
    """{"error": message} for the API (and `suggestions`, for a card that did not resolve); for a live update, the
    part of the page it asked for holding the message; otherwise a small page with the message for people."""
    if wants_json(request):
        body: dict[str, Any] = {"error": message} if suggestions is None else {"error": message,
                                                                               "suggestions": suggestions}
        return JSONResponse(body, status_code=status, headers=NO_STORE)
    fragment = htmx_error(request.headers.get("HX-Request"), request.headers.get("HX-Target"), status, message)
    if fragment is not None:
        return HTMLResponse(fragment[0], status_code=status, headers={**NO_STORE, **fragment[1]})
    context: dict[str, Any] = {"status": status, "message": message}
    organiser = re.match(r"/desk/([A-Za-z0-9_-]{1,64})/admin(/|$)", request.url.path)
    if organiser:  # an organiser's page: the way back is the event's dashboard, not the deck check
        context["back"] = {"href": f"/desk/{organiser.group(1)}/admin", "label": "Back to the dashboard"}
    response = render(request, "error.html", context, status_code=status)
    response.headers.update(NO_STORE)
    return response


def _error_handlers(app: FastAPI) -> None:
    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Response:
        message = exc.detail if isinstance(exc.detail, str) else "bad request"
        if exc.status_code == 404 and message == "Not Found":
            message = f"nothing at {request.url.path}"
        response = error_response(request, exc.status_code, message)
        response.headers.update(exc.headers or {})  # Allow of a 405, WWW-Authenticate of a 401
        return response

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()) if p not in ("query", "body", "path"))
        return error_response(request, 400, f"{where}: {first.get('msg', 'invalid')}" if where else "bad request")

    @app.exception_handler(DeckcheckError)
    async def bad_input(request: Request, exc: DeckcheckError) -> Response:
        """Every input error a route raises, answered with its type's status (deckcheck.web.errors)."""
        said = exc.suggestions[:20] if isinstance(exc, ChangeRefused) else None  # the builder's card, not found
        response = error_response(request, status_of(exc), str(exc) or "bad input", said)
        wait = getattr(exc, "retry_after", None)  # a rate limit says when to try again
        if isinstance(wait, int):
            response.headers["Retry-After"] = str(wait)
        return response

    from sqlalchemy.exc import DBAPIError

    @app.exception_handler(DBAPIError)
    async def database_trouble(request: Request, exc: DBAPIError) -> Response:
        """The database locked past the wait (a long write on a loaded machine), full or read-only: 503, try
        again shortly. Any other database error is a bug (500, logged)."""
        from deckcheck.library.database import database_trouble
        why = database_trouble(exc)
        if why is None:
            return await broken(request, exc)
        response = error_response(request, 503, f"the database is not available just now: {why}; "
                                                 "nothing was changed")
        response.headers["Retry-After"] = "5"
        return response

    @app.exception_handler(Exception)
    async def broken(request: Request, exc: Exception) -> Response:
        """A bug: the caller still gets the API's JSON error (or a plain page); the traceback goes to the log."""
        from .security import HEADERS  # this handler runs outside the middleware that adds them
        message = "an internal error; it was logged for the server's keeper"
        closing = {**HEADERS, "Connection": "close"}  # the server's state after a bug is unknown: a new connection
        if wants_json(request):
            return JSONResponse({"error": message}, status_code=500, headers=closing)
        fragment = htmx_error(request.headers.get("HX-Request"), request.headers.get("HX-Target"), 500, message)
        if fragment is not None:  # a live update: shown in its place, as a refused one is
            return HTMLResponse(fragment[0], status_code=500, headers={**closing, **fragment[1]})
        return HTMLResponse(f"<!doctype html><title>500</title><p>{message}</p>", status_code=500, headers=closing)


def _version() -> str:
    return __version__
