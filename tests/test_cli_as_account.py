"""The command line as an account of a shared database (issue 30; CONTRACTS §9), on SQLite and PostgreSQL: without
--as (or $DECKCHECK_USER) it is the keeper, as always; with it, the collection and deck commands read and change that
account's own collections and decks only; an account nobody has is exit 2 with a message. `users remove` says what
the account owned and what became of it."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from deckcheck.collection import Holding
from deckcheck.db.collections import Collections
from deckcheck.db.keptdecks import StoredCard
from deckcheck.db.store import Store
from deckcheck.library.accounts import Accounts
from deckcheck.library.api import Catalog
from deckcheck.library.decks import DeckBook

from inproc import run_cli

ROOT = Path(__file__).resolve().parent.parent
LEGAL = str(ROOT / "examples/decks/type1e-connor-legal.txt")
OTHER = str(ROOT / "examples/decks/type1e-generic-legal.txt")
CARD = "Alertness (Dodge)"


def _ok(*args: str) -> str:
    r = run_cli(*args)
    assert r.code == 0 and r.crash is None, (r.code, r.err.decode(), r.crash)
    return r.text


def _quantities(collections: Collections) -> list[int]:
    return [h.quantity for h in collections.holdings(None)]


def test_the_cli_acts_as_the_keeper_or_as_a_named_account(filled_db_url, monkeypatch):
    url = filled_db_url
    store = Store(url)
    ann = Accounts(store).add("Ann", "an account password", ["player"])
    keeper = Collections(store)
    keeper.kept.create("aggro", "aggro", "type1e", "1 x\n", (), None)
    db = ("--db", url)
    _ok("collection", "add", CARD, "--qty", "2", "--as", "ann", *db)
    assert _quantities(keeper) == [] and _quantities(keeper.of(ann.id)) == [2]
    monkeypatch.setenv("DECKCHECK_USER", "Ann")
    assert "\t2\t" in _ok("collection", "list", *db)
    monkeypatch.delenv("DECKCHECK_USER")

    assert "saved deck 'aggro'" in _ok("deck", "save", "aggro", OTHER, "--as", "Ann", *db)
    assert "saved version 2 of deck 'aggro'" in _ok("deck", "save", "aggro", LEGAL, "--as", "Ann", *db)
    mine = _ok("deck", "list", "--as", "Ann", *db)
    assert "Ann: 1 saved deck" in mine and "\taggro\t" not in mine  # its own id, not the keeper's deck's key
    assert '"aggro"' in _ok("collection", "missing", "aggro", "--json", "--as", "Ann", *db)  # its deck by its name
    assert getattr(keeper.kept.get("aggro"), "version", 0) == 1  # the keeper's deck of that name is untouched
    _ok("deck", "delete", "aggro", "--as", "Ann", *db)
    assert keeper.kept.listing(ann.id) == [] and keeper.kept.get("aggro") is not None

    nobody = run_cli("collection", "list", "--as", "Nobody", *db)
    assert nobody.code == 2 and nobody.crash is None and b"no account is named 'Nobody'" in nobody.err


@pytest.mark.parametrize("filled_db_url", ["sqlite"], indirect=True)  # the storage: tests/db/test_account_removal.py
def test_users_remove_says_what_the_account_owned(filled_db_url):
    url = filled_db_url
    store = Store(url)
    accounts, keeper = Accounts(store), Collections(store)
    card = next(iter(keeper.cards.values()))
    for name in ("Bo", "Cy"):
        mine = keeper.of(accounts.add(name, "an account password", ["player"]).id)
        mine.apply_all({"main": {h.key: h for h in [Holding(card, quantity=1)]}})
    keeper.kept.create("cydeck", "mine", "type1e", "1 x\n", (StoredCard(card.id, card.name, "", 1),),
                       accounts.get("Cy").id)
    db = ("--db", url)
    refused = run_cli("users", "remove", "Bo", *db)
    assert refused.code == 2 and b"Bo owns 1 collection (main); nothing was changed" in refused.err
    assert run_cli("users", "remove", "Bo", "--hand-to-keeper", "--delete-owned", *db).code == 2
    assert _ok("users", "remove", "Bo", "--hand-to-keeper", *db).strip() == \
        "removed Bo: 1 collection (main) handed to the keeper"
    assert keeper.names() == ["main"]
    assert _ok("users", "remove", "Cy", "--delete-owned", *db).strip() == \
        "removed Cy: 1 collection (main); 1 deck (mine (cydeck)) deleted"
    assert keeper.names() == ["main"] and keeper.kept.listing(everyone=True) == []


@pytest.mark.parametrize("filled_db_url", ["sqlite"], indirect=True)  # the storage: tests/db/test_kept_decks.py
def test_stats_and_diff_read_saved_decks_as_the_account_named(filled_db_url):
    """`stats NAME --as A` and `diff X Y --as A` read A's own deck by its name and another's private deck not at all,
    as `deck show --as` does; without --as they are the keeper's, who reads any saved deck by its key."""
    url = filled_db_url
    store = Store(url)
    accounts = Accounts(store)
    for name in ("Ann", "Bo"):
        accounts.add(name, "an account password", ["player"])
    db = ("--db", url)
    _ok("deck", "save", "mine", LEGAL, "--as", "Ann", *db)
    _ok("deck", "save", "other", OTHER, "--as", "Ann", *db)
    _ok("deck", "save", "bos", OTHER, "--as", "Bo", *db)
    bos = Collections(store).kept.listing(accounts.get("Bo").id)[0]
    assert bos.visibility == "link"
    assert _ok("stats", bos.id, "--json", "--as", "Ann", *db)  # a link deck: whoever has its id reads it, as on the web
    book = DeckBook(Catalog(url), Collections(store))
    book.update(accounts.get("Bo").person(), bos.id, visibility="private")

    stats = json.loads(_ok("stats", "mine", "--json", "--as", "Ann", *db))
    assert stats == {**json.loads(_ok("stats", LEGAL, "--json", *db)), "deck": "mine"}  # the deck Ann saved
    diff = _ok("diff", "mine", "other", "--json", "--as", "Ann", *db)
    assert diff == _ok("diff", LEGAL, OTHER, "--json", *db).replace(json.dumps(LEGAL)[1:-1], "mine").replace(
        json.dumps(OTHER)[1:-1], "other")
    for args in (("stats", "mine"), ("diff", "mine", "other"), ("stats", "mine", "--as", "Bo")):
        refused = run_cli(*args, *db)  # the keeper has no deck named so; Bo has no deck named so
        assert refused.code == 2 and refused.crash is None and b"no saved deck" in refused.err, refused.err
    hidden = run_cli("stats", bos.id, "--as", "Ann", *db)  # Bo's private deck by its id: not Ann's to read
    assert hidden.code == 2 and hidden.crash is None and b"no saved deck" in hidden.err, hidden.err
    assert run_cli("diff", "mine", bos.id, "--as", "Ann", *db).code == 2
    assert _ok("stats", bos.id, *db)  # the keeper reads any saved deck by its key
    nobody = run_cli("stats", "mine", "--as", "Nobody", *db)
    assert nobody.code == 2 and b"no account is named 'Nobody'" in nobody.err
