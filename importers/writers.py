"""Every file deckcheck writes goes through here: checked before any work, written in one step.

- The target is checked first (`check_target`): a known extension, not a folder, in a folder
  that exists. `--out r.pdf` is refused before a single deck is checked.
- A file is written to a temporary file next to it, named `.NAME.deckcheck-partial-PID`, and
  renamed into place: a failure (full disk, read-only folder, kill) never leaves half a file
  under the real name. Temporary files of processes that no longer run are removed on the next
  write into that folder.
- New files get the mode the umask allows (0644 under umask 022), like every Unix tool; a file
  that is replaced keeps its mode.
- XLSX has hard limits (1,048,576 rows a sheet, 32,767 characters a cell): more rows continue
  on further sheets with the header repeated; longer text is refused (or, in reports meant for
  people, cut with a visible marker). Nothing is ever cut silently.
- No cell is ever written that a spreadsheet would run as a formula.
"""
from __future__ import annotations

import csv
import errno
import os
import re
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, TYPE_CHECKING, Callable, Iterable, Iterator, Sequence

from deckcheck.errors import DeckcheckError
from deckcheck.formula import guard as safe_text  # the one formula guard

if TYPE_CHECKING:  # the XLSX writer is imported when a workbook is written: zipfile is not needed before
    from .xlsx import Sheet

PARTIAL = ".deckcheck-partial-"
XLSX_MAX_ROWS = 1_048_576  # rows of one worksheet, the header row included (Excel's limit)
XLSX_MAX_CELL = 32_767  # characters of one cell (Excel's limit)
SHEET_NAME_MAX = 31
_SHEET_NAME_BAD = re.compile(r"[\[\]:*?/\\\x00-\x1f]")
KINDS = {".csv": "csv", ".tsv": "tsv", ".xlsx": "xlsx", ".json": "json", ".txt": "txt"}


class OutputError(DeckcheckError):
    """A file that cannot be written where it was asked for (exit 2; nothing is left behind)."""


def check_target(path: Path | str, allowed: Sequence[str]) -> str:
    """The kind of file to write ('csv', 'tsv', 'xlsx', 'json', 'txt'); OutputError before any work if it cannot be."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in allowed:
        other = {".xls": "deckcheck writes .xlsx workbooks, not the old .xls",
                 ".ods": "deckcheck writes .xlsx workbooks (LibreOffice opens them), not .ods"}.get(suffix, "")
        raise OutputError(f"{str(path)!r}: cannot write {suffix or 'a file without extension'}"
                          f"{'; ' + other if other else ''}; use {', '.join(allowed)}")
    _check_place(path)
    return KINDS.get(suffix, suffix.lstrip("."))


def _check_place(path: Path) -> None:
    try:
        if path.is_dir():
            raise OutputError(f"{str(path)!r} is a folder; name a file to write")
        parent = path.parent
        if not parent.exists():
            raise OutputError(f"{str(path)!r}: the folder {str(parent)!r} does not exist")
        if not parent.is_dir():
            raise OutputError(f"{str(path)!r}: {str(parent)!r} is not a folder")
    except OSError as exc:  # a name longer than the file system allows, a folder that may not be searched ...
        raise OutputError(f"cannot write {str(path)!r}: {_why(exc)}") from exc


NAME_MAX = 255  # bytes of one file name on the common file systems (ext4, XFS, btrfs, APFS, NTFS in UTF-16 units)


def _partial_name(path: Path) -> str:
    """The temporary name beside `path` (clean_leftovers knows it by PARTIAL and the process id): the
    file's own name, shortened when the two together would be longer than a file name may be."""
    tail = f"{PARTIAL}{os.getpid()}"
    name = path.name
    while name and len(f".{name}{tail}".encode("utf-8", "surrogateescape")) > NAME_MAX:
        name = name[:-1]
    return f".{name}{tail}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def clean_leftovers(folder: Path) -> list[Path]:
    """Remove the temporary files that deckcheck processes which no longer run left in a folder."""
    removed: list[Path] = []
    try:
        names = [n for n in os.listdir(folder) if PARTIAL in n]
    except OSError:
        return removed
    for name in names:
        pid = name.rsplit(PARTIAL, 1)[1]
        if pid.isdigit() and pid.isascii() and int(pid) != os.getpid() and not _alive(int(pid)):
            try:
                (folder / name).unlink()
                removed.append(folder / name)
            except OSError:
                pass
    return removed


def _why(exc: OSError) -> str:
    hints = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is used up",
             errno.EROFS: "the file system is read-only", errno.EACCES: "permission denied",
             errno.EPERM: "permission denied", errno.ENOENT: "files cannot be created there",
             errno.EISDIR: "it is a folder", errno.ENOTDIR: "a part of the path is not a folder",
             errno.ENAMETOOLONG: "the file name is longer than the file system allows",
             errno.EFBIG: "the file is too large for this file system"}
    return hints.get(exc.errno or 0, exc.strerror or str(exc))


@contextmanager
def atomic_path(path: Path | str) -> Iterator[Path]:
    """A temporary path to write; renamed to `path` when the block ends without error, else removed.

    Every OSError (full disk, read-only or missing folder, /proc) becomes an OutputError.
    """
    path = Path(path)
    _check_place(path)
    clean_leftovers(path.parent)
    tmp = path.parent / _partial_name(path)
    created = False
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)  # the umask applies
        created = True
        os.close(fd)
        try:
            mode = os.stat(path).st_mode
            if (mode & 0o170000) == 0o100000:  # a regular file being replaced keeps its mode
                os.chmod(tmp, mode & 0o7777)
        except FileNotFoundError:
            pass
        yield tmp
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
        created = False
    except OSError as exc:
        raise OutputError(f"cannot write {str(path)!r}: {_why(exc)}") from exc
    finally:
        if created:
            try:
                tmp.unlink()
            except OSError:
                pass


def write_text(path: Path | str, text: str) -> None:
    """Write a text file in one step (a temporary file renamed into place): never half a file."""
    with atomic_path(path) as tmp:
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)


def write_csv(path: Path | str, header: Sequence[str], rows: Iterable[Sequence[object]]) -> None:
    """Write a CSV file (tab-separated for .tsv) in one step."""
    delimiter = "\t" if Path(path).suffix.lower() == ".tsv" else ","
    with atomic_path(path) as tmp:
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            write_csv_to(f, header, rows, delimiter)


def write_csv_to(stream: IO[str], header: Sequence[str], rows: Iterable[Sequence[object]],
                 delimiter: str = ",") -> None:
    """Write CSV to an open text stream (standard output for `--out -`), with the same formula guard."""
    w = csv.writer(stream, delimiter=delimiter, lineterminator="\n")
    w.writerow(header)
    w.writerows([safe_text(c) for c in row] for row in rows)


@dataclass
class SheetSpec:
    """One worksheet to write: name, header, rows, optional per-row styles ('good'/'bad'/'warn') and widths.

    `long_text`: what to do with text longer than an XLSX cell holds: "refuse" (an OutputError
    naming the cell: for sheets meant to be read back) or "mark" (cut, with a visible note of
    how long it was: for reports meant for people).
    """

    name: str
    header: Sequence[str]
    rows: Sequence[Sequence[object]]
    row_styles: Sequence[str | None] | None = None
    widths: dict[int, float] | None = None
    long_text: str = "refuse"


class SheetNames:
    """Legal, unique worksheet names: no [ ] : * ? / \\, at most 31 characters, unique ignoring case."""

    def __init__(self) -> None:
        self.used: set[str] = set()

    def take(self, wanted: str) -> str:
        """A legal name as close to `wanted` as the rules allow, not used before in this workbook."""
        base = _SHEET_NAME_BAD.sub("_", wanted).strip("'").strip() or "Sheet"
        if base.lower() == "history":  # reserved by Excel
            base += "_"
        name, n = base[:SHEET_NAME_MAX], 1
        while name.lower() in self.used:
            n += 1
            suffix = f" ({n})"
            name = base[:SHEET_NAME_MAX - len(suffix)].rstrip("'") + suffix
        self.used.add(name.lower())
        return name


def _long(path: Path, sheet: str, row: int, header: Sequence[str], column: int, value: str, how: str) -> str:
    if how == "mark":
        marker = f" … [cut: {len(value):,} characters in all]"
        return value[:XLSX_MAX_CELL - len(marker)] + marker
    where = header[column] if column < len(header) else f"column {column + 1}"
    raise OutputError(f"{str(path)!r}: sheet {sheet!r}, row {row}, column {where!r} holds {len(value):,} characters; "
                      f"an XLSX cell holds at most {XLSX_MAX_CELL:,}; write .csv instead (no such limit)")


# The creation time a workbook records when SOURCE_DATE_EPOCH does not give one (the date of every zip entry too),
# so that the same rows make the same bytes: never the clock's time.
NO_DATE = datetime(1980, 1, 1, tzinfo=timezone.utc)


def workbook_created() -> datetime:
    """The creation time written into a workbook: $SOURCE_DATE_EPOCH (reproducible-builds.org) when it is a
    number of seconds, else NO_DATE; never the clock, so that two downloads of one report are the same bytes."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isascii() and epoch.isdigit() and len(epoch) <= 12:
        return datetime.fromtimestamp(int(epoch), tz=timezone.utc)
    return NO_DATE


def write_xlsx(path: Path | str, sheets: Sequence[SheetSpec],
               hidden: Callable[[list[list[str]]], SheetSpec] | None = None) -> list[list[str]]:
    """Write a workbook for people: bold frozen header, autofilter, column widths; text never a formula.

    Rows stream out a block at a time (xlsx.py). A sheet with more rows than XLSX allows continues on
    further sheets (`NAME (2)`, ...), each with the header. Returns the worksheet names each spec used;
    `hidden`, given them, makes one more sheet that is written hidden (plain: every value as text).
    """
    from .xlsx import Sheet, TooLarge, write_book
    path = Path(path)
    names = SheetNames()
    plan: list[Sheet] = []
    used: list[list[str]] = []
    for spec in sheets:
        used.append(_plan_sheets(spec, names, path, plan))
    if hidden is not None:
        spec = hidden(used)
        name = names.take(spec.name)
        rows = [[str(value) for value in row] for row in spec.rows]
        plan.append(Sheet(name, spec.header, rows, None, (), _cutter(path, name, spec), XLSX_MAX_CELL,
                               dressed=False, hidden=True))
    with atomic_path(path) as tmp:
        try:
            write_book(tmp, plan, workbook_created())
        except TooLarge as exc:
            raise OutputError("the workbook would be too large for XLSX (over 2 GB in one sheet); write .csv "
                              "instead") from exc
    return used


def _cutter(path: Path, sheet: str, spec: SheetSpec) -> Callable[[int, int, str], str]:
    """What a cell longer than XLSX allows becomes: refused or cut (`_long`), naming the sheet, row and column."""
    return lambda row, column, text: _long(path, sheet, row, spec.header, column, text, spec.long_text)


def _plan_sheets(spec: SheetSpec, names: SheetNames, path: Path, plan: list[Sheet]) -> list[str]:
    """Add the worksheets of one spec to `plan` (more than one when its rows pass a sheet's); return their names."""
    from .xlsx import Sheet
    per_sheet = XLSX_MAX_ROWS - 1
    rows = spec.rows
    parts = max(1, -(-len(rows) // per_sheet))
    taken = []
    for part in range(parts):
        name = names.take(spec.name if part == 0 else f"{spec.name} ({part + 1})")
        taken.append(name)
        chunk = rows[part * per_sheet:(part + 1) * per_sheet]
        widths = [len(str(h)) for h in spec.header]
        for row in chunk[:2000]:  # widths from a sample, as a person would judge them
            for c, value in enumerate(row[:len(widths)]):
                if value is not None:
                    widths[c] = max(widths[c], min(len(str(value)), 60))
        styles = spec.row_styles[part * per_sheet:(part + 1) * per_sheet] if spec.row_styles else None
        plan.append(Sheet(name, spec.header, chunk, styles,
                               [(spec.widths or {}).get(c, width + 2) for c, width in enumerate(widths)],
                               _cutter(path, name, spec), XLSX_MAX_CELL))
    return taken
