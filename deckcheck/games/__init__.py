"""Every game deckcheck knows: one module each (its card types, formats, sections, rules), one line here."""
from __future__ import annotations

from ..formats import Format, Game
from . import highlander, raven, taktik

GAMES: tuple[Game, ...] = (
    highlander.GAME,
    raven.GAME,
    taktik.GAME,
)
FORMATS: tuple[Format, ...] = tuple(fmt for game in GAMES for fmt in game.formats)
