"""Each account its own collections (issue 30, item 3; CONTRACTS §9): on a club server the collection pages, their
JSON, exports, want lists and undo, and the "owned" copies of a card's page, are the signed-in account's; another
account's collection answers 404 (as a name of none does: its existence is not told); an anonymous visitor reads no
one's, the keeper's included. On an open server (no accounts, bound to every address) another phone does not read the
keeper's collection either; the machine itself does."""
from __future__ import annotations

import re
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from deckcheck.collection import Holding
from deckcheck.db.collections import Collections
from deckcheck.db.store import Store
from deckcheck.errors import DeckcheckError
from deckcheck.library.accounts import Accounts
from deckcheck.library.api import CollectionApp
from deckcheck.library.people import ANONYMOUS, Person
from deckcheck.web import create_app
from deckcheck.web.security import CSRF_COOKIE
from deckcheck.web.settings import Settings

from conftest import LEGAL

CARD = "ME-thrust-1"
PHONE = ("192.0.2.10", 5000)
HERE = ("127.0.0.1", 5000)
PASSWORD = "owners password 1"
ADMIN = "owners-admin-token"


def _copy(web_db: str, folder: Path) -> str:
    """The shared test database copied, without the decks other tests of this worker saved into it: the keeper's
    "owned beyond my other decks" counts every saved deck, and this module's numbers are its own decks'."""
    db = folder / "owners.db"
    shutil.copy(web_db.removeprefix("sqlite:///"), db)
    with sqlite3.connect(db) as con:
        for table in ("saved_deck_card", "saved_deck_version", "saved_deck"):
            con.execute(f"DELETE FROM {table}")  # noqa: S608 (the names above, not input)
    return f"sqlite:///{db}"


def _hold(collections: Collections, name: str, quantity: int, label: str) -> int:
    """Give a collection `quantity` copies of CARD by an import; its journal id."""
    card = next(c for c in collections.cards.values() if c.id == CARD)
    change = collections.apply_all({name: {h.key: h for h in [Holding(card, quantity=quantity)]}}, label=label)
    found = change[name].import_id
    assert found is not None
    return int(found)


@pytest.fixture(scope="module")
def club(web_db, tmp_path_factory) -> Iterator[tuple[TestClient, dict[str, str], dict[str, int]]]:
    """A club server: players A, B and C with a personal token each; the keeper's "main" holds 5, A's "main" 2 and
    A's "binder" 4 copies; B and C have no collection (C's import is a test's). The import ids of A's binder and the
    keeper's main."""
    url = _copy(web_db, tmp_path_factory.mktemp("owners"))
    store = Store(url)
    accounts = Accounts(store)
    tokens, ids = {}, {}
    keeper = Collections(store)
    ids["keeper main"] = _hold(keeper, "main", 5, "keeper.csv")
    for name in ("A", "B", "C"):
        account = accounts.add(f"Player {name}", PASSWORD, ["player"])
        tokens[name] = accounts.new_token(account, "script")[1]
        if name == "A":
            _hold(keeper.of(account.id), "main", 2, "a-main.csv")
            ids["A binder"] = _hold(keeper.of(account.id), "binder", 4, "a-binder.csv")
    app = create_app(Settings.from_env(db_url=url, admin_token=ADMIN))
    with TestClient(app, client=PHONE) as client:
        client.get("/")
        yield client, tokens, ids


def _as(tokens: dict[str, str], who: str) -> dict[str, str]:
    secret = ADMIN if who == "keeper" else tokens.get(who)
    return {"Authorization": f"Bearer {secret}"} if secret else {}


def _copies(client: TestClient, headers: dict[str, str], collection: str = "main") -> int:
    r = client.get("/api/collection", params={"collection": collection}, headers=headers)
    assert r.status_code == 200, r.text
    return int(r.json()["totals"]["copies"])


def test_each_account_reads_its_own_collections_and_the_keeper_the_keepers(club):
    client, tokens, _ids = club
    a, b, keeper = _as(tokens, "A"), _as(tokens, "B"), _as(tokens, "keeper")
    assert (_copies(client, a), _copies(client, b), _copies(client, keeper), _copies(client, {})) == (2, 0, 5, 0)
    assert client.get("/api/collection", headers=a).json()["collections"] == ["binder", "main"]
    assert client.get("/api/collection", headers=b).json()["collections"] == []
    assert client.get("/api/collection", headers=keeper).json()["collections"] == ["main"]
    assert client.get("/api/collection", headers={}).json()["collections"] == []  # not the keeper's
    assert _copies(client, a, "binder") == 4


def test_the_first_keeper_account_reads_the_keepers_collection_and_a_second_keeper_its_own(club):
    """The collection the keeper held before accounts (the CLI's, owner NULL) is the first keeper account's when it
    signs in (CONTRACTS §9: what an older database holds is the keeper's); a later keeper account has its own."""
    client, _tokens, _ids = club
    accounts = Accounts(Store(client.app.state.deckcheck.settings.db_url))
    first = accounts.add("Keeper One", PASSWORD, ["keeper"])
    second = accounts.add("Keeper Two", PASSWORD, ["keeper"])
    try:
        one = {"Authorization": f"Bearer {accounts.new_token(first, 'k')[1]}"}
        two = {"Authorization": f"Bearer {accounts.new_token(second, 'k')[1]}"}
        assert client.get("/api/collection", headers=one).json()["collections"] == ["main"]
        assert _copies(client, one) == 5
        assert client.get("/api/collection", headers=two).json()["collections"] == []
    finally:
        accounts.remove("Keeper Two")
        accounts.remove("Keeper One")


@pytest.mark.parametrize("who", ["B", "keeper", "anonymous"])
def test_another_accounts_collection_answers_404_as_a_name_of_none_does(club, who):
    client, tokens, _ids = club
    headers = _as(tokens, who)
    for path in ("/api/collection", "/collection", "/collection/export.csv", "/collection/wants.csv",
                 "/api/collection/missing"):
        theirs = client.get(path, params={"collection": "binder"}, headers=headers)
        nobodys = client.get(path, params={"collection": "nobody-has-this"}, headers=headers)
        assert theirs.status_code == nobodys.status_code == 404, (path, theirs.text[:200])
        assert theirs.text.replace("binder", "X") == nobodys.text.replace("nobody-has-this", "X"), path
    assert client.get("/collection/export.csv", params={"collection": "binder"},
                      headers=_as(tokens, "A")).status_code == 200


def test_the_owned_copies_of_a_card_are_the_askers(club):
    client, tokens, _ids = club

    def owned(who: str) -> list[tuple[str, int]]:
        detail = client.get(f"/api/cards/{CARD}", params={"detail": "true"}, headers=_as(tokens, who)).json()
        return sorted((o["collection"], o["quantity"]) for o in detail["owned"])
    assert owned("A") == [("binder", 4), ("main", 2)]
    assert owned("B") == [] and owned("anonymous") == []
    assert owned("keeper") == [("main", 5)]
    page = client.get(f"/cards/{CARD}", headers=_as(tokens, "B")).text
    assert "a-binder" not in page and "binder" not in page


def test_an_undo_of_another_accounts_import_is_404_and_changes_nothing(club):
    client, tokens, ids = club
    csrf = client.cookies[CSRF_COOKIE]
    for who in ("B", "keeper"):
        r = client.post("/collection/undo", data={"csrf_token": csrf, "collection": "binder",
                                                  "import_id": str(ids["A binder"])},
                        headers={**_as(tokens, who), "Origin": "http://testserver"}, follow_redirects=False)
        assert r.status_code == 404, (who, r.status_code, r.text[:300])
    r = client.post("/collection/undo", data={"csrf_token": csrf, "collection": "main",
                                              "import_id": str(ids["keeper main"])},
                    headers={**_as(tokens, "A"), "Origin": "http://testserver"}, follow_redirects=False)
    assert r.status_code == 404, r.text[:300]  # the keeper's import, asked of A's own "main"
    assert _copies(client, _as(tokens, "A"), "binder") == 4 and _copies(client, _as(tokens, "keeper")) == 5


def test_an_import_through_the_page_lands_in_the_importers_collection(club):
    client, tokens, _ids = club
    headers = {**_as(tokens, "C"), "Origin": "http://testserver"}
    csrf = client.cookies[CSRF_COOKIE]
    preview = client.post("/collection/import", data={"csrf_token": csrf, "collection": "main", "mode": "merge"},
                          files={"file": ("b.csv", b"card,quantity\nThrust (1),4\n")}, headers=headers)
    assert preview.status_code == 200, preview.text[:300]
    token = re.search(r'name="token" value="([^"]+)"', preview.text)
    assert token is not None
    done = client.post("/collection/import/confirm", data={"csrf_token": csrf, "token": token.group(1),
                                                           "collection": "main", "mode": "merge", "label": "b.csv"},
                       headers=headers, follow_redirects=False)
    assert done.status_code == 303, done.text[:300]
    assert (_copies(client, _as(tokens, "C")), _copies(client, _as(tokens, "A")),
            _copies(client, _as(tokens, "keeper"))) == (4, 2, 5)


def test_on_an_open_server_another_phone_does_not_read_the_keepers_collection(web_db, tmp_path):
    url = _copy(web_db, tmp_path)
    _hold(Collections(Store(url)), "main", 5, "keeper.csv")
    app = create_app(Settings.from_env(db_url=url, host="0.0.0.0", allowed_hosts="testserver"))
    with TestClient(app, client=PHONE) as phone, TestClient(app, client=HERE) as here:
        assert _copies(here, {}) == 5
        assert _copies(phone, {}) == 0 and phone.get("/api/collection").json()["collections"] == []
        owned = phone.get(f"/api/cards/{CARD}", params={"detail": "true"}).json()["owned"]
        assert owned == []


def test_the_librarys_collections_are_a_persons(web_db, tmp_path):
    """CollectionApp.for_person: an account's own, the keeper's for the keeper; an anonymous visitor has none and
    may make none (nothing changed)."""
    url = _copy(web_db, tmp_path)
    app = CollectionApp(url)
    _hold(app.collections, "main", 5, "keeper.csv")
    someone = Person(account_id=41, name="Someone", roles=frozenset({"player"}))
    assert [h.quantity for h in app.for_person(someone).holdings("main")] == []
    _hold(app.for_person(someone).collections, "main", 1, "someone.csv")
    assert [h.quantity for h in app.for_person(someone).holdings("main")] == [1]
    assert [h.quantity for h in app.holdings("main")] == [5]
    nobody = app.for_person(ANONYMOUS)
    assert nobody.names() == [] and not nobody.holdings(None)
    with pytest.raises(DeckcheckError, match="sign in first"):
        _hold(nobody.collections, "main", 1, "anon.csv")
    assert app.names() == ["main"] and app.for_person(someone).names() == ["main"]


@pytest.fixture(scope="module")
def decks(club) -> tuple[str, str]:
    """Player A's private deck and A's link deck (made through the API with A's token)."""
    client, tokens, _ids = club
    made = []
    for visibility in ("private", "link"):
        r = client.post("/api/decks", json={"name": f"A {visibility}", "decklist": LEGAL, "visibility": visibility},
                        headers={**_as(tokens, "A"), "Origin": "http://testserver",
                                 "X-CSRF-Token": client.cookies[CSRF_COOKIE]})
        assert r.status_code == 201, r.text[:300]
        made.append(str(r.json()["id"]))
    return made[0], made[1]


def _reads(deck: str, other: str) -> list[str]:
    return [f"/api/decks/{deck}", f"/api/decks/{deck}/versions", f"/api/decks/{deck}/stats",
            f"/api/diff?a={deck}&b={other}", f"/diff?a={deck}&b={other}", f"/decks/{deck}", f"/decks/{deck}/edit",
            f"/api/cards?deck={deck}&playable=1", f"/api/cards?deck={deck}&owned=1"]


@pytest.mark.parametrize("who", ["B", "anonymous"])
def test_another_accounts_private_deck_is_404_on_every_route_and_unchanged(club, decks, who):
    """Item 2: every kept-deck route scopes by owner: B (and an anonymous visitor) gets 404 for A's private deck
    (reading it; B changing it too, where the anonymous visitor meets the policy's 403 first), 403 for changing A's
    link deck (which they may read); A's decks stay at version 1."""
    client, tokens, _ids = club
    private, link = decks
    headers = {**_as(tokens, who), "Origin": "http://testserver", "X-CSRF-Token": client.cookies[CSRF_COOKIE]}
    for path in _reads(private, link):
        assert client.get(path, headers=headers).status_code == 404, path
        assert client.get(path, headers=_as(tokens, "A")).status_code == 200, path
    def box(headers: dict[str, str]) -> str:
        found = re.search(r"<textarea[^>]*>([^<]*)</textarea>", client.get(f"/?deck={private}", headers=headers).text)
        assert found is not None
        return found.group(1)
    assert box(headers).strip() == ""  # the check page's form is left empty, not filled with A's list
    assert "Thrust" in box(_as(tokens, "A"))
    changes: list[tuple[str, str, dict[str, object]]] = [
        ("POST", "/changes", {"card": "Thrust", "delta": 1}), ("PUT", "", {"name": "mine now"}),
        ("POST", "/restore", {"version": 1}), ("POST", "/copy", {})]
    for method, tail, body in changes:
        r = client.request(method, f"/api/decks/{private}{tail}", json=body, headers=headers)
        assert r.status_code == (404 if who == "B" else 403), (method, tail, r.status_code)  # anonymous: policy
        if tail != "/copy":
            assert client.request(method, f"/api/decks/{link}{tail}", json=body, headers=headers
                                  ).status_code == 403, (method, tail)
    r = client.post(f"/decks/{private}/edit", data={"csrf_token": client.cookies[CSRF_COOKIE], "card": "Thrust",
                                                    "delta": "1"}, headers=headers)
    assert r.status_code == (404 if who == "B" else 403), r.status_code
    for deck in (private, link):
        assert client.get(f"/api/decks/{deck}", headers=_as(tokens, "A")).json()["version"] == 1
    assert client.get("/api/decks", headers=headers).json() == []


def test_the_builders_owned_copies_are_the_askers_collections(club, decks):
    """The deck page's "owned" search: copies the asker's collections hold beyond their other decks' use — A's 6
    Thrust less the 4 of A's other deck; the keeper's 5 (no deck of the keeper's); none for an anonymous visitor."""
    client, tokens, _ids = club
    _private, link = decks

    def available(who: str) -> set[int]:
        rows = client.get("/api/cards", params={"deck": link, "owned": "1", "q": "Thrust"},
                          headers=_as(tokens, who)).json()["cards"]
        return {r["available"] for r in rows if r["name"].startswith("Thrust")}
    assert (available("A"), available("keeper"), available("anonymous")) == ({2}, {5}, set())
