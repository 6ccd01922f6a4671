"""Card sheets checked like decklists (issue 36): a card's type (and game) is one its game knows, a typo a bad row
with the closest values suggested, at its row, and nothing imported or checked when a row is refused."""
from __future__ import annotations

import pytest

from deckcheck.cardsheet import cards_from_rows
from deckcheck.errors import CardSheetError


def refused(rows: list[dict[str, str]]) -> list[str]:
    with pytest.raises(CardSheetError) as caught:
        cards_from_rows(list(enumerate(rows, start=2)), "mine.csv")
    return [f"{p.row} {p.column} {p.message}" for p in caught.value.problems]


@pytest.mark.parametrize("game, written, meant", [
    ("highlander", "Blokc", "Block"), ("highlander", "Basic Attack", "Attack"),
    ("raven-stormcrow", "Hunterr", "Hunter"), ("raven-stormcrow", "Block", ""), ("taktik52", "Heroe", "Hero"),
])
def test_an_unknown_type_is_a_bad_row_with_the_closest_types(game, written, meant):
    said = refused([{"game": game, "name": "Fine", "type": "Event" if game == "raven-stormcrow" else ""},
                    {"game": game, "name": "Odd Thing", "type": written}])
    assert len(said) == 1 and said[0].startswith("3 type not a card type of")
    assert (f"did you mean {meant}" in said[0]) if meant else "one of" in said[0]


def test_a_known_type_in_any_case_and_the_bundles_other_items_read():
    cards = cards_from_rows([(2, {"name": "A", "type": "block"}), (3, {"name": "B", "type": "Form"}),
                             (4, {"name": "C", "type": "unknown"})], "mine.csv")[0]
    assert [c.type for c in cards] == ["Block", "Form", None]
