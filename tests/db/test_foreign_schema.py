"""Another program's SQLite file is judged by its whole schema (CONTRACTS §5): one whose tables merely share a name with
deckcheck's (a record collection's `collection(id, name, artist, year)`) is refused by every command that opens a
database, and its bytes are the same afterwards."""
from __future__ import annotations

import hashlib
import sqlite3
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from inproc import run_cli  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
DECK = str(ROOT / "examples/decks/type1e-connor-legal.txt")
SHEET = "card,set,quantity,condition\nThrust (1),ME,3,LP\n"
CARD_SHEET = "id,name,type,edition,set,cost\nzz-1,Zz Test,Event,1,ME,0\n"
FOREIGN = {
    "collection-id-name": "create table collection (id integer primary key, name text unique);"
                          "insert into collection (name) values ('stamps');",
    "record-collection": "create table collection (id integer primary key, name text, artist text, year integer);"
                         "insert into collection (name, artist, year) values ('Blue Train', 'Coltrane', 1958);",
    "decks-of-another-app": "create table saved_deck (name text primary key, format text, text text, saved_at text);"
                            "create table collection (id integer primary key, name text);",
    # no table at all, yet not empty: another program's view, its version stamp, its application id
    "only-a-view": "create view notes as select 1 as note; pragma user_version = 7;",
    "only-a-user-version": "pragma user_version = 7;",
    "only-an-application-id": "pragma application_id = 1234;",
}
# Every command that takes --db, with the arguments it needs (IN: a file it reads, OUT: a file it would write;
# FOREIGN: the foreign file itself, where the database is an argument).
COMMANDS: dict[str, tuple[str, ...]] = {
    "cards export": ("OUT.csv",),
    "cards facts export": ("OUT.csv",),
    "cards import": ("CARDS",),
    "cards lint": (),
    "cards search": ("Thrust",),
    "cards sets": (),
    "cards show": ("Thrust (1)",),
    "cards stats": (),
    "cards todo": ("DECK",),
    "check": ("DECK",),
    "collection add": ("Thrust (1)", "--set", "ME", "--qty", "1"),
    "collection export": ("OUT.csv",),
    "collection import": ("SHEET",),
    "collection imports": (),
    "collection list": (),
    "collection missing": ("DECK",),
    "collection remove": ("Thrust (1)", "--set", "ME"),
    "collection stats": (),
    "collection trades": (),
    "collection undo": (),
    "db init": (),
    "db update": (),
    "deck delete": ("x",),
    "deck diff": ("x@1", "x@2"),
    "deck restore": ("x", "1"),
    "deck versions": ("x",),
    "deck export": ("x", "OUT.txt"),
    "deck list": (),
    "deck save": ("x", "DECK"),
    "deck show": ("x",),
    "diff": ("DECK", "DECK"),
    "serve": ("--port", "1"),  # uvicorn is not started here (see the test): the database is opened before it
    "stats": ("DECK",),
    "tournament check": ("DECK",),
    "users add": ("Ann", "--password-file", "SHEET"),  # any file: the database is refused before it is read
    "users list": (),
    "users passwd": ("Ann", "--password-file", "SHEET"),
    "users remove": ("Ann",),
    "users roles": ("Ann", "player"),
}


def db_commands() -> list[str]:
    """Every CLI command that has a --db option, from the command tree itself (a new one is not left out)."""
    import typer

    from deckcheck.cli.commands import app

    def walk(command, path: tuple[str, ...]):
        subs = getattr(command, "commands", None)
        if subs:
            for name, sub in sorted(subs.items()):
                yield from walk(sub, path + (name,))
        elif any("--db" in getattr(p, "opts", ()) for p in command.params):
            yield " ".join(path)
    return list(walk(typer.main.get_command(app), ()))


def test_every_command_that_opens_a_database_is_in_the_sweep():
    assert sorted(db_commands()) == sorted(COMMANDS)


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(params=sorted(FOREIGN))
def foreign(request, tmp_path) -> Path:
    path = tmp_path / "other.db"
    con = sqlite3.connect(path)
    con.executescript(FOREIGN[request.param])
    con.commit()
    con.close()
    return path


def arguments(template: tuple[str, ...], tmp_path: Path) -> list[str]:
    (tmp_path / "c.csv").write_text(SHEET)
    (tmp_path / "cards.csv").write_text(CARD_SHEET)
    named = {"DECK": DECK, "SHEET": str(tmp_path / "c.csv"), "CARDS": str(tmp_path / "cards.csv")}
    return [named.get(a, str(tmp_path / a) if a.startswith("OUT") else a) for a in template]


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_foreign_file_sharing_table_names_is_refused_by_every_command_and_left_untouched(command, foreign,
                                                                                          tmp_path, monkeypatch):
    import uvicorn
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: None)  # `serve` must refuse before it would listen
    before, files = sha(foreign), set(tmp_path.iterdir())
    r = run_cli(*command.split(), *arguments(COMMANDS[command], tmp_path), "--db", str(foreign))
    err = r.err.decode()
    assert r.crash is None, r.crash
    assert r.code == 2 and "another program's SQLite database" in err and "left untouched" in err, (r.code, err)
    assert sha(foreign) == before
    made = {p.name for p in set(tmp_path.iterdir()) - files}
    assert made <= {"c.csv", "cards.csv"}, made  # no output file, no journal left beside the database


@pytest.mark.parametrize("direction", ["from", "to"])
def test_db_copy_refuses_a_foreign_file_on_either_side(foreign, tmp_path, direction):
    ours = tmp_path / "ours.db"
    assert run_cli("db", "init", "--db", str(ours)).code == 0
    before = sha(foreign)
    source, target = (foreign, tmp_path / "copy.db") if direction == "from" else (ours, foreign)
    r = run_cli("db", "copy", str(source), str(target))
    assert r.crash is None, r.crash
    assert r.code == 2 and sha(foreign) == before, r.err.decode()
    assert not (tmp_path / "copy.db").exists()


def test_a_deckcheck_database_is_still_ours(tmp_path):
    """The whole-schema check lets through what deckcheck made: a new file, one whose first set-up stopped after the
    card table, and one holding a table of a newer deckcheck."""
    from sqlmodel import SQLModel

    from deckcheck.db import models  # noqa: F401
    from deckcheck.db.engine import foreign_sqlite_problem
    ours = {name: [c.name for c in t.columns] for name, t in SQLModel.metadata.tables.items()}
    path = tmp_path / "d.db"
    assert run_cli("db", "init", "--db", str(path)).code == 0
    assert foreign_sqlite_problem(path, ours) is None
    con = sqlite3.connect(path)
    con.execute("create table desk_future (id integer primary key)")  # a newer deckcheck's table
    con.commit()
    con.close()
    assert foreign_sqlite_problem(path, ours) is None
    half = tmp_path / "half.db"
    con = sqlite3.connect(half)
    from sqlalchemy import create_engine
    con.close()
    engine = create_engine(f"sqlite:///{half}")
    SQLModel.metadata.tables["card"].create(engine)  # a first set-up that stopped after its first table
    engine.dispose()
    assert foreign_sqlite_problem(half, ours) is None
    assert run_cli("collection", "list", "--db", str(half)).code == 0
