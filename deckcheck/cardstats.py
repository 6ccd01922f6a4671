"""What the card data holds and lacks: per-field known counts, data problems (lint), and search."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping

from .cards import GEM_COLOURS, Card
from .games import registry
from .provenance import KINDS, Provenance

GRID_TYPES = ("Attack", "Special Attack", "Block")


@dataclass(frozen=True)
class FieldStat:
    """How many of the cards a field applies to have it known, and from which kinds of source."""

    field: str
    applies_to: str
    known: int
    total: int
    kinds: tuple[tuple[str, int], ...] = ()  # (provenance kind, or "derived: rule", count), most first

    def kinds_text(self) -> str:
        """'checklist 1487, source 10' (values with no recorded provenance: 'unrecorded')."""
        return ", ".join(f"{kind} {n}" for kind, n in self.kinds)


def _known(cards: list[Card], field: str, test: Callable[[Card], bool],
           sources: Mapping[str, Mapping[str, Provenance]] | None, label: str, applies_to: str) -> FieldStat:
    known = [c for c in cards if test(c)]
    kinds: Counter[str] = Counter()
    if sources is not None:
        for c in known:
            p = sources.get(c.id, {}).get(field)
            kinds[("derived: " + p.ref if p.kind == "derived" and p.ref else p.kind) if p else "unrecorded"] += 1
    order = {k: i for i, k in enumerate(reversed(KINDS))}
    ranked = sorted(kinds.items(), key=lambda kv: (order.get(kv[0].split(":")[0], 99), -kv[1], kv[0]))
    return FieldStat(label, applies_to, len(known), len(cards), tuple(ranked))


def field_stats(cards: Iterable[Card], sources: Mapping[str, Mapping[str, Provenance]] | None = None) \
        -> list[FieldStat]:
    """Known counts for each rules field, over the cards it matters for; with `sources` (card id -> field ->
    provenance), how many of the known values came from each kind of source."""
    counted = _counted_games()
    cards = [c for c in cards if c.game in counted]
    personas = [c for c in cards if c.is_persona]
    gridded = [c for c in cards if c.type in GRID_TYPES]
    attacks = [c for c in cards if c.type == "Attack"]
    pregame = [c for c in cards if c.is_pregame]
    specific = [c for c in cards if c.is_immortal_specific]
    out = [
        _known(cards, "type", lambda c: c.type is not None, sources, "type", "all cards"),
        _known(gridded, "grid", lambda c: c.grid is not None, sources, "grid", "Attacks and Blocks"),
        _known(gridded, "grid", lambda c: c.grid is not None and not c.grid_inferred, sources,
               "grid (not inferred)", "Attacks and Blocks"),
        _known(attacks, "grid", lambda c: c.grid is not None, sources, "grid of Attacks", "Attacks"),
        _known(cards, "restriction", lambda c: c.restriction is not None, sources, "restriction", "all cards"),
        _known(specific, "reserved", lambda c: c.reserved is not None, sources, "reserved",
               "Immortal Specific cards"),
        _known(specific, "signature", lambda c: c.signature is not None, sources, "signature",
               "Immortal Specific cards"),
        _known(pregame, "unique", lambda c: c.unique is not None, sources, "unique", "Pre-Game cards"),
        _known(pregame, "hand_icons", lambda c: c.hand_icons is not None, sources, "hand_icons", "Pre-Game cards"),
    ]
    def gem_known(colour: str) -> Callable[[Card], bool]:
        return lambda c: c.gem(colour) is not None
    for colour in GEM_COLOURS:
        out.append(_known(personas, f"gem_{colour}", gem_known(colour), sources, f"gem_{colour}", "Personas"))
    out.append(_known(cards, "text", lambda c: bool(c.text), sources, "text", "all cards"))
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
    counted = _counted_games()
    for c in cards:
        if c.game not in counted:
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


def _counted_games() -> frozenset[str]:
    """The games whose rules data `cards stats` and `cards lint` count (Game.field_stats)."""
    return frozenset(g.name for g in registry().games if g.field_stats)
