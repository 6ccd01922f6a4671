"""Card facts from the players who hold the cards (CONTRACTS §6, revision 3): fill-in forms, review, JSON twins.

Pages: the fill-in form of one card (`/cards/{id}/facts`, with the card's history), the same form for the
cards a check left unverified (`POST /check/facts` on the check page, `POST /decks/{id}/facts` on a saved
deck's page: the deck is checked again at once and the page says which rules are now decided), and the
organiser's review (`/cards/proposals`). JSON: `POST /api/cards/{id}/facts`, `GET /api/proposals`,
`POST /api/proposals/{pid}/accept|reject`, `GET /api/cards/facts.csv` (.tsv, .xlsx).

A server without an admin token applies answers at once; with one (a club) they wait as proposals, count in
their author's own checks (the `deckcheck_by` cookie on pages, `"facts_by"` in `POST /api/check`) and for
everyone once accepted. Every page and its twin call deckcheck.library.facts.
"""
from __future__ import annotations

import hashlib
import hmac
import re
from typing import Any
from urllib.parse import quote, unquote

from fastapi import APIRouter, Query, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData
from starlette.exceptions import HTTPException

from deckcheck.library.api import CardSource, Overlaid
from deckcheck.cards import Card, conflicts
from deckcheck.cells import NONE, is_none_word
from deckcheck.library.facts import (CHOICES, FACT_FIELDS, FORM_FIELDS, GROUP_WORDS, LABELS, MAX_BY, Author, FactError,
                                     Facts, clean_by, facts_sheet, form_fields_of, shown, value_text)
from deckcheck.errors import DeckcheckError
from deckcheck.library.people import Person
from deckcheck.rates import Rate, Windows
from deckcheck.report import Report
from deckcheck.stats import EXERTION, HAND
from deckcheck.text import is_digits

from . import models
from .app import request_json
from .cardface import form_fields
from .decks import FIX_LINES, PASTED
from .deckview import deck_page
from .deps import BookDep, Deckcheck, PagesDep, PersonDep, ServerDep, person_of
from .policy import Mode
from . import checkinput as checking
from .errors import NotAllowed, NotFound, NoToken, TooMany, WrongMedia
from .security import check_csrf

router = APIRouter(route_class=models.ApiRoute)

BY_COOKIE = "deckcheck_by"  # the name a person gave with their answers: their pending answers count in their checks
ADMIN_COOKIE = "deckcheck_admin"
ACCOUNT_KEY = re.compile(r"@[0-9]{1,12}")  # an account's answers on the review page's "Accept all from" (Author.key)
MAX_CARDS = 60  # cards in one fill-in form
MAX_FORM_FIELDS = MAX_CARDS * 16 + 20
SQUARES = ("UL", "UC", "UR", "ML", "MC", "MR", "LL", "LC", "LR")
RESTRICTIONS = CHOICES["restriction"]
HAND_ICONS = CHOICES["hand_icons"]
ORGANISER = "the organiser"
PAGE_LIMIT = 500  # answers the review page lists at once (the newest; accepting them brings up the next)


# -- who, and the organiser ------------------------------------------------------------------------
def is_club(srv: Deckcheck) -> bool:
    """Whether answers wait for review: a club's server (an admin token, or accounts; CONTRACTS §9)."""
    return srv.mode() is Mode.CLUB


def author(who: Person, sent: object, what: str = "name") -> Author:
    """Who gives answers: a signed-in account as itself (never a name it typed), else the name sent (FactError when
    it cannot be a name)."""
    if who.account_id is not None:
        return Author.of_account(who.account_id, who.name)
    return Author.typed(sent, what)


def review_as(request: Request, srv: Deckcheck, who: Person) -> str:
    """The name a review is recorded with: a reviewer's account, else the admin token's bearer (the organiser);
    NoToken or NotAllowed for anyone else."""
    if who.account_id is not None and who.can("reviewer"):
        return who.name
    if srv.settings.admin_token is None and is_club(srv):
        raise NotAllowed("reviewing answers needs the reviewer role: ask the server's keeper for it")
    authorise(srv, bearer(request))
    return ORGANISER


def facts_of(srv: Deckcheck) -> Facts:
    return Facts(srv.catalog.store)


def bearer(request: Request) -> str | None:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def authorise(srv: Deckcheck, sent: str | None) -> None:
    """Nothing when `sent` is the admin token; else NoToken (none sent) or NotAllowed (wrong, or no token here)."""
    token = srv.settings.admin_token
    if token is None:
        raise NotAllowed("this server has no admin token: answers are applied at once, there is nothing to review")
    if not sent:
        raise NoToken("send the admin token: Authorization: Bearer ADMIN_TOKEN")
    if not hmac.compare_digest(sent.encode("utf-8", "surrogatepass"), token.encode()):
        raise NotAllowed("wrong admin token")


def admin_cookie_value(token: str) -> str:
    """What the review page's cookie holds: a digest of the admin token, never the token itself."""
    return hmac.new(token.encode(), b"deckcheck review", hashlib.sha256).hexdigest()


def is_organiser(request: Request, srv: Deckcheck) -> bool:
    token = srv.settings.admin_token
    sent = request.cookies.get(ADMIN_COOKIE, "")
    return token is not None and hmac.compare_digest(sent.encode("utf-8", "surrogatepass"),
                                                     admin_cookie_value(token).encode())


def known_author(request: Request) -> Author | None:
    """Whose pending answers this browser's checks count: the signed-in account's, else those of the name it gave
    with its answers (its cookie); None when neither."""
    who: Person = request.state.person
    if who.account_id is not None:
        return Author.of_account(who.account_id, who.name)
    try:
        return Author.typed(unquote(request.cookies.get(BY_COOKIE, "")))
    except FactError:
        return None


def known_by(request: Request) -> str:
    """The name the fill-in form is filled with: the signed-in account's, else this browser's cookie's, or ""."""
    known = known_author(request)
    return known.name if known else ""


ANSWER_RATE = Rate(60, 60)  # answers per address in this process (the web guard limits more)
ANSWERS = Windows()


def count_answer(request: Request) -> None:
    if ANSWERS.hit("answer", request.client.host if request.client else "-", ANSWER_RATE):
        raise TooMany("too many answers from your address in a minute; wait a little")


# -- checking with one person's pending answers -----------------------------------------------------
def catalog_for(srv: Deckcheck, by: Author | None) -> tuple[Any, int]:
    """The catalogue a check by `by` sees, and how many of their pending answers it counts (club servers only)."""
    catalog = srv.catalog
    if not by or not is_club(srv):
        return catalog, 0
    rows = facts_of(srv).overlay(by)
    if not rows:
        return catalog, 0
    return Overlaid(catalog, rows), sum(len(r.fields) for r in rows)


def counted_notice(by: Author, n: int) -> str:
    return (f"counted {n} answer{'s' if n != 1 else ''} by {by.name} that the organiser has not reviewed yet "
            "(they count in your own checks only, until accepted)")


def check_as(srv: Deckcheck, got: checking.CheckInput, by: Author | None) -> list[Report]:
    """Check what a page sent, with `by`'s pending answers on a club server (a notice says how many)."""
    catalog, counted = catalog_for(srv, by)
    reports = checking.check_input(catalog, got, True)
    if counted and by is not None:
        for report in reports:
            report.notices.append(counted_notice(by, counted))
    return reports


def own_check(request: Request, srv: Deckcheck, got: checking.CheckInput) -> list[Report]:
    """The check page's check: with this browser's pending answers on a club server."""
    return check_as(srv, got, known_author(request))


def saved_report(srv: Deckcheck, deck_id: str, by: Author | None, person: Person,
                 missing: str = "no saved deck has that link") -> tuple[checking.CheckInput, Report]:
    """A saved deck and its report, with `by`'s pending answers on a club server (NoSavedDeckError: none the
    person may see)."""
    got, report = checking.saved_deck_data(srv.catalog, srv.collections, deck_id, person, missing)
    if by and is_club(srv):
        report = check_as(srv, got, by)[0]
        report.deck = f"/decks/{deck_id}"
    return got, report


def own_saved_report(request: Request, srv: Deckcheck, deck_id: str) -> tuple[checking.CheckInput, Report]:
    """A saved deck and its report, with this browser's pending answers on a club server."""
    return saved_report(srv, deck_id, known_author(request), person_of(request, srv))


# -- the fill-in form -----------------------------------------------------------------------------------
OPEN_CARDS = 4  # cards of a group shown at once; the others fold away under a summary (details, no JavaScript)


def printings_of(catalog: CardSource, card: Card) -> list[Card]:
    """The printings of a card that a line of its name may mean (the card itself first), where they truly differ: two
    of them state a fact differently (cards.conflicts), so the player says which one their copies are. Printings
    that agree are one question: an answer for the card is every such printing's (a reprint carries its facts)."""
    try:
        named = [c for c in catalog.find(card.name) if c.card_key == card.card_key]
    except DeckcheckError:
        return []
    if len(named) < 2 or card.id not in {c.id for c in named} or not conflicts(named):
        return []
    return sorted(named, key=lambda c: c.id != card.id)  # stable: the catalogue's order after the card


def form_cards(report: Report, catalog: CardSource | None = None) -> dict[str, Any]:
    """The fill-in form of the cards a report's unverified rules wait on, grouped by what is missing (what a
    player reads off the card). The groups that decide a rule with the fewest answers come first; in a group, the
    cards played in the most copies. {"cards": [{"n", "card"}] (each card's number in the form), "total" (cards
    waiting, also past the form's limit), "groups": [{"field", "title", "hint", "count", "shown", "folded"}]},
    each item of `shown`/`folded` {"n", "card", "copies", "printings", "lines"} (`lines`: the pasted decklist's
    lines of the card that name no set, which one button rewrites to name a printing, at most FIX_LINES of them; []
    for an uploaded file); falsy when nothing can be filled in."""
    waiting = [(card, [f for f in form_fields(card, FORM_FIELDS)[0] if f in columns])
               for card, columns in report.details.unverified_cards]
    waiting = [(card, fields) for card, fields in waiting if fields]
    if not waiting:
        return {}
    copies = report.details.unverified_copies
    lines = report.details.unverified_lines if report.deck == PASTED else {}  # an uploaded file is not rewritten
    cards: list[dict[str, Any]] = [{"n": n, "card": card, "fields": fields,
                                    "printings": printings_of(catalog, card) if catalog is not None else []}
                                   for n, (card, fields) in enumerate(waiting[:MAX_CARDS])]
    groups: list[dict[str, Any]] = []
    for field in FORM_FIELDS:
        items: list[dict[str, Any]] = [{"n": c["n"], "card": c["card"], "copies": copies.get(c["card"].id, 0),
                                        "printings": c["printings"], "lines": lines.get(c["card"].id, [])[:FIX_LINES]}
                                       for c in cards if field in c["fields"]]
        if not items:
            continue
        items.sort(key=lambda i: -i["copies"])  # stable: the deck's order among equals
        cut = len(items) if len(items) <= OPEN_CARDS + 1 else OPEN_CARDS  # never fold away a single card
        title, hint = GROUP_WORDS[field]
        groups.append({"field": field, "title": title, "hint": hint, "count": len(items),
                       "shown": items[:cut], "folded": items[cut:]})
    groups.sort(key=lambda g: g["count"])  # stable: FORM_FIELDS order among equals
    asked: set[int] = set()
    for g in groups:  # a card of several printings: which one is asked in its first row, the id of the others hidden
        for item in g["shown"] + g["folded"]:
            item["choose"] = bool(item["printings"]) and item["n"] not in asked
            asked.add(item["n"])
    return {"cards": cards, "total": len(waiting), "groups": groups}


def read_fact_form(form: FormData) -> tuple[dict[str, dict[str, str]], list[str]]:
    """The answers of a fill-in form: card id -> field -> value (fields left at "not sure" are not answers),
    and the problems of values that are not among the form's choices."""
    answers: dict[str, dict[str, str]] = {}
    problems: list[str] = []
    for n in range(MAX_CARDS):
        card_id = form.get(f"f{n}.id")
        if not isinstance(card_id, str) or not card_id:
            continue
        card_id = card_id[:200]
        values: dict[str, str] = {}
        for field in FORM_FIELDS:
            if field == "grid":
                squares = [s for s in form.getlist(f"f{n}.grid") if isinstance(s, str)]
                if any(s not in SQUARES for s in squares):
                    problems.append(f"{card_id}: grid: squares are {' '.join(SQUARES)}")
                elif squares:
                    values["grid"] = " ".join(s for s in SQUARES if s in squares)
                continue
            raw = form.get(f"f{n}.{field}")
            if not isinstance(raw, str) or not raw.strip():
                continue
            if field == "restriction" and is_none_word(raw):  # `none`, `-`, `none printed`: one way to write it
                raw = NONE
            choices = CHOICES.get(field)
            if choices is not None and raw.strip() not in choices:
                problems.append(f"{card_id}: {LABELS[field]}: {raw.strip()[:40]!r} is not one of {', '.join(choices)}")
                continue
            values[field] = raw.strip()
        if values:
            answers[card_id] = values
    return answers, problems


def submit_answers(srv: Deckcheck, answers: dict[str, dict[str, str]],
                   by: Author) -> tuple[list[dict[str, Any]], list[Any], list[str]]:
    """Store (or propose) the answers about several cards in one transaction: (applied, proposals, problems); a
    bad card's answers are its problem, the others' are kept."""
    by_id = {c.id: c for c in srv.catalog.cards()}
    problems = [f"no card has the id {card_id!r}" for card_id in answers if card_id not in by_id]
    done, bad = facts_of(srv).submit_many([(by_id[i], v) for i, v in answers.items() if i in by_id], by,
                                          review=is_club(srv))
    problems += [f"{card.name}: {exc}" for card, exc in bad]
    if done.applied:
        srv.cards_changed()
    return done.applied, done.proposals, problems


def decided_message(before: list[str], after: list[str]) -> str:
    from deckcheck.unverified import rule_words
    decided = [r for r in before if r not in after]
    if not decided:
        return ""
    words = rule_words()
    return "Now decided: " + ", ".join(f"{r} ({words[r].replace(' not checked', '')})" if r in words else r
                                       for r in decided) + "."


def saved_message(applied: list[Any], proposals: list[Any], by: Author) -> str:
    if proposals:
        return (f"Thank you, {by.name}: {len(proposals)} value{'s' if len(proposals) != 1 else ''} wait for the "
                "organiser's review. They count in your own checks now (marked as yours), and in everyone's once "
                "accepted.")
    if applied:
        return f"Saved {len(applied)} value{'s' if len(applied) != 1 else ''} from {by.name}."
    return "Nothing changed: the values given were already stored."


def with_by_cookie(response: Response, by: Author) -> Response:
    """The name typed, kept for the next answers (a signed-in account is known by its session instead)."""
    if not by.signed_in:
        response.set_cookie(BY_COOKIE, quote(by.name, safe=""), max_age=365 * 86400, httponly=True,
                            samesite="strict")
    return response


def form_context(request: Request, srv: Deckcheck, **extra: Any) -> dict[str, Any]:
    """What the fill-in form needs on any page (`facts_here`: this page shows it; `facts_wrap`: in a form of
    its own posting there, rather than inside the checker's form)."""
    return {"fact_labels": LABELS, "fact_choices": CHOICES, "fact_words": GROUP_WORDS, "squares": SQUARES,
            "restrictions": RESTRICTIONS, "hand_icons": HAND_ICONS,
            "facts_by": known_by(request), "is_club": is_club(srv),
            "form_cards": lambda report: form_cards(report, srv.catalog),
            "by_max": MAX_BY, "facts_here": False, "facts_wrap": "", **extra}


async def read_form(request: Request) -> FormData:
    """A fill-in or review form, bounded; a form that cannot be read is a 400."""
    try:
        return await request.form(max_files=0, max_fields=MAX_FORM_FIELDS, max_part_size=64 * 1024)
    except Exception as exc:
        if getattr(exc, "status_code", None) == 413:
            raise
        raise HTTPException(400, f"the form could not be read ({getattr(exc, 'detail', None) or exc})") from exc


@router.post("/check/facts", summary="Fill in card facts from the check page, and check the deck again")
async def check_facts(request: Request, srv: ServerDep, pages: PagesDep) -> Response:
    """The check page's form with the answers: store (or propose) them, check again, say what is now decided."""
    got, form = await checking.read_input(request, srv.settings.upload_limit)
    check_csrf(request, form)
    count_answer(request)
    assert form is not None
    problems: list[str] = []
    message = ""
    by: Author | None = None
    try:
        by = author(request.state.person, form.get("facts_by"))
    except FactError as exc:
        problems = [str(exc)]
    before: list[Report] = []
    if by:
        answers, problems = read_fact_form(form)
        before = await run_in_threadpool(check_as, srv, got, by) if got.has_deck else []
        applied, proposals, more = await run_in_threadpool(submit_answers, srv, answers, by)
        problems += more
        message = saved_message(applied, proposals, by) if answers else "No value was given."
    reports = await run_in_threadpool(check_as, srv, got, by or known_author(request)) if got.has_deck else []
    if reports and before:
        message = " ".join(filter(None, (message, decided_message(before[0].unverified, reports[0].unverified))))
    context = checking.page_context(got, reports, **form_context(request, srv, facts_message=message,
                                                                 facts_problems=problems,
                                                                 facts_here=len(reports) == 1))
    if by:
        context["facts_by"] = by.name
    target = request.headers.get("HX-Target", "") if request.headers.get("HX-Request") == "true" else ""
    response = pages("_checker.html" if target == "checker" else "check.html", context,
                     status_code=400 if problems and not message else 200)
    return with_by_cookie(response, by) if by else response


@router.post("/decks/{deck_id}/facts", summary="Fill in card facts from a saved deck's page")
async def deck_facts(request: Request, srv: ServerDep, book: BookDep, person: PersonDep, pages: PagesDep,
                     deck_id: str) -> Response:
    """The saved deck's form with the answers: store (or propose) them, then its page, checked again."""
    form = await read_form(request)
    check_csrf(request, form)
    count_answer(request)
    by = author(request.state.person, form.get("facts_by"))
    answers, problems = read_fact_form(form)
    _got, before = await run_in_threadpool(saved_report, srv, deck_id, by, person_of(request, srv))
    applied, proposals, more = await run_in_threadpool(submit_answers, srv, answers, by)
    got, report = await run_in_threadpool(saved_report, srv, deck_id, by, person_of(request, srv))
    message = saved_message(applied, proposals, by) if answers else "No value was given."
    message = " ".join(filter(None, (message, decided_message(before.unverified, report.unverified))))
    page = await run_in_threadpool(deck_page, book, person, deck_id, HAND, EXERTION, None)
    context = checking.page_context(got, [report], deck_id=deck_id, page=page, **form_context(
        request, srv, facts_message=message, facts_problems=problems + more, facts_here=True,
        facts_wrap=f"/decks/{deck_id}/facts"))
    context["facts_by"] = by.name
    return with_by_cookie(pages("deck.html", context), by)


# -- one card's form and history ------------------------------------------------------------------
def card_of(srv: Deckcheck, card_id: str) -> Card:
    from .cards import listed
    card = listed(srv.catalog).by_id.get(card_id)
    if card is None:
        raise NotFound(f"no card has the id {card_id[:200]!r}")
    return card


def card_facts_context(request: Request, srv: Deckcheck, card: Card, **extra: Any) -> dict[str, Any]:
    facts = facts_of(srv)
    sources = srv.catalog.sources([card.id]).get(card.id, {})
    from .cards import columns_of
    allowed = form_fields_of(card)
    asked, others = (tuple(f for f in fs if f in allowed) for fs in form_fields(card, columns_of(card)))
    current = {f: value_text(card, f) for f in (*asked, *others)}
    pending = facts.proposals(status="pending", card_id=card.id) if is_club(srv) else []
    return form_context(request, srv, the_card=card, current=current, shown=shown, sources=sources,
                        asked=asked, others=others,
                        history=facts.history(card.id), pending=pending, **extra)


@router.get("/cards/proposals", summary="The organiser's review of players' answers (admin token)")
def proposals_page(request: Request, srv: ServerDep, pages: PagesDep, who: PersonDep,
                   status: str = Query("pending", max_length=20), token: str = Query("", max_length=500)) -> Response:
    """Pending (or decided) answers: card, field, stored value and its source, proposed value, who, when."""
    admin = srv.settings.admin_token
    if token and admin is not None:  # the organiser link: the token becomes a cookie, then leaves the URL
        authorise(srv, token)
        return organiser_cookie(RedirectResponse("/cards/proposals", status_code=303), admin)
    chosen = status if status in ("pending", "accepted", "rejected") else "pending"
    organiser = is_organiser(request, srv) or (who.account_id is not None and who.can("reviewer"))
    proposals = facts_of(srv).proposals(status=chosen, limit=PAGE_LIMIT) if organiser else []
    people = sorted({(p.by_key, p.by) for p in proposals if p.status == "pending"},
                    key=lambda person: (person[1].casefold(), person[0]))  # (key, name): the button sends the key
    return pages("proposals.html", {"organiser": organiser, "club": is_club(srv), "proposals": proposals,
                                    "status": chosen, "people": people, "shown": shown, "labels": LABELS,
                                    "page_limit": PAGE_LIMIT})


def organiser_cookie(response: Response, admin: str) -> Response:
    response.set_cookie(ADMIN_COOKIE, admin_cookie_value(admin), path="/cards/proposals", httponly=True,
                        samesite="strict")
    return response


@router.post("/cards/proposals", summary="Sign in to the review with the admin token")
async def proposals_login(request: Request, srv: ServerDep) -> Response:
    form = await read_form(request)
    check_csrf(request, form)
    sent = form.get("admin_token")
    authorise(srv, sent if isinstance(sent, str) else None)
    return organiser_cookie(RedirectResponse("/cards/proposals", status_code=303), str(srv.settings.admin_token))


@router.post("/cards/proposals/decide", summary="Accept or reject answers (the review page's buttons)")
async def proposals_decide(request: Request, srv: ServerDep, who: PersonDep) -> Response:
    """`accept=PID`, `reject=PID` or `accept_all=NAME`, with the organiser's cookie (or as a reviewer) and the CSRF
    token."""
    form = await read_form(request)
    check_csrf(request, form)
    reviewer = who.name if who.account_id is not None and who.can("reviewer") else ORGANISER
    if reviewer == ORGANISER and not is_organiser(request, srv):
        raise NotAllowed("sign in to the review with the admin token first")
    facts = facts_of(srv)
    everyone = form.get("accept_all")
    if isinstance(everyone, str) and everyone:
        whose = everyone if ACCOUNT_KEY.fullmatch(everyone) else clean_by(everyone)  # an account's key, or a name
        await run_in_threadpool(facts.accept_all, whose, reviewer)
    else:
        for action in ("accept", "reject"):
            pid = form.get(action)
            if isinstance(pid, str) and pid:
                if not is_digits(pid) or len(pid) > 12:
                    raise FactError(f"{action}: a proposal id is a number in the digits 0-9, not {pid[:40]!r}")
                await run_in_threadpool(facts.decide, int(pid), action == "accept", reviewer)
                break
        else:
            raise FactError("say what to do: accept, reject or accept_all")
    srv.cards_changed()
    return RedirectResponse("/cards/proposals", status_code=303)


@router.get("/cards/{card_id:path}/facts", summary="Fill in a card's facts from the card in hand; its history")
def card_facts_page(request: Request, srv: ServerDep, pages: PagesDep, card_id: str,
                    saved: str = Query("", max_length=20)) -> Response:
    """The form with what a player reads off the card, and each field's changes old → new, who, when, source."""
    card = card_of(srv, card_id)
    message = {"applied": "Saved.", "proposed": "Thank you: your answers wait for the organiser's review; they "
               "count in your own checks now.", "none": "Nothing changed."}.get(saved, "")
    return pages("card_facts.html", card_facts_context(request, srv, card, facts_message=message))


@router.post("/cards/{card_id:path}/facts", summary="Fill in a card's facts (the card page's form)")
async def card_facts_submit(request: Request, srv: ServerDep, pages: PagesDep, card_id: str) -> Response:
    form = await read_form(request)
    check_csrf(request, form)
    count_answer(request)
    card = card_of(srv, card_id)
    try:
        by = author(request.state.person, form.get("facts_by"))
    except FactError as exc:
        return pages("card_facts.html", card_facts_context(request, srv, card, facts_problems=[str(exc)]),
                     status_code=400)
    answers, problems = read_fact_form(form)
    answers = {k: v for k, v in answers.items() if k == card.id}
    applied: list[dict[str, Any]] = []
    proposals: list[Any] = []
    if not problems:
        applied, proposals, problems = await run_in_threadpool(submit_answers, srv, answers, by)
    if problems:
        return pages("card_facts.html", card_facts_context(request, srv, card, facts_problems=problems),
                     status_code=400)
    saved = "proposed" if proposals else ("applied" if applied else "none")
    return with_by_cookie(RedirectResponse(f"/cards/{quote(card.id, safe='')}/facts?saved={saved}", status_code=303),
                          by)


# -- JSON -----------------------------------------------------------------------------------------
SHEETS = {"csv": "text/csv; charset=utf-8", "tsv": "text/tab-separated-values; charset=utf-8",
          "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"}


@router.get("/api/cards/facts.{kind}", tags=["api"], response_class=Response,
            summary="Every value not from the bundle, with its provenance: facts.csv, .tsv or .xlsx",
            responses={**models.files({media: None for media in SHEETS.values()}), **models.errors(404)})
def api_facts_sheet(srv: ServerDep, kind: str) -> Response:
    """A §1a card sheet with `FIELD_source` columns, which a card import reads back: the very file
    the command line's facts export writes (a workbook's date is $SOURCE_DATE_EPOCH or 1980, so the
    same values give the same bytes)."""
    if kind not in SHEETS:
        raise NotFound(f"no sheet {'facts.' + kind[:20]!r}: facts.csv, facts.tsv or facts.xlsx")
    header, rows = facts_sheet(srv.catalog.store)
    body: str | bytes = csv_text(header, rows) if kind == "csv" else sheet_bytes(header, rows, f"card-facts.{kind}")
    return Response(body, media_type=SHEETS[kind],
                    headers={"Content-Disposition": f'attachment; filename="card-facts.{kind}"'})


def sheet_bytes(header: list[str], rows: list[list[str]], filename: str) -> bytes:
    """The facts sheet as the CLI's writer makes the file `filename` (its suffix says the kind)."""
    import tempfile
    from pathlib import Path

    from deckcheck.importers.cardsheet import write_facts_sheet
    with tempfile.TemporaryDirectory(prefix="deckcheck-facts-") as folder:
        path = Path(folder) / filename
        write_facts_sheet(path, header, rows)
        return path.read_bytes()


def csv_text(header: list[str], rows: list[list[str]]) -> str:
    """CSV text whose cells a spreadsheet never runs as formulas."""
    import io

    from deckcheck.importers.writers import write_csv_to
    out = io.StringIO()
    write_csv_to(out, header, rows)
    return out.getvalue()


@router.post("/api/cards/{card_id:path}/facts", tags=["api"], summary="Give values read off a card",
             response_model=models.FactsAnswer, responses={202: {"model": models.FactsAnswer,
                                                                 "description": "Kept as proposals (club server)"},
                                                           **models.errors(400, 404, 413, 415, 429)},
             openapi_extra=models.body(models.FactsRequest))
async def api_card_facts(request: Request, response: Response, srv: ServerDep, who: PersonDep,
                         card_id: str) -> dict[str, Any]:
    """`{"by": NAME, "values": {field: value}}`: 200 applied (no admin token) or 202 proposals (club server)."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise WrongMedia('send application/json: {"by": "NAME", "values": {"restriction": "3"}}')
    count_answer(request)
    try:
        data = await request_json(request)
    except ValueError as exc:
        raise FactError(f"the body is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise FactError('the body is an object: {"by": "NAME", "values": {...}}')
    unknown = [str(k)[:40] for k in data if k not in ("by", "values")]
    if unknown:
        raise FactError(f"unknown key(s) {', '.join(map(repr, unknown))}: send by and values")
    values = data.get("values")
    if isinstance(values, dict) and len(values) > len(FACT_FIELDS):
        raise FactError("too many values")
    card = card_of(srv, card_id)
    done = await run_in_threadpool(facts_of(srv).submit, card, values, author(who, data.get("by")),
                                  is_club(srv))
    if done.applied:
        srv.cards_changed()
    response.status_code = 202 if is_club(srv) else 200
    return done.as_dict()


@router.get("/api/proposals", tags=["api"], summary="Players' answers waiting for review (admin token)",
            response_model=models.ProposalList, responses=models.errors(400, 401, 403))
def api_proposals(request: Request, srv: ServerDep, who: PersonDep,
                  status: str = Query("pending", max_length=20)) -> dict[str, Any]:
    """`?status=pending|accepted|rejected` → {"proposals": [...]} (a reviewer, or Authorization: Bearer
    ADMIN_TOKEN)."""
    review_as(request, srv, who)
    if status not in ("pending", "accepted", "rejected"):
        raise FactError("status is pending, accepted or rejected")
    return {"proposals": [p.as_dict() for p in facts_of(srv).proposals(status=status)]}


@router.post("/api/proposals/{pid}/{action}", tags=["api"], summary="Accept or reject an answer (admin token)",
             response_model=models.Proposal, responses=models.errors(400, 401, 403, 404, 409),
             openapi_extra=models.body(models.DecideRequest))
async def api_decide(request: Request, srv: ServerDep, who: PersonDep, pid: str, action: str) -> dict[str, Any]:
    """`accept` stores the value (provenance `web:NAME @ time`, and who accepted it); `reject` does not."""
    reviewer = review_as(request, srv, who)
    if action not in ("accept", "reject"):
        raise NotFound(f"nothing at {request.url.path[:200]}: accept or reject")
    if not is_digits(pid) or len(pid) > 12:
        raise NotFound(f"no proposal has the id {pid[:40]!r}")
    decided_by = reviewer
    if reviewer == ORGANISER and request.headers.get("content-type", "").split(";")[0].strip().lower() == \
            "application/json":
        try:
            data = await request_json(request)
        except ValueError as exc:
            raise FactError(f"the body is not valid JSON: {exc}") from None
        if isinstance(data, dict) and data.get("by") is not None:
            decided_by = clean_by(data.get("by"))
    proposal = await run_in_threadpool(facts_of(srv).decide, int(pid), action == "accept", decided_by)
    if action == "accept":
        srv.cards_changed()
    return proposal.as_dict()
