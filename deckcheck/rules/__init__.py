"""The rules engine: a rule is a named, pure function from a deck view to issues."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from ..cards import Card
from ..report import DATA_UNKNOWN, ERROR, WARNING, Issue


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule of RULES.md: its id, severity, a one-line summary and the function that checks it."""

    id: str
    severity: str
    summary: str
    check: Callable[..., Iterable[Issue]]

    def __call__(self, view) -> Iterable[Issue]:
        return self.check(view)


def rule(rule_id: str, severity: str, summary: str) -> Callable[[Callable], Rule]:
    """Decorator turning a check function into a Rule."""
    def wrap(check: Callable) -> Rule:
        return Rule(rule_id, severity, summary, check)
    return wrap


def names(cards: Iterable[Card]) -> tuple[str, ...]:
    """Distinct card names in first-seen order."""
    return tuple(dict.fromkeys(c.name for c in cards))


def plural(n: int, word: str, words: str | None = None) -> str:
    """'1 card', '2 cards'."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


def data_unknown(rule_id: str, what: str, cards: Sequence[Card], fix: str | None = None) -> Issue:
    """The warning that a rule could not be decided on missing card data (RULES.md HL-DATA-UNKNOWN)."""
    listed = names(cards)
    return Issue(DATA_UNKNOWN, WARNING, f"{rule_id} not verified: {what} for {plural(len(listed), 'card')}: "
                 f"{', '.join(listed)}", listed,
                 fix=fix or "add the missing values with a card sheet (deckcheck cards import, or --cards)")


def error(rule_id: str, message: str, cards: Iterable[Card] = (), limit: int | None = None,
          actual: int | None = None, fix: str | None = None) -> Issue:
    """An issue of severity error."""
    return Issue(rule_id, ERROR, message, names(cards), limit, actual, fix)


def warning(rule_id: str, message: str, cards: Iterable[Card] = (), fix: str | None = None) -> Issue:
    """An issue of severity warning."""
    return Issue(rule_id, WARNING, message, names(cards), fix=fix)
