"""Spreadsheets as plain tables: CSV and XLSX in (python-calamine), CSV and XLSX out (xlsxwriter).

Writing never produces a cell a spreadsheet would run as a formula.
"""
from __future__ import annotations

import csv
import io
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Sequence

from deckcheck.cells import CellError
from deckcheck.errors import DeckcheckError

from . import limits

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


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


def unquote(value: object) -> object:
    """Undo the formula guard of our own exports: a leading apostrophe before = + - @."""
    if value.__class__ is str and value[:1] == "'" and value[1:2] in _GUARDED:
        return value[1:]
    return value


_GUARDED = ("=", "+", "-", "@", "\t", "\r")


def read_tables(path: Path, unique_headers: bool = True) -> list[Table]:
    """Every sheet of a workbook, or the one table of a CSV file, within the limits of importers.limits.

    A workbook is looked at before it is read (parts, sizes, the extent of each sheet); cells that
    hold no value (error cells, formulas with no cached value) come back as CellError. With
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
            data = book.get_sheet_by_name(name).to_python(skip_empty_area=False)
            for (r, c), cell in bad.get(name, {}).items():
                _put(data, r, c, cell)
            while data and all(c in ("", None) for c in data[-1]):
                data.pop()
            if not data:
                tables.append(Table(name, [], []))
                continue
            header = [str(c).strip() for c in data[0]]
            tables.append(Table(name, header, data[1:]))
        return tables
    except DeckcheckError:
        raise
    except Exception as exc:
        raise SheetError(f"{str(path)!r}: not a readable workbook ({exc})") from exc


def _put(data: list[list[Any]], r: int, c: int, value: object) -> None:
    """Place a cell the spreadsheet reader left out (a formula with no value) or read as empty (an error)."""
    if r < 0 or c < 0:
        return
    width = len(data[0]) if data else 0
    while len(data) <= r:
        data.append([""] * width)
    row = data[r]
    if len(row) <= c:
        row.extend([""] * (c + 1 - len(row)))
    row[c] = value


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


def safe_text(value: object) -> object:
    """A CSV cell that no spreadsheet runs as a formula: text starting with = + - @ gets an apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def _atomic_target(path: Path):
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    os.close(fd)
    return Path(tmp)


def write_text(path: Path, text: str) -> None:
    """Write a text file in one step (a temporary file renamed into place): never half a file."""
    tmp = _atomic_target(path)
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def write_csv(path: Path, header: Sequence[str], rows: Iterable[Sequence[object]]) -> None:
    """Write a CSV file in one step (a temporary file renamed into place)."""
    tmp = _atomic_target(path)
    try:
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(header)
            w.writerows([safe_text(c) for c in row] for row in rows)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


@dataclass
class SheetSpec:
    """One worksheet to write: name, header, rows, and optional per-row formats ('good'/'bad')."""

    name: str
    header: Sequence[str]
    rows: Sequence[Sequence[object]]
    row_styles: Sequence[str | None] | None = None
    widths: dict[int, float] | None = None


def write_xlsx(path: Path, sheets: Sequence[SheetSpec]) -> None:
    """Write a workbook for people: bold frozen header, autofilter, column widths; text never a formula.

    Rows are streamed (xlsxwriter's constant_memory mode): a 200,000-row sheet is not held twice.
    """
    import xlsxwriter
    tmp = _atomic_target(path)
    try:
        book = xlsxwriter.Workbook(str(tmp), {"constant_memory": True, "strings_to_formulas": False,
                                              "strings_to_urls": False, "strings_to_numbers": False})
        bold = book.add_format({"bold": True, "bg_color": "#DDDDDD", "border": 1})
        styles = {"good": book.add_format({"bg_color": "#C6EFCE"}), "bad": book.add_format({"bg_color": "#FFC7CE"}),
                  "warn": book.add_format({"bg_color": "#FFEB9C"})}
        for spec in sheets:
            ws = book.add_worksheet(spec.name[:31])
            widths = [len(str(h)) for h in spec.header]
            for row in spec.rows[:2000]:  # widths from a sample: columns are set before rows stream out
                for c, value in enumerate(row[:len(widths)]):
                    if value is not None:
                        widths[c] = max(widths[c], min(len(str(value)), 60))
            for c, width in enumerate(widths):
                ws.set_column(c, c, (spec.widths or {}).get(c, width + 2))
            ws.freeze_panes(1, 0)
            if spec.header:
                ws.autofilter(0, 0, max(len(spec.rows), 1), len(spec.header) - 1)
            ws.write_row(0, 0, list(spec.header), bold)
            write_string, write_number = ws.write_string, ws.write_number
            for r, row in enumerate(spec.rows, start=1):
                row_style = spec.row_styles[r - 1] if spec.row_styles else None
                style = styles.get(row_style) if row_style else None
                for c, value in enumerate(row):
                    if value is None or value == "":
                        if style is not None:
                            ws.write_blank(r, c, None, style)
                    elif isinstance(value, bool):
                        write_string(r, c, "yes" if value else "no", style)
                    elif isinstance(value, (int, float)):
                        write_number(r, c, value, style)
                    else:
                        write_string(r, c, str(value), style)
        book.close()
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
