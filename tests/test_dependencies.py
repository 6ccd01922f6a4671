"""Every package the project declares is one its code uses (issue 29: "no unused dependency")."""
from __future__ import annotations

import ast
import re
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCT = ("deckcheck", "db", "importers", "web")
# distributions that the code loads through another package rather than by an import of its own
THROUGH = {
    "python-multipart": "Starlette parses form bodies with it (web/check.py reads forms)",
    "uvloop": "uvicorn's event loop when it is installed (`serve`)",
    "httptools": "uvicorn's HTTP parser, which web/protocol.py subclasses through uvicorn",
    "psycopg": "SQLAlchemy's driver for postgresql+psycopg:// database URLs",
}
EXTRAS = ("postgres", "web", "pandas")


def declared() -> set[str]:
    """The distributions of the runtime dependencies and the runtime extras, lower-case."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    specs = list(project["dependencies"])
    for extra in EXTRAS:
        specs += project["optional-dependencies"][extra]
    return {re.split(r"[\[<>=;! ]", spec, maxsplit=1)[0].lower() for spec in specs}


def imported() -> set[str]:
    """The top-level modules that product code imports, anywhere in a file."""
    found: set[str] = set()
    for folder in PRODUCT:
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    found.update(alias.name.split(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                    found.add(node.module.split(".")[0])
    return found


def test_every_declared_dependency_is_used() -> None:
    by_module = packages_distributions()
    used = {dist.lower() for module in imported() for dist in by_module.get(module, [])}
    unused = sorted(declared() - used - set(THROUGH))
    assert not unused, f"declared but imported nowhere in {', '.join(PRODUCT)}: {unused}"


def test_the_loaded_through_list_names_only_declared_packages() -> None:
    assert set(THROUGH) <= declared()
