"""Issue 33 (4): remarks after a card, several cards a line, the top of a post, more quantity forms, headings in
the languages a game declares, soft hyphens and Japanese brackets: each read, with a notice where a reading was
chosen; the forms of earlier revisions keep their readings."""
from __future__ import annotations

import pytest

from deckcheck.games import get_format, parse_text
from deckcheck.decks import build_deck


def read(index, text, fmt="type1e"):
    deck, problems = build_deck(parse_text(text), index, get_format(fmt))
    return (sorted((e.card.name, e.quantity, e.section) for e in deck), [(p.line, p.message) for p in problems],
            deck.notices)


THREE = [("Thrust", 3, "Endurance")]


@pytest.mark.parametrize("text", [
    # remarks
    "3 Thrust  # core", "3 Thrust -- my favourite", "3 Thrust \u2014 tech", "Thrust x3 \u2013 staple",
    # quantity forms
    "(3) Thrust", "(3x) Thrust", "3 of Thrust", "Thrust 3\u679a", "Thrust\u00d73\u679a", "Thrust\u30013",
    "Thrust\uff08x3\uff09", "\u300cThrust\u300d\u00d73", "\u300eThrust\u300f 3\u679a",
    # invisible characters
    "3 Thr\u00adust", "3 Thrust\u00ad",
])
def test_each_form_reads_as_three_thrust(bundled_index, text):
    entries, problems, _ = read(bundled_index, text)
    assert (entries, problems) == (THREE, [])


def test_a_dash_remark_says_so_and_keeps_the_forms_a_dash_already_had(bundled_index):
    assert read(bundled_index, "3 Thrust \u2014 tech")[2] == ["line 1: 'tech' read as a remark"]
    assert read(bundled_index, "Persona \u2013 Duncan MacLeod")[0] == [("Duncan MacLeod Persona", 1, "Pre-Game")]
    assert read(bundled_index, "Attacks \u2013 3\n3 Thrust")[:2] == (THREE, [])
    _e, problems, _n = read(bundled_index, "Upper Right Attack - 2")
    assert [line for line, _m in problems] == [1]  # still both readings offered, never a guess


@pytest.mark.parametrize("text", ["3 Thrust / 2 Upper Left Attack", "3 Thrust; 2 Upper Left Attack",
                                  "Attacks: 3 Thrust / 2x Upper Left Attack", "3x Thrust | Upper Left Attack x2"])
def test_several_cards_a_line(bundled_index, text):
    entries, problems, notices = read(bundled_index, text)
    assert (entries, problems) == ([("Thrust", 3, "Endurance"), ("Upper Left Attack", 2, "Endurance")], [])
    assert any(n.startswith("line 1 read as 2 card lines") for n in notices)


def test_one_card_and_its_quantity_after_a_separator_stays_one_card(bundled_index):
    assert read(bundled_index, "Thrust; 3")[:2] == (THREE, [])


def test_the_top_of_a_post(bundled_index):
    raw = parse_text("Duncan rush deck\nby Bj\u00f6rn\n14.03.2026\nEvent: Spring Regionals\n3 Thrust")
    assert (raw.author, raw.date, raw.event) == ("Bj\u00f6rn", "14.03.2026", "Spring Regionals")
    entries, problems, notices = read(bundled_index, "My list\nposted by Mark\nMarch 14, 2026\n3 Thrust")
    assert (entries, problems) == (THREE, [])
    assert "line 2 read as the author: 'Mark'" in notices and "line 3 read as the date: 'March 14, 2026'" in notices
    assert parse_text("Date: 2026-03-14\n3 Thrust").date == "2026-03-14"
    assert parse_text("by the way\n3 Thrust").author is None  # (a by-line names someone)


@pytest.mark.parametrize("heading", ["Attacks (three)", "Attacks (twenty-six)", "Attacks\uff0826\u679a\uff09",
                                     "Attaques (3) :", "Angriffe:", "\u653b\u6483\uff1a",
                                     "\u653b\u6483\uff083\u679a\uff09"])
def test_headings_carry_counts_in_words_and_counters_and_read_in_other_languages(bundled_index, heading):
    entries, problems, notices = read(bundled_index, f"{heading}\n3 Thrust")
    assert (entries, problems) == (THREE, [])
    if "26" in heading or "six" in heading:
        assert notices == ["line 1: the heading says 26; 3 cards follow"]


def test_the_game_declares_its_heading_words(bundled_index):
    from deckcheck.games import registry
    from deckcheck.games.highlander import HEADING_WORDS
    assert HEADING_WORDS["angriffe"] == "attack" and HEADING_WORDS["r\u00e9serve"] == "sideboard"
    assert registry().grammar.headings["nebendeck"][0] == "sideboard"
    entries, _p, notices = read(bundled_index, "Personnage : Duncan MacLeod\nR\u00e9serve :\n2 Thrust\n"
                                               "\u30b5\u30a4\u30c9\u30dc\u30fc\u30c9\n1 Lunge")
    assert entries == [("Duncan MacLeod Persona", 1, "Pre-Game")]
    assert notices == ["3 cards under Sideboard: read, not part of the deck"]


@pytest.mark.parametrize("line,fixed", [
    ("1x Thrust (ME) 123", ("1x Thrust (ME)", "1x Thrust (ME) (123)")),
    ("- 2 Upper Left Attack (ME) 12  # core", ("2 Upper Left Attack (ME)", "2 Upper Left Attack (ME) (12)")),
    ("Thrust 3", ("3 Thrust", "Thrust (3)")),
])
def test_suggestions_keep_what_the_person_wrote(bundled_index, line, fixed):
    from deckcheck.decklist import rewrite_line
    from deckcheck.games import registry
    deck, problems = build_deck(parse_text("Endurance:\n" + line), bundled_index, get_format("type1e"))
    (problem,) = problems
    assert tuple(rewrite_line(line, s, registry().grammar) for s in problem.suggestions) == fixed


def test_the_cli_shows_unicode_spaces_as_they_are_and_still_escapes_control_characters():
    from deckcheck.cli.plain import safe
    assert safe("3\u3000Thrst") == "3\u3000Thrst" and safe("3\u00a0Thrst") == "3\u00a0Thrst"
    assert safe("3\x1b[31mThrst\u202e") == "3\\x1b[31mThrst\\u202e"


def test_a_version_written_already_is_never_offered_a_second_one(bundled_index):
    deck, problems = build_deck(parse_text("Endurance:\nThrust (2) 3\n1x Thrust (2) 123"), bundled_index,
                                get_format("type1e"))
    assert [p.suggestions for p in problems] == [("3 Thrust (2)",), ("Thrust (2)",)]
    assert "(2) (3)" not in problems[0].message and "(2) (123)" not in problems[1].message


def test_a_title_signed_after_a_dash_is_the_title_and_a_card_written_wrong_is_not(bundled_index):
    entries, problems, notices = read(bundled_index, "Connor MacLeod - Bj\u00f6rn\nPersona: Connor MacLeod\n3 Thrust")
    assert problems == [] and notices == ["line 1 read as the deck's title: 'Connor MacLeod - Bj\u00f6rn'"]
    assert [line for line, _m in read(bundled_index, "Connor MacLeod - Thrst\n3 Thrust")[1]] == [1]


@pytest.mark.parametrize("line,suggestion,fixed", [
    ("\u300cUper Right Attack (3)\u300d\u00d73", "Upper Right Attack (3)", "Upper Right Attack (3)\u00d73"),
    ("Uper Right Attack 3\u679a", "Upper Right Attack", "Upper Right Attack 3\u679a"),
    ("<li>3 Thrst</li>", "Thrust", "3 Thrust"), ("[*]3 Thrst", "Thrust", "3 Thrust"),
    ("<li>2 Lunge</li><li>3 Thrst</li>", "Thrust", "2 Lunge\n3 Thrust"),
    ("3 Lunge / 2 Thrst", "Thrust", "3 Lunge / 2 Thrust"),
    ("Attacks: 3 Lunge; 2 Thrst [ME]", "Thrust", "Attacks: 3 Lunge; 2 Thrust [ME]"),
    ("3 Thrst  # core", "Thrust", "3 Thrust"),
])
def test_a_chip_rewrites_the_line_keeping_its_quantity_and_the_other_cards(line, suggestion, fixed):
    from deckcheck.decklist import rewrite_line
    from deckcheck.games import registry
    assert rewrite_line(line, suggestion, registry().grammar) == fixed


@pytest.mark.parametrize("heading,count", [
    ("Attaques (vingt-six)", 26), ("Pr\u00e9-jeu (deux)", 2), ("Attaques (z\u00e9ro)", 0),
    ("Attaques (dix-sept)", 17), ("Attaques (vingt et un)", 21), ("Attaques (soixante et onze)", 71),
    ("Attaques (quatre-vingts)", 80), ("Attaques (quatre-vingt-dix-neuf)", 99), ("Attaques (nonante-neuf)", 99),
    ("Angriffe (sechsundzwanzig)", 26), ("Vorspiel (zwei)", 2), ("Angriffe (null)", 0), ("Angriffe (neunzehn)", 19),
    ("Angriffe (einundzwanzig)", 21), ("Angriffe (dreissig)", 30), ("Angriffe (neunundneunzig)", 99),
    ("\u653b\u6483\uff08\u4e8c\u5341\u516d\u679a\uff09", 26), ("\u653b\u6483\uff08\u5341\uff09", 10),
    ("\u653b\u6483\uff08\u5341\u4e00\uff09", 11), ("\u653b\u6483\uff08\u4e5d\u5341\u4e5d\uff09", 99),
    ("\u653b\u6483\uff08\u3007\uff09", 0), ("Attacks (zero)", 0), ("Attacks (ninety-nine)", 99),
])
def test_counts_in_words_of_each_declared_language_on_headings(bundled_index, heading, count):
    entries, problems, notices = read(bundled_index, f"{heading}\n3 Thrust")
    assert problems == [] and len(entries) == 1 and entries[0][:2] == ("Thrust", 3)
    assert notices == [f"line 1: the heading says {count}; 3 cards follow"]


def test_a_count_in_words_that_matches_gives_no_notice_and_no_number_word_is_two_numbers(bundled_index):
    from deckcheck.decklist import _count_table
    assert read(bundled_index, "Angriffe (drei)\n3 Thrust")[2] == [] and len(_count_table()) > 400


def test_a_misspelt_card_with_its_quantity_glued_on_keeps_the_quantity_in_the_suggestion(bundled_index):
    from deckcheck.decklist import rewrite_line
    from deckcheck.games import registry
    _deck, problems = build_deck(parse_text("Endurance:\nThrustt\u00d73"), bundled_index, get_format("type1e"))
    (problem,) = problems
    assert rewrite_line("Thrustt\u00d73", problem.suggestions[0], registry().grammar) == "Thrust\u00d73"
