"""Decks you build and keep (CONTRACTS §10): `/api/decks` and its versions, changes, restores and copies.

Every route asks the library (deckcheck.library.decks.DeckBook) with the Person the request is (web/deps.person):
another's private deck answers 404 as if there were none; a deck one may read but not change answers 403.
Decks are read against the server's shared catalogue, so a change to a 60-card deck reads no card from the
database.
"""
from __future__ import annotations

from typing import Any, TypeVar

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ValidationError
from starlette.concurrency import run_in_threadpool

from deckcheck.db.keptdecks import KeptDeck
from deckcheck.library.decks import DeckBook, DeckNotFound, NotYourDeck, report_dict, verdict
from deckcheck.library.people import Person

from . import models
from .app import request_json
from .checkinput import DECK_ID
from .deps import BookDep, PersonDep
from .errors import BadRequest, WrongMedia

router = APIRouter(route_class=models.ApiRoute)
NAV = [("Decks", "/decks")]
Body = TypeVar("Body", bound=BaseModel)


async def body_of(request: Request, model: type[Body]) -> Body:
    """The request's JSON body as `model`; WrongMedia (415) for another content type, BadRequest saying what is
    wrong with the body."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise WrongMedia(f"send application/json: {example(model)}")
    try:
        data = await request_json(request)
    except ValueError as exc:
        raise BadRequest(f"the body is not valid JSON: {exc}") from None
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "the body"
        raise BadRequest(f"{where}: {first.get('msg', 'invalid')} (send {example(model)})") from None


def example(model: type[BaseModel]) -> str:
    """The keys a body model takes, for a message: {"card", "delta", "section"?}."""
    keys = [f'"{name}"' + ("" if field.is_required() else "?") for name, field in model.model_fields.items()]
    return "{" + ", ".join(keys) + "}"


def key_of(deck_id: str) -> str:
    """A deck id from a path; DeckNotFound (404) for anything no deck could have."""
    if not DECK_ID.match(deck_id):
        raise DeckNotFound(deck_id[:40])
    return deck_id


def signed_in(person: Person) -> Person:
    """The person, when they may keep decks; NotYourDeck (403) for an anonymous visitor."""
    if not person.known:
        raise NotYourDeck("keeping a deck needs an account: sign in (/signin), or ask the server's keeper for one")
    return person


def deck_view(book: DeckBook, deck: KeptDeck, version: int | None = None) -> dict[str, Any]:
    """The object of `GET /api/decks/{id}`: the deck (or one version of it) and its report, read now."""
    found = None if version is None or version == deck.version else book.kept.version(deck.id, version)
    if version is not None and found is None and version != deck.version:
        raise DeckNotFound(deck.id, version)
    return {"id": deck.id, "name": deck.name, "format": found.format if found else deck.format,
            "visibility": deck.visibility, "decklist": found.text if found else deck.text,
            "version": found.version if found else deck.version, "versions": book.count(deck.id),
            "copied_from": deck.copied_from, "report": report_dict(book, deck, found)}


def created(book: DeckBook, deck: KeptDeck) -> JSONResponse:
    """201 and the new deck's object."""
    return JSONResponse({"id": deck.id, "name": deck.name, "format": deck.format, "visibility": deck.visibility,
                         "version": deck.version, "report": report_dict(book, deck)}, status_code=201,
                        headers={"Location": f"/api/decks/{deck.id}"})


def summary(book: DeckBook, deck: KeptDeck) -> dict[str, Any]:
    """One row of `GET /api/decks`."""
    legal, unverified = verdict(book, deck)
    return {"id": deck.id, "name": deck.name, "format": deck.format, "visibility": deck.visibility,
            "version": deck.version, "updated_at": deck.updated_at, "legal": legal, "unverified": unverified}


@router.post("/api/decks", tags=["api"], summary="Keep a deck: a name, a list, a visibility (version 1)",
             status_code=201, response_model=models.DeckCreated, responses=models.errors(400, 403, 415),
             openapi_extra=models.body(models.DeckRequest))
async def api_create(request: Request, book: BookDep, person: PersonDep) -> JSONResponse:
    """`{"name", "decklist", "format"?, "visibility"?}` → 201; 400 naming the lines that do not resolve."""
    got = await body_of(request, models.DeckRequest)
    deck = await run_in_threadpool(book.create, signed_in(person), got.name, got.decklist, got.format,
                                   got.visibility or "link")
    return await run_in_threadpool(created, book, deck)


@router.get("/api/decks", tags=["api"], summary="Your decks, or the public decks (?public=1)",
            response_model=list[models.DeckSummary])
def api_list(book: BookDep, person: PersonDep,
             public: bool = Query(False, description="The public decks of everyone, newest first.")) -> list[Any]:
    """The caller's decks by name (an anonymous visitor has none), or the public decks."""
    return [summary(book, d) for d in (book.public() if public else book.mine(person))]


@router.get("/api/decks/{deck_id}", tags=["api"], summary="A saved deck and its report",
            response_model=models.SavedDeck, responses=models.errors(400, 404))
def api_deck(book: BookDep, person: PersonDep, deck_id: str,
             version: int | None = Query(None, ge=1, le=1_000_000, description="A version; default the latest.")
             ) -> dict[str, Any]:
    """The deck, its list and its §3 report checked now (404 if none has that id, or it is another's private deck)."""
    return deck_view(book, book.get(person, key_of(deck_id)), version)


@router.put("/api/decks/{deck_id}", tags=["api"], summary="Change a deck's list, name, visibility or format",
            response_model=models.SavedDeck, responses=models.errors(400, 403, 404, 415),
            openapi_extra=models.body(models.DeckUpdate))
async def api_update(request: Request, book: BookDep, person: PersonDep, deck_id: str) -> dict[str, Any]:
    """`{"decklist"?, "name"?, "visibility"?, "format"?}` (the owner's) → 200; a new version when the list changed."""
    got = await body_of(request, models.DeckUpdate)
    deck, _new = await run_in_threadpool(book.update, signed_in(person), key_of(deck_id), got.decklist, got.name,
                                         got.visibility, got.format)
    return await run_in_threadpool(deck_view, book, deck)


@router.post("/api/decks/{deck_id}/changes", tags=["api"], summary="Add or remove copies of one card (the builder)",
             response_model=models.ChangeResult, responses=models.errors(400, 403, 404, 415),
             openapi_extra=models.body(models.CardChangeRequest))
async def api_change(request: Request, book: BookDep, person: PersonDep, deck_id: str) -> dict[str, Any]:
    """`{"card", "delta", "section"?}` → 200 the new version and its report; a card that does not resolve → 400 with
    the suggestions its decklist line would get, nothing changed."""
    got = await body_of(request, models.CardChangeRequest)
    deck, _new = await run_in_threadpool(book.change, signed_in(person), key_of(deck_id), got.card, got.delta,
                                         got.section)
    report = await run_in_threadpool(report_dict, book, deck)
    return {"version": deck.version, "report": report, "decklist": deck.text}


@router.get("/api/decks/{deck_id}/versions", tags=["api"], summary="A deck's versions and what each changed",
            response_model=list[models.VersionRow], responses=models.errors(404))
def api_versions(book: BookDep, person: PersonDep, deck_id: str) -> list[Any]:
    """Every version, the first first: when, its verdict now, and its changes ("+2 Thrust, −1 Dodge")."""
    return [v.as_dict() for v in book.history(person, key_of(deck_id))]


@router.post("/api/decks/{deck_id}/restore", tags=["api"], summary="A new version equal to an older one",
             response_model=models.SavedDeck, responses=models.errors(400, 403, 404, 415),
             openapi_extra=models.body(models.RestoreRequest))
async def api_restore(request: Request, book: BookDep, person: PersonDep, deck_id: str) -> dict[str, Any]:
    """`{"version": N}` (the owner's) → 200, the deck at its new version, equal to N."""
    got = await body_of(request, models.RestoreRequest)
    deck, _new = await run_in_threadpool(book.restore, signed_in(person), key_of(deck_id), got.version)
    return await run_in_threadpool(deck_view, book, deck)


@router.post("/api/decks/{deck_id}/copy", tags=["api"], summary="Copy a deck you may see into one of yours",
             status_code=201, response_model=models.DeckCreated, responses=models.errors(400, 403, 404, 415),
             openapi_extra=models.body(models.CopyRequest))
async def api_copy(request: Request, book: BookDep, person: PersonDep, deck_id: str) -> JSONResponse:
    """`{"name"?}` (or no body) → 201, a private deck of the caller's at version 1, `copied_from` the origin."""
    got = await body_of(request, models.CopyRequest) if await request.body() else models.CopyRequest(name=None)
    deck = await run_in_threadpool(book.copy, signed_in(person), key_of(deck_id), got.name)
    return await run_in_threadpool(created, book, deck)
