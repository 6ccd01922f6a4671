"""Nothing of one person's is reachable by another (issue 30; CONTRACTS §9, §10): every route of the app's own table,
asked by people who own none of what it names, for the things others own on a club server.

The owners: player Ann (a private deck of two versions, a link deck, a public deck, a collection "annvault" with an
import, a card-fact proposal, a personal token), organiser Olga (an event with two players' locked lists, a round,
a deck check, a disputed result, a judge she named: Jules) and reviewer Rhea (a card sheet imported). The askers:
an anonymous visitor on another machine, player Bert, another organiser, Jules (judge of Olga's event, not its
organiser), another judge and another reviewer (PERSONAS).

Three kinds of probe:
- HIDDEN: a route asked for an owned thing by its id or name must answer exactly as it answers for a thing that
  does not exist (the decoy): the same status, the same body with the decoy's name read as the real one's. So a
  private deck of another answers 404 (never 403), a collection name not yours 404, nothing tells it exists.
- SEEN: a route may answer (a listing, a link deck, a public page, the organiser's refusal), but no MARKER of a
  thing the asker may not see is in its body or headers, and its status is one it may give.
- every probe that could change something leaves the owners' things as they were (OWNED rows, compared whole).

`test_every_route_is_probed` fails for a route of the app's table with neither a probe nor a reason in UNPROBED.
"""
from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

from deckcheck.db.store import Store
from deckcheck.library.accounts import Accounts
from deckcheck.library.desk import RateLimit
from deckcheck.web import create_app
from deckcheck.web.deps import rate_limit
from deckcheck.web.routes import flat
from deckcheck.web.security import CSRF_COOKIE
from deckcheck.web.settings import Settings

from conftest import LEGAL, _emptied_pg

PHONE = ("192.0.2.10", 5000)
PASSWORD = "cross account pw 1"
CSRF = "c" * 43
CARD = "ME-upper-left-attack-1"  # in Ann's private and link decks and her collection, in no public deck
OWNERS = {"Annabel Quill": ["player"], "Olga Owner": ["organiser"], "Rhea Reviewer": ["reviewer"],
          "Jules Judge": ["judge"], "Kim Keeper": ["keeper"]}
PERSONAS = {"anonymous": None, "player Bert": ["player"], "organiser Oswin": ["organiser"],
            "judge Jules": "Jules Judge", "judge Jasper": ["judge"], "reviewer Rollo": ["reviewer"]}
ALL = frozenset(PERSONAS)
REVIEWERS = frozenset({"reviewer Rollo"})
JUDGE = frozenset({"judge Jules"})

# What must not be seen by the askers, unless a probe says it may show it.
MARKERS = {
    "private": "Annprivatedeck", "private_text": "annsecretcomment", "link": "Annlinkdeck",
    "link_text": "annlinkcomment",
    "vault": "annvault", "note": "annsecretnote", "shelf": "annshelf", "token": "anntokenlabel",
    "player": "Zebedeeplayer", "player2": "Yolandaplayer", "event": "Olgahiddencup",
    "judge_note": "julesjudgenote",
}
# the decoy of each owned thing a HIDDEN probe names: what a thing of that kind that does not exist is called
DECOYS = {"P": "Zz9Qq8Ww", "L": "Yy8Pp7Vv", "V": "nosuchvault", "I": "987654", "T": "987653", "PID": "987652"}


@dataclass
class World:
    client: TestClient
    url: str
    tokens: dict[str, str]  # persona -> personal token ("" for the anonymous visitor)
    ids: dict[str, str]  # what a probe names: P (Ann's private deck), L (her link deck), V, I, T, PID, E, S, S2, C, K
    owners: dict[str, int]  # owner name -> account id
    own: dict[str, str]  # owner name -> personal token; "event" -> the event's organiser token
    store: Store  # one engine for the owners' rows, read after every probe
    baseline: dict[str, Any] = field(default_factory=dict)  # the owners' rows as built: what every probe leaves


def send(client: TestClient, method: str, path: str, token: str = "", *, data: dict[str, str] | None = None,
         json_body: Any = None, files: dict[str, Any] | None = None, headers: dict[str, str] | None = None) -> Any:
    """One request as a person (their personal token; none for "") with the CSRF cookie and, for a form, its token."""
    sent = dict(headers or {})
    if token:
        sent["Authorization"] = f"Bearer {token}"
    client.cookies.clear()
    client.cookies.set(CSRF_COOKIE, CSRF)
    body: dict[str, Any] = {}
    if json_body is not None:
        body["json"] = json_body
    elif data is not None or files is not None:
        body["data"] = {"csrf_token": CSRF, **(data or {})}
        if files is not None:
            body["files"] = files
    try:
        return client.request(method, path, headers=sent, follow_redirects=False, **body)
    finally:
        client.cookies.clear()


def ok(r: Any, *status: int) -> Any:
    said = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", r.text))[-900:]
    assert r.status_code in status, (r.request.method, r.request.url, r.status_code, said)
    return r


def build(url: str) -> Iterator[World]:
    """The owners' things, made through the routes as each owner, and every persona's token."""
    accounts = Accounts(Store(url))
    owners, tokens = {}, {"anonymous": ""}
    own: dict[str, str] = {}
    for name, roles in OWNERS.items():
        account = accounts.add(name, PASSWORD, roles)
        owners[name] = account.id
        own[name] = accounts.new_token(account, "anntokenlabel" if name.startswith("Ann") else "t")[1]
    for persona, given in PERSONAS.items():
        roles = given  # type: ignore[assignment]
        if isinstance(roles, str):
            tokens[persona] = own[roles]
        elif roles is not None:
            tokens[persona] = accounts.new_token(accounts.add(persona.split()[1], PASSWORD, roles), "t")[1]
    app = create_app(Settings.from_env(db_url=url, signup=True))
    app.dependency_overrides[rate_limit] = lambda: RateLimit(0)
    ids: dict[str, str] = {"V": "annvault"}
    with TestClient(app, client=PHONE) as client:
        ann, olga, rhea, jules = (own[n] for n in ("Annabel Quill", "Olga Owner", "Rhea Reviewer", "Jules Judge"))
        made = ok(send(client, "POST", "/api/decks", ann, json_body={
            "name": "Annprivatedeck", "decklist": LEGAL + "// annsecretcomment\n", "visibility": "private"}), 201)
        ids["P"] = made.json()["id"]
        ok(send(client, "POST", f"/api/decks/{ids['P']}/changes", ann, json_body={"card": "Thrust", "delta": 1}), 200)
        ids["L"] = ok(send(client, "POST", "/api/decks", ann, json_body={
            "name": "Annlinkdeck", "decklist": LEGAL + "// annlinkcomment\n", "visibility": "link"}), 201).json()["id"]
        ok(send(client, "POST", f"/api/decks/{ids['L']}/changes", ann, json_body={"card": "Thrust", "delta": 1}), 200)
        ids["U"] = ok(send(client, "POST", "/api/decks", ann, json_body={
            "name": "Annpublicdeck", "decklist": "Format: type1e\n2 Thrust\n", "visibility": "public"}),
            201).json()["id"]
        sheet = ("ann.csv",
                 "card,set,quantity,location,notes\nUpper Left Attack (1),ME,7,annshelf,annsecretnote\n".encode())
        preview = ok(send(client, "POST", "/collection/import", ann, data={"mode": "merge", "collection": "annvault"},
                          files={"file": sheet}), 200)
        token = re.search(r'name="token" value="([^"]+)"', preview.text)
        assert token is not None
        ok(send(client, "POST", "/collection/import/confirm", ann, data={
            "token": token.group(1), "mode": "merge", "collection": "annvault", "label": "ann.csv"}), 303)
        with Store(url).engine.connect() as con:
            ids["I"] = str(con.execute(text("select max(id) from collection_import")).scalar_one())
            ids["T"] = str(con.execute(text("select id from api_token where label = 'anntokenlabel'")).scalar_one())
        ids["PID"] = str(ok(send(client, "POST", f"/api/cards/{CARD}/facts", ann, json_body={
            "by": "x", "values": {"restriction": "3"}}), 202).json()["proposals"][0]["id"])
        own["event"] = an_event(client, ids, olga, "Olgahiddencup", judge=(jules, "Jules Judge"),
                                note="julesjudgenote")
        cards = ("rheaprivatesheet.csv", b"game,id,name,type,renown,health,skill\n"
                                         b"raven-stormcrow,RS-XA-1,Crossaccount Item,Item,1,,1\n")
        preview = ok(send(client, "POST", "/cards/import", rhea, files={"file": cards}), 200)
        token = re.search(r'name="token" value="([^"]+)"', preview.text)
        assert token is not None
        imported = ok(send(client, "POST", "/cards/import/confirm", rhea, data={
            "token": token.group(1), "label": "rheaprivatesheet.csv"}), 303)
        ids["N"] = imported.headers["location"].rpartition("imported=")[2]
        world = World(client, url, tokens, ids, owners, own, Store(url))
        world.baseline = owned(world)
        yield world


def an_event(client: TestClient, ids: dict[str, str], maker: str, name: str, judge: tuple[str, str] | None,
             note: str) -> str:
    """An event (`maker`'s: their token, "" for the keeper at the machine) with Zebedee's and Yolanda's lists
    locked, a deck check (by the judge the organiser named: their token and name; None: the organiser), a round
    and Zebedee's dispute of its result; its ids in `ids` (E, S, S2, C, K), and its organiser token returned."""
    event = ok(send(client, "POST", "/api/events", maker, json_body={"name": name, "format": "type1e"}), 201).json()
    ids["E"], organiser = event["id"], event["organiser_token"]
    for key, player in (("S", "Zebedeeplayer"), ("S2", "Yolandaplayer")):
        ids[key] = ok(send(client, "POST", f"/api/events/{ids['E']}/decks", json_body={
            "player": player, "decklist": LEGAL}), 201).json()["deck_id"]
    if judge is not None:
        ok(send(client, "PUT", f"/api/events/{ids['E']}/judges", organiser, json_body={"judges": [judge[1]]}), 200)
    ok(send(client, "POST", f"/api/events/{ids['E']}/close", organiser, json_body={}), 200)
    ids["C"] = ok(send(client, "POST", f"/api/events/{ids['E']}/deckchecks", judge[0] if judge else organiser,
                       json_body={"player": "Zebedeeplayer", "judge": "Jules", "counts": {}, "note": note}),
                  201).json()["id"]
    ok(send(client, "POST", f"/api/events/{ids['E']}/rounds", organiser, json_body={}), 201)
    ok(send(client, "POST", f"/api/events/{ids['E']}/rounds/1/results", organiser,
            json_body={"table": 1, "a_wins": 2, "b_wins": 0}), 200)
    ids["K"] = ok(send(client, "POST", f"/api/events/{ids['E']}/decks/{ids['S']}/dispute",
                       json_body={"mine": 1, "theirs": 2}), 201).json()["id"]
    return str(organiser)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def world(request, pristine_web_db, tmp_path_factory) -> Iterator[World]:
    if request.param == "sqlite":
        db = tmp_path_factory.mktemp("cross") / "cross.db"
        shutil.copy(pristine_web_db.removeprefix("sqlite:///"), db)
        url = f"sqlite:///{db}"
    else:
        url = _emptied_pg()
        Store(url).count()
    yield from build(url)


def owned(w: World) -> dict[str, Any]:
    """Every row of the owners' things (Ann's decks, collections, proposals, tokens and sessions; Olga's event and
    everything in it; the card imports and the cards): what no asker's call may change."""
    ann = w.owners["Annabel Quill"]
    queries = {
        "decks": f"select * from saved_deck where owner_id = {ann}",
        "versions": f"select v.* from saved_deck_version v join saved_deck d on d.name = v.deck_name "
                    f"where d.owner_id = {ann}",
        "deck cards": f"select c.* from saved_deck_card c join saved_deck d on d.name = c.deck_name "
                      f"where d.owner_id = {ann}",
        "collections": f"select * from collection where owner_id = {ann}",
        "entries": f"select e.* from collection_entry e join collection c on c.id = e.collection_id "
                   f"where c.owner_id = {ann}",
        "imports": f"select i.* from collection_import i join collection c on c.id = i.collection_id "
                   f"where c.owner_id = {ann}",
        "proposals": f"select * from card_fact_proposal where by_key = '@{ann}'",
        "tokens": f"select * from api_token where account_id in ({', '.join(map(str, w.owners.values()))})",
        "sessions": f"select * from account_session where account_id in ({', '.join(map(str, w.owners.values()))})",
        "accounts": "select * from account",
        "card imports": "select * from deckcheck_meta where key like 'card_import:%' or key = 'cards_version'",
        "cards": "select count(*) from card", "changes": "select count(*) from card_change",
    }
    for table in ("desk_submission", "desk_deckcheck", "desk_round", "desk_pairing", "desk_drop", "desk_result_claim",
                  "desk_judge", "desk_entry"):
        queries[table] = f"select * from {table} where event_id = '{w.ids['E']}'"
    queries["event"] = f"select * from desk_event where id = '{w.ids['E']}'"
    with w.store.engine.connect() as con:
        return {k: sorted(map(repr, con.execute(text(q)).all())) for k, q in queries.items()}


# -- the probes ---------------------------------------------------------------------------------------------
Make = Callable[[dict[str, str]], Any]


@dataclass(frozen=True)
class Probe:
    """One call of a route (`route`: its method and path as the app's table has them), made of the ids (`path`, and
    `data`/`json` for a body); HIDDEN probes compare with the same call made of the decoys."""

    route: tuple[str, str]
    path: Make
    hidden: bool = False
    data: Make | None = None
    json: Make | None = None
    files: bool = False  # a collection sheet as `file`
    headers: dict[str, str] = field(default_factory=dict)
    shows: frozenset[str] = frozenset()  # MARKERS it may show
    status: frozenset[int] = frozenset({404})  # what it may answer (HIDDEN: the decoy's, which must be the same)
    askers: frozenset[str] = ALL  # who asks (those allowed by their role are left out)
    check: Callable[[Any], None] | None = None  # more to assert of an answer
    name: str = ""
    control: bool = True  # the owner's same call reaches the thing (test_the_owners_reach_what_the_probes_name)

    @property
    def id(self) -> str:
        return self.name or f"{self.route[0]} {self.route[1]}"


REFUSED = frozenset({401, 403})  # an organiser's page or API without the organiser's token: the event's id is no secret
NOT_YOURS = frozenset({403})  # a deck one may read and not change (NotYourDeck), or the policy's refusal
SEEN = frozenset({200})
FORM_DECK = {"decklist": LEGAL}
SHEET = ("bert.csv", "card,set,quantity\nUpper Left Attack (1),ME,1\n".encode())


def _path(template: str) -> Make:
    return lambda ids: template.format(**ids)


def _form(**values: str) -> Make:
    return lambda ids: {k: v.format(**ids) for k, v in values.items()}


def _json(value: Any) -> Make:
    return lambda ids: json.loads(json.dumps(value).replace("{P}", ids["P"]).replace("{L}", ids["L"])
                                  .replace("{I}", ids["I"]))


def hidden(method: str, route: str, path: str, **kw: Any) -> Probe:
    return Probe((method, route), _path(path), hidden=True, **kw)


def seen(method: str, route: str, path: str, status: frozenset[int] = SEEN, **kw: Any) -> Probe:
    return Probe((method, route), _path(path), status=status, **kw)


def no_cards(r: Any) -> None:
    """A search for the cards I own beyond my other decks, asked of another's deck: none (the asker holds none)."""
    assert r.json()["total"] == 0, r.json()


def no_decks_of_others(r: Any) -> None:
    """A card page's saved decks: none of another's private or link decks, not even counted."""
    found = r.json().get("decks") if "json" in r.headers.get("content-type", "") else None
    assert found in (None, []), found
    assert not re.search(r"[0-9]+ saved decks? uses? it", r.text), r.text[r.text.find("Saved decks"):][:300]


DECK = "/decks/{deck_id}"
PROBES: list[Probe] = [
    # -- Ann's private deck, by id: exactly as a deck that does not exist ---------------------------------------
    hidden("GET", DECK, "/decks/{P}"),
    hidden("GET", DECK, "/decks/{P}?hand=10&exertion=4&seed=abc", name="GET /decks/{id}?hand"),
    hidden("GET", "/", "/?deck={P}", status=SEEN),
    hidden("GET", "/decks/{deck_id}/edit", "/decks/{P}/edit?q=thrust&owned=1&playable=1"),
    hidden("GET", "/decks/{deck_id}/edit", "/decks/{P}/edit", headers={"HX-Request": "true"}, name="GET edit (htmx)"),
    hidden("POST", "/decks/{deck_id}/edit", "/decks/{P}/edit", data=_form(card="ME-thrust-2", delta="1"),
           status=frozenset({403, 404})),
    hidden("GET", "/decks/{deck_id}/decklist.txt", "/decks/{P}/decklist.txt?version=1"),
    hidden("GET", "/decks/{deck_id}/deck.csv", "/decks/{P}/deck.csv"),
    hidden("GET", "/decks/{deck_id}/sheet", "/decks/{P}/sheet?version=2"),
    hidden("GET", "/api/decks/{deck_id}/hand", "/api/decks/{P}/hand?seed=abc&hand=7"),
    hidden("POST", "/decks/{deck_id}/rename", "/decks/{P}/rename", data=_form(name="Mine", visibility="public"),
           status=frozenset({403, 404})),
    hidden("POST", "/decks/{deck_id}/restore", "/decks/{P}/restore", data=_form(version="1"),
           status=frozenset({403, 404})),
    hidden("POST", "/decks/{deck_id}/facts", "/decks/{P}/facts", data=_form(facts_by="Bert"),
           status=frozenset({403, 404})),
    hidden("GET", "/api/decks/{deck_id}", "/api/decks/{P}"),
    hidden("GET", "/api/decks/{deck_id}", "/api/decks/{P}?version=1", name="GET /api/decks/{id}?version=1"),
    hidden("PUT", "/api/decks/{deck_id}", "/api/decks/{P}", json=_json({"visibility": "public"}),
           status=frozenset({403, 404})),
    hidden("POST", "/api/decks/{deck_id}/changes", "/api/decks/{P}/changes", json=_json({"card": "Thrust", "delta": 1}),
           status=frozenset({403, 404})),
    hidden("GET", "/api/decks/{deck_id}/versions", "/api/decks/{P}/versions"),
    hidden("POST", "/api/decks/{deck_id}/restore", "/api/decks/{P}/restore", json=_json({"version": 1}),
           status=frozenset({403, 404})),
    hidden("POST", "/api/decks/{deck_id}/copy", "/api/decks/{P}/copy", json=_json({}), status=frozenset({403, 404})),
    hidden("GET", "/api/decks/{deck_id}/stats", "/api/decks/{P}/stats?hand=10"),
    hidden("GET", "/api/diff", "/api/diff?a={P}@1&b={L}", shows=frozenset({"link", "link_text"})),
    hidden("GET", "/api/diff", "/api/diff?a={L}@1&b=/decks/{P}@2", name="GET /api/diff?b=ID@2"),
    hidden("GET", "/diff", "/diff?a={P}@1&b={L}"),
    hidden("GET", "/api/cards", "/api/cards?deck={P}&owned=1&playable=1"),
    hidden("GET", "/api/cards", "/api/cards?deck={P}&q=thrust", name="GET /api/cards?deck"),
    # -- Ann's link deck: anyone holding its id reads it, nobody else changes it; nothing of her collection shows --
    seen("GET", DECK, "/decks/{L}", shows=frozenset({"link", "link_text"}), name="GET /decks/{link}"),
    seen("GET", "/api/decks/{deck_id}", "/api/decks/{L}?version=1", shows=frozenset({"link", "link_text"}),
         name="GET /api/decks/{link}?version=1"),
    seen("GET", "/api/cards", "/api/cards?deck={L}&owned=1", check=no_cards, name="GET /api/cards?deck={link}&owned"),
    seen("GET", "/decks/{deck_id}/edit", "/decks/{L}/edit?q=attack&owned=1", shows=frozenset({"link"}),
         name="GET /decks/{link}/edit?owned"),
    seen("GET", "/decks/{deck_id}/decklist.txt", "/decks/{L}/decklist.txt?version=1", shows=frozenset({"link"}),
         name="GET /decks/{link}/decklist.txt"),
    seen("PUT", "/api/decks/{deck_id}", "/api/decks/{L}", NOT_YOURS, json=_json({"visibility": "private"}),
         name="PUT /api/decks/{link}"),
    seen("POST", "/api/decks/{deck_id}/changes", "/api/decks/{L}/changes", NOT_YOURS,
         json=_json({"card": "Thrust", "delta": 1}), name="POST /api/decks/{link}/changes"),
    seen("POST", "/api/decks/{deck_id}/restore", "/api/decks/{L}/restore", NOT_YOURS, json=_json({"version": 1}),
         name="POST /api/decks/{link}/restore"),
    seen("POST", "/decks/{deck_id}/edit", "/decks/{L}/edit", NOT_YOURS, data=_form(card="ME-thrust-2", delta="1"),
         name="POST /decks/{link}/edit"),
    seen("POST", "/decks/{deck_id}/rename", "/decks/{L}/rename", NOT_YOURS,
         data=_form(name="Taken", visibility="private"), name="POST /decks/{link}/rename"),
    seen("POST", "/decks/{deck_id}/restore", "/decks/{L}/restore", NOT_YOURS, data=_form(version="1"),
         name="POST /decks/{link}/restore"),
    # -- listings: only one's own, and what is public ----------------------------------------------------------
    seen("GET", "/decks", "/decks"),
    seen("GET", "/decks/new", "/decks/new"),
    seen("GET", "/api/decks", "/api/decks"),
    seen("GET", "/api/decks", "/api/decks?public=1", name="GET /api/decks?public=1"),
    seen("GET", "/cards/{card_id:path}", f"/cards/{CARD}", check=no_decks_of_others),
    seen("GET", "/api/cards/{card_id:path}", f"/api/cards/{CARD}?detail=1", check=no_decks_of_others),
    seen("GET", "/cards", "/cards?q=upper+left"),
    seen("GET", "/cards", "/cards?q=upper", headers={"HX-Request": "true"}, name="GET /cards (htmx)"),
    seen("GET", "/api/cards", "/api/cards?q=upper+left"),
    seen("POST", "/api/check", "/api/check", json=_json({"decklist": LEGAL, "facts_by": "@1"}),
         status=frozenset({200, 400})),
    seen("POST", "/check", "/check", data=_form(decklist=LEGAL, facts_by="Annabel Quill")),
    seen("POST", "/api/stats", "/api/stats", json=_json({"decklist": LEGAL})),
    seen("POST", "/check/facts", "/check/facts", data=_form(decklist=LEGAL, facts_by="Bert"),
         status=frozenset({200, 400, 403})),
    # -- Ann's collection, by name, and her import, by number: as ones that do not exist --------------------------
    hidden("GET", "/api/collection", "/api/collection?collection={V}"),
    hidden("GET", "/api/collection/missing", "/api/collection/missing?collection={V}"),
    hidden("GET", "/collection", "/collection?collection={V}"),
    hidden("GET", "/collection", "/collection?collection={V}&q=upper", headers={"HX-Request": "true",
                                                                              "HX-Target": "entries"},
           name="GET /collection (htmx)"),
    hidden("GET", "/collection/export.{kind}", "/collection/export.csv?collection={V}"),
    hidden("GET", "/collection/export.{kind}", "/collection/export.xlsx?collection={V}", name="GET export.xlsx"),
    hidden("GET", "/collection/wants.csv", "/collection/wants.csv?collection={V}"),
    hidden("POST", "/collection/undo", "/collection/undo", data=_form(collection="{V}", import_id="{I}"),
           status=frozenset({403, 404})),
    hidden("POST", "/collection/undo", "/collection/undo", data=_form(collection="main", import_id="{I}"),
           status=frozenset({403, 404, 409}), name="POST /collection/undo (main)", control=False),
    hidden("POST", "/collection/import", "/collection/import", data=_form(collection="{V}", mode="replace"),
           files=True, status=frozenset({200, 403})),
    seen("GET", "/api/collection", "/api/collection"),
    seen("GET", "/api/collection/missing", "/api/collection/missing"),
    seen("GET", "/collection", "/collection"),
    seen("GET", "/collection/export.{kind}", "/collection/export.csv?all=true", name="GET export.csv?all"),
    seen("GET", "/collection/wants.csv", "/collection/wants.csv"),
    # -- accounts: one's own tokens ------------------------------------------------------------------------------
    hidden("DELETE", "/api/tokens/{token_id}", "/api/tokens/{T}", status=frozenset({403, 404})),
    seen("GET", "/api/tokens", "/api/tokens", frozenset({200, 401})),
    seen("GET", "/api/me", "/api/me", frozenset({200, 401})),
    seen("GET", "/accounts", "/accounts", frozenset({403})),
    seen("GET", "/signin", "/signin"),
    seen("GET", "/signup", "/signup"),
    # -- card facts: Ann's proposal is hers; the review is a reviewer's ------------------------------------------
    seen("GET", "/cards/proposals", "/cards/proposals", askers=ALL - REVIEWERS),
    seen("GET", "/api/proposals", "/api/proposals", frozenset({401, 403}), askers=ALL - REVIEWERS),
    seen("POST", "/api/proposals/{pid}/{action}", "/api/proposals/{PID}/reject", frozenset({401, 403}),
         askers=ALL - REVIEWERS),
    seen("POST", "/cards/proposals/decide", "/cards/proposals/decide", frozenset({403}), data=_form(reject="{PID}"),
         askers=ALL - REVIEWERS),
    seen("POST", "/cards/proposals/decide", "/cards/proposals/decide", frozenset({403}),
         data=lambda ids: {"accept_all": "@" + ids["A"]}, askers=ALL - REVIEWERS, name="POST decide accept_all"),
    seen("POST", "/api/cards/{card_id:path}/facts", f"/api/cards/{CARD}/facts", frozenset({202, 400}),
         json=_json({"by": "Annabel Quill", "values": {"restriction": "5"}})),
    seen("POST", "/cards/{card_id:path}/facts", f"/cards/{CARD}/facts", frozenset({303, 400}),
         data=_form(facts_by="Annabel Quill")),
    seen("GET", "/cards/{card_id:path}/facts", f"/cards/{CARD}/facts"),
    seen("GET", "/api/cards/facts.{kind}", "/api/cards/facts.csv"),
    # -- Rhea's card sheet import: a reviewer's record ------------------------------------------------------------
    seen("GET", "/cards/import", "/cards/import", askers=ALL - REVIEWERS),
    seen("POST", "/cards/import/undo", "/cards/import/undo", frozenset({403}), data=_form(import_id="{N}"),
         askers=ALL - REVIEWERS),
    # -- Olga's event: the organiser's pages and API refuse everyone else; the players' link shows the event -----
    seen("GET", "/desk", "/desk"),
    seen("GET", "/api/events/{event_id}", "/api/events/{E}", shows=frozenset({"event"})),
    seen("GET", "/desk/{event_id}", "/desk/{E}", shows=frozenset({"event"})),
    seen("GET", "/desk/{event_id}/qr.svg", "/desk/{E}/qr.svg"),
    seen("GET", "/desk/{event_id}/pairings", "/desk/{E}/pairings", shows=frozenset({"event", "player", "player2"})),
    seen("POST", "/desk/{event_id}", "/desk/{E}", frozenset({409}), data=_form(player="Zebedeeplayer", decklist=LEGAL),
         shows=frozenset({"event"})),
    seen("POST", "/api/events/{event_id}/decks", "/api/events/{E}/decks", frozenset({409}),
         json=_json({"player": "Zebedeeplayer", "decklist": "1 Thrust"})),
    *[seen(m, r, r.format(event_id="{E}", deck_id="{S}", number="1", claim_id="{K}", check_id="{C}",
                           what="standings", kind="csv"), REFUSED, **kw)
      for m, r, kw in [
          ("GET", "/api/events/{event_id}/decks", {}),
          ("GET", "/api/events/{event_id}/report.{kind}", {}),
          ("POST", "/api/events/{event_id}/close", {"json": _json({})}),
          ("GET", "/desk/{event_id}/admin/created", {}),
          ("GET", "/desk/{event_id}/admin", {}),
          ("GET", "/desk/{event_id}/admin/table", {}),
          ("GET", "/desk/{event_id}/admin/decks/{deck_id}", {}),
          ("GET", "/desk/{event_id}/admin/print", {}),
          ("GET", "/desk/{event_id}/admin/report.{kind}", {}),
          ("POST", "/desk/{event_id}/admin/close", {"data": _form()}),
          ("POST", "/api/events/{event_id}/rounds", {"json": _json({})}),
          ("GET", "/api/events/{event_id}/rounds", {}),
          ("POST", "/api/events/{event_id}/rounds/{number}/results",
           {"json": _json({"table": 1, "a_wins": 0, "b_wins": 2})}),
          ("POST", "/api/events/{event_id}/drops", {"json": _json({"player": "Zebedeeplayer"})}),
          ("GET", "/api/events/{event_id}/standings", {}),
          ("GET", "/api/events/{event_id}/standings.{kind}", {}),
          ("GET", "/api/events/{event_id}/pairings.{kind}", {}),
          ("GET", "/desk/{event_id}/admin/rounds", {}),
          ("GET", "/desk/{event_id}/admin/rounds/live", {}),
          ("GET", "/desk/{event_id}/admin/rounds/print", {}),
          ("POST", "/desk/{event_id}/admin/rounds", {"data": _form()}),
          ("POST", "/desk/{event_id}/admin/rounds/{number}/results",
           {"data": _form(table="1", a_wins="0", b_wins="2")}),
          ("POST", "/desk/{event_id}/admin/drops", {"data": _form(player="Zebedeeplayer")}),
          ("POST", "/desk/{event_id}/admin/tiebreakers", {"data": _form(t1="gw")}),
          ("GET", "/desk/{event_id}/admin/{what}.{kind}", {}),
          ("GET", "/api/events/{event_id}/disputes", {}),
          ("POST", "/api/events/{event_id}/disputes/{claim_id}", {"json": _json({"decision": "claim"})}),
          ("POST", "/desk/{event_id}/admin/disputes/{claim_id}", {"data": _form(decision="claim")}),
          ("GET", "/api/events/{event_id}/judges", {}),
          ("PUT", "/api/events/{event_id}/judges", {"json": _json({"judges": []})}),
          ("POST", "/desk/{event_id}/admin/judges", {"data": _form(judges="")}),
      ]],
    seen("GET", "/api/events/{event_id}/diff", "/api/events/{E}/diff?a={S}&b={S2}", REFUSED),
    seen("GET", "/desk/{event_id}/admin/diff", "/desk/{E}/admin/diff?a={S}&b={S2}", REFUSED),
    # deck checks and draws: the organiser's, or the judge she named (Jules); no other judge, nobody else
    *[seen(m, r, r.format(event_id="{E}", check_id="{C}"), REFUSED, askers=ALL - JUDGE, **kw)
      for m, r, kw in [
          ("POST", "/api/events/{event_id}/deckchecks",
           {"json": _json({"player": "Zebedeeplayer", "judge": "X", "counts": {}})}),
          ("GET", "/api/events/{event_id}/deckchecks", {}),
          ("POST", "/api/events/{event_id}/draw", {"json": _json({"n": 1})}),
          ("GET", "/desk/{event_id}/admin/checks/{check_id}", {}),
          ("POST", "/desk/{event_id}/admin/check", {"data": _form(player="Zebedeeplayer", action="save", judge="X")}),
          ("POST", "/desk/{event_id}/admin/draw", {"data": _form(n="1")}),
          ("GET", "/desk/{event_id}/judge", {}),
      ]],
    seen("GET", "/desk/{event_id}/admin/check", "/desk/{E}/admin/check?player=Zebedeeplayer", REFUSED,
         askers=ALL - JUDGE),
    # -- what is nobody's: no marker in it ---------------------------------------------------------------------
    *[seen("GET", r, r, frozenset({200, 308})) for r in ("/healthz", "/api/formats", "/formats", "/api", "/docs",
                                                         "/openapi.json")],
]

# Routes no probe calls, and why: each is reached only with a secret it does not name (a desk link's random id, a
# preview's token, a session), makes only the asker's own things, or is the admin token's, which acts as the keeper.
UNPROBED = {
    ("POST", "/decks"): "saves a new deck of the asker's own",
    ("POST", "/decks/new"): "makes a new deck of the asker's own",
    ("POST", "/api/decks"): "makes a new deck of the asker's own",
    ("POST", "/desk"): "makes a new event of the asker's own",
    ("POST", "/api/events"): "makes a new event of the asker's own",
    ("POST", "/collection/import/confirm"): "names a preview by its random token, shown only to who uploaded it",
    ("POST", "/cards/import"): "a reviewer's preview of their own sheet (a reviewer's alone: the route matrix)",
    ("POST", "/cards/import/confirm"): "names a preview by its random token, shown only to who uploaded it",
    ("POST", "/cards/proposals"): "signs in to the review with the admin token (none on this server)",
    ("POST", "/cards/{card_id:path}/edit"): "the admin token's edit of the cards (none on this server)",
    ("GET", "/api/events/{event_id}/decks/{deck_id}"): "a player's own submission, by its random id (their link)",
    ("GET", "/desk/{event_id}/decks/{deck_id}"): "a player's own submission, by its random id (their link)",
    ("POST", "/desk/{event_id}/decks/{deck_id}/result"): "a player's own result, by their deck's random id",
    ("POST", "/api/events/{event_id}/decks/{deck_id}/dispute"): "a player's own dispute, by their deck's random id",
    ("POST", "/desk/{event_id}/decks/{deck_id}/dispute"): "a player's own dispute, by their deck's random id",
    ("POST", "/api/session"): "signs in as the name and password sent",
    ("DELETE", "/api/session"): "ends the asker's own session",
    ("POST", "/signin"): "signs in as the name and password sent",
    ("POST", "/signout"): "ends the asker's own session",
    ("POST", "/signup"): "makes a new account of the name sent",
    ("POST", "/api/tokens"): "makes a token of the asker's own account",
    ("GET", "/static"): "the app's own files",
}


def app_routes(w: World) -> set[tuple[str, str]]:
    out = set()
    for route in flat(w.client.app.router.routes):  # type: ignore[attr-defined]
        methods = getattr(route, "methods", None) or {"GET"}
        out |= {(m, route.path) for m in methods if m != "HEAD"}  # type: ignore[attr-defined]
    return out


def test_every_route_is_probed(world):
    probed = {p.route for p in PROBES}
    assert not probed & set(UNPROBED), "a route both probed and excused"
    found = app_routes(world)
    assert found - probed - set(UNPROBED) == set(), "routes no probe asks (add a probe, or a reason to UNPROBED)"
    assert (probed | set(UNPROBED)) - found == set(), "probes of routes gone"


def ask(w: World, probe: Probe, persona: str, ids: dict[str, str]) -> Any:
    data = probe.data(ids) if probe.data else None
    body = probe.json(ids) if probe.json else None
    files = {"file": SHEET} if probe.files else None
    if files is not None and data is None:
        data = {}
    return send(w.client, probe.route[0], probe.path(ids), w.tokens[persona], data=data, json_body=body, files=files,
                headers=probe.headers)


def leaks(w: World, probe: Probe, r: Any, ids: dict[str, str]) -> list[str]:
    """The markers (and owned ids) in an answer that the probe did not name and may not show."""
    asked = probe.path(ids) + json.dumps(probe.data(ids) if probe.data else {}) + json.dumps(
        probe.json(ids) if probe.json else {})
    seen_text = r.text if "xlsx" not in probe.path(ids) else ""
    where = seen_text + " " + " ".join(f"{k}: {v}" for k, v in r.headers.items())
    secret = {k: v for k, v in MARKERS.items() if k not in probe.shows}
    secret |= {f"id {k}": w.ids[k] for k in ("P", "L") if not ({"link"} & probe.shows and k == "L")}
    return [f"{k}={v!r}" for k, v in secret.items() if v not in asked and v in where]


def owner_of(w: World, probe: Probe) -> str:
    """The token of who owns what a probe names: the event's organiser token for its API, Olga for its pages (she
    made it), Ann for the rest."""
    path = probe.route[1]
    return w.own["event"] if path.startswith("/api/events/") else w.own["Olga Owner"] if path.startswith("/desk/") \
        else w.own["Annabel Quill"]


def unrandom(body: bytes) -> bytes:
    """An answer without the random token a preview is named by (each upload gets its own)."""
    return re.sub(rb'name="token" value="[^"]+"', b'name="token" value=""', body)


CASES = [(p, persona) for p in PROBES for persona in PERSONAS if persona in p.askers]


@pytest.mark.parametrize(("probe", "persona"), CASES, ids=[f"{p.id} as {who}" for p, who in CASES])
def test_nothing_of_anothers_is_reachable(world, probe, persona):
    ids = {**world.ids, "A": str(world.owners["Annabel Quill"])}
    r = ask(world, probe, persona, ids)
    assert r.status_code in probe.status, (r.status_code, r.text[:500])
    assert not leaks(world, probe, r, ids), (leaks(world, probe, r, ids), r.text[:500])
    # the owners' rows as they were built (no probe may change them, so every probe compares with the same rows)
    assert owned(world) == world.baseline, "an owner's thing changed"
    if probe.check is not None and r.status_code == 200:
        probe.check(r)
    if probe.hidden:
        as_if_none(r, ask(world, probe, persona, {**ids, **DECOYS}), ids)


def as_if_none(r: Any, other: Any, ids: dict[str, str]) -> None:
    """A HIDDEN probe's answer (`r`) is the one of the same call made of the decoys (`other`), their names read as
    the real ones'."""
    body = other.content
    for key, decoy in DECOYS.items():
        body = body.replace(decoy.encode(), ids[key].encode())
    assert (r.status_code, unrandom(r.content)) == (other.status_code, unrandom(body)), \
        ("answered otherwise than for a thing that does not exist", r.status_code, other.status_code,
         r.text[:300], other.text[:300])


@pytest.fixture(scope="module")
def own_world(pristine_web_db, tmp_path_factory) -> Iterator[World]:
    """A world of its own for the owners' calls (they change their things)."""
    db = tmp_path_factory.mktemp("owners") / "owners.db"
    shutil.copy(pristine_web_db.removeprefix("sqlite:///"), db)
    yield from build(f"sqlite:///{db}")


def test_the_owners_reach_what_the_probes_name(own_world):
    """Each probe names a real thing: asked by its owner, a HIDDEN probe answers otherwise than for the decoy, and an
    organiser's route refused to the askers lets the organiser through (else a probe of a wrong path passes)."""
    w = own_world
    ids = {**w.ids, "A": str(w.owners["Annabel Quill"])}
    missed = []
    events = ("/api/events/", "/desk/")
    for probe in [p for p in PROBES
                  if p.control and (p.hidden or p.status == REFUSED and p.route[1].startswith(events))]:
        token = owner_of(w, probe)
        w.tokens["owner"] = token
        r = ask(w, probe, "owner", ids)
        if probe.hidden:
            other = ask(w, probe, "owner", {**ids, **DECOYS})
            if r.status_code == other.status_code and r.status_code >= 400:
                missed.append((probe.id, r.status_code, r.text[:200]))
        elif r.status_code in (401, 403, 404):
            missed.append((probe.id, r.status_code, r.text[:200]))
    assert not missed


def test_a_card_page_lists_the_askers_own_decks(world):
    """The card page's saved decks are the asker's own (their links theirs): Ann's two decks using the card, to
    her; none of them, not even counted, to anyone else (test_nothing_of_anothers_is_reachable)."""
    ann = world.own["Annabel Quill"]
    detail = ok(send(world.client, "GET", f"/api/cards/{CARD}?detail=1", ann), 200).json()
    assert sorted(d["name"] for d in detail["decks"]) == sorted([world.ids["P"], world.ids["L"]])
    page = ok(send(world.client, "GET", f"/cards/{CARD}", ann), 200).text
    assert f'href="/decks/{world.ids["P"]}"' in page and "keeper only" not in page
