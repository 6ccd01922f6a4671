"""A server on the venue's Wi-Fi with no set-up (issue 30, item 1; CONTRACTS §9): bound to every address, no
accounts, no admin token. Another phone (a request from another machine's address, given to the ASGI test client;
never real traffic) checks decks, browses and submits through a desk link, and changes nothing else: 403 saying how
to get an account, a readable page for pages and {"error"} for the API. The machine itself is the keeper."""
from __future__ import annotations

import re
import shutil
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from deckcheck.web import create_app
from deckcheck.web.security import CSRF_COOKIE
from deckcheck.web.settings import Settings

from conftest import LEGAL

CARD = "ME-upper-left-attack-1"
PHONE = ("192.0.2.10", 5000)
HERE = ("127.0.0.1", 5000)
SHEET = ("binder.csv", b"card,quantity\nThrust,2\n")


@pytest.fixture(scope="module")
def venue(web_db, tmp_path_factory):
    db = tmp_path_factory.mktemp("venue") / "venue.db"
    shutil.copy(web_db.removeprefix("sqlite:///"), db)
    return create_app(Settings.from_env(db_url=f"sqlite:///{db}", host="0.0.0.0", allowed_hosts="testserver"))


def client_at(app, address: tuple[str, int]) -> Iterator[TestClient]:
    with TestClient(app, client=address) as client:
        client.get("/")
        yield client


@pytest.fixture()
def phone(venue):
    yield from client_at(venue, PHONE)


@pytest.fixture()
def keeper(venue):
    yield from client_at(venue, HERE)


def form(client: TestClient, **fields: str) -> dict[str, str]:
    return {"csrf_token": client.cookies[CSRF_COOKIE], **fields}


def state(client: TestClient) -> tuple[object, ...]:
    """What the refused calls would change: the collection, the card's facts, the saved decks' count."""
    return (client.get("/api/collection").json(), client.get(f"/api/cards/{CARD}").json(),
            client.get("/collection").text.count("saved deck"))


def test_another_phone_checks_browses_and_submits_through_a_desk_link(phone, keeper):
    assert phone.post("/api/check", json={"decklist": LEGAL}).json()["legal"] is True
    assert phone.post("/check", data={"decklist": LEGAL}).status_code == 200
    assert phone.get("/api/cards", params={"q": "thrust"}).json()["total"] > 0
    event = keeper.post("/api/events", json={"name": "Venue Open", "format": "type1e"})  # the desk, at the machine
    assert event.status_code == 201, event.text
    r = phone.post(f"/api/events/{event.json()['id']}/decks", json={"player": "Ann", "decklist": LEGAL})
    assert r.status_code == 201, r.text
    page = phone.post(f"/desk/{event.json()['id']}", data=form(phone, player="Bea", decklist=LEGAL))
    assert page.status_code == 200 and [h.status_code for h in page.history] == [303], page.text[:300]
    assert 'id="desk-received"' in page.text  # the deck's private page, after the redirect


def test_another_phone_changes_nothing_of_the_keepers(phone, keeper):
    before = state(keeper)
    preview = keeper.post("/collection/import", data=form(keeper, mode="merge"), files={"file": SHEET})
    token = re.search(r'name="token" value="([^"]+)"', preview.text)
    assert token is not None  # the keeper's own preview, which the phone tries to confirm
    tries = {
        "import": phone.post("/collection/import", data=form(phone, mode="merge"), files={"file": SHEET}),
        "confirm": phone.post("/collection/import/confirm", data=form(phone, token=token.group(1), mode="merge")),
        "undo": phone.post("/collection/undo", data=form(phone)),
        "save deck": phone.post("/decks", data=form(phone, decklist=LEGAL)),
        "fact form": phone.post(f"/cards/{CARD}/facts", data=form(phone, facts_by="Phone", **{
            "f0.id": CARD, "f0.restriction": "1"})),
        "fact api": phone.post(f"/api/cards/{CARD}/facts", json={"by": "Phone", "values": {"restriction": "1"}}),
        "event api": phone.post("/api/events", json={"name": "Mine", "format": "type1e"}),
        "event page": phone.post("/desk", data=form(phone, name="Mine", format="type1e")),
    }
    assert {k: r.status_code for k, r in tries.items()} == dict.fromkeys(tries, 403)
    for name, r in tries.items():
        if "api" in name:
            assert "account" in r.json()["error"], r.text
        else:
            assert r.headers["content-type"].startswith("text/html") and "ask the server" in r.text, name
            assert "<h1>" in r.text and "/signin" in r.text
    assert state(keeper) == before


def test_the_machine_itself_is_the_keeper(keeper):
    r = keeper.post(f"/api/cards/{CARD}/facts", json={"by": "Keeper", "values": {"hand_icons": "1"}})
    assert r.status_code == 200 and r.json()["applied"], r.text
    r = keeper.post("/collection/import", data=form(keeper, mode="merge"), files={"file": SHEET})
    assert r.status_code == 200 and 'name="token"' in r.text


def test_the_workers_of_a_server_know_where_it_is_bound():
    """`serve --workers N` hands its settings to each worker through the environment: the address too, which says
    whether other machines may change anything."""
    settings = Settings.from_env(host="0.0.0.0")
    env = {k: v for k, v in settings.as_env().items() if v is not None}
    assert Settings.from_env(env).host == "0.0.0.0"
