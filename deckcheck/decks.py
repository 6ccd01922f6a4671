"""A deck: resolved cards by section, and how a raw decklist becomes one."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator

from .cards import Card
from .catalog import CardIndex
from .decklist import RawDeck
from .errors import CardNotFoundError
from .report import InputProblem

if TYPE_CHECKING:
    from .formats import Format


@dataclass(slots=True)
class Entry:
    """Some copies of one card in one section of a deck."""

    card: Card
    quantity: int
    section: str
    line: int | None = None
    attach: str | None = None


@dataclass(slots=True)
class Player:
    """A player of a table game, and the Hero card they play (None when the name did not resolve)."""

    name: str
    hero: Card | None
    line: int | None = None


@dataclass(slots=True)
class Deck:
    """Entries in sections, plus players for games that have them."""

    entries: list[Entry] = field(default_factory=list)
    source: str = ""
    declared_format: str | None = None
    player: str | None = None
    players: list[Player] = field(default_factory=list)
    _by_key: dict = field(default_factory=dict, repr=False, compare=False)  # where add() finds an entry

    def add(self, card: Card, quantity: int, section: str, line: int | None = None, attach: str | None = None):
        """Add copies; the same card in the same section (and attachment) adds up."""
        key = (card.game, card.id, section, attach)
        entry = self._by_key.get(key)
        if entry is not None:
            entry.quantity += quantity
            return
        entry = self._by_key[key] = Entry(card, quantity, section, line, attach)
        self.entries.append(entry)

    def section(self, name: str) -> list[Entry]:
        """The entries of one section."""
        return [e for e in self.entries if e.section == name]

    def count(self, section: str) -> int:
        """How many cards one section holds."""
        return sum(e.quantity for e in self.entries if e.section == section)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries)


def build_deck(raw: RawDeck, index: CardIndex, fmt: "Format") -> tuple[Deck, list[InputProblem]]:
    """Resolve every line of a raw decklist for a format; return the deck and every input problem."""
    deck = Deck(source=raw.source, declared_format=raw.declared_format, player=raw.player)
    problems = [InputProblem(p.line, p.text, p.message) for p in raw.problems]
    for line in raw.lines:
        card: Card | None = None
        quantity = 0
        error: CardNotFoundError | None = None
        for qty, name in line.readings:
            try:
                card = index.resolve(name, line.set_code)
            except CardNotFoundError as exc:
                error = error or exc
                continue
            quantity = qty
            break
        if card is None:
            assert error is not None
            problems.append(InputProblem(line.line, line.text, _message(error), tuple(error.suggestions)))
            continue
        section = fmt.section_of(line.section, card)
        if section is None:
            problems.append(InputProblem(line.line, line.text, f"section {line.section!r} is not part of format "
                                                               f"{fmt.name}; its sections are "
                                                               f"{', '.join(fmt.sections)}"))
            continue
        deck.add(card, quantity, section, line.line, line.attach)
    for p in raw.players:
        try:
            hero = index.resolve(p.hero)
        except CardNotFoundError as exc:
            problems.append(InputProblem(p.line, p.text, _message(exc), tuple(exc.suggestions)))
            hero = None
        deck.players.append(Player(p.name, hero, p.line))
    return deck, problems


def _message(error: CardNotFoundError) -> str:
    text = str(error)
    prefix = f"{error.text!r}: "
    text = text[len(prefix):] if text.startswith(prefix) else text
    return text.split("; did you mean")[0]
