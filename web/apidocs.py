"""The API page (`/api`): every JSON endpoint with its parameters, read from the app's OpenAPI schema.

FastAPI's own /docs page loads its scripts from a CDN; this one works with no internet, and /docs
(where FastAPI users look first) leads here. The schema itself is at /openapi.json.
"""
from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response

from .deps import PagesDep

router = APIRouter()


def endpoints(schema: dict) -> list[dict]:
    """The API endpoints of an OpenAPI schema (those tagged "api"): method, path, summary, text, parameters."""
    out = []
    for path, methods in schema.get("paths", {}).items():
        for method, op in methods.items():
            if "api" not in op.get("tags", ()):
                continue
            params = [{"name": p["name"], "in": p["in"], "required": p.get("required", False),
                       "type": p.get("schema", {}).get("type", "")} for p in op.get("parameters", ())]
            out.append({"method": method.upper(), "path": path, "summary": op.get("summary", ""),
                        "text": op.get("description", ""), "parameters": params})
    return out


@router.get("/api", summary="The JSON API, described")
def api_page(request: Request, pages: PagesDep) -> Response:
    """Every JSON endpoint, its parameters and what it returns."""
    return pages("api.html", {"endpoints": endpoints(request.app.openapi())})


@router.get("/docs", include_in_schema=False)
def docs() -> Response:
    """FastAPI's usual address of the API documentation: this app's own page, which needs no internet."""
    return RedirectResponse("/api", status_code=308)
