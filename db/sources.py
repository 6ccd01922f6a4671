"""The provenance of the stored cards' values (the card_source table): read and written on a connection."""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Protocol, Sequence

from sqlalchemy import Connection, Engine, bindparam, delete, insert, select

from deckcheck.provenance import Provenance

from .models import CARD_SOURCES as t

_CHUNK = 500  # ids in one IN (...) list


class HasEngine(Protocol):
    """What stored_sources needs of a deckcheck.db.store.Store: its engine. Named so, this module does not import
    the store, which imports it when it sets a database up."""

    @property
    def engine(self) -> Engine: ...



def read_sources(con: Connection, ids: Iterable[str] | None = None) -> dict[str, dict[str, Provenance]]:
    """Provenance by card id and field, for the given ids (every card when None), on a connection."""
    out: dict[str, dict[str, Provenance]] = {}

    def add(rows: Iterable[Sequence[Any]]) -> None:
        for card_id, name, kind, ref, at in rows:
            out.setdefault(card_id, {})[name] = Provenance(kind, ref or "", at or "")
    stmt = select(t.c.card_id, t.c.field_name, t.c.kind, t.c.ref, t.c.at)
    if ids is None:
        add(con.execute(stmt).all())
        return out
    wanted = list(ids)
    for start in range(0, len(wanted), _CHUNK):
        add(con.execute(stmt.where(t.c.card_id.in_(wanted[start:start + _CHUNK]))).all())
    return out


def stored_sources(store: HasEngine, ids: Iterable[str] | None = None) -> dict[str, dict[str, Provenance]]:
    """Provenance of the stored cards' values (card id -> field -> provenance); every card when ids is None."""
    with store.engine.connect() as con:
        return read_sources(con, ids)


def write_sources(con: Connection, sources: Mapping[str, Mapping[str, Provenance | None]], fresh: bool = False) -> None:
    """Record provenance (card id -> field -> provenance; None forgets it) on a connection; `fresh`: the
    cards have none recorded yet (a new database), so nothing is deleted first."""
    deletes = [] if fresh else [{"card": card_id, "field": name} for card_id, fields in sources.items()
                                for name in fields]
    inserts = [{"card_id": card_id, "field_name": name, "kind": p.kind, "ref": p.ref, "at": p.at}
               for card_id, fields in sources.items() for name, p in fields.items() if p is not None]
    if deletes:
        con.execute(delete(t).where(t.c.card_id == bindparam("card"), t.c.field_name == bindparam("field")),
                    deletes)
    if inserts:
        con.execute(insert(t), inserts)
