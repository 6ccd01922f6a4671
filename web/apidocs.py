"""The API page (`/api`): every JSON endpoint with its parameters, read from the app's OpenAPI schema, in words
for people (no Markdown marks, no section numbers of CONTRACTS.md), each with a real request and its answer.

The examples (api_examples.json) are what the app really answered: tests/web/test_api_page.py sends each
request to a server of its own and fails when an answer changed (`pytest --update-golden` writes them again),
and when an endpoint has no example. FastAPI's own /docs page loads its scripts from a CDN; this one works
with no internet, and /docs (where FastAPI users look first) leads here. The schema is at /openapi.json.
"""
from __future__ import annotations

from typing import Any

import json
import re
from functools import lru_cache
from pathlib import Path

from fastapi import APIRouter, Request
from markupsafe import Markup, escape
from fastapi.responses import RedirectResponse, Response

from .deps import PagesDep

router = APIRouter()


EXAMPLES = Path(__file__).resolve().parent / "api_examples.json"
# CONTRACTS.md's sections, as a reader of the API page knows them
SECTIONS = {"1a": "partial card sheet", "1": "card sheet", "2": "decklist", "3": "check report",
            "4": "collection sheet", "5": "database", "6": "web API", "7": "deck statistics", "8": "Python library"}
SECTION_PHRASES = [(r"([Tt])he §3 report", r"\1he check report"), (r"([Tt])he §7 object", r"\1he statistics object"),
                   (r"§1 columns", "card-sheet columns"), (r"\s*\((?:CONTRACTS(?:\.md)? )?§[\d a-z,.]+\)", "")]


def words(text: str) -> str:
    """An OpenAPI description for people: CONTRACTS.md's section numbers said in words."""
    for pattern, said in SECTION_PHRASES:
        text = re.sub(pattern, said, text)
    return re.sub(r"(?:CONTRACTS(?:\.md)? )?§(\d+a?)", lambda m: f"the {SECTIONS.get(m.group(1), 'contract')}", text)


def rendered(text: str) -> Markup:
    """Markdown's inline marks of a description as HTML: `code`, **bold**; everything else escaped."""
    out = str(escape(words(text)))
    out = re.sub(r"`([^`]+)`", r"<code>\1</code>", out)
    out = re.sub(r"\*\*([^*]+)\*\*", r"<b>\1</b>", out)
    return Markup(out.replace("`", ""))


@lru_cache(maxsize=1)
def examples() -> dict[str, dict[str, Any]]:
    """The real request and answer of each endpoint, by "METHOD /path" (api_examples.json)."""
    try:
        found: dict[str, dict[str, Any]] = json.loads(EXAMPLES.read_text(encoding="utf-8"))
        return found
    except (OSError, ValueError):
        return {}


def endpoints(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The API endpoints of an OpenAPI schema (those tagged "api"): method, path, summary, text, parameters,
    and the example request and answer."""
    out = []
    for path, methods in schema.get("paths", {}).items():
        for method, op in methods.items():
            if "api" not in op.get("tags", ()):
                continue
            params = [{"name": p["name"], "in": p["in"], "required": p.get("required", False),
                       "type": _type(p.get("schema", {})), "text": rendered(p.get("description", ""))}
                      for p in op.get("parameters", ())]
            statuses = [(code, words(r.get("description", ""))) for code, r in op.get("responses", {}).items()]
            out.append({"method": method.upper(), "path": path, "summary": rendered(op.get("summary", "")),
                        "text": rendered(op.get("description", "")), "parameters": params, "statuses": statuses,
                        "example": examples().get(f"{method.upper()} {path}"),
                        "anchor": re.sub(r"[^a-z0-9]+", "-", f"{method} {path}".lower()).strip("-")})
    return out


def _type(schema: dict[str, Any]) -> str:
    if "anyOf" in schema:
        return " or ".join(_type(s) for s in schema["anyOf"] if s.get("type") != "null")
    kind: str = schema.get("type", "")
    return kind


@router.get("/api", summary="The JSON API, described")
def api_page(request: Request, pages: PagesDep) -> Response:
    """Every JSON endpoint, its parameters and what it returns, with a real example of each."""
    return pages("api.html", {"endpoints": endpoints(request.app.openapi())})


@router.get("/docs", include_in_schema=False)
def docs() -> Response:
    """FastAPI's usual address of the API documentation: this app's own page, which needs no internet."""
    return RedirectResponse("/api", status_code=308)
