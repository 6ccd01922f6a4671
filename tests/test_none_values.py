"""One way to write each value (issue 32 item 3): `none`, `-`, `none printed` and an empty Restriction cell read
alike in a card sheet, the web's forms and the API, and `cards show` and the pages print `none`."""
from __future__ import annotations

import pytest
from inproc import run_cli

from deckcheck.cardsheet import cards_from_rows
from deckcheck.errors import DeckcheckError
from deckcheck.formats import parse_whole


@pytest.mark.parametrize("cell", ["none", "-", "None printed", " NONE ", ""])
def test_a_card_sheet_reads_every_way_of_writing_no_restriction_number_as_none(cell):
    cards, _notices = cards_from_rows([(2, {"name": "X", "type": "Attack", "restriction": cell,
                                             "hand_icons": cell})], "cards.csv")
    assert (cards[0].restriction, cards[0].hand_icons) == (0, 0)


def test_words_that_are_no_number_are_not_a_whole_number_never_too_large():
    with pytest.raises(DeckcheckError, match="not a whole number"):
        parse_whole("none printed at all")
    with pytest.raises(DeckcheckError, match="too large"):
        parse_whole("12345678901")


@pytest.mark.parametrize("value", ["none", "-", "none printed"])
def test_the_api_and_the_card_form_read_none_alike(tmp_path, web_db, value):
    import shutil

    from fastapi.testclient import TestClient

    from deckcheck.web import create_app
    db = tmp_path / "home.db"
    shutil.copy(web_db.removeprefix("sqlite:///"), db)
    with TestClient(create_app(db_url=f"sqlite:///{db}")) as client:
        client.get("/")
        card = "ME-upper-left-attack-1"
        r = client.post(f"/api/cards/{card}/facts", json={"by": "Ann", "values": {"restriction": value}})
        assert r.status_code == 200 and r.json()["applied"][0]["new"] == "none"
        other = "ME-upper-center-attack-1"
        r = client.post(f"/cards/{other}/facts", data={"csrf_token": client.cookies["deckcheck_csrf"],
                                                        "facts_by": "Ann", "f0.id": other, "f0.restriction": value})
        assert r.status_code == 200 and "Saved." in r.text
        assert client.get(f"/api/cards/{other}").json()["restriction"] == ""
        assert "none printed" not in client.get(f"/cards/{other}").text


@pytest.mark.parametrize("value", ["", "  "])
def test_the_api_reads_an_empty_restriction_as_a_card_sheet_does_none(tmp_path, web_db, value):
    """§1: an empty Restriction cell means not restricted; the API reads its values as a sheet's cells (the forms
    offer "none printed", their empty choice being "not sure": no answer)."""
    import shutil

    from fastapi.testclient import TestClient

    from deckcheck.web import create_app
    db = tmp_path / "home.db"
    shutil.copy(web_db.removeprefix("sqlite:///"), db)
    with TestClient(create_app(db_url=f"sqlite:///{db}")) as client:
        card = "ME-upper-left-attack-1"
        r = client.post(f"/api/cards/{card}/facts", json={"by": "Ann", "values": {"restriction": value}})
        assert r.status_code == 200 and r.json()["applied"][0]["new"] == "none", r.text
        assert client.get(f"/api/cards/{card}").json()["restriction"] == ""


def test_cards_show_prints_none_as_the_pages_do(cli_env, monkeypatch, tmp_path):
    monkeypatch.setenv("COLUMNS", "200")
    sheet = tmp_path / "zed.csv"
    sheet.write_text("id,name,set,type,restriction\nZ-1,Zed Strike,ME,Attack,-\nZ-2,Zed Strike,SE,Attack,none\n",
                     encoding="utf-8")
    table = run_cli("cards", "show", "Zed Strike", "--cards", str(sheet)).text
    rows = [line.split("\t") for line in table.splitlines() if line.startswith("Z-")]  # a pipe: tab-separated
    assert len(rows) == 2 and all(row[4] == "none" for row in rows), table
    panel = run_cli("cards", "show", "Z-1", "--cards", str(sheet)).text
    assert "Restriction" in panel and "none" in panel.split("Restriction", 1)[1].splitlines()[0]
