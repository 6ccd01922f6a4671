"""What an account owns when it goes, and whose an id is (issue 30; CONTRACTS §9), on SQLite and PostgreSQL:
`users remove` refuses an account that owns collections, decks or events, naming them, unless told to hand them to
the keeper or to delete them; an account's id is never given to a new account (SQLite's AUTOINCREMENT, migration
step 10, which also gives the keeper what earlier removals left behind); the first keeper account is the keeper,
whose things are what the CLI, the admin token and a database from before accounts hold."""
from __future__ import annotations

import pytest
from sqlalchemy import func, insert, select

from deckcheck.collection import Holding
from deckcheck.db import accounts as q
from deckcheck.db import migrations, rawsql
from deckcheck.db.collections import Collections
from deckcheck.db.keptdecks import Revision, StoredCard
from deckcheck.db.models import (ACCOUNTS, API_TOKENS, COLLECTION_ENTRIES, COLLECTIONS, EVENTS, IMPORTS, JUDGES,
                                 SAVED_DECK_VERSIONS, SAVED_DECKS, SESSIONS)
from deckcheck.db.store import Store
from deckcheck.library.accounts import AccountError, Accounts, OwnsThings
from deckcheck.library.api import CollectionApp

from test_migrations import _set_version, _version

PASSWORD = "a removal password"


def _hold(collections: Collections, name: str, quantity: int, card_at: int = 0) -> None:
    card = sorted(collections.cards.values(), key=lambda c: c.id)[card_at]
    collections.apply_all({name: {h.key: h for h in [Holding(card, quantity=quantity)]}}, label=f"{name}.csv")


def _deck(store: Store, key: str, owner_id: int | None, versions: int = 1) -> None:
    collections = Collections(store)
    card = sorted(collections.cards.values(), key=lambda c: c.id)[0]
    for n in range(1, versions + 1):
        cards = (StoredCard(card.id, card.name, "", n),)
        if n == 1:
            collections.kept.create(key, f"deck {key}", "type1e", f"{n} x\n", cards, owner_id)
        else:
            collections.kept.revise(key, lambda _d, n=n, cards=cards: Revision(  # type: ignore[misc]
                text=f"{n} x\n", format="type1e", cards=cards))


def _event(store: Store, key: str, owner_id: int | None) -> None:
    with store.begin() as con:
        con.execute(insert(EVENTS).values(id=key, name=f"event {key}", format="type1e", token_hash="x" * 64,
                                          created_at="2026-01-01T00:00:00Z", owner_id=owner_id))


def _rows(store: Store, *columns, where=()) -> list:
    with store.engine.connect() as con:
        return [tuple(r) for r in con.execute(select(*columns).where(*where))]


def test_an_account_that_owns_things_is_removed_only_when_told_what_becomes_of_them(filled_db_url):
    """Refused, naming what it owns, nothing changed; with hand-to-keeper its collections (one renamed: the keeper
    has a "main"), decks and events are the keeper's, its judge namings and tokens gone; the next account gets a new
    id (on SQLite the removed account's was the highest, which a table without AUTOINCREMENT gives again)."""
    url = filled_db_url
    store = Store(url)
    accounts = Accounts(store)
    accounts.add("Ann", PASSWORD, ["keeper"])
    bob = accounts.add("Bob", PASSWORD, ["player", "judge"])
    keeper = Collections(store)
    _hold(keeper, "main", 5)
    _hold(keeper.of(bob.id), "main", 2)
    _hold(keeper.of(bob.id), "binder", 4)
    _deck(store, "bobdeck1", bob.id)
    _event(store, "ev1", bob.id)
    _event(store, "ev2", None)
    with store.begin() as con:
        con.execute(insert(JUDGES).values(event_id="ev2", account_id=bob.id))
    accounts.new_token(bob, "script")

    with pytest.raises(OwnsThings, match=r"Bob owns 2 collections \(binder, main\); 1 deck \(deck bobdeck1 "
                                         r"\(bobdeck1\)\); 1 event \(event ev1 \(ev1\)\); nothing was changed"):
        accounts.remove("Bob")
    assert accounts.get("Bob").id == bob.id and accounts.owned("Bob")["collections"] == ["binder", "main"]
    assert _rows(store, JUDGES.c.id) and _rows(store, API_TOKENS.c.id)

    account, owned = accounts.remove("Bob", "hand-to-keeper")
    assert account.id == bob.id and owned["decks"] == ["deck bobdeck1 (bobdeck1)"]
    assert keeper.names() == ["binder", "main", "main (from Bob)"]
    assert [h.quantity for h in keeper.holdings("main (from Bob)")] == [2]
    assert [h.quantity for h in keeper.holdings("main")] == [5]
    assert getattr(keeper.kept.get("bobdeck1"), "owner_id", 0) is None
    assert {r[0]: r[-1] for r in _rows(store, EVENTS.c.id, EVENTS.c.owner_id)} == {"ev1": None, "ev2": None}
    assert _rows(store, JUDGES.c.id) == [] and _rows(store, API_TOKENS.c.id) == []

    cy = accounts.add("Cy", PASSWORD, ["player", "judge"])
    assert cy.id > bob.id
    assert keeper.of(cy.id).names() == [] and keeper.kept.listing(cy.id) == []


def test_delete_owned_deletes_the_collections_and_decks_and_hands_the_events_on(filled_db_url):
    url = filled_db_url
    store = Store(url)
    accounts = Accounts(store)
    bob = accounts.add("Bob", PASSWORD)
    keeper = Collections(store)
    _hold(keeper, "main", 5)
    _hold(keeper.of(bob.id), "main", 2, 1)
    _deck(store, "bobdeck1", bob.id, versions=2)
    _deck(store, "keepdeck", None)
    _event(store, "ev1", bob.id)
    with store.engine.connect() as con:
        theirs = con.execute(select(COLLECTIONS.c.id).where(COLLECTIONS.c.owner_id == bob.id)).scalar_one()
    accounts.remove("Bob", "delete")
    assert _rows(store, COLLECTIONS.c.name, COLLECTIONS.c.owner_id) == [("main", None)]
    assert _rows(store, COLLECTION_ENTRIES.c.id, where=[COLLECTION_ENTRIES.c.collection_id == theirs]) == []
    assert _rows(store, IMPORTS.c.id, where=[IMPORTS.c.collection_id == theirs]) == []
    assert [h.quantity for h in keeper.holdings("main")] == [5]
    assert _rows(store, SAVED_DECKS.c.name) == [("keepdeck",)]
    assert _rows(store, SAVED_DECK_VERSIONS.c.deck_name) == [("keepdeck",)]
    assert _rows(store, EVENTS.c.id, EVENTS.c.owner_id) == [("ev1", None)]
    with pytest.raises(AccountError, match="one of refuse, hand-to-keeper, delete"):
        accounts.remove("Nobody at all", "burn")


SCHEMA_9_ACCOUNT = ("create table account_old (id INTEGER NOT NULL, name VARCHAR NOT NULL, name_key VARCHAR NOT NULL, "
                    "password_hash VARCHAR NOT NULL, roles VARCHAR NOT NULL, created_at VARCHAR NOT NULL, "
                    "password_at VARCHAR NOT NULL, PRIMARY KEY (id), UNIQUE (name_key))")


def test_a_database_of_schema_9_keeps_account_ids_and_gives_the_keeper_what_was_left(filled_db_url):
    """Step 10 on a database as version 9 left it: the things of an account removed back then (id 99: no account has
    it) are the keeper's, its sessions, tokens and judge namings gone; the first keeper's own collection is the
    keeper's (renamed: the keeper has a "main" from before accounts); the accounts, their sessions and passwords are
    as they were; on SQLite the table is AUTOINCREMENT and the highest id is never given again."""
    url = filled_db_url
    store = Store(url)
    accounts = Accounts(store)
    ann = accounts.add("Ann", PASSWORD, ["keeper"])
    bob = accounts.add("Bob", PASSWORD)
    _account, session = accounts.sign_in("Bob", PASSWORD)
    keeper = Collections(store)
    _hold(keeper, "main", 5)
    with store.begin() as con:  # as version 9 made them: the first keeper's under its id, a removed account's left
        con.execute(insert(COLLECTIONS).values(name="main", owner_id=ann.id))
        con.execute(insert(COLLECTIONS).values(name="binder", owner_id=99))
        if con.dialect.name == "sqlite":  # PostgreSQL's foreign keys kept these from outliving the account
            con.execute(insert(SESSIONS).values(id_hash="gone", account_id=99, created_at=""))
            con.execute(insert(API_TOKENS).values(account_id=99, label="", token_hash="gone", created_at=""))
    _hold(keeper.of(99), "binder", 3)
    _deck(store, "oldone", 99)
    _event(store, "ev99", 99)
    with store.begin() as con:
        con.execute(insert(JUDGES).values(event_id="ev99", account_id=99))
        if con.dialect.name == "sqlite":
            con.exec_driver_sql(SCHEMA_9_ACCOUNT)
            con.exec_driver_sql("insert into account_old select * from account")
            con.exec_driver_sql("drop table account")
            con.exec_driver_sql("alter table account_old rename to account")
            assert "AUTOINCREMENT" not in con.exec_driver_sql(rawsql.TABLE_SQL, ("account",)).scalar_one()
    _set_version(store, migrations.STEPS.index(migrations._account_ids_kept))

    again = Store(url)
    again.count()
    assert _version(url) == str(rawsql.SCHEMA_VERSION)
    with again.engine.connect() as con:
        if con.dialect.name == "sqlite":
            assert "AUTOINCREMENT" in con.exec_driver_sql(rawsql.TABLE_SQL, ("account",)).scalar_one()
        assert q.orphan_owners(con) == []
        assert con.execute(select(func.count()).select_from(SESSIONS)).scalar_one() == 1
        assert con.execute(select(func.count()).select_from(JUDGES)).scalar_one() == 0
        assert con.execute(select(func.count()).select_from(API_TOKENS)).scalar_one() == 0
        assert [tuple(r) for r in con.execute(select(ACCOUNTS.c.id, ACCOUNTS.c.name).order_by(ACCOUNTS.c.id))] == [
            (ann.id, "Ann"), (bob.id, "Bob")]
    kept = Accounts(again)
    assert getattr(kept.by_session(session), "name", None) == "Bob"
    assert kept.check_password("Ann", PASSWORD).first_keeper
    mine = Collections(again)
    assert mine.names() == ["binder", "main", "main (from Ann)"]
    assert [h.quantity for h in mine.holdings("binder")] == [3]
    assert getattr(mine.kept.get("oldone"), "owner_id", 0) is None
    assert _rows(again, EVENTS.c.id, EVENTS.c.owner_id) == [("ev99", None)]
    kept.remove("Bob")  # owns nothing: removed
    cy = kept.add("Cy", PASSWORD)
    assert cy.id > bob.id and mine.of(cy.id).names() == []


def test_the_first_keeper_account_is_the_keeper(filled_db_url):
    """What a database from before accounts holds (the CLI's collection, owner NULL) is the first keeper account's
    when it signs in, and what it makes is the keeper's; a second keeper has its own; when the first stops being a
    keeper, the next one is the keeper, its own things the keeper's (nothing hidden), and the first an account like
    any other."""
    url = filled_db_url
    store = Store(url)
    _hold(Collections(store), "main", 5)  # before any account
    accounts = Accounts(store)
    ann = accounts.add("Ann", PASSWORD, ["keeper"])
    assert ann.first_keeper and ann.person().owner_id is None
    library = CollectionApp(filled_db_url)
    assert library.for_person(ann.person()).names() == ["main"]
    kim = accounts.add("Kim", PASSWORD, ["keeper", "player"])
    assert not kim.first_keeper and kim.person().owner_id == kim.id
    _hold(library.for_person(kim.person()).collections, "binder", 2)
    assert library.for_person(kim.person()).names() == ["binder"]
    _account, session = accounts.sign_in("Ann", PASSWORD)
    signed = accounts.by_session(session)
    assert signed is not None and signed.person().owner_id is None  # as the web reads who asks

    assert accounts.set_roles("Ann", ["player"]).first_keeper is False
    kim = accounts.get("Kim")
    assert kim.first_keeper and library.for_person(kim.person()).names() == ["binder", "main"]
    assert library.for_person(accounts.get("Ann").person()).names() == []
    assert [a.name for a in accounts.all() if a.first_keeper] == ["Kim"]
