"""Text decklists (CONTRACTS.md §2): sections, quantities, sets, comments, repeated lines."""
from __future__ import annotations

import pytest

from deckcheck.decklist import parse_card_text, parse_text
from deckcheck.decks import build_deck
from deckcheck.formats import get_format


@pytest.mark.parametrize("text,readings,set_code", [
    ("3 Upper Left Attack", ((3, "Upper Left Attack"), (1, "3 Upper Left Attack")), None),
    ("2x Back Away (Connor MacLeod)", ((2, "Back Away (Connor MacLeod)"), (1, "2x Back Away (Connor MacLeod)")),
     None),
    ("Lower Center Block x2", ((2, "Lower Center Block"), (1, "Lower Center Block x2")), None),
    ("Katana Sword Pre-Game", ((1, "Katana Sword Pre-Game"),), None),
    ("3 Upper Left Attack (1) [ME]", ((3, "Upper Left Attack (1)"), (1, "3 Upper Left Attack (1)")), "ME"),
    ("10 of Hearts", ((10, "of Hearts"), (1, "10 of Hearts")), None),
])
def test_card_line_readings(text, readings, set_code):
    got, found_set, attach = parse_card_text(text)
    assert got == readings and found_set == set_code and attach is None


@pytest.mark.parametrize("text", ["0 Thrust", "0x Thrust", "Thrust x0"])
def test_zero_quantity_is_a_problem(text):
    assert parse_card_text(text) == "the quantity must be at least 1"
    deck = parse_text("Endurance:\n" + text + "\n")
    assert deck.lines == [] and deck.problems[0].line == 2


def test_sections_format_comments_and_unknown_headers():
    raw = parse_text("# a comment\nFormat: type2\nPre-Game:\n1 Connor MacLeod Persona\n\nDeck:\n3 Thrust\n"
                     "Sideboard:\n2 Thrust\nMain:\nThrust\n", "x.txt")
    assert raw.declared_format == "type2"
    assert [(l.section, l.readings[0]) for l in raw.lines] == [
        ("pre-game", (1, "Connor MacLeod Persona")), ("deck", (3, "Thrust")), ("main", (1, "Thrust"))]
    (problem,) = raw.problems
    assert problem.line == 8 and "Sideboard" in problem.message


def test_attach_and_players_lines():
    raw = parse_text("Items:\nLong Bow @ Ranger Ann\nPlayers:\nAlice: The Fox\nbad line\n")
    assert raw.lines[0].attach == "Ranger Ann" and raw.lines[0].readings[0] == (1, "Long Bow")
    assert [(p.name, p.hero) for p in raw.players] == [("Alice", "The Fox")]
    assert raw.problems[0].line == 5


def test_repeated_lines_add_up_and_sections_by_type(synthetic_index):
    raw = parse_text("Thrust\n2 Thrust\nAlpha Persona\nthrust x3\n")
    deck, problems = build_deck(raw, synthetic_index, get_format("type1e"))
    assert problems == []
    assert [(e.card.name, e.quantity, e.section) for e in deck] == [("Thrust", 6, "Endurance"),
                                                                  ("Alpha Persona", 1, "Pre-Game")]


def test_unknown_name_is_an_input_error_with_suggestions(synthetic_index):
    raw = parse_text("Endurance:\n3 Uper Left Atack\n")
    deck, problems = build_deck(raw, synthetic_index, get_format("type1e"))
    (p,) = problems
    assert (p.line, p.text, p.message) == (2, "3 Uper Left Atack", "unknown card")
    assert "Upper Left Attack" in p.suggestions


def test_section_not_in_format(synthetic_index):
    raw = parse_text("Hunters:\nThrust\n")
    _deck, problems = build_deck(raw, synthetic_index, get_format("type1e"))
    assert "not part of format type1e" in problems[0].message
