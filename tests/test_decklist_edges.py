"""The decklist parser (CONTRACTS.md §2, revision 3 included) at the edges the mutation runner found unpinned
(scripts/mutation.py over deckcheck.decklist): each test names the clause it holds to, at its limit and one past."""
from __future__ import annotations

import pytest

from deckcheck.decklist import (MAX_QUANTITY, CardText, _is_separator, known_sections, parse_card_text,
                                parse_text)


def test_a_line_keeps_what_was_written_and_what_was_read():
    """A card line's text is the line as written (bullet and all: what a message quotes); what it was read from is
    kept apart (what a suggestion rewrites). A refused line quotes the line as written too."""
    deck = parse_text("- 3 Thrust // staple\n- 0 Thrust\n")
    (line,) = deck.lines
    assert (line.text, line.bare) == ("- 3 Thrust // staple", "3 Thrust")
    (problem,) = deck.problems
    assert (problem.line, problem.text, problem.message) == (2, "- 0 Thrust", "the quantity must be at least 1")


@pytest.mark.parametrize("text,written", [("3 Thrust", True), ("Thrust x3", True), ("Thrust", False),
                                          ("3x: Thrust", True), ("Thrust [ME]", False)])
def test_whether_a_quantity_was_written(text, written):
    (line,) = parse_text(f"1 Thrust\n{text}\n").lines[1:]
    assert line.quantity_written is written


def test_a_table_row_has_its_quantity_and_set_from_its_cells():
    deck = parse_text("Qty,Card,Set\n3,Thrust,ME\n,Dodge,\n2,Thrust [AT],\n")
    assert [(l.readings, l.set_code, l.quantity_written) for l in deck.lines] == [
        (((3, "Thrust"),), "ME", True), (((1, "Dodge"),), None, True), (((2, "Thrust"),), "AT", True)]


@pytest.mark.parametrize("quantity,result", [(1, ((1, "Thrust"),)), (2, ((2, "Thrust"),)),
                                             (0, "the quantity must be at least 1")])
def test_a_quantity_from_its_own_column_at_its_lower_limit(quantity, result):
    got = parse_card_text("Thrust", quantity)
    assert (got.readings if isinstance(got, CardText) else got) == result


@pytest.mark.parametrize("text,quantity", [("1 Thrust", 1), ("1x Thrust", 1), ("Thrust x1", 1),
                                           (f"{MAX_QUANTITY:07d} Thrust", MAX_QUANTITY), ("0000001 Thrust", 1),
                                           ("00000001 Thrust", None)])
def test_quantity_digits_at_their_limits(text, quantity):
    """A quantity is 1 to 1,000,000, at most 7 digits (leading zeros included: the bound on the digits read)."""
    got = parse_card_text(text)
    if quantity is None:
        assert got == f"the quantity must be a whole number from 1 to {MAX_QUANTITY:,}"
    else:
        assert isinstance(got, CardText) and got.readings[0] == (quantity, "Thrust")


@pytest.mark.parametrize("declared,sections", [
    (None, "Pre-Game, Endurance (Deck, Main)"), ("type2", "Pre-Game, Endurance (Deck, Main)"),
    ("raven-stormcrow", "Hunters (Hunter), Items (Item), Prey, Combat"), ("taktik52", "Deck, Players"),
    ("no-such-format", "Pre-Game, Endurance (Deck, Main)"),
])
def test_an_unknown_sections_message_lists_the_sections_of_the_declared_formats_game(declared, sections):
    assert known_sections(declared) == sections


@pytest.mark.parametrize("line,separator", [
    ("---", True), ("--", False), ("- - -", True), ("===", True), ("***", True), ("___", True), ("~~~", True),
    ("###", True), ("-=-", False), ("--x", False), ("x--", False), ("-" * 200, True), ("-" * 201, False),
])
def test_a_separator_is_three_to_200_of_one_mark(line, separator):
    assert _is_separator(line) is separator


@pytest.mark.parametrize("text", ["\u2705\n3 Thrust\n", "\U0001f0cf \u2694\ufe0f\n3 Thrust\n",
                                  "3 Thrust\n\u2728 \u2728\n"])
def test_a_line_of_emoji_only_is_no_line(text):
    deck = parse_text(text)
    assert ([l.readings[0] for l in deck.lines], deck.problems) == ([(3, "Thrust")], [])


def test_emoji_around_a_line_are_dropped_the_line_kept():
    deck = parse_text("\u2705 3 Thrust \u2705\n\U0001f6e1\ufe0f Blocks \U0001f6e1\ufe0f\n2 Upper Left Block\n")
    assert [(l.section, l.readings[0]) for l in deck.lines] == [(None, (3, "Thrust")),
                                                                ("endurance", (2, "Upper Left Block"))]
