"""Reading a SQLite file's header never drops the SQLite locks this process holds on it.

POSIX advisory locks belong to a process and a file: closing any descriptor of the file releases all of them.
The card index cache (its version stamp) and the check for another program's file read the database's header;
done with open()/close() while a connection of the same process was writing, the writer's lock vanished and
another process could write at the same time (https://www.sqlite.org/howtocorrupt.html, 2.2).
"""
from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest

from deckcheck.db import engine, indexcache

pytestmark = pytest.mark.skipif(not hasattr(__import__("os"), "pread"), reason="POSIX locks only")

PROBE = ("import sqlite3, sys\n"
         "con = sqlite3.connect(sys.argv[1], timeout=0, isolation_level=None)\n"
         "try:\n    con.execute('begin immediate'); print('got the lock')\n"
         "except sqlite3.OperationalError as exc:\n    print(exc)\n")


def another_process_may_write(path) -> bool:
    out = subprocess.run([sys.executable, "-c", PROBE, str(path)], capture_output=True, text=True, check=True)
    return out.stdout.strip() == "got the lock"


@pytest.fixture
def writing(tmp_path):
    """A database this process is writing to: a connection inside BEGIN IMMEDIATE (SQLite's RESERVED lock)."""
    path = tmp_path / "d.db"
    con = sqlite3.connect(path, isolation_level=None)
    con.execute("create table t (x)")
    con.execute("begin immediate")
    con.execute("insert into t values (1)")
    assert not another_process_may_write(path)
    yield path
    con.execute("rollback")
    con.close()


def test_the_index_stamp_keeps_the_writers_lock(writing):
    for _ in range(3):  # the first read and the later ones (a kept descriptor)
        assert indexcache.database_stamp(f"sqlite:///{writing}") is not None
    assert not another_process_may_write(writing)


def test_the_check_for_a_foreign_file_keeps_the_writers_lock(writing):
    engine.foreign_sqlite_problem(writing, {"t": ["x"]}, wait=0.1)
    assert not another_process_may_write(writing)


def test_a_replaced_file_is_read_anew(tmp_path):
    path = tmp_path / "d.db"
    path.write_bytes(b"first")
    assert engine.read_head(path, 5)[0] == b"first"
    path.unlink()
    path.write_bytes(b"again")
    assert engine.read_head(path, 5)[0] == b"again"
    path.unlink()
    with pytest.raises(OSError):
        engine.read_head(path, 5)


def test_kept_descriptors_of_files_gone_are_bounded(tmp_path, monkeypatch):
    monkeypatch.setattr(engine, "MAX_KEPT_FILES", 4)
    kept: dict[str, int] = {}
    monkeypatch.setattr(engine, "_HEADS", kept)
    try:
        for i in range(10):
            (tmp_path / f"{i}.db").write_bytes(b"x")
            engine.read_head(tmp_path / f"{i}.db", 1)
            (tmp_path / f"{i}.db").unlink()
        assert len(kept) <= 4
    finally:
        for fd in kept.values():
            __import__("os").close(fd)


def test_past_the_bound_a_live_databases_lock_is_kept(writing, tmp_path, monkeypatch):
    """More files read than the bound, none gone: the writer's database, read first, keeps its descriptor (closing
    it would drop the writer's lock)."""
    monkeypatch.setattr(engine, "MAX_KEPT_FILES", 2)
    kept: dict[str, int] = {}
    monkeypatch.setattr(engine, "_HEADS", kept)
    try:
        engine.read_head(writing, 1)
        for i in range(3):
            (tmp_path / f"{i}.other").write_bytes(b"x")
            engine.read_head(tmp_path / f"{i}.other", 1)
        assert not another_process_may_write(writing)
    finally:
        for fd in kept.values():
            __import__("os").close(fd)
