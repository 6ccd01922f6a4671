"""The layers of the package, kept apart: which part may import which (README "Layout").

    core (deckcheck/*.py, rules/, games/)  <-  library/  <-  cli/, web/
                                               db/, importers/ (storage and files, used by the library)

Every `from ... import` of a deckcheck module is read, at module level and inside functions alike (the lazy
imports are the ones that drift), and mapped to the part it lands in.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# folder in the checkout -> its package when installed (pyproject.toml maps db/, importers/, web/)
FOLDERS = {"deckcheck": "deckcheck", "db": "deckcheck.db", "importers": "deckcheck.importers", "web": "deckcheck.web"}
PARTS = ("cli", "library", "db", "importers", "web")

# part -> the parts it may import (besides itself and the core, which everything may import)
ALLOWED = {
    "core": set(),
    "library": {"db", "importers"},
    "db": {"importers", "library"},  # the desk's library calls (db/desk.py) and the bundle's rows live in db/
    "importers": set(),
    "web": {"library", "db", "importers"},
    "cli": {"library", "db", "importers"},
}
# the few crossings that are the design, each with its reason
EXCEPTIONS = {
    ("deckcheck/__init__.py", "library"): "the public names of CONTRACTS §8, imported on first use",
    ("deckcheck/__main__.py", "cli"): "`python -m deckcheck` runs the command",
    ("deckcheck/records.py", "library"): "to_frame() imports pandas through library/frames.py when called",
    ("deckcheck/cli/commands.py", "web"): "`deckcheck serve` starts the web app",
}


def part_of(module: str) -> str:
    """The part a dotted deckcheck module name belongs to."""
    pieces = module.split(".")
    return pieces[1] if len(pieces) > 1 and pieces[1] in PARTS else "core"


def imports(folder: str) -> list[tuple[str, str, int]]:
    """(file, imported deckcheck module, line) for every import under a folder of the checkout."""
    found = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        package = FOLDERS[folder].split(".") + list(path.relative_to(ROOT / folder).parts[:-1])
        rel = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package[:len(package) - (node.level - 1)]
                    modules = [".".join(base + [node.module])] if node.module else \
                        [".".join(base + [a.name]) for a in node.names]
                else:
                    modules = [node.module or ""]
            elif isinstance(node, ast.Import):
                modules = [a.name for a in node.names]
            else:
                continue
            found += [(rel, m, node.lineno) for m in modules if m == "deckcheck" or m.startswith("deckcheck.")]
    return found


def source_part(rel: str) -> str:
    folder, *rest = rel.split("/")
    if folder != "deckcheck":
        return folder
    return rest[0] if len(rest) > 1 and rest[0] in PARTS else "core"


@pytest.mark.parametrize("folder", sorted(FOLDERS))
def test_each_part_imports_only_the_parts_below_it(folder):
    crossings = []
    for rel, module, line in imports(folder):
        src, dst = source_part(rel), part_of(module)
        if dst in (src, "core") or dst in ALLOWED[src] or (rel, dst) in EXCEPTIONS:
            continue
        crossings.append(f"{rel}:{line} ({src}) imports {module} ({dst})")
    assert not crossings, "\n".join(crossings)


def test_the_reader_of_imports_sees_every_kind_of_import():
    """The scan above finds relative imports at every depth and lazy ones inside functions."""
    found = {(rel, module) for rel, module, _ in imports("deckcheck")}
    assert ("deckcheck/cli/runner.py", "deckcheck.library.api") in found  # `from ..library.api import` in a function
    assert ("deckcheck/cli/commands.py", "deckcheck.cli.options") in found  # `from . import options`
    assert ("deckcheck/library/api.py", "deckcheck.db.store") in found
    web = {(rel, module) for rel, module, _ in imports("web")}
    assert ("web/deps.py", "deckcheck.library.api") in web


def test_every_exception_is_still_needed():
    """An exception nobody uses any more is removed, so that the list stays the truth."""
    used = {(rel, part_of(module)) for folder in FOLDERS for rel, module, _ in imports(folder)}
    assert set(EXCEPTIONS) <= used, set(EXCEPTIONS) - used


def test_the_terminal_skin_is_one_folder():
    """typer and rich are imported only under deckcheck/cli/ (the web app has its own templates)."""
    outside = []
    for folder in FOLDERS:
        for path in (ROOT / folder).rglob("*.py"):
            rel = path.relative_to(ROOT).as_posix()
            if rel.startswith("deckcheck/cli/"):
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and not node.level:
                    names = [node.module or ""]
                else:
                    continue
                outside += [f"{rel}:{node.lineno} imports {n}" for n in names if n.split(".")[0] in ("typer", "rich")]
    assert not outside, "\n".join(outside)
