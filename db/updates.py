"""Card updates that know where each value came from: partial card sheets (CONTRACTS.md §1a), web edits.

`update_cards(store, changes, source=...)` is the one path by which cards change after set-up: `cards
import` calls it with the rows of a card sheet, the web app's admin form with the fields a person
edited. Only the fields a change states are touched; each changed value records its provenance
(deckcheck.provenance); a value from a stronger source is not replaced unless `overwrite` is given,
and the result lists it as kept. Every value the store holds keeps its provenance in the
`card_source` table, on SQLite and PostgreSQL alike.
"""
from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field, replace
from typing import Iterable, Mapping

from sqlalchemy import Connection, func, insert, select

from deckcheck import provenance as prov
from deckcheck.cards import Card
from deckcheck.cardsheet import (COLUMNS, FOLLOWERS, SheetCard, card_cell, match_by_name,
                                  sheet_cards_from_rows, value_of)
from deckcheck.errors import DatabaseError, DeckcheckError
from deckcheck.provenance import Provenance

from .models import CARD_CHANGES
from .sources import read_sources, write_sources
from .store import (BUNDLE_KEY, VERSION_KEY, Store, bundle_digest, bundled_rows, bundled_sets, deckcheck_version,
                    newer_bundle, read_cards, read_meta, write_meta)

PEOPLE = ("sheet", "web")  # provenance kinds that are a person's statement


@dataclass(frozen=True)
class FieldChange:
    """One field of one card: its value and provenance before and after (values as sheet text)."""

    card_id: str
    name: str
    field: str
    old: str
    new: str
    old_source: Provenance | None
    new_source: Provenance | None

    def __str__(self) -> str:
        was = f" ({self.old_source})" if self.old_source else ""
        now = f" ({self.new_source})" if self.new_source else ""
        return f"{self.name} [{self.card_id}] {self.field}: {self.old or '—'}{was} → {self.new or '—'}{now}"


@dataclass
class UpdateResult:
    """What an update changed (or would change, in a dry run), and what it kept from stronger sources."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: int = 0
    changes: list[FieldChange] = field(default_factory=list)
    kept: list[FieldChange] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        """Whether anything was (or would be) changed."""
        return bool(self.added or self.updated)


def _value_text(card: Card, name: str) -> str:
    """A value as a change lists it: its cell, and the flag qualifying it when set (a grid's `(inferred)`)."""
    marks = [f.name.removeprefix(name + "_") for f in FOLLOWERS
             if f.follows == name and getattr(card, f.attribute) is True and value_of(card, name) is not None]
    return " ".join([card_cell(card, name), *(f"({mark})" for mark in marks)])


def value_cells(name: str, text: str) -> dict[str, object]:
    """The cells a change's text (_value_text) stands for: the value and each qualifying flag it marks set."""
    cells: dict[str, object] = {}
    for f in FOLLOWERS:
        mark = f" ({f.name.removeprefix(name + '_')})"
        if f.follows == name and text.endswith(mark):
            text = text[:-len(mark)]
            cells[f.name] = "yes"
    return {name: text, **cells}


def _is_known(card: Card, name: str) -> bool:
    return value_of(card, name) is not None


def new_card_sources(item: SheetCard, source: Provenance) -> dict[str, Provenance]:
    """The provenance of the values of a card a row adds: as the row states it (for an empty value too, as
    `db init` records the bundle's), else for a known value the update's, else the default."""
    out = {}
    for name in prov.FIELDS:
        stated = item.sources.get(name)
        if stated is None and not _is_known(item.card, name):
            continue
        fallback = prov.DERIVED_NAME if name in ("title", "version") else prov.DEFAULT
        out[name] = stated or (source if name in item.fields else fallback)
    return out


def _as_sheet_cards(changes: Iterable[SheetCard | Mapping[str, object]], stored_names: Mapping[str, str],
                    where: str) -> list[SheetCard]:
    items: list[SheetCard] = []
    plain: list[tuple[int, Mapping[str, object]]] = []
    for n, change in enumerate(changes, start=1):
        if isinstance(change, SheetCard):
            items.append(change)
            continue
        values = dict(change)
        unknown = [str(k) for k in values if k not in COLUMNS and k not in prov.SOURCE_COLUMNS]
        if unknown:
            raise DeckcheckError(f"{where}: unknown field(s) {', '.join(map(repr, unknown))}; the fields are "
                                 f"the card-sheet columns")
        if not values.get("name") and values.get("id") in stored_names:  # an edit of a stored card names its id
            values["name"] = stored_names[str(values["id"])]
        plain.append((n, values))
    if plain:
        items += sheet_cards_from_rows(plain, where, consequence="nothing was changed")[0]
    return items


def update_cards(store: Store, changes: Iterable[SheetCard | Mapping[str, object]], source: Provenance | str, *,
                 dry_run: bool = False, overwrite: bool = False, unrecorded: int | None = None,
                 protect: frozenset[str] = frozenset(), accepted_by: str = "") -> UpdateResult:
    """Add cards, or change the fields each change states, in one transaction; return what changed.

    `changes` are SheetCards (rows of a card sheet) or plain mappings of card-sheet columns to cells
    (`{"id": "ME-break-weapon", "restriction": "3"}`: a stored card needs only its id). `source` is the
    provenance of values that state none (`provenance.sheet(file)`, `provenance.web(user)`, or its text).
    A stated value replaces a known value whose provenance is stronger only with `overwrite`; otherwise
    it is listed in `kept`. With `dry_run` nothing is written. `unrecorded`: the strength to assume for a
    known value with no recorded provenance (stored before deckcheck kept it); None: the weakest. `protect`:
    provenance kinds whose values (known or set unknown) are kept whatever the incoming strength.
    Every change is kept in the cards' history (deckcheck.db.facts.history), with `accepted_by` where an
    organiser accepted a player's answer.
    """
    origin = prov.parse(source) if isinstance(source, str) else source
    # a write transaction from its start (and on PostgreSQL the card writers' turn): two imports at once run one
    # after the other, the second reading what the first wrote, never deciding from values changed meanwhile
    with store.begin(write=not dry_run) as con:
        if not dry_run:
            cards_writers_turn(con)
        return update_cards_on(con, store, changes, origin, dry_run=dry_run, overwrite=overwrite,
                               unrecorded=unrecorded, protect=protect, accepted_by=accepted_by)


def update_cards_on(con: Connection, store: Store, changes: Iterable[SheetCard | Mapping[str, object]],
                    origin: Provenance, *, dry_run: bool = False, overwrite: bool = False,
                    unrecorded: int | None = None, protect: frozenset[str] = frozenset(),
                    accepted_by: str = "") -> UpdateResult:
    """update_cards inside a transaction the caller holds (with the card writers' turn taken), so that the
    caller's own writes and these commit or roll back together."""
    changes = list(changes)
    result = UpdateResult()
    plain_ids = [str(c.get("id")) for c in changes if not isinstance(c, SheetCard) and c.get("id")]
    stored = read_cards(con, plain_ids)
    items = _as_sheet_cards(changes, {i: c.name for i, c in stored.items()}, f"changes from {origin}")
    ids = [item.card.id for item in items]
    if len(set(ids)) != len(ids):
        raise DeckcheckError(f"changes from {origin}: the same card id is named twice")
    stored = read_cards(con, ids)
    if any(not item.id_stated for item in items):
        items = match_by_name(items, store.cards(), f"changes from {origin}", bundled_sets())
    ids = [item.card.id for item in items]  # match_by_name refuses two rows naming one card
    stored.update(read_cards(con, [i for i in ids if i not in stored]))
    sources = read_sources(con, ids)
    to_write: list[Card] = []
    new_sources: dict[str, dict[str, Provenance | None]] = {}
    for item in items:
        old = stored.get(item.card.id)
        if old is None:
            result.added.append(item.card.id)
            to_write.append(item.card)
            new_sources[item.card.id] = dict(new_card_sources(item, origin))
            continue
        card, touched, renamed = _apply(item, old, sources.get(old.id, {}), origin, overwrite, result, unrecorded,
                                        protect)
        if touched or renamed:
            result.updated.append(old.id)
            to_write.append(card)
            new_sources[old.id] = touched
        else:
            result.unchanged += 1
    if not dry_run:
        if to_write:
            store._upsert(con, to_write, str(origin))
        write_sources(con, new_sources)
        record_changes(con, result.changes, accepted_by)
    return result


CARD_WRITERS_LOCK = 0x64636B63  # "dckc": the PostgreSQL advisory lock card writers take turns on


def cards_writers_turn(con: Connection) -> None:
    """On PostgreSQL, wait (without the lock wait's limit) until no other transaction is changing cards, and hold
    that turn to the end of this transaction. SQLite needs nothing here: its write transaction already is the
    turn (Store.begin)."""
    if con.dialect.name != "postgresql":
        return
    waited = con.execute(select(func.current_setting("lock_timeout"))).scalar_one()
    con.execute(select(func.set_config("lock_timeout", "0", True)))  # a long import ahead is waited for
    con.execute(select(func.pg_advisory_xact_lock(CARD_WRITERS_LOCK)))
    con.execute(select(func.set_config("lock_timeout", waited, True)))


def _apply(item: SheetCard, old: Card, old_sources: Mapping[str, Provenance], origin: Provenance,
           overwrite: bool, result: UpdateResult, unrecorded: int | None = None,
           protect: frozenset[str] = frozenset()) -> tuple[Card, dict[str, Provenance | None], bool]:
    """Apply one row to its stored card: the merged card, the provenance it changes, whether it was renamed.
    Field changes and the values kept from stronger sources go to `result`."""
    stated = set(item.fields) | {f.follows for f in FOLLOWERS if f.name in item.fields}  # grid_inferred: the grid
    proposed = item.merged(old)
    accepted: set[str] = set()
    touched: dict[str, Provenance | None] = {}
    for name in (f for f in prov.FIELDS if f in stated):
        was, credited = old_sources.get(name), item.sources.get(name)
        before, after = _value_text(old, name), _value_text(proposed, name)
        if before == after:
            if credited is not None and credited != was and (was is None or credited.strength >= was.strength):
                touched[name] = credited  # the same value, now credited to the source the row names
                result.changes.append(FieldChange(old.id, old.name, name, before, after, was, credited))
            continue
        incoming = credited or origin
        # a value a row makes unknown keeps that row as its source: a person said "not known", and a later
        # bundle update must not fill it in behind their back
        change = FieldChange(old.id, old.name, name, before, after, was, incoming)
        held = was.strength if was is not None else unrecorded
        weaker = held is not None and _is_known(old, name) and incoming.strength < held
        # two people's statements that differ (a shared card-facts file, CONTRACTS §1a): a conflict, kept and listed
        weaker = weaker or (credited is not None and was is not None and _is_known(old, name)
                            and credited.kind in PEOPLE and was.kind in PEOPLE and credited.ref != was.ref)
        if (weaker or (was is not None and was.kind in protect)) and not overwrite:
            result.kept.append(change)
            continue
        accepted.add(name)
        touched[name] = change.new_source
        result.changes.append(change)
    applied = {f for f in accepted if f in item.fields}
    applied |= {f.name for f in FOLLOWERS if f.follows in accepted and f.name in item.fields}
    merged = SheetCard(item.card, item.row, frozenset(applied), item.sources).merged(old)
    renamed = old.name != item.card.name
    if renamed:  # a name keeps no source of its own (it is no sourced field): the history names who renamed it
        result.changes.append(FieldChange(old.id, old.name, "name", old.name, item.card.name, None, origin))
    return merged, touched, renamed


def update_from_bundle(store: Store, *, dry_run: bool = False, overwrite: bool = False) -> UpdateResult:
    """Bring this version's bundled cards into a database set up by an older one (`deckcheck db update`).

    New cards are added; a value is updated where the database does not know it, or holds it from a
    weaker automatic source (checklist, derivation, default) or an older bundle's named source; each
    value keeps the bundle's own provenance. Kept and listed, unless `overwrite`: what people set (card
    sheets and web edits, values they made unknown included), values stored before deckcheck recorded
    sources, and card names (a rename is a person's). Afterwards the database is stamped with the
    bundle's digest (and as holding the bundle), so the notice of a stale bundle stops.
    """
    with store.engine.connect() as con:
        meta = read_meta(con)
    newer = newer_bundle(meta)
    if newer:  # an older deckcheck would undo the newer bundle's values (a club's shared database)
        raise DatabaseError(f"the database {store.where()} holds the bundled cards of deckcheck {newer}, newer than "
                            f"this one ({deckcheck_version()}); nothing was changed: update deckcheck instead")
    names = {c.id: c.name for c in store.cards()}
    rows = [replace(r, card=replace(r.card, name=names[r.card.id])) if r.card.id in names else r
            for r in bundled_rows()]
    result = update_cards(store, rows, prov.CHECKLIST, dry_run=dry_run, overwrite=overwrite,
                          unrecorded=_NEVER_WEAKER, protect=frozenset({"sheet", "web"}))
    if not dry_run:
        with store.begin() as con:
            write_meta(con, {BUNDLE_KEY: bundle_digest(), VERSION_KEY: deckcheck_version(), "bundled": "yes"})
    return result


_NEVER_WEAKER = max(prov.STRENGTH.values()) + 1  # a value without a recorded source may be a person's: kept


def record_changes(con: Connection, changes: Iterable[FieldChange], accepted_by: str = "") -> None:
    """Keep the history of changed values (deckcheck.db.updates.FieldChange) on a connection."""
    stamp = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    rows = [{"card_id": c.card_id, "field_name": c.field, "old": c.old, "new": c.new,
             "old_source": str(c.old_source or ""), "new_source": str(c.new_source or ""), "at": stamp,
             "accepted_by": accepted_by} for c in changes]
    if rows:
        con.execute(insert(CARD_CHANGES), rows)
