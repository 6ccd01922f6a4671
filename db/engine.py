"""Which database to use (CONTRACTS.md §5), and a light check whether it is ready, without SQLAlchemy."""
from __future__ import annotations

import os
import re
import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator, Mapping

from . import rawsql  # the SQL text of a look at a SQLite file before SQLAlchemy opens it

ENV = "DECKCHECK_DB"
BUNDLED_DIR = Path(__file__).resolve().parent / "data"
BUNDLED_SHEETS = ("highlander-1e.csv", "highlander-2e.csv")
# How long a command waits for a database another process is writing before it gives up with a
# clear message: longer than the write phase of a 200,000-row collection import (a few seconds),
# short enough that a stuck program is reported while the user still waits for an answer.
LOCK_WAIT_S = 15.0
SQLITE_MAGIC = b"SQLite format 3\x00"


def default_path() -> Path:
    """The SQLite file in the user's data directory."""
    from platformdirs import user_data_dir
    return Path(user_data_dir("deckcheck", appauthor=False)) / "deckcheck.db"


def resolve_url(option: str | None = None) -> str:
    """--db, else $DECKCHECK_DB, else the default SQLite file. A bare path means a SQLite file."""
    url = option or os.environ.get(ENV) or ""
    if not url:
        return f"sqlite:///{default_path()}"
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser().resolve()}"
    for plain in ("postgresql://", "postgres://"):  # the driver deckcheck installs is psycopg 3
        if url.startswith(plain):
            return "postgresql+psycopg://" + url[len(plain):]
    return url


def sqlite_path(url: str) -> Path | None:
    """The file of a sqlite:/// URL, or None for another database (or an in-memory one)."""
    for prefix in ("sqlite:///", "sqlite+pysqlite:///"):
        if url.startswith(prefix):
            rest = url[len(prefix):].split("?")[0]
            return None if rest in ("", ":memory:") else Path(rest)
    return None


def ready_sqlite(url: str, wait: float = LOCK_WAIT_S) -> sqlite3.Connection | None:
    """An open sqlite3 connection when the URL names an initialised SQLite file; else None. A file another process
    keeps locked for longer than `wait` seconds gives None too (the model path then says so)."""
    path = sqlite_path(url)
    if path is None or not path.is_file():
        return None
    try:
        con = open_read_only(path, wait)
    except sqlite3.Error:
        return None
    try:
        found = con.execute(rawsql.INITIALIZED_SQL).fetchone()
        version = con.execute(rawsql.SCHEMA_SQL).fetchone()
        if found is not None and version != (str(rawsql.SCHEMA_VERSION),):
            found = None  # another schema version: the SQLAlchemy path migrates an earlier one, refuses a newer
    except sqlite3.Error:
        found = None
    if found is None:
        con.close()
        return None
    return con


# A process must never close a file descriptor of a SQLite database it has open: POSIX advisory locks belong to
# the process and the file, so closing ANY descriptor of the file drops every lock SQLite's connections of this
# process hold on it (https://www.sqlite.org/howtocorrupt.html, 2.2) -- a writer's lock vanishes mid-transaction
# and another process writes at the same time. Reading the header with open()/close() did exactly that. So the
# header is read through a descriptor kept open for the life of the process, one per file (by identity).
_HEADS: dict[str, int] = {}
_HEADS_LOCK = threading.Lock()
MAX_KEPT_FILES = 64  # past this many kept descriptors, those of files gone or replaced are closed (never a live one's)


def read_head(path: Path | str, size: int = 100) -> tuple[bytes, os.stat_result]:
    """The first `size` bytes of a file and its status, read without ever closing a descriptor of a file that
    is still the one at `path` (see above). OSError when it cannot be read."""
    if not hasattr(os, "pread"):  # Windows: no POSIX locks to lose, and no pread
        with open(path, "rb") as f:
            return f.read(size), os.fstat(f.fileno())
    fd = kept_descriptor(path)
    return os.pread(fd, size, 0), os.fstat(fd)


def kept_descriptor(path: Path | str) -> int:
    """A read-only descriptor of the file at `path`, opened once and kept for the process's life (the header reads
    and the writers' turn share it); made again when the file was replaced or removed. OSError when it cannot be
    opened."""
    key = os.path.abspath(path)
    with _HEADS_LOCK:
        fd = _HEADS.get(key)
        if fd is not None:
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(key))
            except OSError:
                same = False
            if not same:  # replaced or removed: this descriptor's file is not the database any more
                del _HEADS[key]
                os.close(fd)
                fd = None
        if fd is None:
            fd = os.open(key, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
            if len(_HEADS) >= MAX_KEPT_FILES:
                _forget_one()
            _HEADS[key] = fd
        return fd


def _forget_one() -> None:
    """Close the kept descriptors of files gone or replaced. A descriptor of a file still at its path stays open
    however many there are: closing it would drop the locks this process's SQLite connections hold on that file
    (the very fault read_head exists to avoid); a process touches few databases, a test run a few hundred."""
    for key, fd in list(_HEADS.items()):
        try:
            gone = not os.path.samestat(os.fstat(fd), os.stat(key))
        except OSError:
            gone = True
        if gone:
            del _HEADS[key]
            os.close(fd)


# Writers of a SQLite file take turns before they ask SQLite for its write lock. SQLite makes a writer that finds the
# file locked sleep and retry (up to 100 ms at a time, up to the lock wait, then "database is locked"), so a queue
# of writers waited seconds and a long import made the next writer give up. Here the threads of a process queue on
# a lock and the processes on an advisory lock of the file (flock, which SQLite's own fcntl locks do not see, and
# which never drops them: it is taken on the descriptor kept_descriptor keeps for the process's life): whoever waits
# is woken the moment the writer before it is done, however long that writer took.
_WRITERS = threading.RLock()  # one writing thread per process; re-entered by a writer inside its own turn
_TURN = threading.local()


@contextmanager
def writer_turn(path: Path | str | None) -> Iterator[None]:
    """This thread's turn to write the SQLite file at `path` (nothing for another database: None): the process's
    writer lock, then an exclusive flock on the file. A thread already in its turn on that file goes on."""
    if path is None:
        yield
        return
    key = str(path)
    with _WRITERS:
        held: set[str] = _TURN.__dict__.setdefault("held", set())
        if key in held:  # this thread's own turn, entered again
            yield
            return
        held.add(key)
        try:
            with _process_turn(key):
                yield
        finally:
            held.discard(key)


@contextmanager
def _process_turn(path: str) -> Iterator[None]:
    """Hold an exclusive flock on the database file (called under _WRITERS: one thread per process)."""
    try:
        import fcntl
    except ImportError:  # Windows: SQLite's own waiting only
        yield
        return
    if shared_file_system(path):  # flock would be a POSIX lock there, the kind SQLite's own are: left to SQLite
        yield
        return
    try:
        fd = kept_descriptor(path)
    except OSError:  # no file to lock: SQLite says what is wrong when the transaction starts
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
    except OSError:  # a file system without flock (ENOLCK, EOPNOTSUPP): the turn is a speed-up, SQLite still waits
        yield
        return
    try:
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)


# File systems where Linux makes flock() a POSIX byte-range lock of the whole file (flock(2): NFS since 2.6.12, SMB
# since 5.5): there the turn's lock would be of the same kind as SQLite's, and releasing it would release the locks
# SQLite's connections of this process hold (a reader's among them) -- the fault of howtocorrupt.html 2.2 again.
EMULATED_FLOCK = frozenset({"nfs", "nfs4", "cifs", "smb3", "smbfs"})
MOUNTINFO = "/proc/self/mountinfo"
_SHARED: dict[str, bool] = {}


def shared_file_system(path: str) -> bool:
    """Whether `path` is on a file system in EMULATED_FLOCK (by Linux's mount table; False where there is none)."""
    if path not in _SHARED:
        _SHARED[path] = file_system_type(path) in EMULATED_FLOCK
    return _SHARED[path]


def file_system_type(path: str, table: str | None = None) -> str | None:
    """The type of the file system `path` is on, from the mount table (the mount point that is the longest prefix
    of its real path); None when there is no table to read (not Linux)."""
    try:
        with open(table or MOUNTINFO, encoding="utf-8", errors="surrogateescape") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    real = os.path.realpath(path)
    best, kind = -1, None
    for line in lines:
        fields, _, rest = line.partition(" - ")
        parts = fields.split(" ")
        if len(parts) < 5 or not rest:
            continue
        point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), parts[4])  # \040 is a space
        inside = real == point or real.startswith(point.rstrip("/") + "/")
        if inside and len(point) >= best:  # the later of two mounts on one point hides the earlier
            best, kind = len(point), rest.split(" ")[0]
    return kind


def foreign_sqlite_problem(path: Path, ours: Mapping[str, Iterable[str]],
                           wait: float = LOCK_WAIT_S) -> str | None:
    """Why a SQLite --db file must not be used (a folder, another program's file or database); None if fine.

    An absent or empty file is fine (deckcheck creates its database there); so is a SQLite
    database holding deckcheck's tables only (`ours`: table -> its columns), each with deckcheck's
    columns (a table of another program that happens to share a name is refused). Reads the file
    only, never writes it (but replays a journal a crash left, as every SQLite reader would); a database
    another process keeps locked for longer than `wait` seconds raises sqlite3.OperationalError.
    """
    if path.is_dir():
        return f"{str(path)!r} is a folder, not a database file"
    if not path.exists():
        return None
    if not path.is_file():
        return f"{str(path)!r} is not a regular file"
    try:
        head = read_head(path, len(SQLITE_MAGIC))[0]  # never open()/close(): that drops this process's SQLite locks
    except OSError as exc:
        return f"cannot read {str(path)!r}: {exc.strerror}"
    if not head:
        return None
    if head != SQLITE_MAGIC:
        return f"{str(path)!r} is not a SQLite database (another program's file?); it was left untouched"
    con = open_read_only(path, wait)  # sqlite3.Error (locked) propagates
    try:
        tables = {r[0] for r in con.execute(rawsql.TABLES_SQL)}
        marked = _marks(con)
        columns = {t: {r[1] for r in con.execute(rawsql.columns_sql(t))} for t in tables if t in ours}
    finally:
        con.close()
    named = {t for t in tables if not t.startswith("sqlite_")}
    if not named and marked:
        return _foreign(path, marked)
    ours_too = clearly_ours(columns, ours)
    other = sorted(t for t in named if t not in ours) if not ours_too else []  # a newer deckcheck's own tables pass
    if other:
        return _foreign(path, f"tables {_listed(other)}")
    for table, have in sorted(columns.items()):
        lacking = missing_columns(table, have, ours[table])
        if lacking:
            return _foreign(path, f"its table {table} lacks the column{'s' if len(lacking) > 1 else ''} "
                                  f"{_listed(lacking)} of deckcheck's")
    if named and not ours_too:  # only tables named like ours, none of them the mark of a deckcheck database
        return _foreign(path, f"tables {_listed(sorted(named))}, without deckcheck's {' or '.join(MARK_TABLES)}")
    return None


def _marks(con: sqlite3.Connection) -> str:
    """What marks a SQLite file as made by a program even with no table in it ("" for none): a view, index or
    trigger, a user_version or an application_id (deckcheck sets neither). Only a file with none of them is empty."""
    objects = sorted(f"{kind} {name}" for kind, name in con.execute(rawsql.OBJECTS_SQL))
    stamps = [f"{sql.split()[-1]} {v}" for sql in rawsql.STAMPS_SQL for (v,) in con.execute(sql) if v]
    return ", ".join(objects[:5] + stamps)


def _foreign(path: Path, why: str) -> str:
    return (f"{str(path)!r} is another program's SQLite database ({why}), not a deckcheck database; it was left "
            "untouched")


def _listed(names: list[str]) -> str:
    return ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")


# The tables whose presence, with all of deckcheck's columns, marks a file as deckcheck's own: deckcheck_meta (its
# name is deckcheck's), or the card table (create_all makes it first, so a first set-up that stopped after it left
# a file of ours). Another program's file that merely shares a table name (collection(id, name), say) has neither.
MARK_TABLES = ("deckcheck_meta", "card")


def clearly_ours(columns: Mapping[str, set[str]], ours: Mapping[str, Iterable[str]]) -> bool:
    """Whether a file's tables named like deckcheck's (table -> its columns) include a MARK_TABLES table with every
    column deckcheck gives it (those added later aside)."""
    return any(table in columns and not missing_columns(table, columns[table], ours[table])
               for table in MARK_TABLES if table in ours)


def missing_columns(table: str, have: set[str], want: Iterable[str]) -> list[str]:
    """The columns deckcheck gives `table` that the file's table lacks (those added after its first release aside)."""
    return sorted(c for c in want if c not in have and (table, c) not in rawsql.LATE_COLUMNS)


SQLITE_READONLY = 8  # the primary result code of SQLITE_READONLY_ROLLBACK, _RECOVERY, _CANTINIT ...


def open_read_only(path: Path, wait: float = LOCK_WAIT_S) -> sqlite3.Connection:
    """A read-only sqlite3 connection to a SQLite file, after replaying what a crash left in its journal.

    A program killed in the middle of a write leaves a hot rollback journal (or a write-ahead log)
    that the next connection must replay before anyone reads, and a read-only connection cannot.
    So the read-only open is tried first; when SQLite answers that it needed to write, a read-write
    connection (never creating the file) replays the journal, and the read-only open is tried again.
    A file that truly is read-only (permissions, a read-only disk) cannot be replayed: that error
    (SQLITE_READONLY_*) propagates. Other sqlite3.Error (locked for longer than `wait`) propagate too.
    """
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=wait)
    try:
        con.execute(rawsql.PROBE_SQL).fetchone()
        return con
    except sqlite3.Error as exc:
        con.close()
        if getattr(exc, "sqlite_errorcode", SQLITE_READONLY) & 0xFF != SQLITE_READONLY:
            raise
    recover(path, wait)
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=wait)


def recover(path: Path, wait: float = LOCK_WAIT_S) -> None:
    """Let SQLite replay a hot journal (or a write-ahead log) a crash left beside a file: a read-write
    connection's first read does it. Raises sqlite3.Error when the file or its folder cannot be written."""
    con = sqlite3.connect(f"file:{path}?mode=rw", uri=True, timeout=wait)
    try:
        con.execute(rawsql.PROBE_SQL).fetchone()
    finally:
        con.close()


def trouble(exc: BaseException, wait: float = LOCK_WAIT_S) -> str | None:
    """What a database error means for the user, when it is about the database's state; else None."""
    text = str(getattr(exc, "orig", exc) or exc).lower()
    code = getattr(getattr(exc, "orig", None), "sqlstate", None) or ""
    if "locked" in text or "busy" in text or code == "55P03" or "lock timeout" in text:
        return (f"another program is writing to it; waited {wait:g} s for it to finish. "
                "Try again when that program is done")
    if "readonly" in text or "read-only" in text or code == "25006":
        return "it is read-only (file permissions or a read-only disk)"
    if "disk is full" in text or "no space left" in text or code == "53100":
        return "the disk is full"
    if "disk i/o error" in text:
        return "a disk I/O error (a full disk or a failing drive?)"
    if "unable to open database file" in text:
        return "the file cannot be opened or created (permissions, or a missing folder)"
    return None
