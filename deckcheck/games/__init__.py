"""Every game deckcheck knows: one module each (its card types, formats, sections, rules), one line here; and
the default Registry of them (deckcheck.registry), built on first use.

A game from elsewhere is a plugin: a module of the namespace package `deckcheck_games` (any folder on the
Python path holding `deckcheck_games/NAME.py`, e.g. installed by its own distribution) that defines GAME,
a deckcheck.formats.Game. Plugins are found when the default registry is built (not when this package is
imported), in the order of their module names, after the games of this package; a plugin that cannot be
imported, defines no Game, or names a game or format already known is left out with a warning on the
"deckcheck" logger.
"""
from __future__ import annotations

import importlib
import importlib.util
import logging
from functools import lru_cache
from typing import Any, Iterable

from ..decklist import RawDeck, parse_text as parse_with
from ..formats import AnyFormat, Game
from ..registry import Registry
from . import highlander, raven, taktik

PLUGIN_PACKAGE = "deckcheck_games"
BUILT_IN: tuple[Game, ...] = (
    highlander.GAME,
    raven.GAME,
    taktik.GAME,
)


def plugins(known: Iterable[Game]) -> list[Game]:
    """The games of the plugin modules (see above)."""
    try:  # a namespace package: only the folders on the path; cheap when there is none
        spec = importlib.util.find_spec(PLUGIN_PACKAGE)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        return []
    import pkgutil  # (tests/test_layers.py: LAZY)
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
    logging.getLogger("deckcheck").warning(message)


@lru_cache(maxsize=1)
def registry() -> Registry:
    """The default registry: this package's games, then the plugins' (found now, once)."""
    return Registry(BUILT_IN + tuple(plugins(BUILT_IN)))


# -- the default registry's answers, for the library's callers (CONTRACTS §8: deckcheck.get_format, ...) -------
def game_named(name: str) -> Game:
    """The game of this name (a format's `game`); KeyError when no game has it."""
    return registry().game_named(name)


def game_of(fmt: AnyFormat | str) -> Game:
    """The game a format (or a format's name) belongs to."""
    return registry().game_of(fmt)


def get_format(name: str | AnyFormat) -> AnyFormat:
    """Find a format by name or alias, case-insensitively; raise UnknownFormatError otherwise."""
    return registry().get_format(name)


def all_formats() -> list[AnyFormat]:
    """Every format of every game."""
    return list(registry().formats)


def data_unknown_ids(games: Iterable[Game] | None = None) -> list[str]:
    """The ids these games (default: all) report when card data kept a rule from deciding, each once, in order."""
    return registry().data_unknown_ids(games)


def parse_text(text: str, source: str = "-") -> RawDeck:
    """Read a text decklist in the words of every registered game (deckcheck.decklist.parse_text)."""
    return parse_with(text, source, grammar=registry().grammar)


def __getattr__(name: str) -> Any:
    """GAMES, FORMATS and EXTRA_COLUMNS: the default registry's, built when first asked for."""
    if name in _DERIVED:
        return getattr(registry(), _DERIVED[name])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_DERIVED = {"GAMES": "games", "FORMATS": "formats", "EXTRA_COLUMNS": "extra_columns"}
