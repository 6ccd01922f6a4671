"""Every state-changing route of the app's own route table, swept (issue 28, item 7): each refuses a form without
the CSRF token, a request from another site, and, where it is the organiser's or the keeper's, a request without
their credential or with a wrong one; and each refusal is the one of the guard meant (its own words), every other
part of the request being valid, so a test never passes because another refusal came first.

CALLS says how to call each route. A route added to the app without a row here fails
`test_the_sweep_knows_how_to_call_every_state_changing_route`: add its row (what a full, valid call sends, what it
answers, and which guards hold it).
"""
from __future__ import annotations

import html
import itertools
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient

from deckcheck.db.store import Store
from deckcheck.library.desk import RateLimit
from deckcheck.web import create_app
from deckcheck.web.deps import rate_limit
from deckcheck.web.desk import COOKIE as DESK_COOKIE
from deckcheck.web.facts import ADMIN_COOKIE, admin_cookie_value
from deckcheck.web.security import CSRF_COOKIE, CSRF_FIELD
from deckcheck.web.settings import Settings

from conftest import LEGAL

ADMIN = "sweep-keeper-token"
TOKEN = "s" * 43  # the visitor's CSRF cookie, and the token its forms carry
CARD = "ME-upper-left-attack-1"
SAME_SITE = {"Origin": "http://testserver"}  # every call comes from this server's own page, unless refused for it
STATE_CHANGING = {"POST", "PUT", "PATCH", "DELETE"}
NUMBERS = itertools.count(1)

# What each guard says when it refuses: a refusal without these words came from somewhere else.
CSRF_REFUSED = (403, "security token is missing or out of date")
CROSS_SITE_REFUSED = (403, "a request from another site")


@dataclass(frozen=True)
class Credential:
    """Where a route's credential goes (a cookie, a header or a form field), and what the route says without it
    and with a wrong one."""

    kind: str  # "cookie", "bearer" or "form"
    name: str  # the cookie's or the form field's name
    missing: tuple[int, str]
    wrong: tuple[int, str]


DESK_COOKIE_CRED = Credential("cookie", DESK_COOKIE, (401, "this page is the organiser's"),
                              (403, "wrong organiser token for this event"))
DESK_BEARER = Credential("bearer", "", (401, "this needs the organiser's token"),
                         (403, "wrong organiser token for this event"))
REVIEW_COOKIE = Credential("cookie", ADMIN_COOKIE, (403, "sign in to the review with the admin token first"),
                           (403, "sign in to the review with the admin token first"))
ADMIN_FORM = Credential("form", "admin_token", (401, "send the admin token"), (403, "wrong admin token"))
EDIT_FORM = Credential("form", "admin_token", (403, "wrong admin token"), (403, "wrong admin token"))
ADMIN_BEARER = Credential("bearer", "", (401, "send the admin token"), (403, "wrong admin token"))
# what the policy guards (deckcheck.web.policy): on this club server, the keeper's (the admin token's bearer)
KEEPERS = Credential("bearer", "", (403, "sign in first"), (403, "sign in first"))
ACCOUNTS = KEEPERS  # an account's own (a personal token's bearer): refused alike
PASSWORD = "sweep password 1"
KEEPS = (403, "sign in first")  # a visitor who is nobody keeps no deck: the policy's refusal
DECK_OWNER = Credential("bearer", "", KEEPS, KEEPS)


@dataclass
class Prepared:
    """One full, valid call of a route: its path, body (data, json or files) and the credential's value."""

    path: str
    body: dict[str, Any] = field(default_factory=dict)
    secret: str = ""  # the credential's value (the route's Credential says where it goes)


@dataclass(frozen=True)
class Call:
    """How the sweep calls one route: `prepare` makes a fresh valid call (the events, decks, previews it needs);
    `ok` is what the route answers to it; `csrf` True, or the reason the route takes no CSRF token."""

    prepare: Callable[[Context], Prepared]
    ok: int
    csrf: bool | str = True
    credential: Credential | None = None


class Context:
    """The sweep's server (a club server: it has an admin token) and the things calls need, each made fresh."""

    def __init__(self, client: TestClient):
        self.client = client
        self.n = NUMBERS  # names made unique across the module's tests (they share one database)

    def send(self, method: str, prepared: Prepared, credential: Credential | None, *, token: bool | str = True,
             secret: str | None = None, headers: dict[str, str | None] | None = None):
        """Send a call with the CSRF cookie, the form's token (the one `token` names; none if False) and the
        credential's value (`secret`: the prepared one by default; "" sends none); a header given as None is not
        sent."""
        secret = prepared.secret if secret is None else secret
        cookies = {CSRF_COOKIE: TOKEN}
        sent = {k: v for k, v in {**SAME_SITE, **(headers or {})}.items() if v is not None}  # None: not sent
        body: dict[str, Any] = {k: (dict(v) if isinstance(v, dict) else v) for k, v in prepared.body.items()}
        form = body.setdefault("data", {}) if "json" not in body else None
        if token and form is not None:
            form[CSRF_FIELD] = TOKEN if token is True else token
        if credential is not None and secret:
            if credential.kind == "cookie":
                cookies[credential.name] = secret
            elif credential.kind == "bearer":
                sent["Authorization"] = f"Bearer {secret}"
            else:
                assert form is not None
                form[credential.name] = secret
        self.client.cookies.clear()  # only what this call means to send
        sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
        try:
            return self.client.request(method, prepared.path, headers=sent, follow_redirects=False, **body)
        finally:
            self.client.cookies.clear()

    def setup(self, path: str, **body: Any):
        """A call that makes what a swept call needs: it must succeed."""
        r = self.send("POST", Prepared(path, body, ADMIN), KEEPERS)
        assert r.status_code < 400, (path, r.status_code, r.text[:300])
        return r

    def event(self, locked: bool = False) -> tuple[str, str]:
        """A new event (id, organiser token) with Anna's deck in it; locked: closed, its lists locked."""
        event = self.setup("/api/events", json={"name": f"Sweep {next(self.n)}", "format": "type1e"}).json()
        self.setup(f"/api/events/{event['id']}/decks", json={"player": "Anna", "decklist": LEGAL})
        if locked:
            r = self.send("POST", Prepared(f"/api/events/{event['id']}/close", secret=event["organiser_token"]),
                          DESK_BEARER)
            assert r.status_code == 200, r.text
        return event["id"], event["organiser_token"]

    def paired(self, started: bool) -> tuple[str, str, str]:
        """A locked event of Anna and Bob (id, organiser token, Anna's deck id); started: round 1 under way."""
        event = self.setup("/api/events", json={"name": f"Sweep {next(self.n)}", "format": "type1e"}).json()
        anna = self.setup(f"/api/events/{event['id']}/decks", json={"player": "Anna", "decklist": LEGAL}).json()
        self.setup(f"/api/events/{event['id']}/decks", json={"player": "Bob", "decklist": LEGAL})
        for path in ("close", "rounds")[:1 + started]:
            r = self.send("POST", Prepared(f"/api/events/{event['id']}/{path}", {"json": {}},
                                           event["organiser_token"]), DESK_BEARER)
            assert r.status_code < 300, r.text
        return event["id"], event["organiser_token"], anna["deck_id"]

    def deck(self) -> str:
        """A saved deck's id."""
        location = self.setup("/decks", data={"decklist": LEGAL}).headers["location"]
        return location.rsplit("/", 1)[1]

    def kept(self) -> str:
        """A kept deck of the keeper's (the admin token's bearer acts as the keeper)."""
        r = self.send("POST", Prepared("/api/decks", {"json": {"name": f"Sweep {next(self.n)}", "decklist": LEGAL}},
                                       ADMIN), ADMIN_BEARER)
        assert r.status_code == 201, r.text[:300]
        return str(r.json()["id"])

    def preview(self, collection: str) -> str:
        """The token of a previewed import into `collection`."""
        r = self.setup("/collection/import", data={"mode": "merge", "collection": collection},
                       files={"file": ("sweep.csv", b"card,quantity\nThrust,1\n")})
        found = re.search(r'name="token" value="([^"]+)"', r.text)
        assert found is not None
        return found.group(1)

    def confirmation(self) -> dict[str, str]:
        """The form confirming a previewed import into a new collection."""
        collection = f"sweep{next(self.n)}"
        return {"token": self.preview(collection), "mode": "merge", "collection": collection}

    def imported(self) -> str:
        """A new collection with one import in it, to undo."""
        form = self.confirmation()
        self.setup("/collection/import/confirm", data=form)
        return form["collection"]

    def card_sheet(self) -> tuple[str, bytes]:
        """A card sheet of one new card (a Raven Item of its own id)."""
        return "sweep-cards.csv", (f"game,id,name,type,renown,health,skill\nraven-stormcrow,RS-SW-{next(self.n)},"
                                   f"Sweep Item {next(self.n)},Item,1,,1\n").encode()

    def card_preview(self) -> dict[str, str]:
        """The form confirming a previewed card sheet import."""
        r = self.setup("/cards/import", files={"file": self.card_sheet()})
        found = re.search(r'name="token" value="([^"]+)"', r.text)
        assert found is not None
        return {"token": found.group(1), "label": "sweep-cards.csv"}

    def card_imported(self) -> str:
        """The number of a new card sheet import, to undo."""
        r = self.setup("/cards/import/confirm", data=self.card_preview())
        return r.headers["location"].rpartition("imported=")[2]

    def accounts(self) -> Any:
        from deckcheck.library.accounts import Accounts
        app: Any = self.client.app
        return Accounts(Store(app.state.deckcheck.settings.db_url))

    def token(self) -> tuple[int, str]:
        """(id, token) of a new personal token of the sweep's account."""
        return self.accounts().new_token(self.accounts().get("Sweeper"), "sweep")

    def proposal(self) -> str:
        """A pending answer's id (a club server keeps answers for review)."""
        r = self.setup(f"/api/cards/{CARD}/facts", json={"by": f"Sweeper {next(self.n)}",
                                                         "values": {"restriction": "3"}})
        return str(r.json()["proposals"][0]["id"])


def _rounds(path: str, started: bool, **body: Any) -> Callable[[Context], Prepared]:
    def prepare(ctx: Context) -> Prepared:
        event_id, token, deck_id = ctx.paired(started)
        return Prepared(path.format(event_id=event_id, number=1, deck_id=deck_id), body, token)
    return prepare


def _disputed(path: str, claimed: bool, **body: Any) -> Callable[[Context], Prepared]:
    """A call about a result the organiser reported (2-0 at table 1 of round 1); `claimed`: Anna disputes it first."""
    def prepare(ctx: Context) -> Prepared:
        event_id, token, deck_id = ctx.paired(True)
        r = ctx.send("POST", Prepared(f"/api/events/{event_id}/rounds/1/results",
                                      {"json": {"table": 1, "a_wins": 2, "b_wins": 0}}, token), DESK_BEARER)
        assert r.status_code == 200, r.text
        claim_id = ""
        if claimed:
            r = ctx.send("POST", Prepared(f"/api/events/{event_id}/decks/{deck_id}/dispute",
                                          {"json": {"mine": 1, "theirs": 2}}), None)
            assert r.status_code == 201, r.text
            claim_id = r.json()["id"]
        return Prepared(path.format(event_id=event_id, deck_id=deck_id, claim_id=claim_id), body, token)
    return prepare


def _desk(path: str, locked: bool, **body: Any) -> Callable[[Context], Prepared]:
    def prepare(ctx: Context) -> Prepared:
        event_id, token = ctx.event(locked)
        return Prepared(path.format(event_id=event_id), body, token)
    return prepare


FORM_DECK = {"data": {"decklist": LEGAL}}
API = "a program's JSON API: no cookie to ride on (the Origin guard holds browsers)"
CALLS: dict[tuple[str, str], Call] = {
    ("POST", "/api/check"): Call(lambda ctx: Prepared("/api/check", {"json": {"decklist": LEGAL}}), 200,
                                 csrf="a check changes nothing"),
    ("POST", "/api/stats"): Call(lambda ctx: Prepared("/api/stats", {"json": {"decklist": LEGAL}}), 200,
                                 csrf="statistics change nothing"),
    ("POST", "/check"): Call(lambda ctx: Prepared("/check", FORM_DECK), 200, csrf="a check changes nothing"),
    ("POST", "/decks"): Call(lambda ctx: Prepared("/decks", FORM_DECK, ADMIN), 303, credential=KEEPERS),
    ("POST", "/check/facts"): Call(lambda ctx: Prepared("/check/facts", {"data": {"decklist": LEGAL,
                                                                                  "facts_by": "Sweeper"}}), 200),
    ("POST", "/decks/{deck_id}/facts"): Call(lambda ctx: Prepared(f"/decks/{ctx.deck()}/facts",
                                                                  {"data": {"facts_by": "Sweeper"}}), 200),
    ("POST", "/cards/proposals"): Call(lambda ctx: Prepared("/cards/proposals", secret=ADMIN), 303,
                                       credential=ADMIN_FORM),
    ("POST", "/cards/proposals/decide"): Call(
        lambda ctx: Prepared("/cards/proposals/decide", {"data": {"reject": ctx.proposal()}},
                             admin_cookie_value(ADMIN)), 303, credential=REVIEW_COOKIE),
    ("POST", "/cards/{card_id:path}/facts"): Call(lambda ctx: Prepared(f"/cards/{CARD}/facts",
                                                                       {"data": {"facts_by": "Sweeper"}}), 303),
    ("POST", "/cards/{card_id:path}/edit"): Call(lambda ctx: Prepared(f"/cards/{CARD}/edit",
                                                                      {"data": {"who": "Sweeper"}}, ADMIN),
                                                 303, credential=EDIT_FORM),
    ("POST", "/api/cards/{card_id:path}/facts"): Call(
        lambda ctx: Prepared(f"/api/cards/{CARD}/facts", {"json": {"by": f"Sweeper {next(ctx.n)}",
                                                                   "values": {"restriction": "3"}}}), 202,
        csrf=API + "; JSON only (415 otherwise), which a form of another site cannot send"),
    ("POST", "/api/proposals/{pid}/{action}"): Call(lambda ctx: Prepared(f"/api/proposals/{ctx.proposal()}/reject",
                                                                         secret=ADMIN), 200,
                                                    csrf=API, credential=ADMIN_BEARER),
    ("POST", "/collection/import"): Call(lambda ctx: Prepared("/collection/import", {
        "data": {"mode": "merge", "collection": "sweep"}, "files": {"file": ("s.csv", b"card,quantity\nThrust,1\n")}},
        ADMIN), 200, credential=KEEPERS),
    ("POST", "/collection/import/confirm"): Call(lambda ctx: Prepared("/collection/import/confirm", {
        "data": ctx.confirmation()}, ADMIN), 303, credential=KEEPERS),
    ("POST", "/collection/undo"): Call(lambda ctx: Prepared("/collection/undo", {"data": {
        "collection": ctx.imported()}}, ADMIN), 303, credential=KEEPERS),
    ("POST", "/cards/import"): Call(lambda ctx: Prepared("/cards/import", {"files": {"file": ctx.card_sheet()}},
                                                         ADMIN), 200, credential=KEEPERS),
    ("POST", "/cards/import/confirm"): Call(lambda ctx: Prepared("/cards/import/confirm", {
        "data": ctx.card_preview()}, ADMIN), 303, credential=KEEPERS),
    ("POST", "/cards/import/undo"): Call(lambda ctx: Prepared("/cards/import/undo", {"data": {
        "import_id": ctx.card_imported()}}, ADMIN), 303, credential=KEEPERS),
    ("POST", "/api/decks"): Call(lambda ctx: Prepared("/api/decks", {"json": {"name": "Sweep", "decklist": LEGAL}},
                                                      ADMIN), 201, csrf=API, credential=DECK_OWNER),
    ("PUT", "/api/decks/{deck_id}"): Call(lambda ctx: Prepared(f"/api/decks/{ctx.kept()}", {"json": {"name": "B"}},
                                                               ADMIN), 200, csrf=API, credential=DECK_OWNER),
    ("POST", "/api/decks/{deck_id}/changes"): Call(lambda ctx: Prepared(
        f"/api/decks/{ctx.kept()}/changes", {"json": {"card": "Thrust", "delta": 1}}, ADMIN), 200, csrf=API,
        credential=DECK_OWNER),
    ("POST", "/api/decks/{deck_id}/restore"): Call(lambda ctx: Prepared(
        f"/api/decks/{ctx.kept()}/restore", {"json": {"version": 1}}, ADMIN), 200, csrf=API, credential=DECK_OWNER),
    ("POST", "/api/decks/{deck_id}/copy"): Call(lambda ctx: Prepared(f"/api/decks/{ctx.kept()}/copy", {"json": {}},
                                                                     ADMIN), 201, csrf=API, credential=DECK_OWNER),
    ("POST", "/decks/new"): Call(lambda ctx: Prepared("/decks/new", {"data": {"name": "S", "format": "type1e"}}, ADMIN),
                                 303, credential=DECK_OWNER),
    ("POST", "/decks/{deck_id}/edit"): Call(lambda ctx: Prepared(
        f"/decks/{ctx.kept()}/edit", {"data": {"card": "ME-thrust-2", "delta": "1"}}, ADMIN), 303,
        credential=DECK_OWNER),
    ("POST", "/decks/{deck_id}/rename"): Call(lambda ctx: Prepared(
        f"/decks/{ctx.kept()}/rename", {"data": {"name": "Renamed", "visibility": "link"}}, ADMIN), 303,
        credential=DECK_OWNER),
    ("POST", "/decks/{deck_id}/restore"): Call(lambda ctx: Prepared(
        f"/decks/{ctx.kept()}/restore", {"data": {"version": "1"}}, ADMIN), 303, credential=DECK_OWNER),
    ("POST", "/api/events"): Call(lambda ctx: Prepared("/api/events", {"json": {"name": "Open", "format": "type1e"}},
                                                       ADMIN), 201, csrf=API, credential=KEEPERS),
    ("POST", "/api/events/{event_id}/decks"): Call(_desk("/api/events/{event_id}/decks", False,
                                                         json={"player": "Bea", "decklist": LEGAL}), 201, csrf=API),
    ("POST", "/api/events/{event_id}/close"): Call(_desk("/api/events/{event_id}/close", False), 200, csrf=API,
                                                   credential=DESK_BEARER),
    ("POST", "/api/events/{event_id}/deckchecks"): Call(
        _desk("/api/events/{event_id}/deckchecks", True, json={"player": "Anna", "judge": "J", "counts": {}}), 201,
        csrf=API, credential=DESK_BEARER),
    ("POST", "/api/events/{event_id}/draw"): Call(_desk("/api/events/{event_id}/draw", True, json={"n": 1}), 200,
                                                  csrf=API, credential=DESK_BEARER),
    ("POST", "/desk"): Call(lambda ctx: Prepared("/desk", {"data": {"name": "Open", "format": "type1e"}}, ADMIN), 303,
                            credential=KEEPERS),
    ("POST", "/desk/{event_id}"): Call(_desk("/desk/{event_id}", False, data={"player": "Bea", "decklist": LEGAL}),
                                       303),
    ("POST", "/desk/{event_id}/admin/close"): Call(_desk("/desk/{event_id}/admin/close", False), 303,
                                                   credential=DESK_COOKIE_CRED),
    ("POST", "/desk/{event_id}/admin/check"): Call(_desk("/desk/{event_id}/admin/check", True,
                                                         data={"player": "Anna", "action": "save", "judge": "J"}),
                                                   303, credential=DESK_COOKIE_CRED),
    ("POST", "/desk/{event_id}/admin/draw"): Call(_desk("/desk/{event_id}/admin/draw", True, data={"n": "1"}), 200,
                                                  credential=DESK_COOKIE_CRED),
    ("POST", "/api/events/{event_id}/rounds"): Call(_rounds("/api/events/{event_id}/rounds", False, json={}), 201,
                                                    csrf=API, credential=DESK_BEARER),
    ("POST", "/api/events/{event_id}/rounds/{number}/results"): Call(
        _rounds("/api/events/{event_id}/rounds/{number}/results", True,
                json={"table": 1, "a_wins": 2, "b_wins": 0}), 200, csrf=API, credential=DESK_BEARER),
    ("POST", "/api/events/{event_id}/drops"): Call(_rounds("/api/events/{event_id}/drops", False,
                                                           json={"player": "Bob"}), 200, csrf=API,
                                                   credential=DESK_BEARER),
    ("POST", "/desk/{event_id}/admin/rounds"): Call(_rounds("/desk/{event_id}/admin/rounds", False), 303,
                                                    credential=DESK_COOKIE_CRED),
    ("POST", "/desk/{event_id}/admin/rounds/{number}/results"): Call(
        _rounds("/desk/{event_id}/admin/rounds/{number}/results", True,
                data={"table": "1", "a_wins": "2", "b_wins": "0"}), 303, credential=DESK_COOKIE_CRED),
    ("POST", "/desk/{event_id}/admin/drops"): Call(_rounds("/desk/{event_id}/admin/drops", False,
                                                           data={"player": "Bob"}), 303, credential=DESK_COOKIE_CRED),
    ("POST", "/desk/{event_id}/admin/tiebreakers"): Call(_rounds("/desk/{event_id}/admin/tiebreakers", False,
                                                                 data={"t1": "gw"}), 303, credential=DESK_COOKIE_CRED),
    ("POST", "/desk/{event_id}/decks/{deck_id}/result"): Call(
        _rounds("/desk/{event_id}/decks/{deck_id}/result", True, data={"mine": "2", "theirs": "0"}), 303),
    ("POST", "/api/events/{event_id}/decks/{deck_id}/dispute"): Call(
        _disputed("/api/events/{event_id}/decks/{deck_id}/dispute", False, json={"mine": 1, "theirs": 2}), 201,
        csrf=API),
    ("POST", "/desk/{event_id}/decks/{deck_id}/dispute"): Call(
        _disputed("/desk/{event_id}/decks/{deck_id}/dispute", False, data={"mine": "1", "theirs": "2"}), 303),
    ("POST", "/api/events/{event_id}/disputes/{claim_id}"): Call(
        _disputed("/api/events/{event_id}/disputes/{claim_id}", True, json={"decision": "claim"}), 200, csrf=API,
        credential=DESK_BEARER),
    ("POST", "/desk/{event_id}/admin/disputes/{claim_id}"): Call(
        _disputed("/desk/{event_id}/admin/disputes/{claim_id}", True, data={"decision": "reported"}), 303,
        credential=DESK_COOKIE_CRED),
    ("PUT", "/api/events/{event_id}/judges"): Call(_desk("/api/events/{event_id}/judges", False,
                                                         json={"judges": []}), 200, csrf=API,
                                                   credential=DESK_BEARER),
    ("POST", "/desk/{event_id}/admin/judges"): Call(_desk("/desk/{event_id}/admin/judges", False,
                                                          data={"judges": ""}), 303, credential=DESK_COOKIE_CRED),
    ("POST", "/api/session"): Call(lambda ctx: Prepared("/api/session", {"json": {"name": "Sweeper",
                                                                                  "password": PASSWORD}}), 200,
                                   csrf=API + "; JSON only (415 otherwise), which a form of another site cannot send"),
    ("DELETE", "/api/session"): Call(lambda ctx: Prepared("/api/session"), 200,
                                     csrf="a DELETE no form of another site can send; it only signs out"),
    ("POST", "/signin"): Call(lambda ctx: Prepared("/signin", {"data": {"name": "Sweeper", "password": PASSWORD}}),
                              303),
    ("POST", "/signout"): Call(lambda ctx: Prepared("/signout"), 303),
    ("POST", "/signup"): Call(lambda ctx: Prepared("/signup", {"data": {"name": f"Signer {next(ctx.n)}",
                                                                        "password": PASSWORD}}), 303),
    ("POST", "/api/tokens"): Call(lambda ctx: Prepared("/api/tokens", {"json": {"label": "x"}}, ctx.token()[1]), 201,
                                  csrf=API, credential=ACCOUNTS),
    ("DELETE", "/api/tokens/{token_id}"): Call(lambda ctx: (lambda t: Prepared(f"/api/tokens/{t[0]}", {}, t[1]))(
        ctx.token()), 200, csrf=API, credential=ACCOUNTS),
}
WITH_TOKEN = [k for k, c in CALLS.items() if c.csrf is True]
WITH_CREDENTIAL = [k for k, c in CALLS.items() if c.credential is not None]


def state_changing_routes(routes: Any, prefix: str = "") -> Iterator[tuple[str, str]]:
    """(method, path) of every state-changing route, those of included routers and mounted apps too."""
    for route in routes:
        included = getattr(route, "original_router", None)  # FastAPI's included router, kept as one route
        if included is not None:
            yield from state_changing_routes(included.routes, prefix + route.include_context.prefix)
        elif getattr(route, "methods", None):
            for method in sorted(set(route.methods) & STATE_CHANGING):
                yield method, prefix + route.path
        elif getattr(route, "routes", None):  # a mounted app with routes of its own
            yield from state_changing_routes(route.routes, prefix + route.path)


@pytest.fixture(scope="module")
def sweep_app(web_db, tmp_path_factory):
    """A club server (an admin token) on a copy of the cards, with no rate limit in the way."""
    db = tmp_path_factory.mktemp("sweep") / "sweep.db"
    shutil.copy(web_db.removeprefix("sqlite:///"), db)
    app = create_app(Settings.from_env(db_url=f"sqlite:///{db}", admin_token=ADMIN, signup=True))
    from deckcheck.library.accounts import Accounts
    Accounts(Store(f"sqlite:///{db}")).add("Sweeper", PASSWORD, ["player"])
    app.dependency_overrides[rate_limit] = lambda: RateLimit(0)
    return app


@pytest.fixture()
def ctx(sweep_app) -> Iterator[Context]:
    from deckcheck.web import accounts, facts
    facts.ANSWERS.clear()
    accounts.SIGNINS.clear()
    with TestClient(sweep_app) as client:
        yield Context(client)
    facts.ANSWERS.clear()


def refused(r, expected: tuple[int, str]) -> bool:
    status, words = expected
    return r.status_code == status and words in html.unescape(r.text)  # a page escapes the apostrophes


def test_the_sweep_knows_how_to_call_every_state_changing_route(sweep_app):
    found = list(state_changing_routes(sweep_app.routes))
    assert len(found) == len(set(found))
    assert set(found) == set(CALLS), ("routes the sweep cannot call yet (add them to CALLS):",
                                      sorted(set(found) - set(CALLS)), "rows of routes gone:",
                                      sorted(set(CALLS) - set(found)))


def test_only_the_api_and_checks_go_without_the_csrf_token():
    exempt = {k for k, c in CALLS.items() if c.csrf is not True}
    assert all(isinstance(CALLS[k].csrf, str) and CALLS[k].csrf for k in exempt)  # each says why
    pages = {path for _m, path in exempt if not path.startswith("/api/")}
    assert pages == {"/check"}, "a page's form that changes something carries the CSRF token"


@pytest.mark.parametrize("route", list(CALLS), ids=" ".join)
def test_each_route_takes_its_full_call(ctx, route):
    """The control: sent whole (the token, the credential, from this server's page) the call is taken, so each
    refusal below is the missing piece's."""
    call = CALLS[route]
    prepared = call.prepare(ctx)
    r = ctx.send(route[0], prepared, call.credential, token=call.csrf is True)
    assert r.status_code == call.ok, r.text[:500]


@pytest.mark.parametrize("route", WITH_TOKEN, ids=" ".join)
@pytest.mark.parametrize("token", [False, "t" * 43], ids=["no-token", "another-token"])
def test_each_form_is_refused_without_the_csrf_token(ctx, route, token):
    call = CALLS[route]
    prepared = call.prepare(ctx)
    r = ctx.send(route[0], prepared, call.credential, token=token)
    assert refused(r, CSRF_REFUSED), (r.status_code, r.text[:500])


@pytest.mark.parametrize("route", list(CALLS), ids=" ".join)
@pytest.mark.parametrize("headers", [{"Origin": "http://evil.example"}, {"Origin": "http://testserver.evil.example"},
                                     {"Origin": "null"}],
                         ids=["other-site", "longer-name", "null"])
def test_each_route_is_refused_from_another_site(ctx, route, headers):
    call = CALLS[route]
    r = ctx.send(route[0], call.prepare(ctx), call.credential, token=call.csrf is True, headers=headers)
    assert refused(r, CROSS_SITE_REFUSED), (r.status_code, r.text[:500])


@pytest.mark.parametrize("route", list(CALLS), ids=" ".join)
def test_each_route_is_refused_when_the_browser_says_cross_site(ctx, route):
    call = CALLS[route]
    r = ctx.send(route[0], call.prepare(ctx), call.credential, token=call.csrf is True,
                 headers={"Origin": None, "Sec-Fetch-Site": "cross-site"})
    assert refused(r, CROSS_SITE_REFUSED), (r.status_code, r.text[:500])


@pytest.mark.parametrize("route", WITH_CREDENTIAL, ids=" ".join)
def test_each_organisers_or_keepers_route_is_refused_without_their_credential(ctx, route):
    call = CALLS[route]
    assert call.credential is not None
    prepared = call.prepare(ctx)
    r = ctx.send(route[0], prepared, call.credential, token=call.csrf is True, secret="")
    assert refused(r, call.credential.missing), (r.status_code, r.text[:500])


@pytest.mark.parametrize("route", WITH_CREDENTIAL, ids=" ".join)
def test_each_organisers_or_keepers_route_is_refused_with_a_wrong_credential(ctx, route):
    call = CALLS[route]
    assert call.credential is not None
    prepared = call.prepare(ctx)
    r = ctx.send(route[0], prepared, call.credential, token=call.csrf is True, secret="w" * 43)
    assert refused(r, call.credential.wrong), (r.status_code, r.text[:500])
