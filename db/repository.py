"""Rows <-> core Cards, shared by the SQLAlchemy path and the fast sqlite3 read path."""
from __future__ import annotations

import json
from typing import Any, Iterable, Mapping, Sequence

from deckcheck.cards import NO_MODIFIERS, Card, parse_modifiers

# The card table's columns, in order; `set_code` stores the card's `set`.
CARD_COLUMNS = ("id", "game", "name", "title", "immortal", "weapon", "version", "edition", "set_code", "type",
                "subtype", "basic", "grid", "grid_inferred", "restriction", "reserved", "signature", "unique",
                "hand_icons", "gem_master", "gem_agility", "gem_strength", "gem_toughness", "gem_empathy",
                "gem_reason", "requires", "deckbuilding", "extra", "rarity", "text")
# `extra` holds a card's game columns (Card.extra) as a JSON object. The columns that held Raven's and
# Taktik's values before it (renown ... suit) stay in older databases, unused (store.migrate copies them).
LEGACY_EXTRA = ("renown", "health", "skill", "rank", "suit")
_BOOLS = ("reserved", "signature", "unique")
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
    values = {
        "id": card.id, "game": card.game, "name": card.name, "title": card.title, "immortal": card.immortal,
        "weapon": card.weapon, "version": card.version, "edition": card.edition, "set_code": card.set,
        "type": card.type, "subtype": ";".join(card.subtype), "basic": card.basic, "grid": card.grid,
        "grid_inferred": card.grid_inferred, "restriction": card.restriction, "reserved": card.reserved,
        "signature": card.signature, "unique": card.unique, "hand_icons": card.hand_icons,
        "requires": ";".join(sorted(card.requires)), "deckbuilding": str(card.modifiers),
        "extra": extra_to_text(card.extra), "rarity": card.rarity,
        "text": card.text, "source": source,
    }
    for colour in ("master", "agility", "strength", "toughness", "empathy", "reason"):
        values[f"gem_{colour}"] = card.gem(colour)
    return values


def card_from_values(row: Mapping[str, object]) -> Card:
    """The core Card of a stored row (booleans may come back as 0/1 from sqlite3)."""
    values: dict[str, Any] = {k: row[k] for k in CARD_COLUMNS}
    values["set"] = values.pop("set_code")
    values["subtype"] = tuple(s for s in (values["subtype"] or "").split(";") if s)
    values["requires"] = frozenset(s for s in (values["requires"] or "").split(";") if s)
    text = values.pop("deckbuilding") or ""
    values["modifiers"] = parse_modifiers(text) if text else NO_MODIFIERS
    values["extra"] = extra_from_text(values["extra"])
    values["basic"] = bool(values["basic"])
    values["grid_inferred"] = bool(values["grid_inferred"])
    for key in _BOOLS:
        if values[key] is not None:
            values[key] = bool(values[key])
    return Card(**values)


def cards_from_tuples(rows: Iterable[Sequence[Any]]) -> list[Card]:
    """Cards from rows selected in CARD_COLUMNS order."""
    return [card_from_values(dict(zip(CARD_COLUMNS, row, strict=True))) for row in rows]
