"""Formats are data: a name, aliases, the game, parameters, sections and the list of rules."""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Mapping

from .cards import Card
from .errors import UnknownFormatError
from .rules import Params, Rule
from .rules import highlander as hl
from .rules.view import ENDURANCE, PREGAME, HighlanderView
from .text import normalize


@dataclass(frozen=True)
class Format:
    """A format: what decks it checks (game, sections) and how (parameters, rules, the view they read)."""

    name: str
    title: str
    game: str
    rules: tuple[Rule, ...]
    params: Params = field(default_factory=Params)
    aliases: tuple[str, ...] = ()
    sections: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    default_section: Callable[[Card], str] = lambda card: ENDURANCE
    view: Callable[[Any, Any], Any] = HighlanderView
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


def _highlander_section(card: Card) -> str:
    return PREGAME if card.is_pregame else ENDURANCE


_HL_SECTIONS = MappingProxyType({PREGAME: ("pre game", "pregame"), ENDURANCE: ("endurance", "deck", "main")})

TYPE1E = Format(
    name="type1e", title="Highlander 1st edition (Arms and Tactics rules)", game="highlander", rules=hl.TYPE1E,
    aliases=("1e", "first", "1st", "type1", "type-1", "arms-and-tactics", "tcg1e"),
    sections=_HL_SECTIONS, default_section=_highlander_section, params=hl.Type1eParams(),
    source="seeds/highlander-1e-rulebook-arms-and-tactics.txt", no_persona="Generic Immortal",
)

TYPE2 = Format(
    name="type2", title="Highlander 2nd edition, Type 2 (Le Montagnard)", game="highlander", rules=hl.TYPE2,
    aliases=("2e", "second", "2nd", "type-2", "t2"),
    sections=_HL_SECTIONS, default_section=_highlander_section, params=hl.Type2Params(),
    source="seeds/highlander-2e-type2-summary-ja.txt", no_persona="Generic Immortal",
)

_REGISTRY: list[Format] = [TYPE1E, TYPE2]
DEFAULT_FORMAT = "type1e"


def register(fmt: Format) -> Format:
    """Add a format to the registry (replacing one of the same name)."""
    _REGISTRY[:] = [f for f in _REGISTRY if f.name != fmt.name] + [fmt]
    return fmt


def all_formats() -> list[Format]:
    """Every registered format, the other games' included."""
    _load_builtin()
    return list(_REGISTRY)


def get_format(name: str | Format) -> Format:
    """Find a format by name or alias, case-insensitively; raise UnknownFormatError otherwise."""
    if isinstance(name, Format):
        return name
    _load_builtin()
    key = normalize(name).replace(" ", "-")
    for fmt in _REGISTRY:
        if key == fmt.name or key in fmt.aliases or normalize(key) == normalize(fmt.name):
            return fmt
    raise UnknownFormatError(name, [f.name for f in _REGISTRY])


def _load_builtin() -> None:
    """Register the formats of the other games (their modules register themselves on import)."""
    from . import games  # noqa: F401
