"""Every game compared with `diff`, from the CLI and the web (issue 36): cards added and removed need no statistics,
so a Raven group or a Taktik table is compared as a Highlander deck is; the odds only where the game has them."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from inproc import run_cli

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "examples"
# game -> (deck, its card sheet, a line to take out, the section it leaves)
GAMES = {
    "type2": (EX / "cards" / "type2-my-cards.txt", EX / "cards" / "my-2e-cards.csv", "Example Watcher Pass",
              "Pre-Game"),
    "raven-stormcrow": (EX / "other-games" / "raven-group.txt", EX / "other-games" / "raven-stormcrow-cards.csv",
                        "Chainmail @ Old Marek", "Items"),
    "taktik52": (EX / "other-games" / "taktik52-table.txt", EX / "other-games" / "taktik52-heroes.csv",
                 "King of Spades", "Deck"),
}


def without(path: Path, line: str, folder: Path) -> Path:
    lines = path.read_text(encoding="utf-8").splitlines()
    assert line in lines
    out = folder / f"after-{path.name}"
    out.write_text("\n".join(x for x in lines if x != line) + "\n", encoding="utf-8")
    return out


@pytest.mark.parametrize("fmt", sorted(GAMES))
def test_diff_compares_every_games_decks_from_the_cli(fmt, tmp_path):
    deck, sheet, line, section = GAMES[fmt]
    after = without(deck, line, tmp_path)
    r = run_cli("diff", str(deck), str(after), "--cards", str(sheet), "--json")
    assert r.crash is None and r.code == 0, r.err.decode()
    diff = json.loads(r.out)
    name = line.split(" @ ")[0]
    assert diff["removed"] == [{"section": section, "card": name, "quantity": 1}] and diff["added"] == []
    has_stats = fmt == "type2"
    assert (diff["odds"] != {}) is has_stats and (diff["after"]["stats"] is not None) is has_stats
    text = run_cli("diff", str(deck), str(after), "--cards", str(sheet))
    assert text.code == 0 and f"- 1 {name} ({section})" in text.text and ("square" in text.text) is has_stats


def test_diff_compares_two_saved_taktik_tables_on_the_web(client, csrf):
    deck, _sheet, line, _section = GAMES["taktik52"]
    text = deck.read_text(encoding="utf-8").split("Players:")[0]  # the deck alone: its cards are built in
    ids = []
    for body in (text, text.replace(f"\n{line}\n", "\n")):
        r = client.post("/decks", data={"decklist": body, "csrf_token": csrf}, follow_redirects=False)
        assert r.status_code == 303, r.text
        ids.append(r.headers["location"].rsplit("/", 1)[-1])
    api = client.get("/api/diff", params={"a": ids[0], "b": ids[1]})
    assert api.status_code == 200, api.text
    assert api.json()["removed"] == [{"section": "Deck", "card": "King of Spades", "quantity": 1}]
    assert api.json()["odds"] == {} and api.json()["after"]["stats"] is None
    page = client.get("/diff", params={"a": ids[0], "b": ids[1]})
    assert page.status_code == 200 and "King of Spades" in page.text and "Odds before" not in page.text
