"""What the Highlander rules read: a deck with the format's parameters and the cards' modifiers applied."""
from __future__ import annotations

from collections import Counter, defaultdict
from functools import cached_property
from typing import Mapping

from ..cards import Card
from ..decks import Deck, Entry
from ..text import normalize

PREGAME = "Pre-Game"
ENDURANCE = "Endurance"


class HighlanderView:
    """A deck seen by the Highlander rules. Every derived value is computed once, on first use."""

    def __init__(self, deck: Deck, params: Mapping[str, object]):
        self.deck = deck
        self.params = params

    # -- sections -------------------------------------------------------------------------------
    @cached_property
    def endurance(self) -> list[Entry]:
        return [e for e in self.deck.entries if e.section == ENDURANCE]

    @cached_property
    def pregame(self) -> list[Entry]:
        return [e for e in self.deck.entries if e.section == PREGAME]

    @cached_property
    def endurance_count(self) -> int:
        return sum(e.quantity for e in self.endurance)

    @cached_property
    def pregame_count(self) -> int:
        return sum(e.quantity for e in self.pregame)

    # -- the Persona ----------------------------------------------------------------------------
    @cached_property
    def personas(self) -> list[Entry]:
        return [e for e in self.deck.entries if e.card.type == "Persona"]

    @cached_property
    def persona(self) -> Card | None:
        """The Persona card played (the first one, when a deck holds more)."""
        return self.personas[0].card if self.personas else None

    @cached_property
    def persona_key(self) -> str | None:
        """The played Persona's Immortal name, folded; None for a Generic Immortal."""
        return self.persona.immortal_key if self.persona is not None else None

    @property
    def is_generic(self) -> bool:
        """A Generic Immortal: no Persona card that names an Immortal."""
        return self.persona_key is None

    def is_own(self, card: Card) -> bool:
        """Whether an Immortal Specific card belongs to the played Persona (Clan MacLeod for any MacLeod)."""
        key = card.immortal_key
        if key is None or self.persona_key is None:
            return False
        if key == self.persona_key:
            return True
        clan = self.params.get("clan_cards", {})
        return key in clan and clan[key] in self.persona_key.split()

    # -- modifiers, applied before the rules ---------------------------------------------------
    @cached_property
    def modifiers(self) -> list:
        return [e.card.modifiers for e in self.deck.entries if e.card.modifiers]

    @cached_property
    def deck_min(self) -> int:
        values = [m.deck_min for m in self.modifiers if m.deck_min is not None]
        return min(values) if values else int(self.params["deck_min"])

    @cached_property
    def pregame_extra(self) -> int:
        return sum(m.pregame_extra for m in self.modifiers)

    @cached_property
    def master_any_persona(self) -> bool:
        return any(m.master_any_persona for m in self.modifiers)

    @cached_property
    def woc_max(self) -> int:
        values = [m.woc_max for m in self.modifiers if m.woc_max is not None]
        return max(values) if values else int(self.params["woc_max"])

    @cached_property
    def grants(self) -> frozenset[str]:
        tags: set[str] = set()
        for m in self.modifiers:
            tags |= {normalize(t) for t in m.grants}
        return frozenset(tags)

    @cached_property
    def foreign(self) -> tuple[dict[str, list[tuple[Entry, int]]], dict[str, list[tuple[Entry, int]]]]:
        """Endurance cards of other Personas: (allowed by a modifier, not allowed), by Immortal name.

        Each value lists (entry, copies). Master cards are allowed by master_any_persona; the
        other_persona_each quota applies per Immortal, then other_persona_total; Signature cards
        are never allowed.
        """
        allowed: dict[str, list] = defaultdict(list)
        refused: dict[str, list] = defaultdict(list)
        if self.is_generic:
            return allowed, refused
        each = max((m.other_persona_each for m in self.modifiers), default=0)
        total = sum(m.other_persona_total for m in self.modifiers)
        used_each: Counter = Counter()
        for entry in self.endurance:
            card = entry.card
            if not card.is_immortal_specific or self.is_own(card):
                continue
            who = card.immortal or ""
            ok = 0
            if card.signature is True:
                ok = 0
            elif self.master_any_persona and card.is_master:
                ok = entry.quantity
            else:
                from_each = min(entry.quantity, max(each - used_each[who], 0))
                used_each[who] += from_each
                from_total = min(entry.quantity - from_each, total)
                total -= from_total
                ok = from_each + from_total
            if ok:
                allowed[who].append((entry, ok))
            if entry.quantity - ok:
                refused[who].append((entry, entry.quantity - ok))
        return allowed, refused

    # -- counting -------------------------------------------------------------------------------
    @cached_property
    def by_title(self) -> dict[str, list[Entry]]:
        groups: dict[str, list[Entry]] = defaultdict(list)
        for e in self.deck.entries:
            groups[e.card.title_key].append(e)
        return groups

    def details(self) -> dict:
        """What the terminal report draws: the squares the Basic Attacks and the Blocks cover."""
        attacks = blocks = 0
        for e in self.endurance:
            grid = e.card.grid or 0
            if e.card.type == "Block":
                blocks |= grid
            elif e.card.basic and e.card.type == "Attack":
                attacks |= grid
        return {"attack_grid": attacks, "block_grid": blocks}

    @cached_property
    def endurance_titles(self) -> set[str]:
        return {e.card.title_key for e in self.endurance}
