"""A card sheet import that can be undone (deckcheck.db.cardimports, the web's keeper import): the undo puts each
value back with its old source, keeps a value changed again since, removes the cards the import added but those a
collection holds, and says so; a second undo, or one of no import, changes nothing. On an empty database of each
kind (db_url: SQLite, and PostgreSQL where DECKCHECK_TEST_PG is set)."""
from __future__ import annotations

import pytest
from sqlalchemy import insert

from deckcheck import provenance
from deckcheck.cardsheet import sheet_cards_from_rows
from deckcheck.db import cardimports
from deckcheck.db.collections import NoSuchImport, UndoRefused
from deckcheck.db.models import COLLECTION_ENTRIES, COLLECTIONS
from deckcheck.db.sources import stored_sources
from deckcheck.db.store import Store
from deckcheck.db.updates import update_cards

HEAD = ("game", "id", "name", "type", "renown", "health", "skill")


def rows(*cells: tuple[str, ...]):
    numbered = [(n, dict(zip(HEAD, c, strict=True))) for n, c in enumerate(cells, start=2)]
    return sheet_cards_from_rows(numbered, "test.csv")[0]


@pytest.fixture
def store(db_url):
    s = Store(db_url)
    s.init(empty=True)
    yield s
    s.dispose()


def renown(store: Store, card_id: str) -> object:
    return next(c for c in store.cards() if c.id == card_id).extra_value("renown")


def test_an_undo_puts_back_keeps_later_changes_and_held_cards(store):
    first_result, first = cardimports.import_sheet(
        store, rows(("raven-stormcrow", "RS-T-1", "Ann", "Hunter", "3", "4", "2"),
                    ("raven-stormcrow", "RS-T-2", "Bow", "Item", "1", "", "1")), "a.csv", "keeper")
    assert (first.id, first.added, first_result.updated) == (1, ("RS-T-1", "RS-T-2"), [])
    _, second = cardimports.import_sheet(
        store, rows(("raven-stormcrow", "RS-T-1", "Ann", "Hunter", "5", "6", "2")), "b.csv", "keeper")
    assert second.id == 2 and {c[1] for c in second.changes} == {"renown", "health"}
    update_cards(store, [{"id": "RS-T-1", "health": "9"}], provenance.web("a later edit"), overwrite=True)
    done = cardimports.undo(store, 2)
    assert (done.restored, done.later) == (1, 1)  # renown back; health changed since: it stays
    assert renown(store, "RS-T-1") == 3
    assert next(c for c in store.cards() if c.id == "RS-T-1").extra_value("health") == 9
    assert str(stored_sources(store)["RS-T-1"]["renown"]).startswith("sheet:a.csv")  # the old source too
    with pytest.raises(UndoRefused, match="undone already"):
        cardimports.undo(store, 2)
    with store.begin() as con:  # a collection holds the bow
        (cid,) = con.execute(insert(COLLECTIONS).values(name="main").returning(COLLECTIONS.c.id)).one()
        con.execute(insert(COLLECTION_ENTRIES).values(collection_id=cid, card_id="RS-T-2", quantity=1))
    done = cardimports.undo(store, 1)
    assert (done.removed, done.kept) == (["RS-T-1"], ["RS-T-2"])
    assert [c.id for c in store.cards()] == ["RS-T-2"]
    assert cardimports.last_import(store) is None and [p.id for p in cardimports.imports(store)] == [2, 1]


def test_an_undo_of_no_import_is_refused(store):
    with pytest.raises(NoSuchImport):
        cardimports.undo(store, 1)


def test_an_undo_gives_a_grid_back_its_inferred_flag(store):
    """A change's text writes a grid derived from the card's name as `UC (inferred)` (updates._value_text); the undo
    reads it back as the grid and its grid_inferred flag (updates.value_cells), not as a grid named so."""
    update_cards(store, [{"game": "highlander", "id": "T-1", "name": "Upper Thrust", "type": "Attack", "grid": "UC",
                          "grid_inferred": "yes"}], provenance.web("derived"), overwrite=True)
    head = ("game", "id", "name", "type", "grid")
    sheet = sheet_cards_from_rows([(2, dict(zip(head, ("highlander", "T-1", "Upper Thrust", "Attack", "UL"),
                                                strict=True)))], "g.csv")[0]
    _, past = cardimports.import_sheet(store, sheet, "g.csv", "keeper")
    assert [c[1:3] for c in past.changes] == [("grid", "UC (inferred)")]
    before = next(c for c in store.cards() if c.id == "T-1")
    assert before.grid_inferred is False
    assert cardimports.undo(store, past.id).restored == 1
    after = next(c for c in store.cards() if c.id == "T-1")
    assert (after.grid, after.grid_inferred) == (2, True)
