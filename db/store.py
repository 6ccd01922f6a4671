"""The card database: set-up on first use, reading cards into core objects, atomic upserts."""
from __future__ import annotations

import csv
import datetime as _dt
from dataclasses import dataclass, field
from typing import Any, Iterable

from deckcheck.cards import Card
from deckcheck.cardsheet import cards_from_rows
from deckcheck.errors import DatabaseError

from .engine import BUNDLED_DIR, BUNDLED_SHEETS, ready_sqlite, resolve_url
from .repository import SELECT_LIST, card_from_values, card_to_values, cards_from_tuples

_ORDER = "game, edition, set_code, id"


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


def bundled_cards() -> list[Card]:
    """The cards shipped with deckcheck (db/data/*.csv, built by build_bundled.py)."""
    cards: list[Card] = []
    for name in BUNDLED_SHEETS:
        path = BUNDLED_DIR / name
        with open(path, encoding="utf-8", newline="") as f:
            rows = [(i, row) for i, row in enumerate(csv.DictReader(f), start=2)]
        cards += cards_from_rows(rows, str(path))[0]
    return cards


def _create_tables(engine, metadata, attempts: int = 5) -> None:
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
        self._engine: Any = None  # a sqlalchemy Engine, created on first use

    # -- set-up ---------------------------------------------------------------------------------
    @property
    def engine(self):
        """The SQLAlchemy engine; creating it creates the tables and loads the bundled cards if new."""
        if self._engine is None:
            self._engine = self._connect()
            self.ensure_initialized()
        return self._engine

    def _connect(self):
        from sqlalchemy import create_engine
        from sqlalchemy.exc import ArgumentError, NoSuchModuleError
        from sqlmodel import SQLModel

        from . import models  # noqa: F401  (registers the tables)
        from .engine import sqlite_path
        path = sqlite_path(self.url)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
        try:
            engine = create_engine(self.url)
            _create_tables(engine, SQLModel.metadata)
        except (ArgumentError, NoSuchModuleError) as exc:
            raise DatabaseError(f"cannot use database URL {self.url!r}: {exc}") from exc
        except Exception as exc:  # a server that does not answer, a file that cannot be written
            raise DatabaseError(f"cannot open database {self.url!r}: {exc.__class__.__name__}: "
                                f"{str(exc).splitlines()[0]}") from exc
        return engine

    def is_initialized(self) -> bool:
        """Whether the bundled cards were loaded (or the database was set up empty)."""
        from sqlalchemy import text
        with self._engine.connect() as con:
            row = con.execute(text("select value from deckcheck_meta where key = 'initialized'")).first()
        return row is not None

    def init(self, empty: bool = False) -> bool:
        """Create the tables and, unless empty, load the bundled cards; True when this call set the database up."""
        if self._engine is None:
            self._engine = self._connect()
        return self.ensure_initialized(empty)

    def ensure_initialized(self, empty: bool = False) -> bool:
        """Load the bundled cards into a new database (once). True when this call did it."""
        if self.is_initialized():
            return False
        from sqlalchemy import text
        from sqlalchemy.exc import IntegrityError
        try:
            with self._engine.begin() as con:
                if not empty:
                    self._upsert(con, bundled_cards(), "bundled")
                stamp = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
                con.execute(text("insert into deckcheck_meta (key, value) values ('initialized', :v)"), {"v": stamp})
                con.execute(text("insert into deckcheck_meta (key, value) values ('bundled', :v)"),
                            {"v": "no" if empty else "yes"})
        except IntegrityError:
            if self.is_initialized():  # another process set the database up at the same moment
                return False
            raise
        return True

    # -- reading --------------------------------------------------------------------------------
    def cards(self, game: str | None = None) -> list[Card]:
        """Every stored card (of one game), in a stable order. Reads SQLite with sqlite3 alone when it can."""
        where = " where game = ?" if game else ""
        con = ready_sqlite(self.url) if self._engine is None else None
        if con is not None:
            try:
                rows = con.execute(f"select {SELECT_LIST} from card{where} order by {_ORDER}",
                                   (game,) if game else ()).fetchall()
            finally:
                con.close()
            return cards_from_tuples(rows)
        from sqlalchemy import text
        with self.engine.connect() as c:
            rows = c.execute(text(f"select {SELECT_LIST} from card"
                                  f"{' where game = :g' if game else ''} order by {_ORDER}"),
                             {"g": game} if game else {}).all()
        return cards_from_tuples(rows)

    def count(self) -> int:
        """How many cards are stored."""
        from sqlalchemy import text
        with self.engine.connect() as c:
            return c.execute(text("select count(*) from card")).scalar_one()

    # -- writing --------------------------------------------------------------------------------
    def import_cards(self, cards: Iterable[Card], source: str, dry_run: bool = False) -> ImportResult:
        """Add or update cards by id in one transaction; equal rows are left alone (idempotent)."""
        from sqlalchemy import text
        cards = list(cards)
        result = ImportResult()
        with self.engine.begin() as con:
            existing = {}
            ids = [c.id for c in cards]
            for start in range(0, len(ids), 500):
                chunk = ids[start:start + 500]
                params = {f"i{n}": v for n, v in enumerate(chunk)}
                rows = con.execute(text(f"select {SELECT_LIST} from card where id in "
                                        f"({', '.join(':' + k for k in params)})"), params).mappings().all()
                existing.update({r["id"]: card_from_values(r) for r in rows})
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

    def _upsert(self, con, cards: list[Card], source: str) -> None:
        from .models import CardRow
        table = CardRow.__table__  # type: ignore[attr-defined]  # SQLModel sets it on table classes
        if con.dialect.name == "postgresql":
            from sqlalchemy.dialects.postgresql import insert
        elif con.dialect.name == "sqlite":
            from sqlalchemy.dialects.sqlite import insert  # type: ignore[assignment]  # same call shape
        else:
            raise DatabaseError(f"unsupported database {con.dialect.name!r}; use SQLite or PostgreSQL")
        rows = [card_to_values(c, source) for c in cards]
        for start in range(0, len(rows), 1000):
            stmt = insert(table)
            stmt = stmt.on_conflict_do_update(index_elements=["id"],
                                              set_={c.name: stmt.excluded[c.name] for c in table.columns
                                                    if c.name != "id"})
            con.execute(stmt, rows[start:start + 1000])

    def dispose(self) -> None:
        """Close the database connections."""
        if self._engine is not None:
            self._engine.dispose()
            self._engine = None

