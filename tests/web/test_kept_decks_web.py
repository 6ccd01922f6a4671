"""/api/decks (CONTRACTS §10) as strangers meet it: another's deck, huge deltas, a card of another game, a burst
of changes at once, and old saved-deck links that keep working. The shapes: tests/web/test_openapi.py."""
from __future__ import annotations

import threading

import pytest
from fastapi.testclient import TestClient

from deckcheck.web import create_app

from conftest import LEGAL

HOST = "http://127.0.0.1"


@pytest.fixture(scope="module")
def clients(tmp_path_factory, pristine_web_db):
    import shutil
    db = tmp_path_factory.mktemp("kept") / "kept.db"
    shutil.copy(pristine_web_db.removeprefix("sqlite:///"), db)
    app = create_app(db_url=f"sqlite:///{db}")
    with TestClient(app, base_url=HOST, client=("127.0.0.1", 5000)) as keeper, \
            TestClient(app, base_url=HOST, client=("203.0.113.9", 5000)) as stranger:
        yield keeper, stranger


def kept(keeper: TestClient, visibility: str = "link") -> str:
    r = keeper.post("/api/decks", json={"name": "Connor", "decklist": LEGAL, "visibility": visibility})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def test_another_machine_sees_what_a_link_shows_and_changes_nothing(clients):
    keeper, stranger = clients
    private, link = kept(keeper, "private"), kept(keeper)
    for path in (f"/api/decks/{private}", f"/api/decks/{private}/versions", f"/api/decks/{private}/stats",
                 f"/api/diff?a={private}&b={link}", f"/decks/{private}"):
        r = stranger.get(path)
        assert r.status_code == 404, (path, r.status_code)  # as if there were none: ids leak nothing
    none, hidden = stranger.get("/api/decks/AbCdEf99").json(), stranger.get(f"/api/decks/{private}").json()
    assert none == hidden
    assert stranger.get(f"/api/decks/{link}").status_code == 200
    for method, path, body in (("post", f"/api/decks/{link}/changes", {"card": "Thrust", "delta": 1}),
                               ("put", f"/api/decks/{link}", {"name": "mine now"}),
                               ("post", f"/api/decks/{link}/restore", {"version": 1}),
                               ("post", "/api/decks", {"name": "x", "decklist": LEGAL})):
        assert stranger.request(method.upper(), path, json=body).status_code == 403, path
    assert keeper.get(f"/api/decks/{link}").json()["version"] == 1 and stranger.get(
        "/api/decks").json() == []


@pytest.mark.parametrize("body", [
    {"card": "Thrust", "delta": 10 ** 30}, {"card": "Thrust", "delta": -100}, {"card": "Thrust", "delta": 0},
    {"card": "Thrust", "delta": True}, {"card": "Thrust", "delta": 1.5}, {"card": "Thrust", "delta": "1e9"},
    {"card": "2\u2660", "delta": 1}, {"card": "Ace of Spades", "delta": 1},  # Taktik's cards: another game
    {"card": "x" * 100_000, "delta": 1}, {"card": "Thrust\x00", "delta": 1}, {"card": "", "delta": 1},
    {"card": "Thrust", "delta": 1, "section": "Sideboard"}, {"card": "Thrust", "delta": 1, "section": "Players"},
    {"card": "Thrust", "delta": -5}, {"card": ["Thrust"], "delta": 1}, {"delta": 1}, {"card": "Thrust", "extra": 1},
], ids=lambda b: repr(b)[:50])
def test_a_bad_change_is_refused_and_changes_nothing(clients, body):
    keeper, _stranger = clients
    deck = kept(keeper)
    r = keeper.post(f"/api/decks/{deck}/changes", json=body)
    assert r.status_code == 400, r.text[:300]
    assert "error" in r.json()
    after = keeper.get(f"/api/decks/{deck}").json()
    assert (after["version"], after["versions"], after["decklist"]) == (1, 1, keeper.get(
        f"/api/decks/{deck}?version=1").json()["decklist"])


def test_an_unknown_card_gets_the_suggestions_of_its_line(clients):
    keeper, _stranger = clients
    r = keeper.post(f"/api/decks/{kept(keeper)}/changes", json={"card": "Thurst", "delta": 1})
    assert r.status_code == 400 and "Thrust" in r.json()["suggestions"]


def test_a_burst_of_changes_makes_one_version_each(clients):
    """Changes at once take turns: each is a version of its own, none lost, none answered 500."""
    keeper, _stranger = clients
    deck = kept(keeper)
    answers: list[int] = []

    def change() -> None:
        answers.append(keeper.post(f"/api/decks/{deck}/changes", json={"card": "Dodge", "delta": 1}).status_code)
    threads = [threading.Thread(target=change) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert answers == [200] * 12
    versions = keeper.get(f"/api/decks/{deck}/versions").json()
    assert [v["version"] for v in versions] == list(range(1, 14))
    assert all(v["changes"] == "+1 Connor MacLeod Dodge" for v in versions[1:])
    diff = keeper.get(f"/api/diff?a={deck}@1&b={deck}").json()
    assert [(c["card"], c["quantity"]) for c in diff["added"]] == [("Connor MacLeod Dodge", 12)]


@pytest.mark.parametrize("copies", ["7", "100", "9" * 5000, "-1", "0", "1.5", "1e9", "\u0663", "+3", "4\x00"],
                         ids=lambda c: repr(c)[:20])
def test_the_builders_form_refuses_bad_copies_and_another_machines_change(clients, copies):
    """The builder's + form (POST /decks/{id}/edit): copies beyond type1e's title max, huge, negative, not a
    whole number: 400 and nothing changed; another machine's post to a deck it may only read: 403."""
    keeper, stranger = clients
    deck = kept(keeper)
    for client in (keeper, stranger):
        client.get("/")
    form = {"card": "ME-thrust-2", "delta": "1", "copies": copies, "csrf_token": keeper.cookies["deckcheck_csrf"]}
    assert keeper.post(f"/decks/{deck}/edit", data=form, follow_redirects=False).status_code == 400
    theirs = {**form, "copies": "1", "csrf_token": stranger.cookies["deckcheck_csrf"]}
    assert stranger.post(f"/decks/{deck}/edit", data=theirs, follow_redirects=False).status_code == 403
    assert keeper.get(f"/api/decks/{deck}").json()["versions"] == 1
