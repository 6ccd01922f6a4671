"""The Check page (`/`), its JSON twin `POST /api/check` (CONTRACTS §6), and saved decks (`/decks/{id}`)."""
from __future__ import annotations

from typing import Any

from dataclasses import dataclass

from fastapi import APIRouter, Query, Request
from fastapi.responses import RedirectResponse, Response
from starlette.datastructures import FormData
from starlette.concurrency import run_in_threadpool

from deckcheck.check import choose_format
from deckcheck.db.collections import Collections
from deckcheck.decklist import rewrite_line, rewrite_row
from deckcheck.decks import build_deck
from deckcheck.errors import DeckcheckError
from deckcheck.games import registry
from deckcheck.library.api import Catalog
from deckcheck.library.decks import new_id
from deckcheck.stats import EXERTION, HAND, MAX_DRAW
from deckcheck.text import is_digits

from . import cardsheets, decks as reading, models
from .checkinput import (DECK_ID, MAX_FIELDS, ApiInput, CheckInput, api_input, check_input,  # noqa: F401
                         format_choices, page_context, read_input, saved_deck_data)
from .deckview import deck_page
from .deps import BookDep, CatalogDep, CollectionsDep, PagesDep, PersonDep, ServerDep, SettingsDep, person_of
from .facts import author, check_as, form_context, own_check, own_saved_report
from .errors import BadRequest
from .security import check_csrf

router = APIRouter(route_class=models.ApiRoute)
NAV = [("Check", "/")]

FIX_DIGITS = 9
FIX_LINES = reading.FIX_LINES


@router.post("/api/check", tags=["api"], summary="Check a decklist: the same report as the command line's JSON",
             response_model=models.Report, responses=models.errors(400, 413),
             openapi_extra=models.body(models.CheckRequest, models.CheckForm))
async def api_check(got: ApiInput, srv: ServerDep, who: PersonDep) -> dict[str, Any]:
    """`file` (any decklist form) or `decklist` (text), and `format`: 200 and the §3 report, whatever the verdict.
    With `facts_by`, that person's answers not yet reviewed count in this one check (a notice says so)."""
    by = author(who, got.extra["facts_by"], "facts_by name") if "facts_by" in got.extra else None
    reports = await run_in_threadpool(check_as, srv, got, by) if by else \
        await run_in_threadpool(check_input, srv.catalog, got)
    if len(reports) != 1:
        raise BadRequest(f"the file holds {len(reports)} decks; send one deck at a time "
                         "(a registration workbook is checked by the command line's tournament check)")
    return reports[0].as_dict()


@router.get("/", summary="The check page")
def check_page(request: Request, srv: ServerDep, pages: PagesDep, book: BookDep, who: PersonDep,
               deck: str | None = None) -> Response:
    """The check form (empty, or holding a saved deck to edit: one the person may see, as its link shows it)."""
    got = CheckInput()
    if deck is not None and DECK_ID.match(deck):
        try:
            kept = book.get(who, deck)
            got = CheckInput(text=kept.text, fmt=kept.format)
        except DeckcheckError:  # an unknown deck, or another's private one: the empty form
            pass
    return pages("check.html", page_context(got, None, **form_context(request, srv)))


@router.post("/check", summary="Check a decklist and show the report (the page's form)")
async def check_submit(request: Request, settings: SettingsDep, srv: ServerDep, pages: PagesDep) -> Response:
    """The form posted: the page with its report (for htmx, the report fragment or the whole checker)."""
    got, form = await read_input(request, settings.upload_limit)
    fix = form.get("fix") if form is not None else None
    if isinstance(fix, str) and fix:
        got.text = apply_fix(got.text, fix)
    sheet = await run_in_threadpool(page_sheet, request, got, form)
    reports = await run_in_threadpool(own_check, request, srv, got) if got.has_deck else []
    if got.file_data is not None and reading.is_text_upload(got.file_label):
        got.text = got.file_data.decode("utf-8-sig", errors="replace")  # an uploaded text lands in the box
    context = page_context(got, reports, sheet_said=got.sheet.said if got.sheet else "", sheet_error=sheet.error,
                           sheet_adopted=sheet.adopted, **form_context(request, srv, facts_here=len(reports) == 1))
    if request.headers.get("HX-Request") == "true":
        target = request.headers.get("HX-Target", "")
        response = pages("_checker.html" if target == "checker" else "_reports.html", context)
    else:
        response = pages("check.html", context)
    if sheet.forget:
        cardsheets.forget(request, response)
    if sheet.kept:
        cardsheets.remember(request, response, sheet.kept)
    return response


@dataclass
class PageSheet:
    """What the check page did with a card sheet: kept a new one (its cookie value), dropped the kept one, took a
    card sheet uploaded as the decklist for the sheet (`adopted`: its name), or refused one (why)."""

    kept: str = ""
    forget: bool = False
    adopted: str = ""
    error: str = ""


def page_sheet(request: Request, got: CheckInput, form: FormData | None) -> PageSheet:
    """The card sheet of a page's check: the one uploaded now (kept for the browser's session), a card sheet uploaded
    as the decklist (taken for the sheet, and said so), else the one kept before; none once the reader dropped it."""
    done = PageSheet(forget=form is not None and bool(form.get(cardsheets.FORGET)))
    if got.file_data is not None and cardsheets.is_card_sheet(got.file_label or "", got.file_data):
        done.adopted = got.file_label or "upload"
        got.cards_label, got.cards_data = got.file_label, got.file_data
        got.file_label = got.file_data = None
    if got.cards_data is not None:
        label, data = got.cards_label or "cards", got.cards_data
        got.cards_data = None
        try:
            got.sheet = cardsheets.read_sheet(label, data)
            done.kept = cardsheets.keep(label, data)
        except DeckcheckError as exc:  # refused, or the folder is full: said on the page, no deck checked with it
            done.error = str(exc)
            got.sheet = None
    if got.sheet is None and not done.forget and not done.error:
        got.sheet = cardsheets.kept_sheet(request)
    return done


def apply_fix(text: str, fix: str) -> str:
    """Rewrite lines of the decklist with a suggestion: `fix` is "LINE|SUGGESTION", or "LINE,LINE,...|SUGGESTION"
    (at most FIX_LINES lines) where several lines name the card (the fill-in form's one button for them all).

    Each line is rewritten as deckcheck.decklist.rewrite_line does it: the quantity, [SET] and heading stay,
    bullets and Markdown go, and a suggestion that is a whole line (the title's `Name: ...`) replaces it. A number
    that is no line of the deck leaves the deck as it was; more than FIX_LINES numbers, or one of more than
    FIX_DIGITS digits, is refused (DeckcheckError: a 400).
    """
    numbers, _, new = fix.partition("|")
    listed = numbers.split(",", FIX_LINES)
    if len(listed) > FIX_LINES:
        raise DeckcheckError(f"fix: more than {FIX_LINES} line numbers; one fix rewrites at most {FIX_LINES} lines")
    long = next((n for n in listed if len(n) > FIX_DIGITS), None)
    if long is not None:  # int() would refuse 4,300 digits and more (a 500); no decklist has so many lines
        raise DeckcheckError(f"fix: the line number {long[:20]!r}... is longer than {FIX_DIGITS} digits")
    lines = text.splitlines(keepends=True)  # numbered as the decklist reader numbers them
    if not all(is_digits(n) and 1 <= int(n) <= len(lines) for n in listed) or not new.strip() or \
            len(new.splitlines()) != 1:
        return text
    first = next((i for i, text in enumerate(lines) if text.strip()), 0)  # a pasted table's header row?
    grammar = registry().grammar
    for number in dict.fromkeys(int(n) for n in listed):
        line = lines[number - 1]
        body = line.rstrip("\r\n")
        row = rewrite_row(lines[first], body, new.strip()) if first < number - 1 else None
        lines[number - 1] = (rewrite_line(body, new.strip(), grammar) if row is None else row) + line[len(body):]
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
    deck_id = new_id()
    try:
        await run_in_threadpool(_save, catalog, collections, deck_id, got, person_of(request, srv).owner_id)
    except DeckcheckError as exc:  # the check page again, the text and its report kept, with why it was not saved
        got.file_data = got.file_label = None
        reports = await run_in_threadpool(own_check, request, srv, got)
        return pages("check.html", page_context(got, reports, save_error=str(exc), **form_context(
            request, srv, facts_here=len(reports) == 1)), status_code=400)
    return RedirectResponse(f"/decks/{deck_id}", status_code=303)


def _save(catalog: Catalog, collections: Collections, deck_id: str, got: CheckInput, owner_id: int | None) -> None:
    raw = reading.read_text(got.text, deck_id)[0]
    fmt = choose_format(raw, got.fmt)
    deck, problems = build_deck(raw, catalog.index(fmt), fmt)
    if problems or raw.problems:
        raise DeckcheckError("the decklist has input errors; fix them before saving")
    entries = [(e.card, e.section, e.quantity) for e in deck.entries]
    collections.save_deck(deck_id, fmt.name, got.text, entries, owner_id)


@router.get("/decks/{deck_id}", summary="A saved deck and its report")
def saved_deck(request: Request, srv: ServerDep, book: BookDep, person: PersonDep, pages: PagesDep, deck_id: str,
               hand: int = Query(HAND, ge=0, le=MAX_DRAW), exertion: int = Query(EXERTION, ge=0, le=MAX_DRAW),
               seed: str = Query("", max_length=16)) -> Response:
    """The kept deck grouped by type, its report checked now against the current cards (with this browser's
    answers not yet reviewed, on a club server), its statistics for the hand size and Exertion asked for, a sample
    hand, its versions and exports (web/deckpage.py), and the fill-in form of the cards that keep rules
    unverified."""
    got, report = own_saved_report(request, srv, deck_id)
    page = deck_page(book, person, deck_id, hand, exertion, seed)
    if report.details.stats is not None:
        report.details.stats = page["stats"]  # the panel at the sizes asked for
    return pages("deck.html", page_context(got, [report], deck_id=deck_id, page=page, **form_context(
        request, srv, facts_here=True, facts_wrap=f"/decks/{deck_id}/facts")))
