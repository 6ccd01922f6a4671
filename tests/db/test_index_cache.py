"""The card index of a SQLite database is built once per database version and kept between runs
(deckcheck.db.indexcache): reused while the database is unchanged, built anew after any write."""
from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest

from deckcheck.library.api import Catalog
from deckcheck.catalog import CardIndex
from deckcheck.db import indexcache
from deckcheck.db.store import Store
from deckcheck.games import get_format

TYPE1E = get_format("type1e")


@pytest.fixture()
def db(tmp_path, monkeypatch):
    monkeypatch.setenv(indexcache.CACHE_ENV, str(tmp_path / "cache"))
    url = f"sqlite:///{tmp_path / 'cards.db'}"
    Store(url).count()
    return url


def kept_files() -> list:
    folder = indexcache.cache_dir()
    assert folder is not None
    return list(folder.glob("*.index"))


def builds(monkeypatch) -> list[int]:
    """Count the CardIndex objects built from cards (not those read back from the cache)."""
    made: list[int] = []
    original = CardIndex.__init__

    def counting(self, *args, **kwargs):
        made.append(1)
        original(self, *args, **kwargs)
    monkeypatch.setattr(CardIndex, "__init__", counting)
    return made


def test_the_index_is_built_once_and_kept_while_the_database_is_unchanged(db, monkeypatch):
    made = builds(monkeypatch)
    first = Catalog(db).index(TYPE1E)
    again = Catalog(db).index(TYPE1E)
    assert len(made) == 1 and again is not first
    assert [c.id for c in again.cards] == [c.id for c in first.cards]
    assert again.resolve("Thrust (2)").id == first.resolve("Thrust (2)").id
    assert again.suggest("Thrst") == first.suggest("Thrst") != []  # suggestions work from a kept index too


def test_any_write_to_the_database_makes_the_next_run_build_again(db, monkeypatch):
    made = builds(monkeypatch)
    before = Catalog(db).index(TYPE1E)
    card = before.resolve("Thrust (2)")
    from deckcheck.db.updates import update_cards
    update_cards(Store(db), [{"id": card.id, "text": "changed by the test"}], "web:test", overwrite=True)
    after = Catalog(db).index(TYPE1E)
    assert len(made) == 2
    changed = after.by_id(card.id)
    assert changed is not None and changed.text == "changed by the test"
    con = sqlite3.connect(db.removeprefix("sqlite:///"))  # a write by another program counts as well
    with con:
        con.execute("update card set text = 'by sqlite3' where id = ?", (card.id,))
    con.close()
    again = Catalog(db).index(TYPE1E).by_id(card.id)
    assert again is not None and again.text == "by sqlite3" and len(made) == 3


def test_a_database_made_again_at_the_same_path_never_gets_the_old_index(db, monkeypatch, tmp_path):
    Catalog(db).index(TYPE1E)
    path = tmp_path / "cards.db"
    path.unlink()
    Store(db).count()
    con = sqlite3.connect(path)
    with con:
        con.execute("update card set name = 'Renamed Thrust' where name = 'Thrust (2)'")
    con.close()
    assert Catalog(db).index(TYPE1E).matches("Renamed Thrust")


def test_a_broken_or_foreign_cache_file_is_ignored(db, monkeypatch):
    made = builds(monkeypatch)
    Catalog(db).index(TYPE1E)
    (kept,) = kept_files()
    kept.write_bytes(b"not a pickle")
    assert len(Catalog(db).index(TYPE1E)) > 1000 and len(made) == 2
    assert len(Catalog(db).index(TYPE1E)) > 1000 and len(made) == 2  # and written again, whole


def test_no_cache_for_this_runs_cards_in_wal_mode_or_when_turned_off(db, monkeypatch, tmp_path):
    made = builds(monkeypatch)
    from deckcheck.cards import Card
    extra = Card(id="t-1", name="Test Thrust", title="Test Thrust", type="Attack")
    Catalog(db, cards=[extra]).index(TYPE1E)
    Catalog(db, cards=[extra]).index(TYPE1E)
    assert len(made) == 2 and not kept_files()
    monkeypatch.setenv(indexcache.CACHE_ENV, "off")
    Catalog(db).index(TYPE1E)
    Catalog(db).index(TYPE1E)
    assert len(made) == 4
    monkeypatch.setenv(indexcache.CACHE_ENV, str(tmp_path / "cache"))
    con = sqlite3.connect(db.removeprefix("sqlite:///"))
    con.execute("pragma journal_mode=wal")
    con.close()
    assert indexcache.database_stamp(db) is None


def test_kept_cards_take_this_process_ids_for_the_specific_card(db):
    """Card.specific_id is an id of one process (CardId): cards read back from the cache take this process's
    ids, so a card made here (a sheet's row, a format's built-in card) never shares one by chance."""
    Catalog(db).index(TYPE1E)
    code = f"""
from deckcheck.cards import Card
other = Card(id="x", name="Unheard Of", title="Unheard Of", type="Attack")
from deckcheck.library.api import Catalog
from deckcheck.games import get_format
index = Catalog({db!r}).index(get_format("type1e"))
thrust = index.resolve("Thrust (2)")
twin = Card(id="y", name=thrust.name, title=thrust.title, immortal=thrust.immortal, weapon=thrust.weapon,
            version=thrust.version, edition=thrust.edition, game=thrust.game)
assert other.specific_id not in {{c.specific_id for c in index.cards}}
assert twin.specific_id == thrust.specific_id and twin.owner_title_id == thrust.owner_title_id
print("ok")
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.stdout.strip() == "ok", r.stderr[-2000:]


def test_a_run_served_from_the_cache_still_says_the_bundle_is_another_versions(db, caplog):
    """What reading the cards says (the database holds another version's bundled cards) is said from a kept
    index as well: once per process, as before."""
    import logging

    from sqlalchemy import text

    from deckcheck.db import store as store_module
    with Store(db).begin() as con:
        con.execute(text("update deckcheck_meta set value = 'old' where key = :k"), {"k": store_module.BUNDLE_KEY})
    Catalog(db).index(TYPE1E)
    store_module._stale_told.clear()
    with caplog.at_level(logging.INFO, logger="deckcheck"):
        again = Catalog(db).index(TYPE1E)
    assert "holds the bundled cards of another deckcheck version" in caplog.text and len(again) > 1000


def test_one_run_reads_the_kept_indexes_once_whatever_games_it_needs(db, monkeypatch):
    """A tournament of decks of several games (and of decks without a Format line, tried as the other games) asks
    for an index per game: the kept file is unpickled once a run, not once per game; a write still rebuilds."""
    warm = Catalog(db)
    for fmt in ("type1e", "raven-stormcrow", "taktik52"):
        warm.index(get_format(fmt))  # keeps the three games' indexes
    reads: list[int] = []
    original = indexcache.load

    def counting(url, stamp):
        reads.append(1)
        return original(url, stamp)
    monkeypatch.setattr(indexcache, "load", counting)
    made = builds(monkeypatch)
    catalog = Catalog(db)
    for fmt in ("type1e", "raven-stormcrow", "taktik52", "type1e"):
        catalog.index(get_format(fmt))
    assert (len(reads), len(made)) == (1, 0)
