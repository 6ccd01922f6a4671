"""Collection sheets (CONTRACTS.md §4) in and out; other tools' layouts recognised by their headers."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Iterator, Sequence

from deckcheck.collection import COLUMNS, EXTRA_COLUMNS, Holding, detect_layout
from deckcheck.errors import DeckcheckError
from deckcheck.headers import WORDS, missing_message, numeric_unknown

from .tables import Table, read_tables
from .writers import SheetSpec, check_target, write_csv, write_xlsx

EXPORT_COLUMNS = COLUMNS + EXTRA_COLUMNS
QTY_WORDS = WORDS["quantity"][1:5]  # the other words a quantity column may be headed with, for a message


@dataclass
class SheetRows:
    """A collection sheet: its layout, sheets and columns; `rows()` yields (row number, {our column: cell}, sheet).

    Rows are made one at a time from the tables read: a 200,000-row sheet is never held whole as
    Python rows or dictionaries, and each table is let go once its rows have been handed out.
    """

    layout: str
    sheets: list[str] = field(default_factory=list)
    collections: dict[str, str] = field(default_factory=dict)  # sheet -> collection ('' = the one imported into)
    columns: set[str] = field(default_factory=set)  # our columns the sheet has (the others keep stored values)
    tables: list[tuple[Table, dict[str, int]]] = field(default_factory=list)
    count: int = 0  # rows handed out (known once rows() has run)

    def rows(self) -> Iterator[tuple[int, dict[str, object], str]]:
        """Every non-empty row of every collection sheet, in order; each table row is released once read."""
        for table, where in self.tables:
            items = list(where.items())
            width = max(where.values()) + 1
            for number, row in table.numbered():  # a workbook's rows are made one at a time (StreamedRows)
                if len(row) < width:
                    row = list(row) + [""] * (width - len(row))
                cells = {column: row[c] for column, c in items}
                if any(cells.values()):
                    self.count += 1
                    yield number, cells, table.name
            table.rows = []  # let the sheet go: the import keeps Holdings, not the sheet


def read_collection_rows(path: Path | str) -> SheetRows:
    """Phase one of an import: the sheets with a collection header and the layout detected (others are skipped)."""
    path = Path(path)
    found: SheetRows | None = None
    tables = read_tables(path)
    index = _index(tables)
    for table in tables:
        detected = detect_layout(table.header)
        if detected is None:
            continue
        layout, where = detected
        if "quantity" not in where:
            stray = numeric_unknown(table.header, where, iter(table.rows))
            if stray is not None:
                raise DeckcheckError(f"{str(path)!r}: sheet {table.name!r} has no quantity column, and its column "
                                     f"{stray!r} holds numbers: name it 'quantity' (or {', '.join(QTY_WORDS)}) "
                                     "so that its numbers count; nothing was imported")
        if found is None:
            found = SheetRows(layout)
        elif found.layout != layout:
            raise DeckcheckError(f"{str(path)!r}: sheet {table.name!r} is a {layout} sheet, the first one "
                                 f"{found.layout}; import them one at a time")
        found.sheets.append(table.name)
        found.columns.update(where)
        if table.name in index:
            found.collections[table.name] = index[table.name]
        found.tables.append((table, where))
    if found is None:
        shown = next((t for t in tables if t.header), None)
        lacks = f": {missing_message(shown.header, ('card',))}" if shown is not None else ""
        raise DeckcheckError(f"{str(path)!r}: no sheet with a collection header (card, set, quantity, ... or "
                             f"another tool's Count, Name, Edition / Quantity, Card Name, Set Name){lacks}")
    return found


SHEET_SUFFIXES = (".csv", ".tsv", ".xlsx")
INDEX_HEADER = ("sheet", "collection")  # the hidden sheet of an XLSX export: which sheet holds which collection


def _index(tables: Iterable[Table]) -> dict[str, str]:
    """Sheet -> collection from the hidden index sheet of our XLSX exports (empty when there is none)."""
    for table in tables:
        if tuple(h.lower() for h in table.header[:2]) == INDEX_HEADER:
            return {str(r[0]): str(r[1]) if len(r) > 1 and r[1] is not None else "" for r in table.rows if r and r[0]}
    return {}


def write_collection(path: Path | str, holdings: Sequence[Holding], by_collection: bool = False) -> int:
    """Write holdings as a collection sheet: XLSX for people (one sheet per collection), or CSV/TSV.

    In XLSX, sheet names follow Excel's rules (31 characters, no / : [ ] ...), so a hidden sheet
    lists which sheet holds which collection: importing the workbook restores the exact names,
    also of a collection continued on further sheets (over 1,048,575 rows).
    """
    path = Path(path)
    if check_target(path, SHEET_SUFFIXES) in ("csv", "tsv"):
        header = EXPORT_COLUMNS + (("collection",) if by_collection else ())
        write_csv(path, header, _rows(holdings, by_collection))
        return len(holdings)
    groups: dict[str, list[Holding]] = {}
    for h in holdings:
        groups.setdefault(h.collection if by_collection else "", []).append(h)
    if not groups:
        groups[""] = []
    names = list(groups)

    def index(used: list[list[str]]) -> SheetSpec:
        return SheetSpec("deckcheck collections", INDEX_HEADER,
                         [(sheet, name) for name, sheets in zip(names, used, strict=True) for sheet in sheets])
    write_xlsx(path, [SheetSpec(name or "Collection", EXPORT_COLUMNS, [h.row() for h in group],
                                widths={0: 40, 8: 16, 9: 30})
                      for name, group in groups.items()], hidden=index)
    return len(holdings)


def _rows(holdings: Sequence[Holding], by_collection: bool) -> Iterator[list[object]]:
    for h in holdings:
        yield h.row() + ([h.collection] if by_collection else [])
