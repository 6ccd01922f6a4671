"""deckcheck: deck-construction validator and collection manager for Highlander: The Card Game.

The library (CONTRACTS §8) in one import:

    import deckcheck
    report = deckcheck.check_text(text, format="type1e")   # a Report; no database, no files
    reports = deckcheck.check_file("decks/connor.xlsx")    # one Report per deck in the file
    cards = deckcheck.read_card_sheet("my-2e-cards.csv")   # list of Card
    found = deckcheck.card_source().search("kurgan")       # what `deckcheck cards search` lists

The layers, from the inside out (tests/test_layers.py keeps them apart):
- the pure core: the modules of this folder, `rules/` and `games/` — standard library only;
- `library/`: the library calls (`check_text`, `CardSource`, `CollectionApp`, `deck_stats`, ...), which bring
  in storage (`deckcheck.db`), files (`deckcheck.importers`) and pandas inside the calls that need them;
- the skins over the library: `cli/` (the `deckcheck` command: typer, rich) and `deckcheck.web`.

`import deckcheck` itself imports nothing else: each name below is imported from its module on first
use (PEP 562), so `deckcheck check` loads what checking needs and no more.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .version import __version__ as __version__

# name -> the module that defines it (relative to this package)
_EXPORTS = {
    "Card": ".cards", "Modifiers": ".cards",
    "CardIndex": ".catalog",
    "check_raw": ".check", "validate": ".check",
    "RawDeck": ".decklist", "parse_text": ".games",
    "Deck": ".decks", "Entry": ".decks",
    "AmbiguousCardError": ".errors", "CardNotFoundError": ".errors", "CardSheetError": ".errors",
    "DeckcheckError": ".errors", "DecklistError": ".errors", "UnknownCardError": ".errors",
    "UnknownFormatError": ".errors",
    "Format": ".formats", "all_formats": ".games", "get_format": ".games",
    "CardSource": ".library.api", "CollectionApp": ".library.api",
    "card_source": ".library", "check_file": ".library", "check_text": ".library", "read_card_sheet": ".library",
    "InputProblem": ".report", "Issue": ".report", "Report": ".report",
    "Params": ".rules", "Rule": ".rules",
    "DeckStats": ".stats",
    "deck_diff": ".library.statsapi", "deck_stats": ".library.statsapi",
    "Tournament": ".tournament",
}
__all__ = ["AmbiguousCardError", "Card", "CardIndex", "CardNotFoundError", "CardSheetError", "CardSource",
           "CollectionApp", "Deck", "DeckStats", "DeckcheckError", "DecklistError", "Entry", "Format", "InputProblem",
           "Issue", "Modifiers", "Params", "RawDeck", "Report", "Rule", "Tournament", "UnknownCardError",
           "UnknownFormatError", "all_formats", "card_source", "check_file", "check_raw", "check_text", "deck_diff",
           "deck_stats", "get_format", "parse_text", "read_card_sheet", "validate"]  # = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    """A public name, imported from its module the first time it is asked for."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'deckcheck' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    """The public names and the module's own attributes (not `Any`, `importlib` and the other helpers of this file)."""
    return sorted(set(_EXPORTS) | {"__version__"} | {n for n in globals() if n.startswith("__") and n.endswith("__")})


if TYPE_CHECKING:  # what type checkers and editors see: the same names, imported eagerly
    from .library.api import CardSource, CollectionApp
    from .cards import Card, Modifiers
    from .catalog import CardIndex
    from .check import check_raw, validate
    from .decklist import RawDeck
    from .decks import Deck, Entry
    from .errors import (AmbiguousCardError, CardNotFoundError, CardSheetError, DeckcheckError, DecklistError,
                         UnknownCardError, UnknownFormatError)
    from .formats import Format
    from .games import all_formats, get_format, parse_text
    from .library import card_source, check_file, check_text, read_card_sheet
    from .report import InputProblem, Issue, Report
    from .rules import Params, Rule
    from .stats import DeckStats
    from .library.statsapi import deck_diff, deck_stats
    from .tournament import Tournament
