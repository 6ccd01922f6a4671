"""What a check request sent (pasted text, an uploaded file, the format), read and checked: the ground under
the Check page (web/check.py) and the fill-in answers (web/facts.py), which both build on it."""
from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, Request
from starlette.datastructures import FormData, UploadFile

from deckcheck.db.collections import Collections
from deckcheck.errors import DeckcheckError
from deckcheck.games import all_formats
from deckcheck.library.api import CardSource, Catalog
from deckcheck.library.decks import visible
from deckcheck.library.people import Person
from deckcheck.library.statsapi import NoSavedDeckError
from deckcheck.report import Report

from . import decks as reading
from .app import looks_like_json, request_json
from .cardsheets import BroughtSheet, is_card_sheet, read_sheet
from .deps import SettingsDep
from .errors import BadRequest

log = logging.getLogger("deckcheck.web")

MAX_FIELDS = 1000  # the check form holds the fill-in form of the cards a report left unverified (web/facts.py)

SHEET_AS_DECK = ("{label} is a card sheet (its columns are name, type...), not a decklist: send it as the card sheet "
                 "(the `cards` part; `--cards` on the command line) beside the decklist")

DECK_ID = re.compile(r"^[A-Za-z0-9_-]{6,32}$")

@dataclass
class CheckInput:
    """What a check request asked for: pasted text or an uploaded file, and the format."""

    text: str = ""
    file_label: str | None = None
    file_data: bytes | None = None
    fmt: str | None = None
    extra: dict[str, str] = field(default_factory=dict)
    numbers: dict[str, object] = field(default_factory=dict)  # `hand`, `exertion` as the body wrote them (/api/stats)
    both: bool = False  # `decklist` text and a `file` were both sent (the API refuses it; a page checks the file)
    cards_label: str | None = None  # a card sheet sent beside the decklist (the multipart `cards` part)
    cards_data: bytes | None = None
    sheet: BroughtSheet | None = None  # the card sheet this check is made with (sent, or kept for the page)

    @property
    def has_deck(self) -> bool:
        """Whether there is anything to check."""
        return self.file_data is not None or bool(self.text.strip())


DRAW_FIELDS = ("hand", "exertion")  # /api/stats reads them from the body too (the query still works)


async def read_input(request: Request, limit: int) -> tuple[CheckInput, FormData | None]:
    """The decklist and format of a form (multipart or urlencoded) or JSON request; BadRequest if malformed.

    A body sent with another content type (none, text/plain, or the form type `curl -d` gives) that is JSON all
    the same is read as JSON, so a JSON body that does not parse is told so, with where it breaks."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json" and kind != "multipart/form-data" and looks_like_json(await request.body()):
        kind = "application/json"
    if kind == "application/json" or kind.endswith("+json"):
        try:
            data = await request_json(request)
        except ValueError as exc:
            raise BadRequest(f"the body is not valid JSON: {exc}") from exc
        if not isinstance(data, dict):
            raise BadRequest('the JSON body is an object: {"decklist": "...", "format": "type2"}')
        text, fmt, by = data.get("decklist", ""), data.get("format"), data.get("facts_by")
        if not isinstance(text, str) or (fmt is not None and not isinstance(fmt, str)):
            raise BadRequest('"decklist" and "format" are strings')
        if by is not None and not isinstance(by, str):
            raise BadRequest('"facts_by" is a name (a string)')
        numbers = {k: data[k] for k in DRAW_FIELDS if data.get(k) is not None}
        return CheckInput(text=text, fmt=fmt or None, extra={"facts_by": by} if by else {}, numbers=numbers), None
    if kind not in ("multipart/form-data", "application/x-www-form-urlencoded"):
        said = f" (the request says {kind[:60]!r})" if kind else " (the request names no content type)"
        raise BadRequest("send multipart/form-data (file or decklist, format) or application/json "
                         '({"decklist": "...", "format": "..."})' + said)
    try:
        form = await request.form(max_files=2, max_fields=MAX_FIELDS, max_part_size=limit)
    except DeckcheckError:
        raise
    except Exception as exc:  # python-multipart's and Starlette's parse errors
        if getattr(exc, "status_code", None) == 413:
            raise
        raise BadRequest(f"the form could not be read ({getattr(exc, 'detail', None) or exc})") from exc
    text = form.get("decklist") or ""
    fmt = form.get("format") or None
    if not isinstance(text, str) or (fmt is not None and not isinstance(fmt, str)):
        raise BadRequest("decklist and format are text fields; the file goes in the field 'file'")
    got = CheckInput(text=text, fmt=fmt)
    by = form.get("facts_by")
    if isinstance(by, str) and by.strip():
        got.extra["facts_by"] = by
    for name in DRAW_FIELDS:
        value = form.get(name)
        if isinstance(value, str) and value.strip():  # digits are a number; anything else is refused as written
            digits = value.strip()
            got.numbers[name] = (int(digits) if digits.isascii() and digits.isdigit() and len(digits) <= 9
                                 else digits[:24])  # refused as written (cut short: a message quotes it)
    upload = form.get("file")
    if isinstance(upload, UploadFile):
        data = await upload.read()
        if data or upload.filename:  # an empty file chosen is an unreadable deck; no file chosen is no file
            got.file_label, got.file_data = reading.label_of(upload.filename), data
            got.both = bool(text.strip())
    cards = form.get("cards")
    if isinstance(cards, UploadFile):
        data = await cards.read()
        if data or cards.filename:
            got.cards_label, got.cards_data = reading.label_of(cards.filename), data
    elif isinstance(cards, str) and cards:
        raise BadRequest("`cards` is a card sheet file (CSV or XLSX), sent as a file part")
    return got, form


def check_input(catalog: CardSource, got: CheckInput, details: bool = False) -> list[Report]:
    """Check what a request sent: one report per deck, an unreadable file being a report with its cause; with a card
    sheet sent (or kept for the page), against the catalogue with the sheet laid over it (SheetRefused: unusable)."""
    if got.cards_data is not None and got.sheet is None:
        got.sheet = read_sheet(got.cards_label or "cards", got.cards_data)
    if got.sheet is not None:
        catalog = got.sheet.over(catalog)
    if got.file_data is not None:
        label = got.file_label or "upload"
        if is_card_sheet(label, got.file_data):
            return [reading.unreadable(label, DeckcheckError(SHEET_AS_DECK.format(label=label)), got.fmt)]
        try:
            raws = reading.read_upload(label, got.file_data)
        except DeckcheckError as exc:
            return [reading.unreadable(label, exc, got.fmt)]
        except Exception as exc:  # a reader that broke on strange input: that deck's error, never a 500
            log.exception("reading an upload failed")
            return [reading.unreadable(label, DeckcheckError(f"{label}: could not be read ({exc.__class__.__name__})"),
                                       got.fmt)]
    else:
        try:
            raws = reading.read_text(got.text)
        except DeckcheckError as exc:  # past a limit of text decklists: unreadable, as `check -` reports it
            return [reading.unreadable(reading.PASTED, exc, got.fmt)]
    reports = reading.check_raws(raws, catalog, got.fmt, details)
    if got.sheet is not None:
        for report in reports:
            report.notices += list(got.sheet.notices)
    return reports


async def api_input(request: Request, settings: SettingsDep) -> CheckInput:
    """The decklist an API request sent (a dependency of the API routes); BadRequest saying what is wrong."""
    got, _form = await read_input(request, settings.upload_limit)
    if not got.has_deck:
        raise BadRequest("no decklist: send `decklist` (text) or `file`")
    if got.both:
        raise BadRequest(reading.BOTH_SENT)
    return got



ApiInput = Annotated[CheckInput, Depends(api_input)]



def format_choices() -> list[tuple[str, str]]:
    """(name, title) of every format, for the format menu."""
    return [(f.name, f.title) for f in all_formats()]


def page_context(got: CheckInput, reports: list[Report] | None, **extra: Any) -> dict[str, Any]:
    """What the check page shows: the form as filled in, and the reports."""
    return {"text": got.text, "fmt": got.fmt or "", "formats": format_choices(), "reports": reports or [],
            "file_label": got.file_label, **extra}



def saved_deck_data(catalog: Catalog, collections: Collections, deck_id: str, person: Person,
                    missing: str = "no saved deck has that id") -> tuple[CheckInput, Report]:
    """A saved deck's text and format, and its report checked now against the current cards; NoSavedDeckError
    (404) saying `missing` when no deck has that id, or it is another's private deck."""
    if not DECK_ID.match(deck_id):
        raise NoSavedDeckError(deck_id, missing)
    deck = collections.kept.get(deck_id)
    if deck is None or not visible(person, deck):
        raise NoSavedDeckError(deck_id, missing)
    got = CheckInput(text=deck.text, fmt=deck.format)
    report = check_input(catalog, got, details=True)[0]
    report.deck = f"/decks/{deck_id}"
    return got, report
