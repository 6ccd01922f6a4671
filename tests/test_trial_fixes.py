"""Small things the trial of issue 20 hit: a piped tournament table is never cut, `collection missing` with one
deck prints one table, persona messages read as English."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import deckcheck

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, db: str, columns: str = "60") -> subprocess.CompletedProcess:
    exe = Path(sys.executable).with_name("deckcheck")
    env = {**os.environ, "DECKCHECK_DB": db, "COLUMNS": columns}
    return subprocess.run([str(exe), *args], capture_output=True, text=True, env=env, cwd=ROOT)


def test_a_piped_tournament_table_is_never_cut_whatever_columns_says(shared_db):
    for columns in ("40", "80", "200"):
        result = run("tournament", "check", "examples/tournament/registration.csv", db=shared_db, columns=columns)
        lines = result.stdout.splitlines()
        assert lines[0].split() == ["player", "source", "format", "persona", "End.", "Pre", "verdict", "err", "warn"]
        assert "registration.csv [Alice Moreau]" in result.stdout and "…" not in result.stdout
        assert [line.split()[-3] for line in lines[1:5]] == ["legal", "LEGAL", "legal", "unreadable"]
        assert lines[-1] == "4 decks: 2 legal, 1 not legal, 1 unreadable"


def test_collection_missing_with_one_deck_prints_one_table(tmp_path):
    db = f"sqlite:///{tmp_path / 'c.db'}"
    one = run("collection", "missing", "examples/decks/type1e-connor-legal.txt", db=db, columns="120")
    assert one.stdout.count("┏") == 1 and "all decks together" not in one.stdout
    assert "examples/decks/type1e-connor-legal.txt: 53 cards short" in one.stdout
    two = run("collection", "missing", "examples/decks/type1e-connor-legal.txt", "examples/decks/type1e-methos.json",
              db=db, columns="120")
    assert two.stdout.count("┏") == 3 and "all decks together" in two.stdout


def test_persona_messages_name_the_deck_of_its_persona():
    report = deckcheck.check_text((ROOT / "examples/decks/type1e-kurgan-illegal.txt").read_text())
    messages = [i.message for i in report.issues if i.rule == "HL-OTHER-PERSONA"]
    assert "3 cards of Kern in a deck of The Kurgan: Back Away (Kern)" in messages
    assert not [m for m in messages if "a The " in m]
