"""Spreadsheets as plain tables: CSV and XLSX in (python-calamine). Writing is in writers.py."""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence, overload

from deckcheck.cells import CellError
from deckcheck.errors import DeckcheckError


from . import limits


class SheetError(DeckcheckError):
    """A file that cannot be read as a table."""


@dataclass
class Table:
    """One sheet: its name, header cells and data rows (row numbers count the header as row 1).

    Cells are as the file has them: readers undo the formula guard of our exports (unquote) on the
    cells they use, rather than on every cell of a 200,000-row sheet.
    """

    name: str
    header: list[str]
    rows: Sequence[Sequence[object]]

    def numbered(self) -> Iterable[tuple[int, Sequence[object]]]:
        """(row number, cells) for every data row."""
        return ((i, r) for i, r in enumerate(self.rows, start=2))


def kind_of(path: Path) -> str:
    """'csv' or 'xlsx' by the file's extension; SheetError otherwise."""
    suffix = path.suffix.lower()
    if suffix in (".xlsx", ".xlsm", ".xls", ".ods"):
        return "xlsx"
    if suffix in (".csv", ".tsv"):
        return "csv"
    raise SheetError(f"{str(path)!r}: cannot read {suffix or 'a file without extension'}; use .csv or .xlsx")


def read_tables(path: Path, unique_headers: bool = True) -> list[Table]:
    """Every sheet of a workbook, or the one table of a CSV file, within the limits of importers.limits.

    A workbook is looked at before it is read (parts, sizes, the extent of each sheet); its rows are
    made one at a time on each pass (StreamedRows); cells that hold no value (error cells, formulas
    with no cached value) come back as CellError naming the sheet and the cell. With
    unique_headers, a header naming a column twice is refused: which of the two would count?
    """
    path = Path(path)
    if kind_of(path) == "csv":
        tables = [_read_csv(path)]
    else:
        tables = _read_xlsx(path)
    if unique_headers:
        for table in tables:
            _refuse_duplicate_headers(table, path)
    return tables


def _refuse_duplicate_headers(table: Table, path: Path) -> None:
    seen: dict[str, int] = {}
    for i, h in enumerate(table.header, start=1):
        key = " ".join(str(h).split()).lower()
        if not key:
            continue
        if key in seen:
            where = f"sheet {table.name!r}" if path.suffix.lower() not in (".csv", ".tsv") else "the header"
            raise SheetError(f"{str(path)!r}: {where} has the column {str(h)!r} twice (columns {seen[key]} and {i}); "
                             "rename or remove one")
        seen[key] = i


def _read_xlsx(path: Path) -> list[Table]:
    try:
        scan = limits.inspect_xlsx(path)
    except limits.InputFileError as exc:
        raise SheetError(f"{str(path)!r}: {exc.message}") from None
    bad: dict[str, dict[tuple[int, int], CellError]] = {}
    try:
        if any(s.needs_cell_check for s in scan.sheets.values()):
            parts = limits.sheet_parts(path)
            by_part = limits.bad_cells(path, [p for p, s in scan.sheets.items() if s.needs_cell_check])
            bad = {name: by_part[part] for name, part in parts.items() if part in by_part}
        from python_calamine import CalamineWorkbook
        book = CalamineWorkbook.from_path(str(path))
        tables = []
        for name in book.sheet_names:
            data = SheetData(name, book.get_sheet_by_name(name), bad.get(name, {}))
            first = next(data.rows(), None)
            if first is None:
                tables.append(Table(name, [], []))
            else:
                tables.append(Table(name, [str(c).strip() for c in first], StreamedRows(data)))
        return tables
    except DeckcheckError:
        raise
    except Exception as exc:
        raise SheetError(f"{str(path)!r}: not a readable workbook ({exc})") from exc


class SheetData:
    """One workbook sheet as the spreadsheet reader holds it, made into Python rows one at a time.

    python-calamine keeps the sheet's cells in its own compact memory; a pass over rows() makes each
    Python row as it is needed, so a 200,000-row sheet is never also a list of Python lists. Rows
    start at A1 (cells before the sheet's first used row and column are empty), cells that hold no
    value are CellErrors naming the sheet and cell, and trailing empty rows are left out.
    """

    def __init__(self, name: str, sheet: Any, bad: dict[tuple[int, int], CellError]):
        self.name = name
        start, end = sheet.start, sheet.end
        self._sheet = sheet if start is not None else None  # iter_rows() needs a sheet with cells
        self._lead = [""] * start[1] if start else []  # iter_rows() leaves out the columns before the first used
        self.width = end[1] + 1 if end else 0
        self._bad: dict[int, list[tuple[int, CellError]]] = {}
        for (r, c), cell in sorted(bad.items()):
            if r >= 0 and c >= 0:
                self._bad.setdefault(r, []).append((c, cell.located(name, limits.cell_ref(r + 1, c + 1))))

    def rows(self) -> Iterator[list[Any]]:
        """Every row from the sheet's first, up to its last non-empty one."""
        empty: list[list[Any]] = []  # empty rows are held back until a filled one follows them
        for row in self._all_rows():
            if row.count("") == len(row):
                empty.append(row)
                continue
            if empty:
                yield from empty
                empty.clear()
            yield row

    def _all_rows(self) -> Iterator[list[Any]]:
        r = 0
        bad, lead = self._bad, self._lead
        if self._sheet is not None:
            for row in self._sheet.iter_rows():
                if lead:
                    row = lead + row
                if r in bad:
                    _place(row, bad[r])
                yield row
                r += 1
        last = max(bad, default=-1)  # cells the reader left out (a formula with no value) below its last row
        while r <= last:
            row = [""] * self.width
            if r in bad:
                _place(row, bad[r])
            yield row
            r += 1


def _place(row: list[Any], cells: list[tuple[int, CellError]]) -> None:
    """Put the cells the spreadsheet reader left out (a formula with no value) or read as empty (an error)."""
    for c, cell in cells:
        if len(row) <= c:
            row.extend([""] * (c + 1 - len(row)))
        row[c] = cell


class StreamedRows(Sequence[Sequence[object]]):
    """The data rows of a workbook sheet (all but its header row), made anew on each pass over them.

    Iterating streams; len() and indexing make the whole list once (for small sheets and tests).
    """

    def __init__(self, data: SheetData):
        self._data = data
        self._list: list[list[Any]] | None = None

    def __iter__(self) -> Iterator[list[Any]]:
        rows = self._data.rows()
        next(rows, None)  # the header
        return rows

    def _whole(self) -> list[list[Any]]:
        if self._list is None:
            self._list = list(iter(self))  # not list(self): that asks len() first
        return self._list

    def __len__(self) -> int:
        return len(self._whole())

    @overload
    def __getitem__(self, i: int) -> list[Any]: ...

    @overload
    def __getitem__(self, i: slice) -> list[list[Any]]: ...

    def __getitem__(self, i: int | slice) -> list[Any] | list[list[Any]]:
        return self._whole()[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (StreamedRows, list, tuple)):
            return self._whole() == [list(row) for row in other]
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal by rows, like a list


def _read_csv(path: Path) -> Table:
    """One CSV table: UTF-8 (or UTF-16 with a byte-order mark), separated by commas, semicolons or tabs."""
    source = str(path)
    try:
        data = limits.read_bytes(path, limits.SHEET_MAX_BYTES, "spreadsheets")
        text = limits.decode_text(data, source, max_line=len(data) + 1)
    except limits.InputFileError as exc:
        raise SheetError(f"{source!r}: {exc.message}") from None
    first = text[:text.find("\n")] if "\n" in text else text
    delimiter = "\t" if path.suffix.lower() == ".tsv" else max((",", ";", "\t"), key=first.count)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        rows = list(reader)
    except csv.Error as exc:
        if "field larger than field limit" in str(exc):
            raise SheetError(f"{source!r}: row {reader.line_num} has a field longer than "
                             f"{limits.CSV_FIELD_MAX_CHARS:,} characters, the limit for a cell") from None
        raise SheetError(f"{source!r}: not a readable CSV file (row {reader.line_num}: {exc})") from None
    while rows and not any(c.strip() for c in rows[-1]):
        rows.pop()
    if not rows:
        return Table(path.stem, [], [])
    return Table(path.stem, [c.strip() for c in rows[0]], rows[1:])
