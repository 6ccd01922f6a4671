"""`GET /api/cards?deck=ID&playable=1` (CONTRACTS §10) against the rules engine: for sample decks every card it
leaves out adds an error when added, every card it keeps does not; `&owned=1` counts what the collections hold
beyond the person's other decks."""
from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from deckcheck.check import validate
from deckcheck.decks import Deck
from deckcheck.library.api import CollectionApp
from deckcheck.library.decks import DeckBook
from deckcheck.library.people import KEEPER
from deckcheck.web import create_app

ROOT = Path(__file__).resolve().parents[2]
DECKS = ["type1e-connor-legal.txt", "type1e-kurgan-illegal.txt"]


@pytest.fixture(scope="module")
def served(tmp_path_factory, pristine_web_db):
    db = tmp_path_factory.mktemp("playable") / "p.db"
    shutil.copy(pristine_web_db.removeprefix("sqlite:///"), db)
    url = f"sqlite:///{db}"
    sheet = tmp_path_factory.mktemp("sheet") / "held.csv"
    sheet.write_text("card,set,quantity\nThrust (2),ME,50\nConnor MacLeod Dodge,,2\n", encoding="utf-8")
    CollectionApp(url).import_sheet(sheet, "main", "merge", False, False)
    with TestClient(create_app(db_url=url), base_url="http://127.0.0.1", client=("127.0.0.1", 5000)) as client:
        yield url, client


def errors(deck: Deck, fmt) -> Counter:
    return Counter(i.rule for i in validate(deck, fmt).issues if i.severity == "error")


@pytest.mark.parametrize("name", DECKS)
def test_playable_keeps_exactly_what_the_rules_let_the_deck_take(served, name):
    url, client = served
    text = (ROOT / "examples/decks" / name).read_text(encoding="utf-8")
    deck_id = client.post("/api/decks", json={"name": name, "decklist": text}).json()["id"]
    kept: dict[str, dict] = {}
    for offset in range(0, 2000, 500):
        page = client.get(f"/api/cards?deck={deck_id}&playable=1&limit=500&offset={offset}").json()
        kept.update({row["id"]: row for row in page["cards"]})
    app = CollectionApp(url)
    deck, fmt = DeckBook(app.catalog, app.collections).deck_at(KEEPER, deck_id)
    base = errors(deck, fmt)
    entries = [(e.card, e.section, e.quantity) for e in deck.entries]
    left_out = 0
    for card in app.catalog.cards(fmt.game):
        after = errors(Deck.from_entries(entries + [(card, fmt.section_of(None, card) or "", 1)]), fmt)
        adds = any(n > base.get(rule, 0) for rule, n in after.items())
        assert adds == (card.id not in kept), (card.id, after - base)
        left_out += adds
    assert kept and left_out  # both kinds met: another Persona's cards are left out
    assert all(row["adds"] == [] for row in kept.values())
    assert any(row["unverified"] for row in kept.values())  # unknown data keeps a card in, marked


def test_owned_counts_what_the_other_decks_leave(served):
    url, client = served
    text = (ROOT / "examples/decks/type1e-connor-legal.txt").read_text(encoding="utf-8")  # 4 Thrust (2)
    client.post("/api/decks", json={"name": "other", "decklist": text})
    mine = client.post("/api/decks", json={"name": "this", "decklist": text}).json()["id"]
    rows = client.get(f"/api/cards?deck={mine}&owned=1&q=thrust").json()["cards"]
    app = CollectionApp(url)
    used = sum(c.quantity for d in app.collections.kept.listing(None) if d.id != mine for c in d.cards
               if app.collections.cards[c.card_id].card_key == app.collections.cards["ME-thrust-2"].card_key)
    assert used >= 4
    # the printings of one card as the rules see it share what is held; nothing else is held
    assert rows and {r["available"] for r in rows} == {50 - used} and all("Thrust" in r["name"] for r in rows)
    assert client.get("/api/cards?deck=AbCdEf99&playable=1").status_code == 404
