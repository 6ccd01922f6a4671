"""`deckcheck db copy SRC DST`: a whole database into another — a personal SQLite file up to a club's PostgreSQL,
or back — table by table, in batches, verified at the end by counts and checksums.

Every table of deckcheck's (cards with their provenance, collections and their import journal, saved decks,
tournament desk events, submissions, deck checks, the database's own facts, and any table a later version
adds to the same metadata) is copied with its rows as they are, ids included, so that links (a saved deck's
cards, a submission's event) hold. The source is read in one snapshot and its rows are never changed (like
any command, opening it brings an older database's tables up to this version, and a SQLite file a crash left
with a hot journal is replayed first, as any reader does); the target is written in one
transaction: all of it, or (on any failure) nothing. Memory stays bounded: rows are streamed from the source
and written BATCH at a time.

The checksum of a table is order-free (the sum of a hash of every row, modulo 2**128), so that SQLite's and
PostgreSQL's different orders of text give the same figure for the same rows.
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

from sqlalchemy import Connection, MetaData, Table, false, func, inspect, select
from sqlalchemy.engine import make_url
from sqlmodel import SQLModel

from deckcheck.errors import DatabaseError

from . import models  # noqa: F401  (registers every table in SQLModel.metadata)
from . import rawsql
from .engine import sqlite_path
from .models import META
from .store import Store

BATCH = 2000
_MOD = 1 << 128


@dataclass
class TableCopy:
    """One table: rows in the source and the target, and their checksums (hex)."""

    name: str
    rows: int
    checksum: str
    target_rows: int = 0
    target_checksum: str = ""

    @property
    def same(self) -> bool:
        return self.rows == self.target_rows and self.checksum == self.target_checksum


@dataclass
class CopyResult:
    """What `copy_database` copied, table by table, and whether the target now holds exactly the source's rows."""

    source: str
    target: str
    tables: list[TableCopy] = field(default_factory=list)
    replaced: int = 0  # rows the target held before (only with replace)

    @property
    def verified(self) -> bool:
        return all(t.same for t in self.tables)

    @property
    def rows(self) -> int:
        return sum(t.rows for t in self.tables)


def _canonical(value: Any) -> Any:
    """A value as the checksum sees it: the same on SQLite and PostgreSQL (booleans, datetimes, bytes)."""
    if isinstance(value, bool) or value is None or isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).hex()
    if isinstance(value, (_dt.datetime, _dt.date, _dt.time)):
        return value.isoformat()
    return str(value)


def row_hash(columns: list[str], row: Any) -> int:
    """A row's hash: its columns by name, values made canonical."""
    data = json.dumps([[c, _canonical(v)] for c, v in zip(columns, row, strict=True)], ensure_ascii=False,
                      separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(data.encode("utf-8", "surrogatepass")).digest()[:16], "big")


def _hex(total: int) -> str:
    return f"{total:032x}"


def _tables(metadata: MetaData) -> list[Table]:
    return list(metadata.sorted_tables)  # parents before children (foreign keys)


def _columns(con: Connection, table: Table) -> list[str]:
    """The table's columns that the database has (an older database may lack a column a later version added:
    the target then takes its default)."""
    have = {c["name"] for c in inspect(con).get_columns(table.name)}
    return [c.name for c in table.columns if c.name in have]


def _stream(con: Connection, table: Table, columns: list[str]) -> Iterator[Sequence[Any]]:
    """Every row of a table, BATCH at a time, without holding the table in memory."""
    result = con.execution_options(stream_results=True, yield_per=BATCH).execute(
        select(*[table.c[c] for c in columns]))
    while True:
        rows = result.fetchmany(BATCH)
        if not rows:
            return
        yield rows


def checksums(con: Connection, metadata: MetaData) -> dict[str, tuple[int, str]]:
    """Rows and checksum of every deckcheck table, read through `con`."""
    found = {}
    for table in _tables(metadata):
        columns = [c.name for c in table.columns]
        total = count = 0
        for rows in _stream(con, table, columns):
            for row in rows:
                total = (total + row_hash(columns, row)) % _MOD
                count += 1
        found[table.name] = (count, _hex(total))
    return found


def _open(url: str, what: str, must_exist: bool) -> Store:
    store = Store(url)
    path = sqlite_path(store.url)
    if must_exist and path is not None and (not path.is_file() or path.stat().st_size == 0):
        raise DatabaseError(f"the {what} {store.where()} does not exist (or is empty); nothing was copied")
    store._engine = store._connect()  # the tables, without the bundled cards: a copy brings its own
    return store


def copy_database(source: str, target: str, replace: bool = False,
                  progress: Callable[[str, int], None] | None = None) -> CopyResult:
    """Copy every deckcheck table of `source` into `target` (database URLs or SQLite paths), then verify.

    The target must hold no deckcheck rows, unless `replace`: then what it held is deleted in the same
    transaction as the copy. DatabaseError when the source is not a deckcheck database, when the target is
    not empty (without replace), or when the two are the same database; nothing is changed then.
    `progress(table, rows)` is called after each batch written.
    """

    src = _open(source, "source", must_exist=True)
    dst = _open(target, "target", must_exist=False)
    result = CopyResult(src.where(), dst.where())
    try:
        if _same_database(src, dst):
            raise DatabaseError(f"the source and the target are the same database ({src.where()}); nothing was "
                                "copied")
        if not src.is_initialized():
            raise DatabaseError(f"the source {src.where()} is not a deckcheck database (it was never set up); "
                                "nothing was copied")
        tables = _tables(SQLModel.metadata)
        with src.translated_errors(), src.engine.connect() as rcon:
            if rcon.dialect.name == "sqlite":
                rcon.exec_driver_sql(rawsql.BEGIN)  # one read transaction: a snapshot of every table
            else:
                rcon = rcon.execution_options(isolation_level="REPEATABLE READ")
            with dst.begin() as wcon:
                # the target's own schema stamp (deckcheck.db.migrations) is its set-up, not content: the
                # source's, at the same version (both were opened by Store), takes its place
                wcon.execute(META.delete().where(META.c.key == rawsql.SCHEMA_KEY))
                held = {t.name: wcon.execute(select(func.count()).select_from(t)).scalar_one() for t in tables}
                if any(held.values()) and not replace:
                    shown = ", ".join(f"{name} {n:,}" for name, n in held.items() if n)
                    raise DatabaseError(f"the target {dst.where()} is not empty ({shown} rows); nothing was "
                                        "copied. --replace deletes what it holds and copies the source in its place")
                if any(held.values()):
                    for table in reversed(tables):
                        wcon.execute(table.delete())
                    result.replaced = sum(held.values())
                for table in tables:
                    columns = _columns(rcon, table)
                    total = count = 0
                    for rows in _stream(rcon, table, columns):
                        values = [dict(zip(columns, row, strict=True)) for row in rows]
                        wcon.execute(table.insert(), values)
                        count += len(rows)
                        for row in rows:
                            total = (total + row_hash(columns, row)) % _MOD
                        if progress:
                            progress(table.name, count)
                    result.tables.append(TableCopy(table.name, count, _hex(total)))
                if wcon.dialect.name == "postgresql":
                    _reset_sequences(wcon, tables)
            rcon.rollback()
        # what the target holds now, read back after the commit
        with dst.translated_errors(), dst.engine.connect() as con:
            for entry, table in zip(result.tables, tables, strict=True):
                entry.target_rows = con.execute(select(func.count()).select_from(table)).scalar_one()
            _verify(con, src, result, tables)
    finally:
        src.dispose()
        dst.dispose()
    return result


def _verify(con: Connection, src: Store, result: CopyResult, tables: list[Table]) -> None:
    """The target's checksum of each table over the columns the source had (a column the source lacked is the
    target's default, outside the comparison)."""
    with src.engine.connect() as rcon:
        columns = {t.name: _columns(rcon, t) for t in tables}
    for entry, table in zip(result.tables, tables, strict=True):
        names = columns[table.name]
        total = 0
        for rows in _stream(con, table, names):
            for row in rows:
                total = (total + row_hash(names, row)) % _MOD
        entry.target_checksum = _hex(total)


def _reset_sequences(con: Connection, tables: list[Table]) -> None:
    """PostgreSQL: each serial id's sequence continues after the largest id copied (else the next insert
    would take an id that exists)."""
    for table in tables:
        for column in table.primary_key.columns:
            if column.autoincrement is True or (column.autoincrement == "auto" and column.type.python_type is int
                                                 and len(table.primary_key.columns) == 1):
                seq = con.execute(select(func.pg_get_serial_sequence(table.name, column.name))).scalar_one()
                if seq:
                    largest = select(func.max(column)).scalar_subquery()
                    con.execute(select(func.setval(seq, func.coalesce(largest, 0) + 1, false())))


def _same_database(a: Store, b: Store) -> bool:
    pa, pb = sqlite_path(a.url), sqlite_path(b.url)
    if pa is not None and pb is not None:
        try:
            return pa.resolve() == pb.resolve() or (pb.exists() and pa.samefile(pb))
        except OSError:
            return False
    try:
        ua, ub = make_url(a.url), make_url(b.url)
    except Exception:
        return False
    return (ua.host, ua.port, ua.database) == (ub.host, ub.port, ub.database) and ua.drivername == ub.drivername
