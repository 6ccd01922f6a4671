"""deckcheck: deck-construction validator and collection manager for Highlander: The Card Game.

The library (CONTRACTS §8) in one import:

    import deckcheck
    report = deckcheck.check_text(text, format="type1e")   # a Report; no database, no files
    reports = deckcheck.check_file("decks/connor.xlsx")    # one Report per deck in the file
    cards = deckcheck.read_card_sheet("my-2e-cards.csv")   # list of Card
    found = deckcheck.card_source().search("kurgan")       # what `deckcheck cards search` lists

The core (this package without `cli`, `commands`, `render`, `api`, `library` and `frames`)
imports only the standard library; those modules import storage, files and pandas when called.
"""
from .cards import Card, Modifiers
from .catalog import CardIndex
from .check import check_raw, validate
from .decklist import RawDeck, parse_text
from .decks import Deck, Entry
from .errors import (AmbiguousCardError, CardNotFoundError, CardSheetError, DeckcheckError, DecklistError,
                     UnknownCardError, UnknownFormatError)
from .formats import Format, all_formats, get_format
from .api import CardSource, CollectionApp
from .library import card_source, check_file, check_text, read_card_sheet
from .report import InputProblem, Issue, Report
from .rules import Params, Rule
from .stats import DeckStats
from .statsapi import deck_diff, deck_stats
from .tournament import Tournament

__version__ = "0.1.0"
__all__ = ["AmbiguousCardError", "Card", "CardIndex", "CardNotFoundError", "CardSheetError", "CardSource",
           "CollectionApp", "Deck", "DeckStats", "DeckcheckError", "DecklistError", "Entry", "Format", "InputProblem",
           "Issue", "Modifiers", "Params", "RawDeck", "Report", "Rule", "Tournament", "UnknownCardError",
           "UnknownFormatError", "all_formats", "card_source", "check_file", "check_raw", "check_text", "deck_diff",
           "deck_stats", "get_format", "parse_text", "read_card_sheet", "validate"]
