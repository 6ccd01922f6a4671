"""Every example deck is checked and its report compared with its golden file (pytest --update-golden)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from deckcheck.library.api import Catalog, check_files

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
GOLDEN = EXAMPLES / "golden"
CARD_SHEETS = {"cards/type2-my-cards.txt": ["examples/cards/my-2e-cards.csv"],
               "other-games/raven-group.txt": ["examples/other-games/raven-stormcrow-cards.csv"],
               "other-games/raven-group-illegal.txt": ["examples/other-games/raven-stormcrow-cards.csv"],
               "other-games/taktik52-table.txt": ["examples/other-games/taktik52-heroes.csv"],
               "other-games/taktik52-table-illegal.txt": ["examples/other-games/taktik52-heroes.csv"]}
DECKS = sorted([str(p.relative_to(EXAMPLES)) for p in (EXAMPLES / "decks").iterdir()]
               + [f"cards/{p.name}" for p in (EXAMPLES / "cards").glob("type*")]
               + [f"other-games/{p.name}" for p in (EXAMPLES / "other-games").glob("*.txt") if "deal" not in p.name])


def golden_path(deck: str) -> Path:
    return GOLDEN / (deck.replace("/", "__") + ".json")


@pytest.mark.parametrize("deck", DECKS)
def test_example_matches_golden(deck, shared_db, update_golden, monkeypatch):
    monkeypatch.chdir(ROOT)
    catalog = Catalog(shared_db, CARD_SHEETS.get(deck, []))
    reports = [r.as_dict() for r in check_files([f"examples/{deck}"], catalog)]
    path = golden_path(deck)
    if update_golden:
        path.write_text(json.dumps(reports, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    assert path.exists(), f"no golden report for {deck}: run pytest --update-golden"
    assert reports == json.loads(path.read_text(encoding="utf-8"))


def test_no_stale_golden_files():
    expected = {golden_path(d).name for d in DECKS}
    assert {p.name for p in GOLDEN.glob("*.json")} == expected | {"tournament.json", "formats.json"}


def test_examples_cover_both_formats_and_verdicts():
    verdicts = set()
    for deck in DECKS:
        for report in json.loads(golden_path(deck).read_text(encoding="utf-8")):
            verdicts.add((report["format"], report["legal"]))
    assert {("type1e", True), ("type1e", False), ("type1e", None), ("type2", True), ("type2", False),
            ("raven-stormcrow", True), ("raven-stormcrow", False), ("taktik52", True), ("taktik52", False)} <= verdicts
