"""Bad input to the card-sheet readers and the update path: a typed error quoting the input, never a traceback."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckcheck import provenance as prov
from deckcheck.cardsheet import sheet_cards_from_rows
from deckcheck.errors import DeckcheckError
from deckcheck.importers.cardsheet import read_card_sheet

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(cell=st.text(max_size=300), field=st.sampled_from(prov.FIELDS))
def test_any_provenance_cell_parses_or_is_a_row_problem(cell, field):
    try:
        found, problems = sheet_cards_from_rows([(2, {"name": "A", prov.column(field): cell})], "s", skip_bad=True)
    except DeckcheckError:
        raise AssertionError("skip_bad never raises") from None
    assert len(found) + len({p.row for p in problems}) == 1
    for p in problems:
        assert p.column == prov.column(field) and p.value == cell


@SETTINGS
@given(header=st.lists(st.sampled_from(["name", "Name", "id", "restriction", "restriction_source", "grid",
                                        "grid_source", "x_source", "", "NAME "]), min_size=1, max_size=6),
       cells=st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")), max_size=20), max_size=6))
def test_any_header_reads_or_fails_cleanly(tmp_path_factory, header, cells):
    import csv
    path = tmp_path_factory.mktemp("h") / "s.csv"
    with open(path, "w", encoding="utf-8", newline="") as f:
        csv.writer(f).writerows([header, cells])
    try:
        read_card_sheet(path)
    except DeckcheckError as exc:
        assert "s.csv" in str(exc).splitlines()[0]  # the message names the file


def run(db: Path, *args: str) -> subprocess.CompletedProcess:
    exe = Path(sys.executable).with_name("deckcheck")
    return subprocess.run([str(exe), *args], capture_output=True, text=True, cwd=ROOT,
                          env=dict(os.environ, DECKCHECK_DB=str(db), COLUMNS="200"))


@pytest.mark.parametrize("text,expected", [
    ("id,name,Name\nX-1,A,B\n", "twice"),
    ("id,name,restriction,restriction_source\nX-1,A,2,guess:me\n", "unknown provenance 'guess:me'"),
    ("id,name,restriction,restriction_source\nX-1,A,2,sheet:a\x1bb\n", "control character"),
    ("id,name,grid_source\nX-1,A,source:" + "x" * 2500 + "\n", "over the limit of 2000"),
    ("id,restriction\nX-1,2\n", "no 'name' column"),
    ("id,name,restriction\nME-break-weapon,Break Weapon,three\n", "row 2, column 'restriction'"),
])
def test_bad_card_sheets_exit_2_with_one_clear_message(tmp_path, shared_db, text, expected):
    import shutil
    db = tmp_path / "x.db"
    shutil.copy(shared_db.removeprefix("sqlite:///"), db)
    sheet = tmp_path / "bad.csv"
    sheet.write_text(text, encoding="utf-8")
    for args in (("cards", "import", str(sheet), "--dry-run"), ("cards", "import", str(sheet)),
                 ("cards", "show", "Thrust", "--cards", str(sheet))):
        r = run(db, *args)
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        assert expected in r.stderr and "Traceback" not in r.stderr, (args, r.stderr)


def test_unknown_provenance_column_is_a_notice(tmp_path, shared_db):
    import shutil
    db = tmp_path / "x.db"
    shutil.copy(shared_db.removeprefix("sqlite:///"), db)
    sheet = tmp_path / "s.csv"
    sheet.write_text("id,name,colour_source\nX-1,A,source:x\n")
    r = run(db, "cards", "import", str(sheet))
    assert r.returncode == 0 and "colour_source" in r.stderr and "added 1" in r.stdout


def test_update_path_refuses_unknown_fields_and_bad_sources(sqlite_url):
    from deckcheck.db.store import Store
    from deckcheck.db.updates import update_cards
    store = Store(sqlite_url)
    with pytest.raises(DeckcheckError, match="'colour'"):
        update_cards(store, [{"id": "ME-break-weapon", "colour": "red"}], prov.web("a"))
    with pytest.raises(DeckcheckError, match="unknown provenance"):
        update_cards(store, [{"id": "ME-break-weapon", "restriction": "2"}], "nobody")
    with pytest.raises(DeckcheckError, match="the same id is already on row 1"):
        update_cards(store, [{"id": "ME-break-weapon", "text": "a"}, {"id": "ME-break-weapon", "text": "b"}],
                     prov.web("a"))
    with pytest.raises(DeckcheckError, match="needs a name"):
        update_cards(store, [{"id": "NEW-1", "text": "a"}], prov.web("a"))


# -- error cells of an XLSX card sheet (#N/A, #REF!, ...): a bad cell, never a card named '#N/A' ---------------
HEADER = ["id", "name", "type", "restriction", "grid", "text", "deckbuilding", "restriction_source"]
ERRORS = ["#N/A", "#REF!", "#DIV/0!", "#VALUE!", "#NAME?", "#NUM!", "#NULL!"]


def error_sheet(path: Path, column: str, error: str) -> Path:
    """A card sheet (xlsxwriter, sheet 'cards') of three rows; row 3's `column` is a formula whose cached value is
    `error`, as a spreadsheet program saves a formula that fails."""
    import xlsxwriter
    header = HEADER
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("cards")
    sheet.write_row(0, 0, header)
    for r, card_id in enumerate(["X-1", "X-2", "X-3"], start=1):
        sheet.write_row(r, 0, [card_id, f"Card {r}", "Attack", 1, "UL", "A text.", "", ""])
    sheet.write_formula(2, header.index(column), "=NA()", None, error)
    book.close()
    return path


@pytest.mark.parametrize("column,error", [(c, ERRORS[i % len(ERRORS)]) for i, c in enumerate(HEADER)])
def test_an_error_cell_in_any_column_is_a_bad_row(tmp_path, column, error):
    from deckcheck.errors import CardSheetError
    from nasty import column_letters
    path = error_sheet(tmp_path / "cards.xlsx", column, error)
    ref = f"{column_letters(HEADER.index(column) + 1)}3"
    with pytest.raises(CardSheetError) as exc:
        read_card_sheet(path)
    assert [(p.row, p.column, p.value, p.message) for p in exc.value.problems] == [
        (3, column, error, f"an error cell ({error}) in sheet 'cards', cell {ref}")]
    sheet = read_card_sheet(path, skip_bad=True)
    assert [c.name for c in sheet.cards] == ["Card 1", "Card 3"] and len(sheet.problems) == 1


@pytest.mark.parametrize("error", ERRORS)
def test_every_error_value_is_named(tmp_path, error):
    from deckcheck.errors import CardSheetError
    with pytest.raises(CardSheetError, match=re.escape(f"row 3, column 'name', value {error!r}: an error cell "
                                                       f"({error}) in sheet 'cards', cell B3")):
        read_card_sheet(error_sheet(tmp_path / "cards.xlsx", "name", error))


def test_a_formula_with_no_cached_value_in_the_name_column_is_a_bad_row(tmp_path):
    from deckcheck.errors import CardSheetError
    from nasty import cell, sheet_xml, workbook
    path = tmp_path / "cards.xlsx"
    path.write_bytes(workbook({"cards": sheet_xml(
        '<row r="1">' + cell("A1", "id") + cell("B1", "name") + "</row>"
        '<row r="2">' + cell("A2", "X-1") + cell("B2", formula="C9") + "</row>"
        '<row r="3">' + cell("A3", "X-2") + cell("B3", "Card 2") + "</row>")}))
    with pytest.raises(CardSheetError) as exc:
        read_card_sheet(path)
    (problem,) = exc.value.problems
    assert (problem.row, problem.column, problem.value) == (2, "name", "=C9")
    assert problem.message.startswith("a formula with no cached value (=C9) in sheet 'cards', cell B2; open and save")


def test_error_cells_in_a_card_sheet_exit_2_naming_them(tmp_path, shared_db):
    import shutil
    db = tmp_path / "x.db"
    shutil.copy(shared_db.removeprefix("sqlite:///"), db)
    before = db.read_bytes()
    sheet = error_sheet(tmp_path / "cards.xlsx", "name", "#N/A")
    for args in (("cards", "import", str(sheet)), ("check", "-", "--cards", str(sheet))):
        r = run(db, *args)
        assert r.returncode == 2 and "Traceback" not in r.stderr, (args, r.stderr)
        assert "row 3, column 'name', value '#N/A': an error cell (#N/A) in sheet 'cards', cell B3" in r.stderr, args
    assert db.read_bytes() == before
