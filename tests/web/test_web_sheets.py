"""A card sheet brought to a check on the web (issue 36): the API's `cards` part for one check, the check page's
Card sheet field kept for the browser's session (never the database's), a card sheet sent as the decklist."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHEET = (ROOT / "examples" / "cards" / "my-2e-cards.csv").read_bytes()
DECK = (ROOT / "examples" / "cards" / "type2-my-cards.txt").read_text()
RAVEN_SHEET = (ROOT / "examples" / "other-games" / "raven-stormcrow-cards.csv").read_bytes()
RAVEN = (ROOT / "examples" / "other-games" / "raven-group.txt").read_text()
TAKTIK_SHEET = (ROOT / "examples" / "other-games" / "taktik52-heroes.csv").read_bytes()
TAKTIK = (ROOT / "examples" / "other-games" / "taktik52-table.txt").read_text()  # its cards built in, its Heroes not
N_CARDS = SHEET.decode().count("\n") - 1


def rules_of(report: dict) -> set[str]:
    return {i["rule"] for i in report["issues"]}


def test_the_api_checks_against_a_card_sheet_part_and_keeps_nothing(client):
    plain = client.post("/api/check", data={"decklist": DECK}).json()
    assert plain["input_errors"] and plain["legal"] is None
    assert any("no 2nd-edition card list is bundled" in n for n in plain["notices"])
    r = client.post("/api/check", data={"decklist": DECK}, files={"cards": ("my-2e-cards.csv", SHEET)})
    assert r.status_code == 200, r.text
    report = r.json()
    assert report["input_errors"] == [] and rules_of(report) >= {"HL2-GEMS", "HL-MASTER"}
    assert client.post("/api/check", data={"decklist": DECK}).json()["input_errors"]  # stored nowhere


def test_a_bad_card_sheet_part_is_refused_naming_its_row(client):
    bad = b"name,type,restriction\nOdd Thing,Blokc,\nOther,Block,many\n"
    r = client.post("/api/check", data={"decklist": DECK}, files={"cards": ("mine.csv", bad)})
    assert r.status_code == 400
    error = r.json()["error"]
    assert "mine.csv" in error and "/tmp" not in error and "no deck was checked with it" in error
    assert "row 2, column 'type', value 'Blokc': not a card type of Highlander: did you mean Block?" in error
    assert "row 3, column 'restriction'" in error


def test_the_page_keeps_the_sheet_for_the_session_and_forgets_it(app, client):
    from fastapi.testclient import TestClient
    page = client.post("/check", data={"decklist": DECK}, files={"cards": ("my-2e-cards.csv", SHEET)})
    assert f"Using your sheet my-2e-cards.csv: {N_CARDS} cards" in page.text
    assert "HL2-GEMS" in page.text and "unknown card" not in page.text
    again = client.post("/check", data={"decklist": DECK})  # the cookie names the kept sheet
    assert "Using your sheet" in again.text and "HL2-GEMS" in again.text
    with TestClient(app) as other:  # another browser
        assert "Using your sheet" not in other.post("/check", data={"decklist": DECK}).text
    gone = client.post("/check", data={"decklist": DECK, "forget_sheet": "1"})
    assert "Using your sheet" not in gone.text and "unknown card" in gone.text
    assert "Using your sheet" not in client.post("/check", data={"decklist": DECK}).text


def test_a_card_sheet_sent_as_the_decklist_is_said_so(client):
    api = client.post("/api/check", files={"file": ("my-2e-cards.csv", SHEET)}).json()
    assert "is a card sheet" in api["input_errors"][0]["message"]
    page = client.post("/check", files={"file": ("my-2e-cards.csv", SHEET)})
    assert "my-2e-cards.csv is a card sheet, not a decklist" in page.text
    assert "Using your sheet my-2e-cards.csv" in page.text
    client.post("/check", data={"decklist": "", "forget_sheet": "1"})


@pytest.mark.parametrize("text, sheet, fmt", [(DECK, SHEET, "2nd-edition"),
                                              (RAVEN, RAVEN_SHEET, "Raven and the Stormcrow"),
                                              (TAKTIK, TAKTIK_SHEET, "Hero")])
def test_unknown_cards_name_the_missing_card_list_once(client, text, sheet, fmt):
    report = client.post("/api/check", data={"decklist": text}).json()
    said = [n for n in report["notices"] if f"no {fmt} card list is bundled" in n]
    assert len(said) == 1 and len(report["input_errors"]) > 1
    with_sheet = client.post("/api/check", data={"decklist": text}, files={"cards": ("s.csv", sheet)}).json()
    assert not any("card list is bundled" in n for n in with_sheet["notices"])


def test_type2_knows_how_many_2nd_edition_cards_the_bundle_holds():
    """The notice waits for more 2nd-edition cards than the bundle's sample: the number must follow the bundle."""
    from deckcheck.games import get_format
    from deckcheck.library.api import BundledCards
    fmt = get_format("type2")
    assert fmt.own_card is not None
    assert sum(1 for c in BundledCards().cards() if fmt.own_card(c)) == fmt.bundled_own
