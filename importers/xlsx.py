"""The bytes of an XLSX workbook, written by hand into a zip file (writers.write_xlsx plans what goes in).

Why no library: xlsxwriter spends about 9 µs a cell (0.6 s of a 1,000-deck tournament report), and the faster
ones (rustpy-xlsxwriter, pyexcelerate) write the clock's time into docProps with no way to give another, so the
same rows would not make the same bytes; the little of the format a report needs fits in this file.

What it writes: inline strings (never shared strings, never a formula: text is text), numbers, blank cells that
carry a style, a bold shaded header, per-row fills, column widths, a frozen header row, an autofilter and hidden
sheets. Text is escaped as Excel does (`_xHHHH_` for control characters and for a literal `_xHHHH_`); what no XML
file can hold and no reader gives back (a lone surrogate, the non-characters U+FFFE and U+FFFF) becomes U+FFFD.
Every part carries the same date, so that the same sheets make the same bytes. Rows stream out a block at a
time: memory stays flat however long the sheet.
"""
from __future__ import annotations

import math
import re
import sys
import zipfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO, Callable, Sequence

# style ids of xl/styles.xml below (cellXfs): a row's style by name, the header's
STYLE_IDS = {"good": 2, "bad": 3, "warn": 4}
HEADER_STYLE = 1
BLOCK = 2000  # rows joined into one string before they go to the zip stream
ZIP_DATE = (1980, 1, 1, 0, 0, 0)  # the earliest a zip entry can carry: no clock in the bytes
# deflate level 1: a third the time of the default 6 (20 against 58 ms on a 1,000-deck report's 5 MB of XML) for a
# file a third larger; ZipFile.open(ZipInfo, "w") takes the level from the entry only (named so from Python 3.13)
ZIP_LEVEL = 1
_LEVEL_ATTRIBUTE = "compress_level" if sys.version_info >= (3, 13) else "_compresslevel"

_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
_MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG_REL = "http://schemas.openxmlformats.org/package/2006/relationships"
_LITERAL_ESCAPE = re.compile("(_x[0-9a-fA-F]{4}_)")
_TEXT = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\ufffe": "\ufffd", "\uffff": "\ufffd",
                       **{chr(c): f"_x{c:04X}_" for c in (*range(0, 9), *range(11, 32))},
                       **{chr(c): "\ufffd" for c in range(0xD800, 0xE000)}})
# an attribute's text (a sheet's name: a collection's) can hold no escape: what XML cannot hold becomes U+FFFD
_ATTRIBUTE = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\ufffe": "\ufffd",
                            "\uffff": "\ufffd", **{chr(c): "\ufffd" for c in (*range(0, 9), *range(11, 32))},
                            **{chr(c): "\ufffd" for c in range(0xD800, 0xE000)}})


class TooLarge(Exception):
    """A part of the workbook would pass the size a zip entry holds without ZIP64 (2 GB)."""


@dataclass
class Sheet:
    """One worksheet as it is written: every value already what the cell holds.

    `rows`: each cell None or "" (blank), a bool ("yes"/"no"), an int or float (a number) or anything else
    (its str(), as text). `styles`: a style name of STYLE_IDS per row, or None. `text`: called as
    text(row number, column, value) for text longer than an XLSX cell holds; returns what to write instead
    (or raises). `dressed`: a bold frozen header with an autofilter over the rows.
    """

    name: str
    header: Sequence[str]
    rows: Sequence[Sequence[object]]
    styles: Sequence[str | None] | None
    widths: Sequence[float]
    long_text: Callable[[int, int, str], str]
    max_cell: int
    dressed: bool = True
    hidden: bool = False


def column_name(index: int) -> str:
    """The letters of a 0-based column: 0 -> A, 25 -> Z, 26 -> AA."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def text_xml(value: str) -> str:
    """Cell text as it stands inside <t>: XML-escaped, control characters and literal escapes as Excel writes them."""
    if "_x" in value:
        value = _LITERAL_ESCAPE.sub(r"_x005F\1", value)
    return value.translate(_TEXT)


def column_width(width: float) -> float:
    """A width in characters as Excel stores it (the padding of a 7-pixel digit, as xlsxwriter computes it)."""
    pixels = int(width * 12 + 0.5) if width < 1 else int(width * 7 + 0.5) + 5
    return (pixels * 256 // 7) / 256


def _quoted(name: str) -> str:
    return "'" + name.replace("'", "''") + "'"


def _number(value: float) -> str:
    return f"{value:.16G}"


def _finite(value: float) -> bool:
    """A number a cell holds (a double): not NaN nor infinite, not an int beyond a double's range (written as text)."""
    return math.isfinite(value) if isinstance(value, float) else -_DOUBLE_MAX < value < _DOUBLE_MAX


_DOUBLE_MAX = 2 ** 1023


def write_book(path: Path, sheets: Sequence[Sheet], created: datetime) -> None:
    """Write the workbook of `sheets` (in order; the first is the one shown) to `path`."""
    if not sheets:
        sheets = [Sheet("Sheet1", (), (), None, (), lambda r, c, v: v, 0, dressed=False)]
    stamp = created.strftime("%Y-%m-%dT%H:%M:%SZ")
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as book:
        def part(name: str, text: str) -> None:
            book.writestr(_entry(name), (_HEAD + text).encode("utf-8"))
        count = len(sheets)
        part("[Content_Types].xml", _content_types(count))
        part("_rels/.rels", f'<Relationships xmlns="{_PKG_REL}">'
             f'<Relationship Id="rId1" Type="{_REL}/officeDocument" Target="xl/workbook.xml"/>'
             f'<Relationship Id="rId2" Type="{_PKG_REL}/metadata/core-properties" Target="docProps/core.xml"/>'
             f'<Relationship Id="rId3" Type="{_REL}/extended-properties" Target="docProps/app.xml"/>'
             "</Relationships>")
        part("docProps/core.xml", '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/'
             'metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.'
             'org/dc/terms/" xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/'
             'XMLSchema-instance"><dc:creator></dc:creator><cp:lastModifiedBy></cp:lastModifiedBy>'
             f'<dcterms:created xsi:type="dcterms:W3CDTF">{stamp}</dcterms:created>'
             f'<dcterms:modified xsi:type="dcterms:W3CDTF">{stamp}</dcterms:modified></cp:coreProperties>')
        part("docProps/app.xml", '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/'
             'extended-properties"><Application>deckcheck</Application></Properties>')
        part("xl/workbook.xml", _workbook(sheets))
        part("xl/_rels/workbook.xml.rels", f'<Relationships xmlns="{_PKG_REL}">'
             + "".join(f'<Relationship Id="rId{i}" Type="{_REL}/worksheet" Target="worksheets/sheet{i}.xml"/>'
                       for i in range(1, count + 1))
             + f'<Relationship Id="rId{count + 1}" Type="{_REL}/styles" Target="styles.xml"/></Relationships>')
        part("xl/styles.xml", _STYLES)
        for i, sheet in enumerate(sheets, start=1):
            try:
                with book.open(_entry(f"xl/worksheets/sheet{i}.xml"), "w") as stream:
                    _write_sheet(stream, sheet, selected=i == 1)
            except RuntimeError as exc:  # zipfile: "File size too large, try using force_zip64"
                raise TooLarge(str(exc)) from exc


def _entry(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, ZIP_DATE)
    info.compress_type = zipfile.ZIP_DEFLATED
    setattr(info, _LEVEL_ATTRIBUTE, ZIP_LEVEL)
    info.external_attr = 0o600 << 16
    return info


def _content_types(count: int) -> str:
    kind = "application/vnd.openxmlformats-officedocument"
    return ('<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            f'<Override PartName="/docProps/app.xml" ContentType="{kind}.extended-properties+xml"/>'
            '<Override PartName="/docProps/core.xml" '
            'ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>'
            f'<Override PartName="/xl/styles.xml" ContentType="{kind}.spreadsheetml.styles+xml"/>'
            f'<Override PartName="/xl/workbook.xml" ContentType="{kind}.spreadsheetml.sheet.main+xml"/>'
            + "".join(f'<Override PartName="/xl/worksheets/sheet{i}.xml" '
                      f'ContentType="{kind}.spreadsheetml.worksheet+xml"/>' for i in range(1, count + 1))
            + "</Types>")


def _last_column(sheet: Sheet) -> int:
    return max([len(sheet.header), *map(len, sheet.rows)]) - 1


def _workbook(sheets: Sequence[Sheet]) -> str:
    entries, filters = [], []
    for i, sheet in enumerate(sheets):
        state = ' state="hidden"' if sheet.hidden else ""
        entries.append(f'<sheet name="{sheet.name.translate(_ATTRIBUTE)}" sheetId="{i + 1}"{state} r:id="rId{i + 1}"/>')
        if sheet.dressed and sheet.header:
            end = f"${column_name(len(sheet.header) - 1)}${max(len(sheet.rows), 1) + 1}"
            filters.append(f'<definedName name="_xlnm._FilterDatabase" localSheetId="{i}" hidden="1">'
                           f"{_quoted(sheet.name).translate(_ATTRIBUTE)}!$A$1:{end}</definedName>")
    names = f"<definedNames>{''.join(filters)}</definedNames>" if filters else ""
    return (f'<workbook xmlns="{_MAIN}" xmlns:r="{_REL}"><bookViews><workbookView/></bookViews>'
            f"<sheets>{''.join(entries)}</sheets>{names}<calcPr calcId=\"124519\" fullCalcOnLoad=\"1\"/></workbook>")


def _write_sheet(stream: IO[bytes], sheet: Sheet, selected: bool) -> None:
    header, rows = sheet.header, sheet.rows
    last = _last_column(sheet)
    letters = [column_name(c) for c in range(last + 1)]
    dimension = f"A1:{letters[-1]}{len(rows) + 1}" if last >= 0 and (rows or header) else "A1"
    view = ' tabSelected="1"' if selected else ""
    if sheet.dressed:
        view = (f'<sheetView{view} workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" '
                'state="frozen"/><selection pane="bottomLeft"/></sheetView>')
    else:
        view = f'<sheetView{view} workbookViewId="0"/>'
    cols = "".join(f'<col min="{c + 1}" max="{c + 1}" width="{column_width(w):.16g}" customWidth="1"/>'
                   for c, w in enumerate(sheet.widths))
    head = (f'{_HEAD}<worksheet xmlns="{_MAIN}" xmlns:r="{_REL}"><dimension ref="{dimension}"/>'
            f'<sheetViews>{view}</sheetViews><sheetFormatPr defaultRowHeight="15"/>'
            + (f"<cols>{cols}</cols>" if cols else "") + "<sheetData>")
    out: list[str] = [head]
    if header:
        style = f' s="{HEADER_STYLE}"' if sheet.dressed else ""
        out.append('<row r="1">' + "".join(_text_cell(f"{letters[c]}1", style, str(h))
                                           for c, h in enumerate(header)) + "</row>")
    styles, max_cell, long_text, write = sheet.styles, sheet.max_cell, sheet.long_text, stream.write
    for r, row in enumerate(rows, start=2):
        name = styles[r - 2] if styles else None
        style = f' s="{STYLE_IDS[name]}"' if name else ""
        cells = []
        for c, value in enumerate(row):
            ref = f"{letters[c]}{r}"
            if value is None or value == "":
                if style:
                    cells.append(f'<c r="{ref}"{style}/>')
                continue
            if value is True or value is False:
                value = "yes" if value else "no"
            elif isinstance(value, (int, float)) and _finite(value):
                cells.append(f'<c r="{ref}"{style}><v>{_number(value)}</v></c>')
                continue
            text = value if isinstance(value, str) else str(value)
            if len(text) > max_cell:
                text = long_text(r, c, text)
            cells.append(_text_cell(ref, style, text))
        out.append(f'<row r="{r}">{"".join(cells)}</row>')
        if len(out) >= BLOCK:
            write("".join(out).encode("utf-8"))
            out = []
    out.append("</sheetData>")
    if sheet.dressed and header:
        out.append(f'<autoFilter ref="A1:{column_name(len(header) - 1)}{max(len(rows), 1) + 1}"/>')
    out.append('<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>'
               "</worksheet>")
    write("".join(out).encode("utf-8"))


def _text_cell(ref: str, style: str, text: str) -> str:
    space = ' xml:space="preserve"' if text[:1].isspace() or text[-1:].isspace() else ""
    return f'<c r="{ref}"{style} t="inlineStr"><is><t{space}>{text_xml(text)}</t></is></c>'


def _fill(rgb: str) -> str:
    return (f'<fill><patternFill patternType="solid"><fgColor rgb="FF{rgb}"/><bgColor indexed="64"/>'
            "</patternFill></fill>")


_FONT = '<sz val="11"/><name val="Calibri"/><family val="2"/>'
_THIN = '<left style="thin"><color auto="1"/></left><right style="thin"><color auto="1"/></right>' \
        '<top style="thin"><color auto="1"/></top><bottom style="thin"><color auto="1"/></bottom><diagonal/>'
# cellXfs: 0 plain, 1 the header (bold, grey, thin border), 2 good (green), 3 bad (red), 4 warn (yellow)
_STYLES = (f'<styleSheet xmlns="{_MAIN}"><fonts count="2"><font>{_FONT}</font><font><b/>{_FONT}</font></fonts>'
           '<fills count="6"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/>'
           f'</fill>{_fill("DDDDDD")}{_fill("C6EFCE")}{_fill("FFC7CE")}{_fill("FFEB9C")}</fills>'
           f'<borders count="2"><border><left/><right/><top/><bottom/><diagonal/></border><border>{_THIN}</border>'
           '</borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
           '<cellXfs count="5"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
           '<xf numFmtId="0" fontId="1" fillId="2" borderId="1" xfId="0" applyFont="1" applyFill="1" applyBorder="1"/>'
           + "".join(f'<xf numFmtId="0" fontId="0" fillId="{f}" borderId="0" xfId="0" applyFill="1"/>'
                     for f in (3, 4, 5))
           + '</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
           '<dxfs count="0"/><tableStyles count="0"/></styleSheet>')
