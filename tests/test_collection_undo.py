"""Imports you can trust (CONTRACTS §4, revision 3): every import journalled and undone exactly, a file imported
again named before anything changes, and the preview's old → new of every entry and of the totals."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from deckcheck.db.collections import AlreadyImported
from deckcheck.errors import DeckcheckError
from deckcheck.importers.collection import write_collection

from conftest import COLLECTION_HEADER as HEADER, sheet, totals
from inproc import run_cli

GOOD = HEADER + ("Connor MacLeod Persona,SE,1,NM,English,no,0,0,binder 1,\n"
                 "Thrust (1),ME,3,LP,English,no,1,0,binder 2,\n"
                 "Back Away (Kern),WC,2,M,German,yes,0,0,box,\n"
                 "The Kurgan Back Away,ME,4,NM,,no,0,2,,\n")
OTHER = HEADER + ("Thrust (1),ME,1,LP,English,no,0,0,,a note\n"
                  "Upper Left Attack (1),ME,2,NM,English,no,0,0,,\n")


def export(app, tmp_path: Path, name: str = "main", n: list[int] = [0]) -> bytes:  # noqa: B006 (a counter)
    n[0] += 1
    path = tmp_path / f"export-{n[0]}.csv"
    write_collection(path, app.collections.holdings(name))
    return path.read_bytes()


def test_the_same_file_again_is_named_and_changes_nothing_unless_asked(collection_app, tmp_path):
    path = sheet(tmp_path, GOOD)
    collection_app.import_sheet(path)
    once = totals(collection_app)
    with pytest.raises(AlreadyImported) as exc:
        collection_app.import_sheet(path)
    assert re.search(r"imported into the collection 'main' on \d{4}-\d\d-\d\d \d\d:\d\d UTC: importing again adds "
                     r"its copies again", str(exc.value)) and "--again" in str(exc.value)
    assert totals(collection_app) == once
    _l, changes, _p, _r = collection_app.import_sheet(path, dry_run=True)
    past = changes["main"].imported_before
    assert past is not None and past.label == "c.csv" and past.mode == "merge" and changes["main"].updated == 4
    assert totals(collection_app) == once
    collection_app.import_sheet(path, again=True)
    assert next(h for h in collection_app.collections.holdings() if h.card.id == "ME-thrust-1").quantity == 6


def test_the_same_content_in_another_order_and_name_is_the_same_file(collection_app, tmp_path):
    collection_app.import_sheet(sheet(tmp_path, GOOD))
    head, *rows = GOOD.splitlines()
    shuffled = sheet(tmp_path, "\n".join([head, *reversed(rows)]) + "\n", "renamed.csv")
    with pytest.raises(AlreadyImported) as exc:
        collection_app.import_sheet(shuffled)
    assert "(from 'c.csv')" in str(exc.value)
    collection_app.import_sheet(shuffled, collection="trade binder")  # another collection: never imported there


def test_replace_mode_again_is_not_refused(collection_app, tmp_path):
    path = sheet(tmp_path, GOOD)
    collection_app.import_sheet(path, mode="replace")
    collection_app.collections.edit("main", collection_app.holding("Thrust (1)", "ME", condition="LP", quantity=5),
                                    1)
    _l, changes, _p, _r = collection_app.import_sheet(path, mode="replace")  # makes it equal to the file again
    assert changes["main"].imported_before is not None and changes["main"].updated == 1
    assert next(h for h in collection_app.collections.holdings() if h.card.id == "ME-thrust-1").quantity == 3


def test_the_preview_gives_every_entry_and_the_totals_before_and_after(collection_app, tmp_path):
    collection_app.import_sheet(sheet(tmp_path, GOOD))
    _l, changes, _p, _r = collection_app.import_sheet(sheet(tmp_path, OTHER, "o.csv"), dry_run=True)
    c = changes["main"]
    pairs = {h.card.id: (kind, old and old.quantity, h.quantity) for (kind, h), old in zip(c.sample, c.before,
                                                                                            strict=True)}
    assert pairs == {"ME-thrust-1": ("updated", 3, 4), "ME-upper-left-attack-1": ("added", None, 2)}
    assert c.totals_before == {"entries": 4, "copies": 10, "for_trade": 1, "wanted": 2}
    assert c.totals_after == {"entries": 5, "copies": 13, "for_trade": 1, "wanted": 2}
    _l, changes, _p, _r = collection_app.import_sheet(sheet(tmp_path, OTHER, "o.csv"), mode="replace", dry_run=True)
    c = changes["main"]
    removed = [(h.card.id, old.quantity) for (kind, h), old in zip(c.sample, c.before, strict=True)
               if kind == "removed"]
    assert len(removed) == 3 and c.totals_after == {"entries": 2, "copies": 3, "for_trade": 0, "wanted": 0}


@pytest.mark.parametrize("mode", ["merge", "replace"])
def test_undo_restores_the_collection_exactly(collection_app, tmp_path, mode):
    collection_app.import_sheet(sheet(tmp_path, GOOD))
    collection_app.collections.edit("main", collection_app.holding("Thrust (1)", "ME", condition="NM", quantity=1,
                                                                   notes="kept by hand"), 1)
    before = export(collection_app, tmp_path)
    collection_app.import_sheet(sheet(tmp_path, OTHER, "o.csv"), mode=mode)
    assert export(collection_app, tmp_path) != before
    assert collection_app.collections.last_import("main").label == "o.csv"
    undone = collection_app.undo_import("main")
    assert (undone.label, undone.mode) == ("o.csv", mode)
    assert export(collection_app, tmp_path) == before
    assert collection_app.collections.last_import("main").label == "c.csv"  # the import before it, next to undo
    collection_app.undo_import("main")
    assert [(h.card.id, h.condition, h.notes) for h in collection_app.collections.holdings()] == [
        ("ME-thrust-1", "NM", "kept by hand")]  # an entry added by hand, untouched by the first import, stays
    with pytest.raises(DeckcheckError, match="no import into the collection 'main' to undo"):
        collection_app.undo_import("main")


def test_undoing_an_import_lets_the_file_in_again_and_a_new_collection_goes(collection_app, tmp_path):
    path = sheet(tmp_path, GOOD)
    collection_app.import_sheet(path, collection="new one")
    assert "new one" in collection_app.collections.names()
    collection_app.undo_import("new one")
    assert "new one" not in collection_app.collections.names()
    collection_app.import_sheet(path, collection="new one")  # no longer "imported before"
    assert len(totals(collection_app, "new one")) == 4


def test_a_workbook_of_several_collections_is_undone_per_collection(collection_app, tmp_path):
    collection_app.import_sheet(sheet(tmp_path, GOOD))
    collection_app.import_sheet(sheet(tmp_path, OTHER, "o.csv"), collection="binder")
    book = tmp_path / "all.xlsx"
    write_collection(book, collection_app.collections.holdings(None), by_collection=True)
    main, binder = export(collection_app, tmp_path), export(collection_app, tmp_path, "binder")
    collection_app.import_sheet(book, again=True)  # merge: every collection doubles
    assert export(collection_app, tmp_path) != main
    collection_app.undo_import("binder")
    assert export(collection_app, tmp_path, "binder") == binder and export(collection_app, tmp_path) != main
    collection_app.undo_import("main")
    assert export(collection_app, tmp_path) == main


def test_cli_import_again_and_undo(tmp_path):
    db = f"sqlite:///{tmp_path / 'cli.db'}"
    path = sheet(tmp_path, GOOD)
    empty = tmp_path / "empty.csv"
    assert run_cli("collection", "export", str(empty), "--db", db).code == 0
    r = run_cli("collection", "import", str(path), "--db", db)
    assert r.code == 0 and "totals: entries 0 → 4, copies 0 → 10" in r.text, r.text
    first = tmp_path / "first.csv"
    run_cli("collection", "export", str(first), "--db", db)
    r = run_cli("collection", "import", str(path), "--db", db)
    err = r.err.decode()
    assert r.code == 2 and "imported into the collection 'main' on" in err and "--again" in err, err
    again = tmp_path / "again.csv"
    run_cli("collection", "export", str(again), "--db", db)
    assert again.read_bytes() == first.read_bytes()
    r = run_cli("collection", "import", str(path), "--dry-run", "--db", db)
    assert r.code == 0 and "imported into 'main' before, on" in r.text and "updated: 3 → 6 x Thrust (1)" in r.text
    r = run_cli("collection", "import", str(path), "--again", "--db", db)
    assert r.code == 0 and "copies 10 → 20" in r.text, r.text
    r = run_cli("collection", "undo", "--db", db)
    assert r.code == 0 and "undid the import of c.csv" in r.text and "the import before it: c.csv" in r.text
    run_cli("collection", "export", str(again), "--db", db)
    assert again.read_bytes() == first.read_bytes()
    assert run_cli("collection", "undo", "--db", db).code == 0
    run_cli("collection", "export", str(again), "--db", db)
    assert again.read_bytes() == empty.read_bytes()
    r = run_cli("collection", "undo", "--db", db)
    assert r.code == 2 and "no import into the collection 'main' to undo" in r.err.decode() and r.crash is None
