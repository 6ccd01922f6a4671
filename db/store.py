"""The card database: set-up on first use, reading cards into core objects, atomic upserts.

SQLAlchemy, and the modules built on it (models, sources, migrations), are imported inside the functions that use
them: `deckcheck check --db FILE` reads a SQLite file through this module with sqlite3 alone (deckcheck.db.rawsql),
and importing SQLAlchemy and the table classes would add about 150 ms to every such check."""
from __future__ import annotations

import csv
import datetime as _dt
import hashlib
import logging
import os
import re
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterable, Iterator
from urllib.parse import parse_qs, urlsplit

from deckcheck.version import __version__
from deckcheck.cards import Card
from deckcheck.catalog import CardSet
from deckcheck.cardsheet import SheetCard, sheet_cards_from_rows
from deckcheck.errors import DatabaseError, DeckcheckError

from . import rawsql
from .engine import (BUNDLED_DIR, BUNDLED_SHEETS, LOCK_WAIT_S, foreign_sqlite_problem, ready_sqlite, resolve_url,
                     sqlite_path, trouble, writer_turn)
if TYPE_CHECKING:  # annotations only: SQLAlchemy is imported where it runs (see above)
    from sqlalchemy import Connection, Engine, MetaData

from .repository import CARD_COLUMNS, card_to_values, cards_from_tuples

# CONTRACTS §5: a command that creates a database says once where. The library logs it (INFO on this
# logger); the command line shows this logger on stderr, a program decides for itself.
log = logging.getLogger("deckcheck.db")

_CHUNK = 500  # ids in one IN (...) list


def card_rows(con: Connection, game: str | None = None, ids: Iterable[str] | None = None
              ) -> list[tuple[Any, ...]]:
    """The model path to the card table: rows in CARD_COLUMNS order, of every card (of one game) in a stable
    order, or of the cards of these ids. deckcheck.db.rawsql.read_cards is the one other read of cards (the
    hot path of `check`), and tests/db/test_queries.py proves the two agree."""
    from sqlalchemy import select

    from .models import CARDS
    stmt = select(*[CARDS.c[c] for c in CARD_COLUMNS])
    if ids is None:
        if game:
            stmt = stmt.where(CARDS.c.game == game)
        return [tuple(r) for r in con.execute(stmt.order_by(*[CARDS.c[c] for c in rawsql.CARD_ORDER])).all()]
    wanted, rows = list(ids), []
    for start in range(0, len(wanted), _CHUNK):
        rows += [tuple(r) for r in con.execute(stmt.where(CARDS.c.id.in_(wanted[start:start + _CHUNK]))).all()]
    return rows


def read_cards(con: Connection, ids: Iterable[str]) -> dict[str, Card]:
    """The stored cards of these ids (those that exist), by id, on a connection (inside a caller's transaction)."""
    return {c.id: c for c in cards_from_tuples(card_rows(con, ids=ids))}


def read_meta(con: Connection, keys: Iterable[str] | None = None) -> dict[str, str]:
    """The database's own facts (deckcheck_meta): every key, or these."""
    from sqlalchemy import select

    from .models import META
    stmt = select(META.c.key, META.c.value)
    if keys is not None:
        stmt = stmt.where(META.c.key.in_(list(keys)))
    return {k: v for k, v in con.execute(stmt).all()}


def write_meta(con: Connection, values: dict[str, str]) -> None:
    """Set facts of the database (each key replaced or added), on SQLite and PostgreSQL alike."""
    from .models import META, dialect_insert
    stmt = dialect_insert(con)(META)
    con.execute(stmt.on_conflict_do_update(index_elements=[META.c.key], set_={"value": stmt.excluded.value}),
                [{"key": k, "value": v} for k, v in values.items()])


@dataclass
class ImportResult:
    """What an import changed: ids added and updated, and how many rows were already equal."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: int = 0

    @property
    def changed(self) -> bool:
        """Whether anything was (or would be) changed."""
        return bool(self.added or self.updated)


def set_names() -> dict[str, str]:
    """Set name -> set code for the bundled sets ('Movie Edition' -> 'ME')."""
    with open(BUNDLED_DIR / "sets.csv", encoding="utf-8", newline="") as f:
        return {row["name"]: row["code"] for row in csv.DictReader(f)}


@lru_cache(maxsize=1)
def bundled_rows() -> tuple[SheetCard, ...]:
    """The rows shipped with deckcheck (db/data/*.csv, built by build_bundled.py): cards and provenance, read once
    per process."""
    found: list[SheetCard] = []
    for name in BUNDLED_SHEETS:
        path = BUNDLED_DIR / name
        with open(path, encoding="utf-8", newline="") as f:
            rows = [(i, row) for i, row in enumerate(csv.DictReader(f), start=2)]
        found += sheet_cards_from_rows(rows, str(path))[0]
    return tuple(found)


def bundled_sets() -> list[CardSet]:
    """The sets of the bundled card data: code, name, edition and year (db/data/sets.csv)."""
    with open(BUNDLED_DIR / "sets.csv", encoding="utf-8", newline="") as f:
        return [CardSet(row["code"], row["name"], int(row["edition"]) if row.get("edition", "").isdigit() else None,
                        (row.get("released") or "")[:4] or None) for row in csv.DictReader(f)]


# deckcheck_meta: a token that every write of the card table replaces, in the write's own transaction, whichever
# process makes it (a CLI import, another web worker or server, `db update`). A running server compares it with the
# token it read the cards under, once per request (deckcheck.web.deps): one small indexed read. SQLite's file change
# counter moves on every write (collections too) and PRAGMA data_version only tells one connection of the others'.
CARDS_VERSION_KEY = "cards_version"


def bump_cards_version(con: Connection) -> None:
    """Say, in the transaction that writes the card table, that the cards changed (a new CARDS_VERSION_KEY token)."""
    write_meta(con, {CARDS_VERSION_KEY: os.urandom(16).hex()})


@lru_cache(maxsize=1)
def _cards_version_select() -> Any:
    """The read of CARDS_VERSION_KEY, built once: a request's stamp read costs a quarter of building it each time."""
    from sqlalchemy import select

    from .models import META
    return select(META.c.value).where(META.c.key == CARDS_VERSION_KEY)


def cards_version(con: Connection) -> str | None:
    """The token of the card table's last write (None: never written since the database had it)."""
    found = con.execute(_cards_version_select()).scalar()
    return None if found is None else str(found)


BUNDLE_KEY = "bundle"  # deckcheck_meta: the digest of the bundled sheets the database was filled from
VERSION_KEY = "bundle_version"  # deckcheck_meta: the deckcheck version whose bundle that was


def deckcheck_version() -> str:
    return __version__


def version_order(text: str) -> tuple[int, ...]:
    """A version as numbers to compare ('0.10.2' > '0.9'): each part's leading digits ('0rc1' counts 0)."""
    return tuple(int(m.group()) if (m := re.match(r"\d+", part)) else 0 for part in text.split("."))


def newer_bundle(meta: dict[str, str]) -> str | None:
    """The version of deckcheck that filled the database, when it is newer than this one (else None)."""
    stored = meta.get(VERSION_KEY)
    return stored if stored and version_order(stored) > version_order(deckcheck_version()) else None


@lru_cache(maxsize=1)
def bundle_digest() -> str:
    """A short digest of this version's bundled card sheets: it changes whenever their data does."""
    digest = hashlib.sha256()
    for name in BUNDLED_SHEETS:
        digest.update((BUNDLED_DIR / name).read_bytes())
    return digest.hexdigest()[:16]


_stale_told: set[str] = set()


def note_stale_bundle(url: str, meta: dict[str, str], where: str) -> None:
    """Say once per process and database (INFO on the log) when its bundled cards are another version's."""
    if meta.get("bundled") != "yes" or meta.get(BUNDLE_KEY) == bundle_digest() or url in _stale_told:
        return
    _stale_told.add(url)
    newer = newer_bundle(meta)
    if newer:
        log.info("the database %s holds the bundled cards of deckcheck %s, newer than this one (%s): update "
                 "deckcheck to see them", where, newer, deckcheck_version())
        return
    log.info("the database %s holds the bundled cards of another deckcheck version; `deckcheck db update` "
             "brings in this version's (values you set are kept)", where)


def bundled_cards() -> list[Card]:
    """The cards shipped with deckcheck (db/data/*.csv, built by build_bundled.py)."""
    return [row.card for row in bundled_rows()]


def _create_tables(engine: Engine, metadata: MetaData, attempts: int = 5) -> None:
    """Create the missing tables. Two processes may do it at once (first use): the loser tries again."""
    from sqlalchemy.exc import DatabaseError as SQLError
    for attempt in range(attempts):
        try:
            metadata.create_all(engine)
            return
        except SQLError as exc:
            if "already exists" not in str(exc) or attempt == attempts - 1:
                raise


class Store:
    """One deckcheck database, named by a SQLAlchemy URL. Created and filled on first use."""

    def __init__(self, url: str | None = None):
        self.url = resolve_url(url)
        self._engine: Engine | None = None  # created on first use
        self.last_meta: dict[str, str] | None = None  # the meta read with the cards (deckcheck.db.indexcache keeps it)

    # -- set-up ---------------------------------------------------------------------------------
    @property
    def engine(self) -> Engine:
        """The SQLAlchemy engine; creating it creates the tables and loads the bundled cards if new."""
        if self._engine is None:
            self._engine = self._connect()
            if self.ensure_initialized():
                log.info("created the database %s with the bundled cards", self.where())
        return self._engine

    def _connect(self) -> Engine:
        from sqlalchemy import create_engine
        from sqlalchemy.exc import ArgumentError, NoSuchModuleError
        from sqlmodel import SQLModel

        from . import models  # noqa: F401  (registers the tables)
        from .migrations import migrate
        path = sqlite_path(self.url)
        connect_args: dict[str, Any] = {}
        if path is not None:
            try:
                ours = {name: [c.name for c in table.columns] for name, table in SQLModel.metadata.tables.items()}
                problem = foreign_sqlite_problem(path, ours, self.lock_wait())
            except sqlite3.Error as exc:
                why = trouble(exc, self.lock_wait()) or str(exc)
                left = [p.name for p in (path.with_name(path.name + "-journal"), path.with_name(path.name + "-wal"))
                        if p.exists()]
                if left and "read-only" in why:
                    why += (f"; a program stopped in the middle of a write left {left[0]!r} beside it, which only "
                            "someone who may write the file and its folder can replay")
                raise DatabaseError(f"database {self.where()}: {why}; nothing was changed") from exc
            if problem:
                raise DatabaseError(problem)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise DatabaseError(f"cannot create the folder of {str(path)!r}: {exc.strerror}") from exc
            if "timeout=" not in self.url:
                connect_args["timeout"] = LOCK_WAIT_S
        elif self.url.startswith("postgresql") and "options=" not in self.url:
            connect_args["options"] = f"-c lock_timeout={int(LOCK_WAIT_S * 1000)}"
        try:
            engine = create_engine(self.url, connect_args=connect_args)
            refuse_nul(engine)
            with self.translated_errors():
                _create_tables(engine, SQLModel.metadata)
            migrate(engine, self.where(), self.translated_errors)
        except (ArgumentError, NoSuchModuleError) as exc:
            raise DatabaseError(f"cannot use database URL {self.url!r}: {exc}") from exc
        except DatabaseError:
            raise
        except ModuleNotFoundError as exc:  # a URL of a kind whose driver is not installed (mysql://, ...)
            raise DatabaseError(f"cannot use database URL {self.url!r}: its driver ({exc.name}) is not installed; "
                                "deckcheck works with SQLite (a file path or sqlite:///FILE) and PostgreSQL "
                                "(postgresql+psycopg://..., the `postgres` extra)") from exc
        except Exception as exc:  # a server that does not answer, a file that cannot be written
            raise DatabaseError(f"cannot open database {self.url!r}: {exc.__class__.__name__}: "
                                f"{str(exc).splitlines()[0]}") from exc
        return engine

    @contextmanager
    def translated_errors(self) -> Iterator[None]:
        """Turn what the database says about locks, read-only files and full disks into a clear DatabaseError."""
        from sqlalchemy.exc import DBAPIError
        try:
            yield
        except DBAPIError as exc:
            why = trouble(exc, self.lock_wait())
            if why is None:
                raise
            raise DatabaseError(f"database {self.where()}: {why}; nothing was changed") from exc

    def lock_wait(self) -> float:
        """Seconds to wait for another writer: the URL's own `timeout` (SQLite) or LOCK_WAIT_S."""
        try:
            return float(parse_qs(urlsplit(self.url).query).get("timeout", [LOCK_WAIT_S])[0])
        except ValueError:
            return LOCK_WAIT_S

    def where(self) -> str:
        """The database for messages: a SQLite file's path, or the URL without its password."""
        path = sqlite_path(self.url)
        if path is not None:
            return repr(str(path))
        from sqlalchemy.engine import make_url
        try:
            return repr(make_url(self.url).render_as_string(hide_password=True))
        except Exception:
            return "(unreadable URL)"

    @contextmanager
    def begin(self, write: bool = True) -> Iterator[Connection]:
        """A write transaction: all of it or (on any failure) none; database troubles become DatabaseError.

        On SQLite the transaction takes the write lock when it starts (BEGIN IMMEDIATE): two writers
        that read before they write would otherwise deadlock on upgrading their read locks, and SQLite
        answers one of them "database is locked" at once, without waiting (or, where the reads ran outside
        the transaction, the second writes what it decided from values the first has changed meanwhile);
        this way the second waits its turn and then reads what the first wrote. Before that, writers take
        turns (deckcheck.db.engine.writer_turn, as the desk's do): the next one is woken when the one before is
        done, however long that took, instead of giving up after the lock wait. `write=False` (a dry run
        that only reads) takes no write lock: it works on a file it may only read, and waits for nobody.
        """
        engine = self.engine
        with self.translated_errors(), writer_turn(sqlite_path(self.url) if write else None):
            with engine.begin() as con:
                if write and con.dialect.name == "sqlite":
                    con.exec_driver_sql(rawsql.BEGIN_IMMEDIATE)
                yield con

    def is_initialized(self) -> bool:
        """Whether the bundled cards were loaded (or the database was set up empty)."""
        with self.engine.connect() as con:
            return "initialized" in read_meta(con, ["initialized"])

    def init(self, empty: bool = False) -> bool:
        """Create the tables and, unless empty, load the bundled cards; True when this call set the database up."""
        if self._engine is None:
            self._engine = self._connect()
        return self.ensure_initialized(empty)

    def ensure_initialized(self, empty: bool = False) -> bool:
        """Load the bundled cards into a new database (once). True when this call did it."""
        if self.is_initialized():
            return False
        from sqlalchemy import insert
        from sqlalchemy.exc import IntegrityError

        from .models import META
        try:
            with self.translated_errors(), self.engine.begin() as con:
                if not empty:
                    from .sources import write_sources  # SQLAlchemy: see the module's docstring
                    rows = bundled_rows()
                    self._upsert(con, [r.card for r in rows], "bundled")
                    write_sources(con, {r.card.id: dict(r.sources) for r in rows}, fresh=True)
                stamp = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
                # a plain INSERT: a second process setting the database up at the same moment fails on the key
                values = {"initialized": stamp, "bundled": "no" if empty else "yes"}
                if not empty:
                    values |= {BUNDLE_KEY: bundle_digest(), VERSION_KEY: deckcheck_version()}
                con.execute(insert(META), [{"key": k, "value": v} for k, v in values.items()])
        except IntegrityError:
            if self.is_initialized():  # another process set the database up at the same moment
                return False
            raise
        return True

    # -- reading --------------------------------------------------------------------------------
    def cards(self, game: str | None = None) -> list[Card]:
        """Every stored card (of one game), in a stable order.

        A SQLite file nobody opened an engine on in this process is read by the hot path (deckcheck.db.rawsql:
        sqlite3 alone, no SQLAlchemy); anything else by the model path (card_rows). Both give the same rows."""
        con = ready_sqlite(self.url, self.lock_wait()) if self._engine is None else None
        if con is not None:
            try:
                rows, meta = rawsql.read_cards(con, game)
            finally:
                con.close()
        else:
            with self.engine.connect() as c:
                rows = card_rows(c, game)
                meta = read_meta(c, rawsql.META_KEYS)
        note_stale_bundle(self.url, meta, self.where())
        self.last_meta = meta
        return cards_from_tuples(rows)

    def note_stale(self, meta: dict[str, str]) -> None:
        """Say what reading the cards says of a database whose meta (as last read) is this."""
        note_stale_bundle(self.url, meta, self.where())

    def count(self) -> int:
        """How many cards are stored."""
        from sqlalchemy import func, select

        from .models import CARDS
        with self.engine.connect() as c:
            return int(c.execute(select(func.count()).select_from(CARDS)).scalar_one())

    # -- writing --------------------------------------------------------------------------------
    def import_cards(self, cards: Iterable[Card], source: str, dry_run: bool = False) -> ImportResult:
        """Add or update cards by id in one transaction; equal rows are left alone (idempotent)."""
        cards = list(cards)
        result = ImportResult()
        with self.begin(write=not dry_run) as con:
            existing = read_cards(con, [c.id for c in cards])
            changed = []
            for card in cards:
                old = existing.get(card.id)
                if old is None:
                    result.added.append(card.id)
                    changed.append(card)
                elif old != card:
                    result.updated.append(card.id)
                    changed.append(card)
                else:
                    result.unchanged += 1
            if changed and not dry_run:
                self._upsert(con, changed, source)
        return result

    def _upsert(self, con: Connection, cards: list[Card], source: str) -> None:
        from .models import CARDS as table
        from .models import dialect_insert
        insert = dialect_insert(con)
        rows = [card_to_values(c, source) for c in cards]
        for start in range(0, len(rows), 1000):
            stmt = insert(table)
            stmt = stmt.on_conflict_do_update(index_elements=["id"],
                                              set_={c.name: stmt.excluded[c.name] for c in table.columns
                                                    if c.name != "id"})
            con.execute(stmt, rows[start:start + 1000])
        if rows:
            bump_cards_version(con)

    def dispose(self) -> None:
        """Close the database connections."""
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None



class TextWithNul(DeckcheckError):
    """Text holding a NUL character (U+0000), refused before it reaches the database: PostgreSQL cannot store it
    in a text column, SQLite would keep it where other tools cut the text short."""


def _field_name(key: object, context: Any, at: int) -> str:
    """The column a bound parameter fills, as far as its name tells ("notes_1" -> "notes")."""
    if not isinstance(key, str):
        names = getattr(getattr(context, "compiled", None), "positiontup", None) or ()
        key = names[at] if at < len(names) else f"value {at + 1}"
    return re.sub(r"(_\d+|__\d+|_m\d+)+$", "", str(key))


def refuse_nul(engine: Any) -> None:
    """Make `engine` refuse (TextWithNul, naming the field) any statement whose parameters hold text with a NUL,
    before the statement reaches the database: on PostgreSQL the driver's error would be a crash (500) of
    whatever stores it (a desk upload, a collection sheet with `_x0000_` in an XLSX cell, a card edit)."""
    from sqlalchemy import event

    @event.listens_for(engine, "before_cursor_execute")
    def _no_nul(conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, executemany: bool) -> None:
        rows = parameters if executemany else [parameters]
        for row in rows or ():
            pairs = row.items() if isinstance(row, dict) else enumerate(row or ())
            for at, (key, value) in enumerate(pairs):
                if isinstance(value, str) and "\x00" in value:
                    field = _field_name(key, context, at)
                    shown = value.replace("\x00", "\\x00")
                    shown = shown if len(shown) <= 60 else shown[:60] + "..."
                    raise TextWithNul(f"{field}: {shown!r} holds a NUL character (\\x00; _x0000_ in an XLSX "
                                      "cell), which cannot be stored; remove it. Nothing was changed.")
