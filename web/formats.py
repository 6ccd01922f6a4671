"""The Formats page (`/formats`) and its JSON twin `GET /api/formats` (CONTRACTS §6), from one data function."""
from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from deckcheck.formats import all_formats

from .app import render

router = APIRouter()
NAV = [("Formats", "/formats")]


def formats_data() -> list[dict]:
    """Every format with its aliases and rules: [{"name", "aliases", "rules": [{"id", "severity", "text"}]}]."""
    return [{"name": f.name, "title": f.title, "game": f.game, "aliases": list(f.aliases),
             "rules": f.rule_table()}
            for f in all_formats()]


@router.get("/api/formats", tags=["api"], summary="Every format and its rules")
def api_formats() -> list[dict]:
    """[{"name", "aliases", "rules": [{"id", "severity", "text"}]}] (with the format's title and game too)."""
    return formats_data()


@router.get("/formats", summary="The formats page")
def formats_page(request: Request) -> Response:
    """Each format's rules, ids and severities."""
    return render(request, "formats.html", {"formats": formats_data()})
