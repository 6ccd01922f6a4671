"""What adding one copy of a card does to a deck's check, for each of the cards a search lists (the builder's
"playable" search, CONTRACTS §10): the error rules it would add, and whether it would leave more rules undecided.

The answer is the plain one, validating the deck plus the card and comparing with the deck's own report, worked
out with less: the deck's view and each rule's issues are made once, and for a card the deck does not hold in
that section yet only the rules it may change (Rule.may_change) run again, on the deck's entries plus the card's;
every other rule says of the deck plus the card what it says of the deck. A rule whose verdict on the deck plus a
card depends on a key of the card alone (Rule.same_for: a Signature rule on the card's Signature mark) runs once per
key, every card of that key taking its tally. A rule that says nothing of what may change it runs for every card,
and a card the deck holds already (one more copy on its line) is validated whole.
"""
from __future__ import annotations

from typing import Any, Hashable

from .cards import Card
from .check import validate
from .decks import Deck, Entry
from .formats import AnyFormat
from .games import registry
from .report import ERROR, Issue
from .rules import Rule, SameFor


Tally = tuple[dict[str, int], int]  # errors by rule id, and how many issues are undecided
_NOTHING: dict[str, int] = {}


def _tally(issues: list[Issue]) -> Tally:
    """Errors by rule id, and how many issues are undecided (most rules find nothing: no dict made then)."""
    if not issues:
        return _NOTHING, 0
    errors: dict[str, int] = {}
    undecided = 0
    for i in issues:
        if i.severity == ERROR:
            errors[i.rule] = errors.get(i.rule, 0) + 1
        if i.undecided is not None:
            undecided += 1
    return errors, undecided


class Additions:
    """The effect of adding one copy of a card to a deck as it stands, against the deck's own report."""

    def __init__(self, deck: Deck, fmt: AnyFormat):
        self.fmt = fmt
        self.errors, self.undecided = _tally(validate(deck, fmt).issues)  # what the deck's own report says
        # the deck as a card is added to it: one entry a card and section (as Deck.add makes them)
        self._deck = Deck.from_entries((e.card, e.section, e.quantity) for e in deck.entries)
        self._lines = {(e.card.game, e.card.id, e.section) for e in self._deck.entries}
        self._view: Any = fmt.view(self._deck, fmt.params)
        self._view_plus = getattr(self._view, "plus", None)
        self._unknown_id = registry().game_named(fmt.game).data_unknown
        # each rule with its tally on the deck, and its tally on the deck plus a card by the card's key (same_for)
        self._rules: list[tuple[Rule[Any], dict[str, int], int, SameFor[Any] | None, dict[Hashable, Tally]]] = []
        errors: dict[str, int] = {}
        undecided = 0
        for rule in fmt.rules:
            found, unknown = _tally(rule(self._view, self._unknown_id))
            self._rules.append((rule, found, unknown, rule.same_for, {}))
            for rule_id, n in found.items():
                errors[rule_id] = errors.get(rule_id, 0) + n
            undecided += unknown
        self._errors, self._undecided = errors, undecided  # the same deck's, rule by rule

    def of(self, card: Card, section: str) -> tuple[tuple[str, ...], bool]:
        """(the error rules adding one copy of `card` to `section` adds, sorted; whether it leaves more issues
        undecided than the deck's report)."""
        if (card.game, card.id, section) in self._lines:  # one more copy on a line of the deck: checked whole
            errors, undecided = _tally(validate(self._plus(card, section), self.fmt).issues)
        else:
            view, errors, undecided, copied = None, self._errors, self._undecided, False
            for rule, before, unknown, same_for, shared in self._rules:
                if rule.may_change is not None and not rule.may_change(self._view, card, section):
                    continue
                key = same_for(self._view, card, section) if same_for is not None else None
                found = shared.get(key) if key is not None else None
                if found is None:
                    if view is None:
                        view = self._extended(card, section)
                    found = _tally(rule(view, self._unknown_id))
                    if key is not None:
                        shared[key] = found
                after, now = found
                if after is not before:
                    if not copied:
                        errors, copied = dict(errors), True
                    for rule_id, n in before.items():
                        errors[rule_id] -= n
                    for rule_id, n in after.items():
                        errors[rule_id] = errors.get(rule_id, 0) + n
                undecided += now - unknown
        return tuple(sorted(r for r, n in errors.items() if n > self.errors.get(r, 0))), undecided > self.undecided

    def _extended(self, card: Card, section: str) -> Any:
        """The view of the deck plus a card on a line of its own: from the deck's view when the game's view offers
        it (`plus(entry)`: HighlanderView.plus), else the format's view of the deck plus the card."""
        if self._view_plus is not None:
            return self._view_plus(Entry(card, 1, section))
        return self.fmt.view(self._plus(card, section), self.fmt.params)

    def _plus(self, card: Card, section: str) -> Deck:
        """The deck plus one copy of the card in the section, as Deck.from_entries makes it; a new line shares the
        deck's entries (the rules only read them)."""
        if (card.game, card.id, section) in self._lines:
            entries = [(e.card, e.section, e.quantity) for e in self._deck.entries]
            return Deck.from_entries([*entries, (card, section, 1)])
        return Deck(entries=[*self._deck.entries, Entry(card, 1, section)])
