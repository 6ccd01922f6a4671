"""The SQL deckcheck writes by hand — all of it — and why none of it goes through the table classes.

Every other query is built on the SQLModel tables of db/models.py (sqlalchemy select, insert, update and
delete on their columns), so that a column added to a table class, or renamed, is seen by every query.
tests/db/test_queries.py keeps it so: no other module writes SQL text, every statement here is valid
against the schema the table classes create (but the one that reads columns no table class has any more),
and the hot path agrees with the model path on the same database, SQLite and PostgreSQL.

What stays here, and why:

1. The hot path (`read_cards`): every card of a SQLite file, with the database's bundle facts, read with
   sqlite3 alone. `deckcheck check` runs once per deck from scripts, and whenever its kept card index is
   out of date (after any write) it reads the cards: importing SQLAlchemy and opening an engine (which checks
   the tables) made that read take 1.0-1.2 s instead of 0.26-0.37 s for the 1,491 bundled cards (a fresh
   process each, this machine). It selects repository.CARD_COLUMNS in the model path's order
   (deckcheck.db.store.read_cards); its placeholder is the driver's (`?` for sqlite3, `%s` for psycopg).
2. A look at a SQLite file before SQLAlchemy opens it (deckcheck.db.engine): is it set up, is it a file
   of ours (sqlite_master, PRAGMA table_info). Refusing another program's file must happen before
   anything creates a table in it; answering "not set up" must not cost the engine.
3. Schema migration: ALTER TABLE ... ADD COLUMN for a column an older database lacks (SQLAlchemy Core has no
   ALTER; the column's name, type and default come from its table class), and the read of the game columns
   an older deckcheck kept in columns of their own (repository.LEGACY_EXTRA), which no table class names.
4. Transaction control on SQLite: BEGIN IMMEDIATE (a writer takes the write lock when it starts,
   deckcheck.db.store.Store.begin) and BEGIN (the read snapshot of `db copy`).
5. The bulk write of a collection import (`executemany`): its statement is built on the table class (no SQL
   text here), compiled once, and its rows are handed to the driver as tuples. SQLAlchemy's own executemany
   makes a dict of every row and binds it value by value: 57,193 entries (the 200,000-row sheet of
   bench/bench_collection.py) took 0.4-0.6 s of CPU more, a tenth of the whole import. tests/db/test_queries.py
   writes the same rows both ways on one database and compares the tables.

This module imports nothing but the standard library and repository (the hot path must stay light).
"""
from __future__ import annotations

from typing import Any, Sequence

from .repository import SELECT_LIST

# -- 1. the hot path ---------------------------------------------------------------------------------------
CARD_ORDER = ("game", "edition", "set_code", "id")  # the model path orders by the same columns
META_KEYS = ("bundled", "bundle", "bundle_version")  # what reading the cards also tells (a stale bundle)


def cards_sql(game: bool, mark: str = "?") -> str:
    """The SELECT of every card (of one game, when `game`), in CARD_COLUMNS order."""
    where = f" where game = {mark}" if game else ""
    return f"select {SELECT_LIST} from card{where} order by {', '.join(CARD_ORDER)}"


META_SQL = f"select key, value from deckcheck_meta where key in ({', '.join(repr(k) for k in META_KEYS)})"


def read_cards(con: Any, game: str | None = None, mark: str = "?") -> tuple[list[tuple[Any, ...]], dict[str, str]]:
    """(rows in CARD_COLUMNS order, bundle meta) through a DB-API connection: sqlite3's (`mark` "?") on the hot
    path; psycopg's (`mark` "%s") where a test compares this SQL with the model path on PostgreSQL."""
    cur = con.cursor()
    try:
        cur.execute(cards_sql(bool(game), mark), (game,) if game else ())
        rows = [tuple(r) for r in cur.fetchall()]
        cur.execute(META_SQL)
        meta = {k: v for k, v in cur.fetchall()}
    finally:
        cur.close()
    return rows, meta


# -- 2. a SQLite file before SQLAlchemy opens it -----------------------------------------------------------
INITIALIZED_SQL = "select value from deckcheck_meta where key = 'initialized'"
TABLES_SQL = "select name from sqlite_master where type = 'table'"
PROBE_SQL = "select count(*) from sqlite_master"  # the first read: replays a hot journal, or says it cannot
OBJECTS_SQL = "select type, name from sqlite_master where type != 'table'"  # views, indexes, triggers
STAMPS_SQL = ("pragma user_version", "pragma application_id")  # a program's marks on a file (deckcheck sets neither)


def columns_sql(table: str) -> str:
    """PRAGMA table_info of a table (its columns are the rows' second field)."""
    return 'pragma table_info("{}")'.format(table.replace('"', '""'))


# -- 3. schema migration -----------------------------------------------------------------------------------
def add_column_sql(table: str, column: str, type_sql: str, default: object) -> str:
    """ALTER TABLE adding a NOT NULL column with its default (a string or a number, as the table class says), or
    (`default` None) a column that may be NULL, NULL in every row."""
    if default is None:
        return f'alter table "{table}" add column "{column}" {type_sql}'
    if isinstance(default, bool):
        literal = "1" if default else "0"
    elif isinstance(default, (int, float)):
        literal = repr(default)
    else:
        literal = "'" + str(default).replace("'", "''") + "'"
    return f'alter table "{table}" add column "{column}" {type_sql} not null default {literal}'


def legacy_extra_sql(legacy: list[str]) -> str:
    """The cards whose game columns an older deckcheck kept in columns of their own (renown ... suit): id and
    those columns, where any is set. No table class names these columns any more: hence SQL text."""
    quoted = [f'"{c}"' for c in legacy]
    return (f"select id, {', '.join(quoted)} from card "
            f"where {' or '.join(f'{c} is not null' for c in quoted)}")


REBUILT_COLLECTION = "collection_rebuilt"  # migration step 9: SQLite's collection table made again under this name
REBUILT_ACCOUNT = "account_rebuilt"  # migration step 10: SQLite's account table made again (AUTOINCREMENT)
TABLE_SQL = "select sql from sqlite_master where type = 'table' and name = ?"  # a SQLite table's CREATE statement


def drop_table_sql(table: str) -> str:
    """DROP TABLE (step 9 on SQLite: the old collection table, once its rows are in the new one)."""
    return f'drop table "{table}"'


def rename_table_sql(table: str, to: str) -> str:
    """ALTER TABLE ... RENAME TO (step 9 on SQLite: the new collection table takes the old one's name)."""
    return f'alter table "{table}" rename to "{to}"'


def drop_constraint_sql(table: str, constraint: str) -> str:
    """ALTER TABLE ... DROP CONSTRAINT (step 9 on PostgreSQL: the collection names' old database-wide UNIQUE)."""
    return f'alter table "{table}" drop constraint "{constraint}"'


# -- 4. transaction control (SQLite) -----------------------------------------------------------------------
BEGIN_IMMEDIATE = "BEGIN IMMEDIATE"

# The schema's history, run by deckcheck.db.migrations and read here too: the raw path reads a file only when it is
# at this version (an earlier one goes through the SQLAlchemy path, which brings it up to date; a newer one is
# refused there), and a file whose tables lack only LATE_COLUMNS is still deckcheck's, of an earlier version.
SCHEMA_KEY = "schema_version"  # deckcheck_meta: the schema version the database is at
SCHEMA_VERSION = 10  # the number of migration steps (deckcheck.db.migrations.STEPS)
LATE_COLUMNS = (("card", "extra"), ("collection_entry", "price"), ("collection_import", "undone"),
                ("desk_event", "tz_offset"), ("desk_event", "tiebreakers"), ("desk_event", "owner_id"),
                *(("saved_deck", c) for c in ("title", "visibility", "owner_id", "version", "copied_from",
                                              "updated_at")),
                ("collection", "owner_id"))  # added after the first release (saved_deck's: step 8, collection's: 9)
SCHEMA_SQL = f"select value from deckcheck_meta where key = '{SCHEMA_KEY}'"
BEGIN = "BEGIN"


# -- 5. the bulk write of a collection import --------------------------------------------------------------
def executemany(con: Any, stmt: Any, columns: Sequence[str], rows: Sequence[tuple[Any, ...]], batch: int) -> None:
    """Run `stmt` (an INSERT built on a table class, on SQLAlchemy connection `con`) for every row, `batch` rows
    at a time: compiled once for the connection's dialect, the rows (values in `columns` order) handed to the
    driver as they are, with the statement's own constants (its bound literals) after them."""
    if not rows:
        return
    names = list(columns)
    compiled = stmt.compile(dialect=con.dialect, column_keys=names)
    constants = {k: v for k, v in compiled.params.items() if k not in names}
    order = compiled.positiontup
    params: list[Any]
    if order is None:  # a named paramstyle (psycopg's): a mapping per row
        params = [dict(zip(names, row, strict=True), **constants) for row in rows]
    elif list(order[:len(names)]) == names:
        tail = tuple(constants[n] for n in order[len(names):])
        params = [tuple(row) + tail for row in rows]
    else:
        at = {name: i for i, name in enumerate(names)}
        params = [tuple(row[at[n]] if n in at else constants[n] for n in order) for row in rows]
    for start in range(0, len(params), batch):
        con.exec_driver_sql(compiled.string, params[start:start + batch])
