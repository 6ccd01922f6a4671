"""Card sheets (CONTRACTS.md §1) in and out, CSV or XLSX. Phase one reads rows; the core parses them."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence, Iterable, Mapping

from deckcheck import provenance as prov
from deckcheck.cards import Card
from deckcheck.cardsheet import (COLUMNS, SheetCard, card_to_row, duplicate_columns, header_map,
                                 provenance_to_row, sheet_cards_from_rows)
from deckcheck.errors import RowProblem
from deckcheck.games import registry

from .tables import SheetError, read_tables
from .writers import SheetSpec, check_target, write_csv, write_xlsx

NUMERIC = {f.name for f in registry().fields if f.numeric}  # a spreadsheet writes them as numbers (Field.numeric)


@dataclass
class CardSheet:
    """What a card sheet held: the good rows (each a card and the fields it states), the bad rows
    (with --skip-bad), and notices."""

    rows: list[SheetCard]
    problems: list[RowProblem] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    columns: list[str] = field(default_factory=list)  # the card-sheet columns the sheet has
    has_provenance: bool = False

    @property
    def cards(self) -> list[Card]:
        """The rows as whole cards (blank cells at the contract's defaults)."""
        return [r.card for r in self.rows]


def read_card_sheet(path: Path | str, skip_bad: bool = False, consequence: str = "nothing was imported") -> CardSheet:
    """Read a card sheet; raise CardSheetError naming every bad row unless skip_bad.

    `consequence` ends the error's first line: what did not happen because of the bad rows."""
    path = Path(path)
    tables = [t for t in read_tables(path) if t.header]
    if not tables:
        raise SheetError(f"{str(path)!r}: the sheet is empty")
    table = next((t for t in tables if t.name.lower() in ("cards", "card")), tables[0])
    columns, unknown = header_map(table.header)
    notices = []
    if "name" not in columns.values():
        raise SheetError(f"{str(path)!r}: no 'name' column (columns found: {', '.join(table.header)})")
    twice = duplicate_columns(columns)
    if twice:
        raise SheetError(f"{str(path)!r}: the header names a column twice: {', '.join(twice)}")
    if unknown:
        notices.append(f"ignored unknown column(s): {', '.join(unknown)}")
    rows = []
    for number, row in table.numbered():
        if all(c in ("", None) for c in row):
            continue
        rows.append((number, {columns[i]: v for i, v in enumerate(row) if i in columns}))
    found, problems = sheet_cards_from_rows(rows, str(path), skip_bad=skip_bad, consequence=consequence)
    has_provenance = any(c in prov.SOURCE_COLUMNS for c in columns.values())
    return CardSheet(found, problems, notices, list(columns.values()), has_provenance)


def write_card_sheet(path: Path | str, cards: Iterable[Card],
                     sources: Mapping[str, Mapping[str, prov.Provenance]] | None = None) -> int:
    """Write cards as a card sheet (all columns); with `sources` (card id -> field -> provenance), the
    provenance columns too. Return how many cards were written."""
    path = Path(path)
    kind = check_target(path, (".csv", ".tsv", ".xlsx"))
    header = COLUMNS + (prov.SOURCE_COLUMNS if sources is not None else ())
    rows = []
    for card in cards:
        values = card_to_row(card)
        if sources is not None:
            values.update(provenance_to_row(sources.get(card.id, {})))
        rows.append([values[col] for col in header])
    if kind != "xlsx":
        write_csv(path, header, rows)
    else:
        typed = [[int(v) if col in NUMERIC and v.isdigit() else v for col, v in zip(header, row, strict=True)]
                 for row in rows]
        write_xlsx(path, [SheetSpec("cards", header, typed)])
    return len(rows)


def write_facts_sheet(path: Path | str, header: Sequence[str], rows: Sequence[Sequence[str]]) -> int:
    """Write the card facts not from the bundle (deckcheck.db.facts.facts_sheet) as a CSV, TSV or XLSX card sheet
    that `cards import` reads back, provenance columns included. Return how many cards were written."""
    path = Path(path)
    kind = check_target(path, (".csv", ".tsv", ".xlsx"))
    if kind != "xlsx":
        write_csv(path, header, rows)
    else:
        write_xlsx(path, [SheetSpec("card facts", header, rows)])
    return len(rows)
