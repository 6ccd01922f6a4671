"""What card data kept a rule undecided (HL-DATA-UNKNOWN), as the rows of a card sheet to fill in.

Pure: it reads check reports and the decks' cards. `deckcheck cards todo` writes the rows as a
partial card sheet (CONTRACTS.md §1a): `game`, `id`, `name` and exactly the columns some card lacks, empty;
each cell to fill in holds `?` (unknown, CONTRACTS §1a), so a cell left as it is changes nothing;
filled in and imported (or given as `--cards`), the rules that waited on them decide.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from .cards import Card
from .cardsheet import value_of
from .decks import Deck
from .games import registry
from .report import Report


KEYS = ("game", "id", "name")  # the columns that say which card a row is


@dataclass
class Todo:
    """Cards whose missing values kept rules undecided: per card id, the card, the columns and the rules."""

    cards: dict[str, Card] = field(default_factory=dict)
    columns: dict[str, list[str]] = field(default_factory=dict)
    rules: dict[str, set[str]] = field(default_factory=dict)

    def add(self, card: Card, column: str, rule: str) -> None:
        """Note that a card lacks a column a rule needed."""
        self.cards.setdefault(card.id, card)
        cols = self.columns.setdefault(card.id, [])
        if column not in cols:
            cols.append(column)
        self.rules.setdefault(card.id, set()).add(rule)

    def header(self) -> list[str]:
        """`game`, `id`, `name` and the columns that some card lacks, in card-sheet order (the game: a sheet of
        cards of several games, a Raven Hunter beside a Highlander Persona, says whose card each row is)."""
        wanted = {c for cols in self.columns.values() for c in cols}
        every = dict.fromkeys(c for cols in registry().rule_columns.values() for c in cols)  # in the rules' order
        return [*KEYS, *(c for c in every if c in wanted)]

    def rows(self) -> list[list[str]]:
        """One row per card: its game, id and name, then `?` in each column it lacks (empty where it lacks nothing)."""
        header = self.header()[len(KEYS):]
        return [[card.game, card.id, card.name] + ["?" if col in self.columns[card.id] else "" for col in header]
                for card in self.cards.values()]

    def __len__(self) -> int:
        return len(self.cards)


def collect(checked: Iterable[tuple[Deck, Report]], todo: Todo | None = None) -> Todo:
    """The cards and columns behind every HL-DATA-UNKNOWN warning of the reports (with their decks' cards)."""
    todo = Todo() if todo is None else todo
    for deck, report in checked:
        by_name: dict[str, list[Card]] = {}
        for entry in deck.entries:
            by_name.setdefault(entry.card.name, []).append(entry.card)
        for player in deck.players:
            if player.hero is not None:
                by_name.setdefault(player.hero.name, []).append(player.hero)
        for issue in report.issues:
            rule = issue.undecided
            if rule is None:
                continue
            columns = registry().rule_columns.get(rule, ())
            for name in issue.cards:
                for card in by_name.get(name, ()):
                    for column in columns:
                        if value_of(card, column) is None:
                            todo.add(card, column, rule)
    return todo
