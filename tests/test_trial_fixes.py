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
        lines = result.stdout.splitlines()  # a pipe: tab-separated, after the table's `# title`
        assert lines[0] == "# 4 decks checked"
        assert lines[1].split("\t") == ["player", "source", "format", "persona", "End.", "Pre", "verdict", "err",
                                        "warn"]
        assert "registration.csv [Alice Moreau]" in result.stdout and "…" not in result.stdout
        assert [line.split("\t")[-3] for line in lines[2:6]] == ["legal", "NOT LEGAL", "legal", "unreadable"]
        assert lines[-1] == "4 decks: 2 legal, 1 not legal, 1 unreadable"


def test_collection_missing_with_one_deck_prints_one_table(tmp_path):
    db = f"sqlite:///{tmp_path / 'c.db'}"
    one = run("collection", "missing", "examples/decks/type1e-connor-legal.txt", db=db, columns="120")
    titles = [line for line in one.stdout.splitlines() if line.startswith("# ")]  # a pipe: one `# title` a table
    assert len(titles) == 1 and "all decks together" not in one.stdout
    assert titles == ["# examples/decks/type1e-connor-legal.txt: 53 cards short"]
    two = run("collection", "missing", "examples/decks/type1e-connor-legal.txt", "examples/decks/type1e-methos.json",
              db=db, columns="120")
    titles = [line for line in two.stdout.splitlines() if line.startswith("# ")]
    assert len(titles) == 3 and titles[-1] == "# all decks together: 105 cards short"


def test_persona_messages_name_the_deck_of_its_persona():
    report = deckcheck.check_text((ROOT / "examples/decks/type1e-kurgan-illegal.txt").read_text())
    messages = [i.message for i in report.issues if i.rule == "HL-OTHER-PERSONA"]
    assert "3 cards of Kern in a deck of The Kurgan: Back Away (Kern)" in messages
    assert not [m for m in messages if "a The " in m]
