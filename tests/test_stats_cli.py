"""`deckcheck stats` and `deckcheck diff`, and the library's deck_diff: JSON content, plain output, errors."""
from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

import deckcheck
from deckcheck.grid import SQUARES
from deckcheck.cli import main

ROOT = Path(__file__).resolve().parent.parent
DECKS = ROOT / "examples" / "decks"
CONNOR = DECKS / "type1e-connor-legal.txt"


class Result:
    def __init__(self, returncode: int, stdout: str, stderr: str):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def run(*args: str) -> subprocess.CompletedProcess:
    """The installed command in a subprocess: its standard output is a pipe, as in `deckcheck stats | less`."""
    exe = Path(sys.executable).with_name("deckcheck")
    return subprocess.run([str(exe), *args], capture_output=True, text=True, cwd=ROOT)


@pytest.fixture
def invoke(cli_env, capsys, monkeypatch):
    """Run the deckcheck command in this process (a subprocess costs seconds on a busy machine)."""
    def call(*args: str, input: str | None = None) -> Result:
        if input is not None:
            import io
            monkeypatch.setattr("sys.stdin", io.StringIO(input))
        capsys.readouterr()
        try:
            main(list(args))
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 0
        out, err = capsys.readouterr()
        return Result(code, out, err)
    return call


def changed_connor(tmp_path):
    """The legal Connor deck without its Lower Right Blocks and with two Power Blows more."""
    text = CONNOR.read_text().replace("3 Lower Right Block (3)\n", "")
    text += "2 Connor MacLeod Power Blow\n"
    path = tmp_path / "connor-b.txt"
    path.write_text(text)
    return path


def test_stats_json_is_the_library_object(invoke):
    r = invoke("stats", str(CONNOR), "--json", "--hand", "12", "--exertion", "4")
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    want = deckcheck.deck_stats(CONNOR.read_text(), hand=12, exertion=4, source=str(CONNOR)).as_dict()
    assert got == want
    assert got["endurance"] == 51 and got["odds"]["hand"] == 12 and got["odds"]["exertion"] == 4
    # 6 blocks cover Upper Left (3 Upper Left Block, 3 Upper Center Block): 1 - C(45,12)/C(51,12).
    assert got["odds"]["opening_block"]["UL"] == round(float(1 - Fraction(comb(45, 12), comb(51, 12))), 6)


def test_stats_plain_text_when_piped(cli_env):
    r = run("stats", str(CONNOR))
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "\x1b[" not in out and "┃" not in out
    assert "Endurance 51 cards" in out and "Attack                 30   58.8%" in out
    assert "Opening hand of 15 holds a block" in out and "Exertion of 5 finds a defense" in out
    assert "Middle      89.2%    99.2%    89.2%" in out  # the opening-block grid: MC has 12 blocks
    assert "grid unknown, counted as covering nothing: Connor MacLeod Back Away" in out


def test_stats_of_a_saved_deck_and_of_standard_input(invoke, tmp_path, monkeypatch):
    monkeypatch.setenv("DECKCHECK_DB", f"sqlite:///{tmp_path / 'own.db'}")
    assert invoke("deck", "save", "connor", str(CONNOR)).returncode == 0
    saved = json.loads(invoke("stats", "connor", "--json").stdout)
    piped = json.loads(invoke("stats", "-", "--json", input=CONNOR.read_text()).stdout)
    assert saved["deck"] == "connor" and piped["deck"] == "-"
    saved.pop("deck"), piped.pop("deck")
    assert saved == piped


@pytest.mark.parametrize("args,message", [
    (("--hand", "-1"), "hand must be a whole number from 0 to 1000, got -1"),
    (("--exertion", "5000"), "exertion must be a whole number from 0 to 1000, got 5000"),
    (("--format", "taktik52"), "statistics are for Highlander decks"),
])
def test_stats_bad_options_exit_2_with_one_line(invoke, args, message):
    r = invoke("stats", str(CONNOR), *args)
    assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr


def test_stats_of_an_unreadable_deck_exits_2(invoke):
    r = invoke("stats", str(DECKS / "type1e-typo.txt"), "--json")
    assert r.returncode == 2 and "'3 Uper Left Attack': unknown card" in r.stderr and r.stdout == ""
    r = invoke("stats", "no-such-deck")
    assert r.returncode == 2 and "no saved deck named 'no-such-deck'" in r.stderr


def test_diff_json(invoke, tmp_path):
    b = changed_connor(tmp_path)
    r = invoke("diff", str(CONNOR), str(b), "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert list(d) == ["before", "after", "added", "removed", "legal", "rules", "odds"]
    assert d["added"] == [{"section": "Endurance", "card": "Connor MacLeod Power Blow", "quantity": 2}]
    assert d["removed"] == [{"section": "Endurance", "card": "Lower Right Block (3)", "quantity": 3}]
    assert d["legal"] == {"before": True, "after": False}
    assert d["rules"] == {"fixed": [], "new": ["HL1-BASIC-BLOCKS"]}
    assert d["before"]["report"]["legal"] is True and d["after"]["stats"]["endurance"] == 50
    assert d["before"]["stats"] == deckcheck.deck_stats(CONNOR.read_text(), source=str(CONNOR)).as_dict()
    lr = d["odds"]["opening_block"]["LR"]  # 6 blocks of 51 before (Lower Center, Lower Right), 3 of 50 after
    assert lr["before"] == round(float(1 - Fraction(comb(45, 15), comb(51, 15))), 6)
    assert lr["after"] == round(float(1 - Fraction(comb(47, 15), comb(50, 15))), 6)
    assert lr["change"] == round(lr["after"] - lr["before"], 6) < 0
    assert list(d["odds"]["exertion_attack"]) == list(SQUARES)


def test_diff_plain_text(invoke, tmp_path):
    r = invoke("diff", str(CONNOR), str(changed_connor(tmp_path)))
    assert r.returncode == 0, r.stderr
    assert "+ 2 Connor MacLeod Power Blow (Endurance)" in r.stdout
    assert "- 3 Lower Right Block (3) (Endurance)" in r.stdout
    assert "NOT LEGAL" in r.stdout and "newly broken: HL1-BASIC-BLOCKS" in r.stdout
    assert "89.2% → 60.0% (-29.2)" not in r.stdout  # the Kurgan figures: this is another deck
    lr = next(line for line in r.stdout.splitlines() if line.startswith("LR "))
    assert "→" in lr and "(-" in lr


def test_diff_needs_one_deck_each(invoke):
    registration = DECKS.parent / "tournament" / "registration.csv"
    r = invoke("diff", str(registration), str(CONNOR))
    assert r.returncode == 2 and "decks; name a file with one deck" in r.stderr


def test_library_deck_diff_same_cards_in_other_printings():
    a = "Endurance:\n3 Thrust (2)\n1 Thrust (1)\n2 Upper Left Block [SE]\n"
    b = "Endurance:\n4 Thrust\n2 Upper Left Block\n1 Upper Right Block\n"
    diff = deckcheck.deck_diff(a, b, format="type1e")
    assert diff.removed == ()
    assert [c.as_dict() for c in diff.added] == [{"section": "Endurance", "card": "Upper Right Block", "quantity": 1}]
    assert diff.before_stats is not None and diff.after_stats is not None  # a game with statistics
    assert diff.before_stats.endurance == 6 and diff.after_stats.endurance == 7
    assert diff.before.legal is False and "HL-DECK-MIN" not in diff.fixed_rules + diff.new_rules
