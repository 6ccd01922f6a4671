"""The Formats page (`/formats`) and its JSON twin `GET /api/formats` (CONTRACTS §6), from one data function."""
from __future__ import annotations

from typing import Any

from collections.abc import Collection, Mapping

from fastapi import APIRouter
from fastapi.responses import Response

from deckcheck.games import all_formats

from . import models
from .deps import PagesDep

router = APIRouter(route_class=models.ApiRoute)
NAV = [("Formats", "/formats")]


LIMIT_SUFFIXES = ("_min", "_max", "_factor", "_extra")


def limits_of(params: object, worded: Collection[str] = ()) -> dict[str, int]:
    """The numeric limits among a format's parameters (a mapping, or a dataclass of typed parameters): those
    whose names end in a limit's suffix, and those its game words (Game.limit_words)."""
    import dataclasses
    if dataclasses.is_dataclass(params) and not isinstance(params, type):
        values = {f.name: getattr(params, f.name) for f in dataclasses.fields(params)}
    else:
        values = dict(params) if isinstance(params, Mapping) else {}
    return {k: v for k, v in values.items() if isinstance(v, int) and not isinstance(v, bool) and (
        k.endswith(LIMIT_SUFFIXES) or k in worded)}


def formats_data() -> list[dict[str, Any]]:
    """Every format: [{"name", "aliases", "rules": [{"id", "severity", "text"}]}], with its title, game and limits."""
    from deckcheck.games import game_named
    return [{"name": f.name, "title": f.title, "game": f.game, "aliases": list(f.aliases),
             "limits": limits_of(f.params, game_named(f.game).limit_words), "rules": f.rule_table()}
            for f in all_formats()]


@router.get("/api/formats", tags=["api"], summary="Every format and its rules",
            response_model=list[models.FormatInfo])
def api_formats() -> list[dict[str, Any]]:
    """[{"name", "aliases", "rules": [{"id", "severity", "text"}]}] (with the format's title and game too)."""
    return formats_data()


def limit_sentence(key: str, n: int, words: Mapping[str, str] | None = None) -> str:
    """One number of a format in words, from its game's `limit_words` ({n}: the number; `[s]`: what a number other
    than 1 adds): ("watcher_max", 1) → "At most 1 Watcher Pre-Game card"; a number its game does not word, by its
    name ("At most 3: copies")."""
    import re
    template = (words or {}).get(key)
    if template is None:
        what = key
        for suffix in LIMIT_SUFFIXES:
            what = what.removesuffix(suffix)
        return f"{'At least' if key.endswith('_min') else 'At most'} {n:,}: {what.replace('_', ' ')}"
    return re.sub(r"\[(\w+)\]", lambda m: "" if n == 1 else m.group(1), template.replace("{n}", f"{n:,}"))


@router.get("/formats", summary="The formats page")
def formats_page(pages: PagesDep) -> Response:
    """Each format's numbers and rules as sentences, each rule with its id and severity."""
    from deckcheck.games import GAMES, data_unknown_ids, game_named
    formats = formats_data()
    for f in formats:
        words = game_named(f["game"]).limit_words
        f["numbers"] = [{"key": k, "text": limit_sentence(k, v, words)} for k, v in f["limits"].items()]
    return pages("formats.html", {"formats": formats, "data_unknown": data_unknown_ids(GAMES)})
