"""The limits of the file readers (importers.limits), and the inputs of issue 9 they refuse or read right."""
from __future__ import annotations

import json
import zipfile

import pytest

from deckcheck.cells import CellError
from deckcheck.errors import DeckcheckError, DecklistError
from deckcheck.importers import limits
from deckcheck.importers.decklists import read_decklists
from deckcheck.importers.tables import SheetError, read_tables
from nasty import cell, column_letters, many_members, padded_sheet, rows_xml, sheet_xml, workbook


def write(tmp_path, name, data: bytes | str):
    path = tmp_path / name
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


# -- text --------------------------------------------------------------------------------------------------
def test_text_size_limit_is_checked_before_reading(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "TEXT_MAX_BYTES", 100)
    path = write(tmp_path, "d.txt", "3 Thrust\n" * 20)
    with pytest.raises(limits.InputFileError, match="larger than 100 bytes"):
        limits.read_text(path, limit=limits.TEXT_MAX_BYTES)
    with pytest.raises(DecklistError, match="larger than 4 MiB"):
        read_decklists(write(tmp_path, "big.txt", b"3 Thrust\n" * 500_000))


def test_line_length_limit_names_the_line(tmp_path):
    path = write(tmp_path, "d.txt", "3 Thrust\n2 " + "x" * 4095 + "\n")
    with pytest.raises(DecklistError, match="line 2 is longer than 4,096 characters"):
        read_decklists(path)
    ok = write(tmp_path, "ok.txt", "3 Thrust\n" + "x" * 4096 + "\n")
    assert len(read_decklists(ok)[0].lines) == 2


@pytest.mark.parametrize("data,message", [(b"3 Thr\x00ust\n", "NUL bytes"),
                                          ("2 Caf\u00e9".encode("latin-1"), "not UTF-8"),
                                          (bytes(range(256)), "not UTF-8")])
def test_text_that_is_not_text(tmp_path, data, message):
    with pytest.raises(DecklistError, match=message):
        read_decklists(write(tmp_path, "d.txt", data))


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-16-be"])
def test_text_with_a_byte_order_mark_is_read(tmp_path, encoding):
    data = "Format: type1e\n3 Thrust\n".encode(encoding)
    if encoding == "utf-16-be":
        data = b"\xfe\xff" + data
    (raw,) = read_decklists(write(tmp_path, "d.txt", data))
    assert raw.declared_format == "type1e" and raw.lines[0].readings[0] == (3, "Thrust")


def test_folder_and_missing_file(tmp_path):
    with pytest.raises(DecklistError, match="is a folder"):
        read_decklists(tmp_path)
    with pytest.raises(DecklistError, match="no such file"):
        read_decklists(tmp_path / "none.json")


# -- JSON ---------------------------------------------------------------------------------------------------
def test_json_depth_is_measured_without_recursion():
    assert limits.json_depth('{"a": [1, {"b": "[[[["}], "c": "\\"]]"}') == 3
    assert limits.json_depth("[" * 100_000 + "]" * 100_000) == 100_000


@pytest.mark.parametrize("data,message", [
    (b"[" * 100_000, "nested 100,000 levels deep"),
    (b'{"sections": {"Endurance": [{"card": "Thrust", "quantity": ' + b"9" * 5000 + b"}]}}", "5,000 digits"),
    (b'{"sections": {"Endurance": [{"card": "Thrust", "quantity": NaN}]}}', "NaN is not a number"),
    (b'{"sections": {"Endurance": ["Thr\\ud800ust"]}}', "\\\\ud800, a lone surrogate"),
    ('{"sections": {}}'.encode("utf-16-le"), "NUL bytes"),  # UTF-16 without its byte-order mark
    (b'[{"card": "Thrust"}]', "a JSON decklist is"),
])
def test_json_refused_with_a_message(tmp_path, data, message):
    with pytest.raises(DecklistError, match=message):
        read_decklists(write(tmp_path, "d.json", data))


def test_json_values_of_the_wrong_shape_are_input_errors(tmp_path):
    deck = {"format": 12, "player": ["x"], "sections": {
        "Endurence": [{"card": "Thrust", "quantity": 3}],
        "Pre-Game": "Connor MacLeod Persona",
        "Endurance": [{"card": "Lunge", "qty": 3}, {"card": "Lunge", "set": ["ME"]}, {"card": {"n": 1}},
                      {"card": "Lunge", "quantity": 2 ** 40}, {"card": "Lunge", "quantity": True}, 7, "Thrust"]},
        "players": {"Anna": "The Fox"}}
    (raw,) = read_decklists(write(tmp_path, "d.json", json.dumps(deck)))
    messages = [p.message for p in raw.problems]
    assert messages == ["'format' must be a text", "'player' must be a text",
                        "unknown section 'Endurence'; sections are Pre-Game, Endurance (Deck, Main)",  # its game's
                        "section 'Pre-Game' must hold a list of cards",
                        "unknown key 'qty'; a card has card, quantity, set, attach",
                        "'set' and 'attach' must be texts",
                        'each card is {"card": "name", "quantity": N} or "name"',
                        "the quantity must be a whole number from 1 to 1,000,000",
                        "the quantity must be a whole number from 1 to 1,000,000",
                        'each card is {"card": "name", "quantity": N} or "name"',
                        """'players' must be a list of {"name": ..., "hero": ...}"""]
    assert raw.declared_format is None and raw.player is None
    # the cards of the misspelt section are still read, so that their names are checked in the same round
    assert [(line.section, line.readings[0]) for line in raw.lines] == [(None, (3, "Thrust")),
                                                                        ("endurance", (1, "Thrust"))]


def test_misspelt_json_section_makes_the_deck_uncheckable(cli_env, tmp_path):
    from inproc import run_cli
    path = write(tmp_path, "d.json", json.dumps({"format": "type1e", "sections": {
        "Pre-Game": ["Connor MacLeod Persona"],
        "Endurence": [{"card": "Thrust", "quantity": 3}]}}))
    r = run_cli("check", str(path), "--json")
    report = json.loads(r.out)
    assert r.code == 2 and report["legal"] is None
    assert "unknown section 'Endurence'" in report["input_errors"][0]["message"]


# -- CSV ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("qty,message", [("\u00b3", "is not a whole number"), ("\u0663", "is not a whole number"),
                                         ("9" * 5000, "is more than 1,000,000"),
                                         ("1000001", "is more than 1,000,000"), ("-2", "is not a whole number")])
def test_sheet_quantities_are_ascii_whole_numbers_up_to_a_million(tmp_path, qty, message):
    path = write(tmp_path, "d.csv", f"section,quantity,card\nEndurance,{qty},Thrust\nEndurance,1000000,Lunge\n")
    (raw,) = read_decklists(path)
    assert [p.line for p in raw.problems] == [2] and message in raw.problems[0].message
    assert raw.lines[0].readings[0] == (1_000_000, "Lunge")


def test_huge_csv_field_names_its_row(tmp_path):
    path = write(tmp_path, "d.csv", "quantity,card\n3,Thrust\n3,\"" + "a" * 200_000 + "\"\n")
    with pytest.raises(SheetError, match="row 3 has a field longer than 131,072 characters"):
        read_tables(path)
    with pytest.raises(DeckcheckError, match="row 3"):
        read_decklists(path)


@pytest.mark.parametrize("header", ["card,quantity,card", "Card,quantity,CARD ", "quantity,card,Qty Name,quantity"])
def test_duplicate_headers_are_an_error(tmp_path, header):
    path = write(tmp_path, "d.csv", header + "\nThrust,3,Lunge,4\n")
    with pytest.raises(SheetError, match="twice"):
        read_decklists(path)


def test_duplicate_headers_in_a_workbook_name_the_sheet(tmp_path):
    path = write(tmp_path, "d.xlsx", workbook({"Ann": sheet_xml(rows_xml([["card", "quantity", "card"]]))}))
    with pytest.raises(SheetError, match="sheet 'Ann' has the column 'card' twice"):
        read_tables(path)


@pytest.mark.parametrize("sep", [";", "\t", ","])
def test_csv_separators(tmp_path, sep):
    path = write(tmp_path, "d.csv", sep.join(["Qty", "Card Name", "Set"]) + "\n" + sep.join(["3", "Thrust", "ME"])
                 + "\n")
    (raw,) = read_decklists(path)
    assert (raw.lines[0].readings[0], raw.lines[0].set_code) == ((3, "Thrust"), "ME")


def test_csv_size_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "SHEET_MAX_BYTES", 1000)
    with pytest.raises(SheetError, match="larger than 1000 bytes"):
        read_tables(write(tmp_path, "d.csv", "quantity,card\n" + "3,Thrust\n" * 200))


# -- XLSX ---------------------------------------------------------------------------------------------------
def header_and(*rows: str) -> str:
    head = '<row r="1">' + cell("A1", "section") + cell("B1", "quantity") + cell("C1", "card") + "</row>"
    return head + "".join(rows)


@pytest.mark.parametrize("ref,message", [("XFD1048576", "1,048,576 rows x 16,384 columns"),
                                         ("Z999999", "999,999 rows x 26 columns"),
                                         ("XFE1", "beyond any spreadsheet's last cell"),
                                         ("z999999", "999,999 rows x 26 columns"),
                                         ("A1048577", "beyond any spreadsheet's last cell")])
def test_far_cells_are_refused_before_the_spreadsheet_reader_sees_them(tmp_path, ref, message):
    path = write(tmp_path, "d.xlsx", workbook({"Deck": sheet_xml('<row r="1">' + cell("A1", "card") + cell(ref, 1)
                                                                 + "</row>")}))
    with pytest.raises(SheetError, match=message):
        read_tables(path)


def test_declared_extent_is_refused(tmp_path):
    path = write(tmp_path, "d.xlsx", workbook({"Deck": sheet_xml(rows_xml([["card"], ["Thrust"]]),
                                                                 dimension="A1:XFD1048576")}))
    with pytest.raises(SheetError, match="declares 1,048,576 rows"):
        read_tables(path)


def test_cells_without_references_count_towards_the_extent(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "XLSX_MAX_CELLS", 1000)
    row = '<row r="900">' + "<c><v>1</v></c>" * 5 + "</row>"
    path = write(tmp_path, "d.xlsx", workbook({"Deck": sheet_xml('<row r="1">' + cell("A1", "card") + "</row>" + row)}))
    with pytest.raises(SheetError, match="900 rows x 6 columns"):
        read_tables(path)


def test_a_sheet_just_inside_the_limit_is_read(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "XLSX_MAX_CELLS", 40)
    rows = [["quantity", "card"]] + [[i, f"Card {i}"] for i in range(1, 20)]
    (table,) = read_tables(write(tmp_path, "d.xlsx", workbook({"Deck": sheet_xml(rows_xml(rows))})))
    assert len(table.rows) == 19 and table.rows[-1] == [19.0, "Card 19"]
    monkeypatch.setattr(limits, "XLSX_MAX_CELLS", 39)
    with pytest.raises(SheetError, match="more than 39 cells"):
        read_tables(tmp_path / "d.xlsx")


def test_workbook_total_cells(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "XLSX_MAX_CELLS", 30)
    sheet = sheet_xml(rows_xml([["quantity", "card"]] + [[1, "x"]] * 9))
    with pytest.raises(SheetError, match="40 cells together"):
        read_tables(write(tmp_path, "d.xlsx", workbook({"A": sheet, "B": sheet})))


def test_zip_bomb_ratio(tmp_path):
    data = padded_sheet(8 << 20)
    with pytest.raises(SheetError, match="inflates .* times its stored size"):
        read_tables(write(tmp_path, "d.xlsx", data))


def test_zip_total_size_and_member_count(tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "XLSX_MAX_UNCOMPRESSED", 2000)
    sheet = sheet_xml(rows_xml([["quantity", "card"]] + [[3, "Thrust"]] * 50))
    with pytest.raises(SheetError, match="inflates to .* more than"):
        read_tables(write(tmp_path, "d.xlsx", workbook({"Deck": sheet})))
    monkeypatch.setattr(limits, "XLSX_MAX_MEMBERS", 100)
    with pytest.raises(SheetError, match="parts, more than 100"):
        read_tables(write(tmp_path, "m.xlsx", many_members(200)))


def test_a_part_that_inflates_beyond_what_it_declares_is_refused(tmp_path, monkeypatch):
    """The zip directory may lie about sizes: the scan inflates no more than declared, and the check fails."""
    path = write(tmp_path, "d.xlsx", workbook({"Deck": sheet_xml(rows_xml([["card"]] + [["x" * 50]] * 100))}))
    infos = zipfile.ZipFile(path).infolist()
    monkeypatch.setattr(zipfile.ZipFile, "infolist", lambda self: [_shrunk(i) for i in infos])
    with pytest.raises(SheetError, match="not a readable workbook .*sheet1.xml"):
        read_tables(path)


def _shrunk(info: zipfile.ZipInfo) -> zipfile.ZipInfo:
    if info.filename.endswith("sheet1.xml"):
        info.file_size = 10  # what a lying central directory would say; the inflated stream is larger
    return info


@pytest.mark.parametrize("data", [b"", b"PK\x03\x04junk", b"not a zip"])
def test_not_a_workbook(tmp_path, data):
    with pytest.raises(SheetError, match="not a readable workbook"):
        read_tables(write(tmp_path, "d.xlsx", data))


def test_formula_and_error_cells_are_cell_errors(tmp_path):
    path = write(tmp_path, "d.xlsx", workbook({"Deck": sheet_xml(header_and(
        '<row r="2">' + cell("A2", "Endurance") + cell("B2", formula="SUM(D1:D4)") + cell("C2", "Thrust") + "</row>",
        '<row r="3">' + cell("A3", "Endurance") + cell("B3", formula="1/0", error="#DIV/0!") + cell("C3", "Lunge")
        + "</row>",
        '<row r="4">' + cell("A4", "Endurance") + cell("B4", 2, formula="1+1") + cell("C4", "Thrust") + "</row>",
        '<row r="6">' + cell("A6", "Endurance") + cell("B6", error="#N/A") + "</row>",
        '<row r="7">' + cell("D7", formula="A1") + "</row>"))}))
    (table,) = read_tables(path)
    b = [row[1] for row in table.rows]
    assert [type(v) for v in b[:3]] == [CellError, CellError, float] and b[2] == 2
    assert (b[0], b[1], b[4]) == ("=SUM(D1:D4)", "#DIV/0!", "#N/A")
    assert isinstance(b[0], CellError) and "no cached value" in b[0].message and table.rows[5][3] == "=A1"
    (raw,) = read_decklists(path)
    assert [(p.line, p.message) for p in raw.problems] == [
        (2, "column 'quantity' holds a formula with no cached value (=SUM(D1:D4)) in sheet 'Deck', cell B2; open and "
            "save the sheet in a spreadsheet program to store its value"),
        (3, "column 'quantity' holds an error cell (#DIV/0!) in sheet 'Deck', cell B3"),
        (6, "column 'quantity' holds an error cell (#N/A) in sheet 'Deck', cell B6")]
    assert [line.readings[0] for line in raw.lines] == [(2, "Thrust")]


def test_registration_sheet_formula_quantity_is_that_players_input_error(tmp_path):
    path = write(tmp_path, "reg.xlsx", workbook({"Reg": sheet_xml(
        '<row r="1">' + cell("A1", "player") + cell("B1", "quantity") + cell("C1", "card") + "</row>"
        '<row r="2">' + cell("A2", "Ann") + cell("B2", formula="B9") + cell("C2", "Thrust") + "</row>"
        '<row r="3">' + cell("A3", "Bob") + cell("B3", 3) + cell("C3", "Thrust") + "</row>")}))
    ann, bob = read_decklists(path)
    assert [p.line for p in ann.problems] == [2] and not ann.lines
    assert not bob.problems and bob.lines[0].readings[0] == (3, "Thrust")


def test_collection_sheet_with_formula_cells_has_bad_rows(tmp_path, sqlite_url):
    from deckcheck.library.api import CollectionApp
    from deckcheck.errors import CardSheetError
    path = write(tmp_path, "c.xlsx", workbook({"Collection": sheet_xml(
        '<row r="1">' + cell("A1", "card") + cell("B1", "quantity") + cell("C1", "notes") + "</row>"
        '<row r="2">' + cell("A2", "Thrust (2)") + cell("B2", formula="C9*2") + "</row>"
        '<row r="3">' + cell("A3", "Thrust (2)") + cell("B3", 1) + cell("C3", error="#REF!") + "</row>"
        '<row r="4">' + cell("A4", "Thrust (2)") + cell("B4", 4, formula="2*2") + "</row>")}))
    app = CollectionApp(sqlite_url)
    with pytest.raises(CardSheetError) as exc:
        app.import_sheet(path)
    assert [(p.row, p.column, p.value) for p in exc.value.problems] == [(2, "quantity", "=C9*2"), (3, "notes", "#REF!")]
    assert exc.value.problems[1].message == "an error cell (#REF!) in sheet 'Collection', cell C3"
    assert app.collections.holdings("main") == []
    _layout, _changes, problems, _rows = app.import_sheet(path, skip_bad=True)
    assert [h.quantity for h in app.collections.holdings("main")] == [4] and len(problems) == 2


def test_column_letters_round_trip():
    for n in (1, 26, 27, 702, 703, 16384):
        assert limits.column_number(column_letters(n)) == n


# -- the scan's fast path finds exactly the extent the exact scan finds ------------------------------------
def _any_ref(draw, st) -> str:
    letters = draw(st.sampled_from(["A", "B", "j", "Z", "AA", "ab", "ZZ", "XFD", "xfd", "ABCD", "aaaaa"]))
    number = draw(st.sampled_from(["1", "2", "9", "10", "99", "100", "0007", "1048576", "1048577", "5000000"]))
    return letters + number


def _sheet_strategy():
    from hypothesis import strategies as st

    @st.composite
    def sheet(draw) -> bytes:
        rows = []
        for r in range(1, draw(st.integers(1, 25)) + 1):
            number = draw(st.sampled_from([r, r, r, r + 1000, 1048576, 7]))
            cells = []
            for c in range(1, draw(st.integers(0, 6)) + 1):
                ref = f"{column_letters(draw(st.sampled_from([c, c, c, 27, 703, 16384])))}{number}"
                form = draw(st.sampled_from(['<c r="{}"><v>1</v></c>'] * 6 + [
                    "<c r='{}'><v>1</v></c>", '<c t="n" r="{}"><v>1</v></c>', '<c r ="{}"/>', '<c\tr="{}"/>',
                    '<c\nr="{}"/>', '<c\rr="{}"/>',
                    "<c><v>1</v></c>", "<c/>", '<c r="{}" r = "XFD9"/>', '<c r="' + _any_ref(draw, st) + '"/>']))
                cells.append(form.format(ref))
            row_form = draw(st.sampled_from(['<row r="{}">'] * 4 + ["<row>", '<row spans="1:3" r="{}">',
                                                                     "<row r='{}'>", '<row r ="{}">']))
            rows.append(row_form.format(number) + "".join(cells) + "</row>")
        prefix = draw(st.sampled_from(["", "x:"]))
        body = "".join(rows)
        if prefix:
            body = body.replace("<c", "<x:c").replace("</c>", "</x:c>").replace("<row", "<x:row").replace(
                "</row>", "</x:row>")
        return (f'<?xml version="1.0"?>\n<{prefix}worksheet xmlns{":x" if prefix else ""}='
                f'"http://schemas.openxmlformats.org/spreadsheetml/2006/main"><{prefix}sheetData>{body}'
                f"</{prefix}sheetData></{prefix}worksheet>").encode()
    return sheet()


def test_fast_scan_finds_the_extent_the_exact_scan_finds(tmp_path_factory, monkeypatch):
    """The scan takes a fast path for sheets written the usual way; on any sheet (cells out of order, far
    cells, references written oddly, rows without numbers, pieces cut anywhere) it finds what reading every
    reference finds. (A cell reference without column letters, r="7" or r="$A$1", the spreadsheet reader
    refuses: the fast path need not count it as a cell without a reference.)"""
    from hypothesis import HealthCheck, given, settings

    @settings(max_examples=300, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(sheet=_sheet_strategy(), chunk=st_chunk())
    def check(sheet, chunk):
        path = tmp_path_factory.mktemp("scan") / "s.xlsx"
        path.write_bytes(workbook({"S": sheet.decode()}))
        with monkeypatch.context() as m:
            m.setattr(limits, "_CHUNK", chunk)
            with zipfile.ZipFile(path) as book:
                info = book.getinfo("xl/worksheets/sheet1.xml")
                fast = limits._scan_sheet(book, info, "s")
                m.setattr(limits, "_fast_extent", lambda *args: None)
                exact = limits._scan_sheet(book, info, "s")
        assert (fast.rows, fast.columns) == (exact.rows, exact.columns)
    check()


def st_chunk():
    from hypothesis import strategies as st
    return st.sampled_from([limits._CHUNK, 7, 40, 101, 333])


@pytest.mark.parametrize("ref", ["AAAAA1", "aaaaa1"])  # ZZZZZZZ1048576: tests/nasty.py, in a subprocess
def test_a_reference_of_more_than_three_letters_is_refused(tmp_path, ref):
    """The spreadsheet reader takes any number of column letters (AAAAA is column 475,255): past XFD is refused
    before it reads the sheet, in a cell and in the <dimension>."""
    in_cell = write(tmp_path, "c.xlsx", workbook({"Deck": sheet_xml('<row r="1">' + cell("A1", "card") +
                                                                    cell(ref, 1) + "</row>")}))
    declared = write(tmp_path, "d.xlsx", workbook({"Deck": sheet_xml(rows_xml([["card"], ["Thrust"]]),
                                                                     dimension=f"A1:{ref}")}))
    for path, how in ((in_cell, "reaches"), (declared, "declares")):
        with pytest.raises(SheetError, match=f"a sheet {how} cell {ref.upper()}, beyond any spreadsheet's last cell"):
            read_tables(path)
