"""--db naming what is not (or not now) a usable deckcheck database: exit 2, a clear message, nothing changed."""
from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CRASH, another_program_writing

ROOT = Path(__file__).resolve().parents[2]
EXE = str(Path(sys.executable).with_name("deckcheck"))
SHEET = "card,set,quantity,condition\nThrust (1),ME,3,LP\nConnor MacLeod Persona,SE,1,NM\n"


def deckcheck(*args: str, db: str, timeout: float = 120) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "DECKCHECK_DB"}
    return subprocess.run([EXE, *args, "--db", db], capture_output=True, text=True, cwd=ROOT, timeout=timeout,
                          env=env | {"COLUMNS": "200"})


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def foreign(tmp_path) -> Path:
    path = tmp_path / "notes.db"
    con = sqlite3.connect(path)
    con.executescript("create table note (id integer primary key, text text); "
                      "insert into note (text) values ('keep me'), ('and me');")
    con.commit()
    con.close()
    return path


@pytest.mark.parametrize("args", [("collection", "list"), ("collection", "import", "SHEET"), ("db", "init"),
                                  ("check", "examples/decks/type1e-connor-legal.txt"), ("cards", "stats")])
def test_another_programs_database_is_refused_and_left_untouched(foreign, tmp_path, args):
    (tmp_path / "c.csv").write_text(SHEET)
    before = sha(foreign)
    r = deckcheck(*[str(tmp_path / "c.csv") if a == "SHEET" else a for a in args], db=str(foreign))
    assert r.returncode == 2 and "another program's SQLite database (tables note)" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and sha(foreign) == before


def test_a_file_that_is_not_sqlite_is_refused_an_empty_one_becomes_the_database(tmp_path):
    pdf = tmp_path / "report.pdf"
    pdf.write_bytes(b"%PDF-1.4\n" + bytes(range(256)) * 40)
    before = sha(pdf)
    r = deckcheck("collection", "list", db=str(pdf))
    assert r.returncode == 2 and "not a SQLite database" in r.stderr and sha(pdf) == before
    empty = tmp_path / "empty.db"
    empty.touch()
    assert deckcheck("collection", "list", db=str(empty)).returncode == 0 and empty.stat().st_size > 0


def test_a_folder_is_refused(tmp_path):
    r = deckcheck("collection", "list", db=str(tmp_path))
    assert r.returncode == 2 and "is a folder" in r.stderr and "Traceback" not in r.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_database_locked_by_another_writer(tmp_path):
    db = tmp_path / "d.db"
    (tmp_path / "c.csv").write_text(SHEET)
    assert deckcheck("collection", "import", str(tmp_path / "c.csv"), db=str(db)).returncode == 0
    with another_program_writing(db):
        # the default wait is engine.LOCK_WAIT_S (15 s); the URL's own timeout shortens it for the test
        r = deckcheck("collection", "import", str(tmp_path / "c.csv"), db=f"sqlite:///{db}?timeout=0.5")
        assert r.returncode == 2 and "another program is writing to it" in r.stderr, r.stderr
        assert "nothing was changed" in r.stderr and "Traceback" not in r.stderr
    from deckcheck.library.api import CollectionApp
    assert [h.quantity for h in CollectionApp(str(db)).collections.holdings() if h.card.id == "ME-thrust-1"] == [3]



def test_the_urls_wait_for_a_writer_is_the_wait_of_every_read(tmp_path, monkeypatch, shared_db):
    """A SQLite URL's ?timeout= is how long a command waits for another writer, the fast read of the cards (sqlite3
    alone) included: that read waited the default 15 s first, so a command told to wait 0.5 s took 15.5."""
    import shutil

    import deckcheck.db.engine as engine
    from deckcheck.db.store import Store
    db = tmp_path / "d.db"
    shutil.copy(shared_db.removeprefix("sqlite:///"), db)
    waits: list[float] = []
    open_read_only = engine.open_read_only

    def recorded(path, wait=engine.LOCK_WAIT_S):
        waits.append(wait)
        return open_read_only(path, wait)
    monkeypatch.setattr(engine, "open_read_only", recorded)
    assert Store(f"sqlite:///{db}?timeout=0.5").cards() and waits == [0.5]
    assert Store(f"sqlite:///{db}").cards() and waits == [0.5, engine.LOCK_WAIT_S]


SETUP = """
import os, subprocess, sys
fs = os.environ["FS"]
db = os.path.join(fs, "d.db")
exe = os.path.join(os.path.dirname(sys.executable), "deckcheck")
subprocess.run([exe, "collection", "import", os.path.join(os.environ["DIR"], "small.csv"), "--db", db], check=True,
               capture_output=True)
if os.environ.get("FILL"):
    with open(os.path.join(fs, "filler"), "wb") as f:  # leave about 48 KB free
        st = os.statvfs(fs)
        f.write(b"\\0" * max(0, st.f_bavail * st.f_frsize - 48 * 1024))
"""
SCRIPT = """
import hashlib, json, os, subprocess, sys
db = os.path.join(os.environ["FS"], "d.db")
exe = os.path.join(os.path.dirname(sys.executable), "deckcheck")
before = hashlib.sha256(open(db, "rb").read()).hexdigest()
r = subprocess.run([exe, "collection", "import", os.path.join(os.environ["DIR"], "big.csv"), "--mode", "replace",
                    "--db", db], capture_output=True, text=True)
listed = subprocess.run([exe, "collection", "list", "--db", db], capture_output=True, text=True)
print(json.dumps({"code": r.returncode, "err": r.stderr, "same": hashlib.sha256(open(db, "rb").read()).hexdigest()
                  == before, "list": listed.returncode, "out": listed.stdout}))
"""


def big_sheet(path: Path, rows: int = 4000) -> None:
    from deckcheck.db.store import bundled_cards
    cards = [c for c in bundled_cards() if c.set][:rows]
    path.write_text("card,card_id,quantity,notes\n" + "".join(f"x,{c.id},{i % 7 + 1},{'n' * 60}\n"
                                                             for i, c in enumerate(cards)), encoding="utf-8")


@pytest.mark.parametrize("fill", [True, False], ids=["full disk", "read-only disk"])
def test_full_or_read_only_disk_during_import_changes_nothing(small_fs, tmp_path, fill, monkeypatch):
    (tmp_path / "small.csv").write_text(SHEET)
    big_sheet(tmp_path / "big.csv")
    monkeypatch.setenv("FILL", "1" if fill else "")
    r = small_fs(SETUP, SCRIPT, size="16m", readonly=not fill)
    assert r.returncode == 0, r.stderr
    found = json.loads(r.stdout)
    assert found["code"] == 2 and found["same"], found
    assert ("the disk is full" if fill else "it is read-only") in found["err"] and "Traceback" not in found["err"]
    assert found["list"] == 0 and "Thrust (1)" in found["out"]  # the collection can still be read


def test_lock_wait_is_stated_in_the_message():
    from deckcheck.db.engine import LOCK_WAIT_S
    from deckcheck.db.engine import trouble
    assert f"waited {LOCK_WAIT_S:g} s" in str(trouble(sqlite3.OperationalError("database is locked")))




@pytest.mark.parametrize("journal", ["delete", "wal"])
def test_a_write_killed_halfway_is_rolled_back_on_the_next_start(tmp_path, journal):
    """A crash in the middle of a write leaves a hot journal (or a write-ahead log): the next command replays
    it and goes on with the database as it was before that write, instead of calling it read-only."""
    db = tmp_path / "d.db"
    (tmp_path / "c.csv").write_text(SHEET)
    assert deckcheck("collection", "import", str(tmp_path / "c.csv"), db=str(db)).returncode == 0
    subprocess.run([sys.executable, "-c", CRASH, str(db), journal], check=False)
    left = db.with_name("d.db-journal" if journal == "delete" else "d.db-wal")
    assert left.exists() and left.stat().st_size > 0
    if journal == "wal":
        db.with_name("d.db-shm").unlink()  # what a reboot (a tmpfs) or a copy of the files leaves
    r = deckcheck("collection", "list", db=str(db))
    assert r.returncode == 0, r.stderr
    assert "Thrust (1)" in r.stdout and "3" in r.stdout and "103" not in r.stdout
    con = sqlite3.connect(db)
    try:
        assert con.execute("pragma integrity_check").fetchall() == [("ok",)]
        assert con.execute("select count(*) from deckcheck_meta where key like 'half-%'").fetchone() == (0,)
    finally:
        con.close()
    written = deckcheck("collection", "add", "Thrust (1)", "--set", "ME", "--qty", "1", "--condition", "LP", db=str(db))
    assert written.returncode == 0, written.stderr  # and it takes writes again


@pytest.mark.parametrize("table", ["collection (id integer primary key, title text, owner text)",
                                   "card (sku text primary key, price real)",
                                   "deckcheck_meta (k text, v text)"])
def test_a_foreign_database_with_a_table_named_like_ours_is_refused_untouched(tmp_path, table):
    path = tmp_path / "shop.db"
    con = sqlite3.connect(path)
    con.execute(f"create table {table}")
    con.commit()
    con.close()
    before = sha(path)
    (tmp_path / "c.csv").write_text(SHEET)
    for args in (("collection", "import", str(tmp_path / "c.csv")), ("db", "init"), ("collection", "list")):
        r = deckcheck(*args, db=str(path))
        assert r.returncode == 2 and "another program's SQLite database" in r.stderr, r.stderr
        assert "Traceback" not in r.stderr and sha(path) == before
