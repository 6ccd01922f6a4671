"""The order the suite runs in (tests/conftest.py): the slowest tests first with their modules, the rest as before."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from conftest import SLOWEST, slowest_first

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Item:
    nodeid: str


def test_the_slowest_start_first_with_their_modules_and_the_rest_keep_their_order():
    ids = ["tests/a.py::test_1", "tests/b.py::test_fast", "tests/c.py::test_2", "tests/b.py::test_slow[x]",
           "tests/d.py::test_slower", "tests/b.py::test_slow[y]", "tests/a.py::test_3"]
    items = [Item(i) for i in ids]
    slowest_first(items, ("tests/d.py::test_slower", "tests/b.py::test_slow"))
    assert [i.nodeid for i in items] == ["tests/d.py::test_slower", "tests/b.py::test_slow[x]",
                                         "tests/b.py::test_slow[y]", "tests/b.py::test_fast", "tests/a.py::test_1",
                                         "tests/c.py::test_2", "tests/a.py::test_3"]


def test_nothing_moves_when_no_test_is_named():
    items = [Item(f"tests/m{n % 3}.py::test_{n}") for n in range(9)]
    before = list(items)
    slowest_first(items, ("tests/other.py::test_gone",))
    assert items == before


def test_every_slowest_test_is_a_test_of_the_suite():
    """A test renamed or moved leaves its line here naming nothing: this says which."""
    missing = [name for name in SLOWEST
               if not re.search(rf"^def {re.escape(name.split('::')[1])}\(",
                                (ROOT / name.split("::")[0]).read_text(encoding="utf-8"), re.M)]
    assert missing == [] and len(set(SLOWEST)) == len(SLOWEST), missing
