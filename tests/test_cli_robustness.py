"""The leftovers of the bad-input corpus (issue 19): numbers of thousands of digits in card sheets and --cards,
output files that cannot be written (a name too long for the file system), hints that echo a path with
control characters, and `cards search` exit codes. Each ends in one clear line and its exit code, never a
traceback; the commands run in process (tests/inproc.py) on the shared read-only database."""
from __future__ import annotations

from pathlib import Path

import pytest
from inproc import run_cli

ROOT = Path(__file__).resolve().parent.parent
DECK = ROOT / "examples" / "decks" / "type1e-connor-legal.txt"
HUGE = "9" * 5000  # past Python's 4,300-digit limit of int()
BIG = "9" * 30  # within it, past every database's INTEGER


@pytest.mark.parametrize("header,cells,column", [
    ("id,name,restriction", f"ME-thrust-2,Thrust (2),{HUGE}", "restriction"),
    ("id,name,restriction", f"ME-thrust-2,Thrust (2),{BIG}", "restriction"),
    ("id,name,restriction", f"ME-thrust-2,Thrust (2),{HUGE}.0", "restriction"),
    ("id,name,restriction", "ME-thrust-2,Thrust (2),1e999", "restriction"),
    ("id,name,hand_icons", f"ME-thrust-2,Thrust (2),{BIG}", "hand_icons"),
    ("id,name,gem_master", f"ME-thrust-2,Thrust (2),-{HUGE}", "gem_master"),
    ("id,name,grid", f"ME-thrust-2,Thrust (2),{HUGE}", "grid"),
    ("id,name,deckbuilding", f"ME-thrust-2,Thrust (2),deck_min={HUGE}", "deckbuilding"),
    ("id,name,deckbuilding", f"ME-thrust-2,Thrust (2),deck_min={BIG}", "deckbuilding"),
    ("id,name,deckbuilding", f"ME-thrust-2,Thrust (2),max {HUGE}", "deckbuilding"),
])
def test_a_number_of_thousands_of_digits_is_a_bad_row(cli_env, tmp_path, header, cells, column):
    sheet = tmp_path / "cards.csv"
    sheet.write_text(f"{header}\n{cells}\n", encoding="utf-8")
    for args in (("cards", "import", str(sheet), "--dry-run"), ("check", str(DECK), "--cards", str(sheet)),
                 ("cards", "show", "Thrust (2)", "--cards", str(sheet)), ("cards", "lint", "--sheet", str(sheet))):
        r = run_cli(*args)
        assert r.crash is None, (args, r.crash)
        err = r.err.decode()
        assert r.code in (1, 2) and "Traceback" not in err, (args, r.code, err[-300:])
        if args[1] != "lint":
            assert r.code == 2 and f"row 2, column '{column}'" in err, (args, err[-400:])
            assert len(err) < 2000, (args, len(err))  # the value is named, cut, not printed five thousand times


LONG = "n" * 300  # a file name longer than any file system's 255 bytes


@pytest.mark.parametrize("args", [
    ("cards", "export", f"{LONG}.csv"),
    ("cards", "todo", str(DECK), "--out", f"{LONG}.csv"),
    ("tournament", "check", str(DECK), "--out", f"{LONG}.xlsx"),
    ("tournament", "check", str(DECK), "--out", f"{LONG}/report.csv"),
    ("collection", "export", f"{LONG}.xlsx"),
    ("collection", "missing", str(DECK), "--out", f"{LONG}.csv"),
    ("cards", "export", "/proc/self/status.csv"),
])
def test_an_output_that_cannot_be_written_is_one_line_and_exit_2(cli_env, tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    r = run_cli(*args)
    assert r.crash is None, r.crash
    err = r.err.decode().strip()
    assert r.code == 2 and err.startswith("error: ") and len(err.splitlines()) == 1, err
    assert list(tmp_path.iterdir()) == []  # nothing left behind


def test_a_name_just_short_enough_is_written(cli_env, tmp_path, monkeypatch):
    """The temporary file beside it has a longer name: it is shortened, not refused."""
    monkeypatch.chdir(tmp_path)
    name = "m" * 251 + ".csv"
    r = run_cli("cards", "export", name)
    assert r.crash is None and r.code == 0, r.err.decode()
    assert [p.name for p in tmp_path.iterdir()] == [name]


def test_a_hint_that_echoes_a_path_escapes_its_control_characters(cli_env, tmp_path):
    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "deck\x1b[31mred\x07.txt").write_bytes(DECK.read_bytes())
    r = run_cli("check", str(folder))
    assert r.crash is None and r.code in (0, 1)
    assert b"\x1b" not in r.out + r.err and b"\x07" not in r.out + r.err
    hint = [line for line in r.err.decode().splitlines() if "cards todo" in line]
    assert hint and "$'" in hint[0] and "\\x1b[31mred\\x07.txt'" in hint[0], r.err.decode()


@pytest.mark.parametrize("text,code", [("Kurgan Back Away", 0), ("zzzqqqxx", 1), ("!!!", 2), ("   ", 2), ("", 2)])
def test_cards_search_exit_codes(cli_env, text, code):
    """0 some card matches, 1 none does (as grep), 2 nothing to search for (bad input: one line)."""
    r = run_cli("cards", "search", text)
    assert r.crash is None and r.code == code, (r.code, r.err.decode())
    if code == 2:
        assert r.err.decode().startswith("error: nothing to search for")


@pytest.mark.parametrize("name", ["Nobody", "n" * 100_000, "\x1b[31mred\x07", " ", "\ud800"])
def test_an_account_the_cli_cannot_act_as_is_one_line_and_exit_2(cli_env, name):
    """--as names no account, or a name no account can have (too long, control characters, a lone surrogate)."""
    r = run_cli("collection", "list", "--as", name)
    lines = r.err.decode("utf-8", "replace").splitlines()
    assert r.crash is None and r.code == 2 and len(lines) == 1 and lines[0].startswith("error: "), (r.code, lines)
    assert b"\x1b" not in r.err and len(r.err) < 300


@pytest.mark.parametrize("args", [("stats", str(DECK), "--json"), ("check", str(DECK), "--json"),
                                  ("cards", "todo", str(DECK), "--out", "-"), ("cards", "search", "Thrust"),
                                  ("formats",)])
def test_standard_output_on_a_full_disk_is_one_line_and_exit_2(cli_env, args):
    import os
    import subprocess
    import sys
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    exe = str(Path(sys.executable).with_name("deckcheck"))
    with open("/dev/full", "w") as full:
        r = subprocess.run([exe, *args], stdout=full, stderr=subprocess.PIPE, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 2 and r.stderr.strip() == "error: cannot write standard output: the disk is full", \
        r.stderr[-500:]


@pytest.mark.parametrize("table", ["collection (id integer primary key, label text)", "saved_deck (title text)",
                                   "card (id text primary key)"])
def test_a_foreign_database_sharing_a_table_name_is_refused_before_any_write(tmp_path, table):
    import hashlib
    import sqlite3
    db = tmp_path / "other.db"
    con = sqlite3.connect(db)
    con.execute(f"create table {table}")
    con.commit()
    con.close()
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    sheet = tmp_path / "c.csv"
    sheet.write_text("card,set,quantity\nThrust (1),ME,3\n", encoding="utf-8")
    for args in (("collection", "import", str(sheet)), ("deck", "save", "x", str(DECK)), ("db", "init"),
                 ("db", "copy", str(db), str(tmp_path / "copy.db"))):
        r = run_cli(*args, *(("--db", str(db)) if args[:2] != ("db", "copy") else ()))
        assert r.crash is None, (args, r.crash)
        err = r.err.decode()
        assert r.code == 2 and "another program's SQLite database" in err, (args, err)
        assert hashlib.sha256(db.read_bytes()).hexdigest() == before and not (tmp_path / "copy.db").exists()
