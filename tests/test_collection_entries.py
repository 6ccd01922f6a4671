"""Collections as people write them (CONTRACTS §4): skipped rows never delete, whole-number quantities,
entries never split by how they were written, prices, exact collection names through an XLSX export."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from deckcheck.library.api import CollectionApp
from deckcheck.errors import CardSheetError, DeckcheckError
from deckcheck.importers.collection import write_collection

from conftest import COLLECTION_HEADER as HEADER, sheet, totals

ROOT = Path(__file__).resolve().parent.parent
HELD = HEADER + ("Thrust (2),ME,4,LP,English,no,0,0,binder,\n"
                 "Thrust (2),ME,1,NM,English,no,0,0,,\n"
                 "Connor MacLeod Persona,SE,1,NM,English,no,0,0,,\n"
                 "Upper Left Attack (1),ME,3,NM,English,no,0,0,,\n")


# -- item 1: --mode replace --skip-bad -------------------------------------------------------------
def test_a_skipped_row_keeps_what_the_collection_held_of_its_card(collection_app, tmp_path):
    collection_app.import_sheet(sheet(tmp_path, HELD))
    typo = HEADER + ("Thrust (2),ME,4,LQ,English,no,0,0,binder,\n"  # condition typo: skipped
                     "Connor MacLeod Persona,SE,2,NM,English,no,0,0,,\n")
    _l, changes, problems, _r = collection_app.import_sheet(sheet(tmp_path, typo), mode="replace", skip_bad=True)
    assert [p.column for p in problems] == ["condition"]
    held = {(h.card.name, h.condition): h.quantity for h in collection_app.collections.holdings()}
    assert held == {("Thrust (2)", "LP"): 4, ("Thrust (2)", "NM"): 1, ("Connor MacLeod Persona", "NM"): 2}
    assert (changes["main"].removed, changes["main"].kept, changes["main"].updated) == (1, 2, 1)


def test_an_all_bad_file_empties_nothing(collection_app, tmp_path):
    collection_app.import_sheet(sheet(tmp_path, HELD))
    before = totals(collection_app)
    bad = HEADER + "Thrst (2),ME,4,LP,,no,0,0,,\nNobody Persona,SE,x,NM,,no,0,0,,\n"
    _l, changes, problems, _r = collection_app.import_sheet(sheet(tmp_path, bad), mode="replace", skip_bad=True)
    assert len(problems) == 3 and totals(collection_app) == before  # an unknown card could be any entry: none goes
    assert (changes["main"].removed, changes["main"].kept) == (0, 4)


def test_without_bad_rows_replace_still_removes(collection_app, tmp_path):
    collection_app.import_sheet(sheet(tmp_path, HELD))
    _l, changes, _p, _r = collection_app.import_sheet(sheet(tmp_path, HEADER + "Thrust (2),ME,4,LP,,no,0,0,binder,\n"),
                                           mode="replace", skip_bad=True)
    assert changes["main"].removed == 3
    assert [h.card.name for h in collection_app.collections.holdings()] == ["Thrust (2)"]


# -- item 4: quantities are whole numbers 0..1,000,000 ------------------------------------------------
def test_huge_and_fractional_spreadsheet_cells_are_bad_rows(collection_app, tmp_path):
    import xlsxwriter
    path = tmp_path / "q.xlsx"
    book = xlsxwriter.Workbook(str(path))
    ws = book.add_worksheet()
    ws.write_row(0, 0, ["card", "set", "quantity"])
    for r, q in enumerate([2 ** 63 - 1, 2.5, -1, 1_000_001, True, 3.0, 999_997], start=1):
        ws.write_row(r, 0, ["Thrust (2)", "ME"])
        ws.write(r, 2, q)
    book.close()
    with pytest.raises(CardSheetError) as exc:
        collection_app.import_sheet(path)
    assert [p.row for p in exc.value.problems] == [2, 3, 4, 5, 6]
    _l, _c, problems, _r = collection_app.import_sheet(path, skip_bad=True)
    assert [h.quantity for h in collection_app.collections.holdings()] == [1_000_000]
    with pytest.raises(DeckcheckError, match="more than 1,000,000 copies"):
        collection_app.import_sheet(path, skip_bad=True)  # merged twice: over the limit, and nothing changes
    assert [h.quantity for h in collection_app.collections.holdings()] == [1_000_000]


# -- issue 10 item 4: one entry however it was written ------------------------------------------------
def test_empty_condition_language_foil_mean_nm_english_no_everywhere(collection_app, tmp_path):
    collection_app.import_sheet(sheet(tmp_path, "card,set,quantity,condition,language,foil\nThrust (2),ME,2,,,\n"
                                     "Thrust (2),ME,1,NM,english,no\nThrust (2),ME,1,Near Mint,EN,\n"))
    collection_app.collections.edit("main", collection_app.holding("Thrust (2)", "ME", quantity=3), 1)
    (h,) = collection_app.collections.holdings()
    assert (h.condition, h.language, h.foil, h.quantity) == ("NM", "English", False, 7)


def test_remove_matches_what_you_give_and_lists_several(collection_app, tmp_path):
    collection_app.import_sheet(sheet(tmp_path, HELD))
    with pytest.raises(DeckcheckError) as exc:
        collection_app.remove("main", "Thrust (2)", None, None, None, None, quantity=1)
    assert "2 entries" in str(exc.value) and "4 x Thrust (2) [ME] LP English" in str(exc.value)
    now, _h = collection_app.remove("main", "Thrust (2)", None, "LP", None, None, quantity=1)
    assert now.quantity == 3 and now.location == "binder"
    now, _h = collection_app.remove("main", "Upper Left Attack (1)", None, None, None, None, quantity=3)
    assert now is None
    with pytest.raises(DeckcheckError, match="holds no Thrust .2. MP"):
        collection_app.remove("main", "Thrust (2)", None, "MP", None, None, quantity=1)


def test_replace_keeps_entries_whole(collection_app, tmp_path):
    collection_app.import_sheet(sheet(tmp_path, HELD.replace(",binder,", ",binder,dog-eared")))
    deckbox = ("Count,Name,Edition,Condition,Language,Foil,My Price\n"
               "5,Thrust (2),Movie Edition,Lightly Played,English,,$0.40\n")
    collection_app.import_sheet(sheet(tmp_path, deckbox), mode="replace")
    (h,) = collection_app.collections.holdings()
    assert (h.quantity, h.location, h.notes, h.price) == (5, "binder", "dog-eared", "$0.40")


def test_price_is_kept_exported_and_valued(collection_app, tmp_path, cli_env):
    collection_app.import_sheet(sheet(tmp_path, "card,set,quantity,price\nThrust (2),ME,4,0.50\n"
                                     "Connor MacLeod Persona,SE,1,12\nUpper Left Attack (1),ME,2,\n"))
    out = tmp_path / "out.csv"
    write_collection(out, collection_app.collections.holdings())
    assert "price" in out.read_text().splitlines()[0] and ",0.50," in out.read_text()
    if collection_app.collections.store.url.startswith("sqlite"):
        exe = Path(sys.executable).with_name("deckcheck")
        r = subprocess.run([str(exe), "collection", "stats", "--db", collection_app.collections.store.url], text=True,
                           capture_output=True, env=dict(os.environ, COLUMNS="200"))
        assert "value: 14.00 (1 entry without a price)" in r.stdout, r.stdout
        assert "7 cards, 3 distinct cards" in r.stdout


def test_cli_messages_count_right_and_show_wants(tmp_path):
    exe = Path(sys.executable).with_name("deckcheck")
    db = str(tmp_path / "m.db")

    def run(*args):
        return subprocess.run([str(exe), *args, "--db", db], text=True, capture_output=True,
                              env=dict(os.environ, COLUMNS="200"), cwd=ROOT)
    want = sheet(tmp_path, "card,set,want_quantity\nThrust (2),ME,2\n")
    r = run("collection", "import", str(want))
    assert "1 row," in r.stdout and "added: wants 2 x Thrust (2) [ME] NM English" in r.stdout, r.stdout
    ids = sorted(CollectionApp(db).collections.cards)[:30]
    many = sheet(tmp_path, "card,card_id,quantity\n" + "".join(f"x,{i},1\n" for i in ids), "many.csv")
    r = run("collection", "import", str(many))
    assert "30 added" in r.stdout and r.stdout.count("  added: ") == 10 and "… and 20 more" in r.stdout, r.stdout
    r = run("collection", "list", "--filter", "Thrust (2)")
    assert "1 entry" in r.stdout


# -- item 5: export --all keeps exact names ---------------------------------------------------------
NAMES = ["main", "Trades/Binder 1", 'Dave\'s "good" cards', "x" * 40 + " one", "x" * 40 + " two", "History",
         "[box]:*?", "'quoted'"]


def test_export_all_restores_exact_collection_names(collection_app, db_url, tmp_path, sqlite_url):
    for n, name in enumerate(NAMES):
        collection_app.import_sheet(sheet(tmp_path, HEADER + f"Thrust (2),ME,{n + 1},NM,English,no,0,0,,\n"),
                                    collection=name)
    book = tmp_path / "all.xlsx"
    write_collection(book, collection_app.collections.holdings(None), by_collection=True)
    import openpyxl
    titles = [ws.title for ws in openpyxl.load_workbook(book)]
    assert len(titles) == len(set(t.lower() for t in titles)) == len(NAMES) + 1 and max(map(len, titles)) <= 31
    other = CollectionApp(sqlite_url if db_url.startswith("postgresql") else f"sqlite:///{tmp_path / 'b.db'}")
    other.import_sheet(book, collection="ignored")
    assert sorted(other.collections.names()) == sorted(NAMES)
    assert {h.collection: h.quantity for h in other.collections.holdings(None)} == \
        {name: n + 1 for n, name in enumerate(NAMES)}


def test_a_collection_over_the_sheet_limit_reads_back_whole(collection_app, tmp_path, monkeypatch):
    from deckcheck.importers import writers
    monkeypatch.setattr(writers, "XLSX_MAX_ROWS", 3)  # 2 rows a sheet instead of 1,048,575
    collection_app.import_sheet(sheet(tmp_path, HELD))
    collection_app.import_sheet(sheet(tmp_path, HELD), collection="Trades/Binder 1")
    book = tmp_path / "all.xlsx"
    write_collection(book, collection_app.collections.holdings(None), by_collection=True)
    import openpyxl
    assert len(openpyxl.load_workbook(book).sheetnames) == 5
    _l, changes, _p, _r = collection_app.import_sheet(book, mode="replace")
    assert set(changes) == {"main", "Trades/Binder 1"} and not any(c.changed for c in changes.values())
