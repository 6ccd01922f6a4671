"""Library calls for deck statistics and deck comparisons (CONTRACTS.md §7, §8): from text, files or saved decks.

An adapter around the pure core (deckcheck.stats, deckcheck.deckdiff). From decklist text without `db`
it reads no database and writes nothing: the bundled cards plus the cards given. Files are read with
deckcheck.importers and saved decks come from the database, each imported only when asked for.
"""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence, TypeVar

from ..cards import Card
from ..catalog import CardIndex
from ..check import choose_format
from ..deckdiff import DeckDiff, diff_decks
from ..decklist import RawDeck
from ..decks import Deck, build_deck
from ..errors import DeckcheckError
from ..formats import AnyFormat
from ..games import get_format
from ..report import InputProblem
from ..stats import EXERTION, HAND, DeckStats, check_draw
from ..textlimits import parse_checked

if TYPE_CHECKING:
    from .api import Catalog
    from ..db.collections import Collections

FormatT = TypeVar("FormatT", bound=AnyFormat)


class UnreadableDeckError(DeckcheckError):
    """A deck with lines that did not resolve: statistics need every card. Lists every such line."""

    def __init__(self, source: str, problems: Sequence[InputProblem]):
        self.source = source
        self.problems = list(problems)
        shown = "; ".join(f"line {p.line}: {p.text!r}: {p.message}" if p.line is not None else
                          f"{p.text!r}: {p.message}" for p in self.problems[:10])
        more = f"; and {len(self.problems) - 10} more" if len(self.problems) > 10 else ""
        super().__init__(f"{source}: {len(self.problems)} input error(s): {shown}{more}")


def require_stats(fmt: FormatT) -> FormatT:
    """The format, when its game has deck statistics (Game.stats); DeckcheckError otherwise."""
    from ..games import GAMES, game_named
    game = game_named(fmt.game)
    if game.stats is None:
        having = [g.title for g in GAMES if g.stats is not None]
        raise DeckcheckError(f"statistics are for {', '.join(having) or 'no'} decks; format {fmt.name!r} is a "
                             f"{game.title} format")
    return fmt


def text_index(cards: Sequence[Card] = (), db: str | None = None, fmt: AnyFormat | None = None) -> CardIndex:
    """The cards a text of the format `fmt` (default type1e) is resolved against, those of its game: bundled (or
    stored in `db`), with `cards` replacing same-id cards or adding to them; the same reading path as
    `deckcheck.check_text`."""
    from ..formats import DEFAULT_FORMAT
    from ..library import card_source
    return card_source(cards, db).index(fmt or get_format(DEFAULT_FORMAT))


def resolve(raw: RawDeck, index: CardIndex, format: str | None = None, stats: bool = True) -> tuple[Deck, AnyFormat]:
    """(deck, format) of a raw decklist (with `stats`, of a game with statistics); UnreadableDeckError naming every
    line that did not resolve."""
    fmt = choose_format(raw, format)
    fmt = require_stats(fmt) if stats else fmt
    deck, problems = build_deck(raw, index, fmt)
    if problems:
        raise UnreadableDeckError(raw.source, problems)
    return deck, fmt


def resolve_text(text: str, source: str, cards: Sequence[Card], db: str | None,
                 format: str | None, stats: bool = True) -> tuple[Deck, AnyFormat]:
    """(deck, format) of decklist text, resolved among the cards of its format's game (with `stats`, one that has
    statistics)."""
    raw = parse_checked(text, source)
    fmt = choose_format(raw, format)
    return resolve(raw, text_index(cards, db, require_stats(fmt) if stats else fmt), format, stats)


def stats_in(deck: Deck, fmt: AnyFormat, hand: int, exertion: int) -> DeckStats:
    """A deck's statistics by its game's own hook (Game.stats; the format was checked to have one)."""
    from ..games import game_named
    stats = game_named(require_stats(fmt).game).stats
    assert stats is not None  # require_stats
    return stats(deck, fmt.name, hand, exertion)


def deck_stats(text: str, format: str | None = None, cards: Sequence[Card] = (), hand: int = HAND,
               exertion: int = EXERTION, db: str | None = None, source: str = "-") -> DeckStats:
    """The §7 statistics of a decklist given as text (any §2 text form); `as_dict()` is the JSON object.

    `format` overrides the deck's `Format:` line (default type1e); `cards` adds or replaces cards for this
    call; `hand` and `exertion` are the draw sizes (0 to 1000). Raises UnreadableDeckError when a line
    does not resolve, DecklistError past the limits of text decklists (deckcheck.textlimits),
    DeckcheckError for a bad format or draw size.
    """
    check_draw("hand", hand)
    check_draw("exertion", exertion)
    deck, fmt = resolve_text(text, source, cards, db, format)
    return stats_in(deck, fmt, hand, exertion)


def deck_diff(before: str, after: str, format: str | None = None, cards: Sequence[Card] = (), hand: int = HAND,
              exertion: int = EXERTION, db: str | None = None, sources: tuple[str, str] = ("A", "B")) -> DeckDiff:
    """Compare two decklists given as text: cards added and removed, verdicts and odds before and after."""
    check_draw("hand", hand)
    check_draw("exertion", exertion)
    deck_a, fmt_a = resolve_text(before, sources[0], cards, db, format, stats=False)
    deck_b, fmt_b = resolve_text(after, sources[1], cards, db, format, stats=False)
    return diff_decks(deck_a, fmt_a, deck_b, fmt_b, hand, exertion)


# -- files and saved decks (the CLI) -----------------------------------------------------------------
class NoSavedDeckError(DeckcheckError):
    """A name that no saved deck has."""

    def __init__(self, name: str, message: str):
        self.name = name
        super().__init__(message)


def saved_deck(name: str, collections: "Collections", format: str | None = None,
               stats: bool = True) -> tuple[Deck, AnyFormat]:
    """A deck saved in the database, as saved (its cards, its format unless `format` is given; with `stats`, one
    whose game has statistics).

    NoSavedDeckError when no deck has that name.
    """
    try:
        saved_format, text, entries = collections.deck(name)
    except DeckcheckError as exc:  # Collections.deck raises it for a missing name only
        raise NoSavedDeckError(name, str(exc)) from exc
    fmt = get_format(format or saved_format)
    deck = Deck.from_entries(entries, name, saved_format)
    if fmt.builtin_cards:  # no card table holds a format's built-in cards (Taktik's 52): the saved text keeps them
        cards = fmt.builtin_cards() + [c for c in collections.cards.values() if c.game == fmt.game]
        deck = build_deck(parse_checked(text, name), CardIndex(cards), fmt)[0]
        deck.source = name
    return deck, require_stats(fmt) if stats else fmt


SavedDeck = Callable[[str], tuple[Deck, AnyFormat]]
"""How a command reads a saved deck by the name it was given, as someone: (its cards, its format as saved);
NoSavedDeckError when that person has no deck so named (deckcheck.library.decks.DeckBook.named and deck_at)."""


def load_decks(name: str, catalog: "Catalog", format: str | None = None,
               one: bool = False, stats: bool = True, saved: SavedDeck | None = None) -> list[tuple[Deck, AnyFormat]]:
    """Every deck a decklist file holds (`-` is standard input), or the saved deck of that name: the keeper's (any
    saved deck), or as `saved` reads it (`--as ACCOUNT`: that account's own, or a deck others may see by its id).

    With `one`, a file that holds several decks (a registration workbook) is refused before any is resolved.
    """
    if name != "-" and not Path(name).exists():
        if saved is not None:
            deck, fmt = saved(name)
            deck.source = name
            fmt = get_format(format) if format else fmt
            return [(deck, require_stats(fmt) if stats else fmt)]
        from ..db.collections import Collections
        return [saved_deck(name, Collections(catalog.store), format, stats)]
    from ..importers.decklists import read_decklists
    if format and stats:
        require_stats(get_format(format))
    raws = read_decklists(name)
    if one and len(raws) != 1:
        raise DeckcheckError(f"{name!r} holds {len(raws)} decks; name a file with one deck")
    return [resolve(raw, catalog.index(choose_format(raw, format)), format, stats) for raw in raws]


def stats_named(name: str, catalog: "Catalog", format: str | None = None, hand: int = HAND,
                exertion: int = EXERTION, saved: SavedDeck | None = None) -> list[DeckStats]:
    """The statistics of every deck a file holds, or of a saved deck (what `deckcheck stats` prints; `saved` as
    in load_decks)."""
    check_draw("hand", hand)
    check_draw("exertion", exertion)
    return [stats_in(deck, fmt, hand, exertion) for deck, fmt in load_decks(name, catalog, format, saved=saved)]


def diff_named(before: str, after: str, catalog: "Catalog", format: str | None = None, hand: int = HAND,
               exertion: int = EXERTION, saved: SavedDeck | None = None) -> DeckDiff:
    """Compare two decks, each a one-deck file or a saved deck (what `deckcheck diff` prints; `saved` as in
    load_decks)."""
    check_draw("hand", hand)
    check_draw("exertion", exertion)
    [(deck_a, fmt_a)] = load_decks(before, catalog, format, one=True, stats=False, saved=saved)
    [(deck_b, fmt_b)] = load_decks(after, catalog, format, one=True, stats=False, saved=saved)
    return diff_decks(deck_a, fmt_a, deck_b, fmt_b, hand, exertion)
