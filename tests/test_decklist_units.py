"""The decklist parser's small parts at their edges: the cases the mutation runner (scripts/mutation.py)
found no test for. Each row pins one boundary: a limit met exactly, a bracket at the start, a one-letter
heading, a quantity given in its own column."""
from __future__ import annotations

import pytest

from deckcheck import decklist
from deckcheck.decklist import MAX_LINE, MAX_QUANTITY, CardText, ends_in_bare_number, parse_card_text, split_set
from deckcheck.games import parse_text, registry


def test_the_heading_table_reads_each_heading_in_the_plural_too():
    headings = registry().grammar.headings
    assert headings["attacks"] == headings["attack"]


@pytest.mark.parametrize("text,word", [("Attacks:", "endurance"), ("Events", "endurance"), ("Persona:", "pre-game"),
                                       ("Hunter:", "hunter"), ("Side board:", "sideboard"), ("Cards:", None)])
def test_section_word(text, word):
    assert registry().grammar.section_word(text) == word


@pytest.mark.parametrize("text,quantity", [(f"{MAX_QUANTITY} Thrust", MAX_QUANTITY), ("Thrust x1000000", MAX_QUANTITY),
                                           ("9999999 Thrust", None), (f"{MAX_QUANTITY + 1} Thrust", None),
                                           ("10000000 Thrust", None)])
def test_the_largest_quantity_is_read_one_more_is_refused(text, quantity):
    got = parse_card_text(text)
    if quantity is None:
        assert got == f"the quantity must be a whole number from 1 to {MAX_QUANTITY:,}"
    else:
        assert isinstance(got, CardText) and got.readings[0] == (quantity, "Thrust")


@pytest.mark.parametrize("text,split", [
    ("[ME]", ("", "ME")), ("Thrust []", ("Thrust []", None)), ("Thrust [ ]", ("Thrust [ ]", None)),
    ("Thrust ME]", ("Thrust ME]", None)), ("Thrust [a]b]", ("Thrust [a]b]", None)), ("Thrust [ME] ", ("Thrust", "ME")),
])
def test_split_set_edges(text, split):
    assert split_set(text) == split


@pytest.mark.parametrize("name,bare", [
    ("Upper Right Attack 2", True), ("Upper Right Attack -2", True), ("Upper Right Attack –3", True),
    ("Upper Right Attack -x", False), ("Upper Right Attack x", False), ("Upper Right Attack (2)", False),
    ("Upper Right Attack --2", False), ("2", False), ("Attack 2b", False),
])
def test_ends_in_bare_number(name, bare):
    assert ends_in_bare_number(name) is bare


@pytest.mark.parametrize("text,readings", [
    ("Thrust x", ((1, "Thrust x"),)), ("Thrust (x)", ((1, "Thrust (x)"),)), ("Thrust (x2", ((1, "Thrust (x2"),)),
    ("Thrust (x2)", ((2, "Thrust"), (1, "Thrust (x2)"))), ("Thrust x2", ((2, "Thrust"), (1, "Thrust x2"))),
    ("Thrust (22)", ((1, "Thrust (22)"),)), ("Thrust (x22)", ((22, "Thrust"), (1, "Thrust (x22)"))),
])
def test_a_quantity_mark_needs_its_digits(text, readings):
    got = parse_card_text(text)
    assert isinstance(got, CardText) and got.readings == readings


def test_a_line_of_exactly_the_limit_is_read_one_more_is_refused():
    name = "a" * MAX_LINE
    got = parse_card_text(name)
    assert isinstance(got, CardText) and got.readings == ((1, name),)
    assert parse_card_text(name + "a") == f"the line is longer than {MAX_LINE:,} characters"
    deck = parse_text(f"{name}\n{name}b\n")
    assert [line.line for line in deck.lines] == [1]
    (problem,) = deck.problems
    assert (problem.line, problem.text) == (2, name[:80] + "…")


@pytest.mark.parametrize("text,attach", [("a @ Ann", "Ann"), ("Longbow @ Ranger Ann", "Ranger Ann"),
                                         ("Longbow @", None), ("@ Ann", None)])
def test_an_attachment_after_at(text, attach):
    got = parse_card_text(text)
    assert isinstance(got, CardText) and got.attach == attach


@pytest.mark.parametrize("quantity,result", [
    (3, ((3, "Thrust"),)), (MAX_QUANTITY, ((MAX_QUANTITY, "Thrust"),)),
    (0, "the quantity must be at least 1"), (-1, "the quantity must be at least 1"),
    (MAX_QUANTITY + 1, f"the quantity must be a whole number from 1 to {MAX_QUANTITY:,}"),
])
def test_a_quantity_from_its_own_column(quantity, result):
    got = parse_card_text("Thrust", quantity)
    assert (got.readings if isinstance(got, CardText) else got) == result
    assert parse_card_text("Thrust x2", quantity) == "the quantity is written twice (in its column and on the line)"


@pytest.mark.parametrize("line,heading", [
    ("A: x", ("A", "x")), ("x-: y", ("x-", "y")), ("Format:raven", ("Format", "raven")), ("-x: y", None),
    (": y", None), ("1x: Thrust", None), ("Rock & Roll: y", ("Rock & Roll", "y")),
])
def test_heading_forms(line, heading):
    assert decklist._heading(line) == heading


@pytest.mark.parametrize("text,quantity,reason", [
    ("0 Thrust", None, "BAD_QUANTITY"), ("Thrust x99999999", None, "BAD_QUANTITY"), ("Thrust", 0, "BAD_QUANTITY"),
    ("Thrust x2", 3, "QUANTITY_TWICE"), ("a" * (MAX_LINE + 1), None, "LONG_LINE"), ("   ", None, "NO_NAME"),
])
def test_a_refused_card_line_says_why_as_data_and_its_message_in_words(text, quantity, reason):
    import pickle

    from deckcheck.decklist import Refusal
    got = parse_card_text(text, quantity)
    assert not isinstance(got, CardText) and got.reason is Refusal[reason] and str(got)
    assert pickle.loads(pickle.dumps(got)).reason is Refusal[reason]


def test_a_remembered_line_is_read_as_its_own_list_says():
    """The parser remembers each line's reading (a tournament writes the same lines again and again): the same line
    still reads by the list it is in (a numbered list's `3.` is no quantity) and by its quantity column."""
    numbered = "1. Thrust\n2. Upper Left Attack\n3. Dodge\n"
    plain = "3. Dodge\n"
    for _ in range(2):  # the second round is read from what the first remembered
        assert [line.readings[0] for line in parse_text(numbered).lines][-1] == (1, "Dodge")
        assert parse_text(plain).lines[0].readings[0] == (1, "3. Dodge")
    two, one = parse_card_text("Thrust", 2), parse_card_text("Thrust")
    assert isinstance(two, CardText) and isinstance(one, CardText)
    assert (two.readings, one.readings) == (((2, "Thrust"),), ((1, "Thrust"),))
    assert parse_card_text("Thrust") is parse_card_text("Thrust")


def test_a_long_line_is_read_every_time_not_remembered():
    name = "Upper Left Attack " + "x" * decklist._MEMO_CHARS
    before = len(decklist._CARD_TEXTS)
    parsed = parse_card_text(name)
    assert isinstance(parsed, CardText) and parsed.readings[0] == (1, name)
    assert len(decklist._CARD_TEXTS) == before and parse_card_text(name) is not parse_card_text(name)
