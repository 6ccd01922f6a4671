"""A card sheet imported into the database so that it can be taken back (the web's keeper import, issue 36).

`import_sheet` runs the one card update (deckcheck.db.updates.update_cards_on) and, in the same transaction, keeps
a record of what it did: the cards it added and every value it changed, old and new with their sources. The
record is a row of the database's own facts (deckcheck_meta, key `card_import:N`): no table of its own, so no
migration. `undo` takes an import back in one transaction: a value it changed returns to what it was (with its
old source) unless a later change replaced it (that one stays, and is counted); a card it added is removed unless
a saved deck or a collection holds it (then it stays, and is named). The record stays, marked undone, so its
number is never reused and a second undo says so.
"""
from __future__ import annotations

import datetime as _dt
import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from sqlalchemy import Connection, delete, select

from deckcheck import provenance as prov
from deckcheck.cardsheet import SheetCard

from .collections import NoSuchImport, UndoRefused
from .models import CARD_SOURCES, CARDS, COLLECTION_ENTRIES, META, SAVED_DECK_CARDS
from .store import Store, bump_cards_version, read_cards, read_meta, write_meta
from .updates import UpdateResult, _value_text, cards_writers_turn, update_cards_on, value_cells

PREFIX = "card_import:"


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

    def as_json(self) -> dict[str, Any]:
        """The record as the database keeps it."""
        return {"label": self.label, "at": self.at, "by": self.by, "added": list(self.added),
                "changes": [list(c) for c in self.changes], "undone": self.undone}

    @classmethod
    def from_json(cls, number: int, data: Mapping[str, Any]) -> "CardImport":
        """The record of import `number` from its kept JSON."""
        return cls(number, str(data.get("label", "")), str(data.get("at", "")), str(data.get("by", "")),
                   tuple(str(a) for a in data.get("added", ())),
                   tuple((str(c[0]), str(c[1]), str(c[2]), str(c[3]), str(c[4])) for c in data.get("changes", ())),
                   str(data.get("undone", "")))


@dataclass
class Undone:
    """What an undo did: the import, the values put back, those a later change kept, the cards removed and kept."""

    past: CardImport
    restored: int = 0
    later: int = 0  # values changed again since the import: they stay
    removed: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # added cards a saved deck or a collection holds: they stay


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


def import_sheet(store: Store, rows: Iterable[SheetCard], label: str, by: str) -> tuple[UpdateResult, CardImport]:
    """Import card-sheet rows (all of them: the caller leaves the bad rows out) as `cards import` does, and keep the
    record that lets it be undone; both in one transaction."""
    origin = prov.sheet(label)
    with store.begin() as con:
        cards_writers_turn(con)
        result = update_cards_on(con, store, rows, origin)
        number = max(_records(con), default=0) + 1
        past = CardImport(number, label, _now(), by, tuple(result.added),
                          tuple((c.card_id, c.field, c.old, c.new, str(c.old_source or "")) for c in result.changes))
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
        back: dict[str, dict[str, object]] = {}
        now = read_cards(con, sorted({c[0] for c in past.changes} - added))  # one read, not one a change
        for card_id, name, old, new, old_source in reversed(past.changes):
            if card_id in added:
                continue
            current = now.get(card_id)
            if current is None or _value_text(current, name) != new:
                done.later += 1
                continue
            row = back.setdefault(card_id, {"id": card_id})
            row.update(value_cells(name, old))  # a grid's "(inferred)" is its grid_inferred flag
            if old_source and name in prov.FIELDS:
                row[prov.column(name)] = old_source
            done.restored += 1
        if back:
            # (the history of what it puts back is kept, as of every change)
            update_cards_on(con, store, list(back.values()), prov.web(f"undo of {past.label}"), overwrite=True)
        _remove_added(con, past.added, done)
        finished = CardImport(past.id, past.label, past.at, past.by, past.added, past.changes, _now())
        write_meta(con, {f"{PREFIX}{number}": json.dumps(finished.as_json(), ensure_ascii=False)})
        done.past = finished
    return done


def _remove_added(con: Connection, added: Iterable[str], done: Undone) -> None:
    """Remove the cards an import added, but those a saved deck or a collection holds (named in `done.kept`)."""
    ids = list(added)
    if not ids:
        return
    held: set[str] = set()
    for start in range(0, len(ids), 500):
        part = ids[start:start + 500]
        held |= {str(r) for r in con.execute(select(SAVED_DECK_CARDS.c.card_id)
                                             .where(SAVED_DECK_CARDS.c.card_id.in_(part))).scalars()}
        held |= {str(r) for r in con.execute(select(COLLECTION_ENTRIES.c.card_id)
                                             .where(COLLECTION_ENTRIES.c.card_id.in_(part))).scalars()}
    gone = [i for i in ids if i not in held]
    done.kept = [i for i in ids if i in held]
    for start in range(0, len(gone), 500):
        part = gone[start:start + 500]
        con.execute(delete(CARD_SOURCES).where(CARD_SOURCES.c.card_id.in_(part)))
        con.execute(delete(CARDS).where(CARDS.c.id.in_(part)))
    done.removed = gone
    if gone:
        bump_cards_version(con)
