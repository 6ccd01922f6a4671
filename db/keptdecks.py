"""Kept decks in the database (CONTRACTS §10): a deck's latest list, its name, visibility and owner, and every
version of it. Who may see or change a deck is the library's to decide (deckcheck.library.decks); this module
stores what it is given, each change in one transaction.

The deck row (saved_deck) holds the latest version, its cards in saved_deck_card as before (the collections count
them); saved_deck_version holds every version with its own text and cards. A change is read, decided and written
in one transaction with the deck's row locked, so two changes at once make two versions, one after the other.
"""
from __future__ import annotations

import datetime as _dt
import json
from dataclasses import dataclass, replace
from typing import Callable, Collection, Iterable, Sequence

from sqlalchemy import Connection, delete, desc, func, insert, select, update

from .models import CARDS, SAVED_DECK_CARDS, SAVED_DECK_VERSIONS, SAVED_DECKS
from .store import Store

VISIBILITIES = ("private", "link", "public")
KEEPER_OWNER = 0  # the owner_id column of the keeper's decks (people.Person.owner_id None)


@dataclass(frozen=True, slots=True, order=True)
class StoredCard:
    """One line of a version: copies of a card (its id and name) in a section."""

    card_id: str
    name: str
    section: str
    quantity: int


Cards = tuple[StoredCard, ...]


@dataclass(frozen=True, slots=True)
class DeckVersion:
    """One version of a kept deck as it was saved."""

    version: int
    format: str
    text: str
    cards: Cards
    at: str


@dataclass(frozen=True, slots=True)
class KeptDeck:
    """A kept deck and its latest version."""

    id: str
    name: str
    format: str
    visibility: str
    owner_id: int | None
    version: int
    copied_from: str
    saved_at: str
    updated_at: str
    text: str
    cards: Cards


@dataclass(frozen=True, slots=True)
class Revision:
    """What a change makes of a deck: a new list (text, format, cards) and/or a new name or visibility."""

    text: str | None = None
    format: str | None = None
    cards: Cards | None = None
    name: str | None = None
    visibility: str | None = None


def now() -> str:
    """The time of a save, as saved decks write it (ISO 8601, UTC, seconds)."""
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def same_list(a: Cards, b: Cards) -> bool:
    """Whether two versions hold the same cards (the order of lines aside)."""
    def key(cards: Cards) -> list[tuple[str, str, int]]:
        return sorted((c.card_id, c.section, c.quantity) for c in cards)
    return key(a) == key(b)


def _cards_json(cards: Cards) -> str:
    return json.dumps([[c.card_id, c.name, c.section, c.quantity] for c in cards], ensure_ascii=False)


def _cards_of(text: str) -> Cards:
    return tuple(StoredCard(str(i), str(n), str(s), int(q)) for i, n, s, q in json.loads(text or "[]"))


def _owner(stored: int) -> int | None:
    return None if stored == KEEPER_OWNER else stored


def clean_text(text: str) -> str:
    """A deck's text as kept: its lines as checked (a form's CRLF read back without \\r), one newline at the end."""
    return "\n".join(text.splitlines()) + "\n"


class KeptDecks:
    """The kept decks of one database. `known_ids`: the ids of the card table (saved_deck_card refers to it: a
    game's own cards are kept in the versions' JSON only)."""

    def __init__(self, store: Store, known_ids: Callable[[], Collection[str]]):
        self.store = store
        self.known_ids = known_ids

    # -- reading ------------------------------------------------------------------------------------------
    def get(self, key: str) -> KeptDeck | None:
        """The deck of this key, its latest version; None when there is none."""
        with self.store.engine.connect() as con:
            return self._get(con, key)

    def _get(self, con: Connection, key: str, lock: bool = False) -> KeptDeck | None:
        d = SAVED_DECKS
        query = select(d.c.name, d.c.title, d.c.format, d.c.visibility, d.c.owner_id, d.c.version, d.c.copied_from,
                       d.c.saved_at, d.c.updated_at, d.c.text).where(d.c.name == key)
        row = con.execute(query.with_for_update() if lock else query).first()
        if row is None:
            return None
        latest = self._version(con, key, row.version)
        cards = latest.cards if latest is not None else self._card_rows(con, key)
        return KeptDeck(row.name, row.title or row.name, row.format, row.visibility, _owner(row.owner_id),
                        row.version, row.copied_from, row.saved_at, row.updated_at or row.saved_at, row.text, cards)

    def _card_rows(self, con: Connection, key: str) -> Cards:
        """The latest cards from saved_deck_card (a deck of a database no migration could stamp has no versions)."""
        dc = SAVED_DECK_CARDS
        rows = con.execute(select(dc.c.card_id, CARDS.c.name, dc.c.section, dc.c.quantity)
                           .join_from(dc, CARDS, CARDS.c.id == dc.c.card_id).where(dc.c.deck_name == key)
                           .order_by(dc.c.id)).all()
        return tuple(StoredCard(*r) for r in rows)

    def _version(self, con: Connection, key: str, version: int) -> DeckVersion | None:
        v = SAVED_DECK_VERSIONS
        row = con.execute(select(v.c.version, v.c.format, v.c.text, v.c.cards, v.c.at)
                          .where(v.c.deck_name == key, v.c.version == version)).first()
        return None if row is None else DeckVersion(row[0], row[1], row[2], _cards_of(row[3]), row[4])

    def version(self, key: str, version: int) -> DeckVersion | None:
        """One version of a deck (None: no such deck or version)."""
        deck = self.get(key)
        if deck is None:
            return None
        if version == deck.version:
            return DeckVersion(deck.version, deck.format, deck.text, deck.cards, deck.updated_at)
        with self.store.engine.connect() as con:
            return self._version(con, key, version)

    def versions(self, key: str) -> list[DeckVersion]:
        """Every version of a deck, the first first (one, read from the deck, for a deck kept without any)."""
        v = SAVED_DECK_VERSIONS
        with self.store.engine.connect() as con:
            rows = con.execute(select(v.c.version, v.c.format, v.c.text, v.c.cards, v.c.at)
                               .where(v.c.deck_name == key).order_by(v.c.version)).all()
        if rows:
            return [DeckVersion(r[0], r[1], r[2], _cards_of(r[3]), r[4]) for r in rows]
        deck = self.get(key)
        return [] if deck is None else [DeckVersion(deck.version, deck.format, deck.text, deck.cards, deck.saved_at)]

    def listing(self, owner_id: int | None = None, public: bool = False,
                everyone: bool = False) -> list[KeptDeck]:
        """The decks of an owner (None: the keeper's), or the public decks (newest first), or every deck."""
        d = SAVED_DECKS
        query = select(d.c.name)
        if public:
            query = query.where(d.c.visibility == "public").order_by(desc(d.c.updated_at), d.c.name)
        else:
            if not everyone:
                query = query.where(d.c.owner_id == (KEEPER_OWNER if owner_id is None else owner_id))
            query = query.order_by(func.lower(d.c.title), d.c.name)
        with self.store.engine.connect() as con:
            found = [self._get(con, key) for key in con.execute(query.limit(1000)).scalars()]
        return [deck for deck in found if deck is not None]

    # -- writing ------------------------------------------------------------------------------------------
    def create(self, key: str, name: str, fmt: str, text: str, cards: Cards, owner_id: int | None,
               visibility: str = "link", copied_from: str = "") -> KeptDeck:
        """A new deck, version 1 (the key must be free: the database refuses a second deck of one key)."""
        stamp = now()
        text = clean_text(text)
        with self.store.begin() as con:
            con.execute(insert(SAVED_DECKS).values(
                name=key, title=name, format=fmt, text=text, saved_at=stamp, updated_at=stamp,
                visibility=visibility, owner_id=KEEPER_OWNER if owner_id is None else owner_id, version=1,
                copied_from=copied_from))
            self._write_cards(con, key, cards)
            self._write_version(con, key, 1, fmt, text, cards, stamp)
        return KeptDeck(key, name, fmt, visibility, owner_id, 1, copied_from, stamp, stamp, text, cards)

    def exists(self, key: str) -> bool:
        """Whether a deck has this key."""
        with self.store.engine.connect() as con:
            return con.execute(select(SAVED_DECKS.c.name).where(SAVED_DECKS.c.name == key)).first() is not None

    def revise(self, key: str, change: Callable[[KeptDeck], Revision | None]) -> tuple[KeptDeck, bool] | None:
        """Apply `change` to the latest version (read and written in one transaction, the row locked): (the deck
        as it now is, whether a new version was made); None when no deck has the key. A revision whose cards and
        format are the latest's makes no version (its text replaces the latest's)."""
        with self.store.begin() as con:
            deck = self._get(con, key, lock=True)
            if deck is None:
                return None
            got = change(deck)
            if got is None:
                return deck, False
            text = clean_text(got.text) if got.text is not None else deck.text
            fmt = got.format or deck.format
            cards = got.cards if got.cards is not None else deck.cards
            new = not same_list(cards, deck.cards) or fmt != deck.format
            stamp = now()
            version = deck.version + 1 if new else deck.version
            d = SAVED_DECKS
            after = replace(deck, name=got.name or deck.name, visibility=got.visibility or deck.visibility,
                            format=fmt, text=text, cards=cards, version=version,
                            updated_at=stamp if new or text != deck.text else deck.updated_at)
            con.execute(update(d).where(d.c.name == key).values(
                title=after.name, visibility=after.visibility, format=fmt, text=text, version=version,
                updated_at=after.updated_at))
            if new:
                self._write_cards(con, key, cards)
                self._write_version(con, key, version, fmt, text, cards, stamp)
            elif text != deck.text:
                v = SAVED_DECK_VERSIONS
                con.execute(update(v).where(v.c.deck_name == key, v.c.version == version).values(text=text))
        return after, new

    def delete(self, key: str) -> bool:
        """Delete a deck and its versions; whether there was one."""
        with self.store.begin() as con:
            con.execute(delete(SAVED_DECK_CARDS).where(SAVED_DECK_CARDS.c.deck_name == key))
            con.execute(delete(SAVED_DECK_VERSIONS).where(SAVED_DECK_VERSIONS.c.deck_name == key))
            return bool(con.execute(delete(SAVED_DECKS).where(SAVED_DECKS.c.name == key)).rowcount)

    def _write_cards(self, con: Connection, key: str, cards: Cards) -> None:
        # a game's own cards (Taktik's playing cards) are in no card table: a collection cannot count them, and
        # PostgreSQL's foreign key refuses them; the version's JSON and the deck's text keep them
        dc = SAVED_DECK_CARDS
        con.execute(delete(dc).where(dc.c.deck_name == key))
        known = self.known_ids()
        rows = [{"deck_name": key, "card_id": c.card_id, "section": c.section, "quantity": c.quantity}
                for c in cards if c.card_id in known]
        if rows:
            con.execute(insert(dc), rows)

    @staticmethod
    def _write_version(con: Connection, key: str, version: int, fmt: str, text: str, cards: Cards, at: str) -> None:
        con.execute(insert(SAVED_DECK_VERSIONS).values(deck_name=key, version=version, format=fmt, text=text,
                                                      cards=_cards_json(cards), at=at))


def stored_cards(entries: Iterable[tuple[str, str, str, int]]) -> Cards:
    """(card id, name, section, quantity) rows as a version's cards."""
    return tuple(StoredCard(i, n, s, q) for i, n, s, q in entries)


def changes_text(before: Cards, after: Cards) -> str:
    """What a version changed, card by card: "+2 Thrust, −1 Dodge" (added first, then removed, each by name)."""
    def counts(cards: Cards) -> dict[str, int]:
        out: dict[str, int] = {}
        for c in cards:
            out[c.name] = out.get(c.name, 0) + c.quantity
        return out
    a, b = counts(before), counts(after)
    names: Sequence[str] = sorted(a.keys() | b.keys(), key=lambda n: (n.casefold(), n))
    added = [f"+{b.get(n, 0) - a.get(n, 0)} {n}" for n in names if b.get(n, 0) > a.get(n, 0)]
    removed = [f"\u2212{a.get(n, 0) - b.get(n, 0)} {n}" for n in names if a.get(n, 0) > b.get(n, 0)]
    return ", ".join(added + removed)
