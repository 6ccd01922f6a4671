"""Deck checks at the table (CONTRACTS §6, revision 3): a player's locked list as a counting sheet, the checks
kept, and a fair draw of players to check. Pages for the organiser's cookie, JSON for the organiser's token;
both call the same `deckcheck.library.desk.Desk` methods.

The counting sheet works without JavaScript: each card has a number field, and its − and + buttons send the
form (the page comes back counted); desk.js makes the same buttons count on the phone and the differences show
as they count.
"""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from deckcheck.library.desk import Desk
from deckcheck.desk import DeskError, Event, Submission
from deckcheck.errors import DeckcheckError
from deckcheck.registered import MAX_COUNT, compare_counts
from deckcheck.text import is_digits

from . import models
from .deps import DeskDep, PagesDep
from .desk import NO_STORE, bearer, json_body, organiser, page
from .errors import status_of
from .security import check_csrf

router = APIRouter(route_class=models.ApiRoute)
COUNT = "count:"  # form field of a registered card's count: "count:Thrust"
EXTRA_ROWS = 3  # empty rows for cards counted that the list does not register
MAX_FORM_FIELDS = 1000


# -- JSON API -----------------------------------------------------------------------------------
# Refusals are raised; the app's exception handler answers each with its status (deckcheck.web.errors).
@router.post("/api/events/{event_id}/deckchecks", status_code=201, tags=["api"], dependencies=NO_STORE,
             summary="Tournament desk: record a deck check (organiser)", response_model=models.DeckCheck,
             responses=models.errors(400, 401, 403, 404, 409), openapi_extra=models.body(models.DeckCheckRequest))
async def api_add_deckcheck(request: Request, desk: DeskDep, event_id: str) -> dict[str, Any]:
    """A player's physical deck counted against their locked list: {"player", "judge", "counts": {card: n},
    "note"} -> 201 and the check (differences named, section totals); a listed card not in `counts` counts 0.
    409 before the lists are locked."""
    await run_in_threadpool(desk.authorise, event_id, bearer(request))
    body = await json_body(request, '{"player": ..., "judge": ..., "counts": {"Thrust": 3}}')
    check = await run_in_threadpool(desk.deck_check, event_id, body.get("player"), body.get("judge"),
                                    body.get("counts"), body.get("note", ""))
    return check


@router.get("/api/events/{event_id}/deckchecks", tags=["api"], dependencies=NO_STORE,
            summary="Tournament desk: every deck check (organiser)",
            response_model=list[models.DeckCheck], responses=models.errors(401, 403, 404))
def api_deckchecks(request: Request, desk: DeskDep, event_id: str) -> list[dict[str, Any]]:
    """Every deck check of the event, oldest first (organiser only)."""
    desk.authorise(event_id, bearer(request))
    return desk.deckchecks(event_id)


@router.post("/api/events/{event_id}/draw", tags=["api"], dependencies=NO_STORE,
             summary="Tournament desk: draw players for deck checks",
             response_model=models.Draw, responses=models.errors(400, 401, 403, 404),
             openapi_extra=models.body(models.DrawRequest))
async def api_draw(request: Request, desk: DeskDep, event_id: str) -> dict[str, Any]:
    """{"n": 3, "seed": "S"?} -> {"seed", "players"}: n players not yet checked, the same seed the same draw."""
    await run_in_threadpool(desk.authorise, event_id, bearer(request))
    body = await json_body(request, '{"n": 3, "seed": "optional text"}')
    return await run_in_threadpool(desk.draw, event_id, body.get("n"), body.get("seed"))


# -- pages --------------------------------------------------------------------------------------
def sheet_context(desk: Desk, event: Event, submission: Submission, values: dict[str, str]) -> dict[str, Any]:
    """The counting sheet: each registered line with the count typed so far (the registered number at first),
    the extra rows, and the differences of the counts that read as numbers."""
    reg = submission.registered
    rows = []
    for line in reg.lines:
        typed = values.get(COUNT + line.card, str(line.quantity))
        rows.append({"section": line.section, "card": line.card, "registered": line.quantity, "typed": typed})
    extras = [{"name": values.get(f"extra_name_{n}", ""), "count": values.get(f"extra_count_{n}", "")}
              for n in range(1, EXTRA_ROWS + 1)]
    lines: list[str] = []
    error = ""
    try:
        counted, sections = read_form_counts(desk, event, submission, values)
        comparison = compare_counts(reg, counted, sections)
        lines = comparison.lines()
        differing = {d.card for d in comparison.differences}
    except DeckcheckError as exc:
        error, differing = str(exc), set()
    return {"event": event, "submission": submission, "rows": rows, "extras": extras, "lines": lines,
            "differing": differing, "count_error": error, "sections": reg.section_names(), "max": MAX_COUNT,
            "judge": values.get("judge", ""), "note": values.get("note", "")}


def form_counts(submission: Submission, values: dict[str, str]) -> list[tuple[str, object]]:
    """The counts a form holds as (card name, count) pairs, an extra row naming a listed card adding to its
    count (an empty extra row is skipped; a name without a count counts 1); DeskError for a count without a
    name."""
    counts: list[tuple[str, object]] = []
    for line in submission.registered.lines:
        counts.append((line.card, values.get(COUNT + line.card, str(line.quantity))))
    for n in range(1, EXTRA_ROWS + 1):
        name, count = values.get(f"extra_name_{n}", "").strip(), values.get(f"extra_count_{n}", "").strip()
        if name or count:
            if not name:
                raise DeskError(f"extra row {n}: the count {count[:20]!r} has no card name")
            counts.append((name, count or "1"))
    return counts


def read_form_counts(desk: Desk, event: Event, submission: Submission,
                     values: dict[str, str]) -> tuple[dict[str, int], dict[str, str]]:
    """The counts of the form read as Desk.read_counts reads the API's."""
    return desk.read_counts(event, submission, form_counts(submission, values))


def stepped(values: dict[str, str], step: str) -> dict[str, str]:
    """The form's values after a − or + button ("Thrust|+1"): that card's count one lower or higher (0..999)."""
    card, _, delta = step.rpartition("|")
    field = COUNT + card
    if field in values and delta in ("+1", "-1"):
        text = values[field].strip()
        now = int(text) if is_digits(text) else 0  # int() would read '١' or '1_0'; the count field sends 0-9
        values[field] = str(min(MAX_COUNT, max(0, now + int(delta))))
    return values


@router.get("/desk/{event_id}/admin/check", response_class=HTMLResponse)
def counting_sheet(request: Request, desk: DeskDep, pages: PagesDep, event_id: str, player: str = "") -> Response:
    """A player's locked list as a counting sheet (the organiser's cookie)."""
    organiser(request, desk, event_id)
    event, submission = desk.locked(event_id, player)
    return page(pages, "count.html", sheet_context(desk, event, submission, {}))


@router.post("/desk/{event_id}/admin/check", response_class=HTMLResponse)
async def counting_sheet_post(request: Request, desk: DeskDep, pages: PagesDep, event_id: str) -> Response:
    """A − or + button, "Compute" (the sheet again, counted) or "Save the check" (kept, then its result)."""
    await run_in_threadpool(organiser, request, desk, event_id)
    try:
        form = await request.form(max_files=0, max_fields=MAX_FORM_FIELDS)
    except Exception as exc:  # a malformed body, too many fields
        raise DeskError(f"the form could not be read ({str(getattr(exc, 'detail', exc))[:80]})") from None
    check_csrf(request, form)
    values = {k: v for k, v in form.items() if isinstance(v, str)}
    event, submission = await run_in_threadpool(desk.locked, event_id, values.get("player", ""))
    step = values.get("step", "")
    if step or values.get("action") != "save":
        return page(pages, "count.html", sheet_context(desk, event, submission, stepped(values, step)))
    try:
        counts = form_counts(submission, values)
        check = await run_in_threadpool(desk.deck_check, event_id, submission.player, values.get("judge"), counts,
                                        values.get("note", ""))
    except DeckcheckError as exc:  # the sheet again, as counted, saying why it was not saved
        context = sheet_context(desk, event, submission, values) | {"error": str(exc)}
        return page(pages, "count.html", context, status_of(exc))
    return page(pages, "checked.html", {"event": event, "submission": submission, "check": check}, 201)


@router.post("/desk/{event_id}/admin/draw", response_class=HTMLResponse)
async def draw_page(request: Request, desk: DeskDep, pages: PagesDep, event_id: str) -> Response:
    """Draw players for deck checks from the dashboard; the seed is shown with the draw."""
    await run_in_threadpool(organiser, request, desk, event_id)
    form = await request.form(max_files=0, max_fields=5)
    check_csrf(request, form)
    n, seed = form.get("n"), form.get("seed")
    drawn = await run_in_threadpool(desk.draw, event_id, n if isinstance(n, str) else None,
                                    seed if isinstance(seed, str) else None)
    return page(pages, "draw.html", {"event": desk.event(event_id), "drawn": drawn})
