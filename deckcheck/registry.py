"""The games deckcheck checks, built once into one value: their formats, card-sheet columns, decklist grammar and
the ids of their data-unknown warnings.

Generic: a Registry is made from Game values and knows no game itself. deckcheck.games builds the default one
(its own games, then the plugins found when it is built) and passes it where it is needed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from .cards import CORE_FIELDS
from .decklist import Grammar
from .fields import Field
from .formats import DEFAULT_FORMAT, AnyFormat, Column, Game, find_format
from .rules import declared
from .text import normalize


@dataclass(frozen=True)
class Registry:
    """The games, in order; what is derived from them is computed once, here."""

    games: tuple[Game, ...]
    default_format: str = DEFAULT_FORMAT
    formats: tuple[AnyFormat, ...] = field(init=False, repr=False)
    extra_columns: tuple[Column, ...] = field(init=False, repr=False)
    """The card-sheet columns the games add, stored in Card.extra (in card-sheet order)."""
    fields: tuple[Field, ...] = field(init=False, repr=False)
    """Every card field: the core's and the games' (the first game's of a name), in card-sheet order (Field.place)."""
    grammar: Grammar = field(init=False, repr=False)
    rule_columns: dict[str, tuple[str, ...]] = field(init=False, repr=False)
    """The card-sheet columns each rule (by id) reads when it reports that data is missing (Game.rule_columns)."""
    rule_words: dict[str, str] = field(init=False, repr=False)
    """Each rule's words for a player, by rule id (Game.rule_words)."""
    _by_name: dict[str, Game] = field(init=False, repr=False)
    _data_unknown: dict[str, str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        setter = object.__setattr__
        setter(self, "formats", tuple(fmt for game in self.games for fmt in game.formats))
        setter(self, "extra_columns", tuple(column for game in self.games for column in game.extra_columns))
        named: dict[str, Field] = {}
        for f in CORE_FIELDS + tuple(f for game in self.games for f in game.fields):
            named.setdefault(f.name, f)
        setter(self, "fields", tuple(sorted(named.values(), key=lambda f: f.place)))
        setter(self, "grammar", grammar_of(self.games, self.default_format))
        setter(self, "_by_name", {game.name: game for game in self.games})
        rules = [r for fmt in self.formats for r in fmt.rules]
        setter(self, "rule_columns", {r.id: r.columns for r in rules if r.columns}  # @rule(columns=...)
               | {declared(check).id: columns for game in self.games for check, columns in game.rule_columns.items()})
        setter(self, "rule_words", {r.id: r.words for r in rules if r.words}
               | {declared(check).id: text for game in self.games for check, text in game.rule_words.items()})
        first: dict[str, str] = {}  # a rule two games play (a plugin's house rules) is the first game's
        for game in self.games:
            for fmt in game.formats:
                for r in fmt.rules:
                    first.setdefault(r.id, game.data_unknown)
        setter(self, "_data_unknown", first)

    def game_named(self, name: str) -> Game:
        """The game of this name (a format's `game`); KeyError when no game has it."""
        return self._by_name[name]

    def fields_of(self, game: str) -> tuple[Field, ...]:
        """The fields a card of this game has, in card-sheet order: the core's that no game claims, then (in their
        places) the game's own and the core's it claims (Game.columns); of a game not known, the core's alone."""
        claimed = {name for known in self.games for name in known.columns}
        own = set(self._by_name[game].columns) if game in self._by_name else set()
        return tuple(f for f in self.fields if f.name not in claimed or f.name in own)

    def get_format(self, name: str | AnyFormat) -> AnyFormat:
        """Find a format by name or alias, case-insensitively; raise UnknownFormatError otherwise."""
        return find_format(name, self.formats)

    def game_of(self, fmt: AnyFormat | str) -> Game:
        """The game a format (or a format's name) belongs to."""
        return self._by_name[self.get_format(fmt).game]

    def data_unknown_ids(self, games: Iterable[Game] | None = None) -> list[str]:
        """The ids these games (default: all) report when card data kept a rule from deciding, each once, in
        order."""
        return list(dict.fromkeys(game.data_unknown for game in (self.games if games is None else games)))

    def data_unknown_of(self, rule_id: str) -> str | None:
        """The data-unknown id of the first game whose formats play this rule (None: no game plays it)."""
        return self._data_unknown.get(rule_id)


# -- the decklist grammar of the registered games -------------------------------------------------
def grammar_of(games: Iterable[Game], default: str) -> Grammar:
    """The grammar of these games' decklists (`default`: the default format's name)."""
    games = tuple(games)
    formats = [fmt for game in games for fmt in game.formats]
    table: dict[str, tuple[str, frozenset[str] | None]] = {}
    for game in games:
        for word, heading in game.headings.items():
            table[word] = table[game.plurals.get(word, word + "s")] = (heading.section.lower(), heading.kinds)
        for word, english in game.heading_words.items():  # French, German, Japanese ... (CONTRACTS §2 rev. 4)
            table.setdefault(normalize(word), table.get(english, (english, None)))
    help_of: dict[str, tuple[str, str]] = {}
    for game in games:
        text = (game.heading_help, _sections_help(game))
        for fmt in game.formats:
            for key in (fmt.name, *fmt.aliases, normalize(fmt.name)):
                help_of.setdefault(key, text)
    return Grammar(
        headings=table,
        singular=frozenset(word for game in games for word in game.headings),
        inline=frozenset(w for game in games for word, heading in game.headings.items() if heading.inline
                         for w in (word, game.plurals.get(word, word + "s"), *(
                             normalize(other) for other, english in game.heading_words.items()
                             if english == word))),
        pairs={section.lower(): form for game in games for section, form in game.pair_sections.items()},
        sections=frozenset(normalize(w) for fmt in formats for section, words in fmt.sections.items()
                           for w in (section, *words)),
        compact={normalize(s).replace(" ", ""): s.lower() for fmt in formats for s in fmt.sections},
        titles={s.lower(): s for fmt in formats for s in fmt.sections},
        help=help_of, default=default)


def _sections_help(game: Game) -> str:
    """A game's sections with their other names (`Pre-Game, Endurance (Deck, Main)`)."""
    out: dict[str, None] = {}
    for other in game.formats:
        for section, words in other.sections.items():
            own = {normalize(section), normalize(section).replace(" ", "")}
            aliases = [w.title() for w in words if normalize(w) not in own]
            out[f"{section} ({', '.join(aliases)})" if aliases else section] = None
    return ", ".join(out)
