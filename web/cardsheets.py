"""A card sheet brought to a check (CONTRACTS §1, §6 revision 4): the API's multipart `cards` part for one check,
and the check page's "Card sheet" field, kept for the browser's session.

A page's sheet waits in the server's private preview folder (web.previews: a random name the server made, capped
in number and bytes, swept an hour after its last use), named by a random cookie; it is read again for each check
and laid over the catalogue for that check only: nothing of it is written to the database.
"""
from __future__ import annotations

import hashlib
import os
import re
import tempfile
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path, PurePath
from urllib.parse import quote, unquote

from fastapi import Request
from fastapi.responses import Response

from deckcheck import provenance
from deckcheck.cardsheet import SheetCard, header_map
from deckcheck.errors import DeckcheckError
from deckcheck.importers.cardsheet import read_card_sheet
from deckcheck.importers.tables import read_tables
from deckcheck.library.api import CardSource, Overlaid, with_origin

from .previews import SHEET_SUFFIXES, folder as preview_folder, keep as keep_preview
from .decks import label_of
from .errors import SheetRefused


SUFFIXES = SHEET_SUFFIXES
# The sheets read and laid over a catalogue lately (BroughtSheet.over, kept_sheet): each request of a browser that
# brought one reads it, and the builder asks many in a row; a few per process (each holds a name index of a game).
OVERLAID_MAX = 8
_OVERLAID: OrderedDict[tuple[int, str, str], tuple[CardSource, CardSource]] = OrderedDict()
_KEPT: OrderedDict[str, BroughtSheet] = OrderedDict()
_LOCK = threading.Lock()
COOKIE = "deckcheck_sheet"
PREFIX = "cards."  # kept apart from the collection previews: a token of theirs has no dot
TOKEN = re.compile(r"^[A-Za-z0-9_-]{43}$")
FORGET = "forget_sheet"  # the page's button that drops the kept sheet


@dataclass(frozen=True)
class BroughtSheet:
    """A card sheet read for a check: the name it was uploaded under and its rows."""

    label: str
    rows: tuple[SheetCard, ...]
    notices: tuple[str, ...] = ()
    digest: str = ""  # of the sheet's bytes: the same sheet over the same catalogue is laid over it once

    def over(self, catalog: CardSource) -> CardSource:
        """The catalogue with this sheet's rows laid over it (for this check only): made once per sheet and
        catalogue (a builder searches many times with one sheet; the server's catalogue is a new object once its
        cards change, so a kept one is never stale), the last OVERLAID_MAX of them kept."""
        if not self.digest:
            return Overlaid(catalog, self.rows, where=f"the card sheet {self.label}")
        key = (id(catalog), self.digest, self.label)
        with _LOCK:
            held = _OVERLAID.get(key)
            if held is not None and held[0] is catalog:
                _OVERLAID.move_to_end(key)
                return held[1]
        made = Overlaid(catalog, self.rows, where=f"the card sheet {self.label}")
        with _LOCK:
            _OVERLAID[key] = (catalog, made)
            while len(_OVERLAID) > OVERLAID_MAX:
                _OVERLAID.popitem(last=False)
        return made

    @property
    def said(self) -> str:
        """What the page says of it: "Using your sheet my2e.csv: 34 cards"."""
        n = len(self.rows)
        return f"Using your sheet {self.label}: {n} card{'s' if n != 1 else ''}"


def suffix_of(label: str) -> str:
    """The reader's suffix of an uploaded sheet's name; SheetRefused if it is no card-sheet kind."""
    suffix = PurePath(label).suffix.lower()
    if suffix not in SUFFIXES:
        raise SheetRefused(f"{label}: a card sheet is a {', '.join(SUFFIXES)} file; nothing was checked with it")
    return suffix


def read_sheet(label: str, data: bytes) -> BroughtSheet:
    """An uploaded card sheet read as `check --cards` reads one (every bad row named); SheetRefused if it cannot be."""
    suffix = suffix_of(label)
    if not data:
        raise SheetRefused(f"{label}: the card sheet is empty; nothing was checked with it")
    with tempfile.TemporaryDirectory(prefix="deckcheck-sheet-") as folder:
        path = Path(folder) / f"sheet{suffix}"
        path.write_bytes(data)
        try:
            sheet = read_card_sheet(path, consequence="no deck was checked with it")
        except DeckcheckError as exc:
            raise SheetRefused(str(exc).replace(repr(str(path)), label).replace(str(path), label)) from None
    origin = provenance.Provenance("sheet", f"{label} (this check only)")
    rows = tuple(with_origin(sheet.rows, origin))
    return BroughtSheet(label, rows, tuple(f"{label}: {notice}" for notice in sheet.notices),
                        hashlib.sha256(data).hexdigest())


def is_card_sheet(label: str, data: bytes) -> bool:
    """Whether an uploaded decklist file is a card sheet instead: a table with a `type` column and no quantity."""
    suffix = PurePath(label).suffix.lower()
    if suffix not in SUFFIXES or not data:
        return False
    with tempfile.TemporaryDirectory(prefix="deckcheck-sheet-") as folder:
        path = Path(folder) / f"sheet{suffix}"
        path.write_bytes(data)
        try:
            tables = [t for t in read_tables(path) if t.header]
        except Exception:  # unreadable as a table: the decklist reader says why
            return False
    for table in tables:
        columns = set(header_map(table.header)[0].values())
        heads = {str(h).strip().lower() for h in table.header}
        if {"name", "type"} <= columns and not heads & {"quantity", "qty", "count", "copies"}:
            return True
    return False


# -- kept for the browser's session --------------------------------------------------------------------------------
def keep(label: str, data: bytes) -> str:
    """Keep a page's sheet in the preview folder; return the cookie's value (its token and label)."""
    token = keep_preview(data, suffix_of(label), prefix=PREFIX)
    return f"{token}.{quote(label, safe='')}"


def kept_path(value: str) -> tuple[Path, str] | None:
    """The kept sheet a cookie names, and its label (None: none, malformed or expired); its use keeps it an hour
    more."""
    token, _, label = value.partition(".")
    label = label_of(unquote(label))
    suffix = PurePath(label).suffix.lower()
    if not TOKEN.match(token) or suffix not in SUFFIXES:
        return None
    path = preview_folder() / f"{PREFIX}{token}{suffix}"
    try:
        os.utime(path)
    except OSError:
        return None
    return path, label


def kept_sheet(request: Request) -> BroughtSheet | None:
    """This browser's kept sheet, read (None: none kept, or it expired or no longer reads)."""
    found = kept_path(request.cookies.get(COOKIE, ""))
    if found is None:
        return None
    path, label = found
    with _LOCK:
        read = _KEPT.get(path.name)
    if read is not None and read.label == label:  # a kept file is written once, under a name made for it
        return read
    try:
        read = read_sheet(label, path.read_bytes())
    except (OSError, DeckcheckError):
        return None
    with _LOCK:
        _KEPT[path.name] = read
        while len(_KEPT) > OVERLAID_MAX:
            _KEPT.popitem(last=False)
    return read


def forget(request: Request, response: Response) -> None:
    """Drop this browser's kept sheet: its file and its cookie."""
    found = kept_path(request.cookies.get(COOKIE, ""))
    if found is not None:
        found[0].unlink(missing_ok=True)
    response.delete_cookie(COOKIE, path="/")


def remember(request: Request, response: Response, value: str) -> None:
    """Name a newly kept sheet in this browser's cookie (for its session: no expiry date), dropping the one before."""
    forget(request, response)
    response.set_cookie(COOKIE, value, path="/", httponly=True, samesite="lax", secure=request.url.scheme == "https")
