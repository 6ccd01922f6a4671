"""One module of migrations (deckcheck.db.migrations) and a schema version kept in the database: an earlier
database is brought up to date and stamped, a database of a newer deckcheck is refused, nothing changed."""
from __future__ import annotations

from contextlib import nullcontext

import pytest
from sqlalchemy import create_engine

from deckcheck.db import migrations, rawsql
from deckcheck.db.collections import Collections
from deckcheck.db.store import Store, read_meta
from deckcheck.errors import DatabaseError


def _set_version(store: Store, version: int | None) -> None:
    """Stamp a database with another schema version (None: from before deckcheck kept one)."""
    with store.engine.begin() as con:
        con.exec_driver_sql(f"delete from deckcheck_meta where key = '{rawsql.SCHEMA_KEY}'")
        if version is not None:
            con.exec_driver_sql(f"insert into deckcheck_meta (key, value) values ('{rawsql.SCHEMA_KEY}', "
                                f"'{version}')")
    store.dispose()


def _version(url: str) -> str | None:
    store = Store(url)
    with store.engine.connect() as con:
        found = read_meta(con, [rawsql.SCHEMA_KEY]).get(rawsql.SCHEMA_KEY)
    store.dispose()
    return found


def test_the_schema_version_is_the_number_of_steps():
    assert len(migrations.STEPS) == rawsql.SCHEMA_VERSION


def test_a_new_database_is_stamped_with_the_schema_version(empty_db_url):
    Store(empty_db_url).count()
    assert _version(empty_db_url) == str(rawsql.SCHEMA_VERSION)


def test_a_database_from_before_versions_is_migrated_and_stamped(db_url):
    store = Store(db_url)
    before = store.cards()
    with store.engine.begin() as con:
        con.exec_driver_sql('alter table collection_entry drop column "price"')
    _set_version(store, None)
    assert Store(db_url).cards() == before
    assert _version(db_url) == str(rawsql.SCHEMA_VERSION)
    assert Collections(Store(db_url)).holdings("main") is not None  # the price column is back


@pytest.mark.parametrize("hot_path", [True, False])
def test_a_database_of_a_newer_deckcheck_is_refused(db_url, hot_path):
    """Refused by the sqlite3 read of `check --db` and by the SQLAlchemy path alike, with nothing changed."""
    if hot_path and not db_url.startswith("sqlite"):
        pytest.skip("the sqlite3 hot path reads SQLite files only")
    store = Store(db_url)
    store.count()
    _set_version(store, rawsql.SCHEMA_VERSION + 1)
    newer = Store(db_url)
    with pytest.raises(DatabaseError, match=rf"newer deckcheck \(schema version {rawsql.SCHEMA_VERSION + 1}; this "
                                            rf"one knows up to {rawsql.SCHEMA_VERSION}\); nothing was changed"):
        newer.cards() if hot_path else newer.count()
    newer.dispose()
    engine = create_engine(db_url)  # past deckcheck's checks: what the refused database holds
    with engine.connect() as con:
        assert con.exec_driver_sql(rawsql.SCHEMA_SQL).scalar_one() == str(rawsql.SCHEMA_VERSION + 1)
    engine.dispose()


def test_entries_of_before_the_defaults_are_merged_into_the_default_ones(db_url):
    """Step 5: an entry whose empty condition and language mean NM and English joins the entry that says so."""
    from deckcheck.collection import DEFAULT_CONDITION, Holding
    store = Store(db_url)
    card = store.cards()[0]
    collections = Collections(store)
    collections.apply("main", {h.key: h for h in [Holding(card, quantity=2)]})
    with store.engine.begin() as con:
        con.exec_driver_sql("insert into collection_entry (collection_id, card_id, condition, language, foil, "
                            "quantity, trade_quantity, want_quantity, location, notes, price) select collection_id, "
                            "card_id, '', '', foil, 3, 0, 0, 'box 2', '', '' from collection_entry")
    _set_version(store, migrations.STEPS.index(migrations._entry_defaults))
    [held] = Collections(Store(db_url)).holdings("main")
    assert (held.quantity, held.condition, held.location) == (5, DEFAULT_CONDITION, "box 2")


def test_an_event_of_before_tiebreakers_gets_the_default_order(db_url):
    """Step 6: an event stored before tie-breakers were kept ranks by OMW, GW, OGW; its rounds' tables are new."""
    from deckcheck.library.desk import Desk
    desk = Desk(db_url)
    event, _token = desk.create_event("Old Open", "type1e")
    with desk.store.engine.begin() as con:
        con.exec_driver_sql('alter table desk_event drop column "tiebreakers"')
    _set_version(desk.store, 5)
    assert Desk(db_url).event(event.id).tiebreakers == ("omw", "gw", "ogw")
    assert _version(db_url) == str(rawsql.SCHEMA_VERSION)


def test_a_database_from_before_accounts_gets_their_tables(db_url):
    """Step 7: the account, session and token tables, in a database an older deckcheck made (without them)."""
    from sqlalchemy import inspect
    store = Store(db_url)
    store.count()
    with store.engine.begin() as con:
        for table in ("api_token", "account_session", "account"):
            con.exec_driver_sql(f"drop table {table}")
    _set_version(store, migrations.STEPS.index(migrations._accounts))
    store.dispose()
    again = Store(db_url)
    again.count()
    assert {"account", "account_session", "api_token"} <= set(inspect(again.engine).get_table_names())
    assert _version(db_url) == str(rawsql.SCHEMA_VERSION)


def _as_schema_8(store: Store) -> None:
    """Make the collection table as deckcheck made it up to schema version 8: no owner, a name unique over the
    whole database (the constraint a UNIQUE column makes), the keeper's collections and imports in it."""
    from deckcheck.db.models import COLLECTION_OWNER_NAME
    with store.engine.begin() as con:
        if con.dialect.name == "sqlite":
            con.exec_driver_sql("create table collection_old (id INTEGER NOT NULL, name VARCHAR NOT NULL, "
                                "PRIMARY KEY (id), UNIQUE (name))")
            con.exec_driver_sql("insert into collection_old (id, name) select id, name from collection")
            con.exec_driver_sql("drop table collection")
            con.exec_driver_sql("alter table collection_old rename to collection")
        else:
            con.exec_driver_sql(f"drop index {COLLECTION_OWNER_NAME}")
            con.exec_driver_sql("alter table collection drop column owner_id")
            con.exec_driver_sql("alter table collection add constraint collection_name_key unique (name)")
    _set_version(store, 8)


def test_collections_of_schema_8_become_the_keepers_and_names_unique_per_owner(db_url):
    """Step 9: every collection of an earlier database is the keeper's, nothing lost (entries, the import journal
    and its undo); afterwards an account may have a collection of the keeper's name, and one owner never two."""
    from sqlalchemy import insert, inspect
    from sqlalchemy.exc import IntegrityError, SAWarning

    from deckcheck.collection import Holding
    from deckcheck.db.models import COLLECTIONS
    store = Store(db_url)
    cards = store.cards()
    keeper = Collections(store)
    keeper.apply_all({"main": {h.key: h for h in [Holding(cards[0], quantity=2), Holding(cards[1], quantity=1)]}},
                     label="first.csv")
    keeper.apply_all({"binder": {h.key: h for h in [Holding(cards[2], quantity=4)]}}, label="binder.csv")
    before = (keeper.names(), keeper.holdings(None), keeper.imports("main"))
    _as_schema_8(store)
    engine = create_engine(db_url)  # past deckcheck's opening (which migrates): the table as version 8 had it
    with engine.connect() as con:
        assert "owner_id" not in {c["name"] for c in inspect(con).get_columns("collection")}
    engine.dispose()

    again = Store(db_url)
    kept = Collections(again)
    assert (kept.names(), kept.holdings(None), kept.imports("main")) == before
    assert _version(db_url) == str(rawsql.SCHEMA_VERSION)
    with again.engine.connect() as con:
        assert set(con.execute(COLLECTIONS.select().with_only_columns(COLLECTIONS.c.owner_id)).scalars()) == {None}
        with pytest.warns(SAWarning) if con.dialect.name == "sqlite" else nullcontext():  # the expression index
            assert not [u for u in inspect(con).get_unique_constraints("collection") if u["column_names"] == ["name"]]
    theirs = kept.of(7)
    assert theirs.names() == [] and not theirs.holdings(None)
    theirs.apply("main", {h.key: h for h in [Holding(cards[3], quantity=9)]})
    assert [h.quantity for h in theirs.holdings("main")] == [9]
    assert sorted(h.quantity for h in kept.holdings("main")) == [1, 2]
    with pytest.raises(IntegrityError), again.engine.begin() as con:
        con.execute(insert(COLLECTIONS).values(name="main", owner_id=None))  # the keeper's second "main"
    assert kept.undo("binder").label == "binder.csv" and kept.names() == ["main"]
    assert migrations.migrate(again.engine, again.where(), again.translated_errors) == 0
