"""The decklist grammar end to end on the bundled cards: every example of issue 10, one row each."""
from __future__ import annotations

import pytest

from deckcheck.games import get_format, parse_text
from deckcheck.decks import build_deck


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


# Found by the trial of pasted lists (issue 20): forms a person recognises at once as a decklist, each read in
# one round to the cards of the plain form.
PLAIN_TRIAL = [("Duncan MacLeod Persona", 1, "Pre-Game"), ("Thrust", 3, "Endurance"),
               ("Joe's", 1, "Endurance"), ("Gypsy's Curse", 1, "Endurance")]


@pytest.mark.parametrize("text", [
    # a chat's emoji as bullets and around headings
    "🃏 Pre-Game 🃏\n👤 Duncan MacLeod Persona\n🗡️ Attacks 🗡️\n✅ 3 Thrust\n✨ Events ✨\n➤ Joe's\n☑️ Gypsy's Curse 🍀\n",
    # a CSV pasted with its header row, commas or semicolons, quotes as a CSV reader reads them
    "Quantity,Card Name,Set Name\n1,Duncan MacLeod Persona,\n3,Thrust,\n1,\"Joe's\",\n1,Gypsy's Curse,\n",
    "Qty;Card\n1;Duncan MacLeod Persona\n3;Thrust\n1;Joe's\n1;Gypsy's Curse\n",
    # a Markdown table (its rule row is no card)
    "| Qty | Card | Set |\n|----:|:-----|-----|\n| 1 | Duncan MacLeod Persona | |\n| 3 | Thrust | |\n"
    "| 1 | Joe's | |\n| 1 | Gypsy's Curse | |\n",
    # kinds of card of one section written as one heading
    "Persona: Duncan MacLeod\nATTACKS:\n3 Thrust\nEVENTS/SITUATIONS:\nJoe's\nGypsy's Curse\n",
    "Persona: Duncan MacLeod\nAttacks (3)\n3 Thrust\nLocations & Situations (2)\nJoe's\nGypsy's Curse\n",
    "Persona: Duncan MacLeod\nAttacks\n3 Thrust\nLocations and Situations\nJoe's\nGypsy's Curse\n",
])
def test_trial_pastes_read_as_the_plain_list(bundled_index, text):
    entries, problems, notices = read(bundled_index, text)
    assert problems == [] and sorted(entries) == sorted(PLAIN_TRIAL), (problems, entries)
    assert not any("heading says" in n for n in notices)


def test_a_markdown_table_with_sets_picks_the_printing(bundled_index):
    entries, problems, _ = read(bundled_index, "| Qty | Card | Set |\n|---|---|---|\n| 3 | Thrust | ME |\n")
    assert problems == [] and entries == [("Thrust (1)", 3, "Endurance")]


def test_a_combined_heading_of_two_sections_is_still_refused(bundled_index):
    _entries, problems, _ = read(bundled_index, "Attacks/Persona:\n3 Thrust\n")
    assert [p.line for p in problems] == [1]


@pytest.mark.parametrize("text,entry", [
    ("Quickening: Duncan MacLeod", ("Quickening (Duncan MacLeod)", 1, "Pre-Game")),
    ("Quickening: Kurgan", ("Quickening (Kurgan)", 1, "Pre-Game")),
    ("Quickening - The Kurgan", ("Quickening (Kurgan)", 1, "Pre-Game")),
    ("Persona: Kurgan", ("The Kurgan Persona", 1, "Pre-Game")),
])
def test_a_label_line_names_its_card_by_the_immortal(bundled_index, text, entry):
    entries, problems, _ = read(bundled_index, text)
    assert problems == [] and entries == [entry]


@pytest.mark.parametrize("text", ["Thrust x3 (ME)", "Thrust ×3 (ME)", "Thrust *3 (ME)", "Thrust (x3) (Movie Edition)",
                                  "1. 3x Thrust [ME]", "2) 3 Thrust (ME)", "12. Thrust x3 (ME)"])
def test_a_trailing_quantity_before_a_round_bracket_and_list_numbers_read(bundled_index, text):
    # `Thrust ×3 (ME)` was read silently as one copy of `Thrust (3)`; `1. 3x Thrust` was refused
    entries, problems, _ = read(bundled_index, "Endurance:\n" + text)
    assert problems == [] and entries == [("Thrust (1)", 3, "Endurance")]


@pytest.mark.parametrize("text", ["3) Thrust", "[3] Thrust", "3.Thrust", "3,Thrust,", "4. Thrust"])
def test_a_number_not_read_as_a_quantity_is_never_suggested_as_a_version(bundled_index, text):
    _entries, problems, _ = read(bundled_index, "Endurance:\n" + text)
    (problem,) = problems
    # before: `Thrust (3)` first, one click from one copy of version 3; now the versions stand in their order
    assert problem.suggestions[:3] == ("Thrust", "Thrust (1)", "Thrust (2)")


@pytest.mark.parametrize("text", ["Qty\tName\n3\tThrust\n3 Thrust\n", "Qty,Card\n3,Thrust\n3 Thrust\n",
                                  "| Qty | Card |\n|---|---|\n| 3 | Thrust |\n3 Thrust\n"])
def test_a_line_of_a_pasted_table_without_its_cells_is_refused_at_its_line(bundled_index, text):
    # a Markdown table dropped such a line without a word; a tab table called it a bad quantity
    entries, problems, _ = read(bundled_index, text)
    assert entries == [("Thrust", 3, "Endurance")]
    assert [(p.line, "not a row of the table" in p.message) for p in problems] == [(len(text.splitlines()), True)]


@pytest.mark.parametrize("heading", ["Other:", "**Other**", "✨ Other ✨", "Misc (3)", "Tech:", "Others",
                                     "Attack cards:", "Endurance deck:", "Main Deck (3)", "Special Cards:"])
def test_headings_posts_use_for_the_rest_read(bundled_index, heading):
    # `**Other**` was an unknown card whose first suggestion, `Rules (Other Terms and Concepts)`, made it a card
    entries, problems, notices = read(bundled_index, f"Persona: Duncan MacLeod\n{heading}\n3 Thrust\n")
    assert problems == [] and ("Thrust", 3, "Endurance") in entries and notices == []


@pytest.mark.parametrize("heading", ["Side:", "SB:", "Side deck:", "Sideboard cards (3):", "Maybe:"])
def test_side_board_abbreviations_keep_cards_out_of_the_deck(bundled_index, heading):
    entries, problems, notices = read(bundled_index, f"Persona: Duncan MacLeod\n1 Left Guard\n{heading}\n3 Thrust\n")
    assert problems == [] and ("Thrust", 3, "Endurance") not in entries
    assert any("3 cards under" in n for n in notices)


def test_a_heading_count_written_with_an_x_and_immortals_without_the(bundled_index):
    # `Attacks (x3)` was an unknown card one click from `Pedestrian (No Attacks)`; `Kurgan Taunt` was unknown
    text = "Persona: Kurgan\nAttacks (x3)\n3 Thrust\nEvents [2x]\n2x Kurgan Taunt\nDodges (×1)\nBack Away (Kurgan)\n"
    entries, problems, notices = read(bundled_index, text)
    assert problems == [] and notices == []
    assert entries == [("The Kurgan Persona", 1, "Pre-Game"), ("Thrust", 3, "Endurance"),
                       ("The Kurgan Taunt", 2, "Endurance"), ("The Kurgan Back Away", 1, "Endurance")]


def test_a_singular_kind_with_an_x_count_stays_a_card_line(bundled_index):
    entries, problems, _ = read(bundled_index, "Persona: Duncan MacLeod\nDodge (x3)\n")
    assert problems == [] and ("Duncan MacLeod Dodge", 3, "Endurance") in entries


@pytest.mark.parametrize("title", ["Kurgan Beatdown - 2nd place @ Regionals!!", "My Duncan list [v2]"])
def test_the_title_line_is_kept_whole(bundled_index, title):
    # an `@` (an Item's attachment in raven-stormcrow) or a bracket cut the title short
    _entries, problems, notices = read(bundled_index, f"{title}\nPersona: Duncan MacLeod\n3 Thrust\n")
    assert problems == [] and f"line 1 read as the deck's title: {title!r}" in notices


def test_a_numbered_list_reads_its_numbers_as_the_lists(bundled_index):
    # `3. Quickening (Duncan MacLeod)` was an unknown card: 1, 2, 3 ... in order number the list, not copies
    text = ("My Duncan list\n1. Duncan MacLeod Persona\n2. Quickening (Duncan MacLeod)\n3. 3x Thrust\n"
            "4) Left Guard\n")
    entries, problems, _ = read(bundled_index, text)
    assert problems == [] and entries == [("Duncan MacLeod Persona", 1, "Pre-Game"),
                                          ("Quickening (Duncan MacLeod)", 1, "Pre-Game"),
                                          ("Thrust", 3, "Endurance"), ("Left Guard", 1, "Endurance")]


def test_numbers_that_do_not_run_1_2_3_are_not_taken_for_a_numbered_list(bundled_index):
    _entries, problems, _ = read(bundled_index, "Endurance:\n2. Thrust\n3. Left Guard\n4. Right Guard\n")
    assert [p.line for p in problems] == [2, 3, 4]
