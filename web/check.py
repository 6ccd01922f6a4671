"""The Check page (`/`), its JSON twin `POST /api/check` (CONTRACTS §6), and saved decks (`/decks/{id}`)."""
from __future__ import annotations

import logging
import re
import secrets
from dataclasses import dataclass, field

from typing import Annotated

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile

from deckcheck.library.api import Catalog
from deckcheck.db.collections import Collections
from deckcheck.errors import DeckcheckError
from deckcheck.games import all_formats
from deckcheck.report import Report
from deckcheck.text import is_digits

from . import decks as reading, models
from .app import looks_like_json, request_json
from .deps import CatalogDep, CollectionsDep, PagesDep, ServerDep, SettingsDep
from .errors import BadRequest
from .security import check_csrf

router = APIRouter()
NAV = [("Check", "/")]
log = logging.getLogger("deckcheck.web")

MAX_FIELDS = 1000  # the check form holds the fill-in form of the cards a report left unverified (web/facts.py)
FIX_DIGITS = 9
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
        form = await request.form(max_files=1, max_fields=MAX_FIELDS, max_part_size=limit)
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
    return got, form


def check_input(catalog, got: CheckInput, details: bool = False) -> list[Report]:
    """Check what a request sent: one report per deck, an unreadable file being a report with its cause."""
    if got.file_data is not None:
        label = got.file_label or "upload"
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
    return reading.check_raws(raws, catalog, got.fmt, details)


async def api_input(request: Request, settings: SettingsDep) -> CheckInput:
    """The decklist an API request sent (a dependency of the API routes); BadRequest saying what is wrong."""
    got, _form = await read_input(request, settings.upload_limit)
    if not got.has_deck:
        raise BadRequest("no decklist: send `decklist` (text) or `file`")
    if got.both:
        raise BadRequest(reading.BOTH_SENT)
    return got



ApiInput = Annotated[CheckInput, Depends(api_input)]


@router.post("/api/check", tags=["api"], summary="Check a decklist: the report of `deckcheck check --json`",
             response_model=models.Report, responses=models.errors(400, 413),
             openapi_extra=models.body(models.CheckRequest, models.CheckForm))
async def api_check(got: ApiInput, srv: ServerDep) -> Response:
    """`file` (any decklist form) or `decklist` (text), and `format`: 200 and the §3 report, whatever the verdict.
    With `facts_by`, that person's answers not yet reviewed count in this one check (a notice says so)."""
    from .facts import check_as, clean_by
    by = clean_by(got.extra["facts_by"], "facts_by name") if "facts_by" in got.extra else ""
    reports = await run_in_threadpool(check_as, srv, got, by) if by else \
        await run_in_threadpool(check_input, srv.catalog, got)
    if len(reports) != 1:
        raise BadRequest(f"the file holds {len(reports)} decks; send one deck at a time "
                         "(a registration workbook goes to `deckcheck tournament check`)")
    return JSONResponse(reports[0].as_dict())


# -- pages ---------------------------------------------------------------------------------------
def format_choices() -> list[tuple[str, str]]:
    """(name, title) of every format, for the format menu."""
    return [(f.name, f.title) for f in all_formats()]


def page_context(got: CheckInput, reports: list[Report] | None, **extra) -> dict:
    """What the check page shows: the form as filled in, and the reports."""
    return {"text": got.text, "fmt": got.fmt or "", "formats": format_choices(), "reports": reports or [],
            "file_label": got.file_label, **extra}


@router.get("/", summary="The check page")
def check_page(request: Request, srv: ServerDep, pages: PagesDep, collections: CollectionsDep,
               deck: str | None = None) -> Response:
    """The check form (empty, or holding a saved deck to edit)."""
    got = CheckInput()
    if deck is not None and DECK_ID.match(deck):
        try:
            fmt, text, _entries = collections.deck(deck)
            got = CheckInput(text=text, fmt=fmt)
        except DeckcheckError:  # an unknown deck: the empty form
            pass
    from .facts import form_context
    return pages("check.html", page_context(got, None, **form_context(request, srv)))


@router.post("/check", summary="Check a decklist and show the report (the page's form)")
async def check_submit(request: Request, settings: SettingsDep, srv: ServerDep, pages: PagesDep) -> Response:
    """The form posted: the page with its report (for htmx, the report fragment or the whole checker)."""
    got, form = await read_input(request, settings.upload_limit)
    fix = form.get("fix") if form is not None else None
    if isinstance(fix, str) and fix:
        got.text = apply_fix(got.text, fix)
    from .facts import form_context, own_check
    reports = await run_in_threadpool(own_check, request, srv, got) if got.has_deck else []
    if got.file_data is not None and reading.is_text_upload(got.file_label):
        got.text = got.file_data.decode("utf-8-sig", errors="replace")  # an uploaded text lands in the box
    context = page_context(got, reports, **form_context(request, srv, facts_here=len(reports) == 1))
    if request.headers.get("HX-Request") == "true":
        target = request.headers.get("HX-Target", "")
        return pages("_checker.html" if target == "checker" else "_reports.html", context)
    return pages("check.html", context)


def apply_fix(text: str, fix: str) -> str:
    """Rewrite one line of the decklist with a suggestion: `fix` is "LINE|SUGGESTION".

    The line is rewritten as deckcheck.decklist.rewrite_line does it: the quantity, [SET] and heading stay,
    bullets and Markdown go, and a suggestion that is a whole line (the title's `Name: ...`) replaces it.
    """
    from deckcheck.decklist import rewrite_line, rewrite_row
    from deckcheck.games import registry
    number, _, new = fix.partition("|")
    if len(number) > FIX_DIGITS:  # int() would refuse 4,300 digits and more (a 500); no decklist has so many lines
        raise DeckcheckError(f"fix: the line number {number[:20]!r}... is longer than {FIX_DIGITS} digits")
    lines = text.splitlines(keepends=True)  # numbered as the decklist reader numbers them
    if not is_digits(number) or not 1 <= int(number) <= len(lines) or not new.strip() or len(new.splitlines()) != 1:
        return text
    line = lines[int(number) - 1]
    body = line.rstrip("\r\n")
    first = next((i for i, text in enumerate(lines) if text.strip()), 0)  # a pasted table's header row?
    row = rewrite_row(lines[first], body, new.strip()) if first < int(number) - 1 else None
    grammar = registry().grammar
    lines[int(number) - 1] = (rewrite_line(body, new.strip(), grammar) if row is None else row) + line[len(body):]
    return "".join(lines)


@router.post("/decks", summary="Save a decklist under a short link")
async def save_deck(request: Request, settings: SettingsDep, srv: ServerDep, catalog: CatalogDep,
                    collections: CollectionsDep, pages: PagesDep) -> Response:
    """Keep the decklist (it must resolve) and go to its short link /decks/{id}."""
    got, form = await read_input(request, settings.upload_limit)
    check_csrf(request, form)
    if not got.text.strip() and got.file_data is not None and reading.is_text_upload(got.file_label):
        got.text = got.file_data.decode("utf-8-sig", errors="replace")  # a text file chosen, then Save pressed
    if not got.text.strip():
        message = ("a saved deck is decklist text: check the file, then save the text it puts in the box"
                   if got.file_data else "there is no decklist text to save")
        raise BadRequest(message)
    deck_id = secrets.token_urlsafe(6)
    try:
        await run_in_threadpool(_save, catalog, collections, deck_id, got)
    except DeckcheckError as exc:  # the check page again, the text and its report kept, with why it was not saved
        got.file_data = got.file_label = None
        from .facts import form_context, own_check
        reports = await run_in_threadpool(own_check, request, srv, got)
        return pages("check.html", page_context(got, reports, save_error=str(exc), **form_context(
            request, srv, facts_here=len(reports) == 1)), status_code=400)
    return RedirectResponse(f"/decks/{deck_id}", status_code=303)


def _save(catalog: Catalog, collections: Collections, deck_id: str, got: CheckInput) -> None:
    from deckcheck.check import choose_format
    from deckcheck.decks import build_deck
    raw = reading.read_text(got.text, deck_id)[0]
    fmt = choose_format(raw, got.fmt)
    deck, problems = build_deck(raw, catalog.index(fmt), fmt)
    if problems or raw.problems:
        raise DeckcheckError("the decklist has input errors; fix them before saving")
    entries = [(e.card, e.section, e.quantity) for e in deck.entries]
    collections.save_deck(deck_id, fmt.name, got.text, entries)


def saved_deck_data(catalog: Catalog, collections: Collections, deck_id: str,
                    missing: str = "no saved deck has that id") -> tuple[CheckInput, Report]:
    """A saved deck's text and format, and its report checked now against the current cards; NoSavedDeckError
    (404) saying `missing` when no deck has that id."""
    from deckcheck.library.statsapi import NoSavedDeckError
    if not DECK_ID.match(deck_id):
        raise NoSavedDeckError(deck_id, missing)
    try:
        fmt, text, _entries = collections.deck(deck_id)
    except DeckcheckError:
        raise NoSavedDeckError(deck_id, missing) from None
    got = CheckInput(text=text, fmt=fmt)
    report = check_input(catalog, got, details=True)[0]
    report.deck = f"/decks/{deck_id}"
    return got, report


@router.get("/api/decks/{deck_id}", tags=["api"], summary="A saved deck and its report",
            response_model=models.SavedDeck, responses=models.errors(404))
def api_saved_deck(catalog: CatalogDep, collections: CollectionsDep, deck_id: str) -> Response:
    """{"id", "format", "decklist", "report": the §3 report, checked now} (404 if no deck has that id)."""
    got, report = saved_deck_data(catalog, collections, deck_id)
    return JSONResponse({"id": deck_id, "format": got.fmt, "decklist": got.text, "report": report.as_dict()})


@router.get("/decks/{deck_id}", summary="A saved deck and its report")
def saved_deck(request: Request, srv: ServerDep, pages: PagesDep, deck_id: str) -> Response:
    """The saved deck's text and its report, checked now against the current cards (with this browser's answers
    not yet reviewed, on a club server), and the fill-in form of the cards that keep rules unverified."""
    from .facts import form_context, own_saved_report
    got, report = own_saved_report(request, srv, deck_id)
    return pages("deck.html", page_context(got, [report], deck_id=deck_id, **form_context(
        request, srv, facts_here=True, facts_wrap=f"/decks/{deck_id}/facts")))
