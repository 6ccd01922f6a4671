"""Decklists that arrive over HTTP (pasted text or an uploaded file) checked like `deckcheck check`.

No user input becomes a file path: an upload that needs a file reader (CSV, XLSX, JSON) is
written to a fresh private temporary folder under a fixed name whose suffix is taken from a fixed
list; the client's file name is only a label, put back in the report where the reader wrote the
temporary path, so the report equals the CLI's for a file of that name.
"""
from __future__ import annotations

import tempfile
from pathlib import Path, PurePath

from deckcheck.catalog import SETS_HINT
from deckcheck.check import CARD_SHEET_HINT, check_raw
from deckcheck.decklist import RawDeck
from deckcheck.errors import DeckcheckError, DecklistError, InputFileError
from deckcheck.library.api import CardSource
from deckcheck.report import Report
from deckcheck.textlimits import parse_checked

WEB_SETS_HINT = "(the Set list of the Cards page, /cards, names them all)"
WEB_CARD_SHEET_HINT = "(the Card sheet field of the check page: a .csv or .xlsx of your own cards, for that check)"
FIX_LINES = 100  # lines one `fix` of the check page rewrites (a card that several lines name: one button for them all)
PASTED = "-"  # the label of pasted text: what `deckcheck check -` calls standard input
BOTH_SENT = ("both `decklist` and `file` were sent: send one of them (which one was meant cannot be told, so "
             "neither is checked)")
"""The API's answer (400) to a request with decklist text and a file: a program meant one of them."""
LABEL_MAX = 200


def label_of(filename: str | None) -> str:
    """The name a report gives an uploaded file: the client's name, printable and at most 200 characters."""
    name = shortened("".join(c for c in (filename or "upload") if c.isprintable())).strip()
    return name or "upload"


def shortened(name: str, limit: int = LABEL_MAX) -> str:
    """A file name cut to `limit` characters, its suffix kept (the file's kind is read from it): the middle
    gives way to "…"."""
    if len(name) <= limit:
        return name
    suffix = PurePath(name).suffix
    if len(suffix) > limit // 4:  # no suffix a reader knows is that long
        suffix = ""
    return name[:limit - len(suffix) - 1] + "…" + suffix


def is_text_upload(label: str | None) -> bool:
    """Whether an upload of this name is read as a text decklist (not by a file reader)."""
    from deckcheck.importers.decklists import is_text_suffix
    return is_text_suffix(PurePath(label or "").suffix)


def read_text(text: str, label: str = PASTED) -> list[RawDeck]:
    """A pasted (or uploaded plain-text) decklist as a raw deck; DecklistError past the limits every text
    decklist is read under (deckcheck.textlimits), with the words `deckcheck check` gives."""
    return [parse_checked(text, label)]


def upload_text(label: str, data: bytes) -> str:
    """An uploaded text file as text, decoded and bounded as a file of that name is; UnreadableUpload if not."""
    from deckcheck.importers import limits
    try:
        return limits.text_of_bytes(data, label)
    except InputFileError as exc:
        raise UnreadableUpload(str(DecklistError(exc.source, exc.message))) from None


class UnreadableUpload(DeckcheckError):
    """An uploaded file that cannot be read at all; the message names it by its label, as the CLI would."""

    def __init__(self, message: str, line: int | None = None):
        self.line = line
        super().__init__(message)


def read_upload(label: str, data: bytes) -> list[RawDeck]:
    """Every deck an uploaded file holds, read by its suffix like a file of that name; UnreadableUpload if not."""
    if not data:
        raise UnreadableUpload(f"{label}: the file is empty")
    if is_text_upload(label):
        from deckcheck.importers.decklists import not_empty
        return read_text(not_empty(upload_text(label, data), label), label)
    from deckcheck.importers.decklists import read_decklists
    with tempfile.TemporaryDirectory(prefix="deckcheck-upload-") as folder:
        path = Path(folder) / f"upload{PurePath(label).suffix.lower()}"
        path.write_bytes(data)
        tmp = str(path)
        try:
            raws = read_decklists(path)
        except DeckcheckError as exc:
            raise UnreadableUpload(str(exc).replace(tmp, label), getattr(exc, "line", None)) from exc
    for raw in raws:
        raw.source = raw.source.replace(tmp, label)
    return raws


def check_raws(raws: list[RawDeck], catalog: CardSource, fmt: str | None, details: bool = False) -> list[Report]:
    """Each raw deck resolved against the catalogue and validated, as `deckcheck check` does."""
    return [check_raw(raw, catalog.index, fmt or None, details) for raw in raws]


def page_text(text: str) -> str:
    """A report's text as a page shows it, which names no command (a template filter): the set list a web reader has
    is the Cards page's, a card sheet is brought in the check page's field (the JSON API keeps the command line's
    words, §6)."""
    return text.replace(SETS_HINT, WEB_SETS_HINT).replace(CARD_SHEET_HINT, WEB_CARD_SHEET_HINT)


def unreadable(label: str, exc: Exception, fmt: str | None) -> Report:
    """The report of a file or text that could not be read at all (as the CLI's, the cause in input_errors)."""
    from deckcheck.library.api import unreadable as unreadable_report
    return unreadable_report(label, exc, fmt or "")
