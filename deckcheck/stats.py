"""Deck statistics and draw odds (CONTRACTS.md §7): what the Endurance holds, square by square, and how it draws.

Pure: reads a resolved Deck and its cards' data, nothing else. What counts where (1st-edition rulebook,
Arms and Tactics):
- an attack is a card of type Attack. Special Attacks "may not be pulled from an Exertion", and Ranged
  Attacks "follow all of the rules of Special Attacks", so a Special Attack, or an Attack whose subtype
  says Ranged or Special, is not one;
- a block is a card of type Block, or any card whose subtype says Guard ("Guards are considered blocks";
  glossary: "Any card with a blue grid ... is a block. This includes Guards");
- a dodge is a card of type Dodge ("if your dodge covers the same area as the attack");
- a defense, for an Exertion searching for one, is a block or a dodge (Guards included).
A card covers (or, for an attack, targets) the squares of its grid. A card whose grid is unknown covers
nothing and is listed in `unknown_grid`, and so is an Attack/Defense card (its single grid does not say
which squares it attacks and which it covers) and a card of unknown type (it may be any of them).

Odds are exact hypergeometric values: the chance that n cards drawn from an Endurance of N cards, K of
which qualify, hold at least one is 1 - C(N-K, n)/C(N, n). They are kept as Fractions; as_dict() gives
floats rounded to 6 decimals. A hand or Exertion larger than the Endurance draws the whole Endurance
(the chance is then 1 when any card qualifies, else 0); an empty Endurance gives 0 everywhere.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Any, Iterable, Mapping

from .cards import ENDURANCE_TYPES, PREGAME_TYPES, Card
from .decks import Deck, Entry
from .errors import DeckcheckError
from .grid import BIT, SQUARES

HAND = 15  # 1st edition: the starting Ability, cards drawn into the opening hand
EXERTION = 5  # 1st edition: "turn over the top five cards"
MAX_DRAW = 1000  # no game draws more; beyond it the exact big-number arithmetic would only cost time
ENDURANCE = "Endurance"
UNKNOWN_TYPE = "unknown"
# by_type lists the kinds of the contract in this order, any other kind after them by name.
TYPE_ORDER = ("Attack", "Special Attack", "Block", "Dodge", "Attack/Defense", "Event", "Situation", "Plot",
              "Location", "Object", "Edge", "Illusion")
ODDS = ("opening_block", "exertion_attack", "exertion_defense")


class DrawSizeError(DeckcheckError):
    """A hand or Exertion size that is not a whole number from 0 to MAX_DRAW."""

    def __init__(self, what: str, value: object):
        self.what = what
        self.value = value
        super().__init__(f"{what} must be a whole number from 0 to {MAX_DRAW}, got {value!r}")


def _subtypes(card: Card) -> set[str]:
    return {word.casefold() for tag in card.subtype for word in tag.replace("-", " ").split()}


def is_attack(card: Card) -> bool:
    """An attack that an Exertion may find: type Attack, not Special and not Ranged."""
    return card.type == "Attack" and not ({"ranged", "special"} & _subtypes(card))


def is_block(card: Card) -> bool:
    """A block: type Block, or a Guard of any type (Guards are blocks)."""
    return card.type == "Block" or "guard" in _subtypes(card)


def is_dodge(card: Card) -> bool:
    """A dodge: type Dodge."""
    return card.type == "Dodge" and "guard" not in _subtypes(card)


def grid_matters(card: Card) -> bool:
    """Whether the card's grid takes part in the figures (or would, if its type were known)."""
    return card.type is None or card.type == "Attack/Defense" or is_attack(card) or is_block(card) \
        or is_dodge(card)


def in_endurance(entry: Entry) -> bool:
    """Where a card counts (RULES.md "Words"): by its type; a card of no known kind stays where it is written."""
    kind = entry.card.type
    if kind in PREGAME_TYPES:
        return False
    if kind in ENDURANCE_TYPES:
        return True
    return entry.section == ENDURANCE


def check_draw(what: str, value: object) -> int:
    """A hand or Exertion size as an int; DrawSizeError quoting the value when it is not 0..MAX_DRAW."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_DRAW:
        raise DrawSizeError(what, value)
    return value


@lru_cache(maxsize=4096)  # decks share sizes and counts; a Fraction is immutable
def chance_of_any(deck_size: int, hits: int, draws: int) -> Fraction:
    """The chance that `draws` cards from `deck_size`, `hits` of which qualify, hold at least one of them.

    Draws beyond the deck size draw the whole deck; an empty deck or no draw gives 0.
    """
    if not 0 <= hits <= deck_size or draws < 0:
        raise ValueError(f"no such draw: {hits} qualifying of {deck_size}, {draws} drawn")
    n = min(draws, deck_size)
    if n == 0 or hits == 0:
        return Fraction(0)
    return 1 - Fraction(comb(deck_size - hits, n), comb(deck_size, n))


@dataclass(frozen=True, slots=True)
class SquareCounts:
    """Copies in the Endurance that target (attacks) or cover (blocks, dodges) one square."""

    attacks: int = 0
    blocks: int = 0
    dodges: int = 0

    @property
    def defenses(self) -> int:
        """Blocks (Guards included) and dodges covering the square."""
        return self.blocks + self.dodges

    def as_dict(self) -> dict[str, int]:
        """The §7 object of one square."""
        return {"attacks": self.attacks, "blocks": self.blocks, "dodges": self.dodges}


@dataclass(frozen=True)
class DeckStats:
    """What a deck's Endurance holds and how it draws (CONTRACTS.md §7). Odds are exact Fractions."""

    deck: str
    format: str
    endurance: int
    by_type: Mapping[str, int]
    squares: Mapping[str, SquareCounts]
    unknown_grid: tuple[str, ...]
    hand: int = HAND
    exertion: int = EXERTION
    odds: Mapping[str, Mapping[str, Fraction]] = field(default_factory=dict)

    @property
    def opening_block(self) -> Mapping[str, Fraction]:
        """Per square: an opening hand holds at least one block covering it."""
        return self.odds["opening_block"]

    @property
    def exertion_attack(self) -> Mapping[str, Fraction]:
        """Per square: an Exertion turns over at least one attack (not Special) targeting it."""
        return self.odds["exertion_attack"]

    @property
    def exertion_defense(self) -> Mapping[str, Fraction]:
        """Per square: an Exertion turns over at least one block, dodge or Guard covering it."""
        return self.odds["exertion_defense"]

    def as_dict(self) -> dict[str, Any]:
        """The JSON object of CONTRACTS.md §7 (odds as floats rounded to 6 decimals)."""
        odds: dict[str, Any] = {"hand": self.hand, "exertion": self.exertion}
        for name in ODDS:
            odds[name] = {s: round(float(p), 6) for s, p in self.odds[name].items()}
        return {"deck": self.deck, "format": self.format, "endurance": self.endurance,
                "by_type": dict(self.by_type),
                "squares": {s: c.as_dict() for s, c in self.squares.items()},
                "unknown_grid": list(self.unknown_grid), "odds": odds}


def _type_order(kind: str) -> tuple[int, int, str]:
    if kind in TYPE_ORDER:
        return (0, TYPE_ORDER.index(kind), "")
    return (2 if kind == UNKNOWN_TYPE else 1, 0, kind)


def stats_of_entries(entries: Iterable[tuple[Card, int]], deck: str = "", format: str = "",
                     hand: int = HAND, exertion: int = EXERTION) -> DeckStats:
    """The statistics of an Endurance given as (card, copies) pairs."""
    hand = check_draw("hand", hand)
    exertion = check_draw("exertion", exertion)
    by_type: dict[str, int] = {}
    attacks = dict.fromkeys(SQUARES, 0)
    blocks = dict.fromkeys(SQUARES, 0)
    dodges = dict.fromkeys(SQUARES, 0)
    unknown: dict[str, None] = {}
    size = 0
    for card, copies in entries:
        if copies <= 0:
            continue
        size += copies
        kind = card.type or UNKNOWN_TYPE
        by_type[kind] = by_type.get(kind, 0) + copies
        if not grid_matters(card):
            continue
        if card.grid is None or card.type is None or card.type == "Attack/Defense":
            unknown[card.name] = None
            continue
        counts = attacks if is_attack(card) else blocks if is_block(card) else dodges
        for square in SQUARES:
            if card.grid & BIT[square]:
                counts[square] += copies
    squares = {s: SquareCounts(attacks[s], blocks[s], dodges[s]) for s in SQUARES}
    odds = {
        "opening_block": {s: chance_of_any(size, c.blocks, hand) for s, c in squares.items()},
        "exertion_attack": {s: chance_of_any(size, c.attacks, exertion) for s, c in squares.items()},
        "exertion_defense": {s: chance_of_any(size, c.defenses, exertion) for s, c in squares.items()},
    }
    return DeckStats(deck=deck, format=format, endurance=size,
                     by_type={k: by_type[k] for k in sorted(by_type, key=_type_order)},
                     squares=squares, unknown_grid=tuple(sorted(unknown, key=str.casefold)),
                     hand=hand, exertion=exertion, odds=odds)


def stats_of(deck: Deck, format: str = "", hand: int = HAND, exertion: int = EXERTION) -> DeckStats:
    """The statistics of a resolved deck's Endurance (cards counted where their type belongs)."""
    return stats_of_entries(((e.card, e.quantity) for e in deck.entries if in_endurance(e)), deck.source,
                            format, hand, exertion)


def open_squares(stats: DeckStats) -> dict[str, tuple[str, ...]]:
    """The squares a deck still leaves open: `defense`, those no Block, Dodge or Guard of its Endurance covers;
    `attack`, those no Attack (not Special) targets. Cards of unknown grid cover nothing (as in the odds)."""
    return {"defense": tuple(s for s, c in stats.squares.items() if not c.defenses),
            "attack": tuple(s for s, c in stats.squares.items() if not c.attacks)}


def fills(card: Card, open_: Mapping[str, tuple[str, ...]]) -> tuple[str, ...]:
    """The open squares (open_squares) one copy of `card` would cover: a defense's squares among the open
    defense squares, an attack's among the open attack squares; none for a card of unknown grid or no grid."""
    if card.grid is None or card.type is None or card.type == "Attack/Defense":
        return ()
    wanted = open_["attack"] if is_attack(card) else open_["defense"] if is_block(card) or is_dodge(card) else ()
    return tuple(s for s in wanted if card.grid & BIT[s])
