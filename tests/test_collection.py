"""The collection manager on SQLite and PostgreSQL: imports (atomic, idempotent), exports, edits, decks."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from deckcheck.library.api import CollectionApp
from deckcheck.errors import CardSheetError, DeckcheckError
from deckcheck.importers.collection import write_collection

from conftest import COLLECTION_HEADER as HEADER, sheet, totals

ROOT = Path(__file__).resolve().parent.parent
GOOD = HEADER + ("Connor MacLeod Persona,SE,1,NM,English,no,0,0,binder 1,\n"
                 "Thrust (1),ME,3,LP,English,no,1,0,binder 2,\n"
                 "Thrust (1),ME,2,LP,English,no,0,0,,second row adds up\n"
                 "Back Away (Kern),WC,2,M,German,yes,0,0,box,\n"
                 "The Kurgan Back Away,ME,4,NM,,no,0,0,,\n")


def test_import_merges_rows_of_one_key(collection_app, tmp_path):
    layout, changes, problems, rows = collection_app.import_sheet(sheet(tmp_path, GOOD))
    assert (layout, rows, problems) == ("deckcheck", 5, [])
    assert (changes["main"].added, changes["main"].updated) == (4, 0)
    thrust = next(h for h in collection_app.collections.holdings() if h.card.id == "ME-thrust-1")
    assert (thrust.quantity, thrust.trade_quantity, thrust.location, thrust.notes) == (5, 1, "binder 2",
                                                                                      "second row adds up")


def test_merge_adds_and_replace_is_idempotent(collection_app, tmp_path):
    path = sheet(tmp_path, GOOD)
    collection_app.import_sheet(path)
    collection_app.import_sheet(path, again=True)  # the same content again: only when asked (§4 rev 3)
    assert next(h for h in collection_app.collections.holdings() if h.card.id == "ME-thrust-1").quantity == 10
    collection_app.import_sheet(path, mode="replace")
    after_once = totals(collection_app)
    _layout, changes, _p, _r = collection_app.import_sheet(path, mode="replace")
    assert totals(collection_app) == after_once and not changes["main"].changed
    assert next(h for h in collection_app.collections.holdings() if h.card.id == "ME-thrust-1").quantity == 5


def test_replace_removes_what_the_file_lacks(collection_app, tmp_path):
    collection_app.import_sheet(sheet(tmp_path, GOOD))
    smaller = HEADER + "Thrust (1),ME,1,LP,English,no,0,0,,\n"
    _l, changes, _p, _r = collection_app.import_sheet(sheet(tmp_path, smaller, "s.csv"), mode="replace")
    assert (changes["main"].removed, changes["main"].updated) == (3, 1)
    assert [h.card.id for h in collection_app.collections.holdings()] == ["ME-thrust-1"]


BAD_ROWS = [
    ("Uper Left Attack,SE,1,NM,,no,0,0,,", "card", "unknown card", "Upper Left Attack"),
    ("Back Away,WC,1,NM,,no,0,0,,", "card", "ambiguous", "Back Away (Kern)"),
    ("Thrust,SE,three,NM,,no,0,0,,", "quantity", "a whole number from 0 to 1,000,000", None),
    ("Thrust,SE,-2,NM,,no,0,0,,", "quantity", "a whole number from 0 to 1,000,000", None),
    ("Thrust,SE,9223372036854775807,NM,,no,0,0,,", "quantity", "a whole number from 0 to 1,000,000", None),
    ("Thrust,SE,1000001,NM,,no,0,0,,", "quantity", "a whole number from 0 to 1,000,000", None),
    ("Thrust,SE,2.5,NM,,no,0,0,,", "quantity", "a whole number from 0 to 1,000,000", None),
    ("Thrust,SE,1e3,NM,,no,0,0,,", "quantity", "a whole number from 0 to 1,000,000", None),
    ("Thrust,SE,³,NM,,no,0,0,,", "quantity", "a whole number from 0 to 1,000,000", None),
    ("Thrust,SE,1,NM,,no,-1,0,,", "trade_quantity", "a whole number from 0 to 1,000,000", None),
    ("Thrust,SE,1,Great,,no,0,0,,", "condition", "condition is one of", None),
    ("Thrust,SE,1,NM,,maybe,0,0,,", "foil", "expected yes or no", None),
    ("Thrust,XX,1,NM,,no,0,0,,", "card", "unknown set 'XX'", None),
]


@pytest.mark.parametrize("row,column,message,suggestion", BAD_ROWS)
def test_a_bad_row_changes_nothing(collection_app, tmp_path, row, column, message, suggestion):
    collection_app.import_sheet(sheet(tmp_path, GOOD))
    before = totals(collection_app)
    with pytest.raises(CardSheetError) as exc:
        collection_app.import_sheet(sheet(tmp_path, GOOD + row + "\n", "bad.csv"), mode="replace")
    (problem,) = exc.value.problems
    assert (problem.row, problem.column) == (7, column) and message in problem.message
    if suggestion:
        assert suggestion in problem.suggestions
    assert totals(collection_app) == before


def test_every_bad_row_is_listed_and_skip_bad_imports_the_rest(collection_app, tmp_path):
    text = GOOD + "\n".join(r for r, *_ in BAD_ROWS) + "\n"
    with pytest.raises(CardSheetError) as exc:
        collection_app.import_sheet(sheet(tmp_path, text))
    assert [p.row for p in exc.value.problems] == list(range(7, 7 + len(BAD_ROWS)))
    _l, changes, problems, _r = collection_app.import_sheet(sheet(tmp_path, text), skip_bad=True)
    assert len(problems) == len(BAD_ROWS) and changes["main"].added == 4


def test_a_failure_half_way_leaves_nothing_behind(collection_app, tmp_path, monkeypatch):
    import deckcheck.db.collections as mod
    monkeypatch.setattr(mod, "BATCH", 2)
    collection_app.import_sheet(sheet(tmp_path, GOOD))
    before = totals(collection_app)
    calls = {"n": 0}
    from sqlalchemy.engine import Connection
    real = Connection.exec_driver_sql

    def failing(self, statement, *args, **kwargs):
        if _writes_entries(statement):
            calls["n"] += 1
            if calls["n"] == 2:  # the second batch of entries written
                raise RuntimeError("the disk is full")
        return real(self, statement, *args, **kwargs)
    monkeypatch.setattr(Connection, "exec_driver_sql", failing)
    with pytest.raises(RuntimeError):
        collection_app.import_sheet(sheet(tmp_path, GOOD.replace(",no,", ",yes,")),
                                    mode="replace")  # 4 removed, 4 added
    monkeypatch.setattr(Connection, "exec_driver_sql", real)
    assert calls["n"] == 2 and totals(collection_app) == before


def _writes_entries(statement) -> bool:
    """Whether a statement is a batch of the bulk write of collection entries (deckcheck.db.rawsql.executemany)."""
    return str(statement).lower().startswith("insert into collection_entry")


def test_dry_run(collection_app, tmp_path):
    _l, changes, _p, _r = collection_app.import_sheet(sheet(tmp_path, GOOD), dry_run=True)
    assert changes["main"].added == 4 and len(changes["main"].sample) == 4
    assert totals(collection_app) == []


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_export_import_export_is_identical(collection_app, tmp_path, suffix):
    collection_app.import_sheet(sheet(tmp_path, GOOD))
    collection_app.collections.apply("main", {}, "merge")
    first, second = tmp_path / f"1{suffix}", tmp_path / f"2{suffix}"
    write_collection(first, collection_app.collections.holdings("main"))
    collection_app.import_sheet(first, collection="copy", mode="replace")
    collection_app.import_sheet(first, collection="copy", mode="replace")
    write_collection(second, collection_app.collections.holdings("copy"))
    assert totals(collection_app, "copy") == totals(collection_app, "main")
    if suffix == ".csv":
        assert first.read_bytes() == second.read_bytes()


def test_formula_looking_text_is_written_safely_and_reads_back(collection_app, tmp_path):
    text = HEADER + 'Thrust,SE,1,NM,,no,0,0,"=HYPERLINK(""http://x"")",+1 from league\n'
    collection_app.import_sheet(sheet(tmp_path, text))
    (h,) = collection_app.collections.holdings()
    assert (h.location, h.notes) == ('=HYPERLINK("http://x")', "+1 from league")
    write_collection(tmp_path / "o.csv", [h])
    assert "'=HYPERLINK" in (tmp_path / "o.csv").read_text() and "'+1 from league" in (tmp_path / "o.csv").read_text()
    write_collection(tmp_path / "o.xlsx", [h])
    import openpyxl
    cell = openpyxl.load_workbook(tmp_path / "o.xlsx").active["I2"]
    assert cell.data_type == "s" and cell.value == '=HYPERLINK("http://x")'
    collection_app.import_sheet(tmp_path / "o.csv", collection="again", mode="replace")
    assert [(x.location, x.notes) for x in collection_app.collections.holdings("again")] == [(h.location, h.notes)]


def test_xlsx_export_is_made_for_people(collection_app, tmp_path):
    collection_app.import_sheet(sheet(tmp_path, GOOD))
    collection_app.import_sheet(sheet(tmp_path, GOOD), collection="trade binder")
    write_collection(tmp_path / "all.xlsx", collection_app.collections.holdings(None), by_collection=True)
    import openpyxl
    book = openpyxl.load_workbook(tmp_path / "all.xlsx")
    assert [ws.title for ws in book if ws.sheet_state == "visible"] == ["main", "trade binder"]
    assert [ws.title for ws in book if ws.sheet_state == "hidden"] == ["deckcheck collections"]
    ws = book["main"]
    assert ws.freeze_panes == "A2" and ws["A1"].font.b and ws.auto_filter.ref == "A1:L5"
    assert [c.value for c in ws[1]][:10] == HEADER.strip().split(",")
    _l, changes, _p, _r = collection_app.import_sheet(tmp_path / "all.xlsx", collection="ignored", mode="replace")
    assert set(changes) == {"main", "trade binder"} and not any(c.changed for c in changes.values())


@pytest.mark.parametrize("text,layout", [
    ("Count,Name,Edition,Condition,Language,Foil\n2,Thrust (1),Movie Edition,Near Mint,English,foil\n"
     "1,Connor MacLeod Persona,Series Edition,Lightly Played,English,\n", "deckbox"),
    ("Quantity,Card Name,Set Name\n2,Thrust (1),ME\n1,Connor MacLeod Persona,Series Edition\n", "tcgplayer"),
])
def test_other_tools_layouts(collection_app, tmp_path, text, layout):
    found, changes, problems, _r = collection_app.import_sheet(sheet(tmp_path, text))
    assert (found, problems, changes["main"].added) == (layout, [], 2)
    thrust = next(h for h in collection_app.collections.holdings() if h.card.id == "ME-thrust-1")
    assert thrust.quantity == 2
    if layout == "deckbox":
        assert (thrust.condition, thrust.foil) == ("NM", True)


def test_add_remove(collection_app):
    def thrusts(quantity):
        return collection_app.holding("Thrust (1)", None, quantity=quantity, condition="NM")
    collection_app.collections.edit("main", thrusts(3), 1)
    h = collection_app.collections.edit("main", thrusts(2), -1)
    assert h.quantity == 1
    assert collection_app.collections.edit("main", thrusts(1), -1) is None
    with pytest.raises(DeckcheckError, match="holds no Thrust"):
        collection_app.collections.edit("main", thrusts(1), -1)


def test_missing_per_deck_and_together(collection_app, tmp_path):
    collection_app.import_sheet(sheet(tmp_path, HEADER + "Thrust (2),ME,4,NM,,no,0,0,,\nThrust,SE,1,NM,,no,0,0,,\n"))
    connor = ROOT / "examples/decks/type1e-connor-legal.txt"     # 4 Thrust (2)
    generic = ROOT / "examples/decks/type1e-generic-legal.txt"   # 3 Thrust
    decks = collection_app.decks_named([str(connor), str(generic)])
    from deckcheck.collection import missing
    result = missing(decks, collection_app.collections.holdings())
    thrust = {name: next((n for n in needs if n.card.title == "Thrust"), None)
              for name, needs in result.per_deck.items()}
    assert thrust[str(connor)] is None  # 4 needed, 5 owned (pictures and sets count together)
    assert thrust[str(generic)] is None
    together = next(n for n in result.together if n.card.title == "Thrust")
    assert (together.needed, together.owned, together.short) == (7, 5, 2)


def test_trades_and_saved_decks(collection_app, tmp_path):
    collection_app.import_sheet(sheet(tmp_path, HEADER + "Thrust (2),ME,9,NM,,no,2,0,,\nChallenge,SE,1,NM,,no,0,0,,\n"))
    replaced, report = collection_app.save_deck("connor", str(ROOT / "examples/decks/type1e-connor-legal.txt"))
    assert not replaced and report.legal
    assert collection_app.save_deck("connor", str(ROOT / "examples/decks/type1e-connor-legal.txt"))[0]
    from deckcheck.collection import trades
    collections = collection_app.collections
    found = {s.card.title: s for s in trades(collections.holdings(), collections.used_by_decks())}
    assert (found["Thrust"].owned, found["Thrust"].used, found["Thrust"].spare, found["Thrust"].marked) == (9, 4, 5, 2)
    assert found["Challenge"].spare == 1
    assert [d[0] for d in collection_app.collections.decks()] == ["connor"]
    fmt, text, entries = collection_app.collections.deck("connor")
    assert fmt == "type1e" and "Connor MacLeod Persona [SE]" in text and sum(q for _c, _s, q in entries) == 53
    collection_app.collections.delete_deck("connor")
    with pytest.raises(DeckcheckError, match="no saved deck named 'connor'"):
        collection_app.collections.deck("connor")


def run(env_db, *args, cwd=ROOT):
    import os
    exe = Path(sys.executable).with_name("deckcheck")
    return subprocess.run([str(exe), *args], capture_output=True, text=True, cwd=cwd,
                          env=dict(os.environ, DECKCHECK_DB=env_db, COLUMNS="200"))


def test_cli_collection_flow(tmp_path, monkeypatch):
    db = str(tmp_path / "cli.db")
    bad = sheet(tmp_path, GOOD + "Uper Left Attack,SE,1,NM,,no,0,0,,\n", "bad.csv")
    r = run(db, "collection", "import", str(bad))
    assert r.returncode == 2 and "row 7, column 'card', value 'Uper Left Attack'" in r.stderr
    assert "nothing was imported" in r.stderr and "Upper Left Attack" in r.stderr
    r = run(db, "collection", "import", str(sheet(tmp_path, GOOD)), "--dry-run")
    assert r.returncode == 0 and "would change: 4 added" in r.stdout and "layout detected: deckcheck" in r.stdout
    assert run(db, "collection", "import", str(sheet(tmp_path, GOOD))).returncode == 0
    assert run(db, "deck", "save", "connor", "examples/decks/type1e-connor-legal.txt").returncode == 0
    want = tmp_path / "want.csv"
    r = run(db, "collection", "missing", "connor", "examples/decks/type1e-generic-legal.txt", "--json", "--out",
            str(want))
    data = json.loads(r.stdout)
    assert set(data["decks"]) == {"connor", "examples/decks/type1e-generic-legal.txt"}
    thrust = next(n for n in data["together"] if n["card"].startswith("Thrust"))
    assert (thrust["needed"], thrust["owned"], thrust["short"]) == (7, 5, 2)
    assert list(data) == ["collection", "decks", "together"] and data["collection"] == "main"
    rows = data["together"] + [row for needs in data["decks"].values() for row in needs]
    assert all(list(row) == ["card", "set", "needed", "owned", "short"] for row in rows)
    assert all(row["short"] == row["needed"] - row["owned"] > 0 for row in rows)
    monkeypatch.chdir(ROOT)  # the deck file as the command named it
    assert data == CollectionApp(db).missing(["connor", "examples/decks/type1e-generic-legal.txt"]).as_dict("main")
    r = run(db, "collection", "import", str(want))
    assert r.returncode == 0
    wanted = {h.card.name: h.want_quantity for h in CollectionApp(db).collections.holdings() if h.want_quantity}
    assert wanted["Thrust (2)"] == 2 and sum(wanted.values()) == sum(n["short"] for n in data["together"])
    r = run(db, "collection", "stats")
    assert "cards" in r.stdout and "complete" in r.stdout
    r = run(db, "collection", "trades", "--json")
    spare = {row["card"]: row for row in json.loads(r.stdout)}
    assert spare["Thrust (1)"] == {"card": "Thrust (1)", "set": "ME", "owned": 5, "used": 4, "spare": 1,
                                   "marked_for_trade": 1}  # the saved deck uses 4 Thrust (2): one title
    assert spare["The Kurgan Back Away"] == {"card": "The Kurgan Back Away", "set": "ME", "owned": 4, "used": 0,
                                             "spare": 4, "marked_for_trade": 0}
    assert "Connor MacLeod Persona" not in spare  # 1 owned, 1 used by the saved deck, none marked
    r = run(db, "deck", "export", "connor", str(tmp_path / "connor.json"))
    assert json.loads((tmp_path / "connor.json").read_text())["format"] == "type1e"
    r = run(db, "check", str(tmp_path / "connor.json"), "--json")
    assert r.returncode == 0, r.stdout


def test_a_workbook_of_several_collections_is_one_transaction(collection_app, tmp_path, monkeypatch):
    collection_app.import_sheet(sheet(tmp_path, GOOD))
    collection_app.import_sheet(sheet(tmp_path, GOOD), collection="trade binder")
    book = tmp_path / "all.xlsx"
    write_collection(book, collection_app.collections.holdings(None), by_collection=True)
    before = (totals(collection_app, "main"), totals(collection_app, "trade binder"))
    from sqlalchemy.engine import Connection
    real, calls = Connection.exec_driver_sql, {"n": 0}

    def fail_on_the_second_collection(self, statement, *args, **kwargs):
        if _writes_entries(statement):
            calls["n"] += 1
            if calls["n"] == 2:
                raise RuntimeError("connection lost")
        return real(self, statement, *args, **kwargs)
    monkeypatch.setattr(Connection, "exec_driver_sql", fail_on_the_second_collection)
    import openpyxl
    wb = openpyxl.load_workbook(book)
    for ws in wb:
        ws["C2"] = 99  # change a quantity in both sheets
    wb.save(book)
    with pytest.raises(RuntimeError):
        collection_app.import_sheet(book, mode="replace")
    monkeypatch.setattr(Connection, "exec_driver_sql", real)
    assert calls["n"] == 2
    assert (totals(collection_app, "main"), totals(collection_app, "trade binder")) == before
