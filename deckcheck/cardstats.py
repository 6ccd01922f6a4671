"""What the card data holds and lacks: per-field known counts, and data problems (lint)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable

from .cards import GEM_COLOURS, Card

GRID_TYPES = ("Attack", "Special Attack", "Block")


@dataclass(frozen=True)
class FieldStat:
    """How many of the cards a field applies to have it known."""

    field: str
    applies_to: str
    known: int
    total: int


def field_stats(cards: Iterable[Card]) -> list[FieldStat]:
    """Known counts for each rules field, over the cards it matters for."""
    cards = [c for c in cards if c.game == "highlander"]
    personas = [c for c in cards if c.is_persona]
    gridded = [c for c in cards if c.type in GRID_TYPES]
    pregame = [c for c in cards if c.is_pregame]
    out = [
        FieldStat("type", "all cards", sum(c.type is not None for c in cards), len(cards)),
        FieldStat("grid", "Attacks and Blocks", sum(c.grid is not None for c in gridded), len(gridded)),
        FieldStat("grid (not inferred)", "Attacks and Blocks",
                  sum(c.grid is not None and not c.grid_inferred for c in gridded), len(gridded)),
        FieldStat("restriction", "all cards", sum(c.restriction is not None for c in cards), len(cards)),
        FieldStat("reserved", "Immortal Specific cards",
                  sum(c.reserved is not None for c in cards if c.is_immortal_specific),
                  sum(c.is_immortal_specific for c in cards)),
        FieldStat("signature", "Immortal Specific cards",
                  sum(c.signature is not None for c in cards if c.is_immortal_specific),
                  sum(c.is_immortal_specific for c in cards)),
        FieldStat("unique", "Pre-Game cards", sum(c.unique is not None for c in pregame), len(pregame)),
        FieldStat("hand_icons", "Pre-Game cards", sum(c.hand_icons is not None for c in pregame), len(pregame)),
    ]
    for colour in GEM_COLOURS:
        out.append(FieldStat(f"gem_{colour}", "Personas", sum(c.gem(colour) is not None for c in personas),
                             len(personas)))
    out.append(FieldStat("text", "all cards", sum(bool(c.text) for c in cards), len(cards)))
    return out


def counts(cards: Iterable[Card]) -> dict[str, Counter[str]]:
    """Cards by game, edition, set and type."""
    cards = list(cards)
    return {"game": Counter(c.game for c in cards), "edition": Counter(str(c.edition) for c in cards),
            "set": Counter(c.set or "?" for c in cards), "type": Counter(c.type or "unknown" for c in cards)}


@dataclass(frozen=True)
class Lint:
    """One data problem of one card."""

    card_id: str
    name: str
    problem: str


def lint(cards: Iterable[Card]) -> list[Lint]:
    """Data problems that leave rules undecided: Attacks and Blocks without grid, Personas without allowance."""
    out = []
    for c in cards:
        if c.game != "highlander":
            continue
        if c.type in GRID_TYPES and c.grid is None:
            out.append(Lint(c.id, c.name, f"{c.type} with no grid"))
        if c.is_persona and c.gem_master is None:
            out.append(Lint(c.id, c.name, "Persona with no Master allowance (gem_master)"))
        if c.type is None:
            out.append(Lint(c.id, c.name, "type unknown"))
        if c.is_persona and c.immortal is None:
            out.append(Lint(c.id, c.name, "Persona with no Immortal name"))
    return out
