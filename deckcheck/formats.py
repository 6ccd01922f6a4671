"""Formats are data: a name, aliases, the game, parameters, sections and the list of rules."""
from __future__ import annotations

import re
from types import MappingProxyType
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Generic, Iterable, Mapping, Protocol, Sequence, TypeVar

from .cards import Card, declare_fields
from .errors import DeckcheckError, UnknownFormatError
from .fields import EXTRA, Counted, Field, number_field
from .fields import parse_whole as parse_whole, whole_number as whole_number  # their old home
from .report import DATA_UNKNOWN_SUFFIX, Coverage
from .rules import Params, Rule
from .text import normalize

if TYPE_CHECKING:
    from .decks import Deck
    from .report import Issue, Report
    from .stats import DeckStats


class DeckView(Protocol):
    """What the engine reads of a game's view of a deck (its rules read the rest): the counts a report shows
    (None: the cards of each of the format's sections), the name a report gives the deck's Persona (None: the
    game has none), and what the terminal and pages draw besides the issues."""

    def counts(self) -> dict[str, int] | None: ...

    def persona_name(self) -> str | None: ...

    def coverage(self) -> Coverage | None: ...


ParamsT = TypeVar("ParamsT", bound=Params)
ViewT = TypeVar("ViewT", bound=DeckView)


class View(Generic[ParamsT]):
    """A base for a game's view (deckcheck.formats.DeckView): the deck and its format's parameters; the counts
    of the format's sections, no Persona, nothing more to draw. A game's view adds what its rules read."""

    def __init__(self, deck: Deck, params: ParamsT):
        self.deck = deck
        self.params = params

    def counts(self) -> dict[str, int] | None:
        return None

    def persona_name(self) -> str | None:
        return None

    def coverage(self) -> Coverage | None:
        return None


@dataclass(frozen=True)
class Format(Generic[ParamsT, ViewT]):
    """A format: what decks it checks (game, sections) and how (parameters, rules, the view they read)."""

    name: str
    title: str
    game: str
    rules: tuple[Rule[ViewT], ...]
    view: Callable[[Deck, ParamsT], ViewT]  # what the rules read: the game's view of a deck (HighlanderView, ...)
    default_section: Callable[[Card], str]  # where a line under no heading goes, by the card's type
    # A format without numbers. mypy cannot type the default of a field whose type is a type variable
    # (python/mypy#3737): Params is the bound of ParamsT, and a format with a default has no other parameters.
    params: ParamsT = field(default_factory=Params)  # type: ignore[assignment]
    aliases: tuple[str, ...] = ()
    sections: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    builtin_cards: Callable[[], list[Card]] | None = None
    source: str = ""
    no_persona: str = ""  # how a report names a deck without a Persona ("Generic Immortal")
    # the card list its decks are written from ("2nd-edition"; default: the game's name) and which cards are of it
    # (default: every card of its game that is not built in), and how many of them the bundle holds: with no more
    # known than those, a deck's unknown cards come with the notice, once, to bring a card sheet
    card_list: str = ""
    own_card: Callable[[Card], bool] | None = None
    bundled_own: int = 0
    # the other ways its players write one of its built-in cards, as that card's name (Taktik: 'QH', 'K♠', 'Pik Ass'
    # -> 'Queen of Hearts', 'King of Spades', 'Ace of Spades'); None for a text that is no such form
    spelling: Callable[[str], str | None] | None = None
    # what a list holds in a section it writes no line under, by section: the names of its cards, one copy each
    # (Taktik: a table that lists no Deck plays the standard 52-card deck)
    implied: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # the sections whose lines may write several cards, comma- or semicolon-separated, each read as its own line
    # (Taktik's Deck: `K♠, 2♥`, as a deal writes a hand); every other section reads one card a line
    several_a_line: frozenset[str] = frozenset()
    # in those sections, the cards a text writes with spaces between them, each as written (Taktik: `QH AS` ->
    # ('QH', 'AS')), a run of words naming no card one piece; None for a text that is not several cards
    cards_in_words: Callable[[str], tuple[str, ...] | None] | None = None
    # the names of the built-in cards a text misspells in the words of their names (Taktik: `Herz Damme` ->
    # ('Queen of Hearts',)), suggested before the closest names of the index, which knows no other spelling
    misspelled: Callable[[str], tuple[str, ...]] | None = None

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

    def rule(self, rule_id: str) -> Rule[ViewT]:
        """The format's rule with this id; KeyError if it has none."""
        for r in self.rules:
            if r.id == rule_id:
                return r
        raise KeyError(rule_id)


AnyFormat = Format[Any, Any]  # a format of any game: its parameters and view are its own


# A card-sheet column a game adds: a field of the game (deckcheck.fields), its value kept in Card.extra.
Column = Field


def number_column(name: str, **words: Any) -> Field:
    """A column holding a whole number of zero or more, blank or 'unknown' when unknown."""
    return number_field(name, **words)


def one_of(name: str, values: tuple[str, ...], aliases: Mapping[str, str], fold: Callable[[str], str],
           sep: str = " ") -> Callable[[str], str]:
    """A reader of a cell holding one of `values` (after `fold`, or by one of the `aliases`)."""
    def read(text: str) -> str:
        value = fold(text)
        value = value if value in values else aliases.get(value, value)
        if value not in values:
            raise DeckcheckError(f"{name} is one of {sep.join(values)}")
        return value
    return read


@dataclass(frozen=True)
class Heading:
    """A heading a game's decklists use for a kind of card (`Attacks:`, `Persona: Duncan MacLeod`): the section
    its cards go to, the card types it names (None: any card of the section), and whether a heading line may
    carry its one card after the colon (`inline`: a label line, the lines after it keep their section)."""

    section: str
    kinds: frozenset[str] | None = None
    inline: bool = False


class StatsHook(Protocol):
    """A game's deck statistics (Game.stats): of a deck in a format, with the opening hand and Exertion drawn
    (None: the format's own sizes)."""

    def __call__(self, deck: Deck, format_name: str, hand: int | None = None,
                 exertion: int | None = None) -> DeckStats: ...


@dataclass(frozen=True)
class Game:
    """A game deckcheck checks decks of, declared in one module of deckcheck.games.

    Its card types (a card sheet's `type` is matched to them case-insensitively), the card-sheet
    columns only it reads (`columns`: their names; `extra_columns`: those stored in `Card.extra`,
    with how a cell is read and written), and its formats (each with its sections, parameters, rules and
    built-in cards). The columns a rule needs when it reports unknown data and its words for a player are on
    its `@rule(columns=..., words=...)`; `rule_columns` and `rule_words` (by function) are read too, for the
    plugins that declare them here. What its decklists and reports say is its own too:

    - `headings`: the kinds of card its decklists may head a list with (folded, singular: the plural is
      read as well; `plurals` for the irregular ones), `heading_help` the headings an unknown
      heading's message lists (default: its formats' sections, then these kinds in the plural),
      `heading_words` the headings its players write in their languages (`Angriffe`, `攻撃`), each as the
      English heading word or section it means (`attack`, `endurance`, `sideboard`),
      `pair_sections` the sections whose lines are `Name: value` pairs rather than cards (a Taktik table's
      `Players:`), each with what a line that is not one is told;
    - `data_unknown`: the id of its warning that card data kept a rule from deciding (ending in -DATA-UNKNOWN,
      which is how a report tells such warnings of any game);
    - `summary`: the columns of a tournament summary that tell its decks apart (`summary_of` fills
      them from a report; default: the counts of its sections; `summary_labels`: their short names in
      the terminal's table);
    - `stats`: its deck statistics (deckcheck.stats for Highlander), or None when it has none: the
      report's details, `deckcheck stats`, the web's statistics panel and the desk's comparisons use it;
    - `field_stats`: whether `cards stats` and `cards lint` count its rules data: `counted`, the rows `cards stats`
      counts of its own fields (deckcheck.fields.Counted), `card_problems` what `cards lint` says of a card's data;
    - `settle`: what a player reads off a card to settle one of its columns ("the Restriction number printed on
      the card"; default: "the card's COLUMN");
    - `limit_words`: its formats' numbers as a player says them on the web's formats page, by parameter name
      (`{n}` the number, `[s]` what a number other than 1 adds: "At most {n} Weapon[s] of Choice"); a parameter
      named here is shown whatever its name, others when they end in `_min`, `_max`, `_factor` or `_extra`;
    - `fields`: its card fields (deckcheck.fields.Field): their columns, how a cell is read and written, their
      words; `columns` (the core columns it claims, then their names), `extra_columns` (default: those kept in
      Card.extra) and `settle` (over each field's `settle`) are derived from them;
    - `persona`: what it calls the card that leads a deck (Highlander: "Persona"), the column the tournament
      desk shows it in; empty when its decks have none (the desk then has no such column).

    Adding a game is its module, and one line in deckcheck/games/__init__.py (or, as a plugin, a module of
    the namespace package `deckcheck_games` defining GAME).
    """

    name: str
    formats: tuple[AnyFormat, ...]
    card_types: frozenset[str] = frozenset()
    title: str = ""  # how messages name the game ("Highlander"); default: its name
    full_title: str = ""  # its whole name, on a card's page ("Highlander: The Card Game"); default: the title
    columns: tuple[str, ...] = ()
    extra_columns: tuple[Field, ...] = ()
    # rule function -> the columns it needs when it reports unknown data
    rule_columns: Mapping[Callable[..., Iterable[Issue]], tuple[str, ...]] = field(default_factory=dict)
    headings: Mapping[str, Heading] = field(default_factory=dict)
    plurals: Mapping[str, str] = field(default_factory=dict)
    heading_help: str = ""
    heading_words: Mapping[str, str] = field(default_factory=dict)  # another language's heading -> its English word
    pair_sections: Mapping[str, str] = field(default_factory=dict)  # section -> the message for a line not a pair
    data_unknown: str = ""
    summary: tuple[str, ...] = ()
    summary_of: Callable[[Report], Mapping[str, object]] | None = None
    summary_labels: Mapping[str, str] = field(default_factory=dict)  # the terminal table's short headings
    stats: StatsHook | None = None
    field_stats: bool = False
    counted: tuple[Counted, ...] = ()
    card_problems: Callable[[Card], Iterable[str]] | None = None
    rule_words: Mapping[Callable[..., Iterable[Issue]], str] = field(default_factory=dict)
    settle: Mapping[str, str] = field(default_factory=dict)  # column -> what a player reads off the card to settle it
    limit_words: Mapping[str, str] = field(default_factory=dict)  # parameter -> "At most {n} Persona[s]"
    persona: str = ""  # what the card leading a deck is called ("Persona"); "": its decks have none
    fields: tuple[Field, ...] = ()
    # how a card's drawn face shows one of its cards that is a card of a standard deck: its corner (rank and suit
    # symbol, `Q♥`) and its ink ("red" or "black"); None for a card that is none (Taktik's 52 built-in cards)
    pips: Callable[[Card], tuple[str, str] | None] | None = None

    def __post_init__(self) -> None:
        if not self.fields:  # a game of before the field table: its extra columns are its fields
            object.__setattr__(self, "fields", self.extra_columns)
        elif not self.extra_columns:
            object.__setattr__(self, "extra_columns", tuple(f for f in self.fields if f.kept == EXTRA))
        object.__setattr__(self, "columns", tuple(dict.fromkeys(self.columns + tuple(f.name for f in self.fields))))
        declare_fields(self.fields)  # its cards' keys hold its fields as their flags say (Field.rules, Field.fact)
        words = {f.name: f.settle for f in self.fields if f.settle}
        if words:
            object.__setattr__(self, "settle", MappingProxyType({**words, **self.settle}))
        if not self.title:
            object.__setattr__(self, "title", self.name)
        if not self.full_title:
            object.__setattr__(self, "full_title", self.title)
        if not self.data_unknown:
            object.__setattr__(self, "data_unknown", f"{self.name.upper()}-DATA-UNKNOWN")
        if not self.heading_help:  # its sections, then its kinds of card as a heading writes them ("Stones")
            sections = [s for fmt in self.formats for s in fmt.sections]
            kinds = [self.plurals.get(word, word + "s").title() for word in self.headings]
            object.__setattr__(self, "heading_help", f"{', '.join(dict.fromkeys(sections + kinds))}, Sideboard, "
                                                     "Maybeboard, Considering; metadata: Format, Name, Player, Author")
        if not self.summary:
            sections = [s for fmt in self.formats for s in fmt.sections if s not in self.pair_sections]
            object.__setattr__(self, "summary", tuple(dict.fromkeys(_column_name(s) for s in sections)))
        if not self.data_unknown.endswith(DATA_UNKNOWN_SUFFIX):  # how a report tells these warnings (report.py)
            raise ValueError(f"the game {self.name}'s data_unknown id {self.data_unknown!r} must end in "
                             f"{DATA_UNKNOWN_SUFFIX}")

    def summary_row(self, report: Report) -> dict[str, object]:
        """The game's summary columns of one deck's report."""
        if self.summary_of is not None:
            return dict(self.summary_of(report))
        return {_column_name(section): count for section, count in report.counts.items()}


def _column_name(section: str) -> str:
    """A section as a column name: `Pre-Game` -> `pre_game`."""
    return re.sub(r"[^0-9a-z]+", "_", section.lower()).strip("_")


DEFAULT_FORMAT = "type1e"


def find_format(name: str | AnyFormat, formats: Sequence[AnyFormat]) -> AnyFormat:
    """The format of this name or alias among these, case-insensitively; raise UnknownFormatError otherwise."""
    if isinstance(name, Format):
        return name
    key = normalize(name).replace(" ", "-")
    for fmt in formats:
        if key == fmt.name or key in fmt.aliases or normalize(key) == normalize(fmt.name):
            return fmt
    raise UnknownFormatError(name, [f.name for f in formats])
