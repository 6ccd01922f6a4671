"""The registered list of a deck (deckcheck.registered): the cleaned text, its fingerprint, and a deck check's
differences, as tables."""
from __future__ import annotations

import pytest

from deckcheck.registered import DeckCheckError, Line, Registered, compare_counts, count_value, fingerprint

LIST = Registered((Line("Pre-Game", "Connor MacLeod Persona", 1), Line("Endurance", "Thrust", 3),
                   Line("Endurance", "Dodge", 2)), (), ("Pre-Game", "Endurance"))


def test_cleaned_text_and_fingerprint():
    assert LIST.text() == "Pre-Game:\n1 Connor MacLeod Persona\nEndurance:\n3 Thrust\n2 Dodge\n"
    assert LIST.fingerprint == fingerprint(LIST.text()) and len(LIST.fingerprint) == 8
    unread = Registered(LIST.lines, ("line 4: 3 Uper Left Attack",), LIST.sections)
    assert unread.text().endswith("# not read: line 4: 3 Uper Left Attack\n")
    assert unread.fingerprint != LIST.fingerprint  # a line not read is part of what was registered
    assert Registered.from_dict(LIST.as_dict()) == LIST
    assert Registered.from_dict(None) == Registered(())


@pytest.mark.parametrize("counted, extra, lines", [
    ({"Connor MacLeod Persona": 1, "Thrust": 3, "Dodge": 2}, {}, []),
    ({"Connor MacLeod Persona": 1, "Thrust": 2, "Dodge": 2}, {},
     ["Thrust: registered 3, counted 2", "Endurance 4 counted, 5 registered"]),
    ({"Connor MacLeod Persona": 1, "Thrust": 3, "Dodge": 2, "Block": 1}, {"Block": "Endurance"},
     ["Block: not registered, counted 1", "Endurance 6 counted, 5 registered"]),
    ({"Connor MacLeod Persona": 1, "Thrust": 4, "Dodge": 1}, {},  # the same total, two differences
     ["Thrust: registered 3, counted 4", "Dodge: registered 2, counted 1"]),
    ({"Thrust": 3, "Dodge": 2}, {},  # a card not named counts 0
     ["Connor MacLeod Persona: registered 1, counted 0", "Pre-Game 0 counted, 1 registered"]),
])
def test_differences_are_named(counted, extra, lines):
    result = compare_counts(LIST, counted, extra)
    assert result.lines() == lines and result.matches == (not result.differences)


def test_one_name_in_two_sections_is_compared_in_total():
    both = Registered((Line("Pre-Game", "Ally", 1), Line("Endurance", "Ally", 2)), (), ("Pre-Game", "Endurance"))
    assert compare_counts(both, {"Ally": 3}, {}).lines() == []
    short = compare_counts(both, {"Ally": 2}, {})
    assert short.lines() == ["Ally: registered 3, counted 2", "Endurance 1 counted, 2 registered"]


@pytest.mark.parametrize("value, expected", [(0, 0), (3, 3), ("12", 12), (" 7 ", 7), (999, 999)])
def test_counts_that_are_numbers(value, expected):
    assert count_value(value, "Thrust") == expected


@pytest.mark.parametrize("value", [-1, 1000, "", "x", "1.5", 2.0, True, None, [], "٣", "²", "1e3"])
def test_counts_that_are_not(value):
    with pytest.raises(DeckCheckError, match="Thrust"):
        count_value(value, "Thrust")
