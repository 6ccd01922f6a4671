"""Every game deckcheck knows: one module each (its card types, formats, sections, rules), one line here."""
from __future__ import annotations

from ..formats import Column, Format, Game
from . import highlander, raven, taktik

GAMES: tuple[Game, ...] = (
    highlander.GAME,
    raven.GAME,
    taktik.GAME,
)
FORMATS: tuple[Format, ...] = tuple(fmt for game in GAMES for fmt in game.formats)
EXTRA_COLUMNS: tuple[Column, ...] = tuple(column for game in GAMES for column in game.extra_columns)
"""The card-sheet columns the games add, stored in Card.extra (in card-sheet order)."""
