"""A kept deck's own page (issue 31 item 4; CONTRACTS §10): the list grouped by section and type with counts, the
Persona, the statistics with the hand size and Exertion the reader picks, a sample opening hand drawn with a shown
seed, the versions (what each changed, compare, restore), rename, and the exports.

`GET /decks/{id}` itself stays the check page's route (web/check.py: the report and the fill-in form of the cards
that keep rules unverified); it asks web/deckview.py's `deck_page` for the rest. Exports: `/decks/{id}/decklist.txt`
(CONTRACTS §2 text, every card with its set so it reads back to the same printings), `/decks/{id}/deck.csv` (the §2
CSV: section, quantity, card, set) and `/decks/{id}/sheet` (a printable registration sheet in deck-check order: by
section, by type, totals per section). `GET /api/decks/{id}/hand` is the sample hand's JSON twin.
"""
from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from deckcheck.decks import Deck
from deckcheck.formats import AnyFormat
from deckcheck.library.api import deck_text
from deckcheck.library.decks import DeckBook
from deckcheck.library.people import Person
from deckcheck.library.statsapi import require_stats
from deckcheck.stats import HAND, in_endurance

from . import models
from .deckview import grouped, lines_of, sample_hand, seed_of
from .deps import BookDep, PagesDep, PersonDep
from .errors import BadRequest
from .facts import read_form
from .keptdecks import key_of, signed_in
from .security import check_csrf

router = APIRouter(route_class=models.ApiRoute)
TEMPLATES = Path(__file__).resolve().parent / "templates" / "deckpage"


def file_name(name: str, version: int, suffix: str) -> str:
    """A download's file name: the deck's name in letters, digits and dashes, its version, the suffix."""
    stem = re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-")[:60] or "deck"
    return f"{stem}-v{version}.{suffix}"


def exported(book: DeckBook, person: Person, key: str, version: int | None) -> tuple[Deck, AnyFormat, str]:
    """A version of a deck (None: the latest) and the file name stem of its exports."""
    kept, found = book.version(person, key, version)
    deck, fmt = book.deck_at(person, key, found.version)
    return deck, fmt, file_name(kept.name, found.version, "")[:-1]


def deck_csv(deck: Deck) -> str:
    """The deck as the §2 CSV decklist: section, quantity, card, set (one row a line, as it reads back)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["section", "quantity", "card", "set"])
    for e in deck.entries:
        writer.writerow([e.section, e.quantity, e.card.name, e.card.set or ""])
    return out.getvalue()


def download(body: str, media: str, name: str) -> Response:
    return Response(body, media_type=media, headers={"Content-Disposition": f'attachment; filename="{name}"'})


VERSION = Query(None, ge=1, le=1_000_000, description="A version; default the latest.")


@router.get("/decks/{deck_id}/decklist.txt", summary="A kept deck as a text decklist (CONTRACTS §2)")
def export_text(book: BookDep, person: PersonDep, deck_id: str, version: int | None = VERSION) -> Response:
    """The decklist text of the deck (or one version), every card with its set: it reads back to the same deck."""
    deck, fmt, stem = exported(book, person, key_of(deck_id), version)
    return download(deck_text(fmt.name, deck), "text/plain; charset=utf-8", stem + ".txt")


@router.get("/decks/{deck_id}/deck.csv", summary="A kept deck as a CSV decklist (CONTRACTS §2)")
def export_csv(book: BookDep, person: PersonDep, deck_id: str, version: int | None = VERSION) -> Response:
    """The §2 CSV of the deck (or one version): section, quantity, card, set."""
    deck, _fmt, stem = exported(book, person, key_of(deck_id), version)
    return download(deck_csv(deck), "text/csv; charset=utf-8", stem + ".csv")


@router.get("/decks/{deck_id}/sheet", summary="A kept deck's printable registration sheet")
def export_sheet(book: BookDep, person: PersonDep, pages: PagesDep, deck_id: str,
                 version: int | None = VERSION) -> Response:
    """The registration sheet in deck-check order: by section, by type, each card with its count; totals."""
    key = key_of(deck_id)
    kept, found = book.version(person, key, version)
    deck, fmt = book.deck_at(person, key, found.version)
    groups = grouped(lines_of(deck))
    return pages("sheet.html", {"kept": kept, "version": found.version, "format": fmt.name, "groups": groups,
                                "totals": {s: sum(n for _k, n, _l in types) for s, types in groups}})


@router.get("/api/decks/{deck_id}/hand", tags=["api"], summary="A sample opening hand of a kept deck, by seed",
            response_model=models.SampleHand, responses=models.errors(400, 404))
def api_hand(book: BookDep, person: PersonDep, deck_id: str,
             hand: int = Query(HAND, ge=0, le=1000, description=f"Cards drawn (default {HAND})."),
             seed: str = Query("", max_length=16, description="1-16 letters and digits; the same seed, the same "
                                                               "hand; default a new one.")) -> dict[str, Any]:
    """The hand the deck's page shows for this seed: `cards` in the order drawn from the Endurance; 400 for a deck
    of a game without statistics."""
    deck, fmt = book.deck_at(person, key_of(deck_id))
    require_stats(fmt)  # a game whose decks have an Endurance to deal from (400 naming them otherwise)
    chosen = seed_of(seed)
    return {"deck": f"/decks/{deck_id}", "seed": chosen, "hand": hand,
            "endurance": sum(e.quantity for e in deck.entries if in_endurance(e)),
            "cards": sample_hand(deck, hand, chosen)}


@router.post("/decks/{deck_id}/rename", summary="Rename a kept deck or change who sees it (the page's form)")
async def rename(request: Request, book: BookDep, person: PersonDep, deck_id: str) -> Response:
    """`name` and `visibility` (the owner's): no new version (the list is the same); back to the deck's page."""
    form = await read_form(request)
    check_csrf(request, form)
    name = str(form.get("name") or "").strip() or None
    visibility = str(form.get("visibility") or "") or None
    await run_in_threadpool(book.update, signed_in(person), key_of(deck_id), None, name, visibility)
    return RedirectResponse(f"/decks/{deck_id}", status_code=303)


@router.post("/decks/{deck_id}/restore", summary="Restore an earlier version of a kept deck (the page's form)")
async def restore(request: Request, book: BookDep, person: PersonDep, deck_id: str) -> Response:
    """`version` (the owner's): a new version equal to it; back to the deck's page."""
    form = await read_form(request)
    check_csrf(request, form)
    number = str(form.get("version") or "")
    if not (number.isascii() and number.isdigit() and len(number) <= 7 and int(number) >= 1):
        raise BadRequest(f"version {number[:20]!r} is a version's number (1, 2, …)")
    await run_in_threadpool(book.restore, signed_in(person), key_of(deck_id), int(number))
    return RedirectResponse(f"/decks/{deck_id}", status_code=303)

