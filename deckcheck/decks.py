"""A deck: resolved cards by section, and how a raw decklist becomes one."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable, Iterator

from .cards import Card
from .catalog import CardIndex, Context
from .decklist import SIDE_WORDS, RawDeck, RawLine, unknown_heading
from .errors import CardNotFoundError, UnknownCardError
from .report import WRONG_SECTION, InputProblem

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
    notices: list[str] = field(default_factory=list)  # what was read but is not part of the deck (a side board)
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

    @classmethod
    def from_entries(cls, entries: Iterable[tuple[Card, str, int]], source: str = "",
                     declared_format: str | None = None) -> "Deck":
        """A deck of resolved (card, section, quantity) entries, as a saved deck keeps them."""
        deck = cls(source=source, declared_format=declared_format)
        for card, section, quantity in entries:
            deck.add(card, quantity, section)
        return deck

    def section(self, name: str) -> list[Entry]:
        """The entries of one section."""
        return [e for e in self.entries if e.section == name]

    def count(self, section: str) -> int:
        """How many cards one section holds."""
        return sum(e.quantity for e in self.entries if e.section == section)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries)


def build_deck(raw: RawDeck, index: CardIndex, fmt: "Format") -> tuple[Deck, list[InputProblem]]:
    """Resolve every line of a raw decklist for a format; return the deck and every input problem.

    Names are read in two rounds: the first finds the deck's Persona, the second reads the names
    that several Immortals' cards share as the Persona's own card (CONTRACTS.md §2).
    """
    deck = Deck(source=raw.source, declared_format=raw.declared_format, player=raw.player)
    problems = [InputProblem(p.line, p.text, unknown_heading(p.heading, fmt.name) if p.heading else p.message)
                for p in raw.problems]  # the format is known now, given on the command line or not
    edition = fmt.params.name_edition
    context = Context(edition=edition if isinstance(edition, int) else None)
    results: list[tuple[Card, int] | CardNotFoundError] = [_resolve_line(line, index, context) for line in raw.lines]
    persona = next((r[0].immortal_key for r in results if not isinstance(r, CardNotFoundError)
                    and r[0].type == "Persona" and r[0].immortal_key), None)
    if persona is not None:
        context = Context(persona, context.edition)
        results = [_resolve_line(line, index, context) if isinstance(r, CardNotFoundError) else r
                   for line, r in zip(raw.lines, results, strict=True)]
    aside: dict[str, int] = {}
    for line, result in zip(raw.lines, results, strict=True):
        if isinstance(result, CardNotFoundError) and _is_unknown(result):
            result = _resolve_line(line, index, context, suggest=True)
        if isinstance(result, CardNotFoundError):
            problems.append(InputProblem(line.line, line.text, _message(result, line, raw),
                                         tuple(result.suggestions), result.kind))
            continue
        card, quantity = result
        if line.section in SIDE_WORDS:
            aside[line.section] = aside.get(line.section, 0) + quantity
            continue
        section = fmt.section_of(line.section, card)
        if section is None:
            problems.append(InputProblem(line.line, line.text, f"section {line.section!r} is not part of format "
                                                               f"{fmt.name}; its sections are "
                                                               f"{', '.join(fmt.sections)}", kind=WRONG_SECTION))
            continue
        deck.add(card, quantity, section, line.line, line.attach)
    for side, count in aside.items():
        deck.notices.append(f"{count} {'card' if count == 1 else 'cards'} under {side.title()}: read, not part of "
                            "the deck")
    for p in raw.players:
        try:
            hero = index.resolve(p.hero)
        except CardNotFoundError as exc:
            problems.append(InputProblem(p.line, p.text, exc.reason, tuple(exc.suggestions), exc.kind))
            hero = None
        deck.players.append(Player(p.name, hero, p.line))
    problems.sort(key=lambda p: p.line or 0)
    return deck, problems


def _resolve_line(line: RawLine, index: CardIndex, context: Context,
                  suggest: bool = False) -> tuple[Card, int] | CardNotFoundError:
    """The card and quantity of a line: the first reading whose name is a card; else the error of the
    first reading (an ambiguity or a bad set says more than "unknown card"), with suggestions if asked."""
    if line.kinds is not None:
        context = Context(context.persona, context.edition, line.kinds)
    error: CardNotFoundError | None = None
    for qty, name in line.readings:
        try:
            return index.resolve(name, line.set_code, context, suggest=False), qty
        except CardNotFoundError as exc:
            if error is None or (_is_unknown(error) and not _is_unknown(exc)):
                error = exc
    assert error is not None
    if suggest and _is_unknown(error):
        name = line.readings[0][1]
        error = UnknownCardError(error.text, "unknown card", index.suggest(name, context=context))
    return error


def _is_unknown(error: CardNotFoundError) -> bool:
    """A name that matches no card (not an ambiguity, nor a set or number written wrong)."""
    return isinstance(error, UnknownCardError) and error.reason == "unknown card"


def _message(error: CardNotFoundError, line: RawLine | None = None, raw: RawDeck | None = None) -> str:
    text = error.reason
    if line is not None and raw is not None and line.line == raw.first_card_line and _is_unknown(error) \
            and line.section is None:
        text += " (if this line is the deck's title, start it with # or write it as Name: ...)"
    return text
