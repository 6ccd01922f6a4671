"""deckcheck.judging (issue 34 item 3): the counting order, a judge's typed cards read as decklist lines, and each
difference a problem of the list or of the deck."""
from __future__ import annotations

import pytest

from deckcheck.decklist import CardText, Refused
from deckcheck.judging import (DECK, LIST, classify, counting_groups, difference_line, list_is_wrong, rewrite_typed,
                               type_key, typed_line)
from deckcheck.registered import MAX_COUNT, DeckCheckError, Difference, Line, Registered

LIST_OF = Registered((Line("Endurance", "Thrust", 4), Line("Pre-Game", "Connor MacLeod Persona", 1),
                      Line("Endurance", "Upper Left Block (1)", 3), Line("Endurance", "Clan Priest", 1),
                      Line("Endurance", "Back Away", 1), Line("Endurance", "Mystery", 2),
                      Line("Endurance", "Alpha Attack", 2)), sections=("Pre-Game", "Endurance"))
TYPES = {"Thrust": "Attack", "Alpha Attack": "Attack", "Connor MacLeod Persona": "Persona",
         "Upper Left Block (1)": "Block", "Clan Priest": "Situation", "Back Away": "Dodge", "Mystery": ""}


def test_a_list_is_counted_section_by_section_then_type_by_type():
    groups = counting_groups(LIST_OF, TYPES)
    assert [(g.section, g.type) for g in groups] == [
        ("Pre-Game", "Persona"), ("Endurance", "Attack"), ("Endurance", "Block"), ("Endurance", "Dodge"),
        ("Endurance", "Situation"), ("Endurance", "unknown")]
    attacks = groups[1]
    assert [line.card for line in attacks.lines] == ["Thrust", "Alpha Attack"]  # as the list names them
    assert attacks.total == 6 and groups[-1].total == 2
    assert sum(g.total for g in groups) == sum(line.quantity for line in LIST_OF.lines)


def test_types_outside_the_statistics_order_come_after_it_by_name_and_unknown_last():
    kinds = ["unknown", "Zeal", "Block", "apparel", "Attack", ""]
    assert sorted(kinds, key=type_key) == ["Attack", "Block", "apparel", "Zeal", "unknown", ""]


@pytest.mark.parametrize("text, count, readings", [
    ("Thrust", "", [(1, "Thrust")]),
    ("2 Thrust", "", [(2, "Thrust"), (1, "2 Thrust")]),
    ("Thrust x3", "", [(3, "Thrust"), (1, "Thrust x3")]),
    ("Thrust", "2", [(2, "Thrust")]),
    ("Thrust", "0", [(0, "Thrust")]),
    ("Thrust", str(MAX_COUNT), [(MAX_COUNT, "Thrust")]),
])
def test_a_typed_card_reads_as_a_decklist_line(text, count, readings):
    read = typed_line(text, count)
    assert isinstance(read, CardText) and list(read.readings)[:len(readings)] == readings


def test_a_typed_card_refused_as_a_decklist_line_would_be():
    twice = typed_line("Thrust x3", "2")
    assert isinstance(twice, Refused) and "twice" in twice
    with pytest.raises(DeckCheckError, match="counts run from 0"):
        typed_line("Thrust", str(MAX_COUNT + 1))
    with pytest.raises(DeckCheckError, match="not a whole number"):
        typed_line("Thrust", "two")


@pytest.mark.parametrize("text, suggestion, fixed", [
    ("Thrustt", "Thrust", "Thrust"), ("2 Thrustt", "Thrust (2)", "2 Thrust (2)"),
    ("Thrustt x2", "Thrust", "Thrust x2"), ("", "Thrust", "Thrust")])
def test_a_suggestion_rewrites_the_name_and_keeps_the_quantity(text, suggestion, fixed):
    assert rewrite_typed(text, suggestion) == fixed


DIFFS = [Difference("Thrust", 4, 3), Difference("Dodge", None, 1)]


def test_a_legal_list_makes_every_difference_the_deck_s():
    out = classify(DIFFS, True, [], [])
    assert [d["problem"] for d in out] == [DECK, DECK]
    assert out[1]["registered"] == 0 and "fix the deck" in out[0]["why"]
    assert difference_line(out[0]) == \
        "Thrust: registered 4, counted 3 — the deck does not match its list (deck problem)"
    assert difference_line(out[1]).startswith("Dodge: not registered, counted 1 — ")


def test_an_illegal_or_unread_list_makes_the_differences_the_list_s():
    illegal = classify(DIFFS, False, ["HL-TITLE-MAX"], [], counted_legal=True)
    assert {d["problem"] for d in illegal} == {LIST}
    assert "NOT LEGAL (HL-TITLE-MAX)" in illegal[0]["why"] and "the deck as counted is legal" in illegal[0]["why"]
    unread = classify(DIFFS, None, [], ["line 7: 2 Thrustt"])
    assert {d["problem"] for d in unread} == {LIST} and "line 7: 2 Thrustt" in unread[0]["why"]
    assert "fix the list" in unread[0]["why"]
    assert difference_line(unread[0]).endswith("the list is wrong (decklist problem)")


def test_an_unverified_verdict_is_not_a_wrong_list():
    assert not list_is_wrong(None, []) and not list_is_wrong(True, [])
    assert list_is_wrong(False, []) and list_is_wrong(True, ["line 1: x"])
    assert classify([], False, [], []) == []
