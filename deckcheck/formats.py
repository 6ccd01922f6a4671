"""Formats are data: a name, aliases, the game, parameters, sections and the list of rules."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from .cards import Card
from .errors import UnknownFormatError
from .rules import Params, Rule
from .text import normalize


@dataclass(frozen=True)
class Format:
    """A format: what decks it checks (game, sections) and how (parameters, rules, the view they read)."""

    name: str
    title: str
    game: str
    rules: tuple[Rule, ...]
    view: Callable[[Any, Any], Any]  # what the rules read: the game's view of a deck (HighlanderView, ...)
    default_section: Callable[[Card], str]  # where a line under no heading goes, by the card's type
    params: Params = field(default_factory=Params)
    aliases: tuple[str, ...] = ()
    sections: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    builtin_cards: Callable[[], list[Card]] | None = None
    source: str = ""
    no_persona: str = ""  # how a report names a deck without a Persona ("Generic Immortal")

    def section_of(self, written: str | None, card: Card) -> str | None:
        """The section a decklist line belongs to: the header as written, else where the card's type goes."""
        if written is None:
            return self.default_section(card)
        word = normalize(written)
        for section, words in self.sections.items():
            if word == normalize(section) or word in words:
                return section
        return None

    def rule_table(self) -> list[dict[str, str]]:
        """Each rule's id, severity and summary with this format's numbers (the `formats` command, the web API)."""
        return [{"id": r.id, "severity": r.severity, "text": r.text(self.params)} for r in self.rules]

    def rule(self, rule_id: str) -> Rule:
        """The format's rule with this id; KeyError if it has none."""
        for r in self.rules:
            if r.id == rule_id:
                return r
        raise KeyError(rule_id)


@dataclass(frozen=True)
class Game:
    """A game deckcheck checks decks of, declared in one module of deckcheck.games.

    Its card types (a card sheet's `type` is matched to them case-insensitively), the card-sheet
    columns only it reads, and its formats (each with its sections, parameters, rules and
    built-in cards). Adding a game is its module and one line in deckcheck/games/__init__.py.
    """

    name: str
    formats: tuple[Format, ...]
    card_types: frozenset[str] = frozenset()
    columns: tuple[str, ...] = ()


DEFAULT_FORMAT = "type1e"


def all_formats() -> list[Format]:
    """Every format of every game (deckcheck.games lists them)."""
    from .games import FORMATS
    return list(FORMATS)


def get_format(name: str | Format) -> Format:
    """Find a format by name or alias, case-insensitively; raise UnknownFormatError otherwise."""
    if isinstance(name, Format):
        return name
    formats = all_formats()
    key = normalize(name).replace(" ", "-")
    for fmt in formats:
        if key == fmt.name or key in fmt.aliases or normalize(key) == normalize(fmt.name):
            return fmt
    raise UnknownFormatError(name, [f.name for f in formats])
