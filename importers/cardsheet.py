"""Card sheets (CONTRACTS.md §1) in and out, CSV or XLSX. Phase one reads rows; the core parses them."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from deckcheck.cards import Card
from deckcheck.cardsheet import COLUMNS, card_to_row, cards_from_rows, header_map
from deckcheck.errors import RowProblem

from .tables import SheetError, read_tables
from .writers import SheetSpec, check_target, write_csv, write_xlsx

NUMERIC = {"edition", "restriction", "hand_icons", "gem_master", "gem_agility", "gem_strength", "gem_toughness",
           "gem_empathy", "gem_reason", "renown", "health", "skill"}


@dataclass
class CardSheet:
    """What a card sheet held: the good cards, the bad rows (with --skip-bad), and notices."""

    cards: list[Card]
    problems: list[RowProblem] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)  # the card-sheet columns the sheet has


def read_card_sheet(path: Path | str, skip_bad: bool = False) -> CardSheet:
    """Read a card sheet; raise CardSheetError naming every bad row unless skip_bad."""
    path = Path(path)
    tables = [t for t in read_tables(path) if t.header]
    if not tables:
        raise SheetError(f"{str(path)!r}: the sheet is empty")
    table = next((t for t in tables if t.name.lower() in ("cards", "card")), tables[0])
    columns, unknown = header_map(table.header)
    notices = []
    if "name" not in columns.values():
        raise SheetError(f"{str(path)!r}: no 'name' column (columns found: {', '.join(table.header)})")
    if unknown:
        notices.append(f"ignored unknown column(s): {', '.join(unknown)}")
    rows = []
    for number, row in table.numbered():
        if all(c in ("", None) for c in row):
            continue
        rows.append((number, {columns[i]: v for i, v in enumerate(row) if i in columns}))
    cards, problems = cards_from_rows(rows, str(path), skip_bad=skip_bad)
    return CardSheet(cards, problems, notices, list(columns.values()))


def write_card_sheet(path: Path | str, cards: Iterable[Card]) -> int:
    """Write cards as a card sheet (all columns); return how many were written."""
    path = Path(path)
    kind = check_target(path, (".csv", ".tsv", ".xlsx"))
    rows = [[card_to_row(c)[col] for col in COLUMNS] for c in cards]
    if kind != "xlsx":
        write_csv(path, COLUMNS, rows)
    else:
        typed = [[int(v) if col in NUMERIC and v.isdigit() else v for col, v in zip(COLUMNS, row, strict=True)]
                 for row in rows]
        write_xlsx(path, [SheetSpec("cards", COLUMNS, typed)])
    return len(rows)
