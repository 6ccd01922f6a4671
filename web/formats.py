"""The Formats page (`/formats`) and its JSON twin `GET /api/formats` (CONTRACTS §6), from one data function."""
from __future__ import annotations

from collections.abc import Mapping

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from deckcheck.formats import all_formats

from . import models
from .deps import PagesDep

router = APIRouter()
NAV = [("Formats", "/formats")]


def limits_of(params: object) -> dict[str, int]:
    """The numeric limits among a format's parameters (a mapping, or a dataclass of typed parameters)."""
    import dataclasses
    if dataclasses.is_dataclass(params) and not isinstance(params, type):
        values = {f.name: getattr(params, f.name) for f in dataclasses.fields(params)}
    else:
        values = dict(params) if isinstance(params, Mapping) else {}
    return {k: v for k, v in values.items() if isinstance(v, int) and not isinstance(v, bool) and k.endswith(
        ("_min", "_max", "_factor", "_extra"))}


def formats_data() -> list[dict]:
    """Every format: [{"name", "aliases", "rules": [{"id", "severity", "text"}]}], with its title, game and limits."""
    return [{"name": f.name, "title": f.title, "game": f.game, "aliases": list(f.aliases),
             "limits": limits_of(f.params), "rules": f.rule_table()}
            for f in all_formats()]


@router.get("/api/formats", tags=["api"], summary="Every format and its rules",
            response_model=list[models.FormatInfo])
def api_formats() -> Response:
    """[{"name", "aliases", "rules": [{"id", "severity", "text"}]}] (with the format's title and game too)."""
    return JSONResponse(formats_data())


# A format's numbers as a player says them ({n}: the number; a number other than 1 takes the plural in brackets).
LIMIT_WORDS = {
    "deck_min": "An Endurance of at least {n} cards",
    "title_max": "At most {n} cards of one title",
    "pregame_max": "At most {n} Pre-Game cards",
    "persona_max": "At most {n} Persona[s]",
    "woc_max": "At most {n} Weapon[s] of Choice",
    "hand_max": "At most {n} Hand icon[s] on the Pre-Game cards",
    "generic_specific_max": "A Generic Immortal: at most {n} of each Immortal Specific card",
    "watcher_max": "At most {n} Watcher Pre-Game card[s]",
    "crystal_max": "At most {n} Crystal[s]",
    "unique_max": "At most {n} card[s] of a unique Pre-Game title",
    "gem_factor": "Gem icons of a colour: at most {n} × the Persona's gems",
    "hunters_min": "At least {n} Hunter[s]",
    "renown_max": "Hunters and their Items: at most {n} Renown",
    "combat_min": "A Combat deck of at least {n} cards",
    "prey_renown_max": "Prey at the start: at most {n} Renown",
    "players_min": "At least {n} players",
    "pregame_extra": "{n} more Pre-Game card[s]",
}


def limit_sentence(key: str, n: int) -> str:
    """One number of a format in words: ("watcher_max", 1) → "At most 1 Watcher Pre-Game card"."""
    import re
    template = LIMIT_WORDS.get(key)
    if template is None:  # a game's own number, not yet worded here: its name in words
        what = key.replace("_max", "").replace("_min", "").replace("_", " ")
        return f"{'At least' if key.endswith('_min') else 'At most'} {n}: {what}"
    return re.sub(r"\[(\w+)\]", lambda m: "" if n == 1 else m.group(1), template.replace("{n}", f"{n:,}"))


@router.get("/formats", summary="The formats page")
def formats_page(pages: PagesDep) -> Response:
    """Each format's numbers and rules as sentences, each rule with its id and severity."""
    formats = formats_data()
    for f in formats:
        f["numbers"] = [{"key": k, "text": limit_sentence(k, v)} for k, v in f["limits"].items()]
    return pages("formats.html", {"formats": formats})
