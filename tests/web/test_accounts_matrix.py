"""Who may call each state-changing route (issue 30, item 5; CONTRACTS §9): every route of the app's own table,
called as an anonymous visitor from another machine, two players, a reviewer, an organiser, a judge and the keeper,
on a club server (accounts exist). Each persona the matrix does not name for a route is refused by the policy (403,
its words) with nothing changed in any table; each it names is let past the policy (the route may still want its
own token, or find the call spent by an earlier persona: never the policy's 403).

MATRIX says who may, independently of deckcheck.web.policy: a route added without a row fails
`test_the_matrix_has_a_row_for_every_state_changing_route`. The calls themselves are the route sweep's (CALLS).
"""
from __future__ import annotations

import html
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from deckcheck.db.store import Store
from deckcheck.library.accounts import Accounts
from deckcheck.library.desk import RateLimit
from deckcheck.web import create_app
from deckcheck.web.deps import rate_limit
from deckcheck.web.settings import Settings

from test_route_sweep import ADMIN, CALLS, PASSWORD, Context, Credential, state_changing_routes

PERSONAS = {"anonymous": None, "player A": ["player"], "player B": ["player"], "reviewer": ["reviewer"],
            "organiser": ["organiser"], "judge": ["judge"], "keeper": ["keeper"]}
ALL = frozenset(PERSONAS)
SIGNED_IN = ALL - {"anonymous"}
PLAYERS = frozenset({"player A", "player B", "keeper"})
ORGANISERS = frozenset({"organiser", "keeper"})
REVIEWERS = frozenset({"reviewer", "keeper"})
MATRIX: dict[tuple[str, str], frozenset[str]] = {
    ("POST", "/api/check"): ALL, ("POST", "/api/stats"): ALL, ("POST", "/check"): ALL,
    ("POST", "/decks"): PLAYERS,
    ("POST", "/api/decks"): PLAYERS, ("PUT", "/api/decks/{deck_id}"): PLAYERS,
    ("POST", "/api/decks/{deck_id}/changes"): PLAYERS, ("POST", "/api/decks/{deck_id}/restore"): PLAYERS,
    ("POST", "/api/decks/{deck_id}/copy"): PLAYERS, ("POST", "/decks/new"): PLAYERS,
    ("POST", "/decks/{deck_id}/edit"): PLAYERS, ("POST", "/decks/{deck_id}/rename"): PLAYERS,
    ("POST", "/decks/{deck_id}/restore"): PLAYERS,
    # a club's card facts wait for a reviewer, whoever gives them; the review and the edit ask for their own token
    ("POST", "/check/facts"): ALL, ("POST", "/decks/{deck_id}/facts"): ALL,
    ("POST", "/cards/{card_id:path}/facts"): ALL, ("POST", "/api/cards/{card_id:path}/facts"): ALL,
    ("POST", "/cards/proposals"): ALL, ("POST", "/cards/proposals/decide"): ALL,
    ("POST", "/api/proposals/{pid}/{action}"): ALL, ("POST", "/cards/{card_id:path}/edit"): ALL,
    ("POST", "/collection/import"): PLAYERS, ("POST", "/collection/import/confirm"): PLAYERS,
    ("POST", "/collection/undo"): PLAYERS,
    # a card sheet into the server's database, for every player: its keeper's or a reviewer's
    ("POST", "/cards/import"): REVIEWERS, ("POST", "/cards/import/confirm"): REVIEWERS,
    ("POST", "/cards/import/undo"): REVIEWERS,
    ("POST", "/api/events"): ORGANISERS, ("POST", "/desk"): ORGANISERS,
    # the desk's links and its organiser token
    ("POST", "/api/events/{event_id}/decks"): ALL, ("POST", "/desk/{event_id}"): ALL,
    ("POST", "/api/events/{event_id}/close"): ALL, ("POST", "/api/events/{event_id}/deckchecks"): ALL,
    ("POST", "/api/events/{event_id}/draw"): ALL, ("POST", "/desk/{event_id}/admin/close"): ALL,
    ("POST", "/desk/{event_id}/admin/check"): ALL, ("POST", "/desk/{event_id}/admin/draw"): ALL,
    ("POST", "/api/events/{event_id}/rounds"): ALL, ("POST", "/api/events/{event_id}/rounds/{number}/results"): ALL,
    ("POST", "/api/events/{event_id}/drops"): ALL, ("POST", "/desk/{event_id}/admin/rounds"): ALL,
    ("POST", "/desk/{event_id}/admin/rounds/{number}/results"): ALL, ("POST", "/desk/{event_id}/admin/drops"): ALL,
    ("POST", "/desk/{event_id}/admin/tiebreakers"): ALL, ("POST", "/desk/{event_id}/decks/{deck_id}/result"): ALL,
    ("POST", "/api/events/{event_id}/decks/{deck_id}/dispute"): ALL,
    ("POST", "/desk/{event_id}/decks/{deck_id}/dispute"): ALL,
    ("POST", "/api/events/{event_id}/disputes/{claim_id}"): ALL,
    ("POST", "/desk/{event_id}/admin/disputes/{claim_id}"): ALL,
    ("PUT", "/api/events/{event_id}/judges"): ALL, ("POST", "/desk/{event_id}/admin/judges"): ALL,
    ("POST", "/api/session"): ALL, ("DELETE", "/api/session"): ALL, ("POST", "/signin"): ALL,
    ("POST", "/signout"): ALL, ("POST", "/signup"): ALL,
    ("POST", "/api/tokens"): SIGNED_IN, ("DELETE", "/api/tokens/{token_id}"): SIGNED_IN,
}
POLICY_WORDS = ("sign in first", "which your account does not have", "keeps its keeper's")
PHONE = ("192.0.2.10", 5000)
AS_PERSON = Credential("bearer", "", (403, ""), (403, ""))


@pytest.fixture(scope="module")
def club(web_db, tmp_path_factory) -> Iterator[tuple[FastAPI, Path, dict[str, str]]]:
    """A club server (accounts and an admin token) on a copy of the cards; each persona's personal token."""
    folder = tmp_path_factory.mktemp("matrix")
    db = folder / "matrix.db"
    shutil.copy(web_db.removeprefix("sqlite:///"), db)
    url = f"sqlite:///{db}"
    accounts = Accounts(Store(url))
    accounts.add("Sweeper", PASSWORD, ["player"])  # the sweep's calls sign in as this one
    tokens: dict[str, str] = {}
    for n, (persona, roles) in enumerate(PERSONAS.items()):
        if roles is not None:
            account = accounts.add(f"Persona {n}", PASSWORD, roles)
            tokens[persona] = accounts.new_token(account, persona)[1]
    app = create_app(Settings.from_env(db_url=url, admin_token=ADMIN, signup=True))
    app.dependency_overrides[rate_limit] = lambda: RateLimit(0)
    yield app, db, tokens


def counts(db: Path) -> dict[str, Any]:
    """Every table's rows, counted, and the cards' write stamp: what a refused call must leave as it was."""
    con = sqlite3.connect(db)
    try:
        tables = [r[0] for r in con.execute("select name from sqlite_master where type = 'table'")]
        found: dict[str, Any] = {t: con.execute(f'select count(*) from "{t}"').fetchone()[0] for t in tables}
        found["cards_version"] = con.execute("select value from deckcheck_meta where key = 'cards_version'").fetchone()
        return found
    finally:
        con.close()


def refused_by_policy(r) -> bool:
    return r.status_code == 403 and any(w in html.unescape(r.text) for w in POLICY_WORDS)


def test_the_matrix_has_a_row_for_every_state_changing_route(club):
    app, _db, _tokens = club
    found = set(state_changing_routes(app.routes))
    assert found == set(MATRIX), ("routes without a row (say who may call them):", sorted(found - set(MATRIX)),
                                  "rows of routes gone:", sorted(set(MATRIX) - found))


@pytest.mark.parametrize("route", list(MATRIX), ids=" ".join)
def test_each_persona_may_or_is_refused_with_nothing_changed(club, route):
    from deckcheck.web import accounts, facts
    app, db, tokens = club
    call = CALLS[route]
    with TestClient(app, client=PHONE) as client:
        facts.ANSWERS.clear()
        accounts.SIGNINS.clear()
        ctx = Context(client)
        prepared = call.prepare(ctx)
        for persona in PERSONAS:  # the refused first: a call they could not make is still there for the others
            if persona in MATRIX[route]:
                continue
            before = counts(db)
            r = ctx.send(route[0], prepared, AS_PERSON, token=call.csrf is True, secret=tokens.get(persona, ""))
            assert refused_by_policy(r), (persona, r.status_code, r.text[:300])
            assert counts(db) == before, persona
        for persona in sorted(MATRIX[route]):
            r = ctx.send(route[0], prepared, AS_PERSON, token=call.csrf is True, secret=tokens.get(persona, ""))
            assert not refused_by_policy(r), (persona, r.status_code, r.text[:300])


def test_a_representative_subset_on_both_databases(db_url):
    """The same decisions on PostgreSQL (db_url: SQLite and, with DECKCHECK_TEST_PG, PostgreSQL): accounts make a
    club; a player's token imports into a collection and saves a deck, an anonymous visitor and an organiser are
    refused with nothing stored, the organiser creates an event, a signed-out token list is refused."""
    from deckcheck.web.security import CSRF_COOKIE
    accounts = Accounts(Store(db_url))
    player = accounts.new_token(accounts.add("Pia", PASSWORD, ["player"]), "t")[1]
    organiser = accounts.new_token(accounts.add("Otto", PASSWORD, ["organiser"]), "t")[1]
    sheet = {"file": ("b.csv", b"card,quantity\nThrust,1\n")}
    with TestClient(create_app(db_url=db_url), client=PHONE) as client:
        client.get("/")
        form = {"csrf_token": client.cookies[CSRF_COOKIE], "mode": "merge"}
        before = client.get("/api/collection", headers={"Authorization": f"Bearer {player}"}).json()["totals"]
        for who in ("", organiser):
            headers = {"Authorization": f"Bearer {who}"} if who else {}
            assert refused_by_policy(client.post("/collection/import", data=form, files=sheet, headers=headers))
            assert refused_by_policy(client.post("/decks", data={**form, "decklist": "1 Thrust"}, headers=headers))
        assert refused_by_policy(client.post("/api/events", json={"name": "E", "format": "type1e"},
                                             headers={"Authorization": f"Bearer {player}"}))
        assert client.get("/api/collection").json()["totals"] == before
        mine = {"Authorization": f"Bearer {player}"}
        assert client.post("/collection/import", data=form, files=sheet, headers=mine).status_code == 200
        assert client.post("/decks", data={**form, "decklist": "1 Thrust"}, headers=mine,
                           follow_redirects=False).status_code == 303
        made = client.post("/api/events", json={"name": "E", "format": "type1e"},
                           headers={"Authorization": f"Bearer {organiser}"})
        assert made.status_code == 201, made.text
        assert client.get("/api/tokens").status_code == 401
