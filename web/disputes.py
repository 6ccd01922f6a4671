"""Disputes of reported results (issue 34): a player disputes their table's result from their private link (a
report differing from the one the opponent made is a dispute too), the organiser sees and settles them; the next
round waits for that. The JSON API for the deck link and the organiser's token, and the two forms (each followed
by a redirect: POST-redirect-GET).
"""
from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from deckcheck.errors import DeckcheckError

from . import models
from .deps import DeskDep, PagesDep
from .desk import NO_STORE, bearer, json_body
from .rounds import organiser_form, refused, rounds_of, see_other
from .security import check_csrf

router = APIRouter(route_class=models.ApiRoute)


@router.post("/api/events/{event_id}/decks/{deck_id}/dispute", status_code=201, tags=["api"],
             dependencies=NO_STORE, summary="Tournament desk: dispute a reported result (a player's deck link)",
             response_model=models.Dispute, responses=models.errors(400, 404, 409),
             openapi_extra=models.body(models.DisputeRequest))
async def api_dispute(request: Request, desk: DeskDep, event_id: str, deck_id: str) -> dict[str, Any]:
    """{"mine", "theirs", "draws"?, "note"?} from the player's own side -> 201 and the dispute, open until the
    organiser settles it. 409 without a table in the current round, on a bye, or before a result is reported."""
    body = await json_body(request, '{"mine": 2, "theirs": 1, "draws": 0, "note": ""}')
    return await run_in_threadpool(rounds_of(desk).dispute, event_id, deck_id, body.get("mine"),
                                   body.get("theirs"), body.get("draws", 0), body.get("note", ""))


@router.get("/api/events/{event_id}/disputes", tags=["api"], dependencies=NO_STORE,
            summary="Tournament desk: every dispute of a result (organiser)", response_model=list[models.Dispute],
            responses=models.errors(401, 403, 404))
def api_disputes(request: Request, desk: DeskDep, event_id: str) -> list[dict[str, Any]]:
    """Every dispute, open and settled, oldest first."""
    desk.authorise(event_id, bearer(request))
    return rounds_of(desk).claims(event_id)


@router.post("/api/events/{event_id}/disputes/{claim_id}", tags=["api"], dependencies=NO_STORE,
             summary="Tournament desk: settle a dispute (organiser)", response_model=models.Dispute,
             responses=models.errors(400, 401, 403, 404, 409), openapi_extra=models.body(models.SettleRequest))
async def api_settle(request: Request, desk: DeskDep, event_id: str, claim_id: str) -> dict[str, Any]:
    """{"decision": "claim" | "reported"} -> 200 and the dispute settled: the result chosen becomes the
    organiser's. 409 for a dispute settled already."""
    await run_in_threadpool(desk.authorise, event_id, bearer(request))
    body = await json_body(request, '{"decision": "claim"}')
    return await run_in_threadpool(rounds_of(desk).settle, event_id, claim_id, body.get("decision"))


@router.post("/desk/{event_id}/decks/{deck_id}/dispute", response_class=HTMLResponse)
async def dispute_page(request: Request, desk: DeskDep, event_id: str, deck_id: str) -> Response:
    """A player disputes their table's result from their phone, then sees their page saying so."""
    form = await request.form(max_files=0, max_fields=10)
    check_csrf(request, form)
    values = {k: v for k, v in form.items() if isinstance(v, str)}
    try:
        await run_in_threadpool(rounds_of(desk).dispute, event_id, deck_id, values.get("mine"),
                                values.get("theirs"), values.get("draws") or 0, values.get("note", ""))
    except DeckcheckError as exc:
        return see_other(f"/desk/{event_id}/decks/{deck_id}?result_error={quote(str(exc)[:200])}#my-table")
    return see_other(f"/desk/{event_id}/decks/{deck_id}?disputed=1#my-table")


@router.post("/desk/{event_id}/admin/disputes/{claim_id}", response_class=HTMLResponse)
async def settle_page(request: Request, desk: DeskDep, pages: PagesDep, event_id: str, claim_id: str) -> Response:
    """The organiser settles a dispute from the rounds page."""
    values = await organiser_form(request, desk, event_id)
    try:
        settled = await run_in_threadpool(rounds_of(desk).settle, event_id, claim_id, values.get("decision"))
    except DeckcheckError as exc:
        return await refused(pages, desk, event_id, exc)
    return see_other(f"/desk/{event_id}/admin/rounds?done=" + quote(f"Table {settled['table']}: dispute settled"))
