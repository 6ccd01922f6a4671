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
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from deckcheck.library.desk import Desk
from deckcheck.library.judges import Judges
from deckcheck.desk import CountedCardUnknown, DeskError, Event, EventNotFound, Submission
from deckcheck.errors import DeckcheckError
from deckcheck.judging import DECK, LIST, PROBLEM_WORDS, SOURCE, counting_groups, list_is_wrong, rewrite_typed
from deckcheck.registered import MAX_COUNT
from deckcheck.text import is_digits

from . import models
from .deps import DeskDep, PagesDep
from .desk import COOKIE, NO_STORE, SECURITY_HEADERS, bearer, json_body, organiser, page, requester
from .errors import status_of
from .security import check_csrf

router = APIRouter(route_class=models.ApiRoute)
COUNT = "count:"  # form field of a registered card's count: "count:Thrust"
EXTRA_ROWS = 3  # empty rows for cards counted that the list does not register
MAX_FORM_FIELDS = 1000


# -- who counts: the organiser, or a judge the organiser named ------------------------------------
def api_checker(request: Request, desk: Desk, event_id: str) -> None:
    """The organiser's token, or a signed-in judge of the event (a personal token's or a session's): else the
    organiser token's 401/403."""
    if not Judges(desk).is_judge(event_id, requester(request)):
        desk.authorise(event_id, bearer(request))


def checker(request: Request, desk: Desk, event_id: str) -> str:
    """The organiser (their cookie, or owning the event) or a signed-in judge the organiser named may count an
    event's decks: the page a deck check leads back to (the dashboard, or the judge's page); else the organiser
    page's 401/403."""
    if not request.cookies.get(COOKIE) and Judges(desk).is_judge(event_id, requester(request)):
        return f"/desk/{event_id}/judge"
    organiser(request, desk, event_id)
    return f"/desk/{event_id}/admin"


# -- JSON API -----------------------------------------------------------------------------------
# Refusals are raised; the app's exception handler answers each with its status (deckcheck.web.errors).
@router.post("/api/events/{event_id}/deckchecks", status_code=201, tags=["api"], dependencies=NO_STORE,
             summary="Tournament desk: record a deck check (organiser)", response_model=models.DeckCheck,
             responses=models.errors(400, 401, 403, 404, 409), openapi_extra=models.body(models.DeckCheckRequest))
async def api_add_deckcheck(request: Request, desk: DeskDep, event_id: str) -> dict[str, Any]:
    """A player's physical deck counted against their locked list: {"player", "judge", "counts": {card: n},
    "note"} -> 201 and the check (differences named, section totals); a listed card not in `counts` counts 0.
    409 before the lists are locked."""
    await run_in_threadpool(api_checker, request, desk, event_id)
    body = await json_body(request, '{"player": ..., "judge": ..., "counts": {"Thrust": 3}}')
    check = await run_in_threadpool(desk.deck_check, event_id, body.get("player"), body.get("judge"),
                                    body.get("counts"), body.get("note", ""))
    return check


@router.get("/api/events/{event_id}/deckchecks", tags=["api"], dependencies=NO_STORE,
            summary="Tournament desk: every deck check (organiser)",
            response_model=list[models.DeckCheck], responses=models.errors(401, 403, 404))
def api_deckchecks(request: Request, desk: DeskDep, event_id: str) -> list[dict[str, Any]]:
    """Every deck check of the event, oldest first (organiser, or a judge the organiser named)."""
    api_checker(request, desk, event_id)
    return desk.deckchecks(event_id)


@router.post("/api/events/{event_id}/draw", tags=["api"], dependencies=NO_STORE,
             summary="Tournament desk: draw players for deck checks",
             response_model=models.Draw, responses=models.errors(400, 401, 403, 404),
             openapi_extra=models.body(models.DrawRequest))
async def api_draw(request: Request, desk: DeskDep, event_id: str) -> dict[str, Any]:
    """{"n": 3, "seed": "S"?} -> {"seed", "players"}: n players not yet checked, the same seed the same draw."""
    await run_in_threadpool(api_checker, request, desk, event_id)
    body = await json_body(request, '{"n": 3, "seed": "optional text"}')
    return await run_in_threadpool(desk.draw, event_id, body.get("n"), body.get("seed"))


# -- pages --------------------------------------------------------------------------------------
def sheet_context(desk: Desk, event: Event, submission: Submission, values: dict[str, str]) -> dict[str, Any]:
    """The counting sheet: the registered lines grouped as a deck is counted (section, then type: judging.
    counting_groups), each with the count typed so far (the registered number at first), the extra rows, the
    list's names for completing them, and the differences of the counts that read, each a problem of the list or
    of the deck, with the counted deck's own verdict."""
    reg = submission.registered
    groups, n = [], 0
    for group in counting_groups(reg, desk.card_types(event, submission)):
        rows = []
        for line in group.lines:
            n += 1
            rows.append({"n": n, "card": line.card, "registered": line.quantity,
                         "typed": values.get(COUNT + line.card, str(line.quantity))})
        groups.append({"section": group.section, "type": group.type, "total": group.total, "rows": rows})
    extras = [{"name": values.get(f"extra_name_{n}", ""), "count": values.get(f"extra_count_{n}", "")}
              for n in range(1, EXTRA_ROWS + 1)]
    lines: list[str] = []
    error, suggestions, as_counted = "", [], {}
    differing: set[str] = set()
    try:
        counted, sections = read_form_counts(desk, event, submission, values)
        judged = desk.judge(event, submission, counted, sections)
        lines, as_counted = judged.lines, judged.as_counted
        differing = {d["card"] for d in judged.differences}
    except CountedCardUnknown as exc:
        error, suggestions = str(exc), [{"name": name, "row": row_of(values, exc.text)} for name in exc.suggestions]
    except DeckcheckError as exc:
        error = str(exc)
    return {"event": event, "submission": submission, "groups": groups, "extras": extras, "lines": lines,
            "differing": differing, "count_error": error, "suggestions": suggestions, "as_counted": as_counted,
            "sections": reg.section_names(), "max": MAX_COUNT, "names": sorted({line.card for line in reg.lines}),
            "judge": values.get("judge", ""), "note": values.get("note", ""),
            "problem": PROBLEM_WORDS[LIST if list_is_wrong(submission.report.legal, reg.not_read) else DECK]}


def row_of(values: dict[str, str], text: str) -> int:
    """The extra row whose card name is `text` (0 when none is: the name came from elsewhere)."""
    return next((n for n in range(1, EXTRA_ROWS + 1) if values.get(f"extra_name_{n}", "").strip() == text), 0)


def form_counts(submission: Submission, values: dict[str, str]) -> list[tuple[str, object]]:
    """The counts a form holds as (card name, count) pairs, an extra row naming a listed card adding to its
    count (an empty extra row is skipped; a name without a count is read as a decklist line: "2 Thrust", else 1
    copy); DeskError for a count without a name."""
    counts: list[tuple[str, object]] = []
    for line in submission.registered.lines:
        counts.append((line.card, values.get(COUNT + line.card, str(line.quantity))))
    for n in range(1, EXTRA_ROWS + 1):
        name, count = values.get(f"extra_name_{n}", "").strip(), values.get(f"extra_count_{n}", "").strip()
        if name or count:
            if not name:
                raise DeskError(f"extra row {n}: the count {count[:20]!r} has no card name")
            counts.append((name, count or None))
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


def fixed(values: dict[str, str], fix: str) -> dict[str, str]:
    """The form's values after a suggestion's button ("2|Thrust"): that extra row's card written with the
    suggested name, its quantity kept ("2 Thrustt" -> "2 Thrust")."""
    row, _, name = fix.partition("|")
    field = f"extra_name_{row}"
    if name and field in values:
        values[field] = rewrite_typed(values[field], name[:200])
    return values


@router.get("/desk/{event_id}/admin/check", response_class=HTMLResponse)
def counting_sheet(request: Request, desk: DeskDep, pages: PagesDep, event_id: str, player: str = "") -> Response:
    """A player's locked list as a counting sheet (the organiser's, or a judge's the organiser named)."""
    back = checker(request, desk, event_id)
    event, submission = desk.locked(event_id, player)
    who = requester(request)
    judge = {"judge": who.name} if who.account_id is not None else {}
    return page(pages, "count.html", sheet_context(desk, event, submission, judge) | {"back": back})


@router.post("/desk/{event_id}/admin/check", response_class=HTMLResponse)
async def counting_sheet_post(request: Request, desk: DeskDep, pages: PagesDep, event_id: str) -> Response:
    """A − or + button, "Compute" (the sheet again, counted) or "Save the check" (kept, then its result)."""
    back = await run_in_threadpool(checker, request, desk, event_id)
    try:
        form = await request.form(max_files=0, max_fields=MAX_FORM_FIELDS)
    except Exception as exc:  # a malformed body, too many fields
        raise DeskError(f"the form could not be read ({str(getattr(exc, 'detail', exc))[:80]})") from None
    check_csrf(request, form)
    values = {k: v for k, v in form.items() if isinstance(v, str)}
    event, submission = await run_in_threadpool(desk.locked, event_id, values.get("player", ""))
    step = values.get("step", "")
    if step or values.get("fix") or values.get("action") != "save":
        values = fixed(stepped(values, step), values.get("fix", ""))
        return page(pages, "count.html", sheet_context(desk, event, submission, values) | {"back": back})
    try:
        counts = form_counts(submission, values)
        check = await run_in_threadpool(desk.deck_check, event_id, submission.player, values.get("judge"), counts,
                                        values.get("note", ""))
    except DeckcheckError as exc:  # the sheet again, as counted, saying why it was not saved
        context = sheet_context(desk, event, submission, values) | {"error": str(exc), "back": back}
        return page(pages, "count.html", context, status_of(exc))
    # POST-redirect-GET: a reload of the saved check's page records no second check
    return RedirectResponse(f"/desk/{event_id}/admin/checks/{check['id']}", status_code=303,
                            headers=SECURITY_HEADERS)


@router.get("/desk/{event_id}/admin/checks/{check_id}", response_class=HTMLResponse)
def checked_page(request: Request, desk: DeskDep, pages: PagesDep, event_id: str, check_id: str) -> Response:
    """A recorded deck check: its outcome, each difference with its kind of problem, the deck as counted, who and
    when (the organiser's, or a judge's the organiser named)."""
    back = checker(request, desk, event_id)
    check = next((c for c in desk.deckchecks(event_id) if c.get("id") == check_id), None)
    if check is None:
        raise EventNotFound(f"no deck check {check_id[:40]!r} in this event")
    event = desk.event(event_id)
    submission = desk.submission(event_id, check["deck_id"])
    return page(pages, "checked.html", {"event": event, "submission": submission, "check": check, "source": SOURCE,
                                        "back": back})


@router.post("/desk/{event_id}/admin/draw", response_class=HTMLResponse)
async def draw_page(request: Request, desk: DeskDep, pages: PagesDep, event_id: str) -> Response:
    """Draw players for deck checks from the dashboard (or a judge's page); the seed is shown with the draw."""
    back = await run_in_threadpool(checker, request, desk, event_id)
    form = await request.form(max_files=0, max_fields=5)
    check_csrf(request, form)
    n, seed = form.get("n"), form.get("seed")
    drawn = await run_in_threadpool(desk.draw, event_id, n if isinstance(n, str) else None,
                                    seed if isinstance(seed, str) else None)
    return page(pages, "draw.html", {"event": desk.event(event_id), "drawn": drawn, "back": back})
