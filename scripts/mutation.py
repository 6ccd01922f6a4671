"""Mutation testing of the rules and the decklist parser: how many small faults do the tests catch?

A small runner of our own (no third-party tool). For each function of the target modules it makes
mutants of the body, one change each: a comparison flipped (< <=, == !=, in / not in, is / is not),
a whole number moved by one, `and`/`or` swapped, a `not` dropped, + and - swapped, an `if`
condition negated. Rules are plain functions, so a mutant is swapped in by replacing the
function's code object; the fast tests that cover the module are collected once, in one pytest
session, and run against each mutant until the first failure (a killed mutant). It prints every
survivor (file:line, the change) and a summary: the score per module and in all, in the rows of
docs/mutation.md, which `--doc` compares with the run. Not part of scripts/test.sh.

    .venv/bin/python scripts/mutation.py                          # every target (a few minutes)
    .venv/bin/python scripts/mutation.py --module deckcheck.decklist
    .venv/bin/python scripts/mutation.py --module deckcheck.rules --doc docs/mutation.md
"""
from __future__ import annotations

import __future__
import argparse
import ast
import copy
import importlib
import os
import signal
import sys
import time
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from _pytest.runner import runtestprotocol

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {  # module -> the fast tests that cover it, run in this order (the quickest to fail a mutant first)
    "deckcheck.games.highlander.rules": ["tests/test_rules_highlander.py", "tests/test_rules_engine.py",
                                         "tests/test_mutants.py", "tests/test_adding.py"],
    "deckcheck.games.highlander.view": ["tests/test_rules_highlander.py", "tests/test_mutants.py"],
    "deckcheck.rules": ["tests/test_rules_engine.py", "tests/test_rules_highlander.py"],
    "deckcheck.games.raven": ["tests/games/test_raven.py", "tests/test_mutants.py"],
    "deckcheck.games.taktik": ["tests/games/test_taktik.py", "tests/test_mutants.py"],
    "deckcheck.games.highlander": ["tests/test_rules_highlander.py"],
    "deckcheck.limits": ["tests/test_limits_boundaries.py", "tests/test_limits_table.py"],
    "deckcheck.textlimits": ["tests/test_limits_boundaries.py", "tests/test_limits_table.py"],
    "deckcheck.importers.limits": ["tests/test_limits_boundaries.py", "tests/importers/test_limits.py"],
    "deckcheck.decklist": ["tests/test_decklist_units.py", "tests/test_decklist_edges.py", "tests/test_decklist.py",
                           "tests/test_decklist_forms.py", "tests/test_pasted_lists.py",
                           "tests/test_paste_leftovers.py", "tests/test_resolution_edges.py",
                           "tests/games/test_raven.py", "tests/test_mutants.py"],
    "deckcheck.catalog": ["tests/test_catalog_edges.py", "tests/test_catalog.py", "tests/test_resolution_edges.py",
                          "tests/test_decklist_forms.py", "tests/test_pasted_lists.py",
                          "tests/test_paste_leftovers.py"],
    "deckcheck.adding": ["tests/test_adding.py"],
    "deckcheck.decks": ["tests/test_resolution_edges.py", "tests/test_decklist_forms.py", "tests/test_pasted_lists.py",
                        "tests/test_paste_leftovers.py", "tests/test_decklist.py"],
}
# modules whose mutants run in a forked process each (a lifted limit can make a reader abort the whole process)
ISOLATE = {"deckcheck.importers.limits"}
# tests that run the program in another process, where no mutant swapped in here reaches: never run against a mutant
DESELECT = ["tests/games/test_raven.py::test_card_sheets_tournament_and_formats_work_for_the_other_games",
            "tests/games/test_taktik.py::test_deal_command"]
# What the runner leaves alone, per module, each with why: only what is not rule logic. Every other function
# of a target is mutated, decorated ones included (@rule returns the function itself; a property, a lazy or
# cached value, a static or class method is followed to the function that computes it; the module's lru_caches
# are emptied around each mutant, so that the mutant runs, also where a cached caller calls it).
SKIP: dict[str, dict[str, str]] = {
    "deckcheck.games.highlander.view": {
        "__get__": "the lazy descriptor's caching (store the value in the instance), not a rule",
        "__set_name__": "the lazy descriptor's name, not a rule",
    },
}
FLIP = {ast.Lt: ast.LtE, ast.LtE: ast.Lt, ast.Gt: ast.GtE, ast.GtE: ast.Gt, ast.Eq: ast.NotEq,
        ast.NotEq: ast.Eq, ast.In: ast.NotIn, ast.NotIn: ast.In, ast.Is: ast.IsNot, ast.IsNot: ast.Is}


@dataclass
class Mutant:
    """One change to one function: where, what, and the function object and code to swap in."""

    module: str
    line: int
    what: str
    function: types.FunctionType
    code: types.CodeType
    caches: tuple[Any, ...] = ()  # the module's lru_caches, emptied when the mutant goes in and when it comes out
    defaults: tuple[Any, ...] | None = None  # the mutant's default values (`limit: int = 5`): not in its code

    @property
    def where(self) -> str:
        """file:line, the file relative to the repository."""
        path = Path(importlib.import_module(self.module).__file__ or "").resolve()
        return f"{path.relative_to(ROOT).as_posix()}:{self.line}"


def _sites(fn: ast.AST) -> list[tuple[ast.AST, str]]:
    """The nodes of a function body that a mutation can change, in source order."""
    out: list[tuple[ast.AST, str]] = []
    for node in ast.walk(fn):
        if node is fn:
            continue
        if isinstance(node, ast.Compare) and type(node.ops[0]) in FLIP:
            out.append((node, "compare"))
        elif isinstance(node, ast.BoolOp):
            out.append((node, "boolop"))
        elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
            out.append((node, "arith"))
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            out.append((node, "number"))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            out.append((node, "not"))
        elif isinstance(node, (ast.If, ast.While)):
            out.append((node, "condition"))
    return out


def _apply(node: ast.AST, kind: str) -> str:
    """Change the node in place; return what was done."""
    if isinstance(node, ast.Compare):
        old = type(node.ops[0])
        node.ops[0] = FLIP[old]()
        return f"{old.__name__} -> {FLIP[old].__name__}"
    if isinstance(node, ast.BoolOp):
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        return f"-> {type(node.op).__name__.lower()}"
    if isinstance(node, ast.BinOp):
        node.op = ast.Sub() if isinstance(node.op, ast.Add) else ast.Add()
        return f"-> {type(node.op).__name__}"
    if isinstance(node, ast.Constant):
        old_value = node.value
        node.value = old_value + 1 if old_value in (0, 1) else old_value - 1
        return f"{old_value} -> {node.value}"
    if isinstance(node, ast.UnaryOp):
        node.op = ast.UAdd()
        return "not removed"
    assert isinstance(node, (ast.If, ast.While))
    node.test = ast.UnaryOp(op=ast.Not(), operand=node.test)
    return "condition negated"


def _live_function(module: Any, owner: str | None, name: str) -> tuple[types.FunctionType | None, Any]:
    """The function object the program calls for a def (a plain function, a method, a property, a lazy or cached
    value, a static or class method, an lru_cache's function), and the cache to empty around a mutant (or None)."""
    holder = getattr(module, owner) if owner else module
    value = holder.__dict__.get(name) if owner else getattr(module, name, None)
    cache = value if callable(getattr(value, "cache_clear", None)) else None
    for attribute in ("fget", "compute", "func", "__func__", "__wrapped__"):
        value = getattr(value, attribute, value)
    if isinstance(value, types.FunctionType) and value.__code__.co_name == name:
        return value, cache
    return None, None


def mutants(module_name: str) -> list[Mutant]:
    """Every mutant of the functions of one module, each placed at its line in the source."""
    module = importlib.import_module(module_name)
    path = Path(module.__file__ or "")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    defs: list[tuple[str | None, ast.FunctionDef]] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            defs.append((None, node))
        elif isinstance(node, ast.ClassDef):
            defs += [(node.name, d) for d in node.body if isinstance(d, ast.FunctionDef)]
    skip = SKIP.get(module_name, {})
    # every cache of the module: a value cached by the original code, by the mutant's function or by a caller of it
    caches = tuple(v for v in vars(module).values() if callable(getattr(v, "cache_clear", None)))
    out = []
    for owner, fn in defs:
        live, _ = _live_function(module, owner, fn.name)
        if fn.name in skip or live is None or live.__code__.co_freevars:
            continue
        bare = copy.deepcopy(fn)
        bare.decorator_list = []  # a decorator's arguments (lru_cache(maxsize=1)) are not the function's body
        for i in range(len(_sites(bare))):
            changed = copy.deepcopy(bare)  # keeps the source's line numbers
            node, kind = _sites(changed)[i]
            what = _apply(node, kind)
            namespace: dict[str, Any] = dict(vars(module))
            code = compile(ast.fix_missing_locations(ast.Module([changed], [])), str(path), "exec",
                           flags=__future__.annotations.compiler_flag, dont_inherit=True)
            exec(code, namespace)
            new = namespace[fn.name]
            line = getattr(node, "lineno", fn.lineno)
            out.append(Mutant(module_name, line, f"{owner + '.' if owner else ''}{fn.name}: {kind}: {what}",
                              live, new.__code__, caches, new.__defaults__))
    return out


class MutantTimeout(Exception):
    """A mutant made the tests run far longer than without it (an endless loop)."""


class Runner:
    """A pytest plugin: collect the tests once, then run them against each mutant in turn."""

    def __init__(self, found: list[Mutant], isolate: bool = False):
        self.found = found
        self.isolate = isolate
        self.killed: list[bool] = []
        self.survivors: list[Mutant] = []
        self.baseline_failed = False
        self.seconds = 60.0  # how long the tests may run against one mutant (set from their time without any)

    def _fails(self, items: list[pytest.Item], explain: bool = False) -> bool:
        for i, item in enumerate(items):
            last = i + 1 == len(items)
            reports = runtestprotocol(item, nextitem=None if last else items[i + 1], log=False)
            failed = [r for r in reports if r.failed]
            if failed:
                if explain:
                    print(f"{item.nodeid} failed:\n{failed[0].longreprtext[-3000:]}")
                if not last:
                    item.session._setupstate.teardown_exact(None)
                return True
        return False

    def _with(self, m: Mutant, items: list[pytest.Item]) -> bool:
        """Whether the tests fail with the mutant swapped in (and out again)."""
        original, defaults = m.function.__code__, m.function.__defaults__
        m.function.__code__, m.function.__defaults__ = m.code, m.defaults
        for cache in m.caches:
            cache.cache_clear()
        try:
            return self._fails_in_time(items, self.seconds)
        finally:
            m.function.__code__, m.function.__defaults__ = original, defaults
            for cache in m.caches:
                cache.cache_clear()

    def _in_child(self, m: Mutant, items: list[pytest.Item]) -> bool:
        """The same in a forked process: a mutant that lets a limit go can make a reader abort the process
        (the spreadsheet reader allocating a sheet's whole extent); a child that dies so has failed the tests."""
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:  # the child: its exit status is the verdict
            os._exit(1 if self._with(m, items) else 0)
        _, status = os.waitpid(pid, 0)
        return not (os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0)

    def _fails_in_time(self, items: list[pytest.Item], seconds: float) -> bool:
        """Whether the tests fail against a mutant; a mutant that makes them run past `seconds` (a `while` whose
        condition is negated loops for ever) is killed: the test it hangs in fails on the alarm."""
        def alarm(_signum: int, _frame: Any) -> None:
            raise MutantTimeout(f"the tests ran past {seconds:.0f} s")
        previous = signal.signal(signal.SIGALRM, alarm)
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            return self._fails(items)
        except MutantTimeout:  # (between two tests)
            items[0].session._setupstate.teardown_exact(None)
            return True
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> bool:
        items = list(session.items)
        started = time.monotonic()
        if self._fails(items, explain=True):
            self.baseline_failed = True
            return True
        self.seconds = max(60.0, 5 * (time.monotonic() - started))  # the machine may be busy: a wide margin
        for m in self.found:
            self.killed.append(self._in_child(m, items) if self.isolate else self._with(m, items))
            if not self.killed[-1]:
                self.survivors.append(m)
                print(f"survived  {m.where}  {m.what}", flush=True)
        return True


def score_row(module: str, killed: int, total: int) -> str:
    """A module's row of the summary (and of docs/mutation.md's table of scores)."""
    return f"| {module} | {killed}/{total} | {100 * killed / max(total, 1):.1f} % |"


def survivor_row(m: Mutant) -> str:
    """The start of a survivor's row of the summary (docs/mutation.md adds why it is equivalent or left)."""
    return f"| {m.where} | {m.what} |"


def check_doc(doc: Path, results: dict[str, tuple[int, int, list[Mutant]]]) -> list[str]:
    """What the document says otherwise than this run, for the modules run: a score, a survivor it does not list,
    a survivor it lists that the run killed (or that moved to another line)."""
    rows = [line.strip() for line in doc.read_text(encoding="utf-8").splitlines() if line.startswith("| ")]
    problems = []
    for module, (killed, total, survivors) in results.items():
        if score_row(module, killed, total) not in rows:
            problems.append(f"{doc}: no row {score_row(module, killed, total)}")
        expected = {survivor_row(m) for m in survivors}
        problems += [f"{doc}: survivor not listed: {row}" for row in sorted(expected)
                     if not any(r.startswith(row) for r in rows)]
        path = Path(importlib.import_module(module).__file__ or "").resolve().relative_to(ROOT).as_posix()
        problems += [f"{doc}: lists a survivor this run killed: {r}" for r in rows
                     if r.startswith(f"| {path}:") and not any(r.startswith(row) for row in expected)]
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--module", action="append", help="only this module, e.g. deckcheck.decklist")
    parser.add_argument("--count", action="store_true", help="only count the mutants")
    parser.add_argument("--doc", type=Path, help="compare the summary with this document (docs/mutation.md): "
                                                 "exit 1 where it says otherwise")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT / "tests"))
    started = time.monotonic()
    results: dict[str, tuple[int, int, list[Mutant]]] = {}
    for module in args.module or list(TARGETS):
        found = mutants(module)
        if args.count:
            print(module, len(found))
            continue
        runner = Runner(found, isolate=module in ISOLATE)
        tests = [str(ROOT / t) for t in TARGETS[module] if (ROOT / t).exists()]
        pytest.main([*tests, "-q", "-p", "no:cacheprovider", "-p", "no:randomly", "--no-header", "-o", "addopts=", "-W",
                     "ignore::pytest.PytestAssertRewriteWarning",
                     *(f"--deselect={t}" for t in DESELECT)], plugins=[runner])
        if runner.baseline_failed:
            print(f"{module}: the tests fail without any mutant; fix them first")
            return 1
        results[module] = (sum(runner.killed), len(runner.killed), runner.survivors)
        print(f"{module}: {results[module][0]}/{results[module][1]} killed "
              f"({100 * results[module][0] / max(results[module][1], 1):.0f} %)", flush=True)
    if args.count:
        return 0
    killed = sum(k for k, _, _ in results.values())
    total = sum(t for _, t, _ in results.values())
    print("\nSummary (the rows of docs/mutation.md):\n| module | killed/total | % |\n|---|---|---|")
    for module, (k, t, _) in results.items():
        print(score_row(module, k, t))
    print("\n| survivor | change |\n|---|---|")
    for _, _, survivors in results.values():
        for m in survivors:
            print(survivor_row(m))
    print(f"\nmutation score: {killed}/{total} killed = {100 * killed / max(total, 1):.1f} % "
          f"({time.monotonic() - started:.0f} s)")
    if args.doc:
        problems = check_doc(args.doc, results)
        print("\n".join(problems) or f"{args.doc} agrees with this run")
        return 1 if problems else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
