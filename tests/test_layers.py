"""The layers of the package, kept apart: which part may import which (docs/layout.md).

    core (deckcheck/*.py, rules/, games/)  <-  library/  <-  cli/, web/
                                               db/, importers/ (storage and files, used by the library)

Every `from ... import` of a deckcheck module is read, at module level and inside functions alike (the lazy
imports are the ones that drift), and mapped to the part it lands in. The import graph of every module (core,
library, cli, db, importers, web) has no cycle (the generic core never imports a game: the games depend on it),
nothing imports a part above its own (db/ never imports the library), the CLI and the web reach storage through
the library only, and every module imports at the top but for the few listed in LAZY, each with the start-up cost
it saves.
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
    "db": {"importers"},  # storage only: the desk's and the facts' business rules live in the library
    "importers": set(),
    "web": {"library", "db", "importers"},
    "cli": {"library", "importers"},  # storage through the library's calls, never Store or Collections
}
# the few crossings that are the design, each with its reason
EXCEPTIONS = {
    ("deckcheck/__init__.py", "library"): "the public names of CONTRACTS §8, imported on first use",
    ("deckcheck/__main__.py", "cli"): "`python -m deckcheck` runs the command",
    ("deckcheck/records.py", "library"): "to_frame() imports pandas through library/frames.py when called",
    ("deckcheck/cli/commands.py", "web"): "`deckcheck serve` starts the web app",
}


# (file, module it imports inside a function) -> why it is imported there, not at the top: the start-up cost it
# saves (measured after what the importing module loads anyway, on a loaded 2-core machine)
LAZY = {
    ("deckcheck/games/__init__.py", "pkgutil"): "5-40 ms; needed only when a deckcheck_games folder is on the path",
    ("deckcheck/games/highlander/__init__.py", "deckcheck.stats"):
        "fractions and decimal, 3-10 ms; a check without statistics does not need them",
    ("deckcheck/records.py", "deckcheck.library.frames"): "pandas, hundreds of ms; only to_frame() needs it",
    ("deckcheck/library/accounts.py", "argon2"): "argon2-cffi (the web extra): only hashing a password needs it",
    ("deckcheck/library/accounts.py", "argon2.exceptions"): "as argon2: only verifying a password needs it",
    ("deckcheck/library/accounts.py", "deckcheck.db.store"): "SQLAlchemy: only `users ...` opens a store itself",
    # storage: `check --db FILE` reads a SQLite file with sqlite3 alone (db/store.py), without SQLAlchemy (0.5-1 s here)
    ("db/store.py", "sqlalchemy"): "0.5-1 s here: only a write, or a database not a ready SQLite file, needs it",
    ("db/store.py", "sqlmodel"): "SQLAlchemy's models: as sqlalchemy",
    ("db/store.py", "deckcheck.db.models"): "the table classes, SQLAlchemy underneath: as sqlalchemy",
    ("db/store.py", "deckcheck.db.sources"): "the provenance tables' queries, SQLAlchemy underneath: as sqlalchemy",
    ("db/store.py", "deckcheck.db.migrations"): "the schema's migrations, SQLAlchemy underneath: as sqlalchemy",
    ("db/engine.py", "fcntl"): "POSIX only: the writers' turn on a file, not on Windows",
    ("db/engine.py", "platformdirs"): "40 ms here: only when no database is named (the user's default file)",
    ("db/indexcache.py", "platformdirs"): "40 ms here: only when a name index is kept in the user's cache folder",
    ("db/indexcache.py", "tempfile"): "only where an index is written",
    # the CLI edge: `deckcheck check` and `tournament check` run without typer (cli/entry.py's fast path, and
    # bench/bench_validate.py's `check / import typer`); every other command pays typer and rich, not these
    ("deckcheck/cli/__init__.py", "deckcheck.cli.entry"):
        "the entry point and the library behind it, 60 ms: importing deckcheck.cli.render loads neither",
    ("deckcheck/cli/entry.py", "deckcheck.cli.commands"): "typer and every command, 190 ms: the fast path's reason",
    ("deckcheck/cli/entry.py", "deckcheck.cli.render"): "rich, 35 ms: only an error message in colour needs it",
    ("deckcheck/cli/entry.py", "deckcheck.importers.writers"): "6 ms: only a write that failed needs its reasons",
    ("deckcheck/cli/runner.py", "deckcheck.cli.render"): "rich, 35 ms: a check to a pipe or with --json never loads it",
    ("deckcheck/cli/runner.py", "rich.progress"): "40 ms: only a tournament checked on a terminal draws a bar",
    ("deckcheck/cli/runner.py", "deckcheck.importers.reports"): "9 ms: only a tournament check writes a report",
    ("importers/writers.py", "deckcheck.importers.xlsx"): "zipfile and the writer, 13-40 ms: only workbooks",
    ("deckcheck/cli/options.py", "importlib.metadata"): "50 ms: only --version reads the distribution's version",
    ("deckcheck/cli/entry.py", "deckcheck.cli.runner"): "the library behind it, 300 ms: --version answers without it",
    ("deckcheck/cli/commands.py", "getpass"): "only `users add|passwd` without --password-file asks for one",
    ("deckcheck/cli/commands.py", "deckcheck.library.accounts"): "db/'s storage modules: only `users ...` needs them",
    ("deckcheck/cli/commands.py", "deckcheck.library.database"):
        "db/'s storage modules, 30 ms: only the commands on a stored database (cards import, db init, ...)",
    ("deckcheck/cli/commands.py", "deckcheck.library.decks"):
        "the kept decks' storage, SQLAlchemy underneath: only the deck commands that read versions",
    ("deckcheck/cli/commands.py", "deckcheck.importers.cardsheet"): "20 ms: only card sheet import, export, lint",
    ("deckcheck/cli/commands.py", "deckcheck.importers.collection"): "35 ms: only collection sheets",
    ("deckcheck/cli/commands.py", "deckcheck.importers.deals"): "15 ms: only `taktik deal` from a file",
    ("deckcheck/cli/commands.py", "deckcheck.importers.decklists"): "30 ms: only `deck export` writes a decklist",
    ("web/__init__.py", "deckcheck.web.app"): "FastAPI, Starlette and every route (8-9 s against 1.1-1.5 s for "
                                              "deckcheck.web.settings alone, loaded machine): `serve --help` needs "
                                              "only the settings",
    ("deckcheck/cli/commands.py", "deckcheck.web.server"): "FastAPI and uvicorn, about 1 s, and an optional extra: "
                                                           "only `serve`",
}
# What issue 29 left (2026-12-02): function-level imports of library/, db/, importers/ and web/ not yet moved to the
# top or given a measured reason in LAZY (83, from about 510 before), and the web's direct uses of db/'s storage
# classes. Each entry goes when its file is reworked: the tests fail when an import or a use is added that is not
# here, and when one listed here is gone (so these lists only shrink).
LEFT_INSIDE = {
    ('deckcheck/library/__init__.py', 'deckcheck.importers.cardsheet'),
    ('deckcheck/library/__init__.py', 'deckcheck.importers.decklists'),
    ('deckcheck/library/api.py', 'deckcheck'),
    ('deckcheck/library/api.py', 'deckcheck.cardstats'),
    ('deckcheck/library/api.py', 'deckcheck.collection'),
    ('deckcheck/library/api.py', 'deckcheck.db.collections'),
    ('deckcheck/library/api.py', 'deckcheck.db.sources'),
    ('deckcheck/library/api.py', 'deckcheck.importers.cardsheet'),
    ('deckcheck/library/api.py', 'deckcheck.importers.collection'),
    ('deckcheck/library/api.py', 'deckcheck.tournament'),
    ('deckcheck/library/frames.py', 'pandas'),
    ('deckcheck/library/statsapi.py', 'deckcheck.db.collections'),
    ('deckcheck/library/statsapi.py', 'deckcheck.formats'),
    ('deckcheck/library/statsapi.py', 'deckcheck.games'),
    ('deckcheck/library/statsapi.py', 'deckcheck.importers.decklists'),
    ('deckcheck/library/statsapi.py', 'deckcheck.library'),
    ('db/store.py', 'deckcheck.db'),
    ('db/store.py', 'sqlalchemy.engine'),
    ('db/store.py', 'sqlalchemy.exc'),
    ('importers/decklists.py', 'deckcheck.importers.writers'),
    ('importers/limits.py', 'xml.etree.ElementTree'),
    ('importers/limits.py', 'zipfile'),
    ('importers/tables.py', 'python_calamine'),
    ('web/app.py', 'deckcheck.library.database'),
    ('web/app.py', 'deckcheck.unverified'),
    ('web/app.py', 'deckcheck.web.security'),
    ('web/app.py', 'json'),
    ('web/app.py', 'sqlalchemy.exc'),
    ('web/app.py', 'sys'),
    ('web/cards.py', 'deckcheck'),
    ('web/cards.py', 'deckcheck.db.updates'),
    ('web/cards.py', 'deckcheck.games'),
    ('web/cards.py', 'deckcheck.web.cardface'),
    ('web/cards.py', 'deckcheck.web.security'),
    ('web/cards.py', 'hmac'),
    ('web/cards.py', 'starlette.concurrency'),
    ('web/cards.py', 'urllib.parse'),
    ('web/collection.py', 'deckcheck.importers.collection'),
    ('web/collection.py', 'urllib.parse'),
    ('web/decks.py', 'deckcheck.importers'),
    ('web/decks.py', 'deckcheck.importers.decklists'),
    ('web/decks.py', 'deckcheck.library.api'),
    ('web/deps.py', 'deckcheck.db.store'),
    ('web/desk.py', 'deckcheck.games'),
    ('web/desk.py', 'deckcheck.web.check'),
    ('web/desk.py', 'deckcheck.web.errors'),
    ('web/desk.py', 'io'),
    ('web/desk.py', 'ipaddress'),
    ('web/desk.py', 'segno'),
    ('web/desk.py', 'urllib.parse'),
    ('web/facts.py', 'deckcheck.importers.cardsheet'),
    ('web/facts.py', 'deckcheck.importers.writers'),
    ('web/facts.py', 'deckcheck.unverified'),
    ('web/facts.py', 'deckcheck.web.cards'),
    ('web/facts.py', 'io'),
    ('web/facts.py', 'pathlib'),
    ('web/facts.py', 'tempfile'),
    ('web/formats.py', 'dataclasses'),
    ('web/formats.py', 'deckcheck.games'),
    ('web/formats.py', 're'),
    ('web/guard.py', 'deckcheck.web.security'),
    ('web/guard.py', 'hmac'),
    ('web/guard.py', 'logging'),
    ('web/guard.py', 'starlette.requests'),
    ('web/models.py', 'pydantic'),
    ('web/protocol.py', 'deckcheck.web.settings'),
    ('web/security.py', 'html'),
    ('web/server.py', 'deckcheck.db.store'),
    ('web/server.py', 'deckcheck.web'),
    ('web/server.py', 'deckcheck.web.protocol'),
    ('web/server.py', 'resource'),
    ('web/server.py', 'shutil'),
    ('web/server.py', 'uvicorn'),
    ('web/settings.py', 'stat'),
    ('web/settings.py', 'sys'),
    ('web/stats.py', 'deckcheck.check'),
}
LEFT_STORAGE = {
    ("web/cards.py", "Collections"), ("web/check.py", "Collections"), ("web/checkinput.py", "Collections"),
    ("web/collection.py", "Collections"), ("web/deps.py", "Collections"), ("web/deps.py", "Store"),
    ("web/server.py", "Store"),
}


CORE = ("deckcheck/*.py", "deckcheck/rules/**/*.py", "deckcheck/games/**/*.py")


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
    assert ("deckcheck/cli/runner.py", "deckcheck.importers.reports") in found  # in a function
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


def module_name(path: Path) -> str:
    """The dotted name a file of the checkout is imported as (db/store.py: deckcheck.db.store)."""
    folder, *parts = path.relative_to(ROOT).with_suffix("").parts
    parts = FOLDERS[folder].split(".") + parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_only(tree: ast.Module) -> set[int]:
    """The ids of the nodes under `if TYPE_CHECKING:` (imports for the type checker only: never run)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            found |= {id(sub) for stmt in node.body for sub in ast.walk(stmt)}
    return found


def import_graph(paths: list[Path], *, annotations: bool = False) -> dict[str, set[str]]:
    """Module -> the modules among these it imports when it runs (at module level or inside a function;
    `from a import b` is an import of a.b when a.b is a module, else of a); with `annotations`, also those it
    imports under `if TYPE_CHECKING:` for its annotations only."""
    modules = {module_name(p): p for p in paths}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = set() if annotations else _type_only(tree)
        targets: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.ImportFrom):
                base = ".".join(package[:len(package) - (node.level - 1)] if node.level else [])
                module = ".".join(p for p in (base, node.module or "") if p)
                targets |= {f"{module}.{a.name}" if f"{module}.{a.name}" in modules else module for a in node.names}
            elif isinstance(node, ast.Import):
                targets |= {a.name for a in node.names}
        graph[name] = {t for t in targets if t in modules and t != name}
    return graph


def tangles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected parts of the graph with more than one module (each holds a cycle), in sorted order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = set()
            while (top := stack.pop()) != node:
                part.add(top)
            if part:
                found.append(part | {node})
    for start in sorted(graph):
        if start not in index:
            visit(start)
    return sorted(found, key=min)


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle of the graph as [a, b, ..., a] (the first found, in sorted order), or [] when it has none."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def walk(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := walk(nxt)):
                return found
        state[node] = 2
        path.pop()
        return []
    for start in sorted(graph):
        if start not in state and (found := walk(start)):
            return found
    return []


def core_files(*, library: bool) -> list[Path]:
    paths = {p for pattern in CORE for p in ROOT.glob(pattern)}
    if library:
        paths |= set(ROOT.glob("deckcheck/library/**/*.py"))
    return sorted(paths)


def all_files() -> list[Path]:
    """Every module of the product: the core, the library, the CLI, db/, importers/ and web/."""
    return sorted(p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py"))


def test_no_import_cycle_anywhere():
    """Every module imports the others in one direction only, counting imports inside functions: the generic core
    (parser, resolver, formats, rules engine, reports) never imports a game nor the house built on the games, db/
    never imports the library that uses it, web/check.py and web/facts.py do not import each other. Each tangle of
    modules is named by one of its cycles."""
    graph = import_graph(all_files())
    found = [f"{len(part)} modules import one another ({', '.join(sorted(part))}), e.g. "
             + " -> ".join(find_cycle({m: graph[m] & part for m in part})) for part in tangles(graph)]
    assert not found, "import cycles:\n" + "\n".join(found)


def test_no_import_cycle_even_through_annotations():
    """A module that names another only in its annotations still depends on it: reading one means reading the
    other. No two modules name each other so, not even under `if TYPE_CHECKING:` (a Protocol below, or the
    shared name moved down, untie them: decks.Buildable, db.sources.HasEngine, deckcheck.problems)."""
    graph = import_graph(all_files(), annotations=True)
    found = [" -> ".join(find_cycle({m: graph[m] & part for m in part})) for part in tangles(graph)]
    assert not found, "import cycles through annotations:\n" + "\n".join(found)
    assert "deckcheck.stats" in graph["deckcheck.formats"]  # the annotation-only import is read here


def test_the_tangle_finder_finds_every_tangle():
    graph = {"a": {"b"}, "b": {"a", "c"}, "c": {"d"}, "d": {"c"}, "e": {"a"}}
    assert tangles(graph) == [{"a", "b"}, {"c", "d"}]
    assert tangles({"a": {"b"}, "b": set()}) == []
    graph = import_graph(all_files())
    assert "deckcheck.db.store" in graph["deckcheck.library.api"]  # a folder mapped to its installed package


def test_the_cycle_finder_finds_a_cycle_and_names_it():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []
    assert find_cycle({"a": {"a"}}) == ["a", "a"]


def test_the_graph_reads_function_level_and_relative_imports():
    graph = import_graph(core_files(library=True))
    assert "deckcheck.games.highlander" in graph["deckcheck.games"]  # `from . import highlander`
    assert "deckcheck.stats" in graph["deckcheck.games.highlander"]  # inside deck_stats()
    assert "deckcheck.decklist" in graph["deckcheck.registry"]
    assert "deckcheck.stats" not in graph["deckcheck.formats"]  # under TYPE_CHECKING: never run


def test_the_generic_core_imports_no_game():
    """The parser and the rules engine read a Grammar and a Registry built from the games, never the games."""
    graph = import_graph(core_files(library=False))
    generic = ("deckcheck.decklist", "deckcheck.formats", "deckcheck.report", "deckcheck.rules", "deckcheck.decks",
               "deckcheck.catalog", "deckcheck.registry", "deckcheck.stats", "deckcheck.cards")
    reached: set[str] = set()
    todo = list(generic)
    while todo:
        module = todo.pop()
        for nxt in graph[module] - reached:
            reached.add(nxt)
            todo.append(nxt)
    assert not {m for m in reached if m.startswith("deckcheck.games")}, sorted(reached)


def function_level_imports(path: Path) -> list[tuple[str, int]]:
    """(module, line) of every import inside a function of a file (relative ones as deckcheck.* names)."""
    name = module_name(path)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = []
    for func in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(func):
            if isinstance(node, ast.ImportFrom):
                base = ".".join(package[:len(package) - (node.level - 1)] if node.level else [])
                found.append((".".join(p for p in (base, node.module or "") if p), node.lineno))
            elif isinstance(node, ast.Import):
                found += [(a.name, node.lineno) for a in node.names]
    return found


@pytest.mark.parametrize("part", ("core",) + PARTS)
def test_each_module_imports_at_the_top(part):
    """An import inside a function hides a layer; each one left (at the CLI and web edge, in the core's few) saves
    a measured start-up cost (LAZY)."""
    files = [p for p in all_files() if source_part(p.relative_to(ROOT).as_posix()) == part]
    seen = {(p.relative_to(ROOT).as_posix(), module): line for p in files for module, line in function_level_imports(p)}
    unlisted = [f"{rel}:{line} imports {module} inside a function" for (rel, module), line in sorted(seen.items())
                if (rel, module) not in LAZY and (rel, module) not in LEFT_INSIDE]
    assert not unlisted, f"{len(unlisted)} function-level imports without a reason in LAZY:\n" + "\n".join(unlisted)
    listed = {key for key in LAZY.keys() | LEFT_INSIDE if source_part(key[0]) == part}
    assert listed <= set(seen), listed - set(seen)  # a reason nobody needs any more goes, and so does a leftover


@pytest.mark.parametrize("folder", ("deckcheck/cli", "web"))
def test_the_cli_and_the_web_reach_storage_through_the_library(folder):
    """The CLI and the web call the library, never `Store` or `Collections` (db/'s storage classes) directly."""
    reached = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names, line = [a.name for a in node.names], node.lineno
            elif isinstance(node, ast.Attribute):  # `store.Store`, `app.collections.Collections`
                names, line = [node.attr], node.lineno
            else:
                continue
            rel = path.relative_to(ROOT).as_posix()
            reached += [(rel, name, line) for name in names if name in ("Store", "Collections")]
    new = [f"{rel}:{line} uses {name}" for rel, name, line in reached if (rel, name) not in LEFT_STORAGE]
    assert not new, "\n".join(new)
    gone = {key for key in LEFT_STORAGE if key[0].startswith(folder + "/")} - {(r, n) for r, n, _l in reached}
    assert not gone, f"no longer used, take them out of LEFT_STORAGE: {sorted(gone)}"
