"""Card name resolution: how a name written in a decklist or sheet finds its card. Never guesses."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Callable, Iterable

from .cards import Card
from .errors import CardNotFoundError
from .text import normalize


@dataclass(frozen=True, slots=True)
class Candidate:
    """One way a name could be read, for an ambiguity message: the card and how to write it."""

    card: Card
    write_as: str


def _forms(card: Card) -> set[str]:
    """Other ways players write a card's name: Immortal as prefix or in brackets, version left out."""
    bases = {card.title}
    if card.version:
        bases.add(f"{card.title} ({card.version})")
    forms = set()
    for base in bases:
        forms.add(base)
        for owner in (card.immortal, card.weapon):
            if owner:
                forms.add(f"{owner} {base}")
                forms.add(f"{base} ({owner})")
    name = card.name
    if name.endswith(")") and "(" in name:
        # "Amanda (Premium +1 Ability)" is printed "Amanda": the bracket only tells printings apart
        forms.add(name[: name.rindex("(")])
    return {normalize(f) for f in forms} - {""}


class CardIndex:
    """All cards of one game, found by name: an exact name first, then the other written forms."""

    def __init__(self, cards: Iterable[Card], closest: Callable[[str, list[str], int], list[str]] | None = None):
        self.cards: list[Card] = list(cards)
        self._closest = closest or closest_names
        self._exact: dict[str, list[Card]] = defaultdict(list)
        self._forms: dict[str, list[Card]] = defaultdict(list)
        self._by_id: dict[str, Card] = {}
        for card in self.cards:
            self._by_id[card.id] = card
            key = normalize(card.name)
            self._exact[key].append(card)
            for form in _forms(card) - {key}:
                self._forms[form].append(card)
        self._names: list[str] | None = None

    def __len__(self) -> int:
        return len(self.cards)

    def by_id(self, card_id: str) -> Card | None:
        """The card with this printing id, or None."""
        return self._by_id.get(card_id)

    def matches(self, text: str) -> list[Card]:
        """Every card the text names: the exact-name matches if any, else the other written forms."""
        key = normalize(text)
        return list(self._exact.get(key) or self._forms.get(key) or ())

    def resolve(self, text: str, set_code: str | None = None) -> Card:
        """The one card the text names (optionally in a set); raise CardNotFoundError otherwise."""
        key = normalize(text)
        exact, forms = self._exact.get(key, []), self._forms.get(key, [])
        found = exact or forms
        if not found:
            raise CardNotFoundError(text, "unknown card", self.suggest(text))
        if set_code:
            wanted = normalize(set_code)
            found = [c for c in exact if normalize(c.set or "") == wanted] or \
                    [c for c in forms if normalize(c.set or "") == wanted]
            if not found:
                sets = sorted({c.set or "?" for c in exact + forms})
                raise CardNotFoundError(f"{text} [{set_code}]",
                                        f"no printing in set {set_code}; printed in {', '.join(sets)}")
        groups: dict[tuple, list[Card]] = {}
        for card in found:
            groups.setdefault(card.rules_key, []).append(card)
        if len(groups) == 1:
            return found[0]
        candidates = [c.write_as for c in self.candidates(found)]
        raise CardNotFoundError(text, f"ambiguous: {len(groups)} different cards match; write one of them",
                                candidates)

    def candidates(self, cards: list[Card]) -> list[Candidate]:
        """How to write each distinct card of a list so that it resolves to that card alone."""
        out: list[Candidate] = []
        seen: set[tuple] = set()
        for card in cards:
            if card.rules_key in seen:
                continue
            seen.add(card.rules_key)
            same_name = self._exact.get(normalize(card.name), [])
            distinct = {c.rules_key for c in same_name}
            write_as = card.name if len(distinct) <= 1 else f"{card.name} [{card.set}]"
            out.append(Candidate(card, write_as))
        return out

    def suggest(self, text: str, limit: int = 5) -> list[str]:
        """The closest card names to a name that matched nothing."""
        if self._names is None:
            self._names = sorted({c.name for c in self.cards})
        return self._closest(text, self._names, limit)


def closest_names(text: str, names: list[str], limit: int = 5) -> list[str]:
    """The names closest to text, by difflib (the CLI passes a rapidfuzz ranking instead)."""
    import difflib
    folded = {normalize(n): n for n in names}
    return [folded[m] for m in difflib.get_close_matches(normalize(text), list(folded), n=limit, cutoff=0.6)]
