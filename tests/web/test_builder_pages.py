"""The builder's pages without JavaScript (CONTRACTS §10): start a deck, search, press + on search rows and −
on deck lines (each a form that posts and comes back), each row saying what adding it would do; with htmx the
same post answers the builder's fragment; "My decks" lists it."""
from __future__ import annotations

import html
import re
import shutil

import pytest
from fastapi.testclient import TestClient

from deckcheck.web import create_app

HOST = "http://127.0.0.1"


@pytest.fixture(scope="module")
def keeper(tmp_path_factory, pristine_web_db):
    db = tmp_path_factory.mktemp("builder") / "b.db"
    shutil.copy(pristine_web_db.removeprefix("sqlite:///"), db)
    with TestClient(create_app(db_url=f"sqlite:///{db}"), base_url=HOST, client=("127.0.0.1", 5000)) as client:
        client.get("/")
        yield client


def plus(page: str, card: str) -> dict[str, str]:
    """The fields of the + form of a card's row."""
    for form in re.findall(r"<form[^>]*>(.*?)</form>", page, re.S):
        fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form))
        if fields.get("card") == card and fields.get("delta") == "1":
            return {k: html.unescape(v) for k, v in fields.items()}
    raise AssertionError(f"no + for {card}")


def test_a_deck_built_with_search_and_plus(keeper):
    r = keeper.post("/decks/new", data={"name": "Duncan", "format": "type1e",
                                        "csrf_token": keeper.cookies["deckcheck_csrf"]}, follow_redirects=False)
    assert r.status_code == 303
    edit = r.headers["location"]
    page = keeper.get(edit + "?q=duncan+persona&set=SE").text
    assert "The deck is empty: search for its Persona" in page  # before the issues an empty deck has
    assert page.index("The deck is empty") < page.index("HL-DECK-MIN")
    raven = keeper.post("/decks/new", data={"name": "Group", "format": "raven-stormcrow",
                                            "csrf_token": keeper.cookies["deckcheck_csrf"]}, follow_redirects=True)
    assert "The deck is empty: search for a card, then press +." in raven.text  # a Raven deck has no Persona
    r = keeper.post(edit, data=plus(page, "SE-duncan-macleod-persona"), follow_redirects=True)
    assert r.status_code == 200 and "Duncan MacLeod Persona" in r.text and "version 2" in r.text
    pane = r.text.split('aria-labelledby="deck-title"')[1]  # a rule card data kept from deciding is said once
    assert "<strong>Not legal — 1 rule unverified</strong>" in pane and "HL-DATA-UNKNOWN" not in pane
    assert '<p class="verdict illegal" role="status">' in pane  # coloured as the check page's, its counts one item
    assert re.search(r'</strong> <span class="meta">Pre-Game 1( · Endurance \d+)?</span></p>', pane), pane[:600]
    assert "<code>HL-HAND-ICONS</code> unverified: Hand icons limit not checked: Duncan MacLeod Persona" in pane
    page = keeper.get(edit + "?q=kurgan+persona").text
    assert "HL-PERSONA-COUNT" in page or "HL-OTHER-PERSONA" in page  # what adding another Persona would do
    assert re.search(r'<small class="effect">adding The Kurgan Persona breaks HL-', page)  # in a player's words
    page = keeper.get(edit + "?q=thrust&set=ME").text
    for _ in range(3):
        page = keeper.post(edit, data=plus(page, "ME-thrust-2"), follow_redirects=True).text
    assert re.search(r'<span class="count">3</span> <span class="name">Thrust \(2\)', page)
    fragment = keeper.post(edit, data={**plus(page, "ME-thrust-2"), "delta": "-1"}, headers={"HX-Request": "true"})
    assert fragment.text.startswith('<div id="builder"') and '<span class="count">2</span>' in fragment.text
    decks = keeper.get("/decks").text
    assert "Duncan" in decks and "version" in decks.lower()
    versions = keeper.get(f"/api/decks/{edit.split('/')[2]}/versions").json()
    assert [v["changes"] for v in versions][-2:] == ["+1 Thrust (2)", "\u22121 Thrust (2)"]


def test_the_builder_shows_the_odds_and_the_squares_left_open_and_its_toggles_hold(keeper):
    text = "Format: type1e\nPre-Game:\n1 Connor MacLeod Persona\nEndurance:\n3 Thrust (2) [ME]\n"
    deck = keeper.post("/api/decks", json={"name": "Open", "decklist": text}).json()["id"]
    page = html.unescape(keeper.get(f"/decks/{deck}/edit").text)
    assert "How the deck draws" in page and "No block or dodge covers any square yet" in page
    assert "Middle Center" not in page.split("No attack targets", 1)[1].split(".", 1)[0]  # Thrust targets it
    page = html.unescape(keeper.get(f"/decks/{deck}/edit?q=block&lack=1&playable=1").text)
    results = page.split('aria-label="search results"', 1)[1].split("</ul>", 1)[0]
    rows = re.findall(r'<li class="row[^"]*" tabindex="0" data-card="([^"]+)">(.*?)</li>', results, re.S)
    assert rows and all("open in this deck" in body for _id, body in rows)
    fields = plus(page, rows[0][0])
    assert fields["lack"] == "1" and fields["playable"] == "1"  # a + keeps the toggles
    r = keeper.post(f"/decks/{deck}/edit", data=fields, follow_redirects=False)
    assert r.status_code == 303 and "lack=1" in r.headers["location"] and "playable=1" in r.headers["location"]
    fragment = keeper.post(f"/decks/{deck}/edit", data={**fields, "delta": "-1"}, headers={"HX-Request": "true"})
    assert "How the deck draws" in fragment.text and 'name="lack" value="1" checked' in fragment.text


def test_a_search_rows_copies_field_adds_several_copies_up_to_the_title_max(keeper):
    """The copies field beside a search row's + (without JavaScript: the form posts and the page returns): 4 adds
    4; more than type1e's title max (6), none, a fraction or a huge number is a 400 and the deck is unchanged."""
    deck = keeper.post("/api/decks", json={"name": "Copies", "decklist": "Format: type1e\n"}).json()["id"]
    edit = f"/decks/{deck}/edit"
    page = keeper.get(edit + "?q=thrust&set=ME").text
    assert re.search(r'name="copies" value="1" min="1" max="6"', page)
    fields = plus(page, "ME-thrust-2")
    page = keeper.post(edit, data={**fields, "copies": "4"}, follow_redirects=True).text
    assert re.search(r'<span class="count">4</span> <span class="name">Thrust \(2\)', page)
    for bad in ("7", "0", "-2", "2.5", "x", "1" * 5000, "\u00b2"):
        r = keeper.post(edit, data={**fields, "copies": bad}, follow_redirects=False)
        assert r.status_code == 400 and "the deck was not changed" in r.text, (bad[:10], r.status_code)
    fragment = keeper.post(edit, data={**fields, "copies": "2", "delta": "-1"}, headers={"HX-Request": "true"})
    assert '<span class="count">2</span> <span class="name">Thrust (2)' in fragment.text
    versions = keeper.get(f"/api/decks/{deck}/versions").json()
    assert [v["changes"] for v in versions][1:] == ["+4 Thrust (2)", "\u22122 Thrust (2)"]
