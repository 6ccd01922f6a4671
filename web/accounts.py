"""Signing in and out, who am I, personal API tokens, and (with `serve --signup`) making a player account
(CONTRACTS §9). Pages: `/signin` (a plain form: works without JavaScript), `/signout`, `/signup`. JSON:
`POST/DELETE /api/session`, `GET /api/me`, `POST/GET /api/tokens`, `DELETE /api/tokens/{id}`.

A session is a random id in an HttpOnly, SameSite=Lax cookie (Secure, `__Host-` named, over HTTPS); the server
keeps only its digest and makes a new one at every sign-in, so a session id planted before cannot be signed in.
Failed or not, sign-ins are counted per address and per name (deckcheck.rates), 429 with Retry-After past them.
"""
from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from deckcheck.desk import wait_words
from deckcheck.library.accounts import Account, AccountError, SignInFailed
from deckcheck.library.people import Person
from deckcheck.rates import Rate, Windows
from deckcheck.text import normalize

from . import models
from .app import request_json
from .deps import Deckcheck, PagesDep, PersonDep, ServerDep
from .errors import NotAllowed, NotFound, NotSignedIn, TooMany, WrongMedia
from .policy import Mode
from .security import check_csrf, session_cookie_name

router = APIRouter(route_class=models.ApiRoute)

SIGNIN_PER_ADDRESS = Rate(20, 300)
SIGNIN_PER_NAME = Rate(10, 300)
SIGNINS = Windows()
SESSION_AGE = 30 * 24 * 3600  # the cookie's life; the session itself ends with a new password or the account


def count_sign_in(address: str, name: object) -> None:
    """Count a sign-in attempt; TooMany (429, with its wait) past the rate of its address or of its name."""
    key = normalize(name)[:240] if isinstance(name, str) else ""
    for kind, who, rate in (("address", address, SIGNIN_PER_ADDRESS), ("name", key, SIGNIN_PER_NAME)):
        wait = SIGNINS.hit(f"signin-{kind}", who, rate)
        if wait:
            seconds, words = wait_words(wait)
            exc = TooMany(f"too many sign-ins {'from your address' if kind == 'address' else 'for that name'}; "
                          f"wait {words} and try again")
            exc.retry_after = seconds
            raise exc


def with_session(response: Response, request: Request, session: str) -> Response:
    """The response with the session cookie set: HttpOnly, SameSite=Lax, Secure over HTTPS."""
    https = request.url.scheme == "https"
    response.set_cookie(session_cookie_name(request.scope), session, max_age=SESSION_AGE, path="/", httponly=True,
                        samesite="lax", secure=https)
    return response


def without_session(response: Response, request: Request) -> Response:
    response.delete_cookie(session_cookie_name(request.scope), path="/", httponly=True, samesite="lax",
                           secure=request.url.scheme == "https")
    return response


async def sign_in(request: Request, srv: ServerDep, name: object, password: object) -> tuple[Account, str]:
    """Check a name and password (counted first): the account and its new session id; SignInFailed (401) else."""
    count_sign_in(request.client.host if request.client else "-", name)
    return await run_in_threadpool(srv.accounts.sign_in, name, password)


def end_session(request: Request, srv: ServerDep) -> None:
    session = request.cookies.get(session_cookie_name(request.scope))
    if session:
        srv.accounts.sign_out(session)


def me_json(who: Person) -> dict[str, Any]:
    return {"name": who.name, "roles": sorted(who.roles)}


def local_target(value: object) -> str:
    """Where to go after signing in: a path of this server only (never another site), else "/"."""
    text = value if isinstance(value, str) else ""
    parts = urlsplit(text)
    if not text.startswith("/") or text.startswith("//") or parts.scheme or parts.netloc or "\\" in text:
        return "/"
    return text[:500]


async def json_body(request: Request, keys: tuple[str, ...]) -> dict[str, Any]:
    """A JSON object body with only these keys; WrongMedia (415) or AccountError (400) otherwise."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise WrongMedia(f"send application/json: {{{', '.join(f'{k!r}: ...' for k in keys)}}}".replace("'", '"'))
    try:
        data = await request_json(request)
    except ValueError as exc:
        raise AccountError(f"the body is not valid JSON: {exc}") from None
    if not isinstance(data, dict) or any(k not in keys for k in data):
        raise AccountError(f"the body is an object with {', '.join(keys)}")
    return data


# -- JSON ---------------------------------------------------------------------------------------------
@router.post("/api/session", tags=["api"], summary="Sign in", response_model=models.Me,
             responses=models.errors(400, 401, 415, 429), openapi_extra=models.body(models.SignInRequest))
async def api_sign_in(request: Request, srv: ServerDep) -> Response:
    """`{"name", "password"}` → 200 {"name", "roles"} and the session cookie; 401 for a wrong name or password."""
    data = await json_body(request, ("name", "password"))
    account, session = await sign_in(request, srv, data.get("name"), data.get("password"))
    return with_session(JSONResponse(me_json(account.person())), request, session)


@router.delete("/api/session", tags=["api"], summary="Sign out", response_model=models.Me,
               responses=models.errors(401))
def api_sign_out(request: Request, srv: ServerDep, who: PersonDep) -> Response:
    """End this browser's session (its cookie is cleared)."""
    end_session(request, srv)
    return without_session(JSONResponse({"name": "", "roles": []}), request)


@router.get("/api/me", tags=["api"], summary="Who I am", response_model=models.Me, responses=models.errors(401))
def api_me(who: PersonDep) -> dict[str, Any]:
    """{"name", "roles"} of the signed-in account (or the keeper); 401 when signed out."""
    if not who.known:
        raise NotSignedIn("not signed in: POST /api/session {\"name\", \"password\"}, or send a personal token")
    return me_json(who)


def account_of(srv: ServerDep, who: Person) -> Account:
    """The account of the person asking; NotSignedIn (401) for anyone else (the admin token has no account)."""
    if who.account_id is None:
        raise NotSignedIn("personal tokens belong to accounts: sign in first (POST /api/session)")
    return Account(who.account_id, who.name, tuple(sorted(who.roles)), "")


@router.post("/api/tokens", tags=["api"], summary="A new personal API token", status_code=201,
             response_model=models.NewToken, responses=models.errors(400, 401, 403, 415),
             openapi_extra=models.body(models.TokenRequest))
async def api_new_token(request: Request, srv: ServerDep, who: PersonDep) -> dict[str, Any]:
    """`{"label"}` → 201 {"id", "token"}: the token is shown this once (`Authorization: Bearer TOKEN`)."""
    account = account_of(srv, who)
    data = await json_body(request, ("label",))
    token_id, token = await run_in_threadpool(srv.accounts.new_token, account, data.get("label"))
    return {"id": token_id, "token": token}


@router.get("/api/tokens", tags=["api"], summary="My personal API tokens", response_model=models.TokenList,
            responses=models.errors(401))
def api_tokens(srv: ServerDep, who: PersonDep) -> dict[str, Any]:
    """{"tokens": [{"id", "label", "created_at"}]}: never the tokens themselves."""
    return {"tokens": srv.accounts.tokens(account_of(srv, who))}


@router.delete("/api/tokens/{token_id}", tags=["api"], summary="Revoke a personal API token",
               response_model=models.Revoked, responses=models.errors(401, 404))
def api_revoke(srv: ServerDep, who: PersonDep, token_id: str) -> dict[str, Any]:
    """The token stops working at once; 404 when it is none of yours."""
    account = account_of(srv, who)
    if not token_id.isdigit() or len(token_id) > 12 or not srv.accounts.revoke(account, int(token_id)):
        raise NotFound(f"you have no token {token_id[:40]!r}")
    return {"id": int(token_id), "revoked": True}


# -- pages --------------------------------------------------------------------------------------------
@router.get("/signin", summary="The sign-in page")
def signin_page(pages: PagesDep, srv: ServerDep, who: PersonDep, next: str = "/") -> Response:
    return pages("signin.html", {"who": who, "next": local_target(next), "signup": signup_open(srv),
                                 "problem": ""})


@router.post("/signin", summary="Sign in (the sign-in page's form)")
async def signin_form(request: Request, srv: ServerDep, pages: PagesDep, who: PersonDep) -> Response:
    form = await request.form(max_files=0, max_fields=5)
    check_csrf(request, form)
    target = local_target(form.get("next"))
    try:
        _account, session = await sign_in(request, srv, form.get("name"), form.get("password"))
    except SignInFailed as exc:
        return pages("signin.html", {"who": who, "next": target, "signup": signup_open(srv),
                                     "problem": str(exc), "name": str(form.get("name") or "")[:60]},
                     status_code=401)
    return with_session(RedirectResponse(target, status_code=303), request, session)


@router.post("/signout", summary="Sign out (the header's button)")
async def signout_form(request: Request, srv: ServerDep) -> Response:
    form = await request.form(max_files=0, max_fields=3)
    check_csrf(request, form)
    end_session(request, srv)
    return without_session(RedirectResponse("/", status_code=303), request)


def signup_open(srv: Deckcheck) -> bool:
    """Whether a visitor may make an account here: `serve --signup`, on a club's server (accounts exist, or an
    admin token). On a server without either the first account would make it a club's, whose keeper is only an
    account or the admin token: the machine's own user, its keeper until then, would lose their collections and
    decks to a visitor's sign-up (CONTRACTS §9)."""
    return srv.settings.signup and srv.mode() is Mode.CLUB


def refuse_signup(srv: Deckcheck) -> None:
    """NotFound (404) unless a visitor may make an account here (signup_open), saying why."""
    if not srv.settings.signup:
        raise NotFound("this server makes no accounts for visitors: ask its keeper for one")
    if not signup_open(srv):
        raise NotFound("this server makes no accounts for visitors until its keeper has made the first one (on the "
                       "server's machine): ask its keeper")


@router.get("/signup", summary="Make a player account (serve --signup)")
def signup_page(pages: PagesDep, srv: ServerDep, who: PersonDep) -> Response:
    refuse_signup(srv)
    return pages("signin.html", {"who": who, "next": "/", "signup": True, "making": True, "problem": ""})


@router.post("/signup", summary="Make a player account (serve --signup)")
async def signup_form(request: Request, srv: ServerDep, pages: PagesDep, who: PersonDep) -> Response:
    refuse_signup(srv)
    form = await request.form(max_files=0, max_fields=5)
    check_csrf(request, form)
    name, password = form.get("name"), form.get("password")
    count_sign_in(request.client.host if request.client else "-", name)
    try:
        await run_in_threadpool(srv.accounts.add, name, password, ["player"])
    except AccountError as exc:
        return pages("signin.html", {"who": who, "next": "/", "signup": True, "making": True, "problem": str(exc),
                                     "name": str(name or "")[:60]}, status_code=400)
    _account, session = await run_in_threadpool(srv.accounts.sign_in, name, password)
    return with_session(RedirectResponse("/", status_code=303), request, session)


@router.get("/accounts", summary="The keeper's list of accounts")
def accounts_page(pages: PagesDep, srv: ServerDep, who: PersonDep) -> Response:
    """Every account and its roles, for the keeper (made and changed on the server's machine, with the command line)."""
    if not who.is_keeper:
        raise NotAllowed("the list of accounts is the server's keeper's")
    return pages("accounts.html", {"accounts": srv.accounts.all()})
