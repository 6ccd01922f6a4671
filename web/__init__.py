"""The web app of `deckcheck serve` (CONTRACTS §6): server-rendered pages and their JSON twins.

An adapter around the core, like deckcheck.db and deckcheck.importers: FastAPI, Jinja2 and htmx
(vendored in static/) are imported only when the web app is used.
"""
from .app import create_app

__all__ = ["create_app"]
