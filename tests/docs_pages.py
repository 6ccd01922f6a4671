"""The user documentation the tests read: README.md, then the pages of the MkDocs site (docs/) in the order of
mkdocs.yml's nav, then any other page under docs/ (a guide not yet in the nav)."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def pages() -> list[Path]:
    """README.md and every docs/**/*.md, in reading order."""
    nav = re.findall(r"^\s*-\s+(?:[^:\n]+:\s+)?(\S+\.md)\s*$", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M)
    listed = [DOCS / name for name in nav]
    rest = sorted(p for p in DOCS.rglob("*.md") if p not in listed)
    return [ROOT / "README.md", *listed, *rest]


def text() -> str:
    """Every page's text, one after another."""
    return "\n".join(p.read_text(encoding="utf-8") for p in pages())


def page(name: str) -> str:
    """One page of docs/ (`limits.md`)."""
    return (DOCS / name).read_text(encoding="utf-8")


def where(path: Path) -> str:
    """A page's name as the tests report it (README.md, docs/limits.md)."""
    return str(path.relative_to(ROOT))
