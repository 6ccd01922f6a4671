"""The Cards pages (`/cards`, `/cards/{id}`) and their JSON twins `GET /api/cards` and `/api/cards/{id}` (§6).

A page and its twin call the same data function (`search`, `card_detail`); templates only format.
Cards are rows of the card sheet (CONTRACTS §1) in JSON, with unknown values written `unknown`.
"""
from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import RedirectResponse, Response
from starlette.exceptions import HTTPException

from deckcheck.cards import Card, conflicts
from deckcheck.cardsheet import COLUMNS, card_json, card_to_row, is_unknown, unknowable, value_of
from deckcheck.db.collections import Collections
from deckcheck.errors import DeckcheckError
from deckcheck.formats import Game
from deckcheck.games import registry
from deckcheck.library.api import CardSource
from deckcheck.library.decks import DeckBook, Effects, available
from deckcheck.library.facts import LABELS, Facts, shown, value_text
from deckcheck.library.people import Person
from deckcheck.provenance import FIELDS, Provenance
from deckcheck.text import normalize

from . import models
from .cardsheets import kept_sheet
from .deps import (BookDep, CatalogDep, CollectionsDep, Deckcheck, KeeperDep, PagesDep, PersonDep, ServerDep,
                   SettingsDep)

router = APIRouter(route_class=models.ApiRoute)
NAV = [("Cards", "/cards")]

PAGE_SIZE = 50
MAX_LIMIT = 500
UNKNOWABLE = unknowable()  # Field.unknowable: the filters "known" and "unknown"
SORTS = {"best": lambda c: (normalize(c.name), c.edition, c.set or "", c.id),  # with words: best first
         "name": lambda c: (normalize(c.name), c.edition, c.set or "", c.id),
         "set": lambda c: (c.set or "~", normalize(c.name), c.id),
         "type": lambda c: (c.type or "~", normalize(c.name), c.id),
         "edition": lambda c: (c.edition, normalize(c.name), c.id),
         "immortal": lambda c: (normalize(c.immortal or "~"), normalize(c.name), c.id)}
@dataclass
class CardQuery:
    """The filters of a card search, as the page's form and the API's parameters name them."""

    q: str = ""
    edition: int | None = None
    set: str = ""
    type: str = ""
    immortal: str = ""
    weapon: str = ""
    game: str = ""
    known: str = ""
    unknown: str = ""
    sort: str = "best"
    limit: int = PAGE_SIZE
    offset: int = 0
    words: list[str] = field(init=False)

    def __post_init__(self) -> None:
        self.words = normalize(self.q).split()

    def matches(self, card: Card, words: bool = True) -> bool:
        """Whether a card passes every filter (words: all of them in name, title, Immortal, weapon, set or text;
        `words` False: every filter but the words, which CardIndex.search has applied)."""
        if self.edition is not None and card.edition != self.edition:
            return False
        if self.game and card.game != self.game:
            return False
        if self.set and normalize(card.set or "") != normalize(self.set):
            return False
        if self.type and normalize(card.type or "") != normalize(self.type):
            return False
        if self.immortal and normalize(self.immortal) not in normalize(card.immortal or ""):
            return False
        if self.weapon and normalize(self.weapon) not in normalize(card.weapon or ""):
            return False
        if self.unknown and not is_unknown(card, self.unknown):
            return False
        if self.known and is_unknown(card, self.known):
            return False
        if self.words and words:
            hay = normalize(" ".join(filter(None, (card.name, card.title, card.immortal, card.weapon, card.set,
                                                   card.type, card.text))))
            return all(w in hay for w in self.words)
        return True

    def params(self, **changes: Any) -> dict[str, Any]:
        """The query's non-default parameters (for links to other pages and sorts)."""
        values = {"q": self.q, "edition": self.edition, "set": self.set, "type": self.type,
                  "immortal": self.immortal, "weapon": self.weapon, "game": self.game, "known": self.known,
                  "unknown": self.unknown, "sort": self.sort, "limit": self.limit, "offset": self.offset}
        values.update(changes)
        defaults = CardQuery()
        return {k: v for k, v in values.items() if v not in (None, "") and v != getattr(defaults, k)}


class Listed:
    """What a catalogue's searches read again and again, made once for the catalogue's life (as its name indexes
    are: the server's catalogue is a new object once its cards change, a card sheet's overlay another): every
    card, and each card's row of the card sheet as JSON (a search of a deck's game answers hundreds)."""

    def __init__(self, catalog: CardSource):
        self.cards = catalog.cards()
        self.by_id: dict[str, Card] = {}  # the first card of each id, as a scan of `cards` finds it
        for card in self.cards:
            self.by_id.setdefault(card.id, card)
        self._rows: dict[Card, dict[str, str]] = {}  # by the card object (Card compares by identity)

    def row(self, card: Card) -> dict[str, str]:
        """The card's `card_json`, a copy (the caller adds its own keys)."""
        found = self._rows.get(card)
        if found is None:
            found = self._rows[card] = card_json(card)
        return dict(found)


_LISTED: weakref.WeakKeyDictionary[CardSource, Listed] = weakref.WeakKeyDictionary()
_LISTED_LOCK = threading.Lock()


def listed(catalog: CardSource) -> Listed:
    """The catalogue's Listed, made on first use."""
    with _LISTED_LOCK:
        found = _LISTED.get(catalog)
    if found is None:
        found = Listed(catalog)
        with _LISTED_LOCK:
            found = _LISTED.setdefault(catalog, found)
    return found


def search(catalog: CardSource, query: CardQuery, keep: Callable[[Card], bool] | None = None) -> tuple[int, list[Card]]:
    """(how many cards match, the page of them the query asks for, in its sort order); `keep`: a further filter
    (the cards a deck may take).

    Words are found as the command line's card search finds them (CardIndex.search: any order, typos allowed),
    best first unless another sort is asked for."""
    if query.words:
        found = [c for c in catalog.search(query.q) if query.matches(c, words=False)]
        if query.sort != "best":
            found.sort(key=SORTS[query.sort])
    else:  # the cards a format builds in (Taktik's 52) are listed by their game, not among every game's
        builtin = [c for c in catalog.builtin() if c.game == query.game] if query.game else []
        found = [c for c in listed(catalog).cards + builtin if query.matches(c)]
        found.sort(key=SORTS.get(query.sort, SORTS["best"]))
    if keep is not None:
        found = [c for c in found if keep(c)]
    return len(found), found[query.offset:query.offset + query.limit]


def card_query(q: str = Query("", max_length=200, description="words in name, title, Immortal, weapon, set, type or "
                                                                "text"),
               edition: str = Query("", pattern="^[123]?$", description="1, 2 or 3 (empty: any)"),
               set_: str = Query("", alias="set", max_length=100), type_: str = Query("", alias="type", max_length=100),
               immortal: str = Query("", max_length=100), weapon: str = Query("", max_length=100),
               game: str = Query("", max_length=40),
               known: str = Query("", description=f"only cards whose field is known: {', '.join(UNKNOWABLE)}"),
               unknown: str = Query("", description=f"only cards whose field is unknown: {', '.join(UNKNOWABLE)}"),
               sort: str = Query("best", description=f"one of {', '.join(SORTS)} (best: the best matches of "
                                                     "the words first, by name without words)"),
               limit: int = Query(PAGE_SIZE, ge=1, le=MAX_LIMIT), offset: int = Query(0, ge=0)) -> CardQuery:
    """The search filters of the card page and of /api/cards, one set of query parameters for both."""
    return CardQuery(q=q.strip(), edition=int(edition) if edition else None, set=set_.strip(), type=type_.strip(),
                     immortal=immortal.strip(), weapon=weapon.strip(), game=game.strip(),
                     known=known if known in UNKNOWABLE else "", unknown=unknown if unknown in UNKNOWABLE else "",
                     sort=sort if sort in SORTS else "best", limit=limit, offset=offset)


@router.get("/api/cards", tags=["api"], summary="Search the cards", response_model=models.CardPage,
            response_model_exclude_none=True, responses=models.errors(400, 404))
def api_cards(catalog: CatalogDep, book: BookDep, person: PersonDep,
              query: Annotated[CardQuery, Depends(card_query)],
              deck: str = Query("", max_length=64, description="A saved deck's id: its game's cards, and with "
                                                                "`playable` or `owned` only those it may take"),
              playable: bool = Query(False, description="With `deck`: only cards the deck may take as it stands "
                                                        "(unknown data keeps a card in, `unverified`)"),
              owned: bool = Query(False, description="With `deck`: only cards your collections hold beyond what "
                                                     "your other decks use (`available`)"),
              lack: bool = Query(False, description="With `deck`: only cards that cover a square the deck still "
                                                    "leaves open (`fills`: a defense where no Block, Dodge or "
                                                    "Guard covers, an attack where no Attack targets)")
              ) -> dict[str, Any]:
    """{"total": N, "cards": [card sheet rows]}: the cards matching every filter, `limit` from `offset`; for a deck,
    each row says what adding it would do (`adds`: the rules it would break)."""
    if not deck:
        total, page = search(catalog, query)
        return {"total": total, "cards": [listed(catalog).row(c) for c in page]}
    effects, free = deck_filters(book, person, deck, owned)
    query.game = effects.fmt.game

    def keep(card: Card) -> bool:
        return (not lack or bool(effects.fills(card))) and (free is None or free.get(card.card_key, 0) > 0) \
            and (not playable or effects.of(card).playable)
    total, page = search(catalog, query, keep)
    rows = []
    sheet = listed(catalog)
    for card in page:
        effect = effects.of(card)
        rows.append({**sheet.row(card), "adds": list(effect.rules), "unverified": effect.unverified,
                     "available": None if free is None else free.get(card.card_key, 0),
                     "fills": list(effects.fills(card))})
    return {"total": total, "cards": rows}


def deck_filters(book: DeckBook, person: Person, deck_id: str,
                 owned: bool) -> tuple[Effects, dict[object, int] | None]:
    """The effects of adding cards to a deck the person may see, and what they own free (with `owned`)."""
    effects = book.effects(person, deck_id)
    return effects, available(book.collections, person, deck_id) if owned else None


@router.get("/cards", summary="The card search page")
def cards_page(request: Request, catalog: CatalogDep, pages: PagesDep,
               query: Annotated[CardQuery, Depends(card_query)]) -> Response:
    """Search with filters, a page of results and links to the next and previous pages."""
    from .cardface import game_title
    cards = listed(catalog).cards
    total, page = search(catalog, query)
    choices = {"set": sorted({c.set for c in cards if c.set}), "type": sorted({c.type for c in cards if c.type}),
               "game": sorted({c.game for c in cards + catalog.builtin()}),
               "edition": sorted({c.edition for c in cards})}
    template = "_card_results.html" if request.headers.get("HX-Request") == "true" else "cards.html"
    closest = catalog.index_all().closest(query.q) if query.words and not total else []
    return pages(template, {"query": query, "total": total, "cards": page, "choices": choices, "closest": closest,
                                      "sorts": list(SORTS), "unknowable": UNKNOWABLE, "labels": LABELS,
                                      "is_unknown": is_unknown,
                                      "columns_of": columns_of, "game_title": game_title})


# -- one card ------------------------------------------------------------------------------------
def columns_of(card: Card) -> list[str]:
    """The card-sheet columns a card's page lists: the core columns no game claims, and its own game's (Game.columns,
    Game.extra_columns); a Pebbles card has no Immortal, a Highlander card no Renown."""
    return game_columns(game_of_card(card))


def game_columns(game: Game | None) -> list[str]:
    """The card-sheet columns a game's cards have (columns_of; None: a game no longer known, the core's alone)."""
    from deckcheck.games import GAMES
    claimed = {c for known in GAMES for c in (*known.columns, *(x.name for x in known.extra_columns))}
    own = set(game.columns) | {c.name for c in game.extra_columns} if game else set()
    return [c for c in COLUMNS if c not in claimed or c in own]


def game_of_card(card: Card) -> Game | None:
    """The game a card belongs to; None for a game no longer known (a plugin's card after the plugin went)."""
    from deckcheck.games import GAMES
    return next((game for game in GAMES if game.name == card.game), None)


def find_card(cards: list[Card], card_id: str) -> Card | None:
    """The card with this id, or None."""
    return next((c for c in cards if c.id == card_id), None)


def the_card(catalog: CardSource, card_id: str) -> Card:
    """The card with this id; 404 when there is none."""
    card = listed(catalog).by_id.get(card_id) or find_card(catalog.builtin(), card_id)
    if card is None:
        raise HTTPException(404, f"no card has the id {card_id!r}")
    return card


def card_detail(catalog: CardSource, collections: Collections, card: Card, keeper: bool = True) -> dict[str, Any]:
    """Everything the card page shows: the card, its printings, the copies the asker's collections hold and the
    saved decks of the asker's using it (Collections.own_decks: an account's own, every deck for the keeper, none
    for an anonymous visitor; another account's decks are not counted, so a private deck's existence is not told).
    Their ids, secret links, to their account or the server's keeper; to another who reaches the keeper's
    collections (a personal server's visitor) `decks` is empty and `decks_hidden` counts them."""
    cards = listed(catalog).cards  # read once for the catalogue's life, not at each page
    printings = [c for c in cards if c.specific_key == card.specific_key and c.id != card.id]
    ids = {card.id} | {c.id for c in printings}
    owned = [h for h in collections.holdings(None) if h.card.id in ids]
    saved_as = {name: (fmt, saved) for name, fmt, saved, _count in collections.decks()}
    decks = []
    for name, entries in collections.own_decks():
        copies = sum(q for c, _section, q in entries if c.id in ids)
        if copies and name in saved_as:
            fmt, saved = saved_as[name]
            decks.append({"name": name, "format": fmt, "saved": saved, "copies": copies})
    keeper = keeper or collections.owner_id is not None  # an account's own decks: its own links
    recorded = catalog.sources([card.id]).get(card.id, {})
    return {"card": card_json(card), "sources": sources_json(card, recorded),
            "printings": [card_json(c) for c in printings],
            "owned": [{"collection": h.collection, "card_id": h.card.id, "set": h.card.set,
                       "condition": h.condition, "language": h.language, "foil": h.foil,
                       "quantity": h.quantity, "trade_quantity": h.trade_quantity,
                       "want_quantity": h.want_quantity} for h in owned],
            "decks": decks if keeper else [], "decks_hidden": 0 if keeper else len(decks)}


def sources_json(card: Card, sources: Mapping[str, Provenance]) -> dict[str, dict[str, Any] | None]:
    """Where each known rules value of a card came from, by card-sheet column: {"kind", "ref", "at",
    "text", "href"} (text: the sentence the card page shows; href: a named source's web address), or
    None when the database holds no record of it (a value stored before deckcheck kept provenance).
    Unknown values have no source and are left out."""
    out: dict[str, dict[str, Any] | None] = {}
    for column in FIELDS:
        where = sources.get(column)
        if where is None and value_of(card, column) is None:
            continue
        out[column] = None if where is None else {
            "kind": where.kind, "ref": where.ref, "at": where.at, "text": where.describe(),
            "href": where.ref if where.kind == "source" and where.ref.startswith(("https://", "http://")) else None}
    return out


def seen(request: Request, catalog: CatalogDep) -> CardSource:
    """The catalogue as this browser sees it: with the card sheet it brought for its session laid over it
    (web.cardsheets), so that a card the check page and the builder read from the sheet has its page too."""
    sheet = kept_sheet(request)
    return catalog if sheet is None else sheet.over(catalog)


SeenDep = Annotated[CardSource, Depends(seen)]


@router.get("/api/cards/{card_id:path}", tags=["api"], summary="One card",
            response_model=models.CardRow | models.CardDetail, responses=models.errors(404))
def api_card(catalog: SeenDep, collections: CollectionsDep, keeper: KeeperDep, card_id: str,
             detail: bool = Query(False, description="also its printings, owned copies and saved decks"),
             ) -> dict[str, Any]:
    """The card sheet row of one card (404 if no card has that id); with detail, what its page shows."""
    card = the_card(catalog, card_id)
    if not detail:
        return card_json(card)
    found = card_detail(catalog, collections, card, keeper)
    found.pop("decks_hidden")
    return found


@router.get("/cards/{card_id:path}", summary="A card's page")
def card_page(request: Request, catalog: CatalogDep, seen: SeenDep, collections: CollectionsDep,
              settings: SettingsDep, pages: PagesDep, keeper: KeeperDep, card_id: str,
              edited: str = Query("", max_length=500)) -> Response:
    """Every field (unknown shown as unknown), the grid, printings, owned copies, saved decks using it."""
    from .cardface import face, field_rows
    card = the_card(seen, card_id)
    detail = card_detail(seen, collections, card, keeper)
    shown_columns = columns_of(card)
    fields = field_rows(card, shown_columns)
    game = game_of_card(card)
    stored = card.id in listed(catalog).by_id  # else the session's sheet's, or a format's own
    built_in = not stored and card.id not in listed(seen).by_id  # a format's own card (Taktik's 52)
    return pages("card.html", {**detail, "the_card": card, "face": face(card, shown_columns), "fields": fields,
                               "columns": shown_columns, "built_in": built_in,
                               "game_name": game.full_title if game else card.game,
                               "conflicts": printing_conflicts(seen, card),
                               "data_unknown": game.data_unknown if game else "DATA-UNKNOWN",
                               "unknown_fields": [r["label"] for r in fields if r["value"] is None],
                               "facts_href": facts_href(request, card),
                               "can_edit": settings.admin_token is not None and stored,
                               "editable": EDITABLE, "edited": edited,
                               "history": Facts(catalog.store).history(card.id), "shown": shown})


def printing_conflicts(catalog: CardSource, card: Card) -> list[dict[str, Any]]:
    """The facts this card's printings (those a line of its name without a set may mean) state with two values:
    [{"field", "label", "values": [(set, value as a sheet writes it)]}]; a line naming no set leaves them unknown."""
    try:
        named = [c for c in catalog.find(card.name) if c.card_key == card.card_key]
    except DeckcheckError:
        return []
    return [{"field": f, "label": LABELS.get(f, f),
             "values": [(c.set or c.id, value_text(c, f)) for c in named if value_text(c, f) != "unknown"]}
            for f in conflicts(named)]


FACTS_ROUTE = "/cards/{card_id}/facts"  # the fill-in form of card facts (issue 22), where the server has it


def facts_href(request: Request, card: Card) -> str:
    """Where a player fills in what a card's data lacks: the card-facts form when the server has one, else
    the card page's own section about it."""
    from urllib.parse import quote
    if FACTS_ROUTE in request.app.openapi().get("paths", {}):
        return FACTS_ROUTE.replace("{card_id}", quote(card.id, safe=""))
    return "#facts"


# -- editing (admin token) ------------------------------------------------------------------------
EDITABLE = tuple(f.name for f in registry().fields if f.editable)  # Field.editable: the keeper may change them here
WHO_MAX = 60
VALUE_MAX = 2000


def edit_card(app_state: Deckcheck, card: Card, changes: dict[str, str], who: str) -> list[str]:
    """Change some fields of a card through the partial card-sheet update (§1a); return the fields changed.

    Each changed value is stored with its provenance, a web edit by `who` now. Bad values raise a
    DeckcheckError naming the column and value, as a card sheet's would.
    """
    from deckcheck import provenance
    from deckcheck.db.updates import update_cards
    row = card_to_row(card)
    changed = [c for c, v in changes.items() if c in EDITABLE and v.strip() != row.get(c, "")]
    if not changed:
        return []
    result = update_cards(app_state.catalog.store, [{"id": card.id, **{c: changes[c].strip() for c in changed}}],
                          provenance.web(who), overwrite=True)  # the editor sees the value they replace
    app_state.cards_changed()
    return sorted({c.field for c in result.changes}) if result.changes else []


@router.post("/cards/{card_id:path}/edit", summary="Correct a card's data (admin token)")
async def card_edit(request: Request, srv: ServerDep, card_id: str) -> Response:
    """Fill in unknown or wrong fields; needs the server's admin token, your name and the CSRF token."""
    import hmac

    from starlette.concurrency import run_in_threadpool

    from .security import check_csrf
    form = await request.form(max_files=0, max_fields=len(EDITABLE) + 10, max_part_size=VALUE_MAX * 4)
    check_csrf(request, form)
    token = srv.settings.admin_token
    if token is None:
        raise HTTPException(403, "cards are read-only on this server (it was started without --admin-token)")
    sent = str(form.get("admin_token") or "")
    if not hmac.compare_digest(sent.encode(), token.encode()):
        raise HTTPException(403, "wrong admin token")
    who = " ".join(str(form.get("who") or "").split())[:WHO_MAX]
    if not who:
        raise HTTPException(400, "say who you are: the change is recorded with your name")
    card = the_card(srv.catalog, card_id)
    changes = {c: str(form.get(c) or "")[:VALUE_MAX] for c in EDITABLE if form.get(c) is not None}
    changed = await run_in_threadpool(edit_card, srv, card, changes, who)
    from urllib.parse import quote, urlencode
    return RedirectResponse(f"/cards/{quote(card.id, safe='')}?{urlencode({'edited': ','.join(changed) or 'none'})}",
                            status_code=303)
