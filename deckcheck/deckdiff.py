"""Two versions of a deck compared: cards added and removed, the verdict and the odds before and after.

Pure: reads two resolved decks and their formats. Cards are compared within the section where they
count (RULES.md "Words": by type) as a decklist means them: printings that differ only in set or
picture are one card, and a quantity that changes from 3 to 4 is one card added.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .check import validate
from .cards import CardKey
from .decks import Deck
from .formats import AnyFormat
from .games import game_named
from .report import Report
from .stats import EXERTION, HAND, ODDS, DeckStats, in_endurance

PREGAME = "Pre-Game"
ENDURANCE = "Endurance"


@dataclass(frozen=True, slots=True)
class CardChange:
    """Copies of one card added to, or removed from, a section."""

    section: str
    card: str
    quantity: int

    def as_dict(self) -> dict[str, str | int]:
        """The JSON object of one change."""
        return {"section": self.section, "card": self.card, "quantity": self.quantity}


@dataclass(frozen=True)
class DeckDiff:
    """Deck A (before) against deck B (after)."""

    before: Report
    after: Report
    before_stats: DeckStats | None  # None: the game has no deck statistics (Game.stats); the cards still compare
    after_stats: DeckStats | None
    added: tuple[CardChange, ...]
    removed: tuple[CardChange, ...]

    @property
    def fixed_rules(self) -> list[str]:
        """Rule ids reported on A and no longer on B."""
        after = {i.rule for i in self.after.issues}
        return sorted({i.rule for i in self.before.issues} - after)

    @property
    def new_rules(self) -> list[str]:
        """Rule ids reported on B that A did not break."""
        before = {i.rule for i in self.before.issues}
        return sorted({i.rule for i in self.after.issues} - before)

    def odds_rows(self, kind: str) -> list[tuple[str, float, float]]:
        """(square, before, after) for one kind of odds (see stats.ODDS), as rounded floats (none without stats)."""
        if self.before_stats is None or self.after_stats is None:
            return []
        a = self.before_stats.as_dict()["odds"][kind]
        b = self.after_stats.as_dict()["odds"][kind]
        return [(s, a[s], b[s]) for s in a]

    def as_dict(self) -> dict[str, Any]:
        """The JSON object of `deckcheck diff --json`."""
        odds: dict[str, dict[str, dict[str, float]]] = {}
        for kind in ODDS if self.before_stats is not None else ():
            odds[kind] = {s: {"before": a, "after": b, "change": round(b - a, 6)} for s, a, b in self.odds_rows(kind)}
        return {"before": {"report": self.before.as_dict(), "stats": _stats_json(self.before_stats)},
                "after": {"report": self.after.as_dict(), "stats": _stats_json(self.after_stats)},
                "added": [c.as_dict() for c in self.added], "removed": [c.as_dict() for c in self.removed],
                "legal": {"before": self.before.legal, "after": self.after.legal},
                "rules": {"fixed": self.fixed_rules, "new": self.new_rules},
                "odds": odds}


def _stats_json(stats: DeckStats | None) -> dict[str, Any] | None:
    return None if stats is None else stats.as_dict()


def _counts(deck: Deck) -> dict[tuple[str, CardKey], tuple[str, int]]:
    """(section, card as a decklist means it) -> (a name it was written with, copies); a card of a deck of Pre-Game
    and Endurance where it counts (by its type), another game's in its own section."""
    out: dict[tuple[str, CardKey], tuple[str, int]] = {}
    for e in deck.entries:
        section = (ENDURANCE if in_endurance(e) else PREGAME) if e.section in (PREGAME, ENDURANCE) else e.section
        key = (section, e.card.card_key)
        name, copies = out.get(key, (e.card.name, 0))
        out[key] = (name, copies + e.quantity)
    return out


def card_changes(before: Deck, after: Deck) -> tuple[tuple[CardChange, ...], tuple[CardChange, ...]]:
    """(added, removed): copies per card and section, Pre-Game first, then by name.

    Printings that differ only in set or picture are one card (Card.card_key); a card is named as the
    deck that holds more of it writes it.
    """
    a, b = _counts(before), _counts(after)
    added, removed = [], []
    for key in a.keys() | b.keys():
        name_a, n_a = a.get(key, ("", 0))
        name_b, n_b = b.get(key, ("", 0))
        if n_b > n_a:
            added.append(CardChange(key[0], name_b, n_b - n_a))
        elif n_a > n_b:
            removed.append(CardChange(key[0], name_a, n_a - n_b))

    def order(c: CardChange) -> tuple[bool, str, str]:
        return (c.section != PREGAME, c.card.casefold(), c.card)
    return tuple(sorted(added, key=order)), tuple(sorted(removed, key=order))


def diff_decks(before: Deck, before_format: AnyFormat, after: Deck, after_format: AnyFormat, hand: int = HAND,
               exertion: int = EXERTION) -> DeckDiff:
    """Compare two resolved decks: their cards, their reports and their statistics."""
    added, removed = card_changes(before, after)
    return DeckDiff(before=validate(before, before_format), after=validate(after, after_format),
                    before_stats=_stats(before, before_format, hand, exertion),
                    after_stats=_stats(after, after_format, hand, exertion),
                    added=added, removed=removed)


def _stats(deck: Deck, fmt: AnyFormat, hand: int, exertion: int) -> DeckStats | None:
    """A deck's statistics by its game's hook (Game.stats); None for a game without one."""
    hook = game_named(fmt.game).stats
    return hook(deck, fmt.name, hand, exertion) if hook is not None else None
