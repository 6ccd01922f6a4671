"""`deckcheck db update`: a database set up by an older deckcheck gets this version's bundled cards and
their sources, without losing what people set; on SQLite and PostgreSQL alike (issue 15)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import text

from deckcheck import provenance as prov
from deckcheck.db.store import BUNDLE_KEY, Store, bundle_digest
from deckcheck.db.sources import stored_sources
from deckcheck.db.updates import update_cards, update_from_bundle

EXE = str(Path(sys.executable).with_name("deckcheck"))
POISON_GAS = "SE-xavier-st-cloud-poison-gas"  # Restriction 2, Reserved yes: from a named source
BREAK_WEAPON = "ME-break-weapon"  # Restriction 3 from a named source
AVERY = "SE-avery-hoskins"  # rarity Rare from the checklist


def age(store: Store) -> None:
    """Make a database look set up by a deckcheck before provenance and before this bundle: no sources,
    no bundle digest, a card missing, a value not known yet, and one value a person changed back then."""
    with store.begin() as con:
        con.execute(text("delete from card_source"))
        con.execute(text("delete from deckcheck_meta where key = :k"), {"k": BUNDLE_KEY})
        con.execute(text("delete from card where id = :i"), {"i": POISON_GAS})
        con.execute(text("update card set restriction = null where id = :i"), {"i": BREAK_WEAPON})
        con.execute(text("update card set rarity = 'Uncommon' where id = :i"), {"i": AVERY})


def card(store: Store, card_id: str):
    return next(c for c in store.cards() if c.id == card_id)


def test_a_new_database_is_already_up_to_date(empty_db_url):
    store = Store(empty_db_url)
    store.init()
    result = update_from_bundle(store, dry_run=True)
    assert (result.added, result.updated, result.changes, result.kept) == ([], [], [], [])


def test_an_old_database_gets_the_bundle_and_keeps_what_it_cannot_attribute(db_url):
    store = Store(db_url)
    store.init()
    before = {c.id: c for c in store.cards()}
    age(store)
    dry = update_from_bundle(store, dry_run=True)
    assert dry.added == [POISON_GAS] and POISON_GAS not in {c.id for c in store.cards()}  # a dry run writes nothing

    result = update_from_bundle(store)
    assert result.added == [POISON_GAS]
    assert card(store, POISON_GAS).restriction == 2 and card(store, BREAK_WEAPON).restriction == 3
    assert [(c.card_id, c.field, c.old, c.new) for c in result.changes if c.old != c.new] == [
        (BREAK_WEAPON, "restriction", "unknown", "3")]
    # a value stored without a source, differing from the bundle's weaker checklist value: kept and listed
    assert [(c.card_id, c.field, c.old, c.new) for c in result.kept] == [(AVERY, "rarity", "Uncommon", "Rare")]
    assert card(store, AVERY).rarity == "Uncommon"
    sources = stored_sources(store, [BREAK_WEAPON, AVERY, POISON_GAS])
    assert sources[BREAK_WEAPON]["restriction"].kind == "source" and sources[AVERY]["set"] == prov.CHECKLIST
    assert "rarity" not in sources[AVERY]  # still not recorded: the value is not the bundle's
    assert sources[POISON_GAS]["reserved"].kind == "source"
    # every other card is as the bundle has it, now with its sources
    assert {c.id: c for c in store.cards() if c.id != AVERY} == {i: c for i, c in before.items() if i != AVERY}

    again = update_from_bundle(store)
    assert (again.added, again.updated, again.kept) == ([], [], [(c) for c in result.kept])
    overwritten = update_from_bundle(store, overwrite=True)
    assert overwritten.kept == [] and card(store, AVERY).rarity == "Rare"


def test_a_web_edit_is_kept_unless_overwritten(db_url):
    store = Store(db_url)
    store.init()
    update_cards(store, [{"id": AVERY, "rarity": "Uncommon"}], prov.web("Judge Ann"), overwrite=True)
    result = update_from_bundle(store)
    assert [(c.field, c.old_source and c.old_source.kind) for c in result.kept] == [("rarity", "web")]
    assert card(store, AVERY).rarity == "Uncommon"
    update_from_bundle(store, overwrite=True)
    assert card(store, AVERY).rarity == "Rare"
    assert stored_sources(store, [AVERY])[AVERY]["rarity"] == prov.CHECKLIST


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([EXE, *args], capture_output=True, text=True)


def test_the_command_line_says_once_when_the_bundle_is_stale_and_db_update_mends_it(tmp_path):
    db = str(tmp_path / "old.db")
    assert run("db", "init", "--db", db).returncode == 0
    age(Store(db))
    first = run("cards", "show", "Break Weapon", "--db", db)
    assert first.returncode == 0
    stale = "holds the bundled cards of another deckcheck version; `deckcheck db update` brings in"
    assert first.stderr.count(stale) == 1

    dry = run("db", "update", "--dry-run", "--db", db)
    assert dry.returncode == 0 and dry.stdout.startswith(f"{db!r}: would add 1 card, would update 1 value of ")
    assert f"  new card {POISON_GAS}\n" in dry.stdout and "Break Weapon [ME-break-weapon] restriction: unknown → 3" \
        in dry.stdout
    assert "1 value kept: set by you or stored without a recorded source" in dry.stdout
    assert stale in run("cards", "show", "Break Weapon", "--db", db).stderr  # the dry run changed nothing

    done = run("db", "update", "--db", db)
    assert done.returncode == 0 and done.stdout.startswith(f"{db!r}: added 1 card, updated 1 value of ")
    after = run("cards", "show", "Break Weapon", "--db", db)
    assert stale not in after.stderr and after.returncode == 0
    with Store(db).begin() as con:
        assert con.execute(text("select value from deckcheck_meta where key = :k"),
                           {"k": BUNDLE_KEY}).scalar_one() == bundle_digest()


def test_what_people_set_survives_an_update_even_against_a_named_source(db_url):
    """Review M1-M3: a web edit over a named source's value, a value made unknown by a sheet, and a rename
    are a person's; db update keeps and lists them, --overwrite takes the bundle's."""
    store = Store(db_url)
    store.init()
    persona = "SE-connor-macleod-persona"  # gem_master 7 from the Watcher Database
    update_cards(store, [{"id": persona, "gem_master": "6"}], prov.web("Judge Ann"), overwrite=True)
    update_cards(store, [{"id": BREAK_WEAPON, "restriction": "unknown"}], prov.sheet("mine.csv"), overwrite=True)
    update_cards(store, [{"id": AVERY, "name": "Avery Hoskins (promo)"}], prov.sheet("mine.csv"), overwrite=True)
    result = update_from_bundle(store)
    assert sorted((c.card_id, c.field) for c in result.kept) == [(BREAK_WEAPON, "restriction"), (persona, "gem_master")]
    assert result.changes == [] and result.added == []
    assert (card(store, persona).gem_master, card(store, BREAK_WEAPON).restriction) == (6, None)
    assert card(store, AVERY).name == "Avery Hoskins (promo)"
    update_from_bundle(store, overwrite=True)
    assert (card(store, persona).gem_master, card(store, BREAK_WEAPON).restriction) == (7, 3)
    assert card(store, AVERY).name == "Avery Hoskins (promo)"  # names are never the bundle's to change


def test_an_empty_database_updated_holds_the_bundle_from_then_on(tmp_path):
    store = Store(str(tmp_path / "empty.db"))
    store.init(empty=True)
    assert update_from_bundle(store).added and store.count() > 1000
    with store.begin() as con:
        meta: dict[str, str] = dict(con.execute(text("select key, value from deckcheck_meta")).all())
    assert (meta["bundled"], meta[BUNDLE_KEY]) == ("yes", bundle_digest())


def test_an_older_deckcheck_never_undoes_a_newer_bundle(db_url):
    """Review L5: on a club's shared database, a member with an older deckcheck must not revert the values a
    newer one brought in; they are told to update deckcheck instead."""
    import logging

    from deckcheck.db import store as store_module
    from deckcheck.errors import DatabaseError
    store = Store(db_url)
    store.init()
    with store.begin() as con:
        con.execute(text("update deckcheck_meta set value = '99.0' where key = 'bundle_version'"))
        con.execute(text("update deckcheck_meta set value = 'from-the-future' where key = :k"), {"k": BUNDLE_KEY})
    before = {c.id: c for c in store.cards()}
    with pytest.raises(DatabaseError, match=r"deckcheck 99\.0, newer than this one .*nothing was changed"):
        update_from_bundle(store)
    assert {c.id: c for c in store.cards()} == before
    seen: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: seen.append(record.getMessage())  # type: ignore[method-assign]
    store_module.log.addHandler(handler)
    store_module.log.setLevel(logging.INFO)
    try:
        store_module._stale_told.discard(store.url)
        Store(db_url).cards()
    finally:
        store_module.log.removeHandler(handler)
    assert any("newer than this one" in m and "update deckcheck" in m for m in seen), seen


@pytest.mark.parametrize("older,newer", [("0.1.0", "0.1.1"), ("0.9", "0.10"), ("0.10.2", "1.0"), ("1.0rc1", "1.1")])
def test_version_order(older, newer):
    from deckcheck.db.store import version_order
    assert version_order(older) < version_order(newer)
