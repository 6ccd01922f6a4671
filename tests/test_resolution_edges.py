"""Building a deck from resolved lines (deckcheck.decks) at its edges: the bounds of one check's work met exactly
and passed by one, the two rounds of reading, the notices. Each row pins what a mutant of decks.py changed and no
other test saw (scripts/mutation.py). A small card sheet keeps them fast."""
from __future__ import annotations

from pathlib import Path

import pytest

from deckcheck import limits
from deckcheck.games import get_format, parse_text
from deckcheck.decks import SUGGESTED_LINES_MAX, UNREADABLE_LINES_MAX, build_deck, is_prose


def read(index, text, fmt="type1e"):
    return build_deck(parse_text(text), index, get_format(fmt))


def test_the_bounds_are_the_limits_table():
    assert (UNREADABLE_LINES_MAX, SUGGESTED_LINES_MAX) == (1000, 64)
    assert (limits.UNREADABLE_LINES.value, limits.SUGGESTED_NAMES.value) == (1000, 64)


@pytest.mark.parametrize("unknown", [UNREADABLE_LINES_MAX - 1, UNREADABLE_LINES_MAX, UNREADABLE_LINES_MAX + 1])
def test_reading_stops_at_the_1000th_line_that_names_no_card(synthetic_index, unknown):
    """Up to 1,000 lines naming no card are read (each an input error); the 1,000th stops the reading, and
    what follows it is not read. A card line before them does not count."""
    text = "2 Thrust\n" + "Zzyzx Qwv\n" * unknown + "3 Upper Left Block\n"
    deck, problems = read(synthetic_index, text)
    notices = [n for n in deck.notices if n.startswith("reading stopped")]
    assert len(problems) == min(unknown, UNREADABLE_LINES_MAX)
    assert all(p.message == "unknown card" for p in problems)
    got = sorted((e.card.name, e.quantity) for e in deck)
    if unknown < UNREADABLE_LINES_MAX:
        assert got == [("Thrust", 2), ("Upper Left Block", 3)]
        assert notices == []
    else:
        assert got == [("Thrust", 2)]
        after = unknown - UNREADABLE_LINES_MAX + 1
        told = "the 1 line after it was" if after == 1 else f"the {after} lines after it were"
        assert notices == [f"reading stopped at line {UNREADABLE_LINES_MAX + 1}: 1,000 lines name no card; {told} "
                           "not read (a bound on the work of one check)"]


def test_a_list_of_exactly_1000_lines_naming_no_card_is_read_to_its_end(synthetic_index):
    deck, problems = read(synthetic_index, "2 Thrust\n" + "Zzyzx Qwv\n" * UNREADABLE_LINES_MAX)
    assert len(problems) == UNREADABLE_LINES_MAX and not any(n.startswith("reading stopped") for n in deck.notices)


@pytest.mark.parametrize("unknown", [SUGGESTED_LINES_MAX, SUGGESTED_LINES_MAX + 1, SUGGESTED_LINES_MAX + 2])
def test_suggestions_for_the_first_64_unknown_names_only(synthetic_index, unknown):
    deck, problems = read(synthetic_index, "2 Uper Left Atack\n" * unknown)
    assert len(problems) == unknown
    assert [bool(p.suggestions) for p in problems] == [True] * SUGGESTED_LINES_MAX + [False] * (unknown - 64)
    assert problems[0].suggestions[0] == "Upper Left Attack"
    notices = [n for n in deck.notices if n.startswith("suggestions were")]
    more = unknown - SUGGESTED_LINES_MAX
    if more == 0:
        assert notices == []
    else:
        assert notices == [f"suggestions were looked for on the first 64 unknown names only; {more} more unknown "
                           f"{'name has' if more == 1 else 'names have'} none (a bound on the work of one check)"]


def test_refused_lines_without_suggestions_do_not_use_up_the_suggestions(synthetic_index):
    """A line with two quantities, a sentence, an ambiguity: none of them is looked up for suggestions."""
    text = "3 Thrust x2\n" * 70 + "This is not a card line at all, only prose\n" * 70 + "Uper Left Atack\n"
    deck, problems = read(synthetic_index, text)
    assert problems[-1].suggestions and problems[-1].line == 141
    assert not any(n.startswith("suggestions were") for n in deck.notices)


@pytest.mark.parametrize("text,prose", [
    ("one two three four five six seven", False), ("one two three four five six seven eight", True),
    ("Thrust.", True), ("Thrust!", True), ("Thrust?", True), ("Thrust :)", True), ("Thrust :-)", True),
    ("Thrust, Dodge", True), ("Thrust,Dodge", False), ("Thrust", False), ("Thrust:", False),
])
def test_a_line_reads_as_prose_when_it_ends_as_a_sentence_or_runs_to_eight_words(text, prose):
    assert is_prose(text) is prose


def test_a_sentence_is_refused_as_prose_only_when_no_quantity_or_set_is_written(synthetic_index):
    _, problems = read(synthetic_index, "1 Thrust\nBring snacks to the game.\n2 Bring snacks to the game.\n"
                                        "Bring snacks to the game. [ME]\n")
    assert [p.message.startswith("not a card line") for p in problems] == [True, False, False]


def test_the_side_board_counts_copies_and_keeps_them_out(synthetic_index):
    deck, problems = read(synthetic_index, "3 Thrust\nSideboard:\n1 Upper Left Block\n2 Thrust\nMaybeboard:\n"
                                           "1 Thrust\n")
    assert problems == []
    assert [(e.card.name, e.quantity) for e in deck] == [("Thrust", 3)]
    assert "3 cards under Sideboard: read, not part of the deck" in deck.notices
    assert "1 card under Maybeboard: read, not part of the deck" in deck.notices


def test_the_same_card_on_several_lines_adds_up_each_line_kept(synthetic_index):
    deck, _ = read(synthetic_index, "2 Thrust\nUpper Left Block\nThrust x3\n")
    (thrust,) = deck.section("Endurance")[:1]
    assert (thrust.card.name, thrust.quantity, thrust.line) == ("Thrust", 5, 1)
    assert deck.count("Endurance") == 6


def test_the_persona_found_in_the_first_round_reads_a_shared_title_in_the_second(synthetic_index):
    """`Strike` is the title of Alpha's and of Beta's card: after `Alpha Persona`, written before or after it,
    it is Alpha's; without a Persona it is ambiguous."""
    for text in ("Strike\nAlpha Persona\n", "Alpha Persona\nStrike\n"):
        deck, problems = read(synthetic_index, text)
        assert problems == [] and sorted(e.card.name for e in deck) == ["Alpha Persona", "Alpha Strike"]
    for text in ("Strike\n", "1 Thrust\nStrike\n"):  # the first line (a title's place) too: the candidates
        deck, problems = read(synthetic_index, text)
        assert [(p.message.split(":")[0], p.suggestions) for p in problems] == [("ambiguous", ("Alpha Strike",
                                                                                              "Beta Strike"))]


@pytest.mark.parametrize("heading,count,says", [("Attacks (2):", 2, None), ("Attacks (3):", 2, 3),
                                                ("Attacks (1):", 2, 1)])
def test_a_heading_count_is_compared_with_the_copies_below_it(synthetic_index, heading, count, says):
    deck, problems = read(synthetic_index, f"{heading}\n1 Thrust\n1 Upper Left Attack\nBlocks:\n4 Upper Left Block\n")
    assert problems == []
    notices = [n for n in deck.notices if "heading says" in n]
    assert notices == ([] if says is None else [f"line 1: the heading says {says}; {count} cards follow"])


def test_a_heading_count_of_one_card_says_follows(synthetic_index):
    deck, _ = read(synthetic_index, "Attacks (2):\n1 Thrust\n")
    assert "line 1: the heading says 2; 1 card follows" in deck.notices


def test_a_heading_count_over_an_unread_line_is_not_compared(synthetic_index):
    deck, problems = read(synthetic_index, "Attacks (5):\n1 Thrust\n1 Zzyzx Qwv\n")
    assert len(problems) == 1 and not any("heading says" in n for n in deck.notices)


@pytest.mark.parametrize("total,notice", [
    ("Total: 5", None), ("Total: 6", "line 4: the total says 6; the list holds 1 in the Pre-Game, 4 in the Endurance"),
    ("Total: 4", None),  # the Endurance alone
    ("Endurance total: 4", None), ("Endurance total: 3", "line 4: the list says 3; the Endurance holds 4"),
])
def test_a_total_line_is_compared_with_the_deck_or_its_section(synthetic_index, total, notice):
    deck, problems = read(synthetic_index, f"Alpha Persona\n1 Thrust\n3 Upper Left Block\n{total}\n")
    assert problems == []
    got = [n for n in deck.notices if "says" in n]
    assert got == ([] if notice is None else [notice])


def test_a_total_is_not_compared_when_a_line_was_not_read(synthetic_index):
    deck, _ = read(synthetic_index, "1 Thrust\nZzyzx Qwv\nTotal: 9\n")
    assert not any("total says" in n for n in deck.notices)


def test_a_running_total_counts_from_the_previous_heading(synthetic_index):
    deck, problems = read(synthetic_index, "Attacks:\n2 Thrust\nTotal: 2\nBlocks:\n3 Upper Left Block\nTotal: 3\n"
                                           "Events:\n1 Filler B\n1 Filler C\nTotal: 2\n")
    assert problems == [] and deck.notices == []
    deck, _ = read(synthetic_index, "Attacks:\n2 Thrust\nTotal: 2\nBlocks:\n3 Upper Left Block\nTotal: 3\n"
                                    "Events:\n1 Filler B\n1 Filler C\nTotal: 3\n")
    assert deck.notices == ["line 10: the total says 3; the list holds 0 in the Pre-Game, 7 in the Endurance"]


def test_a_side_board_total_counts_the_side_board(synthetic_index):
    deck, _ = read(synthetic_index, "1 Thrust\nSideboard:\n2 Upper Left Block\nSideboard total: 2\n")
    assert not any("says" in n for n in deck.notices)
    deck, _ = read(synthetic_index, "1 Thrust\nSideboard:\n2 Upper Left Block\nSideboard total: 3\n")
    assert "line 4: the list says 3; the Sideboard holds 2" in deck.notices


def test_a_type1e_list_naming_a_2nd_edition_card_is_told_its_edition(synthetic_index):
    deck, problems = read(synthetic_index, "Personal Gun\n1 Thrust\n")
    assert problems == []
    assert deck.notices == ["line 1: 'Personal Gun' read as the 2nd-edition card Personal Gun: no 1st-edition card "
                            "has that name"]
    deck, _ = read(synthetic_index, "Personal Gun\n1 Thrust\n", "type2")
    assert deck.notices == []


def test_a_card_under_a_section_it_does_not_belong_to_is_refused_at_its_line(synthetic_index):
    deck, problems = read(synthetic_index, "Hunters:\n1 Thrust\n")
    (problem,) = problems
    assert problem.line == 2 and problem.message.startswith("section 'hunters' is not part of format type1e")


def test_a_title_line_close_to_no_card_is_the_title_close_to_one_an_error_offering_both(synthetic_index):
    deck, problems = read(synthetic_index, "Zzyzx Qwv Deck\n1 Thrust\n")
    assert problems == [] and deck.notices == ["line 1 read as the deck's title: 'Zzyzx Qwv Deck'"]
    deck, problems = read(synthetic_index, "Uper Left Atack\n1 Thrust\n")
    (problem,) = problems
    assert problem.suggestions[:2] == ("Name: Uper Left Atack", "Upper Left Attack")
    assert problem.message == ("unknown card (if this line is the deck's title, start it with # or write it as "
                               "Name: ...)")
    _, problems = read(synthetic_index, "Zzyzx Qwv Deck\n")
    assert [p.message.split(":")[0] for p in problems] == ["no card in the list"]


def test_a_heading_count_after_the_reading_stopped_is_not_compared(synthetic_index):
    """The lines after the stop were not read: a heading over them is not told that no card follows it (it was:
    'the heading says 2; 0 cards follow')."""
    deck, _ = read(synthetic_index, "Zzyzx Qwv\n" * UNREADABLE_LINES_MAX + "Attacks (2):\n2 Thrust\n")
    assert not any("heading says" in n for n in deck.notices)
    assert any(n.startswith("reading stopped") for n in deck.notices)


def test_a_heading_count_takes_the_card_on_its_own_line_and_not_the_next_headings(synthetic_index):
    deck, problems = read(synthetic_index, "Attacks (3): 2 Thrust\n1 Upper Left Attack\nBlocks: 3 Upper Left Block\n")
    assert problems == [] and deck.notices == []


def test_a_running_total_before_any_heading_counts_from_the_first_line_a_title_adding_nothing(synthetic_index):
    deck, problems = read(synthetic_index, "Zzyzx Qwv Deck\n2 Thrust\nTotal: 2\nBlocks:\n3 Upper Left Block\n")
    assert problems == []
    assert deck.notices == ["line 1 read as the deck's title: 'Zzyzx Qwv Deck'"]


@pytest.mark.parametrize("total", ["Deck total: 3", "Main total: 3", "Endurance total: 3"])
def test_a_total_naming_a_section_by_another_name_is_compared_with_it(synthetic_index, total):
    deck, _ = read(synthetic_index, f"Alpha Persona\n1 Thrust\n3 Upper Left Block\n{total}\n")
    assert [n for n in deck.notices if "says" in n] == ["line 4: the list says 3; the Endurance holds 4"]


def test_a_line_whose_readings_all_fail_reports_the_first_readings_error(synthetic_index):
    """`2 Upper Right Attack 2` reads as 2 x `Upper Right Attack 2` or 1 x `2 Upper Right Attack 2`: both end in
    a bare number; the message is the first reading's."""
    _, problems = read(synthetic_index, "1 Thrust\n2 Upper Right Attack 2\n")
    (problem,) = problems
    assert problem.message == ("a number after the name is not read by guess: the quantity is written before it; "
                               "write '2 Upper Right Attack' (a collector's number left off) or "
                               "'2 Upper Right Attack (2)' for that version")  # (issue 33: the written 2 stays)
    assert problem.suggestions == ("Upper Right Attack", "Upper Right Attack (2)")


def test_an_ambiguity_or_a_bad_set_says_more_than_unknown_card(synthetic_cards, tmp_path):
    """`3 Musketeers`: `Musketeers` (3 copies) is no card, `3 Musketeers` (one) is two cards: the ambiguity is
    reported. A set no card is printed in is an unknown set, never an unknown card given name suggestions."""
    import csv
    import io

    from conftest import load_sheet

    from deckcheck.catalog import CardIndex
    header = (Path(__file__).parent / "data" / "synthetic-cards.csv").read_text().splitlines()[0]
    rows = [dict.fromkeys(header.split(","), "") | {"id": f"T-M{i}", "name": "3 Musketeers", "immortal": who,
                                                    "edition": "1", "type": "Event", "basic": "no", "reserved": "no",
                                                    "signature": "no", "unique": "no", "hand_icons": "0"}
            for i, who in ((1, "Alpha"), (2, "Beta"))]
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=header.split(","))
    writer.writeheader()
    writer.writerows(rows)
    sheet = tmp_path / "musketeers.csv"
    sheet.write_text(out.getvalue())
    index = CardIndex([*synthetic_cards, *load_sheet(sheet)])
    _, problems = read(index, "1 Thrust\n3 Musketeers\n")
    assert [(p.line, p.message.split(":")[0]) for p in problems] == [(2, "ambiguous")]
    _, problems = read(index, "1 Thrust\n2 Thrust [Zzyzx]\n")
    assert [(p.line, p.message.startswith("unknown set 'Zzyzx'")) for p in problems] == [(2, True)]


@pytest.mark.parametrize("text,notice", [
    ("2 Thrust\nTotal: 2\n3 Upper Left Block\nTotal: 3\n", None),  # each total counts from the one before
    ("2 Thrust\nBlocks:\n3 Upper Left Block\nTotal: 3\n", None),  # or from the heading before
    ("2 Thrust\nBlocks:\n3 Upper Left Block\nTotal: 4\n",
     "line 4: the total says 4; the list holds 0 in the Pre-Game, 5 in the Endurance"),
])
def test_a_running_total_counts_from_the_line_after_the_previous_total_or_heading(synthetic_index, text, notice):
    deck, problems = read(synthetic_index, text)
    assert problems == [] and deck.notices == ([] if notice is None else [notice])


@pytest.mark.parametrize("text,chatter", [("glhf", True), ("Thrust", False), ("x" * 195 + " glhf", True),
                                          ("x" * 196 + " glhf", False)])  # a chat word within 200 characters, not 201
def test_a_line_of_chat_holds_a_chat_word_in_its_first_200_characters(text, chatter):
    from deckcheck.decks import is_chatter
    assert is_chatter(text) is chatter


@pytest.mark.parametrize("text,remark", [
    ("Zebra regional tournament plan:\n3 Thrust\n", 1), ("3 Thrust\nZebra regional tournament plan:\n", 2),
    ("Zebra plan:\n3 Thrust\n", None),  # two words and no chat: an unknown heading, refused at its line
])
def test_an_unknown_heading_of_three_words_or_more_around_the_list_is_a_remark(synthetic_index, text, remark):
    deck, problems = read(synthetic_index, text)
    if remark is None:
        assert [p.message.split(";")[0] for p in problems] == ["unknown heading 'Zebra plan'"] and deck.notices == []
    else:
        assert problems == [] and deck.notices == [f"line {remark} ignored: 'Zebra regional tournament plan:' reads "
                                                   "as a remark, not a card"]


@pytest.mark.parametrize("text,line", [
    ("Endurance: thanks everyone\n3 Thrust\n", 1), ("3 Thrust\nEndurance: thanks everyone\n", 2),  # on a heading
    ("Zzyzx Deck\nZebra qwv\n3 Thrust\n", 2),  # before the list, no talk: no line around it is a remark
])
def test_lines_that_stay_errors_not_remarks(synthetic_index, text, line):
    _deck, problems = read(synthetic_index, text)
    assert [(p.line, p.message) for p in problems] == [(line, "unknown card")]


@pytest.mark.parametrize("text,errors,remarks", [
    ("Hello everyone!\n3 Thrust\nZebra qwv\n", [3], [1]),  # talk before the list makes no remark after it
    ("Hello everyone!\nUper Left Atack\n3 Thrust\n", [2], [1]),  # a line close to a card stays a card line
    ("Hello everyone!\nUper Atack\n3 Thrust\n", [2], [1]),  # less close, but no chat: still a card line
    ("Zebra tournament plan:\n3 Thrust\n", [], [1]),  # an unknown heading of exactly three words is talk
])
def test_what_around_a_list_is_a_remark(synthetic_index, text, errors, remarks):
    deck, problems = read(synthetic_index, text)
    assert [p.line for p in problems] == errors
    assert [int(n.split()[1]) for n in deck.notices if "reads as a remark" in n] == remarks


def test_a_remark_is_quoted_to_80_characters(synthetic_index):
    remark = "Hello everyone! " + "x" * 100
    deck, problems = read(synthetic_index, f"{remark}\n3 Thrust\n")
    assert problems == [] and deck.notices == [f"line 1 ignored: {remark[:80]!r} reads as a remark, not a card"]


@pytest.mark.parametrize("name,miss", [
    ("Thrustt Spectacular", "NO_CARD"), ("Upper Right Attack 7", "BARE_NUMBER"), ("Thrust [ZZQ]", "UNKNOWN_SET"),
])
def test_why_a_name_found_no_card_is_data_not_words_of_its_message(bundled_index, name, miss):
    from deckcheck.catalog import Miss, NameMiss
    with pytest.raises(NameMiss) as caught:
        bundled_index.lookup(name)
    assert caught.value.miss is Miss[miss]
    other = next(s.code for s in bundled_index.sets if not bundled_index.matches(f"Thrust [{s.code}]"))
    with pytest.raises(NameMiss) as caught:
        bundled_index.lookup(f"Thrust [{other}]")
    assert caught.value.miss is Miss.NOT_IN_SET
