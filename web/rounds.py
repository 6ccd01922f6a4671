"""An event's rounds and standings on the web (CONTRACTS §6, revision 4): the JSON API for the organiser's
token, the organiser's rounds page (pairings, the live table of who has not reported, results, drops, the top
cut, standings, exports), the public pairings page, and a player's result from their phone (their private link).

Every form that changes something answers with a redirect to the page that shows it (POST-redirect-GET): a
reload shows the page again and changes nothing.
"""
from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from deckcheck.desk import DeskError
from deckcheck.errors import DeckcheckError
from deckcheck.library.desk import Desk
from deckcheck.library.rounds import EXPORT_KINDS, Rounds
from deckcheck.swiss import KNOWN_TIEBREAKERS, TOP_SIZES, percent
from deckcheck.text import is_digits

from . import models
from .deps import DeskDep, PagesDep
from .desk import MEDIA, NO_STORE, SECURITY_HEADERS, bearer, json_body, organiser, page
from .errors import status_of
from .security import check_csrf

router = APIRouter(route_class=models.ApiRoute)
POLL_SECONDS = 5
TIEBREAKER_WORDS = {"omw": "opponents' match-win %", "gw": "game-win %", "ogw": "opponents' game-win %",
                    "mw": "match-win %"}


def rounds_of(desk: Desk) -> Rounds:
    """The rounds of the desk's events."""
    return Rounds(desk)


def see_other(url: str) -> RedirectResponse:
    """The redirect after a form that changed something (303: the browser asks for the page with GET)."""
    return RedirectResponse(url, status_code=303, headers=SECURITY_HEADERS)


def round_json(number: int, top: bool, tables: list[Any]) -> dict[str, Any]:
    """A round with its tables as the API answers it."""
    return {"round": number, "top": top, "done": all(t.done for t in tables),
            "pairings": [t.as_dict() for t in tables]}


# -- JSON API (the organiser's token) -----------------------------------------------------------
@router.post("/api/events/{event_id}/rounds", status_code=201, tags=["api"], dependencies=NO_STORE,
             summary="Tournament desk: start the next round (organiser)", response_model=models.RoundStarted,
             responses=models.errors(400, 401, 403, 404, 409), openapi_extra=models.body(models.RoundRequest))
async def api_start_round(request: Request, desk: DeskDep, event_id: str) -> dict[str, Any]:
    """The next Swiss round ({"seed"?} for round 1), or with {"top": 8} a top cut: 201 and its pairings (`b` null
    is a bye). 409 while the last round lacks results, or before the lists are locked."""
    await run_in_threadpool(desk.authorise, event_id, bearer(request))
    body = await json_body(request, '{"seed": "optional text"}') if await request.body() else {}
    return await run_in_threadpool(rounds_of(desk).start, event_id, body.get("seed"), body.get("top"))


@router.get("/api/events/{event_id}/rounds", tags=["api"], dependencies=NO_STORE,
            summary="Tournament desk: every round with its results (organiser)",
            response_model=list[models.RoundInfo], responses=models.errors(401, 403, 404))
def api_rounds(request: Request, desk: DeskDep, event_id: str) -> list[dict[str, Any]]:
    """Every round so far, its tables and their results."""
    desk.authorise(event_id, bearer(request))
    return [round_json(r.number, r.top, tables) for r, tables in rounds_of(desk).board(event_id).rounds]


@router.post("/api/events/{event_id}/rounds/{number}/results", tags=["api"], dependencies=NO_STORE,
             summary="Tournament desk: a table's result (organiser)", response_model=models.ResultStored,
             responses=models.errors(400, 401, 403, 404, 409), openapi_extra=models.body(models.ResultRequest))
async def api_result(request: Request, desk: DeskDep, event_id: str, number: int) -> dict[str, Any]:
    """{"table", "a_wins", "b_wins", "draws"} -> 200 and the table with its result."""
    await run_in_threadpool(desk.authorise, event_id, bearer(request))
    body = await json_body(request, '{"table": 1, "a_wins": 2, "b_wins": 1, "draws": 0}')
    return await run_in_threadpool(rounds_of(desk).report, event_id, number, body.get("table"),
                                   body.get("a_wins"), body.get("b_wins"), body.get("draws", 0))


@router.post("/api/events/{event_id}/drops", tags=["api"], dependencies=NO_STORE,
             summary="Tournament desk: drop a player (organiser)", response_model=models.Dropped,
             responses=models.errors(400, 401, 403, 404), openapi_extra=models.body(models.DropRequest))
async def api_drop(request: Request, desk: DeskDep, event_id: str) -> dict[str, Any]:
    """{"player": NAME} -> 200: the player is paired in no later round (and keeps a place in the standings)."""
    await run_in_threadpool(desk.authorise, event_id, bearer(request))
    body = await json_body(request, '{"player": ...}')
    return await run_in_threadpool(rounds_of(desk).drop, event_id, body.get("player"))


@router.get("/api/events/{event_id}/standings", tags=["api"], dependencies=NO_STORE,
            summary="Tournament desk: the standings (organiser)", response_model=list[models.StandingLine],
            responses=models.errors(401, 403, 404))
def api_standings(request: Request, desk: DeskDep, event_id: str) -> list[dict[str, Any]]:
    """The standings, best first: points (3 a win, 1 a draw), then the event's tie-breakers."""
    desk.authorise(event_id, bearer(request))
    return rounds_of(desk).standings(event_id)


def _export_route(what: str, model: Any) -> None:
    """GET /api/events/{id}/WHAT.csv|json|xlsx (organiser), its JSON described by `model`."""
    @router.get(f"/api/events/{{event_id}}/{what}.{{kind}}", tags=["api"], dependencies=NO_STORE,
                summary=f"Tournament desk: {what} as CSV, JSON or XLSX (organiser)", response_class=Response,
                responses={**models.files({MEDIA["json"]: list[model], MEDIA["csv"]: None, MEDIA["xlsx"]: None}),
                           **models.errors(401, 403, 404)}, name=f"api_{what}_export")
    def api_export(request: Request, desk: DeskDep, event_id: str, kind: str) -> Response:
        desk.authorise(event_id, bearer(request))
        return export_response(desk, event_id, what, kind)
    api_export.__doc__ = f"{what}.csv, .json or .xlsx (organiser only)."


_export_route("standings", models.StandingLine)
_export_route("pairings", models.PairingExport)


def export_response(desk: Desk, event_id: str, what: str, kind: str) -> Response:
    """An export as a download named WHAT.KIND."""
    data = rounds_of(desk).export(event_id, what, kind)
    return Response(data, media_type=MEDIA[kind], headers=SECURITY_HEADERS | {
        "Content-Disposition": f'attachment; filename="{what}.{kind}"'})


# -- pages: the organiser -----------------------------------------------------------------------
def board_context(desk: Desk, event_id: str, upto: int | None = None) -> dict[str, Any]:
    """What the rounds page shows (`upto`: as it stood after that round, for the pairings pages)."""
    rounds = rounds_of(desk)
    whole = rounds.board(event_id)
    board = whole if upto is None else rounds.board(event_id, upto)
    disputes = [c for c in rounds.claims(event_id) if c["status"] == "open"]
    return {"event": board.event, "board": board, "disputes": disputes, "percent": percent, "tops": TOP_SIZES,
            "kinds": EXPORT_KINDS, "tiebreakers": KNOWN_TIEBREAKERS, "words": TIEBREAKER_WORDS, "poll": POLL_SECONDS,
            "numbers": [r.number for r, _ in whole.rounds], "upto": upto}


def round_wanted(value: str) -> int | None:
    """The round of a pairings page's ?round=N (None: the current one); DeskError for what names no round."""
    if not value:
        return None
    if not is_digits(value) or len(value) > 4:
        raise DeskError(f"round must be a round's number, not {value[:20]!r}")
    return int(value)


@router.get("/desk/{event_id}/admin/rounds", response_class=HTMLResponse)
def rounds_page(request: Request, desk: DeskDep, pages: PagesDep, event_id: str, done: str = "") -> Response:
    """The organiser's rounds: the current round's tables (who has not reported), results, drops, standings."""
    organiser(request, desk, event_id)
    return page(pages, "rounds.html", board_context(desk, event_id) | {"done": done[:80]})


@router.get("/desk/{event_id}/admin/rounds/live", response_class=HTMLResponse)
def rounds_live(request: Request, desk: DeskDep, pages: PagesDep, event_id: str) -> Response:
    """The current round's tables alone, for htmx to swap in every few seconds."""
    organiser(request, desk, event_id)
    return page(pages, "_round_tables.html", board_context(desk, event_id))


async def organiser_form(request: Request, desk: Desk, event_id: str) -> dict[str, str]:
    """A form of the organiser's rounds page: the cookie and the CSRF token checked, its text fields."""
    await run_in_threadpool(organiser, request, desk, event_id)
    form = await request.form(max_files=0, max_fields=20)
    check_csrf(request, form)
    return {k: v for k, v in form.items() if isinstance(v, str)}


async def refused(pages: PagesDep, desk: Desk, event_id: str, exc: DeckcheckError) -> Response:
    """The rounds page again, saying why a form was refused (nothing changed)."""
    context = await run_in_threadpool(board_context, desk, event_id)
    return page(pages, "rounds.html", context | {"error": str(exc)}, status_of(exc))


@router.post("/desk/{event_id}/admin/rounds", response_class=HTMLResponse)
async def start_round_page(request: Request, desk: DeskDep, pages: PagesDep, event_id: str) -> Response:
    """Start the next round (or the top cut), then show it."""
    values = await organiser_form(request, desk, event_id)
    try:
        started = await run_in_threadpool(rounds_of(desk).start, event_id, values.get("seed"), values.get("top"))
    except DeckcheckError as exc:
        return await refused(pages, desk, event_id, exc)
    return see_other(f"/desk/{event_id}/admin/rounds?done=" + quote(f"Round {started['round']} started"))


@router.post("/desk/{event_id}/admin/rounds/{number}/results", response_class=HTMLResponse)
async def result_page(request: Request, desk: DeskDep, pages: PagesDep, event_id: str, number: int) -> Response:
    """The organiser enters (or corrects) a table's result."""
    values = await organiser_form(request, desk, event_id)
    try:
        stored = await run_in_threadpool(rounds_of(desk).report, event_id, number, values.get("table"),
                                         values.get("a_wins"), values.get("b_wins"), values.get("draws") or 0)
    except DeckcheckError as exc:
        return await refused(pages, desk, event_id, exc)
    return see_other(f"/desk/{event_id}/admin/rounds?done=" + quote(f"Table {stored['table']}: result saved"))


@router.post("/desk/{event_id}/admin/drops", response_class=HTMLResponse)
async def drop_page(request: Request, desk: DeskDep, pages: PagesDep, event_id: str) -> Response:
    """Drop a player from the later rounds."""
    values = await organiser_form(request, desk, event_id)
    try:
        dropped = await run_in_threadpool(rounds_of(desk).drop, event_id, values.get("player"))
    except DeckcheckError as exc:
        return await refused(pages, desk, event_id, exc)
    return see_other(f"/desk/{event_id}/admin/rounds?done=" + quote(f"{dropped['player']} dropped"))


@router.post("/desk/{event_id}/admin/tiebreakers", response_class=HTMLResponse)
async def tiebreakers_page(request: Request, desk: DeskDep, pages: PagesDep, event_id: str) -> Response:
    """The standings' tie-breaker order after points."""
    values = await organiser_form(request, desk, event_id)
    order = [values.get(f"t{n}", "") for n in range(1, len(KNOWN_TIEBREAKERS) + 1)]
    try:
        await run_in_threadpool(rounds_of(desk).set_tiebreakers, event_id, [o for o in order if o])
    except DeckcheckError as exc:
        return await refused(pages, desk, event_id, exc)
    return see_other(f"/desk/{event_id}/admin/rounds?done={quote('Tie-breakers saved')}")


@router.get("/desk/{event_id}/admin/{what}.{kind}")
def organiser_export(request: Request, desk: DeskDep, event_id: str, what: str, kind: str) -> Response:
    """The standings and pairings downloads of the rounds page (the organiser's cookie)."""
    organiser(request, desk, event_id)
    if what not in ("standings", "pairings"):
        raise DeskError(f"no {what[:20]!r} to download")
    return export_response(desk, event_id, what, kind)


@router.get("/desk/{event_id}/admin/rounds/print", response_class=HTMLResponse)
def print_round(request: Request, desk: DeskDep, pages: PagesDep, event_id: str,
                number: str = Query("", alias="round")) -> Response:
    """The current round's pairings and the standings, to print and pin up (?round=N: that round's, and the
    standings after it)."""
    organiser(request, desk, event_id)
    return page(pages, "pairings.html", board_context(desk, event_id, round_wanted(number)) | {"printing": True})


# -- pages: players ------------------------------------------------------------------------------
@router.get("/desk/{event_id}/pairings", response_class=HTMLResponse)
def public_pairings(desk: DeskDep, pages: PagesDep, event_id: str,
                    number: str = Query("", alias="round")) -> Response:
    """The current round's pairings and the standings, for anyone with the player link (as pinned at the venue);
    ?round=N: that round's, and the standings after it."""
    return page(pages, "pairings.html", board_context(desk, event_id, round_wanted(number)))


@router.post("/desk/{event_id}/decks/{deck_id}/result", response_class=HTMLResponse)
async def player_result(request: Request, desk: DeskDep, pages: PagesDep, event_id: str, deck_id: str) -> Response:
    """A player reports their table's result from their phone (their private link), then sees their page."""
    form = await request.form(max_files=0, max_fields=10)
    check_csrf(request, form)
    values = {k: v for k, v in form.items() if isinstance(v, str)}
    try:
        stored = await run_in_threadpool(rounds_of(desk).report_by_player, event_id, deck_id, values.get("mine"),
                                         values.get("theirs"), values.get("draws") or 0)
    except DeckcheckError as exc:
        return see_other(f"/desk/{event_id}/decks/{deck_id}?result_error={quote(str(exc)[:200])}#my-table")
    # a result that differs from the one the opponent reported is a dispute for the organiser to settle
    return see_other(f"/desk/{event_id}/decks/{deck_id}?{'disputed' if 'dispute' in stored else 'reported'}=1"
                     "#my-table")
