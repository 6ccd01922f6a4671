"""The limits of every file reader, checked before the expensive work starts (docs/limits.md).

A file past a limit is refused with a one-line message that names it and the limit (exit code 2);
nothing is read whole before its size is known. Why each number is what it is:

- TEXT_MAX_BYTES, LINE_MAX_CHARS: in deckcheck.textlimits, which every text path (files, standard input,
  library calls, web forms) goes through.
- JSON_MAX_DEPTH: a JSON decklist is 4 levels deep (deck, sections, list, card); 32 leaves room for
  extra metadata and keeps far below Python's recursion limit.
- SHEET_MAX_BYTES: the 200,000-row benchmark collection is 13 MB as CSV and 8 MB as XLSX; 64 MiB is
  five times that.
- CSV_FIELD_MAX_CHARS: the csv module's own default (131,072); a field past it is a refused file,
  with its row, not a traceback.
- XLSX_MAX_MEMBERS: a workbook has about 10 parts plus 2 per sheet; 4,096 allows 2,000 sheets
  (a registration workbook with one sheet per player).
- XLSX_MAX_UNCOMPRESSED: the benchmark collection's sheet inflates to 68 MB of XML; 256 MiB is
  almost four times that, and bounds what a zip bomb can make the reader inflate.
- XLSX_MAX_RATIO: real sheets deflate 5-15 to 1 (the benchmark: 8.8); a part over 1 MiB that
  inflates more than 100 times its stored size is a bomb, not a spreadsheet.
- XLSX_MAX_CELLS: the spreadsheet reader allocates every cell of a sheet's extent (rows x columns
  from A1 to the farthest cell), about 45 bytes each, whether the cells are filled or not; one cell
  at XFD1048576 asks for 17 billion. 5,000,000 cells (about 250 MB) is 2.5 times the benchmark's
  200,000 rows x 10 columns.
- QUANTITY_MAX: CONTRACTS.md §4, quantities are whole numbers up to 1,000,000.
"""
from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:
    import zipfile

from deckcheck.cells import CellError
from deckcheck import limits as LIMITS
from deckcheck.errors import InputFileError as InputFileError  # the readers catch it here
from deckcheck.limits import size_text
from deckcheck.textlimits import LINE_MAX_CHARS as LINE_MAX_CHARS  # every text limit, with the file readers' ones
from deckcheck.textlimits import TEXT_MAX_BYTES as TEXT_MAX_BYTES
from deckcheck.textlimits import check_characters as check_characters
from deckcheck.textlimits import check_line_lengths as check_line_lengths
from deckcheck.textlimits import too_big
# the numbers: deckcheck.limits (the one table, which docs/limits.md is tested against)
JSON_MAX_DEPTH = LIMITS.JSON_DEPTH.value
SHEET_MAX_BYTES = LIMITS.SHEET_BYTES.value
CSV_FIELD_MAX_CHARS = LIMITS.CSV_FIELD_CHARS.value
XLSX_MAX_MEMBERS = LIMITS.XLSX_MEMBERS.value
XLSX_MAX_UNCOMPRESSED = LIMITS.XLSX_UNCOMPRESSED.value
XLSX_MAX_RATIO = LIMITS.XLSX_RATIO.value
XLSX_RATIO_FROM_BYTES = 1 << 20
XLSX_MAX_CELLS = LIMITS.XLSX_CELLS.value
XLSX_MAX_ROWS = 1_048_576  # Excel's own limits: a reference beyond them is not a spreadsheet's
XLSX_MAX_COLUMNS = 16_384
QUANTITY_MAX = LIMITS.QUANTITY.value


def _open_error(source: str, exc: OSError) -> InputFileError:
    if isinstance(exc, FileNotFoundError):
        return InputFileError(source, "no such file")
    if isinstance(exc, IsADirectoryError):
        return InputFileError(source, "is a folder; name the files in it")
    if isinstance(exc, PermissionError):
        return InputFileError(source, "permission denied (the file cannot be read)")
    return InputFileError(source, f"cannot be read ({exc.strerror or exc})")


def open_bounded(path: str | Path, limit: int, what: str) -> BinaryIO:
    """Open a file for reading after checking its size, when the file system knows it.

    Pipes and devices (`<(...)`, /dev/zero) have no size: readers of them stop at the limit.
    """
    source = str(path)
    try:
        f = open(path, "rb")
        try:
            size = os.fstat(f.fileno()).st_size
        except OSError:
            size = 0
    except OSError as exc:
        raise _open_error(source, exc) from None
    if size > limit:
        f.close()
        raise InputFileError(source, too_big(what, limit, size))
    return f


def read_bytes(path: str | Path, limit: int, what: str) -> bytes:
    """The bytes of a file of at most `limit` bytes; InputFileError before reading more."""
    source = str(path)
    with open_bounded(path, limit, what) as f:
        try:
            data = f.read(limit + 1)
        except OSError as exc:
            raise _open_error(source, exc) from None
    if len(data) > limit:
        raise InputFileError(source, too_big(what, limit))
    return data


def read_stdin(limit: int = TEXT_MAX_BYTES, what: str = "text decklists") -> bytes:
    """Standard input, at most `limit` bytes."""
    stream = getattr(sys.stdin, "buffer", None)
    data = stream.read(limit + 1) if stream is not None else sys.stdin.read(limit + 1).encode("utf-8",
                                                                                               "surrogatepass")
    if len(data) > limit:
        raise InputFileError("-", too_big(what, limit))
    return data


_BOMS = ((b"\xef\xbb\xbf", "utf-8-sig"), (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))


def decode_text(data: bytes, source: str, max_line: int = LINE_MAX_CHARS) -> str:
    """Text from bytes: UTF-8 (or UTF-16 with its byte-order mark), no NUL bytes, no line over the limit."""
    encoding = next((enc for bom, enc in _BOMS if data.startswith(bom)), "utf-8")
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise InputFileError(source, f"not UTF-8 text ({exc.reason} at byte {exc.start}); save it as UTF-8") \
            from None
    check_characters(text, source)
    check_line_lengths(text, source, max_line)
    return text


def text_of_bytes(data: bytes, source: str, what: str = "text decklists", limit: int = TEXT_MAX_BYTES) -> str:
    """Bytes already in memory (an upload) as text, within the limits a file of them is read under."""
    if len(data) > limit:
        raise InputFileError(source, too_big(what, limit, len(data)))
    return decode_text(data, source)


def read_text(path: str | Path, what: str = "text decklists", limit: int = TEXT_MAX_BYTES) -> str:
    """A text file (or '-' for standard input) within the size and line-length limits."""
    if str(path) == "-":
        return decode_text(read_stdin(limit, what), "-")
    return decode_text(read_bytes(path, limit, what), str(path))


_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def json_depth(text: str) -> int:
    """How deeply the arrays and objects of a JSON text nest (strings skipped); linear time, no recursion."""
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    depth = deepest = 0
    for step in map(_DEPTH_STEP.__getitem__, brackets):
        depth += step
        if depth > deepest:
            deepest = depth
    return deepest


# -- XLSX ------------------------------------------------------------------------------------------------
_CHUNK = 4 << 20
# a cell's (or row's) reference: the usual form has a literal prefix the regex engine searches for fast;
# the general one (any white space around '=') is used on the pieces that hold such a form
# the spreadsheet reader takes lower case too, and any number of letters (AAAAA1 is column 475,255)
_REF = re.compile(rb" r=[\"']([A-Za-z]*)([0-9]+)[\"']")
_REF_ANY = re.compile(rb"\sr\s*=\s*[\"']([A-Za-z]*)([0-9]+)[\"']")
_ODD_REF = (b"r =", b"r= ")
_ODD_SPACE = ((b"\t", b"\tr="), (b"\n", b"\nr="), (b"\r", b"\rr="))  # a rare byte first: found at memchr's speed


def _has_odd_ref(piece: bytes) -> bool:
    """Whether a piece may hold an attribute r written with white space other than one space before it."""
    return any(form in piece for form in _ODD_REF) or any(ws in piece and form in piece for ws, form in _ODD_SPACE)

_DIMENSION = re.compile(rb"<(?:\w+:)?dimension\b[^>]*?\bref\s*=\s*[\"']([^\"']*)[\"']")
_ROOT = re.compile(rb"<(\w+:)?worksheet\b")
_CELL_REF = re.compile(r"^([A-Za-z]+)([0-9]+)$")
_WORKSHEET = re.compile(r"^xl/worksheets/[^/]+\.xml$", re.IGNORECASE)


def column_number(letters: str | bytes) -> int:
    """A -> 1, Z -> 26, AA -> 27, XFD -> 16384."""
    n = 0
    for ch in (letters.decode() if isinstance(letters, bytes) else letters).upper():
        n = n * 26 + ord(ch) - 64
    return n


@dataclass
class SheetScan:
    """What one worksheet part declares and holds: extent (rows, columns) and cells that are not values."""

    rows: int = 0
    columns: int = 0
    declared_rows: int = 0
    declared_columns: int = 0
    needs_cell_check: bool = False  # it holds formulas or error cells: they are checked one by one


@dataclass
class WorkbookScan:
    """The result of looking at a workbook before reading it."""

    sheets: dict[str, SheetScan] = field(default_factory=dict)


def inspect_xlsx(path: str | Path) -> WorkbookScan:
    """Look at a workbook before the spreadsheet reader does: zip parts, sizes, ratios, sheet extents.

    InputFileError when the file is past a limit. Sheet parts are inflated as a stream (a few MB at a
    time) and scanned for cell references: the extent the reader will allocate is known exactly
    before it allocates it, whatever the file's <dimension> says.
    """
    import zipfile
    source = str(path)
    f = open_bounded(path, SHEET_MAX_BYTES, "spreadsheets")
    with f:
        try:
            book = zipfile.ZipFile(f)
        except (zipfile.BadZipFile, OSError, ValueError) as exc:
            raise InputFileError(source, f"not a readable workbook (not an XLSX zip file: {exc})") from None
        with book:
            infos = book.infolist()
            if len(infos) > XLSX_MAX_MEMBERS:
                raise InputFileError(source, f"not a readable workbook: {len(infos):,} parts, more than "
                                             f"{XLSX_MAX_MEMBERS:,}")
            total = sum(i.file_size for i in infos)
            if total > XLSX_MAX_UNCOMPRESSED:
                raise InputFileError(source, f"not a readable workbook: it inflates to {size_text(total)}, more "
                                             f"than {size_text(XLSX_MAX_UNCOMPRESSED)}")
            for info in infos:
                if info.file_size > XLSX_RATIO_FROM_BYTES and \
                        info.file_size > XLSX_MAX_RATIO * max(1, info.compress_size):
                    raise InputFileError(source, f"not a readable workbook: part {info.filename!r} inflates "
                                                 f"{info.file_size // max(1, info.compress_size):,} times its "
                                                 f"stored size (a zip bomb?); the limit is {XLSX_MAX_RATIO}")
            scan = WorkbookScan()
            cells = 0
            for info in infos:
                if not _WORKSHEET.match(info.filename):
                    continue
                sheet = _scan_sheet(book, info, source)
                scan.sheets[info.filename] = sheet
                for rows, columns, how in ((sheet.declared_rows, sheet.declared_columns, "declares"),
                                           (sheet.rows, sheet.columns, "reaches")):
                    if rows > XLSX_MAX_ROWS or columns > XLSX_MAX_COLUMNS:
                        raise InputFileError(source, f"not a readable workbook: a sheet {how} cell "
                                                     f"{cell_ref(rows, columns)}, beyond any spreadsheet's last cell "
                                                     "XFD1048576")
                    if rows * columns > XLSX_MAX_CELLS:
                        raise InputFileError(source, f"a sheet {how} {rows:,} rows x {columns:,} columns (up to "
                                                     f"cell {cell_ref(rows, columns)}), more than "
                                                     f"{XLSX_MAX_CELLS:,} cells, the limit for a sheet")
                cells += sheet.rows * sheet.columns
            if cells > XLSX_MAX_CELLS:
                raise InputFileError(source, f"its sheets hold {cells:,} cells together, more than "
                                             f"{XLSX_MAX_CELLS:,}, the limit for a workbook")
    return scan


def cell_ref(rows: int, columns: int) -> str:
    """The reference of a cell by its 1-based row and column: (3, 2) -> B3."""
    letters = ""
    while columns > 0:
        columns, rest = divmod(columns - 1, 26)
        letters = chr(65 + rest) + letters
    return f"{letters or 'A'}{rows}"


def _scan_sheet(book: zipfile.ZipFile, info: zipfile.ZipInfo, source: str) -> SheetScan:
    """Stream one worksheet part: its <dimension>, the farthest cell reference, formulas and error cells.

    The stream is cut after a '>' so that no attribute straddles two pieces (a piece without one is
    scanned as it is once it passes 1 MiB).
    """
    import zipfile
    scan = SheetScan()
    extent = (0, 0)  # rows, columns of the farthest reference so far
    referenced = cells = 0
    tags = _Tags(b"")
    carry = b""
    prolog = True  # XML entities can only be declared before the root element
    read = 0
    try:
        with book.open(info) as part:
            while True:
                block = part.read(_CHUNK)
                if not read:
                    root = _ROOT.search(block, 0, 4096)
                    tags = _Tags(root.group(1) or b"" if root else b"")
                    if root and b"<!ENTITY" not in block[:root.start()]:
                        prolog = False
                    dim = _DIMENSION.search(block, 0, 65536)
                    if dim:
                        scan.declared_rows, scan.declared_columns = _extent(dim.group(1).decode("ascii", "replace"))
                read += len(block)
                if read > XLSX_MAX_UNCOMPRESSED:
                    raise InputFileError(source, f"not a readable workbook: a sheet inflates to more than "
                                                 f"{size_text(XLSX_MAX_UNCOMPRESSED)}")
                chunk = carry + block
                cut = chunk.rfind(b">") + 1 if block else len(chunk)
                if cut == 0 and len(chunk) > (1 << 20):
                    cut = len(chunk)
                piece, carry = chunk[:cut], chunk[cut:]
                if piece:
                    in_piece = piece.count(tags.ref_first)
                    fast = _fast_extent(piece, extent, tags) if in_piece == piece.count(tags.cell) else None
                    if fast is None:  # every reference found and read: slower, exact for any way of writing them
                        in_piece = sum(piece.count(tag) for tag in tags.cells)
                        found = (_REF_ANY if _has_odd_ref(piece) else _REF).findall(piece)
                        extent, cell_refs = _exact_extent(found, extent)
                        referenced += cell_refs
                    else:
                        extent, referenced = fast, referenced + in_piece
                    cells += in_piece
                    if not scan.needs_cell_check and any(m in piece for m in tags.markers):
                        scan.needs_cell_check = True
                    if prolog and b"<!ENTITY" in piece:
                        raise InputFileError(source, "not a readable workbook: a sheet declares XML entities")
                if not block:
                    break
    except (zipfile.BadZipFile, OSError, EOFError, ValueError, RuntimeError) as exc:
        raise InputFileError(source, f"not a readable workbook ({info.filename}: {exc})") from None
    rows, columns = extent
    # cells written without a reference follow the one before them: they can reach that much further
    scan.rows, scan.columns = rows, max(columns, 1) + max(0, cells - referenced)
    return scan


class _Tags:
    """The byte strings the scan counts and looks for, with the sheet's namespace prefix (b'x:' or b'')."""

    def __init__(self, prefix: bytes):
        self.cell = b"<" + prefix + b"c"  # also <col>, <cfRule>: then cells are counted one by one
        self.ref_first = b"<" + prefix + b'c r="'  # a cell whose first attribute is its reference
        self.cells = (b"<" + prefix + b"c ", b"<" + prefix + b"c>", b"<" + prefix + b"c/>")
        self.row = b"<" + prefix + b"row "
        # <f> (a formula; also matches <formula> of conditional formats: a needless check, no harm) and t="e"
        # (an error cell)
        self.markers = (b"<" + prefix + b"f", b't="e"', b"t='e'")


def _exact_extent(found: list[tuple[bytes, bytes]], extent: tuple[int, int]) -> tuple[tuple[int, int], int]:
    """The extent grown by every (letters, digits) reference found, and how many of them are cells'."""
    rows, columns = extent
    if not found:
        return extent, 0
    cols, numbers = zip(*found, strict=True)
    columns = max(columns, max(map(column_number, set(cols) - {b""}), default=0))
    rows = max(rows, max(map(int, set(numbers))))  # a row's cells share its number
    return (rows, columns), len(cols) - cols.count(b"")


_ROW_NUMBER = re.compile(rb" r=[\"']([0-9]+)[\"']")  # a reference without column letters: a row's own
_FAST_UPDATES = 64  # references past the extent found so far, per piece, before the exact scan takes over


def _fast_extent(piece: bytes, extent: tuple[int, int], tags: _Tags) -> tuple[int, int] | None:
    """The extent (rows, columns) grown by a piece, without reading every reference; or None.

    For the usual sheet: every cell written <c r="B7" ...>, no reference written another way (r = ,
    a tab before r), rows in order. The last row's number is taken, then one search finds any
    reference past the extent so far (in a sheet written row by row: a few, its columns, once).
    None, and the exact scan reads every reference, for a piece written otherwise or with many
    references past the ones before them (rows or cells out of order).
    """
    if _has_odd_ref(piece):
        return None
    rows, columns = extent
    last_row = piece.rfind(tags.row)
    if last_row >= 0:
        m = _ROW_NUMBER.search(piece, last_row, last_row + 4096)
        if m:
            rows = max(rows, int(m.group(1)))
    pos = 0
    for _ in range(_FAST_UPDATES):
        m = _beyond(rows, columns).search(piece, pos)
        if m is None:
            return rows, columns
        rows, columns = max(rows, int(m.group(2))), max(columns, column_number(m.group(1)))
        pos = m.end()
    return None


@lru_cache(maxsize=512)
def _beyond(rows: int, columns: int) -> re.Pattern[bytes]:
    """A cell or row reference (as _REF reads them) whose row is past `rows` or whose column is past `columns`."""
    past = rb"(?=(?i:" + _letters_after(columns) + rb")[0-9]|[A-Za-z]*(?:" + _number_after(rows) + rb")[\"'])"
    return re.compile(rb" r=[\"']" + past + rb"([A-Za-z]*)([0-9]+)[\"']")


def _number_after(n: int) -> bytes:
    """A regular expression for the digit strings (leading zeros or not) of a number greater than n."""
    return _after(str(n).encode(), b"0-9")


def _letters_after(column: int) -> bytes:
    """A regular expression (to be matched ignoring case) for column letters past a column number."""
    return _after(cell_ref(1, column)[:-1].encode() if column > 0 else b"", b"A-Z")


def _after(written: bytes, span: bytes) -> bytes:
    """Strings of the characters in `span` (b'0-9', b'A-Z') that come after `written` as numbers do:
    longer, or as long and greater where they first differ."""
    k, top = len(written), span[-1]
    options = [b"[%s]{%d,}" % (span, k + 1)]
    for i, ch in enumerate(written):
        if ch < top:
            rest = k - i - 1
            options.append(written[:i] + b"[%c-%c]" % (ch + 1, top) + (b"[%s]{%d}" % (span, rest) if rest else b""))
    return b"|".join(options)


def _extent(ref: str) -> tuple[int, int]:
    last = ref.split(":")[-1].strip().upper().replace("$", "")
    m = _CELL_REF.match(last)
    if not m:
        return 0, 0
    return int(m.group(2)), column_number(m.group(1))


def bad_cells(path: str | Path, parts: list[str]) -> dict[str, dict[tuple[int, int], CellError]]:
    """Cells that are not values, per worksheet part: {(row, column) 0-based: the CellError}.

    A formula with no cached value, and an error cell (#DIV/0!, #N/A, ...). Only the parts the scan
    found formulas or error cells in are parsed again, element by element.
    """
    import zipfile
    from xml.etree.ElementTree import iterparse
    out: dict[str, dict[tuple[int, int], CellError]] = {}
    with zipfile.ZipFile(path) as book:
        for name in parts:
            found: dict[tuple[int, int], CellError] = {}
            row = 0
            col = 0
            with book.open(name) as part:
                for event, elem in iterparse(part, events=("start", "end")):
                    tag = elem.tag.rsplit("}", 1)[-1]
                    if event == "start":
                        if tag == "row":
                            r = elem.get("r")
                            row = int(r) if r and r.isdigit() else row + 1
                            col = 0
                        elif tag == "c":
                            m = _CELL_REF.match(elem.get("r") or "")
                            if m:
                                row, col = int(m.group(2)), column_number(m.group(1))
                            else:
                                col += 1
                        continue
                    if tag != "c":
                        if tag == "row":
                            elem.clear()
                        continue
                    kinds = {child.tag.rsplit("}", 1)[-1]: child for child in elem}
                    value = kinds.get("v")
                    if elem.get("t") == "e":
                        text = value.text if value is not None and value.text else "#ERROR"
                        found[(row - 1, col - 1)] = CellError(text, f"an error cell ({text})")
                    elif "f" in kinds and (value is None or value.text is None):
                        formula = "=" + (kinds["f"].text or "")
                        found[(row - 1, col - 1)] = CellError(formula, f"a formula with no cached value ({formula})",
                                                              "open and save the sheet in a spreadsheet program to "
                                                              "store its value")
                    elem.clear()
            if found:
                out[name] = found
    return out


def sheet_parts(path: str | Path) -> dict[str, str]:
    """{sheet name: worksheet part} from the workbook's own index (xl/workbook.xml and its relations)."""
    import zipfile
    from xml.etree.ElementTree import fromstring
    out: dict[str, str] = {}
    with zipfile.ZipFile(path) as book:
        try:
            workbook = fromstring(book.read("xl/workbook.xml"))
            rels = fromstring(book.read("xl/_rels/workbook.xml.rels"))
        except (KeyError, SyntaxError):
            return out
    targets = {}
    for rel in rels:
        target = rel.get("Target") or ""
        target = target.lstrip("/") if target.startswith("/") else "xl/" + target
        targets[rel.get("Id")] = os.path.normpath(target).replace(os.sep, "/")
    for elem in workbook.iter():
        if elem.tag.rsplit("}", 1)[-1] == "sheet":
            rid = next((v for k, v in elem.attrib.items() if k.rsplit("}", 1)[-1] == "id"), None)
            if rid in targets and elem.get("name") is not None:
                out[elem.get("name", "")] = targets[rid]
    return out

