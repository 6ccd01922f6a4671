"""The card sheet (CONTRACTS.md §1) parsed into Cards and back: unknown vs none, modifiers, bad cells."""
from __future__ import annotations

import pytest

from deckcheck import grid
from deckcheck.cards import Card
from deckcheck.cardsheet import card_from_row, card_to_row, cards_from_rows, derive_title
from deckcheck.errors import CardSheetError


def card_of(values: dict[str, str]) -> Card:
    """The card of one sheet row that must be valid."""
    card = card_from_row(values)
    assert card is not None
    return card


def test_only_name_is_required_and_empties_mean_what_the_contract_says():
    card = card_of({"name": "Connor MacLeod Back Away", "immortal": "Connor MacLeod"})
    assert (card.title, card.game, card.edition, card.type) == ("Back Away", "highlander", 1, None)
    assert (card.restriction, card.reserved, card.hand_icons, card.gem_master, card.grid) == (0, False, 0, 0, None)
    assert card.id == "connor-macleod-back-away"


def test_persona_gems_empty_mean_unknown():
    card = card_of({"name": "X Persona", "type": "persona", "immortal": "X", "gem_master": "4"})
    assert card.type == "Persona" and card.gem_master == 4 and card.gem_agility is None


def test_unknown_cells():
    card = card_of({"name": "A", "restriction": "unknown", "reserved": "?", "hand_icons": "unknown"})
    assert (card.restriction, card.reserved, card.hand_icons) == (None, None, None)


@pytest.mark.parametrize("name,immortal,weapon,title,version", [
    ("Upper Left Attack (2)", None, None, "Upper Left Attack", "2"),
    ("Back Away (Kurgan)", "Kurgan", None, "Back Away", None),
    ("Katana Sword Quality Blade", None, "Katana Sword", "Quality Blade", None),
    ("Thrust (Version 3)", None, None, "Thrust", "3"),
])
def test_derive_title(name, immortal, weapon, title, version):
    assert derive_title(name, immortal, weapon) == (title, version)


def test_grid_and_modifiers():
    card = card_of({"name": "B", "grid": "ul, MC", "deckbuilding": "deck_min=40; grants=Watcher;woc_max=2"})
    assert card.grid == grid.BIT["UL"] | grid.BIT["MC"]
    assert (card.modifiers.deck_min, card.modifiers.woc_max, card.modifiers.grants) == (40, 2, {"Watcher"})


def test_every_bad_cell_is_named_with_row_column_value():
    rows = [(2, {"name": "Good"}), (3, {"name": "Bad", "grid": "XX", "deckbuilding": "fly=1"}),
            (4, {"name": "", "edition": "7"}), (5, {"name": "Good"})]
    with pytest.raises(CardSheetError) as exc:
        cards_from_rows(rows, "sheet.csv")
    problems = [(p.row, p.column, p.value) for p in exc.value.problems]
    assert problems == [(3, "grid", "XX"), (3, "deckbuilding", "fly=1"), (4, "name", ""), (4, "edition", "7"),
                        (5, "id", "good")]
    assert "unknown deck-building modifier 'fly'" in str(exc.value)


@pytest.mark.parametrize("value", ["woc_max=\u00b2", "deck_min=\u0664\u0660", "deck_min=-1", "deck_min="])
def test_a_modifier_number_that_is_not_plain_digits_is_a_bad_cell(value):
    """A superscript two is a digit to str.isdigit() but not to int(): a bad cell, never a traceback."""
    with pytest.raises(CardSheetError) as exc:
        cards_from_rows([(2, {"name": "Odd", "deckbuilding": value})], "sheet.csv")
    assert [(p.row, p.column, p.value) for p in exc.value.problems] == [(2, "deckbuilding", value)]
    assert "needs a whole number" in str(exc.value)


def test_skip_bad_keeps_the_good_rows():
    cards, problems = cards_from_rows([(2, {"name": "A"}), (3, {"name": "B", "basic": "maybe"})], "s", skip_bad=True)
    assert [c.name for c in cards] == ["A"] and problems[0].row == 3


def test_row_round_trip_is_exact(bundled):
    for card in bundled:
        again = card_from_row(card_to_row(card))
        assert again == card and again.rules_key == card.rules_key, card.id


def test_a_column_of_one_typo_is_suggested_for_once(monkeypatch):
    """Issue 36's review (a 200,000-row preview): the closest types cost several times the reading of a row, and a
    long sheet's bad rows are mostly one typo again and again; it is asked once, and each row says the same."""
    import deckcheck.cardsheet as cardsheet
    calls = []

    def counted(text, values, n):
        calls.append(text)
        return closest(text, values, n)
    closest = cardsheet.closest_names
    monkeypatch.setattr(cardsheet, "closest_names", counted)
    cardsheet._one_of_these.cache_clear()
    rows = [(n, {"game": "raven-stormcrow", "id": f"RS-B-{n}", "name": f"Bad {n}", "type": "Huntr"})
            for n in range(2, 2002)]
    found, problems = cards_from_rows(rows, "t.csv", skip_bad=True)
    assert found == [] and len(problems) == 2000 and calls == ["Huntr"]
    assert {p.message for p in problems} == {"not a card type of raven-stormcrow: did you mean Hunter?"}
