"""Two card writers at once (two `cards import` of one sheet, started together) both succeed, one after the
other: the second reads what the first wrote, on SQLite and PostgreSQL.

Before, `cards import` read the stored cards and their sources outside its write transaction (SQLite's
deferred transaction, PostgreSQL's read committed), so two imports that overlapped both decided from the
values as they were before either wrote: both reported every row as updated and recorded each change twice
in the cards' history (a bundle update meeting a sheet import at that moment would replace a person's value
it had read as a weaker source's). Where the reads ran inside the transaction, SQLite answered the second
"database is locked" at once. To make the two overlap every time, the test holds the write lock (SQLite) or
the rows' locks (PostgreSQL) until both commands are waiting, then lets them go.
"""
from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXE = str(Path(sys.executable).with_name("deckcheck"))
CARD = "ME-riposte-ul"  # its restriction is unknown in the bundle
SHEET = f"id,name,restriction\n{CARD},Riposte (UL),2\n"


def start_import(db: str, sheet: Path) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k != "DECKCHECK_DB"}
    return subprocess.Popen([EXE, "cards", "import", str(sheet), "--db", db], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env | {"COLUMNS": "200"})


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def wait_until_waiting(procs: list[subprocess.Popen], ready, seconds: float = 120) -> None:
    """Until `ready()` and no process has used CPU for a second (each blocked on a lock)."""
    end = time.monotonic() + seconds
    before = None
    while time.monotonic() < end:
        assert all(p.poll() is None for p in procs), [p.communicate() for p in procs]
        now = [cpu_ticks(p.pid) for p in procs]
        if ready() and now == before:
            return
        before = now
        time.sleep(1.0)
    raise AssertionError("the imports did not reach the database")


def opened(pid: int, path: Path) -> bool:
    try:
        return any(os.readlink(f"/proc/{pid}/fd/{fd}") == str(path) for fd in os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return False


def waiting_on_locks(engine) -> int:
    from sqlalchemy import text
    with engine.connect() as con:
        return con.execute(text("select count(*) from pg_stat_activity where wait_event_type = 'Lock' "
                                "and datname = current_database()")).scalar_one()


def summaries(procs: list[subprocess.Popen]) -> list[str]:
    lines = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, (out, err)
        lines.append(re.sub(r"^.*?: ", "", out.splitlines()[0]))
    return sorted(lines)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc to see the commands wait")
def test_two_imports_at_once_run_one_after_the_other(db_url, tmp_path):
    from deckcheck.library.facts import Facts
    from deckcheck.db.store import Store
    store = Store(db_url)
    store.init()
    store.dispose()
    sheet = tmp_path / "restrictions.csv"
    sheet.write_text(SHEET)
    path = Path(db_url.removeprefix("sqlite:///")) if db_url.startswith("sqlite") else None
    if path is not None:
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("begin immediate")  # SQLite's write lock: readers go on, writers wait
        procs = [start_import(db_url, sheet) for _ in range(2)]
        try:
            wait_until_waiting(procs, lambda: all(opened(p.pid, path) for p in procs))
        finally:
            holder.execute("rollback")
            holder.close()
    else:
        from sqlalchemy import create_engine, text
        engine = create_engine(db_url)
        with engine.connect() as rows:
            rows.execute(text("select id from card where id = :c for update"), {"c": CARD})  # its row, locked
            procs = [start_import(db_url, sheet) for _ in range(2)]
            try:
                wait_until_waiting(procs, lambda: waiting_on_locks(engine) == 2)
            finally:
                rows.rollback()
        engine.dispose()
    assert summaries(procs) == ["added 0, updated 0, unchanged 1", "added 0, updated 1, unchanged 0"]
    store = Store(db_url)
    try:
        changes = [c for c in Facts(store).history(CARD) if c.field == "restriction"]
    finally:
        store.dispose()
    assert len(changes) == 1, changes  # recorded once


HOLDER = ("import sys, time\n"
          "from deckcheck.db.store import Store\n"
          "with Store(sys.argv[1]).begin() as con:\n"
          "    print('writing', flush=True)\n"
          "    time.sleep(float(sys.argv[2]))\n")


def test_a_writer_waits_for_a_long_one_past_the_lock_wait(sqlite_url):
    """SQLite's own wait gives up after the lock wait ("database is locked"); a writer behind a long one (an import
    of 200,000 rows on a slow disk) waits its turn instead, however long that takes."""
    from deckcheck.db.store import Store, write_meta
    Store(sqlite_url).init(empty=True)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, sqlite_url, "3"], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "writing\n"
        store = Store(sqlite_url + "?timeout=0.5")  # SQLite's own wait: half a second
        start = time.monotonic()
        with store.begin() as con:
            write_meta(con, {"after": "the long one"})
        assert time.monotonic() - start > 1.0  # it did wait
        store.dispose()
    finally:
        holder.wait(60)
    assert holder.returncode == 0


FLOCK_PROBE = ("import fcntl, os, sys\n"
               "fd = os.open(sys.argv[1], os.O_RDONLY)\n"
               "try:\n    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB); print('free')\n"
               "except BlockingIOError:\n    print('taken')\n")


def flock_seen_from_another_process(path: Path) -> str:
    return subprocess.run([sys.executable, "-c", FLOCK_PROBE, str(path)], capture_output=True, text=True,
                          check=True).stdout.strip()


def mount_table(tmp_path: Path, kind: str) -> Path:
    table = tmp_path / "mountinfo"
    real = os.path.realpath(tmp_path)
    point = real.replace(" ", "\\040")
    table.write_text("22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
                     f"40 22 0:50 / {point} rw,relatime shared:20 - {kind} server:/export rw,vers=4.2\n"
                     f"41 22 0:51 / {point}-other rw - ext4 /dev/sdb1 rw\n")
    return table


@pytest.mark.skipif(not hasattr(os, "pread") or not Path("/proc/self/mountinfo").exists(), reason="Linux flock")
@pytest.mark.parametrize("kind, during", [("ext4", "taken"), ("nfs4", "free"), ("cifs", "free")])
def test_the_turn_takes_no_flock_where_flock_is_a_posix_lock(tmp_path, monkeypatch, kind, during):
    """On NFS and SMB Linux makes flock() a POSIX lock of the whole file, the kind SQLite's are: releasing it would
    release the SQLite locks of every connection of the process. There the turn is left to SQLite."""
    from deckcheck.db import engine
    folder = tmp_path / "club share"
    folder.mkdir()
    path = folder / "d.db"
    path.write_bytes(b"")
    monkeypatch.setattr(engine, "MOUNTINFO", str(mount_table(folder, kind)))
    monkeypatch.setattr(engine, "_SHARED", {})
    assert engine.file_system_type(str(path)) == kind
    assert engine.file_system_type(str(folder) + "-other/x.db") == "ext4"
    assert engine.file_system_type("/") == "ext4"
    with engine.writer_turn(path):
        assert flock_seen_from_another_process(path) == during
        with engine.writer_turn(path):  # the same thread again: goes on
            pass
        assert flock_seen_from_another_process(path) == during
    assert flock_seen_from_another_process(path) == "free"
