"""An open server reached from another machine, every route (issue 30; CONTRACTS §9): bound to every address, no
accounts, no admin token. Its keeper, at the machine itself (loopback), owns things: a private, a link and a public
deck, a collection with an import (and one into the default collection), a card sheet import, a card fact given,
an event with two submitted lists, a deck check, a round and a disputed result. Another machine (the ASGI test
client's address; never real traffic) then

- makes every state-changing route's full call (the route sweep's CALLS): the policy (deckcheck.web.policy) refuses
  what an anonymous visitor of an open server may not do, 403 with its account message; what it lets through (checks,
  statistics, the desk's links and the organiser's token) answers as it does anywhere, or as ANSWERS_HERE says for a
  server without accounts or admin token. A refused call commits nothing to the database (SQLite's data_version
  does not move); an allowed one changes only rows of the event its path names (a new one, made for the call: the
  organiser's token in hand, never the keeper's event); the keeper's things stay as built;
- asks every GET route of the app's table (the cross-account probes' calls, with the keeper's ids, and EXTRA_GETS):
  no 500, and no marker of the keeper's private things unless the probe says anyone may see it (a link deck by its
  link, an event's public pages); what is private answers as a thing that does not exist.

A state-changing route without a row of CALLS or of the policy's RULES, or a GET route without a probe, fails
`test_every_route_has_a_row`.
"""
from __future__ import annotations

import html
import re
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from deckcheck.library.desk import RateLimit
from deckcheck.library.people import ANONYMOUS
from deckcheck.web import create_app
from deckcheck.web.deps import rate_limit
from deckcheck.web.policy import RULES, Mode, may, refusal, rule_of
from deckcheck.web.routes import flat
from deckcheck.web.settings import Settings

from conftest import LEGAL
from test_cross_account import DECOYS, PROBES, Probe, _path, an_event, as_if_none, ok, send
from test_route_sweep import (CALLS, DESK_BEARER, DESK_COOKIE_CRED, Context, Prepared, admin_cookie_value,
                              state_changing_routes)

PHONE = ("192.0.2.10", 5000)
HERE = ("127.0.0.1", 5000)
CARD = "ME-upper-left-attack-1"
# What the phone must not see (by the cross-account probes' names, so their `shows` say where each may show).
MARKERS = {
    "private": "Keeperprivatedeck", "private_text": "keepersecretcomment", "link": "Keeperlinkdeck",
    "link_text": "keeperlinkcomment", "vault": "keepervault", "note": "keepersecretnote", "shelf": "keepershelf",
    "main_note": "keepermainnote", "player": "Zebedeeplayer",
    "player2": "Yolandaplayer", "event": "Keepercup", "judge_note": "keeperjudgenote",
}
NO_SUCH = {"T": "987653", "PID": "987652", "A": "987651"}  # no accounts, tokens or pending answers here
ORGANISERS = (DESK_BEARER, DESK_COOKIE_CRED)
BIG = ("card_source",)  # 27,000 rows of where each card's data came from: compared by count (cards_version too)


@dataclass
class Venue:
    db: Path
    keeper: TestClient  # at the machine itself
    phone: TestClient  # another machine
    ids: dict[str, str]  # the keeper's things, as the cross-account probes name them
    secrets: dict[str, str]  # what must never show to the phone: the organiser token, the players' deck links
    con: sqlite3.Connection  # kept open: its data_version says whether anyone committed since it last looked


def snapshot(con: sqlite3.Connection) -> dict[str, tuple[list[str], frozenset[tuple[Any, ...]]]]:
    """Every table's columns and rows (BIG ones: their count and largest rowid)."""
    out = {}
    for (table,) in con.execute("select name from sqlite_master where type = 'table' order by name"):
        if table in BIG:
            out[table] = (["count", "last"], frozenset([con.execute(f'select count(*), max(rowid) from "{table}"')
                                                        .fetchone()]))
            continue
        cursor = con.execute(f'select * from "{table}"')
        out[table] = ([d[0] for d in cursor.description], frozenset(cursor.fetchall()))
    return out


def changed_rows(before: dict[str, Any], after: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The rows added, removed or changed (each as before and after), by table."""
    out = {}
    for table, (columns, rows) in after.items():
        old = before.get(table, (columns, frozenset()))[1]
        if rows != old:
            out[table] = [dict(zip(columns, row, strict=True)) for row in rows ^ old]
    return out


def counts(con: sqlite3.Connection) -> dict[str, int]:
    """Every table's rows, counted: what a failure says of a commit that should not have been."""
    tables = [t for (t,) in con.execute("select name from sqlite_master where type = 'table'")]
    return {t: con.execute(f'select count(*) from "{t}"').fetchone()[0] for t in tables}


def data_version(con: sqlite3.Connection) -> int:
    return int(con.execute("pragma data_version").fetchone()[0])


def _made(r: Any) -> str:
    token = re.search(r'name="token" value="([^"]+)"', r.text)
    assert token is not None, r.text[:300]
    return token.group(1)


def build(keeper: TestClient, db: Path) -> tuple[dict[str, str], dict[str, str]]:
    """The keeper's things, made at the machine (no credential: the machine itself is the keeper)."""
    ids: dict[str, str] = {"V": "keepervault", **NO_SUCH}
    for key, name, visibility in (("P", "private", "private"), ("L", "link", "link"), ("U", "public", "public")):
        made = ok(send(keeper, "POST", "/api/decks", json_body={
            "name": f"Keeper{name}deck", "decklist": LEGAL + f"// keeper{'secret' if key == 'P' else name}comment\n",
            "visibility": visibility}), 201)
        ids[key] = made.json()["id"]
        ok(send(keeper, "POST", f"/api/decks/{ids[key]}/changes", json_body={"card": "Thrust", "delta": 1}), 200)
    for collection, note in (("keepervault", "keepersecretnote"), ("", "keepermainnote")):
        sheet = ("keeper.csv", f"card,set,quantity,location,notes\nUpper Left Attack (1),ME,7,keepershelf,{note}\n"
                 .encode())
        preview = ok(send(keeper, "POST", "/collection/import", data={"mode": "merge", "collection": collection},
                          files={"file": sheet}), 200)
        ok(send(keeper, "POST", "/collection/import/confirm", data={
            "token": _made(preview), "mode": "merge", "collection": collection, "label": "keeper.csv"}), 303)
        if collection:
            with sqlite3.connect(db) as con:
                ids["I"] = str(con.execute("select max(id) from collection_import").fetchone()[0])
    given = ok(send(keeper, "POST", f"/api/cards/{CARD}/facts", json_body={
        "by": "Keeper", "values": {"hand_icons": "1"}}), 200)
    assert given.json()["applied"], given.text
    cards = ("keeperprivatesheet.csv", b"game,id,name,type,renown,health,skill\n"
                                       b"raven-stormcrow,RS-OP-1,Openserver Item,Item,1,,1\n")
    preview = ok(send(keeper, "POST", "/cards/import", files={"file": cards}), 200)
    imported = ok(send(keeper, "POST", "/cards/import/confirm", data={
        "token": _made(preview), "label": "keeperprivatesheet.csv"}), 303)
    ids["N"] = imported.headers["location"].rpartition("imported=")[2]
    organiser = an_event(keeper, ids, "", "Keepercup", judge=None, note="keeperjudgenote")
    return ids, {"organiser token": organiser, "Zebedeeplayer's link": ids["S"], "Yolandaplayer's link": ids["S2"]}


@pytest.fixture(scope="module")
def venue(pristine_web_db, tmp_path_factory) -> Iterator[Venue]:
    db = tmp_path_factory.mktemp("open") / "open.db"
    shutil.copy(pristine_web_db.removeprefix("sqlite:///"), db)
    app = create_app(Settings.from_env(db_url=f"sqlite:///{db}", host="0.0.0.0", allowed_hosts="testserver"))
    app.dependency_overrides[rate_limit] = lambda: RateLimit(0)
    with TestClient(app, client=HERE) as keeper, TestClient(app, client=PHONE) as phone:
        ids, secrets = build(keeper, db)
        assert app.state.deckcheck.mode() is Mode.OPEN
        con = sqlite3.connect(db, isolation_level=None)
        try:
            yield Venue(db, keeper, phone, ids, secrets, con)
        finally:
            con.close()


# -- every state-changing route -----------------------------------------------------------------------------------
# What a route the policy lets through answers here, where the sweep's club server answers otherwise: this server
# has no accounts and no admin token (its keeper is whoever sits at the machine).
ANSWERS_HERE: dict[tuple[str, str], tuple[int, str]] = {
    ("POST", "/cards/proposals"): (403, "this server has no admin token"),
    ("POST", "/cards/proposals/decide"): (403, "sign in to the review with the admin token first"),
    ("POST", "/api/proposals/{pid}/{action}"): (403, "this server has no admin token"),
    ("POST", "/cards/{card_id:path}/edit"): (403, "cards are read-only on this server"),
    ("POST", "/api/session"): (401, "wrong name or password"),
    ("POST", "/signin"): (401, "wrong name or password"),
    ("POST", "/signup"): (404, "this server makes no accounts for visitors"),
}
# The sweep's calls that need what this server has not (an account's token, a pending answer): made here instead.
PREPARED_HERE: dict[tuple[str, str], Callable[[Context], Prepared]] = {
    ("POST", "/cards/proposals/decide"): lambda ctx: Prepared("/cards/proposals/decide", {"data": {
        "reject": NO_SUCH["PID"]}}, admin_cookie_value("a guessed admin token")),
    ("POST", "/api/proposals/{pid}/{action}"): lambda ctx: Prepared(f"/api/proposals/{NO_SUCH['PID']}/reject",
                                                                    secret="a guessed admin token"),
    ("POST", "/api/tokens"): lambda ctx: Prepared("/api/tokens", {"json": {"label": "x"}}, "g" * 43),
    ("DELETE", "/api/tokens/{token_id}"): lambda ctx: Prepared(f"/api/tokens/{NO_SUCH['T']}", {}, "g" * 43),
}
# Who may what, said here apart from the policy (which the statuses above are read from): from another machine an
# open server's visitor checks, signs in (or is told there are no accounts), uses an event's links and its organiser
# token, and sends the admin token's calls (none here: refused by their route); nothing else.
VISITORS_MAY = frozenset(
    {("POST", p) for p in ("/api/check", "/check", "/api/stats", "/api/session", "/signin", "/signout", "/signup",
                           "/cards/proposals", "/cards/proposals/decide", "/api/proposals/{pid}/{action}",
                           "/cards/{card_id:path}/edit")}
    | {("DELETE", "/api/session")}
    | {(m, p) for m, p in CALLS if p.startswith(("/api/events/{event_id}", "/desk/{event_id}"))})
EVENT_PATH = re.compile(r"^/(?:api/events|desk)/([^/]+)")


def from_phone(venue: Venue, ctx: Context, method: str, prepared: Prepared, call: Any, secret: str | None = None):
    ctx.client = venue.phone
    try:
        return ctx.send(method, prepared, call.credential, token=call.csrf is True, secret=secret)
    finally:
        ctx.client = venue.keeper


def says(r: Any, status: int, words: str) -> bool:
    text = r.json().get("error", "") if r.headers.get("content-type", "").startswith("application/json") \
        else html.unescape(r.text)
    return r.status_code == status and words in text


def test_every_route_has_a_row(venue):
    app = venue.phone.app
    changing = set(state_changing_routes(app.routes))
    assert changing == set(CALLS), ("state-changing routes without a call (tests/web/test_route_sweep.py CALLS):",
                                    sorted(changing - set(CALLS)))
    assert changing <= set(RULES), ("routes without a rule (web/policy.py RULES):", sorted(changing - set(RULES)))
    gets = {(m, r.path) for r in flat(app.router.routes)  # type: ignore[attr-defined]
            for m in (getattr(r, "methods", None) or {"GET"}) if m == "GET"}
    asked = {p.route for p in GETS}
    assert gets == asked, ("GET routes nobody asks (a probe in tests/web/test_cross_account.py, or EXTRA_GETS):",
                           sorted(gets - asked), "probes of routes gone:", sorted(asked - gets))


def test_the_policy_lets_visitors_of_an_open_server_only_look_check_and_use_links():
    assert {route for route in CALLS if may(ANONYMOUS, rule_of(*route), Mode.OPEN)} == VISITORS_MAY


@pytest.mark.parametrize("route", list(CALLS), ids=" ".join)
def test_another_machine_changes_only_what_the_policy_lets_it(venue, route):
    from deckcheck.web import facts
    facts.ANSWERS.clear()
    call = CALLS[route]
    ctx = Context(venue.keeper)  # what a call needs is made at the machine, by its keeper
    prepared = PREPARED_HERE.get(route, call.prepare)(ctx)
    rule = rule_of(*route)
    allowed = may(ANONYMOUS, rule, Mode.OPEN)
    status, words = ANSWERS_HERE.get(route, (call.ok, "")) if allowed else (403, refusal(ANONYMOUS, rule, Mode.OPEN))
    writes = allowed and status < 400  # may write: then every row is compared, else no commit at all
    if allowed and call.credential in ORGANISERS:  # the event's id alone (no organiser token): the route refuses
        version, counted = data_version(venue.con), counts(venue.con)
        r = from_phone(venue, ctx, route[0], prepared, call, secret="")
        assert says(r, *call.credential.missing), (r.status_code, r.text[:300])
        assert data_version(venue.con) == version, ("committed", counted, counts(venue.con))
    version, counted = data_version(venue.con), counts(venue.con)
    before = snapshot(venue.con) if writes else {}
    r = from_phone(venue, ctx, route[0], prepared, call)
    assert r.status_code == status and (not words or says(r, status, words)), (r.status_code, r.text[:400])
    if not allowed:
        assert "account" in words and "/signin" in words
        assert r.headers["content-type"].startswith("application/json" if route[1].startswith("/api/") else
                                                    "text/html"), r.headers["content-type"]
    if not writes:
        assert data_version(venue.con) == version, ("committed", counted, counts(venue.con))
        return
    changed = changed_rows(before, snapshot(venue.con))
    named = EVENT_PATH.match(prepared.path)  # only the rows of the event the call names: made for it, not the keeper's
    event = named.group(1) if named else None
    assert event != venue.ids["E"]
    strays = {t: rows for t, rows in changed.items()
              if not t.startswith("desk_") or any(row.get("event_id", row.get("id")) != event for row in rows)}
    assert not strays, strays


# -- every GET route ----------------------------------------------------------------------------------------------
EXTRA_GETS = [  # GET routes the cross-account probes leave out (UNPROBED): a player's own submission, by its link
    Probe(("GET", "/api/events/{event_id}/decks/{deck_id}"), _path("/api/events/{E}/decks/{S}"),
          shows=frozenset({"player", "player2", "event"}), name="GET the player's own submission (API)"),
    Probe(("GET", "/desk/{event_id}/decks/{deck_id}"), _path("/desk/{E}/decks/{S}"),
          shows=frozenset({"player", "player2", "event"}), name="GET the player's own submission"),
    Probe(("GET", "/static"), _path("/static/desk.css"), name="GET /static"),
]
GETS = [p for p in PROBES if p.route[0] == "GET"] + EXTRA_GETS
# A player's link may show their own id; an event's public pages its players' names (cross-account `shows`).
LINKS = {"/api/events/{event_id}/decks/{deck_id}": {"Zebedeeplayer's link"},
         "/desk/{event_id}/decks/{deck_id}": {"Zebedeeplayer's link"}}


def ask(venue: Venue, probe: Probe, ids: dict[str, str]) -> Any:
    return send(venue.phone, "GET", probe.path(ids), headers=probe.headers)


def test_the_keeper_s_things_show_where_their_links_lead(venue):
    """The control of the markers: the keeper sees its own; the phone, holding the links, sees the link deck and
    the player's list."""
    ids = {**venue.ids}
    assert MARKERS["private"] in send(venue.keeper, "GET", f"/decks/{ids['P']}").text
    assert MARKERS["note"] in send(venue.keeper, "GET", "/collection?collection=keepervault").text
    assert MARKERS["main_note"] in send(venue.keeper, "GET", "/collection").text
    assert MARKERS["link"] in send(venue.phone, "GET", f"/decks/{ids['L']}").text
    assert MARKERS["player"] in send(venue.phone, "GET", f"/desk/{ids['E']}/decks/{ids['S']}").text
    assert MARKERS["judge_note"] in send(venue.keeper, "GET", f"/api/events/{ids['E']}/deckchecks",
                                         venue.secrets["organiser token"]).text


@pytest.mark.parametrize("probe", GETS, ids=[p.id for p in GETS])
def test_another_machine_reads_nothing_of_the_keeper_s_it_may_not(venue, probe):
    ids = dict(venue.ids)
    version = data_version(venue.con)
    r = ask(venue, probe, ids)
    assert r.status_code < 500, (r.status_code, r.text[:500])
    asked = probe.path(ids)
    where = (r.text if "xlsx" not in asked else "") + " " + " ".join(f"{k}: {v}" for k, v in r.headers.items())
    secret = {k: v for k, v in MARKERS.items() if k not in probe.shows}
    secret |= {k: v for k, v in venue.secrets.items() if k not in LINKS.get(probe.route[1], ())}
    secret |= {f"id {k}": ids[k] for k in ("P",)}
    if "link" not in probe.shows:
        secret["id L"] = ids["L"]
    shown = [f"{k}={v!r}" for k, v in secret.items() if v not in asked and v in where]
    assert not shown, (shown, r.status_code, r.text[:500])
    assert data_version(venue.con) == version, "a GET wrote to the database"
    if probe.hidden:  # what is the keeper's alone answers as a thing that does not exist
        as_if_none(r, ask(venue, probe, {**ids, **DECOYS}), ids)


def test_the_markers_are_the_probes_names():
    """Each `shows` of a probe names a marker here or has no private thing of this server behind it (a personal
    token's label: there are no accounts)."""
    named = {k for p in GETS for k in p.shows}
    assert named - set(MARKERS) <= {"token"}, named - set(MARKERS)


@pytest.mark.parametrize("host", ["0.0.0.0", "127.0.0.1"], ids=["open", "personal"])
def test_a_visitors_sign_up_leaves_the_keeper_the_keeper(pristine_web_db, tmp_path, host):
    """`serve --signup` on a server without accounts or admin token: a visitor's account would make it a club's,
    where the machine's own user is nobody (their decks and collections out of reach). So visitors sign up only
    once its keeper has made the first account; until then /signup says so and makes none."""
    from deckcheck.library.accounts import Accounts
    from deckcheck.db.store import Store
    db = tmp_path / "signup.db"
    shutil.copy(pristine_web_db.removeprefix("sqlite:///"), db)
    url = f"sqlite:///{db}"
    app = create_app(Settings.from_env(db_url=url, host=host, allowed_hosts="testserver", signup=True))
    visitor = PHONE if host == "0.0.0.0" else HERE
    with TestClient(app, client=HERE) as keeper, TestClient(app, client=visitor) as phone:
        for r in (send(phone, "GET", "/signup"),
                  send(phone, "POST", "/signup", data={"name": "Visitor", "password": "a visitor's password"})):
            assert r.status_code == 404 and "until its keeper has made the first one" in html.unescape(r.text), \
                r.text[:300]
        assert 'href="/signup"' not in send(phone, "GET", "/signin").text
        assert not Accounts(Store(url)).exist()
        ok(send(keeper, "POST", "/api/decks", json_body={"name": "Mine", "decklist": LEGAL}), 201)
        Accounts(Store(url)).add("Kim", "the keeper's password", ["keeper"])  # the first account, at the machine
        app.state.deckcheck._accounts_seen = (-1e9, False)  # looked again at once, not within the second
        made = send(phone, "POST", "/signup", data={"name": "Visitor", "password": "a visitor's password"})
        assert made.status_code == 303, made.text[:300]
