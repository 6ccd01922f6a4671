"""Collections and saved decks in the database: bulk upserts in SQL, every change in one transaction."""
from __future__ import annotations

import datetime as _dt
import hashlib
import json
import re
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Mapping, Sequence

from sqlalchemy import Connection, CursorResult, case, delete, func, insert, select, update

from deckcheck.cards import Card
from deckcheck.collection import (MAX_QUANTITY, Holding, Holdings, Key, deck_name)
from deckcheck.errors import DeckcheckError

from . import rawsql
from .keptdecks import KeptDecks, Revision, stored_cards
from .models import (COLLECTION_ENTRIES, COLLECTION_OWNER, COLLECTIONS, IMPORTS, KEEPER_KEY, SAVED_DECK_CARDS,
                     SAVED_DECKS, dialect_insert)
from .store import Store

# The columns of collection_entry (db/models.py) as the code below reads and writes them: the key of an entry,
# then its values (tests/db/test_queries.py checks that together they are the table's columns but its id).
KEY_COLUMNS = ("collection_id", "card_id", "condition", "language", "foil")
VALUE_COLUMNS = ("quantity", "trade_quantity", "want_quantity", "location", "notes", "price")
BATCH = 5000
SAMPLE = 10  # changes listed by an import; the rest are counted
COUNTS = 3  # the first values of an entry are counts (quantity, trade, want); the rest text (location, notes, price)


TOTALS = ("entries", "copies", "for_trade", "wanted")


@dataclass(frozen=True)
class PastImport:
    """An import journalled in a collection: when (ISO 8601, UTC), the file's name, the mode, what it changed."""

    at: str
    label: str
    mode: str
    changes: int = 0
    id: int = 0  # what an undo names it by

    @property
    def when(self) -> str:
        """The time for people: '2026-11-30 14:02 UTC'."""
        return self.at[:16].replace("T", " ") + " UTC"

    def describe(self) -> str:
        """'import 7 (c.csv, 2026-11-30 14:02 UTC)'."""
        return f"import {self.id} ({self.label or 'a sheet'}, {self.when})"


IMPORT_ID = re.compile(r"[0-9]{1,18}")  # ASCII digits only: int() would take '١' (Arabic-Indic) for 1


def import_id(text: object) -> int:
    """An import's id as a user wrote it (a whole number); DeckcheckError for anything else."""
    value = str(text).strip()
    if not IMPORT_ID.fullmatch(value) or int(value) < 1:
        shown = value[:40] + ("..." if len(value) > 40 else "")
        raise DeckcheckError(f"an import id is a whole number from 1 (as `collection imports` lists them), "
                             f"not {shown!r}")
    return int(value)


class UndoRefused(DeckcheckError):
    """An undo that changed nothing: already undone, no import left to undo, or a later change in its way (409)."""


class NoSuchImport(UndoRefused):
    """An undo of an import id that names no import of the collection (404)."""


class AlreadyImported(DeckcheckError):
    """A file whose content was imported into the collection before: importing it again adds its copies again,
    so it is imported again only when asked (CONTRACTS §4, revision 3). Nothing was changed."""

    def __init__(self, collection: str, past: PastImport, label: str = ""):
        self.collection, self.past = collection, past
        what = f"{label!r}" if label else "this file"
        super().__init__(f"{what}: its content was imported into the collection {collection!r} on {past.when}"
                         + (f" (from {past.label!r})" if past.label and past.label != label else "")
                         + ": importing again adds its copies again. Nothing was imported; import again only if "
                           "you mean it (--again), or make the collection equal to the file (--mode replace)")


@dataclass
class Change:
    """What an import did (or would do): keys added, updated, removed, unchanged, with a sample of each.

    `before[i]` is the entry `sample[i]` named as it stood before (None: there was none);
    `totals_before`/`totals_after` count entries, copies, copies for trade and wanted over the whole
    collection; `imported_before` is the last import of the same content into it, if any."""

    added: int = 0
    updated: int = 0
    removed: int = 0
    unchanged: int = 0
    kept: int = 0  # entries a replace left alone because a skipped row named their card
    sample: list[tuple[str, Holding]] = field(default_factory=list)
    before: list[Holding | None] = field(default_factory=list)
    totals_before: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TOTALS, 0))
    totals_after: dict[str, int] = field(default_factory=lambda: dict.fromkeys(TOTALS, 0))
    imported_before: PastImport | None = None
    import_id: int | None = None  # the journal's id of the import (None: a dry run, or nothing changed)

    @property
    def changed(self) -> bool:
        """Whether anything was (or would be) changed."""
        return bool(self.added or self.updated or self.removed)


def content_digest(holdings: Mapping[Key, Holding]) -> str:
    """What a file holds for one collection, as a digest of its resolved entries (the same content saved
    again, in another layout or another order, has the same digest)."""
    rows = sorted([h.card.id, h.condition, h.language, bool(h.foil), h.quantity, h.trade_quantity, h.want_quantity,
                   h.location, h.notes, h.price] for h in holdings.values())
    return hashlib.sha256(json.dumps(rows, ensure_ascii=False).encode()).hexdigest()


def _entry_key(collection_id: int | None, card_id: str, condition: str, language: str, foil: bool) -> list[Any]:
    """The WHERE clauses naming one entry by its key (the table's unique key)."""
    e = COLLECTION_ENTRIES
    return [e.c[k] == v for k, v in zip(KEY_COLUMNS, (collection_id, card_id, condition, language, foil), strict=True)]


def entry_upsert(con: Connection, mode: str) -> Any:
    """The INSERT of collection entries (values in KEY_COLUMNS + VALUE_COLUMNS order) that an import runs: on an
    entry that exists, `replace` sets its values, `merge` adds the quantities and keeps a stored location, note or
    price where the row has none."""
    e = COLLECTION_ENTRIES
    upsert = dialect_insert(con)(e)
    new = upsert.excluded
    if mode == "replace":
        values = {c: new[c] for c in VALUE_COLUMNS}
    else:
        values = {"quantity": e.c.quantity + new.quantity, "trade_quantity": e.c.trade_quantity + new.trade_quantity,
                  "want_quantity": e.c.want_quantity + new.want_quantity,
                  **{c: case((new[c] != "", new[c]), else_=e.c[c]) for c in ("location", "notes", "price")}}
    return upsert.on_conflict_do_update(index_elements=[e.c[k] for k in KEY_COLUMNS], set_=values)


def _one_row(result: CursorResult[Any], name: str) -> None:
    """A hand edit's write must meet the entry it read: otherwise it is refused whole, never reported as done."""
    if result.rowcount != 1:
        raise DeckcheckError(f"the collection {name!r} was changed by another program at the same moment; nothing "
                             "was changed, try again")


def _counts(values: tuple[Any, ...] | None) -> tuple[int, int, int, int]:
    """(entries, copies, for trade, wanted) that one stored entry adds to the totals."""
    return (0, 0, 0, 0) if values is None else (1, values[0], values[1], values[2])


def _listed(values: tuple[Any, ...] | None) -> list[Any] | None:
    return None if values is None else list(values)


Values = tuple[Any, ...]  # an entry's VALUE_COLUMNS (and, read back, its id)


def undone_values(before: Values | None, after: Values | None, now: Values | None) -> Values | None:
    """An entry's values once one import is taken back and every later change kept (None: no entry).

    The counts lose what the import added (or get back what it took); a text the import set goes back to what it
    was unless a later change set it again. ValueError when a count would fall below 0 or exceed MAX_QUANTITY: a
    later change removed what the import added (the undo is refused then). Unchanged since, it is exactly as it was
    before; changed since and left with no copies, none for trade and none wanted, it goes."""
    if now == after:
        return before
    empty = (0,) * COUNTS + ("",) * (len(VALUE_COLUMNS) - COUNTS)
    was, made, held = before or empty, after or empty, now or empty
    counts = tuple(h - m + w for h, m, w in zip(held[:COUNTS], made[:COUNTS], was[:COUNTS], strict=True))
    if min(counts) < 0 or max(counts) > MAX_QUANTITY:
        raise ValueError(counts)
    texts = tuple(w if now is None or h == m else h
                  for w, m, h in zip(was[COUNTS:], made[COUNTS:], held[COUNTS:], strict=True))
    return counts + texts if any(counts) else None


def _after(now: tuple[Any, ...] | None, h: Holding, mode: str, present: set[str] | None) -> tuple[Any, ...]:
    """An entry's values after an import row (`now`: as stored, None for a new entry): added to in merge mode;
    in replace mode the row's values, but for the columns its sheet does not have (`present`)."""
    new = (h.quantity, h.trade_quantity, h.want_quantity, h.location, h.notes, h.price)
    if now is None:
        return new
    if mode == "merge":
        return (now[0] + h.quantity, now[1] + h.trade_quantity, now[2] + h.want_quantity,
                h.location or now[3], h.notes or now[4], h.price or now[5])
    return tuple(v if present is None or c in present else now[i]
                 for i, (c, v) in enumerate(zip(VALUE_COLUMNS, new, strict=True)))


def _totals(current: Mapping[Key, Values], writes: list[tuple[Holding, Values]], gone: list[tuple[Key, Values]]
            ) -> tuple[dict[str, int], dict[str, int]]:
    """A collection's TOTALS before and after an import that writes these entries and removes those."""
    before = [0, 0, 0, 0]
    for values in current.values():
        before = [b + n for b, n in zip(before, _counts(values), strict=True)]
    delta = [0, 0, 0, 0]
    for h, after in writes:
        old = _counts(current.get(h.key))
        delta = [d + a - o for d, a, o in zip(delta, _counts(after), old, strict=True)]
    for _key, now in gone:
        delta = [d - o for d, o in zip(delta, _counts(now), strict=True)]
    return dict(zip(TOTALS, before, strict=True)), {k: before[i] + delta[i] for i, k in enumerate(TOTALS)}


NOBODY = -1  # the owner key of an anonymous visitor's view: no collection has it (account ids start at 1)


class NoCollection(DeckcheckError):
    """A collection the one asking has none of by that name (404: another owner's answers the same)."""


class Collections:
    """The collections of one owner (CONTRACTS §9), and the saved decks, of one database.

    `owner_id`: the account whose collections these are, None for the keeper's (what the CLI and a personal server
    use); `known` False: an anonymous visitor's view, which holds no collection and may make none. Another owner's
    collection of the same name is another collection: names are unique per owner. `of` gives the same database's
    collections of another owner, sharing the cards read."""

    def __init__(self, store: Store, owner_id: int | None = None, known: bool = True,
                 _shared: dict[str, dict[str, Card]] | None = None):
        self.store = store
        self._shared = {} if _shared is None else _shared  # the cards read, shared with every view `of` made
        self.owner_id = owner_id
        self.owner_key = NOBODY if not known else KEEPER_KEY if owner_id is None else owner_id

    def of(self, owner_id: int | None, known: bool = True) -> Collections:
        """The collections of another owner (None: the keeper's; `known` False: nobody's) of the same database."""
        return Collections(self.store, owner_id, known, self._shared)

    @property
    def anonymous(self) -> bool:
        """Whether this is an anonymous visitor's view (no collection, none to make)."""
        return self.owner_key == NOBODY

    def _mine(self) -> Any:
        """The WHERE clause of this owner's collections."""
        return COLLECTION_OWNER == self.owner_key

    @property
    def cards(self) -> dict[str, Card]:
        """Every stored card by id, read once."""
        found = self._shared.get("cards")
        if found is None:
            found = self._shared["cards"] = {c.id: c for c in self.store.cards()}
        return found

    def _collection_id(self, con: Connection, name: str, create: bool) -> int | None:
        c = COLLECTIONS
        find = select(c.c.id).where(c.c.name == name, self._mine())
        row = con.execute(find).first()
        if row is not None:
            return int(row[0])
        if not create:
            return None
        if self.anonymous:
            raise DeckcheckError("sign in first: an anonymous visitor has no collection to change")
        # another import may create the same collection at this moment: its row is then the one (never a 500)
        con.execute(dialect_insert(con)(c).values(name=name, owner_id=self.owner_id).on_conflict_do_nothing(
            index_elements=[COLLECTION_OWNER, c.c.name]))
        return int(con.execute(find).scalar_one())

    def _locked_id(self, con: Connection, name: str, create: bool) -> int | None:
        """The collection's id, its row locked (FOR UPDATE) until the transaction ends: the undos and hand edits of
        one collection take turns on PostgreSQL, each reading what the one before it left (under READ COMMITTED an
        entry's own lock is not enough: a row rewritten by the other reads as gone). SQLite's writers already take
        turns (BEGIN IMMEDIATE). A collection deleted before its lock is taken (an undo emptied it) is sought again."""
        c = COLLECTIONS
        cid = None
        for _again in range(2):
            cid = self._collection_id(con, name, create)
            if cid is None or con.execute(select(c.c.id).where(c.c.id == cid).with_for_update()).first() is not None:
                return cid
        return None

    def names(self) -> list[str]:
        """The names of the collections."""
        c = COLLECTIONS
        with self.store.engine.connect() as con:
            return list(con.execute(select(c.c.name).where(self._mine()).order_by(c.c.name)).scalars())

    def holdings(self, name: str | None = "main") -> Holdings:
        """Every holding of one of this owner's collections (of all of them, with None), in a stable order."""
        e = COLLECTION_ENTRIES
        c = COLLECTIONS
        stmt = (select(e.c.card_id, e.c.condition, e.c.language, e.c.foil, e.c.quantity, e.c.trade_quantity,
                       e.c.want_quantity, e.c.location, e.c.notes, c.c.name, e.c.price)
                .join_from(e, c, c.c.id == e.c.collection_id).where(self._mine())
                .order_by(c.c.name, e.c.card_id, e.c.condition, e.c.language, e.c.foil))
        if name is not None:
            stmt = stmt.where(c.c.name == name)
        with self.store.engine.connect() as con:
            rows = con.execute(stmt).all()
        cards = self.cards
        return Holdings(Holding(cards[r[0]], r[1], r[2], bool(r[3]), r[4], r[5], r[6], r[7], r[8], r[9], r[10])
                        for r in rows)

    def _current(self, con: Connection, collection_id: int, lock: bool = False) -> dict[Key, tuple[Any, ...]]:
        e = COLLECTION_ENTRIES
        query = select(e.c.card_id, e.c.condition, e.c.language, e.c.foil, *[e.c[v] for v in VALUE_COLUMNS],
                       e.c.id).where(e.c.collection_id == collection_id)
        # lock: PostgreSQL's row locks, taken in one order (two undos at once never deadlock)
        rows = con.execute(query.order_by(e.c.id).with_for_update() if lock else query).all()
        return {(r[0], r[1], r[2], bool(r[3])): tuple(r[4:]) for r in rows}

    def apply(self, name: str, holdings: Mapping[Key, Holding], mode: str = "merge", dry_run: bool = False) -> Change:
        """Merge holdings into a collection (quantities add up) or replace it; all in one transaction."""
        return self.apply_all({name: holdings}, mode, dry_run)[name]

    def apply_all(self, collections: Mapping[str, Mapping[Key, Holding]], mode: str = "merge",
                  dry_run: bool = False, keep: Mapping[str, set[str | None]] | None = None,
                  present: Iterable[str] | None = None, sample: int = SAMPLE, label: str = "",
                  again: bool = True) -> dict[str, Change]:
        """Change several collections in one transaction: all of them, or (on any failure) none.

        `keep`: per collection, the card ids that skipped (bad) rows named, None for a row whose
        card is not known: in replace mode their entries stay as they are (a bad row never
        deletes), and an unknown card keeps every entry the file does not name. `present`: the
        sheet's columns; in replace mode the others keep their stored values (an entry stays whole).
        Each Change lists up to `sample` of its changes (a preview of every change asks for all).

        Every change is journalled (the entries it touched, as they were) for `undo`, with a digest of what
        it held and `label` (the file's name). Content imported into a collection before is imported in merge
        mode only with `again`; otherwise AlreadyImported is raised and nothing changes.
        """
        if mode not in ("merge", "replace"):
            raise DeckcheckError(f"unknown mode {mode!r}; use merge or replace")
        columns = set(present) if present is not None else None
        stamp = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
        with self.store.begin(write=not dry_run) as con:
            return {name: self._apply(con, name, holdings, mode, dry_run, (keep or {}).get(name, set()), columns,
                                      sample, label, again, stamp) for name, holdings in collections.items()}

    def _apply(self, con: Connection, name: str, holdings: Mapping[Key, Holding], mode: str, dry_run: bool,
               keep: set[str | None], present: set[str] | None, sample: int = SAMPLE, label: str = "",
               again: bool = True, stamp: str = "") -> Change:
        """One collection's change, inside the caller's transaction."""
        e = COLLECTION_ENTRIES
        imports = IMPORTS
        change = Change()
        existed = self._collection_id(con, name, create=False)
        cid = existed if existed is not None or dry_run else self._collection_id(con, name, create=True)
        current = self._current(con, cid) if cid is not None else {}
        digest = content_digest(holdings)
        if cid is not None:
            past = con.execute(select(imports.c.at, imports.c.label, imports.c.mode, imports.c.changes)
                               .where(imports.c.collection_id == cid, imports.c.digest == digest,
                                      imports.c.undone == "")
                               .order_by(imports.c.id.desc())).first()
            change.imported_before = PastImport(*past) if past else None
        journal: list[tuple[Key, tuple[Any, ...] | None, tuple[Any, ...] | None]] = []
        writes, too_many = [], []
        for key, h in holdings.items():
            now = current.get(key)
            after = _after(now, h, mode, present)
            if max(after[:3]) > MAX_QUANTITY:
                too_many.append(h)
            if now is None:
                change.added += 1
                kind = "added"
            elif tuple(now[:6]) != after:
                change.updated += 1
                kind = "updated"
            else:
                change.unchanged += 1
                continue
            writes.append((h, after))
            journal.append((key, None if now is None else tuple(now[:6]), after))
            if len(change.sample) < sample:
                change.sample.append((kind, replace(h, quantity=after[0], trade_quantity=after[1],
                                                    want_quantity=after[2])))
                change.before.append(None if now is None else self._holding(key, now, name))
        if too_many:
            raise DeckcheckError(f"collection {name!r}: " + "; ".join(h.describe() for h in too_many[:5]) +
                                 f" would hold more than {MAX_QUANTITY:,} copies; nothing was imported")
        gone: list[tuple[Key, tuple[Any, ...]]] = []
        if mode == "replace":
            left = [(key, now) for key, now in current.items() if key not in holdings]
            gone = [(key, now) for key, now in left if None not in keep and key[0] not in keep]
            change.kept += len(left) - len(gone)
            change.removed = len(gone)
            journal += [(key, tuple(now[:6]), None) for key, now in gone]
            for key, now in gone[: max(0, sample - len(change.sample))]:
                change.sample.append(("removed", self._holding(key, now, name)))
                change.before.append(self._holding(key, now, name))
        change.totals_before, change.totals_after = _totals(current, writes, gone)
        if dry_run or not change.changed:
            return change
        if change.imported_before is not None and mode == "merge" and not again:
            raise AlreadyImported(name, change.imported_before, label)
        change.import_id = con.execute(insert(imports).values(  # type: ignore[index]  # an INSERT has its key
            collection_id=cid, digest=digest, label=label[:200], mode=mode, at=stamp, created=existed is None,
            before=json.dumps([[*key, _listed(b), _listed(a)] for key, b, a in journal], ensure_ascii=False),
            changes=change.added + change.updated + change.removed)).inserted_primary_key[0]
        ids = [now[6] for _key, now in gone]
        for start in range(0, len(ids), 500):
            con.execute(delete(e).where(e.c.id.in_(ids[start:start + 500])))
        if mode == "replace":
            rows = [(cid, h.card.id, h.condition, h.language, h.foil, *after) for h, after in writes]
        else:  # added in SQL (entry_upsert): another import of the same collection at the same moment loses nothing
            rows = [(cid, h.card.id, h.condition, h.language, h.foil, h.quantity, h.trade_quantity, h.want_quantity,
                     h.location, h.notes, h.price) for h, _after in writes]
        rawsql.executemany(con, entry_upsert(con, mode), KEY_COLUMNS + VALUE_COLUMNS, rows, BATCH)
        return change

    def _holding(self, key: Key, values: tuple[Any, ...], name: str) -> Holding:
        return Holding(self.cards[key[0]], key[1], key[2], key[3], values[0], values[1], values[2], values[3],
                       values[4], name, values[5])

    def last_import(self, name: str) -> PastImport | None:
        """The last import into a collection that can be undone (None: there is none)."""
        found = self.imports(name, 1)
        return found[0] if found else None

    def imports(self, name: str, limit: int = 100) -> list[PastImport]:
        """The imports into a collection that stand (not undone), the last first."""
        c = COLLECTIONS
        i = IMPORTS
        with self.store.engine.connect() as con:
            rows = con.execute(select(i.c.at, i.c.label, i.c.mode, i.c.changes, i.c.id)
                               .join_from(i, c, c.c.id == i.c.collection_id).where(c.c.name == name, self._mine(),
                                                                                  i.c.undone == "")
                               .order_by(i.c.id.desc()).limit(limit)).all()
        return [PastImport(*row) for row in rows]

    def undo(self, name: str, import_id: int | None = None) -> PastImport:
        """Take back one import into a collection (the last one, unless `import_id` names it), in one transaction:
        what it changed goes back and every later change stays (a collection the import created goes again when
        it is left empty). Return what was undone.

        The import is claimed first, by a conditional update that exactly one of several undos arriving at once
        wins: the others raise UndoRefused (409, "already undone"), as does a later change standing in the way;
        an id that names no import of this collection raises NoSuchImport (404). Nothing changes then."""
        e = COLLECTION_ENTRIES
        c = COLLECTIONS
        i = IMPORTS
        stamp = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
        with self.store.begin() as con:
            cid = self._locked_id(con, name, create=False)
            row = self._import_row(con, name, cid, import_id)
            assert cid is not None  # _import_row found an import of the collection
            past = PastImport(row.at, row.label, row.mode, row.changes, row.id)
            claimed = con.execute(update(i).where(i.c.id == row.id, i.c.undone == "").values(undone=stamp))
            if claimed.rowcount != 1:
                raise UndoRefused(f"{past.describe()} was already undone (another undo took it back just now); "
                                  "nothing was changed")
            journal = json.loads(row.before)
            later = con.execute(select(i.c.at, i.c.label, i.c.mode, i.c.changes, i.c.id, i.c.before)
                                .where(i.c.collection_id == cid, i.c.id > row.id, i.c.undone == "")
                                .order_by(i.c.id)).all()
            if later and any(len(item) < 6 for item in journal):
                raise UndoRefused(f"{past.describe()} was journalled by an earlier deckcheck, which kept no record "
                                  f"of what it made: only the last import can be undone, and that is "
                                  f"{PastImport(*later[-1][:5]).describe()}; nothing was changed")
            current = self._current(con, cid, lock=True)
            for card_id, condition, language, foil, before, *after in journal:
                key = (card_id, condition, language, bool(foil))
                now = current.get(key)
                held = None if now is None else tuple(now[:6])
                made = after[0] if after else held  # an earlier deckcheck's journal: the entry as it stands
                try:
                    values = undone_values(None if before is None else tuple(before),
                                           None if made is None else tuple(made), held)
                except ValueError:
                    raise UndoRefused(self._blocked(past, key, made, held, name, later)) from None
                if values == held:
                    continue
                where = _entry_key(cid, *key)
                if values is None:
                    con.execute(delete(e).where(*where))
                elif held is None:
                    con.execute(insert(e).values(**dict(zip(KEY_COLUMNS + VALUE_COLUMNS, (cid, *key, *values),
                                                            strict=True))))
                else:  # in place: the same row, never a new one another writer's lock would miss
                    con.execute(update(e).where(*where).values(**dict(zip(VALUE_COLUMNS, values, strict=True))))
            if row.created:
                left = con.execute(select(func.count()).select_from(e).where(e.c.collection_id == cid)).scalar_one()
                others = con.execute(select(func.count()).select_from(i)
                                     .where(i.c.collection_id == cid, i.c.undone == "")).scalar_one()
                if not left and not others:
                    con.execute(delete(i).where(i.c.collection_id == cid))
                    con.execute(delete(c).where(c.c.id == cid))
        return past

    @staticmethod
    def _import_row(con: Connection, name: str, cid: int | None, import_id: int | None) -> Any:
        """The journal row an undo means: the collection's last standing import, or the one `import_id` names."""
        i = IMPORTS
        columns = select(i.c.id, i.c.collection_id, i.c.at, i.c.label, i.c.mode, i.c.changes, i.c.created,
                         i.c.before, i.c.undone)
        if cid is None and import_id is not None:  # none of this owner's (another's answers the same): 404
            raise NoSuchImport(f"no import {import_id} into the collection {name!r} (`collection imports` lists "
                               "them); nothing was changed")
        if cid is None:
            raise UndoRefused(f"no import into the collection {name!r} to undo")
        if import_id is None:
            row = con.execute(columns.where(i.c.collection_id == cid, i.c.undone == "")
                                                       .order_by(i.c.id.desc())).first()
            if row is None:
                raise UndoRefused(f"no import into the collection {name!r} to undo")
            return row
        row = con.execute(columns.where(i.c.id == import_id)).first()
        if row is None or row.collection_id != cid:
            raise NoSuchImport(f"no import {import_id} into the collection {name!r} (`collection imports` lists "
                               "them); nothing was changed")
        if row.undone:
            raise UndoRefused(f"{PastImport(row.at, row.label, row.mode, row.changes, row.id).describe()} was "
                              f"already undone (at {row.undone[:16].replace('T', ' ')} UTC); nothing was changed")
        return row

    def _blocked(self, past: PastImport, key: Key, made: tuple[Any, ...] | None, held: tuple[Any, ...] | None,
                 name: str, later: Sequence[Any]) -> str:
        """Why an entry cannot be taken back: what the import left in it, what it holds now, and who changed it."""
        zero = (0,) * COUNTS + ("",) * (len(VALUE_COLUMNS) - COUNTS)
        what = self._holding(key, made or zero, name).describe().split(" x ", 1)[-1]
        counts = "; ".join(f"{label}: the import left {m}, {h} now" for label, m, h in
                           zip(("copies", "for trade", "wanted"), (made or zero)[:COUNTS], (held or zero)[:COUNTS],
                               strict=True) if m != h)
        by = [PastImport(*r[:5]).describe() for r in later
              if any((*item[:3], bool(item[3])) == key for item in json.loads(r[5]))]
        return (f"cannot undo {past.describe()}: a later change stands in its way. {what} ({counts}) was changed "
                f"since by {', '.join(by) if by else 'hand (collection add or remove, or the web page)'}, and "
                f"taking the import back would leave fewer than none (or more than {MAX_QUANTITY:,}). Nothing was "
                "changed; undo or put back that change first")

    def find(self, name: str, card: Card, any_printing: bool, condition: str | None, language: str | None,
             foil: bool | None) -> list[Holding]:
        """The entries of a collection that match what was given (None: any condition, language or finish)."""
        found = []
        for h in self.holdings(name):
            if any_printing:
                if h.card.name != card.name or h.card.game != card.game:
                    continue
            elif h.card.id != card.id:
                continue
            if (condition is None or h.condition == condition) and (language is None or h.language == language) \
                    and (foil is None or h.foil == foil):
                found.append(h)
        return found

    def edit(self, name: str, holding: Holding, sign: int) -> Holding | None:
        """Add (sign 1) or remove (sign -1) copies of one holding; return it as it now stands (None if gone)."""
        e = COLLECTION_ENTRIES
        with self.store.begin() as con:
            cid = self._locked_id(con, name, create=sign > 0)
            if cid is None:
                raise NoCollection(f"no collection named {name!r}")
            key = (cid, holding.card.id, holding.condition, holding.language, holding.foil)
            where = _entry_key(*key)
            now = con.execute(select(*[e.c[v] for v in VALUE_COLUMNS]).where(*where)).first()
            if now is None and sign < 0:
                raise DeckcheckError(f"the collection {name!r} holds no {holding.describe().split(' x ', 1)[1]}")
            q = (now[0] if now else 0) + sign * holding.quantity
            t = max(0, (now[1] if now else 0) + sign * holding.trade_quantity)
            w = max(0, (now[2] if now else 0) + sign * holding.want_quantity)
            if sign < 0 and q < 0 and now is not None:
                raise DeckcheckError(f"the collection holds {now[0]} of {holding.card.name}; cannot remove "
                                     f"{holding.quantity}")
            if max(q, t, w) > MAX_QUANTITY:
                raise DeckcheckError(f"{holding.card.name}: at most {MAX_QUANTITY:,} copies in one entry")
            location = holding.location or (now[3] if now else "")
            notes = holding.notes or (now[4] if now else "")
            price = holding.price or (now[5] if now else "")
            values = dict(zip(VALUE_COLUMNS, (q, t, w, location, notes, price), strict=True))
            if now is None:
                con.execute(insert(e).values(**dict(zip(KEY_COLUMNS, key, strict=True)), **values))
            elif q == 0 and w == 0:
                _one_row(con.execute(delete(e).where(*where)), name)
                return None
            else:
                _one_row(con.execute(update(e).where(*where).values(**values)), name)
        return Holding(holding.card, holding.condition, holding.language, holding.foil, q, t, w, location, notes,
                       name, price)

    # -- saved decks ---------------------------------------------------------------------------
    @property
    def kept(self) -> KeptDecks:
        """The kept decks (CONTRACTS §10): names, visibility, owners, versions."""
        return KeptDecks(self.store, lambda: self.cards.keys())

    def save_deck(self, name: str, fmt: str, text_: str, entries: Iterable[tuple[Card, str, int]],
                  owner_id: int | None = None, visibility: str = "link") -> bool:
        """Store a deck under a name; True when one had it (then this is its new version, when the list changed).
        The name is one line of at most DECK_NAME_MAX characters (DeckcheckError otherwise, nothing stored)."""
        deck_name(name)
        cards = stored_cards((card.id, card.name, section, q) for card, section, q in entries)
        kept = self.kept
        if kept.revise(name, lambda _deck: Revision(text=text_, format=fmt, cards=cards)) is not None:
            return True
        kept.create(name, name, fmt, text_, cards, owner_id, visibility)
        return False

    def decks(self) -> list[tuple[str, str, str, int]]:
        """(name, format, saved at, cards) of every saved deck."""
        dc = SAVED_DECK_CARDS
        d = SAVED_DECKS
        with self.store.engine.connect() as con:
            return [tuple(r) for r in con.execute(
                select(d.c.name, d.c.format, d.c.saved_at, func.coalesce(func.sum(dc.c.quantity), 0))
                .join_from(d, dc, dc.c.deck_name == d.c.name, isouter=True)
                .group_by(d.c.name, d.c.format, d.c.saved_at).order_by(d.c.name))]

    def deck(self, name: str) -> tuple[str, str, list[tuple[Card, str, int]]]:
        """(format, text, entries) of a saved deck; DeckcheckError when there is none."""
        dc = SAVED_DECK_CARDS
        d = SAVED_DECKS
        with self.store.engine.connect() as con:
            row = con.execute(select(d.c.format, d.c.text).where(d.c.name == name)).first()
            if row is None:
                known = list(con.execute(select(d.c.name).order_by(d.c.name)).scalars())
                raise DeckcheckError(f"no saved deck named {name!r}" + (f"; saved: {', '.join(known)}" if known
                                                                          else ""))
            cards = con.execute(select(dc.c.card_id, dc.c.section, dc.c.quantity).where(dc.c.deck_name == name)
                                .order_by(dc.c.id)).all()
        return row[0], row[1], [(self.cards[c], s, q) for c, s, q in cards if c in self.cards]

    def delete_deck(self, name: str) -> None:
        """Delete a saved deck and its versions; DeckcheckError when there is none."""
        self.deck(name)
        self.kept.delete(name)

    def own_decks(self) -> list[tuple[str, list[tuple[Card, str, int]]]]:
        """(key, entries as `deck` reads them) of the saved decks this owner's collection serves: an account's own
        decks; for the keeper every saved deck, as before accounts; none for an anonymous visitor."""
        if self.anonymous:
            return []
        keys = ([name for name, _fmt, _at, _n in self.decks()] if self.owner_id is None
                else [deck.id for deck in self.kept.listing(self.owner_id)])
        return [(key, self.deck(key)[2]) for key in keys]

    def used_by_decks(self) -> dict[tuple[Any, ...], int]:
        """Copies of each card (as the rules see it) that the saved decks use, all decks together: every saved deck
        for the keeper (as before accounts), an account's own decks for an account."""
        dc = SAVED_DECK_CARDS
        if self.owner_id is not None:
            rows = [(card.id, q) for _key, entries in self.own_decks() for card, _section, q in entries]
        else:
            with self.store.engine.connect() as con:
                rows = [tuple(r) for r in con.execute(select(dc.c.card_id, dc.c.quantity)).all()]
        used: dict[tuple[Any, ...], int] = {}
        for card_id, q in rows:
            if card_id not in self.cards:  # a game's own card an earlier deckcheck kept: no collection counts it
                continue
            key = self.cards[card_id].card_key
            used[key] = used.get(key, 0) + q
        return used
