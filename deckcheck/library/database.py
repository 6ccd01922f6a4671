"""Library calls on a card database, for what the CLI's `cards` and `db` commands and the web's set-up do: the
terminal and the web call these and never hold a deckcheck.db Store themselves.

`db` is a database URL or SQLite path as `--db` takes it (None: the default database of CONTRACTS §5).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Mapping

from ..cards import Card
from ..cardsheet import SheetCard
from ..db import cardimports
from ..db.cardimports import CardImport, Undone
from ..db.copy import CopyResult
from ..db.copy import copy_database as _copy_database
from ..db.engine import resolve_url, sqlite_path, trouble
from ..db.sources import stored_sources
from ..db.store import Store
from ..db.store import cards_version as _cards_version
from ..db.updates import UpdateResult, update_cards, update_from_bundle
from ..provenance import Provenance
from .facts import facts_sheet


def stored_cards(db: str | None, game: str | None = None) -> list[Card]:
    """Every card the database holds (of one game), in a stable order."""
    return Store(db).cards(game)


def card_sources(db: str | None) -> dict[str, dict[str, Provenance]]:
    """Where each stored value came from: card id -> field -> provenance."""
    return stored_sources(Store(db))


def import_cards(db: str | None, rows: Iterable[SheetCard | Mapping[str, object]], source: Provenance, *,
                 dry_run: bool = False, overwrite: bool = False) -> UpdateResult:
    """Add cards, or update the fields card-sheet rows state, by id, all or none (`cards import`)."""
    return update_cards(Store(db), rows, source, dry_run=dry_run, overwrite=overwrite)


def preview_card_sheet(store: Store, rows: Iterable[SheetCard], source: Provenance) -> UpdateResult:
    """What importing card-sheet rows would do (`cards import --dry-run`): nothing is written."""
    return update_cards(store, rows, source, dry_run=True)


def import_card_sheet(store: Store, rows: Iterable[SheetCard], label: str, by: str) -> CardImport:
    """Import card-sheet rows as `cards import` does, keeping what lets the import be undone (the web's keeper
    import: deckcheck.db.cardimports)."""
    return cardimports.import_sheet(store, rows, label, by)[1]


def last_card_import(store: Store) -> CardImport | None:
    """The newest card sheet import not undone (the one to offer an undo of), or None."""
    return cardimports.last_import(store)


def card_import(store: Store, number: int) -> CardImport | None:
    """The record of card sheet import `number` (undone or not; after an undo, what it did), or None."""
    return cardimports.card_import(store, number)


def undo_card_import(store: Store, number: int) -> Undone:
    """Take a card sheet import back (deckcheck.db.cardimports.undo)."""
    return cardimports.undo(store, number)


def facts_rows(db: str | None) -> tuple[list[str], list[list[str]]]:
    """Every stored value not from the bundle, as a §1a card sheet with FIELD_source columns: (header, rows)."""
    return facts_sheet(Store(db))


@dataclass(frozen=True)
class DatabaseInit:
    """What setting a database up did: its URL, its name for messages, whether this call created it, its cards."""

    url: str
    where: str
    created: bool
    cards: int


def init_database(db: str | None, *, empty: bool = False) -> DatabaseInit:
    """Create the tables and, unless `empty`, load the bundled cards (once; a set-up database is left alone)."""
    store = Store(db)
    try:
        created = store.init(empty=empty)
        return DatabaseInit(store.url, store.where(), created, store.count())
    finally:
        store.dispose()


@dataclass(frozen=True)
class BundleUpdate:
    """What `db update` did (or would do) to a database, named for messages."""

    where: str
    result: UpdateResult


def update_bundle(db: str | None, *, dry_run: bool = False, overwrite: bool = False) -> BundleUpdate:
    """Bring this version's bundled cards into a database (deckcheck.db.updates.update_from_bundle)."""
    store = Store(db)
    return BundleUpdate(store.where(), update_from_bundle(store, dry_run=dry_run, overwrite=overwrite))


def missing_database(db: str | None) -> Path | None:
    """The SQLite file `db` names when it does not exist yet (a dry run creates nothing); else None."""
    path = sqlite_path(resolve_url(db))
    return path if path is not None and not path.exists() else None


def copy_database(source: str, target: str, *, replace: bool = False) -> CopyResult:
    """Copy a whole database into another and verify every table's rows and checksum (`db copy`)."""
    return _copy_database(source, target, replace=replace)


def database_trouble(exc: BaseException) -> str | None:
    """What a database error means for the user (locked, read-only, full disk ...), or None for any other error."""
    return trouble(exc)


def cards_stamp(store: Store) -> str | None:
    """The token of the last write of the database's cards, by any process (None: never written)."""
    with store.engine.connect() as con:
        return _cards_version(con)


def edit_cards(store: Store, rows: Iterable[Mapping[str, object]], source: Provenance) -> UpdateResult:
    """Change fields of stored cards through the partial card-sheet update, a person's edit (`overwrite`: the
    editor sees the value they replace)."""
    return update_cards(store, rows, source, overwrite=True)


__all__ = ["BundleUpdate", "DatabaseInit", "card_import", "card_sources", "cards_stamp", "copy_database",
           "database_trouble", "edit_cards", "facts_rows", "import_card_sheet", "import_cards", "init_database",
           "last_card_import", "missing_database", "preview_card_sheet", "stored_cards", "undo_card_import",
           "update_bundle"]
