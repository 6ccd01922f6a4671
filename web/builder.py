"""The deck builder (CONTRACTS §10): "My decks" at /decks, /decks/new, and /decks/{id}/edit with a card search
beside the deck, `+`/`−` on every search row and deck line.

The buttons are forms: without JavaScript they post and the page comes back; with htmx (already on every page) the
same post swaps the builder's fragment in place (the deck, its verdict and issues, the search rows with what adding
each would do). A row focused takes `+` and `-` from the keyboard (static/builder.js). The search and the deck are
read against the server's shared catalogue: a change reads no card from the database.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi.responses import RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from deckcheck.games import all_formats, game_of
from deckcheck.cards import Card
from deckcheck.db.keptdecks import KeptDeck
from deckcheck.library.decks import DELTA_MAX, DeckBook, available, copies_max, deck_report, report_dict
from deckcheck.library.people import Person
from deckcheck.unverified import decided_issues, unverified

from . import models
from .cards import CardQuery, game_columns, search
from .deckview import grouped, lines_of
from .deps import BookDep, PagesDep, PersonDep
from .errors import BadRequest
from .facts import read_form
from .keptdecks import key_of, signed_in
from .security import check_csrf

router = APIRouter(route_class=models.ApiRoute)
TEMPLATES = Path(__file__).resolve().parent / "templates" / "builder"
ROWS = 20  # search rows shown beside the deck
SEARCH_FIELDS = ("q", "type", "set", "immortal", "edition")
TOGGLES = ("playable", "owned", "lack")  # the search for this deck: what it may take, what I own, what it lacks


def search_of(values: dict[str, str]) -> CardQuery:
    """The builder's search, from its query or form fields (each bounded as the card page bounds it)."""
    edition = values.get("edition", "")
    return CardQuery(q=values.get("q", "")[:200].strip(), type=values.get("type", "")[:100].strip(),
                     set=values.get("set", "")[:100].strip(), immortal=values.get("immortal", "")[:100].strip(),
                     edition=int(edition) if edition in ("1", "2", "3") else None, limit=ROWS)


def toggles_of(values: dict[str, str]) -> dict[str, bool]:
    """The search's toggles from its query or form fields ("1" is on)."""
    return {k: values.get(k) == "1" for k in TOGGLES}


def delta_of(values: dict[str, str]) -> int:
    """The change a + or − form asks: `delta` "1" adds, else removes; `copies` (a search row's field) how many, one
    when absent; BadRequest (400, nothing changed) for copies that are no whole number from 1 to DELTA_MAX (the
    format's title max is checked against the deck, DeckBook.change's `bounded`)."""
    text = values.get("copies", "").strip() or "1"
    if not (text.isascii() and text.isdigit() and len(text) <= 2 and 1 <= int(text) <= DELTA_MAX):
        raise BadRequest(f"copies {text[:20]!r} is not a whole number from 1 to {DELTA_MAX}; the deck was not "
                         "changed")
    return int(text) if values.get("delta") == "1" else -int(text)


def back_of(query: CardQuery, toggles: dict[str, bool]) -> str:
    """The search as a query string, to come back to it."""
    return urlencode({**{k: v for k, v in query.params().items() if k in SEARCH_FIELDS},
                      **{k: "1" for k, on in toggles.items() if on}})


def builder_context(book: DeckBook, person: Person, deck_id: str, query: CardQuery,
                    toggles: dict[str, bool] | None = None, kept: KeptDeck | None = None) -> dict[str, Any]:
    """What the builder shows: the deck grouped, its verdict and issues, its statistics and the squares it leaves
    open, and the search rows with their effects (what adding each would do, the open squares it would cover,
    the copies owned free); `toggles` keep only the rows the deck may take, that I own, that cover an open
    square. `kept`: the deck as a change has just written it (not read again)."""
    toggles = toggles or dict.fromkeys(TOGGLES, False)
    kept = kept if kept is not None and kept.id == deck_id else book.get(person, deck_id)
    effects = book.effects(person, deck_id, kept)
    deck, fmt = effects.deck, effects.fmt
    query.game = fmt.game
    free = available(book.collections, person, deck_id) if toggles["owned"] else None

    def keep(card: Card) -> bool:
        return (not toggles["lack"] or bool(effects.fills(card))) \
            and (free is None or free.get(card.card_key, 0) > 0) \
            and (not toggles["playable"] or effects.of(card).playable)
    asked = query.q or query.type or query.set or query.immortal or toggles["lack"]
    total, found = search(book.catalog, query, keep) if asked else (0, [])
    rows = [{"card": c, "effect": effects.of(c), "said": effects.of(c).describe(c.name), "fills": effects.fills(c),
             "free": None if free is None else free.get(c.card_key, 0)} for c in found]
    checked = deck_report(book, kept)
    return {"deck": kept, "groups": grouped(lines_of(deck)), "rows": rows, "total": total, "query": query,
            "toggles": toggles, "report": checked.as_dict(),
            # a rule card data kept from deciding is one entry, its unverified line, never also a warning
            "decided": decided_issues(checked), "undecided": unverified(checked),
            "columns": game_columns(game_of(fmt)),  # the filters its game's cards have (no Set on a Raven deck)
            "owner": person.owns(kept.owner_id), "stats": effects.stats, "copies_max": copies_max(fmt),
            "open": effects.open, "known": person.known, "back": back_of(query, toggles)}


@router.get("/decks", summary="My decks and the public decks")
def decks_page(book: BookDep, person: PersonDep, pages: PagesDep) -> Response:
    """The signed-in person's (or the keeper's) decks by name with their verdicts, and the public decks."""
    mine = [(d, report_dict(book, d)) for d in book.mine(person)]
    shared = [(d, report_dict(book, d)) for d in book.public()[:100]]
    return pages("decks.html", {"mine": mine, "shared": shared, "known": person.known})


@router.get("/decks/new", summary="Start a deck")
def new_page(pages: PagesDep, person: PersonDep) -> Response:
    """A name and a format; the deck starts empty and opens in the builder."""
    return pages("new_deck.html", {"formats": [(f.name, f.title) for f in all_formats()], "known": person.known})


@router.post("/decks/new", summary="Start a deck (the form)")
async def new_deck(request: Request, book: BookDep, person: PersonDep) -> Response:
    """Make the empty deck (private until shared) and open it in the builder."""
    form = await read_form(request)
    check_csrf(request, form)
    name, fmt = str(form.get("name") or "").strip() or "New deck", str(form.get("format") or "type1e")
    deck = await run_in_threadpool(book.create, signed_in(person), name, f"Format: {fmt}\n", fmt, "private")
    return RedirectResponse(f"/decks/{deck.id}/edit", status_code=303)


@router.get("/decks/{deck_id}/edit", summary="The deck builder")
def edit_page(request: Request, book: BookDep, person: PersonDep, pages: PagesDep, deck_id: str,
              q: str = Query("", max_length=200), type_: str = Query("", alias="type", max_length=100),
              set_: str = Query("", alias="set", max_length=100), immortal: str = Query("", max_length=100),
              edition: str = Query("", max_length=1), playable: str = Query("", max_length=1),
              owned: str = Query("", max_length=1), lack: str = Query("", max_length=1)) -> Response:
    """The search pane and the deck pane; for htmx, the builder fragment alone."""
    query = search_of({"q": q, "type": type_, "set": set_, "immortal": immortal, "edition": edition})
    toggles = toggles_of({"playable": playable, "owned": owned, "lack": lack})
    context = builder_context(book, person, key_of(deck_id), query, toggles)
    return pages("_builder.html" if request.headers.get("HX-Request") == "true" else "builder.html", context)


@router.post("/decks/{deck_id}/edit", summary="Add or remove a card in the builder (its + and − buttons)")
async def edit_change(request: Request, book: BookDep, person: PersonDep, pages: PagesDep, deck_id: str) -> Response:
    """One change (`card`, `delta` 1 or -1, `copies` 1 to the format's title max, one when absent); the builder
    again (the fragment for htmx, else back to the page with the search kept)."""
    form = await read_form(request)
    check_csrf(request, form)
    key = key_of(deck_id)
    delta = delta_of({k: str(form.get(k) or "") for k in ("delta", "copies")})
    kept, _new = await run_in_threadpool(lambda: book.change(signed_in(person), key, str(form.get("card") or ""),
                                                             delta, bounded=True))
    query = search_of({k: str(form.get(k) or "") for k in SEARCH_FIELDS})
    toggles = toggles_of({k: str(form.get(k) or "") for k in TOGGLES})
    if request.headers.get("HX-Request") == "true":
        context = await run_in_threadpool(builder_context, book, person, key, query, toggles, kept)
        return pages("_builder.html", context)
    back = back_of(query, toggles)
    return RedirectResponse(f"/decks/{key}/edit" + (f"?{back}" if back else ""), status_code=303)
