"""Mutation testing of the rules and the decklist parser: how many small faults do the tests catch?

A small runner of our own (no third-party tool). For each function of the target modules it makes
mutants of the body, one change each: a comparison flipped (< <=, == !=, in / not in, is / is not),
a whole number moved by one, `and`/`or` swapped, a `not` dropped, + and - swapped, an `if`
condition negated. Rules are plain functions, so a mutant is swapped in by replacing the
function's code object; the fast tests that cover the module are collected once, in one pytest
session, and run against each mutant until the first failure (a killed mutant). It prints every
survivor and the score per module and in all. Not part of scripts/test.sh.

    .venv/bin/python scripts/mutation.py                          # every target (a few minutes)
    .venv/bin/python scripts/mutation.py --module deckcheck/decklist.py
"""
from __future__ import annotations

import argparse
import ast
import importlib
import sys
import time
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from _pytest.runner import runtestprotocol

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {  # module -> the fast tests that cover it
    "deckcheck.games.highlander.rules": ["tests/test_rules_highlander.py", "tests/test_rules_engine.py",
                                         "tests/test_mutants.py"],
    "deckcheck.games.highlander.view": ["tests/test_rules_highlander.py", "tests/test_mutants.py"],
    "deckcheck.rules": ["tests/test_rules_engine.py", "tests/test_rules_highlander.py"],
    "deckcheck.games.raven": ["tests/games/test_raven.py", "tests/test_mutants.py"],
    "deckcheck.games.taktik": ["tests/games/test_taktik.py", "tests/test_mutants.py"],
    "deckcheck.decklist": ["tests/test_decklist.py", "tests/test_decklist_units.py", "tests/test_decklist_forms.py",
                           "tests/games/test_raven.py", "tests/test_mutants.py"],
}
# functions that are not rules or parsing: lookups of built-in cards, the opening deal, template helpers
SKIP = {"__init__", "counts", "details", "short_name", "card_name", "playing_cards", "parse_playing_card",
        "_by_rank_suit", "deal", "opening", "_value", "number_word", "param_names", "text", "__format__",
        "__missing__", "__get__", "__set_name__", "records", "rules_of", "declared", "rule", "record",
        "folded", "__call__", "stamp", "names", "plural", "data_unknown", "error", "warning", "whose"}
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


def _live_function(module: Any, owner: str | None, name: str) -> types.FunctionType | None:
    """The function object the program calls for a def: a plain function, a method, a property or lazy value."""
    holder = getattr(module, owner) if owner else module
    value = holder.__dict__.get(name) if owner else getattr(module, name, None)
    for attribute in ("fget", "compute", "__wrapped__"):
        value = getattr(value, attribute, value)
    if isinstance(value, types.FunctionType) and value.__code__.co_name == name:
        return value
    return None


def mutants(module_name: str) -> list[Mutant]:
    """Every mutant of the functions of one module."""
    module = importlib.import_module(module_name)
    path = Path(module.__file__ or "")
    tree = ast.parse(path.read_text(encoding="utf-8"))
    defs: list[tuple[str | None, ast.FunctionDef]] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            defs.append((None, node))
        elif isinstance(node, ast.ClassDef):
            defs += [(node.name, d) for d in node.body if isinstance(d, ast.FunctionDef)]
    out = []
    for owner, fn in defs:
        live = _live_function(module, owner, fn.name)
        if fn.name in SKIP or live is None or live.__code__.co_freevars:
            continue
        bare = ast.parse(ast.unparse(fn)).body[0]
        assert isinstance(bare, ast.FunctionDef)
        bare.decorator_list = []  # a decorator's arguments (lru_cache(maxsize=1)) are not the function's body
        source = ast.unparse(bare)
        for i in range(len(_sites(ast.parse(source).body[0]))):
            copy = ast.parse(source).body[0]
            assert isinstance(copy, ast.FunctionDef)
            node, kind = _sites(copy)[i]
            what = _apply(node, kind)
            ast.increment_lineno(copy, fn.lineno - 1)
            namespace: dict[str, Any] = dict(vars(module))
            code = compile(ast.fix_missing_locations(ast.Module([copy], [])), str(path), "exec")
            exec(code, namespace)
            new = namespace[fn.name]
            line = getattr(node, "lineno", fn.lineno)
            out.append(Mutant(module_name, line, f"{owner + '.' if owner else ''}{fn.name}: {kind}: {what}",
                              live, new.__code__))
    return out


class Runner:
    """A pytest plugin: collect the tests once, then run them against each mutant in turn."""

    def __init__(self, found: list[Mutant]):
        self.found = found
        self.killed: list[bool] = []
        self.baseline_failed = False

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

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> bool:
        items = list(session.items)
        if self._fails(items, explain=True):
            self.baseline_failed = True
            return True
        for m in self.found:
            original = m.function.__code__
            m.function.__code__ = m.code
            try:
                self.killed.append(self._fails(items))
            finally:
                m.function.__code__ = original
            if not self.killed[-1]:
                print(f"survived  {m.module}:{m.line}  {m.what}", flush=True)
        return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--module", action="append", help="only this module, e.g. deckcheck.decklist")
    parser.add_argument("--count", action="store_true", help="only count the mutants")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT / "tests"))
    started = time.monotonic()
    totals: dict[str, tuple[int, int]] = {}
    for module in args.module or list(TARGETS):
        found = mutants(module)
        if args.count:
            print(module, len(found))
            continue
        runner = Runner(found)
        tests = [str(ROOT / t) for t in TARGETS[module] if (ROOT / t).exists()]
        pytest.main([*tests, "-q", "-p", "no:cacheprovider", "--no-header", "-o", "addopts=", "-W",
                     "ignore::pytest.PytestAssertRewriteWarning"], plugins=[runner])
        if runner.baseline_failed:
            print(f"{module}: the tests fail without any mutant; fix them first")
            return 1
        totals[module] = (sum(runner.killed), len(runner.killed))
        print(f"{module}: {totals[module][0]}/{totals[module][1]} killed "
              f"({100 * totals[module][0] / max(totals[module][1], 1):.0f} %)", flush=True)
    if args.count:
        return 0
    killed = sum(k for k, _ in totals.values())
    total = sum(t for _, t in totals.values())
    print(f"mutation score: {killed}/{total} killed = {100 * killed / max(total, 1):.1f} % "
          f"({time.monotonic() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
