"""Every game deckcheck knows: one module each (its card types, formats, sections, rules), one line here.

A game from elsewhere is a plugin: a module of the namespace package `deckcheck_games` (any folder on the
Python path holding `deckcheck_games/NAME.py`, e.g. installed by its own distribution) that defines GAME,
a deckcheck.formats.Game. Plugins are found when this package is first imported, in the order of their
module names, after the games of this package; a plugin that cannot be imported, defines no Game, or names
a game or format already known is left out with a warning on the "deckcheck" logger.
"""
from __future__ import annotations

from typing import Iterable

from ..formats import AnyFormat, Column, Game
from . import highlander, raven, taktik

PLUGIN_PACKAGE = "deckcheck_games"

def _plugins(known: list[Game]) -> list[Game]:
    """The games of the plugin modules (see above)."""
    import importlib.util
    try:  # a namespace package: only the folders on the path; cheap when there is none
        spec = importlib.util.find_spec(PLUGIN_PACKAGE)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        return []
    import pkgutil
    found: list[Game] = []
    names = {g.name for g in known}
    formats = {n for g in known for f in g.formats for n in (f.name, *f.aliases)}  # a name or alias means one format
    for info in sorted(pkgutil.iter_modules(list(spec.submodule_search_locations)), key=lambda m: m.name):
        where = f"{PLUGIN_PACKAGE}.{info.name}"
        try:
            game = getattr(importlib.import_module(where), "GAME", None)
        except Exception as exc:  # a broken plugin must not stop the games that work
            _warn(f"the game plugin {where} could not be imported ({exc.__class__.__name__}: {exc})")
            continue
        if not isinstance(game, Game):
            _warn(f"the game plugin {where} defines no GAME (a deckcheck.formats.Game)")
            continue
        own = {n for f in game.formats for n in (f.name, *f.aliases)}
        if game.name in names or formats & own:
            taken = game.name if game.name in names else ", ".join(sorted(formats & own))
            _warn(f"the game plugin {where} names a game or format deckcheck already has ({taken})")
        else:
            found.append(game)
            names.add(game.name)
            formats |= own
    return found

def _warn(message: str) -> None:
    import logging
    logging.getLogger("deckcheck").warning(message)

_BUILT_IN: list[Game] = [
    highlander.GAME,
    raven.GAME,
    taktik.GAME,
]
GAMES: tuple[Game, ...] = tuple(_BUILT_IN + _plugins(_BUILT_IN))
FORMATS: tuple[AnyFormat, ...] = tuple(fmt for game in GAMES for fmt in game.formats)
EXTRA_COLUMNS: tuple[Column, ...] = tuple(column for game in GAMES for column in game.extra_columns)
"""The card-sheet columns the games add, stored in Card.extra (in card-sheet order)."""
_BY_NAME = {game.name: game for game in GAMES}

def game_named(name: str) -> Game:
    """The game of this name (a format's `game`); KeyError when no game has it."""
    return _BY_NAME[name]

def data_unknown_ids(games: Iterable[Game] = GAMES) -> list[str]:
    """The ids these games report when card data kept a rule from deciding (Game.data_unknown), each once, in order."""
    return list(dict.fromkeys(game.data_unknown for game in games))

def game_of(fmt: AnyFormat | str) -> Game:
    """The game a format (or a format's name) belongs to."""
    from ..formats import get_format
    return _BY_NAME[get_format(fmt).game]

