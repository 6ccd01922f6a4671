"""A card sheet imported into the database so that it can be taken back (the web's keeper import, issue 36).

`import_sheet` runs the one card update (deckcheck.db.updates.update_cards_on) and, in the same transaction, keeps
a record of what it did: the cards it added and every value it changed, old and new with their sources, and where
the cards' history (card_change) stood once it was written. The record is a row of the database's own facts
(deckcheck_meta, key `card_import:N`): no table of its own, so no migration.

`undo` takes an import back in one transaction, and never a change made after it (as a collection's undo keeps
every later change, deckcheck.db.collections): what still stands as the import left it goes back, the rest stays
and is named with who changed it. A value it changed returns to what it was (with its old source) unless a later
import, a keeper's edit or an accepted card fact changed it since (the history after the import says so; a later
change undone since, which put the value and its source back, is none). A card it added is removed unless one of
its values was changed since, or anything in the database refers to it (a saved deck or one of its earlier
versions, a collection or a standing collection import's journal, a card fact proposal, a desk submission's list
or a deck check by name, among the cards of its event's game): then it stays, with the reason. The
record stays, marked undone with what the undo did, so its number is never reused and a second undo says so.
"""
from __future__ import annotations

import datetime as _dt
import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Mapping, Sequence

from sqlalchemy import Connection, delete, func, select

from deckcheck import provenance as prov
from deckcheck.cards import Card
from deckcheck.cardsheet import SheetCard
from deckcheck.errors import UnknownFormatError
from deckcheck.games import game_of

from .collections import NoSuchImport, UndoRefused
from .models import (CARD_CHANGES, CARD_SOURCES, CARDS, CHECKS, COLLECTION_ENTRIES, EVENTS, IMPORTS, META,
                     PROPOSALS, SAVED_DECK_CARDS, SAVED_DECK_VERSIONS, SUBMISSIONS)
from .sources import read_sources
from .store import Store, bump_cards_version, read_cards, read_meta, write_meta
from .updates import UpdateResult, _value_text, cards_writers_turn, update_cards_on, value_cells

PREFIX = "card_import:"
CHUNK = 500  # ids in one IN (...) list
SHOWN = 50  # what an undo kept, listed one by one in its record (the page's list); beyond that, the counts


@dataclass(frozen=True)
class CardImport:
    """One import of a card sheet: its number, the sheet's name, when and by whom, what it added and changed."""

    id: int
    label: str
    at: str
    by: str
    added: tuple[str, ...]
    changes: tuple[tuple[str, str, str, str, str], ...]  # card id, field, old, new, old source (sheet text)
    undone: str = ""  # when it was undone ('' while it stands)
    mark: int | None = None  # the cards' history (card_change id) as the import left it; None: not recorded
    source: str = ""  # the provenance of the values it set, as text (names it in the history of a later change)
    outcome: Mapping[str, Any] = field(default_factory=dict)  # what its undo did (Undone.as_json)

    def as_json(self) -> dict[str, Any]:
        """The record as the database keeps it."""
        return {"label": self.label, "at": self.at, "by": self.by, "added": list(self.added),
                "changes": [list(c) for c in self.changes], "undone": self.undone, "mark": self.mark,
                "source": self.source, "outcome": dict(self.outcome)}

    @classmethod
    def from_json(cls, number: int, data: Mapping[str, Any]) -> "CardImport":
        """The record of import `number` from its kept JSON."""
        mark = data.get("mark")
        return cls(number, str(data.get("label", "")), str(data.get("at", "")), str(data.get("by", "")),
                   tuple(str(a) for a in data.get("added", ())),
                   tuple((str(c[0]), str(c[1]), str(c[2]), str(c[3]), str(c[4])) for c in data.get("changes", ())),
                   str(data.get("undone", "")), mark if isinstance(mark, int) else None, str(data.get("source", "")),
                   dict(data.get("outcome") or {}))

    def describe(self) -> str:
        """'import 2 (b.csv, 2026-12-03 08:00 UTC)', as a collection's import is named."""
        return f"import {self.id} ({self.label or 'a sheet'}, {self.at[:16].replace('T', ' ')} UTC)"


@dataclass
class Undone:
    """What an undo did: the import, the values put back, those a later change kept, the cards removed and kept."""

    past: CardImport
    restored: int = 0
    later: list[str] = field(default_factory=list)  # values changed again since the import: they stay (who, said)
    removed: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # added cards that stay (a later change, a saved deck...)
    why: dict[str, str] = field(default_factory=dict)  # each kept card's reason, by id

    def as_json(self) -> dict[str, Any]:
        """What the record keeps of it: the counts, and the first SHOWN of the values and cards kept, said."""
        notes = self.later + [self.why[i] for i in self.kept]
        return {"restored": self.restored, "removed": len(self.removed), "later": len(self.later),
                "kept": len(self.kept), "notes": notes[:SHOWN]}


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def _records(con: Connection) -> dict[int, dict[str, Any]]:
    rows = con.execute(select(META.c.key, META.c.value).where(META.c.key.like(f"{PREFIX}%"))).all()
    out = {}
    for key, value in rows:
        number = str(key)[len(PREFIX):]
        if number.isdigit():
            out[int(number)] = json.loads(value)
    return out


def _names(con: Connection, ids: Sequence[str]) -> dict[str, str]:
    """The names of the stored cards of these ids, by id (those that exist)."""
    out: dict[str, str] = {}
    for start in range(0, len(ids), CHUNK):
        out.update((str(i), str(n)) for i, n in con.execute(select(CARDS.c.id, CARDS.c.name)
                                                            .where(CARDS.c.id.in_(ids[start:start + CHUNK]))))
    return out


def _history_mark(con: Connection) -> int:
    """The newest row of the cards' history (0: none). Every card writer takes its turn (cards_writers_turn) and
    writes its history in it, so a row after this one is a change made after."""
    return int(con.execute(select(func.max(CARD_CHANGES.c.id))).scalar() or 0)


def import_sheet(store: Store, rows: Iterable[SheetCard], label: str, by: str) -> tuple[UpdateResult, CardImport]:
    """Import card-sheet rows (all of them: the caller leaves the bad rows out) as `cards import` does, and keep the
    record that lets it be undone; both in one transaction."""
    origin = prov.sheet(label)
    with store.begin() as con:
        cards_writers_turn(con)
        result = update_cards_on(con, store, rows, origin)
        number = max(_records(con), default=0) + 1
        past = CardImport(number, label, _now(), by, tuple(result.added),
                          tuple((c.card_id, c.field, c.old, c.new, str(c.old_source or "")) for c in result.changes),
                          mark=_history_mark(con), source=str(origin))
        write_meta(con, {f"{PREFIX}{number}": json.dumps(past.as_json(), ensure_ascii=False)})
    return result, past


def imports(store: Store) -> list[CardImport]:
    """Every import kept, the newest first."""
    with store.engine.connect() as con:
        found = _records(con)
    return [CardImport.from_json(n, found[n]) for n in sorted(found, reverse=True)]


def last_import(store: Store) -> CardImport | None:
    """The newest import not undone (the one the page offers to undo), or None."""
    return next((p for p in imports(store) if not p.undone), None)


def card_import(store: Store, number: int) -> CardImport | None:
    """The record of import `number` (None: no such import)."""
    with store.engine.connect() as con:
        data = read_meta(con, [f"{PREFIX}{number}"]).get(f"{PREFIX}{number}")
    return None if data is None else CardImport.from_json(number, json.loads(data))


@dataclass(frozen=True)
class _Later:
    """One change of the cards' history made after an import (a row of card_change)."""

    old: str
    old_source: str
    new_source: str
    accepted_by: str


def _later_changes(con: Connection, past: CardImport, ids: Iterable[str]) -> dict[str, dict[str, list[_Later]]]:
    """The history of these cards after the import, by card and field, oldest first. A record kept before the
    history's mark was: the changes from its time on, but its own. One read of the history since the import (what
    changed since is read, not 40,000 ids of an import asked about in pieces)."""
    h = CARD_CHANGES
    wanted = set(ids)
    own = {(c[0], c[1], c[2], c[3]) for c in past.changes} if past.mark is None else set()
    after = h.c.id > past.mark if past.mark is not None else h.c.at >= past.at
    out: dict[str, dict[str, list[_Later]]] = {}
    rows = con.execute(select(h.c.card_id, h.c.field_name, h.c.old, h.c.new, h.c.old_source, h.c.new_source,
                              h.c.accepted_by).where(after).order_by(h.c.id))
    for card_id, name, old, new, old_source, new_source, accepted_by in rows:
        if card_id in wanted and (card_id, name, old, new) not in own:
            out.setdefault(card_id, {}).setdefault(name, []).append(_Later(old, old_source, new_source, accepted_by))
    return out


class _Standing:
    """Whether values still stand as an import left them, and if not who changed them since."""

    def __init__(self, con: Connection, past: CardImport):
        changed = sorted({c[0] for c in past.changes} - set(past.added))
        self.later = _later_changes(con, past, changed + list(past.added))
        # whole cards and sources only where a value is to be compared: what it changed, and what it added that a
        # later change touched (an import of 40,000 new cards nobody changed since reads none of them)
        compared = changed + [i for i in past.added if i in self.later]
        self.cards = read_cards(con, compared)
        self.sources = read_sources(con, compared)
        self.imports = {str(r.get("source")): CardImport.from_json(n, r).describe()
                        for n, r in _records(con).items() if r.get("source")}

    def as_left(self, card: Card, name: str, value: str | None = None) -> bool:
        """Whether a field of a card holds what the import left (`value`, where its record says it): changed by no
        later change, or put back, value and source, by a later one (an undo of a later import)."""
        changes = self.later.get(card.id, {}).get(name, [])
        now = _value_text(card, name)
        if value is not None and now != value:
            return False
        source = self.sources.get(card.id, {}).get(name)
        return not changes or (now == changes[0].old and str(source or "") == changes[0].old_source)

    def by(self, card_id: str, name: str) -> str:
        """Who made a field what it holds now: the last later change's import, person or source."""
        changes = self.later.get(card_id, {}).get(name)
        if not changes:
            return "a change the cards' history does not hold"
        last = changes[-1]
        if last.new_source in self.imports:
            return self.imports[last.new_source]
        said = (prov.parse(last.new_source).describe() if last.new_source
                else "a rename made before renames kept their source in the history")
        return said + (f", accepted by {last.accepted_by}" if last.accepted_by else "")

    def fields_changed(self, card: Card) -> list[str]:
        """The fields of a card the import added that a later change left otherwise, each with who changed it."""
        return [f"{name} by {self.by(card.id, name)}" for name in sorted(self.later.get(card.id, {}))
                if not self.as_left(card, name)]


def undo(store: Store, number: int) -> Undone:
    """Take import `number` back (see the module's words); NoSuchImport for a number of no import, UndoRefused for
    one undone already."""
    with store.begin() as con:
        cards_writers_turn(con)
        data = read_meta(con, [f"{PREFIX}{number}"]).get(f"{PREFIX}{number}")
        if data is None:
            raise NoSuchImport(f"no card sheet import has the number {number}")
        past = CardImport.from_json(number, json.loads(data))
        if past.undone:
            raise UndoRefused(f"the import of {past.label} ({past.at}) was undone already ({past.undone})")
        done = Undone(past)
        added = set(past.added)
        standing = _Standing(con, past)  # one read of what the import touched, not one a change
        back: dict[str, dict[str, object]] = {}
        for card_id, name, old, new, old_source in reversed(past.changes):
            if card_id in added:
                continue
            current = standing.cards.get(card_id)
            if current is None or not standing.as_left(current, name, new):
                shown = f"{current.name} [{card_id}]" if current is not None else f"[{card_id}]"
                done.later.append(f"{shown} {name}: changed since by {standing.by(card_id, name)}; it stays")
                continue
            row = back.setdefault(card_id, {"id": card_id})
            row.update(value_cells(name, old))  # a grid's "(inferred)" is its grid_inferred flag
            if old_source and name in prov.FIELDS:
                row[prov.column(name)] = old_source
            done.restored += 1
        changed = {}
        for card_id, card in standing.cards.items():
            said = standing.fields_changed(card) if card_id in added else []
            if said:
                changed[card_id] = f"{card.name} [{card_id}] stays: changed since ({'; '.join(said)})"
        if back:
            # (the history of what it puts back is kept, as of every change)
            update_cards_on(con, store, list(back.values()), prov.web(f"undo of {past.label}"), overwrite=True)
        _remove_added(con, past.added, changed, done)
        finished = CardImport(past.id, past.label, past.at, past.by, past.added, past.changes, _now(), past.mark,
                              past.source, done.as_json())
        write_meta(con, {f"{PREFIX}{number}": json.dumps(finished.as_json(), ensure_ascii=False)})
        done.past = finished
    return done


# What refers to a card (db/models.py), and what it means for an added card an undo would remove: by id in a column,
# by id in a JSON column, and by name (a desk's list names its cards as the player's deck resolved them).
_BY_ID = ((SAVED_DECK_CARDS, "a saved deck holds it"), (COLLECTION_ENTRIES, "a collection holds it"),
          (PROPOSALS, "a card fact proposal names it"))


def _leading_ids(text: str) -> Iterator[str]:
    """The card ids of a JSON list whose entries start with one: a saved deck version's cards ([[card id, name,
    section, quantity], ...]), a collection import's journal ([[card id, condition, language, foil, ...], ...])."""
    for entry in json.loads(text or "[]"):
        yield str(entry[0])


def _listed_names(text: str) -> Iterator[str]:
    """The card names of a desk submission's registered list ([section, card, quantity]; `Card @ Hero` attached)."""
    for line in json.loads(text or "{}").get("registered", {}).get("lines", []):
        yield str(line[1])
        yield str(line[1]).split(" @ ", 1)[0]


def _counted_names(text: str) -> Iterator[str]:
    """The card names a deck check counted or found missing."""
    data = json.loads(text or "{}")
    yield from map(str, data.get("counts", {}))
    yield from (str(d.get("card", "")) for d in data.get("differences", []))


def _references(con: Connection, ids: Sequence[str]) -> dict[str, str]:
    """Why each of these cards must stay, for those something in the database refers to (by id or by name)."""
    cards = set(ids)
    why: dict[str, str] = {}
    for start in range(0, len(ids), CHUNK):
        part = ids[start:start + CHUNK]
        for table, what in _BY_ID:
            for card_id in con.execute(select(table.c.card_id).where(table.c.card_id.in_(part))).scalars():
                why.setdefault(str(card_id), what)
    by_json = ((select(SAVED_DECK_VERSIONS.c.cards), _leading_ids, "an earlier version of a saved deck holds it"),
               (select(IMPORTS.c.before).where(IMPORTS.c.undone == ""), _leading_ids,
                "a collection import's undo would put it back"))
    for query, read, what in by_json:
        for (text,) in con.execute(query):
            for card_id in read(text):
                if card_id in cards:
                    why.setdefault(card_id, what)
    # by name, as players write them, within the event's game (a Raven event's `Ann` is no Taktik Hero `Ann`)
    by_name = ((select(EVENTS.c.format, SUBMISSIONS.c.report).outerjoin(EVENTS, EVENTS.c.id == SUBMISSIONS.c.event_id),
                _listed_names, "a desk submission lists it"),
               (select(EVENTS.c.format, CHECKS.c.data).outerjoin(EVENTS, EVENTS.c.id == CHECKS.c.event_id),
                _counted_names, "a deck check at an event counted it"))
    for query, read, what in by_name:
        by_game: dict[str | None, set[str]] = {}
        for fmt, text in con.execute(query):
            by_game.setdefault(_game(fmt), set()).update(read(text))
        for game, named in sorted(by_game.items(), key=lambda g: g[0] or ""):
            names = sorted(named)
            for start in range(0, len(names), CHUNK):  # the cards of those names (an event's few), these among them
                found = select(CARDS.c.id).where(CARDS.c.name.in_(names[start:start + CHUNK]))
                for card_id in con.execute(found if game is None else found.where(CARDS.c.game == game)).scalars():
                    if card_id in cards:
                        why.setdefault(str(card_id), what)
    return why


def _game(fmt: str | None) -> str | None:
    """The game of an event's format; None (any game's card of the name) for a format no game has now (a plugin
    gone): a card kept for nothing is better than one removed that a list names."""
    try:
        return game_of(fmt).name if fmt else None
    except UnknownFormatError:
        return None


def _remove_added(con: Connection, added: Sequence[str], changed: Mapping[str, str], done: Undone) -> None:
    """Remove the cards an import added, but those a later change changed (`changed`: why) and those something in
    the database refers to (_references): all named in `done.kept`, with why."""
    ids = list(added)
    if not ids:
        return
    held: dict[str, str] = dict(changed)
    referred = _references(con, [i for i in ids if i not in held])
    names = _names(con, sorted(referred))
    for card_id, what in referred.items():
        held[card_id] = f"{names.get(card_id, '')} [{card_id}] stays: {what}"
    gone = [i for i in ids if i not in held]
    done.kept = [i for i in ids if i in held]
    done.why = {i: held[i] for i in done.kept}
    for start in range(0, len(gone), CHUNK):
        part = gone[start:start + CHUNK]
        con.execute(delete(CARD_SOURCES).where(CARD_SOURCES.c.card_id.in_(part)))
        con.execute(delete(CARDS).where(CARDS.c.id.in_(part)))
    done.removed = gone
    if gone:
        bump_cards_version(con)
