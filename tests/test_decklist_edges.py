"""The decklist parser (CONTRACTS.md §2, revision 3 included) at the edges the mutation runner found unpinned
(scripts/mutation.py over deckcheck.decklist): each test names the clause it holds to, at its limit and one past."""
from __future__ import annotations

import pytest

from deckcheck import decklist
from deckcheck.decklist import MAX_QUANTITY, CardText, _is_separator, parse_card_text
from deckcheck.games import parse_text, registry

GRAMMAR = registry().grammar  # the words of every registered game


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
    assert GRAMMAR.known_sections(declared) == sections


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


# -- Markdown emphasis (revision 3: `**Blocks:**`, `__Blocks__`, and the single marks `*Blocks*`, `_Blocks_`) ----------
@pytest.mark.parametrize("text", ["*Blocks*", "_Blocks_", "*Blocks:*", "*Blocks*:", "_Blocks:_", "**Blocks:**",
                                  "__Blocks__", "*Blocks (2)*", "*Blocks* (2)"])
def test_a_heading_in_markdown_emphasis_is_that_heading(text):
    deck = parse_text(f"3 Thrust\n{text}\n2 Upper Left Block\n")
    assert [(l.line, l.section) for l in deck.lines] == [(1, None), (3, "endurance")] and deck.problems == []


def test_a_singular_kind_in_emphasis_is_a_heading_alone_a_card():
    """`Dodge` alone is the card's title; `*Dodge*` on its own line is written as a heading."""
    assert [(l.section, l.readings) for l in parse_text("1 Thrust\nDodge\n").lines][1:] == [(None, ((1, "Dodge"),))]
    deck = parse_text("1 Thrust\n*Dodge*\n2 Upper Left Block\n")
    assert [(l.section, l.readings[0]) for l in deck.lines][1:] == [("endurance", (2, "Upper Left Block"))]


@pytest.mark.parametrize("line,read", [
    ("*Thrust* x3", "Thrust x3"), ("_Thrust_ x3", "Thrust x3"), ("*Thrust*: 3", "Thrust: 3"), ("*Thrust*", "Thrust"),
    ("*Thrust*x3", "*Thrust*x3"),  # closed before a letter: no emphasis
    ("*Thrust x3", "*Thrust x3"), ("* Thrust*", "* Thrust*"), ("*", "*"), ("**", ""), ("*a*", "a"),
    ("Thrust *3", "Thrust *3"), ("_*Thrust*_", "*Thrust*"),
])
def test_only_a_mark_that_opens_the_line_and_closes_before_a_space_a_colon_or_the_end_is_emphasis(line, read):
    assert decklist._strip_markdown(line)[0] == read


# -- heading forms (CONTRACTS §2: `Word:`, counts in brackets, after a dash or a colon, label lines) -----------------
@pytest.mark.parametrize("line,marked,heading", [
    ("Attacks:", False, ("Attacks", "", None)), ("Attack (3):", False, ("Attack", "", 3)),
    ("Attacks (3): Thrust", False, ("Attacks", "Thrust", 3)), ("Attacks (3): x: y", False, ("Attacks", "x: y", 3)),
    ("Attacks (3):Thrust", False, ("Attacks", "Thrust", 3)), ("Attacks (3):x", False, ("Attacks", "x", 3)),
    ("Attacks (24)", False, ("Attacks", "", 24)), ("Attacks [24]", False, ("Attacks", "", 24)),
    ("Attacks - 24", False, ("Attacks", "", 24)), ("Attacks: 24", False, ("Attacks", "", 24)),
    ("Attacks: 24 cards", False, ("Attacks", "", 24)), ("Attack: 3", False, ("Attack", "", 3)),
    ("Name: 24", False, ("Name", "24", None)), ("Format: 2", False, ("Format", "2", None)),
    ("Persona - Duncan MacLeod", False, ("Persona", "Duncan MacLeod", None)),
    ("Persona - 3", False, ("Persona", "", 3)),
    ("Persona: Duncan MacLeod", False, ("Persona", "Duncan MacLeod", None)),
    ("Blocks: Upper Left Block", False, ("Blocks", "Upper Left Block", None)),
    ("Pre-Game (2 cards)", False, ("Pre-Game", "", 2)), ("ENDURANCE (50 CARDS):", False, ("ENDURANCE", "", 50)),
    ("Sideboard (15)", False, ("Sideboard", "", 15)), ("Dodges", False, ("Dodges", "", None)),
    ("Endurance", False, ("Endurance", "", None)),
    ("Dodge", False, None), ("Dodge", True, ("Dodge", "", None)), ("Attack", False, None),
    ("Attack", True, ("Attack", "", None)),
    ("Dodge (x3)", False, None), ("Blocks 3", False, None), ("Thrust - Duncan", False, None), ("Zzz (3):", False, None),
    ("Zzz (3): Thrust", False, None), ("(3):", False, None), (":", False, None), ("Attacks (3) - 4", False, None),
    ("Attacks (3) x", False, None), ("Persona - ", False, None),
])
def test_heading_forms_posts_write(line, marked, heading):
    found = decklist._read_heading(GRAMMAR, line, marked)
    assert (None if found is None else (found.word, found.rest, found.count)) == heading


@pytest.mark.parametrize("line,heading", [("Attacks:" + " " * 195, ("Attacks", "", None)),
                                          ("Attacks" + " " * 193, ("Attacks", "", None)),
                                          ("Attacks" + " " * 194, None)])
def test_a_heading_without_a_colon_is_at_most_200_characters(line, heading):
    found = decklist._read_heading(GRAMMAR, line, False)
    assert (None if found is None else (found.word, found.rest, found.count)) == heading


@pytest.mark.parametrize("text,split", [
    ("Attacks (24)", ("Attacks", 24)), ("Attacks [24]", ("Attacks", 24)), ("Attacks - 24", ("Attacks", 24)),
    ("Endurance (50 cards)", ("Endurance", 50)), ("Attacks (x18)", ("Attacks", 18)), ("Attacks [x18]", ("Attacks", 18)),
    ("Attack (3)", ("Attack", 3)), ("Attack (x3)", ("Attack (x3)", None)), ("Dodge (x3)", ("Dodge (x3)", None)),
    ("Attacks(24)", ("Attacks", 24)), ("A(1)", ("A", 1)), ("A (1)", ("A", 1)), ("(24)", ("(24)", None)),
    ("Attacks (24", ("Attacks (24", None)), ("Attacks - x", ("Attacks - x", None)), (" - 24", ("- 24", None)),
    ("Attacks - 24 cards", ("Attacks", 24)), ("Attacks (1234567)", ("Attacks", 1234567)),
    ("Attacks (12345678)", ("Attacks (12345678)", None)),
])
def test_the_count_a_heading_carries(text, split):
    assert decklist._split_count(GRAMMAR, text) == split


@pytest.mark.parametrize("text,count", [("24", 24), ("24 cards", 24), ("1 card", 1), ("0", 0), ("1234567", 1234567),
                                        ("12345678", None), ("24 decks", None), ("24 cards more", None), ("x", None),
                                        ("", None), ("cards 24", None)])
def test_a_count_is_a_number_of_up_to_7_digits_and_the_word_cards(text, count):
    assert decklist._count_text(text) == count


@pytest.mark.parametrize("line,end", [("Attacks: 3", 7), ("Attacks (3)", 8), ("Attacks [3]", 8), ("Attacks - 3", 7),
                                      ("Attacks", 7), ("[x] (y)", 4), (":x", 2), ("A:(", 1)])
def test_where_a_headings_words_end(line, end):
    assert decklist._heading_end(line) == end


@pytest.mark.parametrize("line,joined", [
    ("Events/Situations:", "Endurance :"), ("Events & Situations (5)", "Endurance (5)"),
    ("Attacks and Blocks", "Endurance"), ("Attacks AND Blocks", "Endurance"), ("Attacks, Blocks: 3", "Endurance : 3"),
    ("Attacks / Blocks - 12", "Endurance - 12"), ("Attacks + Blocks", "Endurance"),
    ("Attacks/Persona", "Attacks/Persona"),
    ("Attacks", "Attacks"), ("Attacks/", "Attacks/"), ("Thrust + Dodge", "Thrust + Dodge"),
    ("Attacks/Blocks/Dodges", "Endurance"), ("Band and Blocks", "Band and Blocks"), ("Attacks (3/4)", "Attacks (3/4)"),
    ("Blocks: a/b", "Blocks: a/b"),
])
def test_kinds_of_one_section_written_as_one_heading(line, joined):
    assert decklist._join_kinds(GRAMMAR, line) == joined


# -- total lines (`Total: 51`, `51 cards`, `Endurance total: 51`) ----------------------------------------------------
@pytest.mark.parametrize("line,total", [
    ("Total: 51", (None, 51)), ("Total: 51 cards", (None, 51)), ("51 cards", (None, 51)), ("51 card", (None, 51)),
    ("Endurance total: 51", ("endurance", 51)), ("Total Endurance = 51", ("endurance", 51)), ("Total - 51", (None, 51)),
    ("Total: 1234567", (None, 1234567)), ("Total: 12345678", None), ("total of the deck: 5", ("deck", 5)),
    ("Total cards in Endurance: 50", ("endurance", 50)), ("Blocks total: 18", ("endurance", 18)),
    ("Sideboard total: 15", ("sideboard", 15)), ("Pre-Game total 2", ("pre-game", 2)), ("total 3 cards", (None, 3)),
    ("Total: 51 cards total", (None, 51)), ("the total: 3", (None, 3)), ("total cards: 3", (None, 3)),
    ("Total Attack: 3", ("endurance", 3)),
    ("total of the cards in the deck: 5", ("deck", 5)), ("the total of the cards in the deck: 5", None),  # 8 words, 9
    ("Total:" + " " * 92 + "51", (None, 51)), ("Total:" + " " * 93 + "51", None),  # 100 characters, 101
    ("Zzz total: 5", None), ("Blocks 3", None), ("3", None), ("51", None), ("Total", None), ("51 Thrust", None),
    ("Total: 3 Thrust", None), ("cards 3", None), ("", None), ("cards", None),
])
def test_total_lines(line, total):
    assert decklist._total(GRAMMAR, line) == total


# -- pasted tables (a header row of the CSV names, cells between tabs, commas, semicolons or `|`) ----------------------
@pytest.mark.parametrize("line,delimiter,cols", [
    ("Qty\tName\tSet", "\t", {"quantity": 0, "card": 1, "set": 2}), ("Qty,Card", ",", {"quantity": 0, "card": 1}),
    ("Card", ",", None), ("Qty,Set", ",", None), ("Qty,,Card", ",", {"quantity": 0, "card": 2}),
    ("Qty,Zzz,Card", ",", {"quantity": 0, "card": 2}), ("| Qty | Card |", "|", {"quantity": 1, "card": 2}),
    ("Card Name;Quantity", ";", {"card": 0, "quantity": 1}), ("Qty\tName", ",", None), ("Card,", ",", None),
    ("Name,Card,Qty", ",", {"card": 0, "quantity": 2}), ("Card,Card", ",", None),
])
def test_a_tables_header_row(line, delimiter, cols):
    assert decklist._table_columns(line, delimiter) == cols


@pytest.mark.parametrize("line,delimiter,cells", [
    ('3,"Thrust, the",ME', ",", ["3", "Thrust, the", "ME"]), ('3;"a;b"', ";", ["3", "a;b"]),
    ('a|"b|c"', "|", ["a", '"b', 'c"']), ("a\tb", "\t", ["a", "b"]), ('a\t"b\tc"', "\t", ["a", '"b', 'c"']),
])
def test_a_rows_cells_quoted_as_a_csv_reader_reads_them_only_in_a_csv(line, delimiter, cells):
    assert decklist._cells(line, delimiter) == cells


@pytest.mark.parametrize("line,read", [("3\tThrust", "3 Thrust"), ("Thrust\t3", "3 Thrust"),
                                       ("3x\tThrust", "3x Thrust"),
                                       ("Thrust\t3x", "3x Thrust"), ("3\t4", "3 4"), ("Thrust\tDodge", "Thrust Dodge"),
                                       ("3\tThrust\tME", "3 Thrust ME"), ("\t3\t\tThrust\t", "3 Thrust")])
def test_a_line_with_tabs(line, read):
    assert decklist._tab_line(line) == read


@pytest.mark.parametrize("header,row,suggestion,rewritten", [
    ("Qty,Card,Set", "3,Thrsut,", "Thrust [ME]", "3,Thrust,ME"), ("Qty,Card", "3,Thrsut", "Thrust [ME]", "3,Thrust"),
    ("Qty\tCard\tSet", "3\tThrsut", "Thrust [ME]", "3\tThrust\tME"),
    ("| Qty | Card | Set |", "| 3 | Thrsut | |", "Thrust [ME]", "| 3 | Thrust | ME |"),
    ("Qty;Card", "3;Thrsut", "Thrust, the", "3;Thrust, the"),
    ("Qty,Card", "3,Thrsut", "Thrust, the", '3,"Thrust, the"'),
    ("Qty,Card,Set", "3", "Thrust", "3,Thrust"), ("Card,Qty", "Thrsut,3", "Thrust", "Thrust,3"),
    ("Qty,Set,Card", "3", "Thrust [ME]", "3,ME,Thrust"), ("nothing", "3 x", "Thrust", None),
])
def test_a_suggestion_clicked_in_a_tables_row(header, row, suggestion, rewritten):
    assert decklist.rewrite_row(header, row, suggestion) == rewritten


# -- a suggestion clicked on a text line keeps the line as the player wrote it -------------------------------------
@pytest.mark.parametrize("line,suggestion,rewritten", [
    ("Conor Deck @ Regionals", "Name: Conor Deck @ Regionals", "Name: Conor Deck @ Regionals"),  # a whole line
    ("3 Zzz", "Kurgan: Blade", "3 Kurgan: Blade"),  # a colon in a name makes no metadata line
    ("- 3 Uper Left Atack // v1", "Upper Left Attack", "3 Upper Left Attack"), ("3x Thrsut", "Thrust", "3x Thrust"),
    ("Thrsut x3", "Thrust", "Thrust x3"), ("Thrsut  x3", "Thrust", "Thrust  x3"),
    ("3 Thrsut [ME]", "Thrust [AT]", "3 Thrust [AT]"),
    ("Thrsut x3 [ME]", "Thrust", "Thrust x3 [ME]"), ("3 Thrsut @ Ann", "Thrust", "3 Thrust @ Ann"),
    ("3 Thrsut [ME] @ Ann", "Thrust [AT]", "3 Thrust [AT] @ Ann"), ("Persona: Dunkan", "Duncan MacLeod Persona",
                                                                   "Persona: Duncan MacLeod Persona"),
    ("# Blocks: Uper Left Block", "Upper Left Block", "Blocks: Upper Left Block"), ("0 Thrust", "Thrust", "Thrust"),
    ("3  Uper  Left  Atack", "Upper Left Attack", "3 Upper Left Attack"),  # spaces collapsed where the name stood
    ("Uper  Left  Atack x3", "Upper Left Attack", "Upper Left Attack x3"),
    ("Thrsut, x3", "Thrust", "Thrust x3"),  # the separator before a quantity after the name goes with the name
])
def test_a_suggestion_clicked_on_a_line(line, suggestion, rewritten):
    assert decklist.rewrite_line(line, suggestion, GRAMMAR) == rewritten


# -- the list as a whole -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["", "\n", "  \n\t\n"])
def test_an_empty_list_reads_as_no_lines(text):
    deck = parse_text(text)
    assert (deck.lines, deck.problems, deck.stated) == ([], [], [])


@pytest.mark.parametrize("pad,table", [(4096 - len("Qty,Card"), True), (4097 - len("Qty,Card"), False)])
def test_a_tables_header_row_is_read_up_to_the_line_limit(pad, table):
    deck = parse_text("Qty,Card" + " " * pad + "\n3,Thrust\n")
    if table:
        assert ([l.readings for l in deck.lines], deck.problems) == ([((3, "Thrust"),)], [])
    else:
        assert [p.line for p in deck.problems][:1] == [1]


@pytest.mark.parametrize("heading", ["## Dodge", "## Attack", "### Attacks (3)", "# Blocks"])
def test_a_markdown_heading_of_a_singular_kind_is_a_heading(heading):
    deck = parse_text(f"1 Thrust\n{heading}\n2 Upper Left Block\n")
    assert [(l.line, l.section) for l in deck.lines] == [(1, None), (3, "endurance")] and deck.problems == []


@pytest.mark.parametrize("text,numbered", [
    ("1. Thrust\n2. Dodge\n3. Upper Left Block\n", True), ("1. Thrust\n2. Dodge\n", False),
    ("1. Thrust\n3. Dodge\n2. Upper Left Block\n", False),
    ("             1. Thrust\n2. Dodge\n3. Upper Left Block\n", True),
    ("              1. Thrust\n2. Dodge\n3. Upper Left Block\n", False),  # the number looked for in a line's 16 first
])
def test_a_numbered_list_is_three_lines_or_more_numbered_1_2_3(text, numbered):
    names = [l.readings[0][1] for l in parse_text(text).lines]
    assert (names[1] == "Dodge") is numbered


# -- a pasted table, row by row ------------------------------------------------------------------------------------
@pytest.mark.parametrize("pad,read", [(4096 - len("3,Thrust"), True), (4097 - len("3,Thrust"), False)])
def test_a_table_row_is_read_up_to_the_line_limit(pad, read):
    deck = parse_text("Qty,Card\n3,Thrust" + " " * pad + "\n")
    assert ([l.readings for l in deck.lines] == [((3, "Thrust"),)]) is read
    row = "3,Thrust" + " " * pad
    assert [(p.line, p.text, p.message) for p in deck.problems] == ([] if read else [
        (2, row[:80] + "…", "the line is longer than 4,096 characters")])


def test_a_table_row_without_a_card_or_a_quantity():
    deck = parse_text("Qty,Card\n3,\n,Dodge\n,\n")
    assert [(l.line, l.readings) for l in deck.lines] == [(3, ((1, "Dodge"),))]
    assert [(p.line, p.message) for p in deck.problems] == [(2, "no card name")]


def test_a_tables_player_column_names_the_one_player():
    deck = parse_text("Player,Qty,Card\nAnn,3,Thrust\n,1,Dodge\nAnn,1,Upper Left Block\nBob,2,Thrust\n")
    assert deck.player == "Ann" and [l.line for l in deck.lines] == [2, 3, 4]
    assert [(p.line, p.message.split(":")[0]) for p in deck.problems] == [
        (5, "the table holds the decks of several players ('Ann', 'Bob')")]


def test_a_tables_format_column_declares_the_format_once():
    deck = parse_text("Format,Qty,Card\n,1,Dodge\ntype2,3,Thrust\ntype1e,1,Dodge\n")
    assert deck.declared_format == "type2" and len(deck.lines) == 3


@pytest.mark.parametrize("text,first", [("Qty,Card\n3,Thrust\n", 2), ("\n\nQty,Card\n\n3,Thrust\n1,Dodge\n", 5),
                                        ("Qty,Card\n3,Thrust x2\n1,Dodge\n", 2), ("3 Thrust\n", 1),
                                        ("# a list\nPre-Game:\n\n1 Dodge\n", 4)])
def test_the_first_card_line_of_a_list(text, first):
    assert parse_text(text).first_card_line == first


def test_a_tables_quantity_that_is_no_number_is_quoted_to_20_characters():
    deck = parse_text("Qty,Card\nabcdefghijklmnopqrstuvwxyz,Thrust\n3x,Dodge\n")
    assert [(p.line, p.message) for p in deck.problems] == [
        (2, "quantity 'abcdefghijklmnopqrst' is not a whole number"), (3, "quantity '3x' is not a whole number")]


@pytest.mark.parametrize("text", ["3 Thrust \u2705 \u2705", "\u2705 \u2705 3 Thrust", "> - * + 3 Thrust",
                                  "\u2022 \u00b7 - > 3 Thrust"])
def test_emoji_and_up_to_four_bullets_around_a_line_are_dropped(text):
    assert [l.readings[0] for l in parse_text(text).lines] == [(3, "Thrust")]


@pytest.mark.parametrize("text,unquoted", [
    ("\u201dKurgan Rush\u201d", "Kurgan Rush"), ("\u201cA\u201c", "A"), ("\u201cKurgan Rush", "\u201cKurgan Rush"),
    ('"Kurgan Rush"', "Kurgan Rush"), ("\u00abKurgan Rush\u00bb", "Kurgan Rush"), ('""', '""'), ('" "', '" "'),
    ("\u201c\u201d", "\u201c\u201d"), ("x", "x"), ('"x"', "x"),
])
def test_a_text_in_quotes_of_any_kind(text, unquoted):
    assert decklist.unquote(text) == unquoted


# -- quantities written in words, after a separator, in brackets (the last round of pasted forms) ------------------
@pytest.mark.parametrize("text,digits", [
    ("3", "3"), ("x3", "3"), ("3x", "3"), ("\u00d73", "3"), ("three", "3"), ("Three", "3"), ("THREE", "3"),
    ("twenty", "20"), ("3 copies", "3"), ("three copies", "3"), ("3 cards", "3"), ("3 card", "3"), ("x 3", "3"),
    ("X 3", "3"), ("x 3 copies", "3"), ("x", None), ("copies", None), ("3 4", None), ("xx3", None), ("3xx", None),
    ("twentyone", None), ("a copies", None), ("y 3", None),
])
def test_a_quantity_standing_alone(text, digits):
    assert decklist._quantity_text(text) == digits


@pytest.mark.parametrize("body,read", [
    ("Thrust, 3", ("Thrust", "3", False)), ("Thrust; 3", ("Thrust", "3", False)),
    ("Thrust = 3", ("Thrust", "3", False)),
    ("Thrust: 3", ("Thrust", "3", False)), ("Thrust,3", ("Thrust", "3", False)),
    ("Thrust: 3 copies", ("Thrust", "3", False)),
    ("Thrust - 3", ("Thrust", "3", True)), ("Thrust - x3", ("Thrust", "3", False)),
    ("Thrust - three", ("Thrust", "3", False)),
    ("Watcher (Hunter: 2 Damage): 2", ("Watcher (Hunter: 2 Damage)", "2", False)), ("A - B, 3", ("A - B", "3", False)),
    ("A, B - 3", ("A, B", "3", True)), ("Thrust, 3 - 4", ("Thrust, 3", "4", True)),
    (", 3", None), ("Thrust,", None), ("Thrust -, 3", None), ("Thrust", None), ("A, 3", ("A", "3", False)),
    ("Thrust," + " " * 29 + "3", ("Thrust", "3", False)), ("Thrust," + " " * 30 + "3", None),  # 30 characters, 31
    ("Thrust - " + " " * 29 + "3", ("Thrust", "3", True)), ("Thrust - " + " " * 30 + "3", None),
])
def test_a_quantity_after_a_separator(body, read):
    assert decklist._separated_quantity(body) == read


@pytest.mark.parametrize("body,read", [
    ("Thrust x3", ("Thrust", "3")), ("Thrust (x3)", ("Thrust", "3")), ("Thrust (three)", ("Thrust", "3")),
    ("Thrust (3 copies)", ("Thrust", "3")), ("Thrust (x3 copies)", ("Thrust", "3")),
    ("Thrust ( three)", ("Thrust", "3")),
    ("Thrust x three", ("Thrust", "3")), ("Thrust X three", ("Thrust", "3")),
    ("Thrust (2) (three)", ("Thrust (2)", "3")),
    ("Thrust (3)", None), ("Thrust (x)", None), ("(three)", None), ("Thrust(three)", None), ("Thrust x", None),
    ("Thrust three", None), ("Thrust (3 4)", None), ("Thrust Ax3)", None), ("Thrust A*3)", None),
    ("Thrust (*3)", ("Thrust", "3")), ("Thrust (x33)", ("Thrust", "33")), ("Thrust (33)", None),
    ("Thrust (" + " " * 22 + "three)", ("Thrust", "3")), ("Thrust (" + " " * 23 + "three)", None),  # 29 characters, 30
])
def test_a_quantity_after_the_name(body, read):
    assert decklist._trailing_quantity(body) == read


@pytest.mark.parametrize("rest,name", [("copies of Thrust", "Thrust"), ("copy of Thrust", "Thrust"),
                                       ("copies Thrust", "Thrust"), ("Copies Of Thrust", "Thrust"),
                                       ("copies", "copies"),
                                       ("Thrust", "Thrust"), ("of Thrust", "of Thrust"), ("Back Away", "Back Away"),
                                       ("copies Back Away", "Back Away")])
def test_copies_of_after_a_quantity(rest, name):
    assert decklist._drop_copies(rest) == name


@pytest.mark.parametrize("body,read", [
    ("three Thrust", ("3", "Thrust")), ("Three x Thrust", ("3", "Thrust")), ("Three X Thrust", ("3", "Thrust")),
    ("three \u00d7 Thrust", ("3", "Thrust")), ("three copies of Thrust", ("3", "Thrust")),
    ("three xThrust", ("3", "xThrust")),
    ("three", None), ("x Thrust", None), ("Thrust three", None),
])
def test_a_quantity_in_words_before_the_name(body, read):
    assert decklist._worded_quantity(body) == read


@pytest.mark.parametrize("text,readings,name", [
    ("three Thrust", ((1, "three Thrust"), (3, "Thrust")), "Thrust"), ("3 Thrust", ((3, "Thrust"),
    (1, "3 Thrust")), "Thrust"),
    ("Thrust", ((1, "Thrust"),), "Thrust"), ("Thrust, 3", ((3, "Thrust"), (1, "Thrust, 3")), "Thrust"),
])
def test_the_name_a_line_writes(text, readings, name):
    got = parse_card_text(text)
    assert isinstance(got, CardText) and (got.readings, got.name) == (readings, name)


@pytest.mark.parametrize("text,twice", [
    ("three Thrust x2", "the quantity is written twice (3 before the name, 2 after it): keep one"),
    ("Three copies of Thrust, 2", "the quantity is written twice (3 before the name, 2 after it): keep one"),
    ("3 Thrust x2", "the quantity is written twice (3 before the name, 2 after it): keep one"), ("Thrust x2", None),
])
def test_a_quantity_written_twice_in_digits_or_words(text, twice):
    got = parse_card_text(text)
    assert isinstance(got, CardText) and got.twice == twice
