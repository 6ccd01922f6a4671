"""Every table command in an 80-column terminal (rich's Console, width from COLUMNS): no line wider than 80, nothing
cut (every cell the same command prints to a pipe is somewhere whole on the terminal), and to a pipe plain
tab-separated lines, one a row."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from deckcheck.cli.render import fold_columns
from inproc import run_cli

ROOT = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
DECKS = "examples/decks"
TABLES = [
    ("formats",),
    ("cards", "show", "Back Away"),
    ("cards", "search", "back away"),
    ("cards", "sets"),
    ("cards", "stats"),
    ("cards", "lint", "--limit", "30"),
    ("taktik", "deal", "examples/other-games/taktik52-deal.txt"),
    ("tournament", "check", DECKS),
    ("collection", "list"),
    ("collection", "stats"),
    ("collection", "missing", f"{DECKS}/type1e-connor-legal.txt", f"{DECKS}/type1e-methos.json"),
    ("collection", "trades"),
    ("deck", "list"),
]
PANELS = [("check", f"{DECKS}/type1e-kurgan-illegal.txt"), ("check", f"{DECKS}/type1e-typo.txt"),
          ("stats", f"{DECKS}/type1e-connor-legal.txt"),
          ("diff", f"{DECKS}/type1e-connor-legal.txt", f"{DECKS}/type1e-forum-style.txt"),
          ("cards", "show", "Connor MacLeod Persona")]


@pytest.fixture(scope="module")
def with_collection(shared_db, tmp_path_factory):
    """A copy of the shared database holding the example binder and a saved deck."""
    db = tmp_path_factory.mktemp("width") / "width.db"
    shutil.copy(shared_db.removeprefix("sqlite:///"), db)
    mp = pytest.MonkeyPatch()
    mp.setenv("DECKCHECK_DB", str(db))
    mp.chdir(ROOT)
    for args in (("collection", "import", "examples/collection/my-binder.csv"),
                 ("deck", "save", "connor", f"{DECKS}/type1e-connor-legal.txt")):
        assert run_cli(*args).code == 0, args
    yield db
    mp.undo()


def terminal(monkeypatch, *args: str) -> list[str]:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("FORCE_TERMINAL", "1")
    r = run_cli(*args)
    assert r.crash is None and r.code in (0, 1, 2), (args, r.crash, r.err)
    return ANSI.sub("", r.text).splitlines()


def piped(monkeypatch, *args: str) -> list[str]:
    monkeypatch.delenv("FORCE_TERMINAL", raising=False)
    monkeypatch.setenv("COLUMNS", "80")
    r = run_cli(*args)
    assert r.crash is None, r.crash
    return r.text.splitlines()


@pytest.mark.parametrize("args", TABLES, ids=" ".join)
def test_a_table_fits_80_columns_and_cuts_nothing(with_collection, monkeypatch, args):
    lines = terminal(monkeypatch, *args)
    wide = [line for line in lines if len(line) > 80]
    assert not wide and not any("…" in line for line in lines), "\n".join(wide or lines)
    cells = {cell for line in piped(monkeypatch, *args) if "\t" in line for cell in line.split("\t") if cell}
    assert cells, args  # the pipe got tab-separated rows
    shown = " ".join(" ".join(lines).split())  # a folded cell may be broken at its spaces, never inside a word
    cut = sorted(cell for cell in cells if " ".join(cell.split()) not in shown)
    assert not cut, f"{args}: not whole on the terminal: {cut[:10]}\n" + "\n".join(lines[:20])


@pytest.mark.parametrize("args", PANELS, ids=" ".join)
def test_a_panel_fits_80_columns_and_cuts_nothing(with_collection, monkeypatch, args):
    lines = terminal(monkeypatch, *args)
    assert lines and max(map(len, lines)) <= 80 and not any("…" in line for line in lines), "\n".join(lines)


def test_cards_show_to_a_pipe_prints_one_line_a_card(with_collection, monkeypatch):
    lines = piped(monkeypatch, "cards", "show", "Back Away")
    assert lines[0] == "# 40 cards match 'Back Away'"
    # the heading names the game's facts of a printing as a card sheet's columns do (issue 29: from its declarations)
    assert lines[1].split("\t") == ["id", "name", "set", "type", "restriction", "reserved", "signature", "unique",
                                     "hand_icons", "ed."]
    assert len(lines) == 42 and all(len(line.split("\t")) == 10 for line in lines[1:])
    assert "AT-ceirdwyn-back-away\tCeirdwyn Back Away\tAT\tDodge\t" in "\n".join(lines)


def test_the_widest_columns_after_the_kept_ones_fold_first():
    assert fold_columns([10, 10, 10], 80) == ([0, 1, 2], [])
    assert fold_columns([30, 30, 5, 20, 9], 80, keep=2) == ([0, 1, 2, 4], [3])
    assert fold_columns([70, 30, 5], 60) == ([0], [1, 2])  # the kept column alone may be wider: never cut
