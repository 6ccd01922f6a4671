"""Deck statistics and deck comparison on the web (CONTRACTS §7): pages and their JSON twins.

- The check page and saved decks show the statistics panel: the report of a deck whose game has statistics
  (deckcheck.formats.Game.stats) carries its DeckStats (`report.details.stats`) and `_report.html`
  includes `_stats_panel.html`.
- `POST /api/stats` (the same body as `/api/check`; `?hand=&exertion=`) → the §7 object of a decklist;
  `GET /api/decks/{id}/stats` → that of a saved deck.
- `GET /diff?a=&b=` compares two saved decks (ids or their links) on a page; `GET /api/diff?a=&b=` gives
  the object of `deckcheck diff --json`.
The pages and the API call the same library functions as `deckcheck stats` and `deckcheck diff`.
"""
from __future__ import annotations

from pathlib import Path

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from deckcheck.library.api import Catalog
from deckcheck.library.decks import DeckBook
from deckcheck.library.people import Person
from deckcheck.deckdiff import DeckDiff, diff_decks
from deckcheck.decks import Deck
from deckcheck.formats import AnyFormat
from deckcheck.stats import EXERTION, HAND, DeckStats, check_draw
from deckcheck.library.statsapi import NoSavedDeckError, require_stats, resolve, stats_in

from . import decks as reading, models
from .checkinput import DECK_ID, ApiInput, CheckInput
from .deps import BookDep, CatalogDep, PagesDep, PersonDep
from .errors import BadRequest, NoSuchDeck

router = APIRouter(route_class=models.ApiRoute)
NAV = [("Compare", "/diff")]
TEMPLATES = Path(__file__).resolve().parent / "templates" / "stats"


def deck_id_of(text: str) -> tuple[str, int | None]:
    """(id, version or None) of a saved deck's id or link, `@N` naming a version ('/decks/AbC123',
    'http://host/decks/AbC123@2'); NoSuchDeck if none."""
    tail = text.strip().rstrip("/").rsplit("/", 1)[-1]
    key, at, number = tail.partition("@")
    if not DECK_ID.match(key) or (at and not (number.isascii() and number.isdigit() and len(number) <= 7)):
        raise NoSuchDeck(f"{text[:80]!r} is not a saved deck's link (ID, or ID@N for its version N)")
    return key, int(number) if at else None


def saved(book: DeckBook, person: Person, text: str, stats: bool = True) -> tuple[Deck, AnyFormat]:
    """(deck, format) of a saved deck (or one version of it) named by id or link (with `stats`, of a game with
    statistics), its source its link; NoSuchDeck when there is none the person may see."""
    key, version = deck_id_of(text)
    try:
        deck, fmt = book.deck_at(person, key, version)
    except NoSavedDeckError as exc:
        raise NoSuchDeck(f"no saved deck has the link /decks/{key}" if version is None else str(exc)) from exc
    return deck, require_stats(fmt) if stats else fmt


def stats_of_saved(book: DeckBook, person: Person, deck_id: str, hand: int, exertion: int) -> DeckStats:
    """The statistics of a saved deck, named by its id or link."""
    check_draw("hand", hand)
    check_draw("exertion", exertion)
    deck, fmt = saved(book, person, deck_id)
    return stats_in(deck, fmt, hand, exertion)


def compare(book: DeckBook, person: Person, a: str, b: str, hand: int, exertion: int) -> DeckDiff:
    """Two saved decks (or two versions of one) compared, as the command line's diff compares them."""
    check_draw("hand", hand)
    check_draw("exertion", exertion)
    (deck_a, fmt_a), (deck_b, fmt_b) = saved(book, person, a, stats=False), saved(book, person, b, stats=False)
    return diff_decks(deck_a, fmt_a, deck_b, fmt_b, hand, exertion)


# -- JSON ---------------------------------------------------------------------------------------------
@router.post("/api/stats", tags=["api"], summary="Statistics of a decklist: the same object as the command line's JSON",
             response_model=models.DeckStats, responses=models.errors(400, 413),
             openapi_extra=models.body(models.StatsRequest, models.StatsForm))
async def api_stats(got: ApiInput, catalog: CatalogDep,
                    hand: Annotated[int | None, Query(description=f"Opening hand size (default {HAND}); or in the "
                                                                  "body")] = None,
                    exertion: Annotated[int | None, Query(description=f"Exertion size (default {EXERTION}); or in "
                                                                      "the body")] = None) -> dict[str, Any]:
    """`file` or `decklist` and `format`, as for /api/check, and `hand`, `exertion` in the body or the query: 200
    and the §7 object; 400 if a line does not resolve, or a size is given twice with two values."""
    hand, exertion = draw_sizes(got, {"hand": hand, "exertion": exertion})
    found = await run_in_threadpool(_stats_of_input, catalog, got, hand, exertion)
    if len(found) != 1:
        raise BadRequest(f"the file holds {len(found)} decks; send one deck at a time")
    return found[0].as_dict()


def draw_sizes(got: CheckInput, query: dict[str, int | None]) -> tuple[int, int]:
    """(hand, exertion) of a stats request: each from the body (JSON number, or a form field's digits) or the query,
    else the default; BadRequest when the two give different values, DrawSizeError when one is no size."""
    sizes = {"hand": HAND, "exertion": EXERTION}
    for name in sizes:
        sent, asked = got.numbers.get(name), query[name]
        if sent is not None:
            sent = check_draw(name, sent)
        if asked is not None:
            asked = check_draw(name, asked)
        if sent is not None and asked is not None and sent != asked:
            raise BadRequest(f"{name} is given twice: {asked} in the query, {sent} in the body; give it once")
        chosen = sent if sent is not None else asked
        if chosen is not None:
            sizes[name] = chosen
    return sizes["hand"], sizes["exertion"]


def _stats_of_input(catalog: Catalog, got: CheckInput, hand: int, exertion: int) -> list[DeckStats]:
    from deckcheck.check import choose_format
    check_draw("hand", hand)
    check_draw("exertion", exertion)
    if got.file_data is not None:
        raws = reading.read_upload(got.file_label or "upload", got.file_data)
    else:
        raws = reading.read_text(got.text)
    out = []
    for raw in raws:
        deck, fmt = resolve(raw, catalog.index(choose_format(raw, got.fmt)), got.fmt)
        out.append(stats_in(deck, fmt, hand, exertion))
    return out


@router.get("/api/decks/{deck_id}/stats", tags=["api"], summary="Statistics of a saved deck (§7)",
            response_model=models.DeckStats, responses=models.errors(400, 404))
def api_saved_stats(book: BookDep, person: PersonDep, deck_id: str, hand: int = HAND,
                    exertion: int = EXERTION) -> dict[str, Any]:
    """The §7 object of a saved deck; 404 when no deck has that id."""
    return stats_of_saved(book, person, deck_id, hand, exertion).as_dict()


@router.get("/api/diff", tags=["api"], summary="Two saved decks compared: the same object as the command line's JSON",
            response_model=models.DeckDiff, responses=models.errors(400, 404))
def api_diff(book: BookDep, person: PersonDep, a: str, b: str, hand: int = HAND, exertion: int = EXERTION
             ) -> dict[str, Any]:
    """Deck `a` (before) against deck `b` (after), each a saved deck's id or link, `ID@N` its version N; 404 when
    one is not saved."""
    return compare(book, person, a, b, hand, exertion).as_dict()


# -- pages --------------------------------------------------------------------------------------------
@router.get("/diff", summary="Compare two saved decks")
def diff_page(book: BookDep, person: PersonDep, pages: PagesDep, a: str = "", b: str = "", hand: int = HAND,
              exertion: int = EXERTION) -> Response:
    """The comparison form; with `a` and `b`, the comparison: cards, verdicts, odds before and after."""
    context = {"a": a, "b": b, "hand": hand, "exertion": exertion, "diff": None}
    if a.strip() and b.strip():
        try:
            context["diff"] = compare(book, person, a, b, hand, exertion)
        except NoSuchDeck as exc:  # the form again, as filled in, saying which deck is not saved
            return pages("diff.html", {**context, "problem": str(exc)}, status_code=404)
    return pages("diff.html", context)
