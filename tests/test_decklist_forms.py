"""The decklist grammar end to end on the bundled cards: every example of issue 10, one row each."""
from __future__ import annotations

import pytest

from deckcheck.decklist import parse_text
from deckcheck.decks import build_deck
from deckcheck.formats import get_format


def read(index, text, fmt="type1e"):
    deck, problems = build_deck(parse_text(text), index, get_format(fmt))
    return [(e.card.name, e.quantity, e.section) for e in deck], problems, deck.notices


# decklist text -> (card name, quantity, section) of its one entry
@pytest.mark.parametrize("text,entry", [
    ("upper left block *2", ("Upper Left Block", 2, "Endurance")),
    ("Upper Right Attack x2", ("Upper Right Attack", 2, "Endurance")),
    ("2 Thrust [ME]", ("Thrust (1)", 2, "Endurance")),
    ("Thrust [ME] x2", ("Thrust (1)", 2, "Endurance")),
    ("Thrust x2 [ME]", ("Thrust (1)", 2, "Endurance")),
    ("Thrust [Movie Edition] x2", ("Thrust (1)", 2, "Endurance")),
    ("Thrust x2 [The Movie Edition]", ("Thrust (1)", 2, "Endurance")),
    ("Upper Right Attack (2) x3", ("Upper Right Attack (2)", 3, "Endurance")),
    ("Persona: Duncan MacLeod", ("Duncan MacLeod Persona", 1, "Pre-Game")),
    ("Duncan MacLeod Persona [DC]", ("Duncan MacLeod Persona", 1, "Pre-Game")),
    ("Weapon of Choice: Katana Sword", ("Katana Sword Pre-Game", 1, "Pre-Game")),
    ("Blocks:\n3 Lower Right Block [SE]", ("Lower Right Block", 3, "Endurance")),
    ("Shooting Blade", ("Slan Quince Shooting Blade", 1, "Endurance")),  # a title one card holds
    ("Masters Dodge (Duncan MacLeod)", ("Duncan MacLeod Master's Dodge", 1, "Endurance")),
])
def test_forms_players_write(bundled_index, text, entry):
    entries, problems, _notices = read(bundled_index, text)
    assert problems == [] and entries == [entry]


@pytest.mark.parametrize("text,message", [
    ("Upper Right Attack - 2", '"2 Upper Right Attack" for 2 copies, or "Upper Right Attack (2)" for version 2'),
    ("Upper Right Attack 2", '"2 Upper Right Attack" for 2 copies, or "Upper Right Attack (2)" for version 2'),
    ("Thrust [Movie Editoin]", "unknown set 'Movie Editoin'; closest sets: ME (Movie Edition)"),
    ("Thrust [WC]", "no printing in set WC"),
    ("Conor MacLeod Persna", "start it with # or write it as Name:"),  # a title close to a card
    ("Specials and stuff:", "unknown heading 'Specials and stuff'"),
])
def test_lines_refused_with_what_to_write(bundled_index, text, message):
    _entries, problems, _ = read(bundled_index, text)
    assert message in problems[0].message


def test_the_decks_persona_reads_shared_titles_and_ranks_suggestions(bundled_index):
    text = "Persona: Duncan MacLeod\nEndurance:\n2x Dodge\nBack Away\nDuncan Back Away\n"
    entries, problems, _ = read(bundled_index, text)
    assert ("Duncan MacLeod Dodge", 2, "Endurance") in entries
    assert ("Duncan MacLeod Back Away", 1, "Endurance") in entries
    (p,) = problems
    assert p.line == 5 and p.suggestions[0] == "Duncan MacLeod Back Away"


def test_without_a_persona_shared_titles_list_each_writable_card(bundled_index):
    _entries, problems, _ = read(bundled_index, "2x Dodge\n")
    assert "ambiguous" in problems[0].message and len(problems[0].suggestions) == 14
    for written in problems[0].suggestions:
        assert read(bundled_index, written)[1] == []


def test_type1e_reads_the_first_edition_persona_type2_asks(bundled_index):
    assert read(bundled_index, "Duncan MacLeod Persona\n")[0][0][0] == "Duncan MacLeod Persona"
    _entries, problems, _ = read(bundled_index, "Duncan MacLeod Persona\n", "type2")
    assert set(problems[0].suggestions) >= {"Duncan MacLeod Persona [Connor vs. Duncan]"}
    for written in problems[0].suggestions:
        assert read(bundled_index, written, "type2")[1] == []  # writable exactly where shown


def test_every_error_shows_in_one_round(bundled_index):
    text = "My deck\nAttacks:\nUper Left Atack\nFoo:\nThrust x2\nBlocks:\nLower Rihgt Block\nThrust 3\n"
    entries, problems, notices = read(bundled_index, text)
    assert [p.line for p in problems] == [3, 4, 7, 8]  # line 1 names no card and is close to none: the title
    assert notices == ["line 1 read as the deck's title: 'My deck'"]
    assert entries == [("Thrust", 2, "Endurance")]


def test_side_boards_are_resolved_not_counted(bundled_index):
    text = "Thrust\nSideboard:\n2 Dodge (Duncan MacLeod)\nMaybeboard:\nThrust x3\nConsidering:\nUper Thrust\n"
    entries, problems, notices = read(bundled_index, text)
    assert entries == [("Thrust", 1, "Endurance")]
    assert [p.line for p in problems] == [7]  # resolved, so a typo there still shows
    assert notices == ["2 cards under Sideboard: read, not part of the deck",
                       "3 cards under Maybeboard: read, not part of the deck"]
