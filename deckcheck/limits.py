"""Every limit deckcheck holds input to, in one table: its number, what it bounds and why.

The readers take their numbers from here (deckcheck.textlimits, importers.limits, the decklist parser, the
collection reader, the CLI's options, the check page), and the table of docs/limits.md
is tested against this one (tests/test_limits_table.py): a number changed here shows in the docs or fails.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Limit:
    """One limit: its number, the unit it counts (`bytes` are shown as KiB/MiB), what it bounds (docs/limits.md
    row's first cell) and why it is that number."""

    value: int
    unit: str
    what: str
    why: str

    def shown(self) -> str:
        """The number as docs/limits.md writes it: `4 MiB`, `4,096 characters`."""
        if self.unit == "bytes":
            return size_text(self.value)
        return f"{self.value:,} {self.unit}".strip()


def size_text(n: int) -> str:
    """4194304 -> '4 MiB'; 1536 -> '1.5 KiB'; three significant digits, and whole numbers from 1,000 up
    (1047552 -> '1,023 KiB', never '1.02e+03 KiB')."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            value = n / size
            return f"{value:.3g} {unit}" if value < 999.5 else f"{value:,.0f} {unit}"
    return f"{n} bytes"


TEXT_BYTES = Limit(4 << 20, "bytes", "text and JSON decklists, deal files, standard input, decklist text",
                   "a decklist is about 2 KB, a 500-player registration about 1.5 MB")
LINE_CHARS = Limit(4096, "characters", "a line of a text decklist",
                   "card names are under 100; bounds the work per line")
JSON_DEPTH = Limit(32, "levels", "JSON nesting", "a decklist needs 4; far below Python's recursion limit")
SHEET_BYTES = Limit(64 << 20, "bytes", "CSV and XLSX files", "five times the 200,000-row benchmark collection")
CSV_FIELD_CHARS = Limit(131_072, "characters", "a CSV field", "the csv module's own limit; the row is named")
XLSX_MEMBERS = Limit(4096, "", "parts of an XLSX zip", "about 10 plus 2 per sheet")
XLSX_UNCOMPRESSED = Limit(256 << 20, "bytes", "an XLSX inflated", "the benchmark collection inflates to 68 MB")
XLSX_RATIO = Limit(100, "to 1", "XLSX compression ratio", "real sheets deflate 5-15 to 1; more is a zip bomb")
XLSX_CELLS = Limit(5_000_000, "", "cells of an XLSX (rows x columns from A1 to the farthest cell)",
                   "the reader allocates every cell of that extent, about 45 bytes each")
QUANTITY = Limit(1_000_000, "", "a quantity", "CONTRACTS.md §4")
UNREADABLE_LINES = Limit(1000, "", "lines of one deck that name no card",
                         "a deck has 50-200 lines; a hostile 2 MB list has 70,000")
SUGGESTED_NAMES = Limit(64, "", "unknown names given suggestions", "each costs up to tens of milliseconds")
ERRORS_SHOWN = Limit(500, "", "input errors shown on the check page", "the page stays a page")
DECK_NAME = Limit(100, "characters", "a saved deck's name (`deck save NAME`)",
                  "a name is typed to show, export or delete the deck; it stays one line of `deck list`")

LIMITS: tuple[Limit, ...] = (TEXT_BYTES, LINE_CHARS, JSON_DEPTH, SHEET_BYTES, CSV_FIELD_CHARS, XLSX_MEMBERS,
                             XLSX_UNCOMPRESSED, XLSX_RATIO, XLSX_CELLS, QUANTITY, UNREADABLE_LINES, SUGGESTED_NAMES,
                             ERRORS_SHOWN, DECK_NAME)
