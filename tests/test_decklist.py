"""Text decklists (CONTRACTS.md §2): every quantity form, sets, headings, metadata; one row per form."""
from __future__ import annotations

import pytest

from deckcheck.decklist import CardText, parse_card_text
from deckcheck.games import get_format, parse_text, registry
from deckcheck.decks import build_deck


# text, readings (quantity, name) in the order tried, [SET] as written
@pytest.mark.parametrize("text,readings,set_code", [
    ("3 Upper Left Attack", ((3, "Upper Left Attack"), (1, "3 Upper Left Attack")), None),
    ("2x Back Away (Connor MacLeod)", ((2, "Back Away (Connor MacLeod)"), (1, "2x Back Away (Connor MacLeod)")),
     None),
    ("2X Dodge", ((2, "Dodge"), (1, "2X Dodge")), None),
    ("2 x Dodge", ((2, "Dodge"), (1, "2 x Dodge")), None),
    ("2× Dodge", ((2, "Dodge"), (1, "2× Dodge")), None),
    ("Lower Center Block x2", ((2, "Lower Center Block"), (1, "Lower Center Block x2")), None),
    ("Lower Center Block x 2", ((2, "Lower Center Block"), (1, "Lower Center Block x 2")), None),
    ("Lower Center Block ×2", ((2, "Lower Center Block"),), None),  # (× folds away: no whole-name reading)
    ("Lower Center Block (x2)", ((2, "Lower Center Block"), (1, "Lower Center Block (x2)")), None),
    ("upper left block *2", ((2, "upper left block"),), None),
    ("Katana Sword Pre-Game", ((1, "Katana Sword Pre-Game"),), None),
    ("3 Upper Left Attack (1) [ME]", ((3, "Upper Left Attack (1)"), (1, "3 Upper Left Attack (1)")), "ME"),
    ("2 Thrust [ME]", ((2, "Thrust"), (1, "2 Thrust")), "ME"),
    ("Thrust [ME] x2", ((2, "Thrust"), (1, "Thrust [ME] x2")), "ME"),
    ("Thrust x2 [ME]", ((2, "Thrust"), (1, "Thrust x2")), "ME"),
    ("Thrust [Movie Edition] x2", ((2, "Thrust"), (1, "Thrust [Movie Edition] x2")), "Movie Edition"),
    ("Upper Right Attack - 2", ((2, "Upper Right Attack"), (1, "Upper Right Attack - 2")), None),  # a version 2?
    ("10 of Hearts", ((10, "Hearts"), (1, "10 of Hearts")), None),
    ("  2x   Back    Away  ", ((2, "Back Away"), (1, "2x Back Away")), None),
])
def test_card_line_readings(text, readings, set_code):
    got = parse_card_text(text)
    assert isinstance(got, CardText)
    assert (got.readings, got.set_code, got.attach) == (readings, set_code, None)


@pytest.mark.parametrize("text,message", [
    ("0 Thrust", "at least 1"), ("0x Thrust", "at least 1"), ("Thrust x0", "at least 1"),
    ("2000000 Thrust", "from 1 to 1,000,000"), ("Thrust x99999999999999", "from 1 to 1,000,000"),
    ("9" * 4000 + " Thrust", "from 1 to 1,000,000"),  # a number of thousands of digits, within a line
])
def test_bad_quantities_are_problems(text, message):
    got = parse_card_text(text)
    assert isinstance(got, str) and message in got
    deck = parse_text("Endurance:\n" + text + "\n")
    assert deck.lines == [] and deck.problems[0].line == 2


def test_sections_metadata_comments_and_unknown_headings():
    raw = parse_text("# a comment\nFormat: type2\nName: Connor's Revenge\nAuthor: Ann\nPlayer: Bob\nPre-Game:\n"
                     "1 Connor MacLeod Persona\n\nDeck:\n3 Thrust\nStuff:\n2 Thrust\nMain:\nThrust\n", "x.txt")
    assert (raw.declared_format, raw.name, raw.author, raw.player) == ("type2", "Connor's Revenge", "Ann", "Bob")
    assert [(l.section, l.readings[0]) for l in raw.lines] == [
        ("pre-game", (1, "Connor MacLeod Persona")), ("deck", (3, "Thrust")), (None, (2, "Thrust")),
        ("main", (1, "Thrust"))]
    (problem,) = raw.problems  # the unknown heading, its line only: the card below it is read
    assert problem.line == 11 and "unknown heading 'Stuff'" in problem.message


@pytest.mark.parametrize("heading,section,kind", [
    ("Attacks:", "endurance", "Attack"), ("Basic Attacks:", "endurance", "Attack"),
    ("Blocks:", "endurance", "Block"), ("Defenses:", "endurance", "Dodge"), ("Dodges:", "endurance", "Dodge"),
    ("Guards:", "endurance", "Block"), ("Specials:", "endurance", "Special Attack"),
    ("Special Attacks:", "endurance", "Special Attack"), ("Events:", "endurance", "Event"),
    ("Situations:", "endurance", "Situation"), ("Edges:", "endurance", "Edge"),
    ("Locations:", "endurance", "Location"), ("Objects:", "endurance", "Object"), ("Plots:", "endurance", "Plot"),
    ("Allies:", "endurance", None), ("Illusions:", "endurance", "Illusion"),
    ("Persona:", "pre-game", "Persona"), ("Personas:", "pre-game", "Persona"),
    ("Weapon of Choice:", "pre-game", "Weapon of Choice"), ("Weapons of Choice:", "pre-game", "Weapon of Choice"),
    ("Weapon:", "pre-game", "Weapon of Choice"), ("Watcher:", "pre-game", "Watcher"),
    ("Premium:", "pre-game", "Premium"), ("Quickenings:", "pre-game", "Quickening"),
    ("Crystal:", "pre-game", "Crystal"),
])
def test_forum_headings_open_their_section(heading, section, kind):
    raw = parse_text(f"{heading}\nThrust\n{heading} Some Card\n")
    assert raw.problems == []
    plain, on_heading = raw.lines
    assert plain.section == section and plain.kinds is None  # cards below: where their type belongs
    assert on_heading.section == section and on_heading.readings == ((1, "Some Card"),)
    kinds = registry().grammar.headings[heading.rstrip(":").lower()][1]
    assert kinds is None if kind is None else (kinds is not None and kind in kinds)
    assert on_heading.kinds == kinds


def test_side_boards_are_read_apart():
    raw = parse_text("Thrust\nSideboard:\n2 Thrust\nMaybeboard:\nDodge\nConsidering:\n1 Dodge\n")
    assert [l.section for l in raw.lines] == [None, "sideboard", "maybeboard", "considering"]


def test_attach_and_players_lines():
    raw = parse_text("Items:\nLong Bow @ Ranger Ann\nPlayers:\nAlice: The Fox\nPlayer 2: Hero\nbad line\nDeck:\n"
                     "Ace of Spades\n")
    assert raw.lines[0].attach == "Ranger Ann" and raw.lines[0].readings[0] == (1, "Long Bow")
    assert [(p.name, p.hero) for p in raw.players] == [("Alice", "The Fox"), ("Player 2", "Hero")]
    assert raw.problems[0].line == 6 and raw.lines[1].section == "deck"


def test_lines_too_long_are_refused_unread():
    raw = parse_text("Thrust\n" + "x" * 20_000 + "\n")
    assert raw.problems[0].line == 2 and "longer than" in raw.problems[0].message


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
