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


@router.get("/formats", summary="The formats page")
def formats_page(pages: PagesDep) -> Response:
    """Each format's rules, ids and severities."""
    return pages("formats.html", {"formats": formats_data()})
