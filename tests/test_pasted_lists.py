"""Decklists as people paste them (issue 20, CONTRACTS.md §2 revision 3): every form reads to the same cards
as its plainest form, alone and mixed; unclear lines are refused at their line with suggestions that are safe."""
from __future__ import annotations

from pathlib import Path

import pytest

import deckcheck
from deckcheck.decklist import rewrite_line
from deckcheck.games import get_format, parse_text, registry
from deckcheck.decks import build_deck

GRAMMAR = registry().grammar  # the words of every registered game

PASTED = Path(__file__).parent / "data" / "pasted"


def read(index, text, fmt="type1e"):
    deck, problems = build_deck(parse_text(text), index, get_format(fmt))
    return sorted((e.card.name, e.quantity, e.section) for e in deck), problems, deck.notices


def same_as_plain(index, text, plain="3 Thrust", fmt="type1e"):
    entries, problems, _ = read(index, text, fmt)
    assert problems == [], [(p.line, p.text, p.message) for p in problems]
    assert entries == read(index, plain, fmt)[0]
    return entries


# one row per form of CONTRACTS.md §2 revision 3: each reads as `3 Thrust`
@pytest.mark.parametrize("text", [
    # bullets
    "- 3 Thrust", "* 3x Thrust", "• Thrust x3", "•3 Thrust", "· 3 Thrust", "– 3 Thrust", "— 3 Thrust",
    "+ 3 Thrust", "> 3 Thrust", "> - 3 Thrust", "- Thrust *3",
    # Markdown emphasis
    "*Thrust* x3", "**Thrust** x3", "__Thrust__ x3", "3 **Thrust**",
    # remarks, separators around a line
    "3 Thrust // staple", "-----\n3 Thrust\n=====", "* * *\n3 Thrust\n~~~\n___\n###",
    # phone and word-processor characters
    "3\u00a0Thrust", "3\u2009Thrust", "3\u3000Thrust", "\ufeff3 Thrust", "\uff13 Thrust", "Thrust x\uff13",
    "3 Thrust\r\n", "\r\n3 Thrust\r", "3 \u200bThrust",
    # spreadsheet cells
    "3\tThrust", "Thrust\t3", "3x\tThrust",
    # quantity forms
    "x3 Thrust", "X3 Thrust", "3x: Thrust", "3: Thrust",
])
def test_each_pasted_form_reads_as_the_plain_line(bundled_index, text):
    assert same_as_plain(bundled_index, text) == [("Thrust", 3, "Endurance")]


def test_two_digit_quantities_are_ten_not_one_nor_a_version(bundled_index):
    for text in ("10x Thrust", "10 Thrust", "x10 Thrust", "Thrust x10", "10\tThrust", "Thrust\t10", "- 10x Thrust",
                 "\uff11\uff10 Thrust"):
        assert read(bundled_index, text)[0] == [("Thrust", 10, "Endurance")], text
    assert read(bundled_index, "12 Upper Left Block")[0] == [("Upper Left Block", 12, "Endurance")]


@pytest.mark.parametrize("name", ["Duncan MacLeod Master's Attack", "Duncan MacLeod Master\u2019s Attack",
                                  "Duncan MacLeod Master\u2018s Attack", "Duncan MacLeod Master\u02bcs Attack",
                                  "Duncan MacLeod Master\u00b4s Attack", "Duncan MacLeod Master`s Attack",
                                  "Duncan MacLeod Masters Attack", "DUNCAN MACLEOD MASTER\u2019S ATTACK"])
def test_every_apostrophe_form_folds_alike(bundled_index, name):
    assert read(bundled_index, name)[0] == [("Duncan MacLeod Master's Attack", 1, "Endurance")]
    assert deckcheck.text.normalize(name) == "duncan macleod masters attack"


@pytest.mark.parametrize("apostrophe", deckcheck.text.APOSTROPHES)
def test_one_apostrophe_table_for_the_reader_and_for_names(bundled_index, apostrophe):
    """A name typed anywhere (a command, a sheet cell) folds as the decklist reader folds it: the prime too."""
    name = f"Duncan MacLeod Master{apostrophe}s Attack"
    assert deckcheck.text.normalize(name) == "duncan macleod masters attack"
    assert bundled_index.lookup(name).name == "Duncan MacLeod Master's Attack"
    assert read(bundled_index, name)[0] == [("Duncan MacLeod Master's Attack", 1, "Endurance")]


@pytest.mark.parametrize("heading", [
    "Attacks (3):", "Attacks (3)", "Attacks - 3", "Attacks \u2013 3", "Attacks [3]", "Attacks: 3", "ATTACKS (3):",
    "Attacks (3 cards):", "Endurance (3 cards):", "## Attacks (3)", "### Attacks", "**Attacks:**", "__Attacks__",
    "**Attacks (3):**", "Attacks", "ATTACKS:", "Endurance", "# Attacks (3)",
])
def test_headings_in_every_way_posts_write_them(bundled_index, heading):
    entries, problems, notices = read(bundled_index, f"{heading}\n3 Thrust\n")
    assert problems == [] and entries == [("Thrust", 3, "Endurance")]
    assert not [n for n in notices if "heading says" in n]


@pytest.mark.parametrize("heading,says", [("Attacks (24):", 24), ("Attacks - 24", 24), ("Attacks [24]", 24),
                                          ("Attacks: 24", 24), ("Endurance (50 cards):", 50), ("BLOCKS (2)", 2)])
def test_a_heading_count_that_differs_is_a_notice_never_an_error(bundled_index, heading, says):
    report = deckcheck.check_text(f"{heading}\n3 Thrust\n- 2 Upper Left Attack\nBlocks:\n1 Upper Left Block\n")
    assert report.input_errors == []
    assert f"line 1: the heading says {says}; 5 cards follow" in report.notices


def test_a_heading_count_counts_the_lines_up_to_the_next_heading_label_lines_included(bundled_index):
    text = "Pre-Game (2 cards):\nPersona: Duncan MacLeod\nWeapon of Choice: Katana Sword\nAttacks (4):\n4 Thrust\n"
    entries, problems, notices = read(bundled_index, text)
    assert problems == [] and notices == []
    assert ("Thrust", 4, "Endurance") in entries and len(entries) == 3


def test_a_markdown_sideboard_heading_keeps_its_cards_out(bundled_index):
    entries, problems, notices = read(bundled_index, "3 Thrust\n## Sideboard\n2 Upper Left Block\n")
    assert problems == [] and entries == [("Thrust", 3, "Endurance")]
    assert "2 cards under Sideboard: read, not part of the deck" in notices


def test_a_hash_line_that_is_no_heading_stays_a_comment(bundled_index):
    assert same_as_plain(bundled_index, "# My deck: notes for Saturday\n#Attacks\n## not a heading\n3 Thrust")


@pytest.mark.parametrize("total,differs", [
    ("Total: 5", False), ("Total: 5 cards", False), ("5 cards", False), ("Endurance total: 5", False),
    ("Total Endurance = 5", False), ("**Total: 5**", False), ("Total: 51", True), ("51 cards", True),
    ("Endurance total: 6", True), ("Pre-Game: 2 cards", True), ("Pre-Game total: 0", False),
])
def test_total_lines_are_compared_not_read_as_cards(bundled_index, total, differs):
    entries, problems, notices = read(bundled_index, f"3 Thrust\n2 Upper Left Attack\n{total}\n")
    assert problems == [] and len(entries) == 2
    assert bool([n for n in notices if n.startswith("line 3:")]) is differs, notices


def test_a_running_total_after_each_heading_reads(bundled_index):
    text = "Attacks:\n3 Thrust\nTotal: 3\nBlocks:\n2 Upper Left Block\nTotal: 2\n---\nTotal: 5 cards\n"
    entries, problems, notices = read(bundled_index, text)
    assert problems == [] and notices == [] and len(entries) == 2


def test_the_first_line_that_names_no_card_is_the_title(bundled_index):
    report = deckcheck.check_text("Sunday league list\n\n3 Thrust\n")
    assert report.input_errors == [] and report.counts["Endurance"] == 3
    assert report.notices == ["line 1 read as the deck's title: 'Sunday league list'"]
    for text in ("Connor\u2019s Blade of the Highlands\n3 Thrust", "**Sunday league list**\n3 Thrust",
                 "# comment\n\nSunday league list\n3 Thrust"):
        report = deckcheck.check_text(text)
        assert report.input_errors == [] and "deck's title" in report.notices[0], text


def test_a_title_close_to_a_card_is_refused_first_suggesting_to_read_it_as_the_title(bundled_index):
    report = deckcheck.check_text("Dunkan's Fury\n3 Thrust\n")
    (problem,) = report.input_errors
    assert problem.line == 1 and problem.suggestions[0] == "Name: Dunkan's Fury"
    assert "Duncan MacLeod Warrior's Fury" in problem.suggestions[1:]
    fixed = rewrite_line("Dunkan's Fury", problem.suggestions[0], GRAMMAR)
    assert deckcheck.check_text(f"{fixed}\n3 Thrust\n").input_errors == []


def test_only_the_first_line_can_be_a_title(bundled_index):
    for text in ("3 Thrust\nSunday league list\n", "Attacks:\nSunday league list\n",
                 "Name: X\nFormat: type1e\n3 Upper Left Attack\nSunday league list\n"):
        problems = read(bundled_index, text)[1]
        assert [p.message for p in problems] == ["unknown card"], text


def test_label_lines_name_their_card_and_leave_the_others_where_they_belong(bundled_index):
    text = "Persona: Duncan MacLeod\n" + "".join(f"3 {n} Attack\n" for n in ("Upper Left", "Lower Right")) + \
           "2 Dodge\nWeapon of Choice: Katana Sword\n2 Back Away\nPremium: Duncan MacLeod Premium (2 additional " \
           "Pre-Game Cards)\n1 Upper Left Block\n"
    report = deckcheck.check_text(text)
    assert report.input_errors == []
    assert [i.rule for i in report.issues if i.rule == "HL-SECTION"] == []
    assert report.counts == {"Pre-Game": 3, "Endurance": 11}
    for label in ("Persona - Duncan MacLeod", "**Persona:** Duncan MacLeod", "PERSONA: Duncan MacLeod"):
        report = deckcheck.check_text(f"{label}\n3 Thrust\n2 Upper Left Block\n")
        assert report.counts == {"Pre-Game": 1, "Endurance": 5} and report.persona == "Duncan MacLeod", label
        assert not [i for i in report.issues if i.rule == "HL-SECTION"]


def test_a_label_line_keeps_the_section_in_force_and_explicit_sections_still_judge(bundled_index):
    entries, problems, _ = read(bundled_index, "Endurance:\nPersona: Duncan MacLeod\n3 Thrust\n")
    assert problems == [] and ("Thrust", 3, "Endurance") in entries
    report = deckcheck.check_text("Pre-Game:\nPersona: Duncan MacLeod\n3 Thrust\n")
    assert [i.rule for i in report.issues if i.rule == "HL-SECTION"] == ["HL-SECTION"]  # Thrust under Pre-Game:


@pytest.mark.parametrize("text,entry", [
    ("3 Thrust (ME)", ("Thrust (1)", 3, "Endurance")),
    ("3 Thrust (Movie Edition)", ("Thrust (1)", 3, "Endurance")),
    ("Thrust (The Movie Edition) x3", ("Thrust (1)", 3, "Endurance")),
    ("Duncan MacLeod Dodge (Series Edition)", ("Duncan MacLeod Dodge", 1, "Endurance")),
    ("Upper Right Attack (2)", ("Upper Right Attack (2)", 1, "Endurance")),  # a version, not a set
])
def test_a_set_in_round_brackets(bundled_index, text, entry):
    entries, problems, _ = read(bundled_index, text)
    assert problems == [] and entries == [entry]


def test_a_pasted_table_with_a_header_reads_as_the_csv_reader_reads_it(bundled_index, tmp_path):
    from deckcheck.importers.decklists import read_decklists
    table = "Qty\tName\tSet\n3\tThrust\tME\n2\tUpper Left Block\t\n\n1\tDuncan MacLeod Persona\t\n"
    as_text = read(bundled_index, table)
    path = tmp_path / "deck.tsv"
    path.write_text(table, encoding="utf-8")
    (raw,) = read_decklists(path)
    deck, problems = build_deck(raw, bundled_index, get_format("type1e"))
    assert as_text[1] == problems == []
    assert as_text[0] == sorted((e.card.name, e.quantity, e.section) for e in deck)
    bad = read(bundled_index, "Qty\tCard\nthree\tThrust\n2\tThrst\n")[1]
    assert [(p.line, p.message[:20]) for p in bad] == [(2, "quantity 'three' is "), (3, "unknown card")]


def test_the_type1e_reading_of_a_2nd_edition_card_says_so(bundled_index):
    entries, problems, notices = read(bundled_index, "Weapon of Choice: Katana\n")
    assert problems == [] and entries == [("Katana Pre-Game", 1, "Pre-Game")]
    (notice,) = notices
    assert notice.startswith("line 1: 'Katana' read as the 2nd-edition card Katana Pre-Game [")
    assert notice.endswith("]: no 1st-edition card has that name")
    assert read(bundled_index, "Weapon of Choice: Katana\n", "type2")[2] == []


@pytest.mark.parametrize("text,message", [
    ("3 Thrust x2", "the quantity is written twice (3 before the name, 2 after it)"),
    ("- 3 Thrust x2", "the quantity is written twice"),
    ("Upper Right Attack 2", '"2 Upper Right Attack" for 2 copies'),
    ("- Upper Right Attack - 2", '"2 Upper Right Attack" for 2 copies'),
    ("3 Thrust\nThis is my favourite deck, what do you think?\n", "not a card line: it reads as a sentence"),
])
def test_unclear_lines_are_still_refused_at_their_line(bundled_index, text, message):
    if text.endswith("\n"):  # the talk after a list is a remark: in the middle of one, it is refused
        text += "2 Upper Left Attack"
        problems = read(bundled_index, text)[1]
        assert message in problems[-1].message and problems[-1].line == 2
        return
    problems = read(bundled_index, text)[1]
    assert message in problems[-1].message and problems[-1].line == text.count("\n") + 1


def test_no_card_suggestion_for_prose_headings_or_totals(bundled_index):
    text = ("Attack of the clones\nHere is my deck, tell me what you think.\nStuff I like:\nTotal: 3\n"
            "3 Thrust\n")
    problems, notices = read(bundled_index, text)[1:]  # before the list: the post around it, remarks
    assert problems == [] and [n[:15] for n in notices if "ignored" in n] == ["line 2 ignored:", "line 3 ignored:"]
    problems = read(bundled_index, "2 Dodge (Connor MacLeod)\n" + text)[1]  # inside the list: refused
    assert [(p.line, p.suggestions) for p in problems] == [(2, ()), (3, ()), (4, ())]


def test_suggestions_keep_the_quantity_and_never_make_it_a_version(bundled_index):
    problems = read(bundled_index, "- 3 Upper Left Atack\n")[1]
    assert "Upper Left Attack (3)" not in problems[0].suggestions[:1]
    assert rewrite_line("- 3 Upper Left Atack", problems[0].suggestions[0], GRAMMAR) == "3 Upper Left Attack"
    for line, suggestion, fixed in [
        ("- 3 Upper Left Atack", "Upper Left Attack (3)", "3 Upper Left Attack (3)"),
        ("• Thrst x3 [ME] // staple", "Thrust", "Thrust x3 [ME]"),
        ("**Persona:** Dunkan MacLeod", "Duncan MacLeod", "Persona: Duncan MacLeod"),
        ("Thrst\t3", "Thrust", "3 Thrust"), ("3\tThrst", "Thrust [SE]", "3 Thrust [SE]"),
        ("Thrust [XX] x2", "Thrust [ME]", "2 Thrust [ME]"), ("Sunday lst", "Name: Sunday lst", "Name: Sunday lst"),
        ("2 Back Away", "Back Away (Kern)", "2 Back Away (Kern)"),
    ]:
        assert rewrite_line(line, suggestion, GRAMMAR) == fixed


MESSY = ("\ufeffDuncan\u2019s Highland Fury \u2013 v2\r\n\r\n**Persona:** Duncan MacLeod\r\n=====\r\n"
         "## Attacks (11)\r\n- 3x Uper Left Attack\r\n\u2022 Thrust x4 // staple\r\nx2 Lower Right Atack\r\n"
         "2\tUpper Right Attack\r\nBLOCKS [5]:\r\n* 3 Upper Left Block (SE)\r\nLower Left Block\t2\r\n"
         "__Specials__\r\n- 2 Back Away\r\n* Duncan MacLeod Master\u2018s Atack\r\n3 Dodge x2\r\n"
         "Total: 19 cards\r\n")


def test_clicking_the_first_suggestion_of_each_refused_line_leads_to_a_list_that_reads(bundled_index):
    text = MESSY
    for _round in range(5):
        report = deckcheck.check_text(text)
        fixable = [p for p in report.input_errors if p.suggestions]
        if not fixable:
            break
        lines = text.splitlines(keepends=True)
        for p in fixable:
            assert p.line is not None
            body = lines[p.line - 1].rstrip("\r\n")
            lines[p.line - 1] = rewrite_line(body, p.suggestions[0], GRAMMAR) + lines[p.line - 1][len(body):]
        text = "".join(lines)
    report = deckcheck.check_text(text)
    assert [(p.line, p.message[:29]) for p in report.input_errors] == [(16, "the quantity is written twice")]
    text = text.replace("3 Dodge x2", "3 Dodge")
    report = deckcheck.check_text(text)
    assert report.input_errors == [] and report.persona == "Duncan MacLeod"
    assert report.counts == {"Pre-Game": 1, "Endurance": 22}
    assert "line 17: the total says 19; the list holds 1 in the Pre-Game, 22 in the Endurance" in report.notices
    assert [i for i in report.issues if i.rule == "HL-SECTION"] == []


def test_one_list_mixing_every_form_reads_as_its_plain_form(bundled_index):
    plain = ("Persona: Duncan MacLeod\n3 Upper Left Attack\n4 Thrust\n2 Lower Right Attack\n2 Upper Right Attack\n"
             "3 Upper Left Block\n2 Lower Left Block\n2 Back Away\n1 Duncan MacLeod Master's Attack\n2 Dodge\n"
             "10 Upper Center Attack\n3 Thrust [ME]\n")
    mixed = ("\ufeffDuncan\u2019s Highland Fury \u2013 v2\r\n\r\n**Persona:** Duncan MacLeod\r\n=====\r\n"
             "## Attacks (11)\r\n- 3x Upper Left Attack\r\n\u2022 Thrust x4 // staple\r\nx2 Lower Right Attack\r\n"
             "2\tUpper Right Attack\r\nBLOCKS [5]:\r\n* 3 Upper\u00a0Left Block\r\nLower Left Block\t2\r\n"
             "__Specials__\r\n- 2 Back Away\r\n* Duncan MacLeod Master\u2018s Attack\r\n> 2x: Dodge\r\n"
             "Attacks - 13\r\n\uff11\uff10x Upper Center Attack\r\n*Thrust* (ME) x3\r\n---\r\nTotal: 34 cards\r\n")
    assert read(bundled_index, mixed)[:2] == (read(bundled_index, plain)[0], [])
    assert read(bundled_index, mixed)[2] == ["line 1 read as the deck's title: \"Duncan's Highland Fury - v2\""]


@pytest.mark.parametrize("name", sorted(p.name for p in PASTED.glob("*.txt")))
def test_forum_posts_read_in_one_round_to_the_plain_deck(bundled_index, name):
    plain = read(bundled_index, (PASTED / "plain.txt").read_text(encoding="utf-8"))
    text = (PASTED / name).read_bytes().decode("utf-8")
    entries, problems, notices = read(bundled_index, text)
    assert problems == [], [(p.line, p.text, p.message) for p in problems]
    assert entries == plain[0]
    assert not [n for n in notices if "says" in n], notices  # every stated count is right
    report = deckcheck.check_text(text)
    assert report.counts == {"Pre-Game": 1, "Endurance": 55} and report.persona == "Duncan MacLeod"


@pytest.mark.parametrize("text", [
    "Hi all,\n\nSee you Saturday at the store. Bring your decks!\n\nCheers,\nMark\n",
    "Pancakes\n\n2 eggs\n250 g flour\n500 ml milk\nA pinch of salt\n\nWhisk everything and rest it for an hour.\n",
    "[12:01] <anna> anyone up for a game tonight?\n[12:02] <bob> sure, 8pm\n",
    "Lorem ipsum dolor sit amet",
    "https://example.com/my-deck\n",
    "1\n2\n3\n",
])
def test_text_that_is_no_decklist_fails_loudly(text):
    report = deckcheck.check_text(text)
    assert report.legal is None and report.input_errors


def test_the_same_suggestions_in_the_same_order_everywhere(bundled_index):
    """One ranker: the library on the bundled cards, the index of the tests and a database's cards agree."""
    text = "Persona: Duncan MacLeod\n3 Uper Left Attack\nDunkan Back Away\nKurgen Master Disarm\nDodg\n"
    library = [(p.line, p.suggestions) for p in deckcheck.check_text(text).input_errors]
    index = [(p.line, p.suggestions) for p in read(bundled_index, text)[1]]
    assert library == index and len(library) == 4 and all(s for _line, s in library)
    assert library[0][1][0] == "Upper Left Attack"
    assert library[1][1][0] == "Duncan MacLeod Back Away"
    assert library[2][1][0] == "The Kurgan Master's Disarm"


@pytest.mark.parametrize("line", [
    "*" * 4096, "#" * 4096, "-" * 4095 + "x", "\t" * 4096, "**" * 2048, "- " * 2048, "> " * 2048,
    "Attacks (" + "9" * 4000 + "):", "Total: " + "9" * 4000, "x" + "9" * 4000 + " Thrust", "//" * 2048,
    "3x:" * 1000, "\u2022" * 4096, "\u00a0" * 4096, "\uff13" * 4096, "Persona - " * 400, "a" + ":" * 4095,
    "Qty\tName\n" + "\t" * 4000 + "3\tThrust", "*" + "a" * 4094 + "*",
])
def test_hostile_pasted_lines_are_read_or_refused_at_their_line(line):
    """Every new form's reader on the worst lines of the length limit: a clear answer, never an exception."""
    report = deckcheck.check_text(line + "\n3 Thrust\n")
    assert report.counts is not None
    assert all(p.line is not None for p in report.input_errors)
    assert all(len(p.suggestions) <= 6 for p in report.input_errors)
