"""Each limit of decklist text at its boundary: the limit is read, the limit + 1 is refused with the words users see.

deckcheck.limits holds the numbers and how sizes are written; deckcheck.textlimits holds a text to them. The tests
pass small limits where the functions take them, so that the boundary is exact and the texts stay short.
"""
from __future__ import annotations

from typing import Any

import pytest

from deckcheck import limits
from deckcheck.errors import DecklistError, InputFileError
from deckcheck.limits import size_text
from deckcheck.textlimits import check_line_lengths, checked_text, parse_checked, too_big


@pytest.mark.parametrize("n,text", [
    (0, "0 bytes"), (1023, "1023 bytes"), (1024, "1 KiB"), (1536, "1.5 KiB"), (999 << 10, "999 KiB"),
    (1023488, "1,000 KiB"), (1023 << 10, "1,023 KiB"),
    ((1 << 20) - 1, "1,024 KiB"), (1 << 20, "1 MiB"), (256 << 20, "256 MiB"), ((1 << 30) - (1 << 20), "1,023 MiB"),
    (1 << 30, "1 GiB"), (3 << 29, "1.5 GiB"), (2000 << 30, "2,000 GiB"),
])
def test_a_size_is_written_in_the_largest_unit_it_reaches(n, text):
    """1 KiB, 1 MiB and 1 GiB are where a unit starts; just below one, the smaller unit (never 1.02e+03)."""
    assert size_text(n) == text


@pytest.mark.parametrize("limit,shown", [(limits.TEXT_BYTES, "4 MiB"), (limits.LINE_CHARS, "4,096 characters"),
                                         (limits.XLSX_RATIO, "100 to 1"), (limits.XLSX_MEMBERS, "4,096"),
                                         (limits.SHEET_BYTES, "64 MiB")])
def test_a_limit_is_shown_in_its_unit(limit, shown):
    assert limit.shown() == shown


def test_a_message_tells_the_limit_and_the_size_when_it_is_known():
    assert too_big("CSV and XLSX files", 64 << 20, 65 << 20) == (
        "larger than 64 MiB (65 MiB), the limit for CSV and XLSX files")
    assert too_big("text decklists", 4 << 20) == "larger than 4 MiB, the limit for text decklists"


def refused(text: str, **limits_: Any) -> str:
    with pytest.raises(InputFileError) as raised:
        checked_text(text, "pasted", **limits_)
    assert raised.value.source == "pasted"
    return raised.value.message


def test_a_text_of_exactly_the_size_limit_is_read_and_one_byte_more_is_not():
    assert checked_text("x" * 10, "pasted", limit=10) == "x" * 10
    assert refused("x" * 11, limit=10) == "larger than 10 bytes, the limit for text decklists"


def test_the_size_limit_counts_utf8_bytes_not_characters():
    """'é' is two bytes in UTF-8: five are 10 bytes (the limit), five and one letter 11 (6 characters only)."""
    assert checked_text("é" * 5, "pasted", limit=10) == "é" * 5
    assert refused("é" * 5 + "a", limit=10) == "larger than 10 bytes, the limit for text decklists"
    assert refused("é" * 6, what="deal files", limit=10) == "larger than 10 bytes, the limit for deal files"


@pytest.mark.parametrize("text,number", [
    ("a" * 8 + "\n" + "b" * 9, 2),  # line 1 is at the limit: read; line 2 is one past it
    ("a" * 9 + "\n" + "b" * 8, 1),
    ("ok\n" * 3 + "c" * 9 + "\n" + "d" * 20, 4),  # the first line past the limit is named
])
def test_a_line_of_exactly_the_line_limit_is_read_and_one_character_more_is_not(text, number):
    assert refused(text, max_line=8) == f"line {number} is longer than 8 characters, the limit for a line"


@pytest.mark.parametrize("text", ["a" * 8, "a" * 8 + "\n" + "b" * 8, "a" * 8 + "\r\n" + "b" * 8 + "\n", "\n" * 20])
def test_lines_at_the_line_limit_are_read(text):
    assert checked_text(text, "pasted", max_line=8) == text
    check_line_lengths(text, "pasted", 8)  # no error either when called alone


def test_a_line_limit_is_written_with_thousands_separators():
    assert refused("a" * 4097) == "line 1 is longer than 4,096 characters, the limit for a line"
    assert checked_text("a" * 4096, "pasted") == "a" * 4096


def test_a_nul_character_or_a_lone_surrogate_is_not_text():
    assert refused("Thrust\x00") == "not a text file (it holds NUL bytes; UTF-16 without a byte-order mark?)"
    assert refused("Thrust \ud800") == "holds \\ud800, a lone surrogate, which is not text"
    assert checked_text("Thrust é ♣", "pasted") == "Thrust é ♣"


def test_a_parsed_text_past_a_limit_is_a_decklist_error_naming_its_source():
    with pytest.raises(DecklistError) as raised:
        parse_checked("Thrust\x00", "deck.txt")
    assert (raised.value.source, str(raised.value)) == (
        "deck.txt", "deck.txt: not a text file (it holds NUL bytes; UTF-16 without a byte-order mark?)")
    assert [(ln.line, ln.text) for ln in parse_checked("3 Thrust\n").lines] == [(1, "3 Thrust")]
