"""The web app of `deckcheck serve` (CONTRACTS §6): server-rendered pages and their JSON twins.

An adapter around the core, like deckcheck.db and deckcheck.importers: FastAPI, Jinja2 and htmx
(vendored in static/) are imported only when the web app is used. `create_app` is imported on first use, so that
importing deckcheck.web.settings (`serve`'s options, for `deckcheck serve --help`) loads no FastAPI.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app
        return create_app
    raise AttributeError(f"module 'deckcheck.web' has no attribute {name!r}")


if TYPE_CHECKING:
    from .app import create_app
