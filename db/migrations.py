"""The schema migrations, all of them: each step brings a database of an earlier deckcheck one schema version up.

The version a database is at is kept in it (deckcheck_meta SCHEMA_KEY). Store opens a database by creating the
missing tables (at the latest schema), then `migrate` runs the steps past the stored version in one transaction
and stamps the version reached; writers of other processes wait their turn (SQLite's write lock, a PostgreSQL
advisory lock). A database from before the version was kept counts as version 0, and may be at any step, so each
step looks before it acts. A database at a version newer than this deckcheck's was written by a newer deckcheck:
it is refused, nothing changed (an older deckcheck would write rows the newer one does not expect).
"""
from __future__ import annotations

import json
import os
import warnings
from typing import Any, Callable

from sqlalchemy import (Connection, MetaData, bindparam, case, delete, func, insert, inspect, or_, select,
                        update)
from sqlalchemy.exc import DBAPIError, SAWarning
from sqlalchemy.schema import CreateIndex

from deckcheck.collection import DEFAULT_CONDITION, language_name
from deckcheck.errors import DatabaseError

from . import accounts, rawsql
from .models import (ACCOUNTS, API_TOKENS, CARDS, COLLECTION_ENTRIES, COLLECTIONS, META, SAVED_DECK_CARDS,
                     SAVED_DECK_VERSIONS, SAVED_DECKS, SESSIONS, dialect_insert)
from .rawsql import LATE_COLUMNS, SCHEMA_KEY, SCHEMA_VERSION
from .repository import LEGACY_EXTRA, extra_to_text

MIGRATION_LOCK = 0x64636B6D  # "dckm": the PostgreSQL advisory lock migrations take turns on


def _columns(con: Connection, table: str) -> set[str]:
    return {c["name"] for c in inspect(con).get_columns(table)}


def _add_column(con: Connection, table: str, column: str) -> bool:
    """Add a column of a table class that the table lacks (its type and default as the class declares them);
    whether it was missing."""
    if column in _columns(con, table):
        return False
    declared = META.metadata.tables[table].c[column]
    default = None if declared.nullable else getattr(declared.default, "arg", "")  # the field's ('' or 0)
    con.exec_driver_sql(rawsql.add_column_sql(table, column, declared.type.compile(con.dialect), default))
    return True


def _card_extra(con: Connection) -> None:
    """1: a game's own values in the card table's `extra` (before: Raven's and Taktik's columns, renown ... suit,
    which stay, unused, their values copied)."""
    had = _columns(con, "card")
    if not _add_column(con, "card", "extra"):
        return
    legacy = [c for c in LEGACY_EXTRA if c in had]
    rows = con.exec_driver_sql(rawsql.legacy_extra_sql(legacy)).all() if legacy else []
    if rows:
        con.execute(update(CARDS).where(CARDS.c.id == bindparam("card")).values(extra=bindparam("extra")),
                    [{"card": r[0], "extra": extra_to_text(zip(legacy, r[1:], strict=True))} for r in rows])
        _set_meta(con, {"cards_version": os.urandom(16).hex()})  # the cards changed: running servers read them again


def _set_meta(con: Connection, values: dict[str, str]) -> None:
    """Set facts of the database (deckcheck.db.store.write_meta, which this module sits below)."""
    stmt = dialect_insert(con)(META)
    con.execute(stmt.on_conflict_do_update(index_elements=[META.c.key], set_={"value": stmt.excluded.value}),
                [{"key": k, "value": v} for k, v in values.items()])


def _entry_price(con: Connection) -> None:
    """2: a collection entry's price."""
    _add_column(con, "collection_entry", "price")


def _import_undone(con: Connection) -> None:
    """3: an import's undo kept in the journal."""
    _add_column(con, "collection_import", "undone")


def _event_time_zone(con: Connection) -> None:
    """4: an event's time zone (minutes east of UTC)."""
    _add_column(con, "desk_event", "tz_offset")


def _entry_defaults(con: Connection) -> None:
    """5: entries whose empty condition or language (NM, English since CONTRACTS §4 was revised) would split an
    entry: given the defaults, and merged into an entry that already has them."""
    e = COLLECTION_ENTRIES
    rows = con.execute(select(e.c.id, e.c.collection_id, e.c.card_id, e.c.condition, e.c.language, e.c.foil,
                              e.c.quantity, e.c.trade_quantity, e.c.want_quantity, e.c.location, e.c.notes, e.c.price)
                       .where(or_(e.c.condition == "", e.c.language == ""))).all()
    for r in rows:
        condition, language = r.condition or DEFAULT_CONDITION, language_name(r.language)
        same = con.execute(select(e.c.id).where(e.c.collection_id == r.collection_id, e.c.card_id == r.card_id,
                                                e.c.condition == condition, e.c.language == language,
                                                e.c.foil == r.foil)).first()
        if same is None:
            con.execute(update(e).where(e.c.id == r.id).values(condition=condition, language=language))
            continue
        con.execute(update(e).where(e.c.id == same[0]).values(
            quantity=e.c.quantity + r.quantity, trade_quantity=e.c.trade_quantity + r.trade_quantity,
            want_quantity=e.c.want_quantity + r.want_quantity,
            **{c: case((e.c[c] == "", getattr(r, c)), else_=e.c[c]) for c in ("location", "notes", "price")}))
        con.execute(delete(e).where(e.c.id == r.id))


def _event_tiebreakers(con: Connection) -> None:
    """6: an event's tie-breaker order and its owner (its rounds, pairings and drops are tables of their own,
    created as new); an event of before has the keeper for owner."""
    _add_column(con, "desk_event", "tiebreakers")
    _add_column(con, "desk_event", "owner_id")


def _accounts(con: Connection) -> None:
    """7: accounts, their sessions and API tokens (CONTRACTS §9), where a database lacks them."""
    for table in (ACCOUNTS, SESSIONS, API_TOKENS):
        table.create(con, checkfirst=True)


KEPT_DECK_COLUMNS = ("title", "visibility", "owner_id", "version", "copied_from", "updated_at")


def _kept_decks(con: Connection) -> None:
    """8: kept decks (CONTRACTS §10): every earlier saved deck is a `link` deck of the keeper's, called by its
    key, with one version (its text, format and cards as saved)."""
    for column in KEPT_DECK_COLUMNS:
        _add_column(con, "saved_deck", column)
    d, v, dc = SAVED_DECKS, SAVED_DECK_VERSIONS, SAVED_DECK_CARDS
    con.execute(update(d).where(d.c.title == "").values(title=d.c.name))
    con.execute(update(d).where(d.c.updated_at == "").values(updated_at=d.c.saved_at))
    versioned = set(con.execute(select(v.c.deck_name)).scalars())
    rows = []
    for name, fmt, text, at in con.execute(select(d.c.name, d.c.format, d.c.text, d.c.saved_at).order_by(d.c.name)):
        if name in versioned:
            continue
        cards = con.execute(select(dc.c.card_id, CARDS.c.name, dc.c.section, dc.c.quantity)
                            .join_from(dc, CARDS, CARDS.c.id == dc.c.card_id).where(dc.c.deck_name == name)
                            .order_by(dc.c.id)).all()
        rows.append({"deck_name": name, "version": 1, "format": fmt, "text": text, "at": at,
                     "cards": json.dumps([list(c) for c in cards], ensure_ascii=False)})
    if rows:
        con.execute(SAVED_DECK_VERSIONS.insert(), rows)


def _collection_owners(con: Connection) -> None:
    """9: a collection belongs to an owner (CONTRACTS §9): every earlier collection is the keeper's (owner NULL), and
    a name is unique per owner (coalesce(owner_id, 0), name) instead of over the whole database. SQLite cannot drop
    the table's UNIQUE(name): its table is made again under the new schema, same ids and rows (SQLite checks no
    foreign keys here, so the entries and imports that name those ids stay as they are); PostgreSQL drops the
    constraint."""
    c = COLLECTIONS
    _add_column(con, "collection", "owner_id")
    with warnings.catch_warnings():  # SQLite's reflection skips the expression index (and says so)
        warnings.simplefilter("ignore", SAWarning)
        unique = inspect(con).get_unique_constraints("collection")
    by_name = [u["name"] for u in unique if u["column_names"] == ["name"]]
    if by_name and con.dialect.name == "sqlite":
        new = c.to_metadata(MetaData(), name=rawsql.REBUILT_COLLECTION)
        new.indexes.clear()  # made below, under their names, once the table is called collection again
        new.create(con)
        con.execute(insert(new).from_select(["id", "name", "owner_id"], select(c.c.id, c.c.name, c.c.owner_id)))
        con.exec_driver_sql(rawsql.drop_table_sql("collection"))
        con.exec_driver_sql(rawsql.rename_table_sql(rawsql.REBUILT_COLLECTION, "collection"))
    elif by_name:
        for constraint in by_name:
            con.exec_driver_sql(rawsql.drop_constraint_sql("collection", str(constraint)))
    for index in c.indexes:
        con.execute(CreateIndex(index, if_not_exists=True))


def _account_ids_kept(con: Connection) -> None:
    """10: an account's id is never used again, and nothing is left to an account that is gone (CONTRACTS §9). An
    earlier `users remove` left the account's collections, decks and events under its id, and SQLite gives a new
    account the highest id again: they go to the keeper now (a collection whose name the keeper has is renamed
    "NAME (from account N)"), with the sessions, tokens and judge namings of no account deleted. On SQLite the account
    table is made again with AUTOINCREMENT (same ids and rows); PostgreSQL's ids come from a sequence already. The
    first keeper's own things become the keeper's (the first keeper is the keeper: people.Person.owner_id)."""
    for gone in accounts.orphan_owners(con):
        accounts.hand_to_keeper(con, gone, f"account {gone}")
    accounts.forget_orphans(con)
    first = accounts.first_keeper(con)
    if first is not None:
        row = accounts.account_row(con, account_id=first)
        accounts.hand_to_keeper(con, first, str(row[1]) if row is not None else f"account {first}")
    if con.dialect.name != "sqlite":
        return
    made = con.exec_driver_sql(rawsql.TABLE_SQL, (ACCOUNTS.name,)).scalar()
    if made is None or "AUTOINCREMENT" in str(made).upper():
        return
    new = ACCOUNTS.to_metadata(MetaData(), name=rawsql.REBUILT_ACCOUNT)
    new.indexes.clear()
    new.create(con)
    columns = [col.name for col in ACCOUNTS.c]
    con.execute(insert(new).from_select(columns, select(*ACCOUNTS.c)))
    con.exec_driver_sql(rawsql.drop_table_sql(ACCOUNTS.name))
    con.exec_driver_sql(rawsql.rename_table_sql(rawsql.REBUILT_ACCOUNT, ACCOUNTS.name))
    for index in ACCOUNTS.indexes:
        con.execute(CreateIndex(index, if_not_exists=True))


# Step n brings a database at version n - 1 to version n. A new step is appended, never inserted.
STEPS: tuple[Callable[[Connection], None], ...] = (_card_extra, _entry_price, _import_undone, _event_time_zone,
                                                   _entry_defaults, _event_tiebreakers, _accounts,
                                                   _kept_decks, _collection_owners, _account_ids_kept)
assert len(STEPS) == SCHEMA_VERSION, "rawsql.SCHEMA_VERSION is the number of steps"


def stored_version(con: Connection) -> int:
    """The schema version a database is at (0: from before deckcheck kept it)."""
    text = con.execute(select(META.c.value).where(META.c.key == SCHEMA_KEY)).scalar()
    return int(text) if text and text.isdigit() else 0


def refuse_newer(version: int, where: str) -> None:
    """DatabaseError for a database a newer deckcheck has written (its schema version past this one's)."""
    if version > SCHEMA_VERSION:
        raise DatabaseError(f"the database {where} was set up by a newer deckcheck (schema version {version}; this "
                            f"one knows up to {SCHEMA_VERSION}); nothing was changed: update deckcheck to use it")


def migrate(engine: Any, where: str, translated: Callable[[], Any]) -> int:
    """Bring a database up to SCHEMA_VERSION; return how many steps ran. `translated`: the Store's context that
    turns lock, read-only and full-disk errors into DatabaseError."""
    with engine.connect() as con:
        version = stored_version(con)
    refuse_newer(version, where)
    if version == SCHEMA_VERSION:
        return 0
    try:
        with translated(), engine.begin() as con:
            if con.dialect.name == "sqlite":
                con.exec_driver_sql(rawsql.BEGIN_IMMEDIATE)
            else:
                con.execute(select(func.pg_advisory_xact_lock(MIGRATION_LOCK)))
            version = stored_version(con)  # another process may have done it meanwhile
            refuse_newer(version, where)
            for step in STEPS[version:]:
                step(con)
            if version < SCHEMA_VERSION:
                _set_meta(con, {SCHEMA_KEY: str(SCHEMA_VERSION)})
            return SCHEMA_VERSION - version
    except (DatabaseError, DBAPIError):
        with engine.connect() as con:
            if version == 0 and _up_to_date(con):
                return 0  # a database that needs no step but cannot be stamped (read-only): used as it is
        raise


def _up_to_date(con: Connection) -> bool:
    """Whether a database of unknown version already has every column the steps add, and no entry to merge."""
    e = COLLECTION_ENTRIES
    return (all(column in _columns(con, table) for table, column in LATE_COLUMNS)
            and not con.execute(select(func.count()).select_from(e)
                                .where(or_(e.c.condition == "", e.c.language == ""))).scalar_one())
