"""Kept decks (CONTRACTS §10) in storage and the library: names, visibility, owners, versions made only when the
list changes, and the saved decks of an earlier database kept as link decks with one version."""
from __future__ import annotations

from pathlib import Path

import pytest

from deckcheck.db import migrations, rawsql
from deckcheck.db.store import Store
from deckcheck.errors import DeckcheckError
from deckcheck.library.api import CollectionApp
from deckcheck.library.decks import ChangeRefused, DeckBook, DeckNotFound, NotYourDeck
from deckcheck.library.people import ANONYMOUS, KEEPER, Person
from deckcheck.textlimits import parse_checked

ROOT = Path(__file__).resolve().parents[2]
CONNOR = (ROOT / "examples/decks/type1e-connor-legal.txt").read_text(encoding="utf-8")
ANN = Person(7, "ann", frozenset({"player"}))
BOB = Person(8, "bob", frozenset({"player"}))


def book_on(url: str) -> DeckBook:
    app = CollectionApp(url)
    return DeckBook(app.catalog, app.collections)


def test_a_database_of_before_kept_decks_keeps_its_links(sqlite_url):
    """A database of before kept decks (no kept-deck columns, no versions): its saved decks become link decks of
    the keeper's with one version, read by their old links and names."""
    app = CollectionApp(sqlite_url)
    deck, fmt = app.resolved(parse_checked(CONNOR, "x"))
    app.collections.save_deck("wMWprAfn", fmt.name, CONNOR, [(e.card, e.section, e.quantity) for e in deck])
    app.collections.save_deck("duncan", fmt.name, CONNOR, [(e.card, e.section, e.quantity) for e in deck])
    store = app.catalog.store
    with store.engine.begin() as con:  # the tables as deckcheck wrote them before kept decks
        con.exec_driver_sql("delete from saved_deck_version")
        for column in ("title", "visibility", "owner_id", "version", "copied_from", "updated_at"):
            con.exec_driver_sql(f'alter table saved_deck drop column "{column}"')
        before = migrations.STEPS.index(migrations._kept_decks)  # the version before kept decks
        con.exec_driver_sql(f"update deckcheck_meta set value = '{before}' where key = '{rawsql.SCHEMA_KEY}'")
    store.dispose()
    book = book_on(sqlite_url)
    for key in ("wMWprAfn", "duncan"):
        kept = book.get(ANONYMOUS, key)  # a link deck: anyone holding the id sees it
        assert (kept.name, kept.visibility, kept.owner_id, kept.version) == (key, "link", None, 1)
        assert [v.version for v in book.kept.versions(key)] == [1]
        assert book.kept.versions(key)[0].text == kept.text and len(kept.cards) == len(deck.entries)
    with pytest.raises(NotYourDeck):
        book.change(ANN, "duncan", "Thrust", 1)
    assert book.change(KEEPER, "duncan", "Thrust", 1)[0].version == 2
    store = Store(sqlite_url)
    with store.engine.connect() as con:
        assert con.exec_driver_sql(rawsql.SCHEMA_SQL).scalar_one() == str(rawsql.SCHEMA_VERSION)


def test_versions_names_visibility_and_owners(db_url):
    book = book_on(db_url)
    deck = book.create(ANN, "Connor", CONNOR, visibility="private")
    assert (deck.version, deck.owner_id, deck.format) == (1, 7, "type1e")
    with pytest.raises(DeckNotFound):  # another's private deck: not found, as if there were none
        book.get(BOB, deck.id)
    with pytest.raises(DeckNotFound):
        book.change(BOB, deck.id, "Thrust", 1)
    assert book.get(KEEPER, deck.id).id == deck.id  # the keeper reaches everyone's
    renamed, new = book.update(ANN, deck.id, name="Connor v2", visibility="link")
    assert (renamed.name, renamed.visibility, renamed.version, new) == ("Connor v2", "link", 1, False)
    assert book.update(ANN, deck.id, text=CONNOR + "\n# a remark\n")[1] is False  # the same list: no version
    with pytest.raises(NotYourDeck):  # a link deck is readable by its holder, changed by its owner only
        book.change(BOB, deck.id, "Thrust", 1)
    after, new = book.change(ANN, deck.id, "Thrust", 2)
    assert (after.version, new) == (2, True)
    after, _ = book.change(ANN, deck.id, "Dodge", 1)
    before = book.version(ANN, deck.id, 3)[1]
    for bad in (("Thurst", 1), ("Thrust", 10_000), ("Thrust", 0), ("Thrust", -50), ("2♠", 1)):
        with pytest.raises(DeckcheckError) as caught:
            book.change(ANN, deck.id, *bad)
        if bad[0] == "Thurst":
            assert isinstance(caught.value, ChangeRefused) and "Thrust" in caught.value.suggestions
    assert book.get(ANN, deck.id).cards == before.cards and book.get(ANN, deck.id).version == 3  # nothing changed
    history = book.history(ANN, deck.id)
    assert [(h.version, h.changes) for h in history] == [
        (1, "first version"), (2, "+2 Thrust"), (3, "+1 Connor MacLeod Dodge")]  # his own, read as the deck reads it
    restored, _ = book.restore(ANN, deck.id, 1)
    assert restored.version == 4 and sorted(restored.cards) == sorted(book.version(ANN, deck.id, 1)[1].cards)
    assert book.history(ANN, deck.id)[-1].changes == "\u22121 Connor MacLeod Dodge, \u22122 Thrust"
    copy = book.copy(BOB, deck.id)
    assert (copy.owner_id, copy.version, copy.copied_from, copy.visibility) == (8, 1, deck.id, "private")
    assert [d.id for d in book.mine(BOB)] == [copy.id] and book.mine(ANONYMOUS) == []
    book.update(BOB, copy.id, visibility="public")
    assert [d.id for d in book.public()] == [copy.id]
    with pytest.raises(DeckNotFound):
        book.version(ANN, deck.id, 99)
