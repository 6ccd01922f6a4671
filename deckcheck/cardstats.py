"""What the card data holds and lacks: per-field known counts, data problems (lint), and search."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping

from .cards import Card
from .formats import Game
from .games import registry
from .provenance import KINDS, Provenance

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
    """Known counts for each rules field, over the cards it matters for (the type and text of every card, and the
    rows each counted game declares of its own fields: Game.counted); with `sources` (card id -> field ->
    provenance), how many of the known values came from each kind of source."""
    games = _counted_games()
    cards = [c for c in cards if c.game in {g.name for g in games}]
    out = [_known(cards, "type", lambda c: c.type is not None, sources, "type", "all cards")]
    for game in games:
        own = [c for c in cards if c.game == game.name]
        out += [_known([c for c in own if row.applies(c)], row.field, row.known, sources, row.label, row.applies_to)
                for row in game.counted]
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
    """Data problems that leave rules undecided: a type unknown, and what each counted game's card_problems says
    (Highlander: Attacks and Blocks without grid, Personas without allowance)."""
    out = []
    games = {g.name: g for g in _counted_games()}
    for c in cards:
        game = games.get(c.game)
        if game is None:
            continue
        problems = list(game.card_problems(c)) if game.card_problems is not None else []
        out += [Lint(c.id, c.name, problem) for problem in problems + (["type unknown"] if c.type is None else [])]
    return out


def _counted_games() -> tuple[Game, ...]:
    """The games whose rules data `cards stats` and `cards lint` count (Game.field_stats)."""
    return tuple(g for g in registry().games if g.field_stats)
