"""The tournament desk on the web (CONTRACTS §6): event creation, the player page, the organiser's dashboard, and
the JSON API. Every page and its API twin call the same `deckcheck.library.desk.Desk` method.

Authorisation: the organiser's token comes as `Authorization: Bearer TOKEN` (API) or, on pages, once in the
organiser link (`?token=`), which turns it into an HttpOnly cookie for that event's pages only and redirects
to a URL without it. Deck ids are random: a player's report link is theirs alone.
"""
from __future__ import annotations

import logging
import re
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from deckcheck.library.rounds import Rounds
from deckcheck.library.judges import Judges
from deckcheck.library.desk import MAX_DECKLIST_BYTES, PASTED, PASTED_BEFORE, REPORT_KINDS, Decklist, Desk
from deckcheck.desk import (MAX_PLAYER_NAME, DeskError, Event, EventClosed, NotAuthorised, Submission, TooLarge,
                            deadline_offset, parse_deadline, parse_offset, text_field)
from deckcheck.errors import DeckcheckError
from deckcheck.judging import counting_groups

from . import decks as reading, models
from .app import looks_like_json, request_json, wants_json
from deckcheck.library.people import ANONYMOUS, Person

from .deps import DeskDep, Pages, PagesDep, PersonDep
from .security import check_csrf

COOKIE = "deckcheck_desk"
POLL_SECONDS = 3
VERDICTS = ("legal", "NOT LEGAL", "unreadable")
MEDIA = {"xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
         "csv": "text/csv; charset=utf-8", "json": "application/json"}
SECURITY_HEADERS = {"Cache-Control": "no-store"}  # the app adds Referrer-Policy: same-origin; errors carry it too

router = APIRouter(route_class=models.ApiRoute)
NAV = [("Tournament desk", "/desk")]
TEMPLATES = str(Path(__file__).resolve().parent / "templates")


# -- helpers ------------------------------------------------------------------------------------
def page(pages: Pages, name: str, context: dict[str, Any], status: int = 200) -> HTMLResponse:
    """A desk page, never cached (it holds a player's deck or the organiser's table)."""
    response = pages(f"desk/{name}", context, status)
    response.headers.update(SECURITY_HEADERS)
    return response


def bearer(request: Request) -> str | None:
    """The token of an `Authorization: Bearer` header, if any."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def address(request: Request) -> str:
    """The client's address, as the rate limit counts it."""
    return request.client.host if request.client else ""


def links(request: Request, event: Event, token: str | None = None) -> dict[str, str]:
    """Absolute URLs of an event: the player link, the organiser link (with the token, when known), the API."""
    base = str(request.base_url).rstrip("/")
    out = {"submit_url": f"{base}/desk/{event.id}", "api_submit_url": f"{base}/api/events/{event.id}/decks",
           "qr_url": f"{base}/desk/{event.id}/qr.svg"}
    if token:
        out["dashboard_url"] = f"{base}/desk/{event.id}/admin?token={token}"
    return out


def only_this_machine(request: Request) -> bool:
    """Whether the page was asked for by a loopback name (127.0.0.1, localhost, ::1): the player link and QR
    code made from it would not open on the players' phones."""
    import ipaddress
    host = (request.url.hostname or "").strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def qr_svg(url: str, scale: int = 6) -> str:
    """The QR code of a URL as SVG markup (segno)."""
    import segno
    return segno.make(url, error="m").svg_inline(scale=scale, border=2, dark="#111", light="#fff")


async def read_submission(request: Request, event: Event) -> tuple[dict[str, Any], Decklist, str]:
    """The fields of a submission (JSON or form), its decklist (text, decks read from a file, or the Report of
    an unreadable file) and the name it goes by."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json" and kind != "multipart/form-data" and looks_like_json(await request.body()):
        kind = "application/json"  # JSON sent as a form (`curl -d '{...}'`) or with no content type
    if kind == "application/json" or kind.endswith("+json"):
        body = await json_body(request, '{"player": ..., "decklist": ...}')
        return body, text_field(body.get("decklist"), "decklist"), PASTED
    if kind not in ("multipart/form-data", "application/x-www-form-urlencoded"):
        raise DeskError("send a form (player, and file or decklist) or JSON ({\"player\": ..., \"decklist\": ...})")
    try:
        form = await request.form(max_files=1, max_fields=20, max_part_size=MAX_DECKLIST_BYTES + 1)
    except Exception as exc:  # malformed multipart body, or a part over the limit
        if "part exceeded" in str(getattr(exc, "detail", exc)):
            raise TooLarge(f"the decklist is over {MAX_DECKLIST_BYTES // 1024} KB") from None
        raise DeskError(f"the form could not be read ({str(getattr(exc, 'detail', exc))[:80]})") from None
    fields: dict[str, Any] = {k: v for k, v in form.items() if isinstance(v, str)}
    upload = form.get("file")
    if upload is None or isinstance(upload, str) or not upload.filename:
        return fields, fields.get("decklist") or "", PASTED
    data = await upload.read(MAX_DECKLIST_BYTES + 1)
    if not data:
        return fields, fields.get("decklist") or "", PASTED
    if wants_json(request) and str(fields.get("decklist") or "").strip():
        raise DeskError(reading.BOTH_SENT)  # a program meant one of them; the player's page checks the file it shows
    if len(data) > MAX_DECKLIST_BYTES:
        raise TooLarge(f"the file is over {MAX_DECKLIST_BYTES // 1024} KB")
    label = reading.label_of(upload.filename)
    try:
        raws = await run_in_threadpool(reading.read_upload, label, data)
    except DeckcheckError as exc:
        return fields, reading.unreadable(label, exc, event.format), label
    except Exception as exc:  # a reader that broke on strange input: that deck's error, never a 500
        logging.getLogger("deckcheck.web").exception("reading an uploaded decklist failed")
        return fields, reading.unreadable(label, DeckcheckError(f"{label}: could not be read "
                                                                f"({exc.__class__.__name__})"), event.format), label
    if reading.is_text_upload(label):  # keep a text file as written, for the judges' printout
        return fields, reading.upload_text(label, data), label
    return fields, raws, label


async def json_body(request: Request, example: str) -> dict[str, Any]:
    """The request's JSON object; DeskError when the body is not JSON (or nested past Python's reach), or not
    an object like `example`."""
    try:
        data = await request_json(request)
    except ValueError as exc:
        raise DeskError(f"the body is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise DeskError(f"the body must be a JSON object like {example}")
    return data


def submission_json(request: Request, submission: Submission, event: Event) -> dict[str, Any]:
    """The §3 report of a submitted deck plus its player, id, private link, time (in the event's time zone),
    number of submissions, the cleaned list (what a deck check counts) and its fingerprint, and the source (the
    file's name, or pasted)."""
    base = str(request.base_url).rstrip("/")
    return submission.report.as_dict() | {
        "player": submission.player, "deck_id": submission.id, "submissions": submission.number,
        "submitted_at": event.iso(submission.submitted_at), "verdict": submission.verdict,
        "fingerprint": submission.fingerprint, "source": submission.source,
        "cleaned": submission.registered.text(),
        "deck_url": f"{base}/desk/{submission.event_id}/decks/{submission.id}"}


def event_json(event: Event) -> dict[str, Any]:
    """What anyone with the player link may know of an event."""
    return {"id": event.id, "name": event.name, "format": event.format,
            "deadline": event.deadline.isoformat() if event.deadline else None,
            "utc_offset": event.zone_name.removeprefix("UTC") or "+00:00",
            "closed": event.closed_at is not None, "open": event.is_open(),
            "locked_at": event.iso(event.locked_at) if event.locked_at else None}


def organiser(request: Request, desk: Desk, event_id: str) -> Event:
    """The event of an organiser page, by the event's cookie (401 without, 403 when wrong), or for the person who
    owns it (CONTRACTS §9: on a personal server its keeper, who sees every event listed at /desk)."""
    token = request.cookies.get(COOKIE)
    if token:
        return desk.authorise(event_id, token)
    who = requester(request)
    if who.known:
        event = desk.event(event_id)
        if who.owns(event.owner_id):
            return event
    raise NotAuthorised("this page is the organiser's: open the organiser link (the one ending in ?token=...)")


def requester(request: Request) -> Person:
    """Who a request is (deckcheck.web.deps.person, kept by the policy's check that every route runs first), for
    the helpers that are not routes."""
    who = getattr(request.state, "person", None)
    return who if isinstance(who, Person) else ANONYMOUS


def organiser_cookie(response: Response, request: Request, event_id: str, token: str) -> Response:
    """The organiser's token as an HttpOnly cookie for this event's pages only."""
    response.set_cookie(COOKIE, token, path=f"/desk/{event_id}", httponly=True, samesite="lax",
                        secure=request.url.scheme == "https")
    return response


# -- JSON API -----------------------------------------------------------------------------------
# Refusals are raised (DeskError and its kinds); the app's exception handler answers each with its status.
def no_store(response: Response) -> None:
    """A desk API answer is never cached (a dependency of every desk API route)."""
    response.headers.update(SECURITY_HEADERS)


NO_STORE = [Depends(no_store)]


@router.post("/api/events", status_code=201, tags=["api"], dependencies=NO_STORE,
             summary="Tournament desk: create an event",
             response_model=models.EventCreated, responses=models.errors(400),
             openapi_extra=models.body(models.EventRequest))
async def api_create_event(request: Request, desk: DeskDep, who: PersonDep) -> dict[str, Any]:
    """Create an event: {"name", "format", "deadline"?, "expected"?} -> id, organiser token and links."""
    data = await json_body(request, '{"name": ..., "format": ...}')
    deadline = parse_deadline(data.get("deadline"))
    # the organiser's time zone: utc_offset, else the deadline's own offset, else UTC
    given = data.get("utc_offset")
    offset = parse_offset(given) if given not in (None, "") else (deadline_offset(data.get("deadline")) or 0)
    event, token = await run_in_threadpool(desk.create_event, data.get("name"),
                                           text_field(data.get("format"), "format"), deadline, data.get("expected"),
                                           offset, who.owner_id)
    return {"id": event.id, "organiser_token": token, **links(request, event, token)}


@router.get("/api/events/{event_id}", tags=["api"], dependencies=NO_STORE,
            summary="Tournament desk: an event's public facts",
            response_model=models.EventInfo, responses=models.errors(404))
def api_event(desk: DeskDep, event_id: str) -> dict[str, Any]:
    """The public facts of an event (name, format, deadline, open)."""
    return event_json(desk.event(event_id))


@router.post("/api/events/{event_id}/decks", status_code=201, tags=["api"], dependencies=NO_STORE,
             summary="Tournament desk: submit a player's deck", response_model=models.Submission,
             responses=models.errors(400, 404, 409, 413, 429),
             openapi_extra=models.body(models.SubmitRequest, models.SubmitForm))
async def api_submit(request: Request, desk: DeskDep, event_id: str) -> dict[str, Any]:
    """Submit a player's deck (form or JSON: player, and file or decklist) -> 201 and its report; 409 once the
    lists are locked (the deadline, or the organiser's close), with nothing changed."""
    event = await run_in_threadpool(desk.event, event_id)
    fields, decklist, source = await read_submission(request, event)
    submission = await run_in_threadpool(desk.submit_deck, event_id, fields.get("player"), decklist, source,
                                         address(request), fields.get("replaces"))
    return submission_json(request, submission, event)


@router.get("/api/events/{event_id}/decks", tags=["api"], dependencies=NO_STORE,
            summary="Tournament desk: every player's deck (organiser)",
            response_model=list[models.Submission], responses=models.errors(401, 403, 404))
def api_decks(request: Request, desk: DeskDep, event_id: str) -> list[dict[str, Any]]:
    """Every player's current deck with its report (organiser only)."""
    event = desk.authorise(event_id, bearer(request))
    return [submission_json(request, s, event) for s in desk.list_submissions(event_id)]


@router.get("/api/events/{event_id}/decks/{deck_id}", tags=["api"], dependencies=NO_STORE,
            summary="Tournament desk: one submitted deck",
            response_model=models.Submission, responses=models.errors(404))
def api_deck(request: Request, desk: DeskDep, event_id: str, deck_id: str) -> dict[str, Any]:
    """One submitted deck by its random id (the player's own link)."""
    return submission_json(request, desk.submission(event_id, deck_id), desk.event(event_id))


@router.get("/api/events/{event_id}/diff", tags=["api"], dependencies=NO_STORE,
            summary="Tournament desk: two submitted decks compared (organiser)", response_model=models.DeckDiff,
            responses=models.errors(400, 401, 403, 404))
def api_diff(request: Request, desk: DeskDep, event_id: str, a: str, b: str, hand: int | None = None,
             exertion: int | None = None) -> dict[str, Any]:
    """Deck `a` (before) against deck `b` (after), both submissions of this event: the object of
    the command line's diff JSON (organiser only); a deck with lines that do not resolve is compared by the lines that
    do, and those it could not read are its report's input errors."""
    desk.authorise(event_id, bearer(request))
    return desk.compare(event_id, a, b, hand, exertion).as_dict()


@router.get("/api/events/{event_id}/report.{kind}", tags=["api"], dependencies=NO_STORE,
            summary="Tournament desk: report.xlsx, .csv or .json (organiser)", response_class=Response,
            responses={**models.files({MEDIA["json"]: list[models.TournamentEntry], MEDIA["csv"]: None,
                                                  MEDIA["xlsx"]: None}), **models.errors(400, 401, 403, 404)})
def api_report(request: Request, desk: DeskDep, event_id: str, kind: str) -> Response:
    """report.xlsx, .csv or .json: what the command line's tournament check writes (organiser only)."""
    desk.authorise(event_id, bearer(request))
    return report_response(desk, event_id, kind)


@router.post("/api/events/{event_id}/close", tags=["api"], dependencies=NO_STORE,
             summary="Tournament desk: close the event (organiser)",
             response_model=models.EventInfo, responses=models.errors(401, 403, 404))
def api_close(request: Request, desk: DeskDep, event_id: str) -> dict[str, Any]:
    """Close the event (organiser only): later submissions get 409."""
    desk.authorise(event_id, bearer(request))
    return event_json(desk.close_event(event_id))


def report_response(desk: Desk, event_id: str, kind: str) -> Response:
    """A report file as a download named report.KIND."""
    data = desk.report_file(event_id, kind)
    return Response(data, media_type=MEDIA[kind], headers=SECURITY_HEADERS | {
        "Content-Disposition": f'attachment; filename="report.{kind}"'})


# -- pages: creating an event -------------------------------------------------------------------
@router.get("/desk", response_class=HTMLResponse)
def new_event_page(desk: DeskDep, pages: PagesDep, who: PersonDep) -> Response:
    """The form that creates an event, and the events of the person asking (on a personal server every one)."""
    from deckcheck.games import all_formats
    events = desk.events_of(who) if who.known else []
    return page(pages, "new.html", {"formats": all_formats(), "values": {}, "events": events})


@router.post("/desk", response_class=HTMLResponse)
async def create_event_page(request: Request, desk: DeskDep, pages: PagesDep, who: PersonDep) -> Response:
    """Create an event, then (POST-redirect-GET: a reload creates nothing) the page of its two links and the QR
    code; the organiser's cookie is set on the way, so that page can show the organiser link again."""
    from deckcheck.games import all_formats
    form = await request.form(max_files=0, max_fields=20)
    check_csrf(request, form)
    values = {k: v for k, v in form.items() if isinstance(v, str)}
    try:
        # the browser's minutes east of UTC (desk.js); anything else, such as '²' (a digit to str.isdigit()
        # that int() refuses), counts as UTC
        offset = values.get("tz_offset", "").strip()
        minutes = int(offset) if re.fullmatch(r"-?[0-9]{1,3}", offset) else 0
        deadline = parse_deadline(values.get("deadline"), minutes)
        event, token = await run_in_threadpool(desk.create_event, values.get("name", ""),
                                               values.get("format", ""), deadline, values.get("expected", ""),
                                               parse_offset(minutes), who.owner_id)
    except ValueError as exc:  # a DeckcheckError, or a deadline past what datetime holds: the form again
        return page(pages, "new.html", {"formats": all_formats(), "values": values, "error": str(exc), "events": []},
                    400)
    response = RedirectResponse(f"/desk/{event.id}/admin/created", status_code=303, headers=SECURITY_HEADERS)
    return organiser_cookie(response, request, event.id, token)


@router.get("/desk/{event_id}/admin/created", response_class=HTMLResponse)
def created_page(request: Request, desk: DeskDep, pages: PagesDep, event_id: str) -> Response:
    """An event's two links and its QR code, as often as the organiser opens it (their cookie holds the token the
    organiser link is made of)."""
    event = organiser(request, desk, event_id)
    urls = links(request, event, request.cookies.get(COOKIE))
    return page(pages, "created.html", {"event": event, "urls": urls, "qr": qr_svg(urls["submit_url"]),
                                        "loopback": only_this_machine(request)})


@router.get("/desk/{event_id}/qr.svg")
def qr_code(request: Request, desk: DeskDep, event_id: str) -> Response:
    """The player link of an event as a QR code (SVG), to print or show at the venue."""
    event = desk.event(event_id)
    import io

    import segno
    out = io.BytesIO()
    segno.make(links(request, event)["submit_url"], error="m").save(out, kind="svg", scale=8, border=2)
    return Response(out.getvalue(), media_type="image/svg+xml")


# -- pages: players -----------------------------------------------------------------------------
@router.get("/desk/{event_id}", response_class=HTMLResponse)
def player_page(desk: DeskDep, pages: PagesDep, event_id: str) -> Response:
    """The player link: name, decklist (paste or file), submit."""
    event = desk.event(event_id)
    return page(pages, "player.html", {"event": event, "values": {}, "limit_kb": MAX_DECKLIST_BYTES // 1024})


@router.post("/desk/{event_id}", response_class=HTMLResponse)
async def player_submit(request: Request, desk: DeskDep, pages: PagesDep, event_id: str) -> Response:
    """Check and store the player's deck, then show its report on the deck's private page (a 303 to it: reloading
    the report sends nothing again), or the form again saying why not (409, 429, 413...)."""
    from .errors import status_of
    event = await run_in_threadpool(desk.event, event_id)
    fields: dict[str, Any] = {}
    try:
        fields, decklist, source = await read_submission(request, event)
        check_csrf(request, FormData(fields))
        submission = await run_in_threadpool(desk.submit_deck, event_id, fields.get("player"), decklist, source,
                                             address(request), fields.get("replaces"))
    except DeckcheckError as exc:  # the form again, as filled in, saying why it was refused
        event = desk.event(event_id)
        counting = None
        if isinstance(exc, EventClosed) and fields.get("replaces"):  # tell a late phone which of its decks counts
            try:  # (by its private link: a name typed tells nothing of the decks sent under it)
                counting = await run_in_threadpool(desk.counting_of, event, fields.get("replaces"))
            except DeckcheckError:
                counting = None
        response = page(pages, "player.html", {"event": event, "values": fields, "error": str(exc),
                                               "counting": counting, "late": isinstance(exc, EventClosed),
                                               "limit_kb": MAX_DECKLIST_BYTES // 1024}, status_of(exc))
        if isinstance(getattr(exc, "retry_after", None), int):  # a rate limit says when to try again
            response.headers["Retry-After"] = str(exc.retry_after)  # type: ignore[attr-defined]
        return response
    query = urlencode({"sent": "1"} | ({"taken": submission.name_taken} if submission.name_taken else {}))
    return RedirectResponse(f"/desk/{event_id}/decks/{submission.id}?{query}", status_code=303,
                            headers=SECURITY_HEADERS)


def suggested_fixes(submission: Submission) -> list[dict[str, Any]]:
    """For each suggestion under a line that could not be read: that line as written and as it reads with the
    suggested name (the check page's rewrite: quantity, [SET] and the rest stay). The player's page turns
    those suggestions into buttons that rewrite the line in the form below. Only for a decklist kept as
    written (pasted, or a text file), whose lines are the ones the report numbers."""
    if submission.source not in (PASTED, PASTED_BEFORE) and not reading.is_text_upload(submission.source):
        return []
    from .check import apply_fix
    lines = submission.text.splitlines()
    out = []
    for problem in submission.report.input_errors:
        if problem.line is None or not 1 <= problem.line <= len(lines):
            continue
        for name in problem.suggestions:
            fixed = apply_fix(submission.text, f"{problem.line}|{name}").splitlines()
            grown = max(len(fixed) - len(lines), 0)  # a line of markup (`<li>2 A</li><li>3 B</li>`) becomes lines
            out.append({"line": problem.line, "name": name, "from": lines[problem.line - 1],
                        "to": "\n".join(fixed[problem.line - 1:problem.line + grown])})
    return out


@router.get("/desk/{event_id}/decks/{deck_id}", response_class=HTMLResponse)
def player_deck(desk: DeskDep, pages: PagesDep, event_id: str, deck_id: str, reported: str = "",
                result_error: str = "", disputed: str = "", sent: str = "", taken: str = "") -> Response:
    """A player's private link: their deck's report, the form to fix and resubmit it, and once the rounds have
    started their table and the form to report its result (`sent`: just after the form sent the deck; `taken`:
    the name typed then, which another player's deck held)."""
    event = desk.event(event_id)
    submission = desk.submission(event_id, deck_id)
    if sent and taken:
        submission = replace(submission, name_taken=taken[:MAX_PLAYER_NAME])
    history = desk.history(submission)
    rounds = Rounds(desk)
    my_table = rounds.table_of(event_id, deck_id) if event.locked_at else None
    my_dispute = None if my_table is None else next(
        (c for c in rounds.tables.claims(event_id) if c["status"] == "open" and (c["round"], c["table"]) ==
         (my_table.round, my_table.table) and c["player_key"] == submission.key), None)
    return page(pages, "submitted.html", {"event": event, "submission": submission, "just_sent": bool(sent),
                                          "fixes": suggested_fixes(submission), "history": history,
                                          "limit_kb": MAX_DECKLIST_BYTES // 1024, "my_table": my_table,
                                          "reported": bool(reported), "result_error": result_error[:200],
                                          "disputed": bool(disputed), "my_dispute": my_dispute})


# -- pages: the organiser -----------------------------------------------------------------------
@router.get("/desk/{event_id}/admin", response_class=HTMLResponse)
def dashboard(request: Request, desk: DeskDep, pages: PagesDep, event_id: str, token: str | None = None,
              verdict: str = "", q: str = "") -> Response:
    """The organiser's live table. The link's ?token= becomes a cookie for this event, then leaves the URL."""
    if token is not None:
        desk.authorise(event_id, token)
        response = RedirectResponse(f"/desk/{event_id}/admin", status_code=303, headers=SECURITY_HEADERS)
        return organiser_cookie(response, request, event_id, token)
    event = organiser(request, desk, event_id)
    return page(pages, "dashboard.html", dashboard_context(desk, event, verdict, q)
                | {"urls": links(request, event), "loopback": only_this_machine(request)})


def dashboard_context(desk: Desk, event: Event, verdict: str, q: str) -> dict[str, Any]:
    """What the table shows: the rows as filtered, totals by verdict, missing expected players."""
    every = desk.rows(event.id)
    chosen = tuple(v for v in VERDICTS if v == verdict)
    rows = desk.rows(event.id, chosen, q) if (chosen or q) else every
    totals = {v: sum(r.verdict == v for r in every) for v in VERDICTS}
    return {"event": event, "rows": rows, "totals": totals, "players": len(every),
            "missing": desk.missing(event, every), "verdict": verdict, "q": q, "verdicts": VERDICTS,
            "poll": POLL_SECONDS, "submitted": desk.tables.count_submissions(event.id),
            "checks": desk.deckchecks(event.id), "persona": persona_word(event.format),
            "judges": Judges(desk).names(event.id)}


def persona_word(format_name: str) -> str:
    """What the event's game calls the card leading a deck (Game.persona; "" when its decks have none): the
    dashboard's column and filter say it. An event of a format no longer known keeps the Persona column."""
    from deckcheck.games import game_of
    try:
        return game_of(format_name).persona
    except (DeckcheckError, KeyError):
        return "Persona"


@router.get("/desk/{event_id}/admin/table", response_class=HTMLResponse)
def dashboard_table(request: Request, desk: DeskDep, pages: PagesDep, event_id: str, verdict: str = "",
                    q: str = "", shown: str = "") -> Response:
    """The table alone, for htmx to swap in every few seconds; with it, when the event has moved on from the state
    the page shows (`shown`: open, locked, closed), the organiser's actions for the new state (the draw form)."""
    event = organiser(request, desk, event_id)
    state = "closed" if event.closed_at else ("locked" if event.locked_at else "open")
    return page(pages, "table.html", dashboard_context(desk, event, verdict, q)
                | {"lock_changed": bool(shown) and shown != state})


@router.get("/desk/{event_id}/admin/decks/{deck_id}", response_class=HTMLResponse)
def organiser_deck(request: Request, desk: DeskDep, pages: PagesDep, event_id: str, deck_id: str) -> Response:
    """One deck in full for the organiser: report, decklist, and the player's earlier submissions."""
    event = organiser(request, desk, event_id)
    submission = desk.submission(event_id, deck_id)
    history = desk.history(submission)
    at = next((n for n, s in enumerate(history) if s.id == submission.id), 0)
    from deckcheck.games import game_of
    comparable = game_of(event.format).stats is not None  # what changed is told in draw odds: a game's statistics
    return page(pages, "deck.html", {"event": event, "submission": submission, "history": history,
                                     "previous": history[at - 1] if at > 0 and comparable else None,
                                     "comparable": comparable})


@router.get("/desk/{event_id}/admin/diff", response_class=HTMLResponse)
def organiser_diff(request: Request, desk: DeskDep, pages: PagesDep, event_id: str, a: str, b: str,
                   hand: int | None = None, exertion: int | None = None) -> Response:
    """What changed between two submissions (a player's earlier deck and a later one): cards, verdicts, odds."""
    from urllib.parse import urlencode
    event = organiser(request, desk, event_id)
    before, after = desk.submission(event_id, a), desk.submission(event_id, b)
    diff = desk.compare(event_id, a, b, hand, exertion)
    query = urlencode({k: v for k, v in (("a", a), ("b", b), ("hand", hand), ("exertion", exertion))
                       if v is not None})
    return page(pages, "diff.html", {"event": event, "before": before, "after": after, "diff": diff,
                                     "json_url": f"/api/events/{event_id}/diff?{query}",
                                     "before_href": f"/desk/{event_id}/admin/decks/{before.id}",
                                     "after_href": f"/desk/{event_id}/admin/decks/{after.id}"})


@router.get("/desk/{event_id}/admin/print", response_class=HTMLResponse)
def print_decklists(request: Request, desk: DeskDep, pages: PagesDep, event_id: str, raw: bool = False,
                    deck: str = "") -> Response:
    """Every current decklist (or one, `deck`), one per printed page, for the judges: the cleaned list by section,
    grouped by type in the order a deck is counted, with counts and totals, the verdict, a column to tick at a deck
    check; the text as sent with ?raw=1."""
    event = organiser(request, desk, event_id)
    submissions = desk.list_submissions(event_id)
    if deck:
        submissions = [s for s in submissions if s.id == deck]
        if not submissions:
            raise DeskError(f"no current deck {deck[:40]!r} in this event")
    groups = {s.id: counting_groups(s.registered, desk.card_types(event, s)) for s in submissions}
    return page(pages, "print.html", {"event": event, "submissions": submissions, "raw": raw, "groups": groups,
                                      "checks": desk.checks_by_entry(event_id)})


@router.get("/desk/{event_id}/admin/report.{kind}")
def organiser_report(request: Request, desk: DeskDep, event_id: str, kind: str) -> Response:
    """The report download from the dashboard (the organiser's cookie)."""
    organiser(request, desk, event_id)
    if kind not in REPORT_KINDS:
        raise DeskError(f"no report {kind[:20]!r}")
    return report_response(desk, event_id, kind)


@router.post("/desk/{event_id}/admin/close")
async def close_page(request: Request, desk: DeskDep, event_id: str) -> Response:
    """Close the event from the dashboard (the form carries the CSRF token)."""
    await run_in_threadpool(organiser, request, desk, event_id)
    check_csrf(request, await request.form(max_files=0, max_fields=5))
    await run_in_threadpool(desk.close_event, event_id)
    return RedirectResponse(f"/desk/{event_id}/admin", status_code=303, headers=SECURITY_HEADERS)
