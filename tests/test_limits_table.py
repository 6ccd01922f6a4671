"""One table of limits (deckcheck.limits): docs/limits.md's table says the same numbers, and the readers use them."""
from __future__ import annotations

import re
from pathlib import Path

import docs_pages
from deckcheck import limits

ROOT = Path(__file__).resolve().parent.parent


def readme_limits() -> dict[str, str]:
    """docs/limits.md "Limits of what deckcheck reads": {what: limit} of its table's rows."""
    section = docs_pages.page("limits.md").split("# Limits of what deckcheck reads", 1)[1].split("\n## ", 1)[0]
    rows = [line.strip("|").split("|") for line in section.splitlines() if line.startswith("| ")]
    return {cells[0].strip(): cells[1].strip() for cells in rows[1:] if len(cells) >= 3}


def test_every_limit_is_in_the_readme_with_its_number():
    table = readme_limits()
    for limit in limits.LIMITS:
        assert limit.what in table, f"docs/limits.md's table has no row {limit.what!r}"
        shown = r"(^|\s)" + re.escape(limit.shown()) + r"\b"
        assert re.search(shown, table[limit.what]), (limit.what, table[limit.what])


def test_the_readers_hold_input_to_the_tables_numbers():
    from deckcheck import collection, decklist, decks, textlimits
    from deckcheck.importers import limits as file_limits
    assert decklist.MAX_LINE == textlimits.LINE_MAX_CHARS == limits.LINE_CHARS.value  # one line limit
    assert decklist.MAX_QUANTITY == collection.MAX_QUANTITY == file_limits.QUANTITY_MAX == limits.QUANTITY.value
    assert textlimits.TEXT_MAX_BYTES == limits.TEXT_BYTES.value
    assert (file_limits.JSON_MAX_DEPTH, file_limits.SHEET_MAX_BYTES, file_limits.XLSX_MAX_CELLS) == (
        limits.JSON_DEPTH.value, limits.SHEET_BYTES.value, limits.XLSX_CELLS.value)
    assert (decks.UNREADABLE_LINES_MAX, decks.SUGGESTED_LINES_MAX) == (limits.UNREADABLE_LINES.value,
                                                                       limits.SUGGESTED_NAMES.value)


def test_a_line_at_the_limit_is_read_and_one_past_it_refused():
    name = "a" * (limits.LINE_CHARS.value - 2)
    deck = decklist_of(f"1 {name}\n1 {name}a\n")
    assert [p.message for p in deck.problems] == [f"the line is longer than {limits.LINE_CHARS.value:,} characters"]


def decklist_of(text: str):
    from deckcheck.games import parse_text
    return parse_text(text, "t")
