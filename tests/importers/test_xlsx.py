"""The hand-written XLSX writer (importers/xlsx.py): what goes in reads back the same in both readers the project
knows (python-calamine, which deckcheck reads with, and openpyxl), styles and views included, the same bytes
every time, and hostile text stays text."""
from __future__ import annotations

import re
import time
import zipfile

import openpyxl
import pytest
from python_calamine import CalamineWorkbook

from deckcheck.importers import xlsx
from deckcheck.importers.writers import OutputError, SheetSpec, write_xlsx

HOSTILE = [
    "=SUM(A1:A9)", "=HYPERLINK(\"http://x\",\"y\")", "+1+1", "-2", "@cmd", "\t=1", "'quoted",
    "a\x01b\x07c\x1fd", "bell\x00nul", "cr\rlf\nline", "_x0041_ stays literal", "_x005F_", "&lt; <b> & \"q\" 'a'",
    "  leading and trailing  ", " ", "émoji 🃏 ñ 中文", "]]></t></is></c><c>",
]

ESCAPED = re.compile(r"[\x00-\x08\x0b-\x1f]")  # written _xHHHH_, as Excel does


def _calamine(path, sheet):
    book = CalamineWorkbook.from_path(str(path))
    return book.get_sheet_by_name(sheet).to_python(skip_empty_area=False)


def test_cells_read_back_equal_in_both_readers(tmp_path):
    rows = [["Anna", 3, 2.5, True, None, "x"], ["Bob", -7, 1e-9, False, "", "y"], ["Carl", 10**20, 0, "", 1.25, ""]]
    path = tmp_path / "a.xlsx"
    write_xlsx(path, [SheetSpec("Summary", ["player", "n", "f", "ok", "gap", "last"], rows, ["good", "bad", "warn"])])
    got = _calamine(path, "Summary")
    assert got[0] == ["player", "n", "f", "ok", "gap", "last"]
    assert got[1:] == [["Anna", 3.0, 2.5, "yes", "", "x"], ["Bob", -7.0, 1e-9, "no", "", "y"],
                       ["Carl", 1e20, 0.0, "", 1.25, ""]]
    ws = openpyxl.load_workbook(path)["Summary"]
    assert [[c.value for c in row] for row in ws.iter_rows()] == [
        ["player", "n", "f", "ok", "gap", "last"], ["Anna", 3, 2.5, "yes", None, "x"],
        ["Bob", -7, 1e-9, "no", None, "y"], ["Carl", 1e20, 0, None, 1.25, None]]


def test_styles_views_widths_and_hidden_sheets(tmp_path):
    path = tmp_path / "a.xlsx"
    write_xlsx(path, [SheetSpec("S", ["a", "bb"], [["x", 1], ["y", None]], ["good", "bad"], widths={1: 30}),
                      SheetSpec("T", ["c"], [["z"]], ["warn"])],
               hidden=lambda used: SheetSpec("index", ["sheets"], [[",".join(n for ns in used for n in ns)], [None]]))
    book = openpyxl.load_workbook(path)
    assert [(ws.title, ws.sheet_state) for ws in book] == [("S", "visible"), ("T", "visible"), ("index", "hidden")]
    s, t, index = book["S"], book["T"], book["index"]
    assert s.freeze_panes == "A2" and s.auto_filter.ref == "A1:B3" and t.auto_filter.ref == "A1:A2"
    assert s["A1"].font.b and s["A1"].fill.fgColor.rgb.endswith("DDDDDD") and s["A1"].border.left.style == "thin"
    assert s["A2"].fill.fgColor.rgb.endswith("C6EFCE") and s["B3"].fill.fgColor.rgb.endswith("FFC7CE")
    assert t["A2"].fill.fgColor.rgb.endswith("FFEB9C") and not s["A2"].font.b
    assert round(s.column_dimensions["B"].width, 2) == 30.71 and round(s.column_dimensions["A"].width, 2) == 3.71
    assert index.freeze_panes is None and not index["A1"].font.b and index["A3"].value == "None"
    assert [[c.value for c in row] for row in index.iter_rows()] == [["sheets"], ["S,T"], ["None"]]
    with zipfile.ZipFile(path) as z:
        assert z.namelist()[0] == "[Content_Types].xml" and z.testzip() is None
        assert b"_xlnm._FilterDatabase" in z.read("xl/workbook.xml")


def test_hostile_text_is_written_as_text_and_reads_back_the_same(tmp_path):
    path = tmp_path / "a.xlsx"
    write_xlsx(path, [SheetSpec("s", ["text"], [[t] for t in HOSTILE])])
    assert [row[0] for row in _calamine(path, "s")[1:]] == HOSTILE
    ws = openpyxl.load_workbook(path)["s"]
    plain = [(r, t) for r, t in enumerate(HOSTILE, start=2) if "_x" not in t and not ESCAPED.search(t)]
    assert [ws.cell(r, 1).value for r, _ in plain] == [t for _, t in plain]  # openpyxl leaves _xHHHH_ as it is
    assert all(ws.cell(r, 1).data_type == "s" for r in range(2, len(HOSTILE) + 2))  # never "f" (a formula)
    with zipfile.ZipFile(path) as z:
        sheet = z.read("xl/worksheets/sheet1.xml")
    assert b"<f>" not in sheet and b"\x01" not in sheet and b"_x0001_" in sheet


def test_what_xml_cannot_hold_becomes_the_replacement_character(tmp_path):
    path = tmp_path / "a.xlsx"
    write_xlsx(path, [SheetSpec("s", ["t"], [["bad \udcff byte"], ["not \ufffe\uffff characters"]])])
    assert _calamine(path, "s")[1:] == [["bad \ufffd byte"], ["not \ufffd\ufffd characters"]]


def test_a_sheet_name_xml_cannot_hold_is_written_with_the_replacement_character(tmp_path):
    """A collection's name is a sheet's: a command line's undecodable byte (a lone surrogate) or a non-character in
    it was a UnicodeEncodeError (an attribute holds no _xHHHH_ escape)."""
    path = tmp_path / "a.xlsx"
    write_xlsx(path, [SheetSpec("bad \udcff \ufffe name", ["t"], [["v"]])])
    assert openpyxl.load_workbook(path).sheetnames == ["bad \ufffd \ufffd name"]


def test_the_cell_limit_is_exact(tmp_path):
    fits, over = "y" * 32_767, "z" * 32_768
    path = tmp_path / "a.xlsx"
    write_xlsx(path, [SheetSpec("s", ["a"], [[fits]])])
    assert _calamine(path, "s")[1] == [fits]
    with pytest.raises(OutputError, match="sheet 's', row 2, column 'a' holds 32,768 characters"):
        write_xlsx(path, [SheetSpec("s", ["a"], [[over]])])
    write_xlsx(path, [SheetSpec("s", ["a"], [[over]], long_text="mark")])
    cell = _calamine(path, "s")[1][0]
    assert len(cell) == 32_767 and cell.endswith("[cut: 32,768 characters in all]")
    with pytest.raises(OutputError, match="sheet 'hid', row 2"):  # the hidden sheet is held to the limit too
        write_xlsx(path, [SheetSpec("s", ["a"], [])], hidden=lambda used: SheetSpec("hid", ["h"], [[over]]))


def test_the_same_sheets_make_the_same_bytes_whatever_the_clock(tmp_path, monkeypatch):
    spec = [SheetSpec("Summary", ["player", "n"], [["Anna", 1], ["=1+1", 2.5]], ["good", "bad"])]
    first, second = tmp_path / "1.xlsx", tmp_path / "2.xlsx"
    write_xlsx(first, spec)
    clock = iter(range(2_000_000_000, 2_100_000_000, 3600))  # an hour later at each reading
    monkeypatch.setattr(time, "time", lambda: float(next(clock)))
    monkeypatch.setattr(time, "time_ns", lambda: next(clock) * 10**9)
    write_xlsx(second, spec)
    assert first.read_bytes() == second.read_bytes()
    with zipfile.ZipFile(second) as z:
        assert {i.date_time for i in z.infolist()} == {(1980, 1, 1, 0, 0, 0)}


def test_column_names_and_widths():
    assert [xlsx.column_name(c) for c in (0, 25, 26, 51, 52, 701, 702, 16383)] == [
        "A", "Z", "AA", "AZ", "BA", "ZZ", "AAA", "XFD"]
    assert [xlsx.column_width(w) for w in (0.5, 1, 8.43, 30)] == [0.85546875, 1.7109375, 9.140625, 30.7109375]


def test_numbers_a_cell_cannot_hold_are_written_as_text(tmp_path):
    path = tmp_path / "a.xlsx"
    write_xlsx(path, [SheetSpec("s", ["n"], [[float("nan")], [float("inf")], [10**400]])])
    assert [row[0] for row in _calamine(path, "s")[1:]] == ["nan", "inf", str(10**400)]
