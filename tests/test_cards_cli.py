"""The card commands on provenance and partial sheets: import --dry-run, export --provenance, show, stats."""
from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(db: Path, *args: str) -> subprocess.CompletedProcess:
    exe = Path(sys.executable).with_name("deckcheck")
    return subprocess.run([str(exe), *args], capture_output=True, text=True, cwd=ROOT,
                          env=dict(os.environ, DECKCHECK_DB=str(db), COLUMNS="200"))


@pytest.fixture
def db(tmp_path, shared_db) -> Path:
    import shutil
    path = tmp_path / "cards.db"
    shutil.copy(shared_db.removeprefix("sqlite:///"), path)
    return path


def test_dry_run_lists_every_field_old_to_new(db, tmp_path):
    sheet = tmp_path / "partial.csv"
    sheet.write_text("id,name,restriction,grid\nME-riposte-ul,Riposte (UL),2,UL UC\nME-break-weapon,Break Weapon,2,\n")
    r = run(db, "cards", "import", str(sheet), "--dry-run")
    assert r.returncode == 0, r.stderr
    assert "would add 0, would update 1, unchanged 1" in r.stdout
    assert "Riposte (UL) [ME-riposte-ul] restriction: unknown → 2 (sheet:partial.csv @" in r.stdout
    assert "grid: UL (inferred) (derived:grid from name) → UL UC (sheet:partial.csv" in r.stdout
    assert "1 value(s) kept" in r.stdout and "restriction: 3 (source:http" in r.stdout
    r = run(db, "cards", "show", "ME-riposte-ul")
    assert "unknown" in r.stdout and "partial.csv" not in r.stdout  # the dry run changed nothing
    assert run(db, "cards", "import", str(sheet)).returncode == 0
    r = run(db, "cards", "show", "ME-riposte-ul")
    assert "a card sheet: partial.csv" in r.stdout and "Restriction" in r.stdout


def test_show_gives_each_value_its_source(db):
    r = run(db, "cards", "show", "Break Weapon")
    assert r.returncode == 0, r.stderr
    line = next(ln for ln in r.stdout.splitlines() if "Restriction" in ln)
    assert "3" in line and "a named public source: http://www.oocities.org/gislef/cotw19.htm" in line
    line = next(ln for ln in r.stdout.splitlines() if ln.strip().startswith("│ Set "))  # the card page's labels
    assert "the bundled checklist" in line


def test_export_provenance_columns_read_back(db, tmp_path):
    out = tmp_path / "cards.csv"
    assert run(db, "cards", "export", str(out), "--provenance").returncode == 0
    with open(out, encoding="utf-8", newline="") as f:
        rows = {r["id"]: r for r in csv.DictReader(f)}
    assert rows["ME-break-weapon"]["restriction_source"] == "source:http://www.oocities.org/gislef/cotw19.htm"
    assert rows["TG-riposte-ll"]["grid_source"] == "derived:grid from name"
    r = run(db, "cards", "import", str(out))
    assert r.returncode == 0 and "added 0, updated 0, unchanged 1491" in r.stdout, r.stdout + r.stderr
    assert "notice" not in r.stderr


def test_stats_by_kind_of_source(db):
    r = run(db, "cards", "stats")
    assert r.returncode == 0, r.stderr
    grid = next(ln for ln in r.stdout.splitlines() if ln.startswith("grid of Attacks\t"))  # a pipe: tab-separated
    assert "derived: grid from name 40" in grid
    restriction = next(ln for ln in r.stdout.splitlines() if ln.startswith("restriction\t"))
    assert "source 10" in restriction


def test_check_with_a_bad_card_sheet_does_not_speak_of_importing(db, tmp_path):
    dup = tmp_path / "dup.csv"
    dup.write_text("id,name\nX-1,A\nX-1,B\n")
    deck = tmp_path / "deck.txt"
    deck.write_text("1 Thrust\n")
    r = run(db, "check", str(deck), "--cards", str(dup))
    assert r.returncode == 2
    assert "imported" not in r.stderr and "no deck was checked with it" in r.stderr and "row 3" in r.stderr


def test_cards_overlay_updates_only_the_fields_it_states(db, tmp_path):
    extra = tmp_path / "extra.csv"
    extra.write_text("id,name,restriction\nME-riposte-ul,Riposte (UL),1\n")
    deck = tmp_path / "deck.txt"
    deck.write_text("Format: type1e\n2 Riposte (UL) [ME]\n")
    r = run(db, "check", str(deck), "--cards", str(extra), "--json")
    assert '"HL-RESTRICTED"' in r.stdout
    r = run(db, "cards", "show", "ME-riposte-ul", "--cards", str(extra))
    assert "extra.csv (this run only)" in r.stdout and "inferred" in r.stdout  # grid kept from the database


def test_sets_json_lines(db):
    """`cards sets --json`: one object per set, in the order of the sets, with the cards each holds."""
    import json

    import deckcheck
    r = run(db, "cards", "sets", "--json")
    assert r.returncode == 0, r.stderr
    lines = [json.loads(line) for line in r.stdout.splitlines()]
    assert all(list(line) == ["code", "name", "edition", "year", "cards"] for line in lines)
    cards = deckcheck.card_source().cards()
    assert {"code": "SE", "name": "Series Edition", "edition": 1, "year": "1995",
            "cards": sum(1 for c in cards if c.set == "SE")} in lines
    assert sum(line["cards"] for line in lines) == sum(1 for c in cards if c.set)
    assert lines == [s.as_dict() for s in deckcheck.card_source(db=f"sqlite:///{db}").set_counts()]
    assert len({line["code"] for line in lines}) == len(lines) and all(line["name"] for line in lines)

