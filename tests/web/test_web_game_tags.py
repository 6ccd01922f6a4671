"""Game-neutral card tags (issue 36): a Raven card found in search is not tagged with a Highlander edition."""
from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from inproc import run_cli

ROOT = Path(__file__).resolve().parents[2]


def test_search_tags_an_edition_only_on_a_game_that_has_editions(tmp_path):
    from deckcheck.web import create_app
    url = f"sqlite:///{tmp_path / 'cards.db'}"
    sheet = ROOT / "examples" / "other-games" / "raven-stormcrow-cards.csv"
    assert run_cli("cards", "import", str(sheet), "--db", url).code == 0
    with TestClient(create_app(db_url=url)) as client:
        raven = client.get("/cards", params={"q": "Ranger Ann", "game": "raven-stormcrow"}).text
        highlander = client.get("/cards", params={"q": "Upper Left Attack"}).text
    assert "Ranger Ann" in raven and "The Raven and the Stormcrow</span>" in raven and "1E" not in raven
    assert "set unknown" not in raven  # the game has no sets
    assert "· 1E</span>" in highlander
