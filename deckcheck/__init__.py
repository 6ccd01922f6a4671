"""deckcheck: deck-construction validator and collection manager for Highlander: The Card Game.

The core (this package without `cli`) imports only the standard library.
"""
from .cards import Card, Modifiers
from .catalog import CardIndex
from .check import check_raw, validate
from .decklist import parse_text
from .decks import Deck, Entry
from .errors import DeckcheckError
from .formats import Format, all_formats, get_format
from .report import Issue, Report
from .stats import DeckStats
from .statsapi import deck_diff, deck_stats

__version__ = "0.1.0"
__all__ = ["Card", "CardIndex", "Deck", "DeckStats", "DeckcheckError", "Entry", "Format", "Issue", "Modifiers",
           "Report", "all_formats", "check_raw", "deck_diff", "deck_stats", "get_format", "parse_text", "validate"]
