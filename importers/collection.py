"""Collection sheets (CONTRACTS.md §4) in and out; other tools' layouts recognised by their headers."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Sequence

from deckcheck.collection import COLUMNS, EXTRA_COLUMNS, Holding, detect_layout
from deckcheck.errors import DeckcheckError

from .tables import SheetSpec, kind_of, read_tables, write_csv, write_xlsx

EXPORT_COLUMNS = COLUMNS + EXTRA_COLUMNS


@dataclass
class SheetRows:
    """The rows of a collection sheet, as (row number, {our column: cell}, sheet name), and its layout."""

    layout: str
    rows: list[tuple[int, dict, str]] = field(default_factory=list)
    sheets: list[str] = field(default_factory=list)


def read_collection_rows(path: Path | str) -> SheetRows:
    """Phase one of an import: plain rows and the layout detected. Sheets without a known header are skipped."""
    path = Path(path)
    found: SheetRows | None = None
    for table in read_tables(path):
        detected = detect_layout(table.header)
        if detected is None:
            continue
        layout, where = detected
        if found is None:
            found = SheetRows(layout)
        elif found.layout != layout:
            raise DeckcheckError(f"{str(path)!r}: sheet {table.name!r} is a {layout} sheet, the first one "
                                 f"{found.layout}; import them one at a time")
        found.sheets.append(table.name)
        items = list(where.items())
        width = max(where.values()) + 1
        for number, row in table.numbered():
            if len(row) < width:
                row = list(row) + [""] * (width - len(row))
            cells = {column: row[i] for column, i in items}
            if any(cells.values()):
                found.rows.append((number, cells, table.name))
    if found is None:
        raise DeckcheckError(f"{str(path)!r}: no sheet with a collection header (card, set, quantity, ... or "
                             "another tool's Count, Name, Edition / Quantity, Card Name, Set Name)")
    return found


def write_collection(path: Path | str, holdings: Sequence[Holding], by_collection: bool = False,
                     progress: Callable[[int], None] | None = None) -> int:
    """Write holdings as a collection sheet: XLSX for people (one sheet per collection), or CSV."""
    path = Path(path)
    if kind_of(path) == "csv":
        header = EXPORT_COLUMNS + (("collection",) if by_collection else ())
        rows = _rows(holdings, by_collection)
        write_csv(path, header, rows)
    else:
        groups: dict[str, list[Holding]] = {}
        for h in holdings:
            groups.setdefault(h.collection if by_collection else "Collection", []).append(h)
        if not groups:
            groups["Collection"] = []
        write_xlsx(path, [SheetSpec(name, EXPORT_COLUMNS, [h.row() for h in group],
                                    widths={0: 40, 8: 16, 9: 30, 10: 30})
                          for name, group in groups.items()])
    return len(holdings)


def _rows(holdings: Sequence[Holding], by_collection: bool) -> Iterator[list]:
    for h in holdings:
        yield h.row() + ([h.collection] if by_collection else [])
