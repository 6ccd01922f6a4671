"""Judges per event (issue 34; CONTRACTS §9's `judge` role): the organiser names accounts holding the judge role
(the dashboard's form, or PUT /api/events/{id}/judges with the organiser token), and each, signed in, has the
event's judge page: the locked lists to count, the counting sheet and the draw (deckcheck.web.deskcheck lets a
named judge through), for that event only.
"""
from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from deckcheck.desk import NotAJudge, NotAuthorised
from deckcheck.library.judges import Judges

from . import models
from .deps import DeskDep, PagesDep
from .desk import COOKIE, NO_STORE, bearer, json_body, organiser, page, requester
from .rounds import organiser_form, see_other

router = APIRouter(route_class=models.ApiRoute)


@router.get("/api/events/{event_id}/judges", tags=["api"], dependencies=NO_STORE,
            summary="Tournament desk: the event's judges (organiser)", response_model=models.JudgesList,
            responses=models.errors(401, 403, 404))
def api_judges(request: Request, desk: DeskDep, event_id: str) -> dict[str, Any]:
    """The accounts named judges of the event: they may do its deck checks and draws."""
    desk.authorise(event_id, bearer(request))
    return {"judges": Judges(desk).names(event_id)}


@router.put("/api/events/{event_id}/judges", tags=["api"], dependencies=NO_STORE,
            summary="Tournament desk: name the event's judges (organiser)", response_model=models.JudgesList,
            responses=models.errors(400, 401, 403, 404), openapi_extra=models.body(models.JudgesList))
async def api_name_judges(request: Request, desk: DeskDep, event_id: str) -> dict[str, Any]:
    """{"judges": ["Ines", ...]} -> 200: exactly these accounts (each with the judge role) are the event's judges;
    400 naming an account that is none or lacks the role, nothing changed."""
    await run_in_threadpool(desk.authorise, event_id, bearer(request))
    body = await json_body(request, '{"judges": ["Ines"]}')
    return {"judges": await run_in_threadpool(Judges(desk).name, event_id, body.get("judges"))}


@router.post("/desk/{event_id}/admin/judges", response_class=HTMLResponse)
async def name_judges_page(request: Request, desk: DeskDep, event_id: str) -> Response:
    """The dashboard's form: the judges' account names, one per line; then the dashboard again."""
    values = await organiser_form(request, desk, event_id)
    await run_in_threadpool(Judges(desk).name, event_id, values.get("judges", ""))
    return see_other(f"/desk/{event_id}/admin#judges")


@router.get("/desk/{event_id}/judge", response_class=HTMLResponse)
def judge_page(request: Request, desk: DeskDep, pages: PagesDep, event_id: str) -> Response:
    """A named judge's page of the event (signed in): the players' locked lists to count, each player's checks,
    and the draw. The organiser sees it too."""
    who = requester(request)
    event = desk.event(event_id)
    judges = Judges(desk)
    if not judges.is_judge(event_id, who):
        if request.cookies.get(COOKIE) or who.known:
            try:
                organiser(request, desk, event_id)
            except NotAuthorised:
                raise NotAJudge("the organiser of this event has not named your account a judge of it") from None
        elif who.account_id is None:
            raise NotAuthorised("this page is for the event's judges: sign in (at /signin) with the account the "
                                "organiser named")
    rows = desk.rows(event_id)
    return page(pages, "judge.html", {"event": event, "rows": rows, "judges": judges.names(event_id),
                                      "me": who.name if who.account_id is not None else ""})
