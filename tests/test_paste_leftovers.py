"""Decklists as pasted, the forms the last round left (CONTRACTS.md §2 revision 3): a title on a `Deck:` line, the
talk around a posted list, a quantity after the name with a separator, quantities in words, short version marks.
Each reads to the same cards as its plainest form; what stays unclear is refused at its line with safe suggestions."""
from __future__ import annotations

import pytest

import deckcheck
from deckcheck.decklist import rewrite_line
from deckcheck.games import get_format, parse_text, registry
from deckcheck.decks import CHAT_WORDS, build_deck
from deckcheck.text import normalize

GRAMMAR = registry().grammar  # the words of every registered game

PLAIN = "Persona: The Kurgan\n3 Thrust\n2 Upper Left Attack\n"


def read(index, text, fmt="type1e"):
    raw = parse_text(text)
    deck, problems = build_deck(raw, index, get_format(fmt))
    return sorted((e.card.name, e.quantity, e.section) for e in deck), problems, deck.notices, raw


def reads_as(index, text, plain=PLAIN):
    entries, problems, notices, raw = read(index, text)
    assert problems == [], [(p.line, p.text, p.message, p.suggestions) for p in problems]
    assert entries == read(index, plain)[0]
    return notices, raw


def errors(index, text):
    return [(p.line, p.message, p.suggestions) for p in read(index, text)[1]]


def click_first_suggestions(text: str) -> str:
    """Apply the first suggestion of every refused line, as the check page's chip does, until none is left."""
    for _round in range(4):
        fixable = [p for p in deckcheck.check_text(text).input_errors if p.suggestions]
        if not fixable:
            break
        lines = text.splitlines()
        for p in fixable:
            assert p.line is not None
            lines[p.line - 1] = rewrite_line(lines[p.line - 1], p.suggestions[0], GRAMMAR)
        text = "\n".join(lines) + "\n"
    return text


# -- 1. the title on a `Deck:` line --------------------------------------------------------------------------
@pytest.mark.parametrize("first", [
    'Deck: "Night Owls"', "Deck: \u201cNight Owls\u201d", "Deck: 'Night Owls'", "Deck: Night Owls",
    "**Deck:** Night Owls", 'Decklist: "Night Owls"', "Decklist: Night Owls", "Deck list: Night Owls",
    "Deck title: Night Owls", 'Title: "Night Owls"', 'Name: "Night Owls"', "Deckname: Night Owls",
])
def test_a_deck_line_carrying_the_title_is_the_title(bundled_index, first):
    notices, raw = reads_as(bundled_index, f"{first}\n{PLAIN}")
    assert raw.name == "Night Owls" or "line 1 read as the deck's title: 'Night Owls'" in notices
    assert [n for n in notices if "HL-SECTION" in n] == []
    report = deckcheck.check_text(f"{first}\n{PLAIN}")  # the Persona after it is not under an Endurance heading
    assert report.input_errors == [] and not [i for i in report.issues if i.rule == "HL-SECTION"]


def test_a_quoted_title_on_a_deck_line_is_the_title_anywhere_and_deck_headings_still_work(bundled_index):
    notices, raw = reads_as(bundled_index, f'Format: type1e\n{PLAIN}Deck: "Night Owls"\n')
    assert raw.name == "Night Owls" and "line 5 read as the deck's title: 'Night Owls'" in notices
    # `Deck:` alone and `Deck: 50` are the Endurance heading as before; `Deck: 3 Thrust` a card on it
    assert reads_as(bundled_index, "Persona: The Kurgan\nDeck:\n3 Thrust\n2 Upper Left Attack\n")
    entries, problems, notices, _raw = read(bundled_index, "Deck (5):\n3 Thrust\n2 Upper Left Attack\n")
    assert problems == [] and not [n for n in notices if "says" in n]
    assert read(bundled_index, "Deck: 3 Thrust\n")[0] == [("Thrust", 3, "Endurance")]


def test_an_unquoted_deck_line_close_to_a_card_is_refused_first_offering_the_title(bundled_index):
    (problem,) = read(bundled_index, "Deck: Dunkan's Fury\n3 Thrust\n")[1]
    assert problem.line == 1 and problem.suggestions[0] == "Name: Dunkan's Fury"
    fixed = rewrite_line("Deck: Dunkan's Fury", problem.suggestions[0], GRAMMAR)
    assert fixed == "Name: Dunkan's Fury" and read(bundled_index, f"{fixed}\n3 Thrust\n")[1] == []
    # a deck line that names a card is that card, where its type belongs (no HL-SECTION)
    assert read(bundled_index, "Deck: The Kurgan Persona\n3 Thrust\n")[0] == [
        ("The Kurgan Persona", 1, "Pre-Game"), ("Thrust", 3, "Endurance")]


# -- 2. the talk around a posted list -------------------------------------------------------------------------
@pytest.mark.parametrize("before,after", [
    ("", "GLHF \U0001f340"), ("", "Thanks!"), ("", "Any feedback welcome"), ("", "Cheers,\nMark"),
    ("", "Let me know what you think!\n- Viktor"), ("", "gl hf"), ("", "thx in advance :)"),
    ("Hi all,\nHere is my Kurgan list for Saturday", ""), ("Hey guys! New build:", ""),
    ("Hello everyone,\nThis is what I'm taking to the regionals.", "Cheers\n\U0001f37b"),
    ("Hi all!", "Comments welcome"),
])
def test_greetings_and_sign_offs_around_a_list_are_remarks_with_a_notice(bundled_index, before, after):
    text = f"{before}\n\n{PLAIN}\n{after}\n"
    notices, _raw = reads_as(bundled_index, text)
    ignored = [n for n in notices if "reads as a remark" in n]
    talk = [line for line in (before + "\n" + after).splitlines() if normalize(line)]
    assert len(ignored) == len(talk), notices
    report = deckcheck.check_text(text)
    assert report.input_errors == [] and not [e for e in report.input_errors if e.suggestions]


def test_talk_is_never_a_silent_way_to_lose_a_card_line(bundled_index):
    # close to a card: refused with the card, at either end
    assert errors(bundled_index, PLAIN + "Thrst\n")[0][2][0] == "Thrust"
    assert errors(bundled_index, PLAIN + "Thanks!\nUper Left Atack\n")[0][2][0] == "Upper Left Attack"
    # a line after the list naming no card, with no talk around it, is still an unknown card
    assert errors(bundled_index, PLAIN + "Sunday league list\n") == [(4, "unknown card", ())]
    # talk inside the list is refused at its line (no card suggestion)
    problems = errors(bundled_index, "Persona: The Kurgan\n3 Thrust\nThanks!\n2 Upper Left Attack\n")
    assert [(line, s) for line, _m, s in problems] == [(3, ())]
    # text that is no decklist at all has no list to be around: every line stays an error
    assert deckcheck.check_text("Hi all,\nThanks!\nCheers,\nMark\n").legal is None
    # a quantity or a set makes a line a card line, however chatty
    assert errors(bundled_index, PLAIN + "2 Thanks\n")[0][:2] == (4, "unknown card")


def test_no_card_name_holds_a_chat_word(bundled_index):
    words = {w for card in bundled_index.cards for w in normalize(card.name).split()}
    assert CHAT_WORDS.isdisjoint(words)


# -- 3. a quantity after the name, with a separator --------------------------------------------------------------
@pytest.mark.parametrize("form", ["{n}, {q}", "{n},{q}", "{n} = {q}", "{n}={q}", "{n}: {q}", "{n}; {q}",
                                  "{n}: x{q}", "{n}, {q}x", "- {n}: {q}", "\u2022 {n} = {q}", "{n} - {q} copies",
                                  "{n}: {q} copies", "{n}\u00a0:\u00a0{q}"])
def test_a_quantity_after_the_name_with_a_separator(bundled_index, form):
    text = "Persona: The Kurgan\n" + "\n".join(form.format(n=n, q=q) for n, q in (("Thrust", 3),
                                                                                 ("Upper Left Attack", 2)))
    reads_as(bundled_index, text)


def test_headings_with_counts_stay_headings_and_a_word_that_is_none_reads_as_a_card(bundled_index):
    text = "Persona: The Kurgan\nAttacks: 5\nThrust: 3\nUpper Left Attack = 2\nBlocks - 2\nUpper Left Block, 2\n"
    entries, problems, notices, _raw = read(bundled_index, text)
    assert problems == [] and notices == []  # both headings' counts are right
    assert ("Thrust", 3, "Endurance") in entries and ("Upper Left Block", 2, "Endurance") in entries
    # `Word: 3` naming neither a card nor a heading: the unknown heading (no card suggestion)
    (problem,) = read(bundled_index, f"{PLAIN}Stuff I like: 3\n2 Upper Left Block\n")[1]
    assert problem.line == 4 and problem.message.startswith("unknown heading 'Stuff I like'")
    assert problem.suggestions == ()
    # close to a card: suggested, and the suggestion keeps the form
    (problem,) = read(bundled_index, f"{PLAIN}Thrst: 3\n")[1]
    assert problem.suggestions[0] == "Thrust" and rewrite_line("Thrst: 3", "Thrust", GRAMMAR) == "Thrust: 3"


@pytest.mark.parametrize("line,card,qty", [
    ("Watcher (Hunter: 2 Damage): 2", "Watcher (Hunter: 2 Damage)", 2),
    ("Quickening (No Attack = Hidden) = 2", "Quickening (No Attack = Hidden)", 2),
    ("Verona, Italy 1637, 2", "Verona, Italy 1637", 2), ("Do as I Say, Woman!: 2", "Do as I Say, Woman!", 2),
    ("Practice, Practice = 2", "Practice, Practice", 2), ("Rapier Slice (UL, MC) - 2", "Rapier Slice (UL, MC)", 2),
    ("Pedestrian (Ped-5), 3", "Pedestrian (Ped-5)", 3), ("The Kurgan Follow-Up: 2", "The Kurgan Follow-Up", 2),
    ("Cave-In - 2", "Cave-In", 2), ("Connor MacLeod Premium +1 - 2", "Connor MacLeod Premium +1", 2),
])
def test_card_names_that_hold_a_separator_or_end_in_a_number(bundled_index, line, card, qty):
    """The real names with `:`, `=`, `,`, `-` or a closing number (found in the bundled cards): with a quantity
    after a separator they read, and alone they still read as themselves."""
    for text, copies in ((line, qty), (card, 1)):
        entries, problems, _notices, _raw = read(bundled_index, text)
        assert problems == [] and [(name, q) for name, q, _s in entries] == [(card, copies)], text


def test_a_number_after_a_dash_that_may_be_a_version_reads_only_when_the_list_shows_its_way(bundled_index):
    # Thrust has a version 3: alone, `Thrust - 3` shows both ways (CONTRACTS §2), as `Upper Right Attack - 2` did
    assert "for 3 copies, or \"Thrust (3)\" for version 3" in errors(bundled_index, "Thrust - 3")[0][1]
    # a list writing `Back Away - 2` (no card has a version 2 of it) writes quantities after ` - `
    text = "Persona: Connor MacLeod\nBack Away - 2\nThrust - 3\nUpper Left Attack - 2\n"
    entries, problems, notices, _raw = read(bundled_index, text)
    assert problems == [] and ("Thrust", 3, "Endurance") in entries and ("Upper Left Attack", 2, "Endurance") in entries
    assert notices[0].startswith("line 3: 'Thrust - 3' read as 3 Thrust (the list writes quantities after ' - ', "
                                 "as on line 2)")
    # a version written in brackets stays the version
    assert read(bundled_index, "Persona: Connor MacLeod\nBack Away - 2\nThrust (3) - 2\n")[0][-1][:2] == (
        "Thrust (3)", 2)


# -- 4. quantities in words, and `N copies of` -----------------------------------------------------------------
@pytest.mark.parametrize("form", ["three {n}", "Three {n}", "THREE x {n}", "three copies of {n}", "3 copies of {n}",
                                  "3 copies {n}", "{n} (three)", "{n} (3 copies)", "{n} (three copies)",
                                  "{n} x three", "{n} - three", "{n}: three", "- three {n}", "{n}, three"])
def test_quantities_in_words(bundled_index, form):
    reads_as(bundled_index, "Persona: The Kurgan\n" + form.format(n="Thrust") + "\n2 Upper Left Attack\n")


def test_number_words_up_to_twenty_and_names_that_start_with_one(bundled_index):
    assert read(bundled_index, "ten Thrust\ntwenty Upper Left Attack\none copy of Upper Left Block\n")[0] == [
        ("Thrust", 10, "Endurance"), ("Upper Left Attack", 20, "Endurance"), ("Upper Left Block", 1, "Endurance")]
    assert errors(bundled_index, "3 Thrust\ntwentyone Thrust\n")[0][0] == 2  # past the bound: not a quantity
    for name in ("Four Horsemen", "Clan MacLeod One Year of Love", "One Year of Love", "There Can Be Only One (Block)",
                 "Season Six"):
        entries, problems, _notices, _raw = read(bundled_index, name)
        assert problems == [] and [q for _n, q, _s in entries] == [1], name
    assert [q for _n, q, _s in read(bundled_index, "two Four Horsemen")[0]] == [2]
    # a title that starts with a number word is still a title
    notices, _raw = reads_as(bundled_index, f"Seven Deadly Sins\n{PLAIN}")
    assert notices == ["line 1 read as the deck's title: 'Seven Deadly Sins'"]
    # a misspelt name after a number word: its suggestion keeps the word
    (problem,) = read(bundled_index, f"{PLAIN}three Thrst\n")[1]
    assert problem.suggestions[0] == "Thrust" and rewrite_line("three Thrst", "Thrust", GRAMMAR) == "three Thrust"


# -- 5. versions written short -----------------------------------------------------------------------------------
@pytest.mark.parametrize("mark,version", [("v1", "1"), ("V2", "2"), ("ver. 2", "2"), ("ver 1", "1"),
                                          ("version 2", "2"), ("Version 1", "1")])
def test_a_short_version_mark_suggests_that_version_first(bundled_index, mark, version):
    text = f"{PLAIN}2 Upper Left Block {mark}\n"
    (problem,) = read(bundled_index, text)[1]
    assert problem.suggestions[0] == f"Upper Left Block ({version})"
    assert problem.message == f"unknown card (a version is written in round brackets: Upper Left Block ({version}))"
    fixed = click_first_suggestions(text)
    assert f"2 Upper Left Block ({version})" in fixed
    report = deckcheck.check_text(fixed)
    assert report.input_errors == [] and report.counts["Endurance"] == 7
    # a version no printing has: the versions that exist, none taken for it
    (problem,) = read(bundled_index, f"{PLAIN}2 Lower Center Block {mark.replace(version, '7')}\n")[1]
    assert problem.suggestions and all(s.startswith("Lower Center Block") and "7" not in s for s in problem.suggestions)


@pytest.mark.parametrize("mark", ["(v1)", "(V.1)", "(ver. 1)", "(Ver 1)", "(vers. 1)", "(v 1)"])
def test_a_short_version_mark_in_round_brackets_is_the_version(bundled_index, mark):
    deck, problems = build_deck(parse_text(f"2 Upper Left Attack {mark}"), bundled_index, get_format("type1e"))
    assert problems == [] and [(e.card.title, e.card.version, e.quantity) for e in deck] == [
        ("Upper Left Attack", "1", 2)]


# -- all of them together ------------------------------------------------------------------------------------------
FORUM_POST = ("Hi all,\n\nDeck: \u201cNight Owls\u201d\nFormat: type1e\n\n**Persona:** The Kurgan\n"
              "Attacks (10):\n- Thrust, 3\n\u2022 two copies of Upper Left Attack\nUpper Center Attack: 2\n"
              "Lower Left Attack (three)\nBlocks - 3\nUpper Left Block = 3\n\nThoughts? GLHF \U0001f340\n"
              "\u2014 Viktor\n")
FORUM_PLAIN = ("Persona: The Kurgan\n3 Thrust\n2 Upper Left Attack\n2 Upper Center Attack\n3 Lower Left Attack\n"
               "3 Upper Left Block\n")


def test_a_forum_post_mixing_every_new_form_reads_in_one_round(bundled_index):
    notices, raw = reads_as(bundled_index, FORUM_POST, FORUM_PLAIN)
    assert raw.name == "Night Owls"
    assert [n.split(":")[0] for n in notices] == ["line 1 ignored", "line 3 read as the deck's title",
                                                  "line 15 ignored", "line 16 ignored"]


@pytest.mark.parametrize("line", [
    "Thrust" + ":" * 4090, "," * 4096, "Thrust - " * 455, "three " * 682, "copies of " * 409, "(" * 4095 + ")",
    "v" * 4096, "Deck: " + '"' * 4090, "x " * 2047 + "three", "Thrust (" + "three " * 680 + ")", "Thrust = " * 455,
    "Deck: \u201c" + "\u201d" * 4000, "GLHF " * 819, "Thrust v" + "9" * 4000, "Thrust (v" + "1" * 4000 + ")",
    "twenty " * 585 + "Thrust", "3 copies of " * 372, "Thrust, " + "3" * 4000, "Hi all:" * 585, "a: " * 1365 + "3",
])
def test_hostile_lines_for_the_new_forms_are_read_or_refused_at_their_line(line):
    """The worst lines of the length limit for each new reader: a clear answer at its line, never an exception."""
    line = line[:4096]
    for text in (line + "\n3 Thrust\n", "3 Thrust\n" + line + "\n", "\n".join([line] * 50) + "\n3 Thrust\n"):
        report = deckcheck.check_text(text)
        assert report.counts is not None
        assert all(p.line is not None for p in report.input_errors)
        assert all(len(p.suggestions) <= 6 for p in report.input_errors)


def test_a_post_of_many_chat_lines_is_bounded_and_still_reads_its_cards(bundled_index):
    """Each line around a list costs a look for close names: past the bound of suggestions they stay errors."""
    from deckcheck import limits
    talk = "\n".join(f"Thanks again {i}!" for i in range(limits.SUGGESTED_NAMES.value + 10))
    entries, problems, notices, _raw = read(bundled_index, f"{PLAIN}{talk}\n")
    assert entries == read(bundled_index, PLAIN)[0]
    assert len([n for n in notices if "reads as a remark" in n]) == limits.SUGGESTED_NAMES.value
    assert len(problems) == 10 and all(p.suggestions == () for p in problems)
