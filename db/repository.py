"""Rows <-> core Cards, shared by the SQLAlchemy path and the fast sqlite3 read path."""
from __future__ import annotations

import json
from typing import Any, Callable, Iterable, Mapping, Sequence

from deckcheck.cards import Card
from deckcheck.fields import CELL, FLAG, TAIL, Field
from deckcheck.games import registry

# The card table's columns, in order: a column for each field kept as a Card attribute (deckcheck.fields; `set_code`
# stores the card's `set`), and `extra` for the fields a game keeps in Card.extra, so that a game's new field is
# stored without a migration. The order is the model path's and the fast path's alike.
_STORED = tuple(f for f in registry().fields if not f.in_extra)
CARD_COLUMNS = tuple(f.column for f in _STORED if f.place < TAIL) + ("extra",) + tuple(
    f.column for f in _STORED if f.place >= TAIL)
# `extra` holds a card's game columns (Card.extra) as a JSON object. The columns that held Raven's and
# Taktik's values before it (renown ... suit) stay in older databases, unused (store.migrate copies them).
LEGACY_EXTRA = ("renown", "health", "skill", "rank", "suit")
SELECT_LIST = ", ".join(f'"{c}"' for c in CARD_COLUMNS)  # quoted: "unique" is an SQL keyword


def extra_to_text(extra: Iterable[tuple[str, object]]) -> str:
    """A card's game columns as the `extra` column stores them: a JSON object, keys sorted ('' when none)."""
    values = {k: v for k, v in extra if v is not None}
    return json.dumps(values, sort_keys=True, ensure_ascii=False) if values else ""


def extra_from_text(text: object) -> tuple[tuple[str, object], ...]:
    """Card.extra from the `extra` column."""
    return tuple(json.loads(str(text)).items()) if text else ()


def card_to_values(card: Card, source: str = "") -> dict[str, Any]:
    """The column values of a card's row."""
    values: dict[str, Any] = {f.column: _to_column(f, getattr(card, f.attribute)) for f in _STORED}
    values["extra"] = extra_to_text(card.extra)
    values["source"] = source
    return values


def _to_column(f: Field, value: Any) -> Any:
    if f.db == CELL:
        return f.write(value)
    return value


def _from_column(f: Field) -> Callable[[Any], Any]:
    """How a field's attribute is read back from its column (booleans may come back as 0/1 from sqlite3)."""
    if f.db == FLAG:
        return lambda v: v if v is None else bool(v)
    return lambda v: f.read(v) if v else f.blank


_PLAIN = tuple((f.column, f.attribute) for f in _STORED if f.db not in (FLAG, CELL))
_CONVERTED = tuple((f.column, f.attribute, _from_column(f)) for f in _STORED if f.db in (FLAG, CELL))


def card_from_values(row: Mapping[str, object]) -> Card:
    """The core Card of a stored row."""
    values: dict[str, Any] = {attribute: row[column] for column, attribute in _PLAIN}
    for column, attribute, read in _CONVERTED:
        values[attribute] = read(row[column])
    return Card(**values, extra=extra_from_text(row["extra"]))


def cards_from_tuples(rows: Iterable[Sequence[Any]]) -> list[Card]:
    """Cards from rows selected in CARD_COLUMNS order."""
    return [card_from_values(dict(zip(CARD_COLUMNS, row, strict=True))) for row in rows]
