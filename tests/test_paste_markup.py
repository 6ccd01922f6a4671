"""Issue 33: markup around a pasted list (code fences, BBCode, HTML source and entities, web tables) is taken off
before its lines are read, with a notice; what a card's name holds (`&`, brackets, a set in `[ME]`) still reads."""
from __future__ import annotations

import pytest

from deckcheck.games import get_format, parse_text
from deckcheck.decks import build_deck


def read(index, text, fmt="type1e"):
    deck, problems = build_deck(parse_text(text), index, get_format(fmt))
    return (sorted((e.card.name, e.quantity, e.section) for e in deck), [(p.line, p.message) for p in problems],
            deck.notices)


@pytest.mark.parametrize("text,taken", [
    ("```\n3 Thrust\n```", "code fences"), ("```txt\n3 Thrust\n```", "code fences"),
    ("`````text\n3 Thrust\n`````", "code fences"), ("~~~\n3 Thrust\n~~~", "code fences"),
    ("```3 Thrust```", "code fences"),
    ("[b]3 Thrust[/b]", "BBCode tags"), ("[list]\n[*]3 Thrust\n[/list]", "BBCode tags"),
    ("[list][*]3 Thrust[/list]", "BBCode tags"), ("3 [url=https://example.org/t?a=1]Thrust[/url]", "BBCode tags"),
    ("[COLOR=red]3x Thrust[/COLOR]", "BBCode tags"),
    ("<ul><li>3 Thrust</li></ul>", "HTML tags"), ("<p>3 <b>Thrust</b></p>", "HTML tags"),
    ("<table><tr><td>3</td><td>Thrust</td></tr></table>", "HTML tags"),
    ("<div class=\"x\">3&nbsp;Thrust</div>", "HTML tags"), ("3&#32;Thrust", "HTML entities"),
    ("<!-- my list -->\n3 Thrust", "HTML tags"),
])
def test_each_markup_is_taken_off_with_a_notice(bundled_index, text, taken):
    entries, problems, notices = read(bundled_index, text)
    assert (entries, problems) == ([("Thrust", 3, "Endurance")], [])
    assert any(n.startswith("markup taken off") and taken in n for n in notices), notices


@pytest.mark.parametrize("text,card", [
    ("<li>Slash (Upper Left &amp; Lower Right)</li>", "Slash (Upper Left & Lower Right)"),
    ("Slash (Upper Left & Lower Right)", "Slash (Upper Left & Lower Right)"),
    ("Duncan MacLeod Master&rsquo;s Attack", "Duncan MacLeod Master's Attack"),
    ("Duncan MacLeod Master&#39;s Attack", "Duncan MacLeod Master's Attack"),
])
def test_names_holding_ampersands_and_brackets_still_read(bundled_index, text, card):
    entries, problems, _ = read(bundled_index, text)
    assert (entries, problems) == ([(card, 1, "Endurance")], [])


def test_a_set_in_square_brackets_is_no_bbcode(bundled_index):
    entries, problems, notices = read(bundled_index, "[b]3 Thrust [ME][/b]\n[i]2 Lunge[/i]\n[*]1 Immortal (A&amp;D)")
    assert problems == [] and entries == [("Immortal (A&D)", 1, "Pre-Game"), ("Lunge", 2, "Endurance"),
                                          ("Thrust (1)", 3, "Endurance")]


def test_a_web_table_names_the_columns_it_does_not_read(bundled_index):
    text = ("<h3>My deck</h3>\n<table><tr><th>Qty</th><th>Card</th><th>Type</th><th>Cost</th></tr>\n"
            "<tr><td>3</td><td>Thrust</td><td>Attack</td><td>-</td></tr></table>")
    entries, problems, notices = read(bundled_index, text)
    assert (entries, problems) == ([("Thrust", 3, "Endurance")], [])
    assert "line 2: the table's columns 'Type', 'Cost' are not read" in " ".join(notices)


def test_errors_keep_the_line_the_person_sees(bundled_index):
    _entries, problems, _ = read(bundled_index, "```\n<ul>\n<li>3 Thrust</li><li>2 Thrst</li>\n</ul>\n```")
    assert [line for line, _m in problems] == [3]


def test_text_that_is_no_markup_is_left_alone(bundled_index):
    entries, problems, notices = read(bundled_index, "3 Thrust\n# a <3 remark & more [sic]\n2 Lunge")
    assert problems == [] and not any("markup" in n for n in notices)
