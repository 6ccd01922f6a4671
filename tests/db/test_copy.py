"""`deckcheck db copy SRC DST`: a personal SQLite file to a club's PostgreSQL and back, nothing lost — every table's
rows and checksum equal, the exports of cards (with provenance), collections and saved decks identical — and a
non-empty target refused unless --replace."""
from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import LEGAL, PG_ENV, ROOT, _pg_url, fresh_pg
from inproc import run_cli

EXE = str(Path(sys.executable).with_name("deckcheck"))


def deckcheck(*args: str, db: str | None = None, cwd: Path = ROOT, real: bool = False) -> subprocess.CompletedProcess:
    """`deckcheck ARGS [--db DB]` run in `cwd` with no DECKCHECK_DB and 200 columns: in this process (tests/inproc.py:
    the same main(), exit code and streams; a crash is in stderr as its traceback), or `real`ly, as the installed
    program in a process of its own."""
    argv = [*args, *(["--db", db] if db else [])]
    env = {k: v for k, v in os.environ.items() if k != "DECKCHECK_DB"} | {"COLUMNS": "200"}
    if real:
        return subprocess.run([EXE, *argv], capture_output=True, text=True, cwd=cwd, env=env, timeout=300)
    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        with contextlib.chdir(cwd):
            r = run_cli(*argv)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return subprocess.CompletedProcess(argv, r.code, r.text, r.err.decode("utf-8", "replace") + (r.crash or ""))


@pytest.fixture
def pg_url() -> str:
    url = _pg_url()
    if not url:
        pytest.skip(f"{PG_ENV} not set (scripts/test.sh starts a PostgreSQL server and sets it)")
    return fresh_pg(url)


def filled(path: Path) -> str:
    """A personal database with a bit of everything: cards set from a sheet (provenance), two collections,
    saved decks, and a desk event with submissions and a deck check."""
    db = str(path)
    for args in (("cards", "import", "examples/cards/my-2e-cards.csv"),
                 ("collection", "import", "examples/collection/my-binder.csv"),
                 ("collection", "import", "examples/collection/deckbox-export.csv", "--collection", "trade binder"),
                 ("deck", "save", "connor", "examples/decks/type1e-connor-legal.txt"),
                 ("deck", "save", "kurgan", "examples/decks/type1e-kurgan-illegal.txt")):
        r = deckcheck(*args, db=db)
        assert r.returncode == 0, (args, r.stderr)
    from deckcheck.library.desk import Desk, RateLimit
    desk = Desk(f"sqlite:///{db}", rate_limit=RateLimit(0))
    event, _token = desk.create_event("Spring Open", "type1e", expected=["Anna", "Bo"])
    for player in ("Anna", "Bo", "Anna"):
        desk.submit_deck(event.id, player, LEGAL)
    desk.store.dispose()
    return db


def exports(db: str, folder: Path) -> dict[str, bytes]:
    """What a user gets out of a database: cards with provenance, every collection, saved decks, listings."""
    folder.mkdir()
    for args in (("cards", "export", "cards.csv", "--provenance"), ("collection", "export", "all.csv", "--all"),
                 ("deck", "export", "connor", "connor.json"), ("deck", "export", "kurgan", "kurgan.txt")):
        r = deckcheck(*args, db=db, cwd=folder)
        assert r.returncode == 0, (args, r.stderr)
    found = {p.name: p.read_bytes() for p in sorted(folder.iterdir())}
    listings: list[tuple[str, ...]] = [("collection", "list", "--collection", "trade binder"), ("deck", "list"),
                                       ("cards", "stats")]
    for listing in listings:
        r = deckcheck(*listing, db=db)
        assert r.returncode == 0, (listing, r.stderr)
        found[" ".join(listing)] = r.stdout.encode()
    return found


def table_sums(url: str) -> dict[str, tuple[int, str]]:
    from sqlalchemy import create_engine
    from sqlmodel import SQLModel

    from deckcheck.db import models  # noqa: F401
    from deckcheck.db.copy import checksums
    engine = create_engine(url)
    try:
        with engine.connect() as con:
            return checksums(con, SQLModel.metadata)
    finally:
        engine.dispose()


def test_sqlite_to_postgresql_and_back_loses_nothing(tmp_path, pg_url):
    source = filled(tmp_path / "mine.db")
    up = deckcheck("db", "copy", source, pg_url, real=True)  # the one run of the installed program
    assert up.returncode == 0, up.stderr
    assert "every count and checksum matches" in up.stdout and "DIFFERS" not in up.stdout
    lines = {line.split()[0]: line for line in up.stdout.splitlines() if "checksum" in line and " rows " in line}
    assert {"card", "card_source", "collection", "collection_entry", "saved_deck", "saved_deck_card", "desk_event",
            "desk_submission", "desk_entry", "deckcheck_meta"} <= set(lines)
    assert " 0 rows" not in lines["desk_submission"] and " 0 rows" not in lines["card_source"]
    back = tmp_path / "back.db"
    down = deckcheck("db", "copy", pg_url, str(back))
    assert down.returncode == 0, down.stderr
    original = table_sums(f"sqlite:///{source}")
    assert table_sums(pg_url) == original
    assert table_sums(f"sqlite:///{back}") == original
    assert exports(str(back), tmp_path / "b") == exports(source, tmp_path / "a")
    # the club's copy is a working database: new rows take new ids (PostgreSQL's sequences moved on)
    added = deckcheck("collection", "add", "Thrust (1)", "--set", "ME", "--collection", "new one", db=pg_url)
    assert added.returncode == 0, added.stderr
    saved = deckcheck("deck", "save", "third", "examples/decks/type1e-methos.json", db=pg_url)
    assert saved.returncode == 0, saved.stderr


def test_a_target_that_holds_rows_is_refused_unless_replace(tmp_path):
    source = filled(tmp_path / "mine.db")
    other = tmp_path / "other.db"
    assert deckcheck("deck", "save", "mine", "examples/decks/type1e-kurgan-illegal.txt", db=str(other)).returncode == 0
    before = table_sums(f"sqlite:///{other}")
    r = deckcheck("db", "copy", source, str(other))
    assert r.returncode == 2 and "is not empty" in r.stderr and "--replace" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and table_sums(f"sqlite:///{other}") == before
    r = deckcheck("db", "copy", source, str(other), "--replace")
    assert r.returncode == 0, r.stderr
    assert table_sums(f"sqlite:///{other}") == table_sums(f"sqlite:///{source}")


@pytest.mark.parametrize("case", ["missing source", "same file", "not deckcheck"])
def test_what_cannot_be_copied_is_refused_with_nothing_changed(tmp_path, case):
    import sqlite3
    target = tmp_path / "t.db"
    if case == "missing source":
        r = deckcheck("db", "copy", str(tmp_path / "none.db"), str(target))
        words = "does not exist"
    elif case == "same file":
        source = filled(tmp_path / "mine.db")
        r = deckcheck("db", "copy", source, str(tmp_path / "." / "mine.db"))
        words = "same database"
    else:
        con = sqlite3.connect(tmp_path / "notes.db")
        con.execute("create table note (x)")
        con.commit()
        con.close()
        r = deckcheck("db", "copy", str(tmp_path / "notes.db"), str(target))
        words = "another program's SQLite database"
    assert r.returncode == 2 and words in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert not target.exists() or target.stat().st_size == 0 or case == "missing source"


def test_copy_streams_in_batches(tmp_path, monkeypatch):
    """The copy never holds a table whole: with a batch of 100 rows, each insert gets at most 100."""
    from deckcheck.db import copy as copy_module
    source = filled(tmp_path / "mine.db")
    monkeypatch.setattr(copy_module, "BATCH", 100)
    seen: list[int] = []
    calls: dict[str, int] = {}

    def progress(table: str, rows: int) -> None:
        seen.append(rows - calls.get(table, 0))
        calls[table] = rows
    result = copy_module.copy_database(source, str(tmp_path / "t.db"), progress=progress)
    assert result.verified and max(seen) == 100 and calls["card_source"] == result.tables[
        [t.name for t in result.tables].index("card_source")].rows > 1000
