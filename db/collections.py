"""Collections and saved decks in the database: bulk upserts in SQL, every change in one transaction."""
from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field, replace
from typing import Iterable, Mapping

from deckcheck.cards import Card
from deckcheck.collection import DEFAULT_CONDITION, MAX_QUANTITY, Holding, Holdings, Key, language_name
from deckcheck.errors import DeckcheckError

from .store import Store

ENTRY_COLUMNS = ("collection_id", "card_id", "condition", "language", "foil", "quantity", "trade_quantity",
                 "want_quantity", "location", "notes")
VALUE_COLUMNS = ("quantity", "trade_quantity", "want_quantity", "location", "notes", "price")
BATCH = 5000
SAMPLE = 10  # changes listed by an import; the rest are counted


TOTALS = ("entries", "copies", "for_trade", "wanted")


@dataclass(frozen=True)
class PastImport:
    """An import journalled in a collection: when (ISO 8601, UTC), the file's name, the mode, what it changed."""

    at: str
    label: str
    mode: str
    changes: int = 0

    @property
    def when(self) -> str:
        """The time for people: '2026-11-30 14:02 UTC'."""
        return self.at[:16].replace("T", " ") + " UTC"


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

    @property
    def changed(self) -> bool:
        """Whether anything was (or would be) changed."""
        return bool(self.added or self.updated or self.removed)


def content_digest(holdings: Mapping[Key, Holding]) -> str:
    """What a file holds for one collection, as a digest of its resolved entries (the same content saved
    again, in another layout or another order, has the same digest)."""
    import hashlib
    import json
    rows = sorted([h.card.id, h.condition, h.language, bool(h.foil), h.quantity, h.trade_quantity, h.want_quantity,
                   h.location, h.notes, h.price] for h in holdings.values())
    return hashlib.sha256(json.dumps(rows, ensure_ascii=False).encode()).hexdigest()


def _counts(values: tuple | None) -> tuple[int, int, int, int]:
    """(entries, copies, for trade, wanted) that one stored entry adds to the totals."""
    return (0, 0, 0, 0) if values is None else (1, values[0], values[1], values[2])


class Collections:
    """The collections and saved decks of one database."""

    def __init__(self, store: Store):
        self.store = store
        self._cards: dict[str, Card] | None = None
        self._upgraded = False

    @property
    def cards(self) -> dict[str, Card]:
        """Every stored card by id, read once."""
        if self._cards is None:
            self._cards = {c.id: c for c in self.store.cards()}
        return self._cards

    def _placeholders(self, con, n: int) -> str:
        mark = "?" if con.dialect.name == "sqlite" else "%s"
        return ", ".join([mark] * n)

    def _collection_id(self, con, name: str, create: bool) -> int | None:
        from sqlalchemy import text
        row = con.execute(text("select id from collection where name = :n"), {"n": name}).first()
        if row is not None:
            return row[0]
        if not create:
            return None
        # another import may create the same collection at this moment: its row is then the one (never a 500)
        con.execute(text("insert into collection (name) values (:n) on conflict (name) do nothing"), {"n": name})
        return con.execute(text("select id from collection where name = :n"), {"n": name}).scalar_one()

    def names(self) -> list[str]:
        """The names of the collections."""
        from sqlalchemy import text
        with self.store.engine.connect() as con:
            return [r[0] for r in con.execute(text("select name from collection order by name"))]

    def holdings(self, name: str | None = "main") -> Holdings:
        """Every holding of a collection (of all, with None), in a stable order."""
        from sqlalchemy import text
        self._upgrade()
        where = "where c.name = :n" if name is not None else ""
        with self.store.engine.connect() as con:
            rows = con.execute(text(
                "select e.card_id, e.condition, e.language, e.foil, e.quantity, e.trade_quantity, e.want_quantity, "
                f"e.location, e.notes, c.name, e.price from collection_entry e join collection c "
                f"on c.id = e.collection_id {where} order by c.name, e.card_id, e.condition, e.language, e.foil"),
                {"n": name}).all()
        cards = self.cards
        return Holdings(Holding(cards[r[0]], r[1], r[2], bool(r[3]), r[4], r[5], r[6], r[7], r[8], r[9], r[10])
                        for r in rows)

    def _upgrade(self) -> None:
        """Bring a database of an earlier deckcheck up to date, once: the price column, and entries whose empty
        condition or language (NM, English since CONTRACTS §4 was revised) would split an entry."""
        if self._upgraded:
            return
        from sqlalchemy import inspect, text
        columns = {c["name"] for c in inspect(self.store.engine).get_columns("collection_entry")}
        if "price" not in columns:
            self.store.add_column("collection_entry", "price")
        with self.store.engine.connect() as con:
            old = con.execute(text("select count(*) from collection_entry where condition = '' or language = ''"))
            needed = old.scalar_one()
        if needed:
            with self.store.begin() as con:
                self._normalise_entries(con)
        self._upgraded = True

    def _normalise_entries(self, con) -> None:
        from sqlalchemy import text
        rows = con.execute(text(f"select id, {', '.join(ENTRY_COLUMNS)}, price from collection_entry "
                                "where condition = '' or language = ''")).all()
        for r in rows:
            key = {"c": r[1], "i": r[2], "d": r[3] or DEFAULT_CONDITION, "l": language_name(r[4]), "f": r[5]}
            same = con.execute(text("select id from collection_entry where collection_id = :c and card_id = :i "
                                    "and condition = :d and language = :l and foil = :f"), key).first()
            if same is None:
                con.execute(text("update collection_entry set condition = :d, language = :l where id = :id"),
                            key | {"id": r[0]})
                continue
            con.execute(text("update collection_entry set quantity = quantity + :q, trade_quantity = trade_quantity "
                             "+ :t, want_quantity = want_quantity + :w, location = case when location = '' then :loc "
                             "else location end, notes = case when notes = '' then :n else notes end, price = case "
                             "when price = '' then :p else price end where id = :id"),
                        {"q": r[6], "t": r[7], "w": r[8], "loc": r[9], "n": r[10], "p": r[11], "id": same[0]})
            con.execute(text("delete from collection_entry where id = :id"), {"id": r[0]})

    def _current(self, con, collection_id: int) -> dict[Key, tuple]:
        from sqlalchemy import text
        rows = con.execute(text(f"select card_id, condition, language, foil, {', '.join(VALUE_COLUMNS)}, id "
                                "from collection_entry where collection_id = :c"), {"c": collection_id}).all()
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
        self._upgrade()
        columns = set(present) if present is not None else None
        stamp = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
        with self.store.begin(write=not dry_run) as con:
            return {name: self._apply(con, name, holdings, mode, dry_run, (keep or {}).get(name, set()), columns,
                                      sample, label, again, stamp) for name, holdings in collections.items()}

    def _apply(self, con, name: str, holdings: Mapping[Key, Holding], mode: str, dry_run: bool,
               keep: set[str | None], present: set[str] | None, sample: int = SAMPLE, label: str = "",
               again: bool = True, stamp: str = "") -> Change:
        """One collection's change, inside the caller's transaction."""
        from sqlalchemy import text
        change = Change()
        existed = self._collection_id(con, name, create=False)
        cid = existed if existed is not None or dry_run else self._collection_id(con, name, create=True)
        current = self._current(con, cid) if cid is not None else {}
        digest = content_digest(holdings)
        if cid is not None:
            past = con.execute(text("select at, label, mode, changes from collection_import where collection_id = :c "
                                    "and digest = :d order by id desc"), {"c": cid, "d": digest}).first()
            change.imported_before = PastImport(*past) if past else None
        journal: list[tuple[Key, tuple | None]] = []
        writes, too_many = [], []
        for key, h in holdings.items():
            now = current.get(key)
            new = (h.quantity, h.trade_quantity, h.want_quantity, h.location, h.notes, h.price)
            after: tuple
            if now is None:
                after = new
            elif mode == "merge":
                after = (now[0] + h.quantity, now[1] + h.trade_quantity, now[2] + h.want_quantity,
                         h.location or now[3], h.notes or now[4], h.price or now[5])
            else:
                after = tuple(v if present is None or c in present else now[i]
                              for i, (c, v) in enumerate(zip(VALUE_COLUMNS, new, strict=True)))
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
            journal.append((key, None if now is None else tuple(now[:6])))
            if len(change.sample) < sample:
                change.sample.append((kind, replace(h, quantity=after[0], trade_quantity=after[1],
                                                    want_quantity=after[2])))
                change.before.append(None if now is None else self._holding(key, now, name))
        if too_many:
            raise DeckcheckError(f"collection {name!r}: " + "; ".join(h.describe() for h in too_many[:5]) +
                                 f" would hold more than {MAX_QUANTITY:,} copies; nothing was imported")
        gone = []
        if mode == "replace":
            for key, now in current.items():
                if key in holdings:
                    continue
                if None in keep or key[0] in keep:
                    change.kept += 1
                else:
                    gone.append((key, now))
            change.removed = len(gone)
            journal += [(key, tuple(now[:6])) for key, now in gone]
            for key, now in gone[: max(0, sample - len(change.sample))]:
                change.sample.append(("removed", self._holding(key, now, name)))
                change.before.append(self._holding(key, now, name))
        before = [0, 0, 0, 0]
        for values in current.values():
            before = [b + n for b, n in zip(before, _counts(values), strict=True)]
        delta = [0, 0, 0, 0]
        for h, after in writes:
            old = _counts(current.get(h.key))
            delta = [d + a - o for d, a, o in zip(delta, _counts(after), old, strict=True)]
        for _key, now in gone:
            delta = [d - o for d, o in zip(delta, _counts(now), strict=True)]
        change.totals_before = dict(zip(TOTALS, before, strict=True))
        change.totals_after = {k: before[i] + delta[i] for i, k in enumerate(TOTALS)}
        if dry_run or not change.changed:
            return change
        if change.imported_before is not None and mode == "merge" and not again:
            raise AlreadyImported(name, change.imported_before, label)
        import json
        con.execute(text("insert into collection_import (collection_id, digest, label, mode, at, created, before, "
                         "changes) values (:c, :d, :l, :m, :at, :cr, :b, :n)"),
                    {"c": cid, "d": digest, "l": label[:200], "m": mode, "at": stamp, "cr": existed is None,
                     "b": json.dumps([[*key, None if v is None else list(v)] for key, v in journal],
                                     ensure_ascii=False),
                     "n": change.added + change.updated + change.removed})
        ids = [now[6] for _key, now in gone]
        for start in range(0, len(ids), 500):
            chunk = {f"i{n}": v for n, v in enumerate(ids[start:start + 500])}
            con.execute(text(f"delete from collection_entry where id in ({', '.join(':' + k for k in chunk)})"),
                        chunk)
        rows = [(cid, h.card.id, h.condition, h.language, h.foil, *after) for h, after in writes]
        marks = self._placeholders(con, len(ENTRY_COLUMNS) + 1)
        head = (f"insert into collection_entry ({', '.join(ENTRY_COLUMNS)}, price) values ({marks}) on conflict "
                "(collection_id, card_id, condition, language, foil) do update set ")
        if mode == "replace":
            sql = head + ", ".join(f"{c} = excluded.{c}" for c in VALUE_COLUMNS)
        else:  # added in SQL: another import of the same collection at the same moment loses nothing
            rows = [(cid, h.card.id, h.condition, h.language, h.foil, h.quantity, h.trade_quantity,
                     h.want_quantity, h.location, h.notes, h.price) for h, _after in writes]
            sql = head + ("quantity = collection_entry.quantity + excluded.quantity, "
                          "trade_quantity = collection_entry.trade_quantity + excluded.trade_quantity, "
                          "want_quantity = collection_entry.want_quantity + excluded.want_quantity, " +
                          ", ".join(f"{c} = case when excluded.{c} <> '' then excluded.{c} else collection_entry.{c} "
                                    "end" for c in ("location", "notes", "price")))
        for start in range(0, len(rows), BATCH):
            con.exec_driver_sql(sql, rows[start:start + BATCH])
        return change

    def _holding(self, key: Key, values: tuple, name: str) -> Holding:
        return Holding(self.cards[key[0]], key[1], key[2], key[3], values[0], values[1], values[2], values[3],
                       values[4], name, values[5])

    def last_import(self, name: str) -> PastImport | None:
        """The last import into a collection that can be undone (None: there is none)."""
        from sqlalchemy import text
        with self.store.engine.connect() as con:
            row = con.execute(text("select i.at, i.label, i.mode, i.changes from collection_import i join collection c "
                                   "on c.id = i.collection_id where c.name = :n order by i.id desc"),
                              {"n": name}).first()
        return PastImport(*row) if row else None

    def undo(self, name: str) -> PastImport:
        """Undo the last import into a collection: every entry it touched as it was before, in one transaction
        (a collection the import created goes again when it is empty). Return what was undone; DeckcheckError
        when there is nothing to undo."""
        import json

        from sqlalchemy import text
        self._upgrade()
        with self.store.begin() as con:
            cid = self._collection_id(con, name, create=False)
            row = None if cid is None else con.execute(text(
                "select id, at, label, mode, changes, created, before from collection_import where collection_id = :c "
                "order by id desc"), {"c": cid}).first()
            if row is None:
                raise DeckcheckError(f"no import into the collection {name!r} to undo")
            where = "collection_id = :c and card_id = :i and condition = :d and language = :l and foil = :f"
            for card_id, condition, language, foil, values in json.loads(row[6]):
                key = {"c": cid, "i": card_id, "d": condition, "l": language, "f": bool(foil)}
                con.execute(text(f"delete from collection_entry where {where}"), key)
                if values is not None:
                    con.execute(text(f"insert into collection_entry ({', '.join(ENTRY_COLUMNS)}, price) values "
                                     "(:c, :i, :d, :l, :f, :q, :t, :w, :loc, :notes, :p)"),
                                key | dict(zip(("q", "t", "w", "loc", "notes", "p"), values, strict=True)))
            con.execute(text("delete from collection_import where id = :id"), {"id": row[0]})
            if row[5]:
                left = con.execute(text("select count(*) from collection_entry where collection_id = :c"),
                                   {"c": cid}).scalar_one()
                others = con.execute(text("select count(*) from collection_import where collection_id = :c"),
                                     {"c": cid}).scalar_one()
                if not left and not others:
                    con.execute(text("delete from collection where id = :c"), {"c": cid})
        return PastImport(row[1], row[2], row[3], row[4])

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
        from sqlalchemy import text
        self._upgrade()
        with self.store.begin() as con:
            cid = self._collection_id(con, name, create=sign > 0)
            if cid is None:
                raise DeckcheckError(f"no collection named {name!r}")
            key = {"c": cid, "i": holding.card.id, "d": holding.condition, "l": holding.language, "f": holding.foil}
            where = ("collection_id = :c and card_id = :i and condition = :d and language = :l and foil = :f")
            now = con.execute(text(f"select quantity, trade_quantity, want_quantity, location, notes, price from "
                                   f"collection_entry where {where}"), key).first()
            if now is None and sign < 0:
                raise DeckcheckError(f"the collection {name!r} holds no {holding.describe().split(' x ', 1)[1]}")
            q = (now[0] if now else 0) + sign * holding.quantity
            t = max(0, (now[1] if now else 0) + sign * holding.trade_quantity)
            w = max(0, (now[2] if now else 0) + sign * holding.want_quantity)
            if sign < 0 and q < 0:
                raise DeckcheckError(f"the collection holds {now[0]} of {holding.card.name}; cannot remove "
                                     f"{holding.quantity}")
            if max(q, t, w) > MAX_QUANTITY:
                raise DeckcheckError(f"{holding.card.name}: at most {MAX_QUANTITY:,} copies in one entry")
            location = holding.location or (now[3] if now else "")
            notes = holding.notes or (now[4] if now else "")
            price = holding.price or (now[5] if now else "")
            values = key | {"q": q, "t": t, "w": w, "loc": location, "notes": notes, "p": price}
            if now is None:
                con.execute(text(f"insert into collection_entry ({', '.join(ENTRY_COLUMNS)}, price) values (:c, :i, "
                                 ":d, :l, :f, :q, :t, :w, :loc, :notes, :p)"), values)
            elif q == 0 and w == 0:
                con.execute(text(f"delete from collection_entry where {where}"), key)
                return None
            else:
                con.execute(text(f"update collection_entry set quantity = :q, trade_quantity = :t, "
                                 f"want_quantity = :w, location = :loc, notes = :notes, price = :p where {where}"),
                            values)
        return Holding(holding.card, holding.condition, holding.language, holding.foil, q, t, w, location, notes,
                       name, price)

    # -- saved decks ---------------------------------------------------------------------------
    def save_deck(self, name: str, fmt: str, text_: str, entries: Iterable[tuple[Card, str, int]]) -> bool:
        """Store a deck under a name (replacing one of that name); True when it replaced one."""
        from sqlalchemy import text
        stamp = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
        with self.store.begin() as con:
            existed = con.execute(text("select 1 from saved_deck where name = :n"), {"n": name}).first() is not None
            con.execute(text("delete from saved_deck_card where deck_name = :n"), {"n": name})
            con.execute(text("delete from saved_deck where name = :n"), {"n": name})
            con.execute(text("insert into saved_deck (name, format, text, saved_at) values (:n, :f, :t, :s)"),
                        {"n": name, "f": fmt, "t": text_, "s": stamp})
            rows = [{"n": name, "c": card.id, "s": section, "q": q} for card, section, q in entries]
            if rows:
                con.execute(text("insert into saved_deck_card (deck_name, card_id, section, quantity) "
                                 "values (:n, :c, :s, :q)"), rows)
        return existed

    def decks(self) -> list[tuple[str, str, str, int]]:
        """(name, format, saved at, cards) of every saved deck."""
        from sqlalchemy import text
        with self.store.engine.connect() as con:
            return [tuple(r) for r in con.execute(text(
                "select d.name, d.format, d.saved_at, coalesce(sum(c.quantity), 0) from saved_deck d "
                "left join saved_deck_card c on c.deck_name = d.name group by d.name, d.format, d.saved_at "
                "order by d.name"))]

    def deck(self, name: str) -> tuple[str, str, list[tuple[Card, str, int]]]:
        """(format, text, entries) of a saved deck; DeckcheckError when there is none."""
        from sqlalchemy import text
        with self.store.engine.connect() as con:
            row = con.execute(text("select format, text from saved_deck where name = :n"), {"n": name}).first()
            if row is None:
                known = [r[0] for r in con.execute(text("select name from saved_deck order by name"))]
                raise DeckcheckError(f"no saved deck named {name!r}" + (f"; saved: {', '.join(known)}" if known
                                                                          else ""))
            cards = con.execute(text("select card_id, section, quantity from saved_deck_card where deck_name = :n "
                                     "order by id"), {"n": name}).all()
        return row[0], row[1], [(self.cards[c], s, q) for c, s, q in cards]

    def delete_deck(self, name: str) -> None:
        """Delete a saved deck; DeckcheckError when there is none."""
        from sqlalchemy import text
        self.deck(name)
        with self.store.begin() as con:
            con.execute(text("delete from saved_deck_card where deck_name = :n"), {"n": name})
            con.execute(text("delete from saved_deck where name = :n"), {"n": name})

    def used_by_decks(self) -> dict[tuple, int]:
        """Copies of each card (as the rules see it) that the saved decks use, all decks together."""
        from sqlalchemy import text
        with self.store.engine.connect() as con:
            rows = con.execute(text("select card_id, quantity from saved_deck_card")).all()
        used: dict[tuple, int] = {}
        for card_id, q in rows:
            key = self.cards[card_id].card_key
            used[key] = used.get(key, 0) + q
        return used
