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

__version__ = "0.1.0"
__all__ = ["Card", "CardIndex", "Deck", "DeckcheckError", "Entry", "Format", "Issue", "Modifiers", "Report",
           "all_formats", "check_raw", "get_format", "parse_text", "validate"]
