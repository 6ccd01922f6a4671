"""Each limit of decklist text at its boundary: the limit is read, the limit + 1 is refused with the words users see.

deckcheck.limits holds the numbers and how sizes are written; deckcheck.textlimits holds a text to them. The tests
pass small limits where the functions take them, so that the boundary is exact and the texts stay short.
"""
from __future__ import annotations

from typing import Any

import pytest

from deckcheck import limits
from deckcheck.errors import DecklistError, InputFileError
from deckcheck.limits import size_text
from deckcheck.textlimits import check_line_lengths, checked_text, parse_checked, too_big


@pytest.mark.parametrize("n,text", [
    (0, "0 bytes"), (1023, "1023 bytes"), (1024, "1 KiB"), (1536, "1.5 KiB"), (999 << 10, "999 KiB"),
    (1023488, "1,000 KiB"), (1023 << 10, "1,023 KiB"),
    ((1 << 20) - 1, "1,024 KiB"), (1 << 20, "1 MiB"), (256 << 20, "256 MiB"), ((1 << 30) - (1 << 20), "1,023 MiB"),
    (1 << 30, "1 GiB"), (3 << 29, "1.5 GiB"), (2000 << 30, "2,000 GiB"),
])
def test_a_size_is_written_in_the_largest_unit_it_reaches(n, text):
    """1 KiB, 1 MiB and 1 GiB are where a unit starts; just below one, the smaller unit (never 1.02e+03)."""
    assert size_text(n) == text


@pytest.mark.parametrize("limit,shown", [(limits.TEXT_BYTES, "4 MiB"), (limits.LINE_CHARS, "4,096 characters"),
                                         (limits.XLSX_RATIO, "100 to 1"), (limits.XLSX_MEMBERS, "4,096"),
                                         (limits.SHEET_BYTES, "64 MiB")])
def test_a_limit_is_shown_in_its_unit(limit, shown):
    assert limit.shown() == shown


def test_a_message_tells_the_limit_and_the_size_when_it_is_known():
    assert too_big("CSV and XLSX files", 64 << 20, 65 << 20) == (
        "larger than 64 MiB (65 MiB), the limit for CSV and XLSX files")
    assert too_big("text decklists", 4 << 20) == "larger than 4 MiB, the limit for text decklists"


def refused(text: str, **limits_: Any) -> str:
    with pytest.raises(InputFileError) as raised:
        checked_text(text, "pasted", **limits_)
    assert raised.value.source == "pasted"
    return raised.value.message


def test_a_text_of_exactly_the_size_limit_is_read_and_one_byte_more_is_not():
    assert checked_text("x" * 10, "pasted", limit=10) == "x" * 10
    assert refused("x" * 11, limit=10) == "larger than 10 bytes, the limit for text decklists"


def test_the_size_limit_counts_utf8_bytes_not_characters():
    """'é' is two bytes in UTF-8: five are 10 bytes (the limit), five and one letter 11 (6 characters only)."""
    assert checked_text("é" * 5, "pasted", limit=10) == "é" * 5
    assert refused("é" * 5 + "a", limit=10) == "larger than 10 bytes, the limit for text decklists"
    assert refused("é" * 6, what="deal files", limit=10) == "larger than 10 bytes, the limit for deal files"


@pytest.mark.parametrize("text,number", [
    ("a" * 8 + "\n" + "b" * 9, 2),  # line 1 is at the limit: read; line 2 is one past it
    ("a" * 9 + "\n" + "b" * 8, 1),
    ("ok\n" * 3 + "c" * 9 + "\n" + "d" * 20, 4),  # the first line past the limit is named
])
def test_a_line_of_exactly_the_line_limit_is_read_and_one_character_more_is_not(text, number):
    assert refused(text, max_line=8) == f"line {number} is longer than 8 characters, the limit for a line"


@pytest.mark.parametrize("text", ["a" * 8, "a" * 8 + "\n" + "b" * 8, "a" * 8 + "\r\n" + "b" * 8 + "\n", "\n" * 20])
def test_lines_at_the_line_limit_are_read(text):
    assert checked_text(text, "pasted", max_line=8) == text
    check_line_lengths(text, "pasted", 8)  # no error either when called alone


def test_a_line_limit_is_written_with_thousands_separators():
    assert refused("a" * 4097) == "line 1 is longer than 4,096 characters, the limit for a line"
    assert checked_text("a" * 4096, "pasted") == "a" * 4096


def test_a_nul_character_or_a_lone_surrogate_is_not_text():
    assert refused("Thrust\x00") == "not a text file (it holds NUL bytes; UTF-16 without a byte-order mark?)"
    assert refused("Thrust \ud800") == "holds \\ud800, a lone surrogate, which is not text"
    assert checked_text("Thrust é ♣", "pasted") == "Thrust é ♣"


def test_a_parsed_text_past_a_limit_is_a_decklist_error_naming_its_source():
    with pytest.raises(DecklistError) as raised:
        parse_checked("Thrust\x00", "deck.txt")
    assert (raised.value.source, str(raised.value)) == (
        "deck.txt", "deck.txt: not a text file (it holds NUL bytes; UTF-16 without a byte-order mark?)")
    assert [(ln.line, ln.text) for ln in parse_checked("3 Thrust\n").lines] == [(1, "3 Thrust")]


# -- the file readers' limits (deckcheck.importers.limits) ----------------------------------------------------
def test_a_file_of_exactly_the_size_limit_is_read_and_one_byte_more_is_not(tmp_path):
    from deckcheck.importers.limits import read_bytes
    (tmp_path / "ten").write_bytes(b"3 Thrust\n\n")
    (tmp_path / "eleven").write_bytes(b"3 Thrust\n\n\n")
    assert read_bytes(tmp_path / "ten", 10, "deal files") == b"3 Thrust\n\n"
    with pytest.raises(InputFileError) as raised:
        read_bytes(tmp_path / "eleven", 10, "deal files")
    assert raised.value.message == "larger than 10 bytes (11 bytes), the limit for deal files"


def test_a_file_whose_size_is_not_known_is_read_up_to_the_limit(tmp_path, monkeypatch):
    """A pipe or a device has no size: the reader reads at most one byte past the limit, and refuses it then."""
    from types import SimpleNamespace

    from deckcheck.importers import limits as file_limits

    def no_size(fd):
        raise OSError("no size")
    (tmp_path / "ten").write_bytes(b"0123456789")
    (tmp_path / "eleven").write_bytes(b"0123456789A")
    monkeypatch.setattr(file_limits, "os", SimpleNamespace(fstat=no_size))  # the reader's os only
    assert file_limits.read_bytes(tmp_path / "ten", 10, "deal files") == b"0123456789"
    with pytest.raises(InputFileError) as raised:
        file_limits.read_bytes(tmp_path / "eleven", 10, "deal files")
    assert raised.value.message == "larger than 10 bytes, the limit for deal files"  # its size is not known


@pytest.mark.parametrize("binary", [True, False])
def test_standard_input_of_exactly_the_size_limit_is_read_and_one_byte_more_is_not(monkeypatch, binary):
    """Standard input is read as bytes (sys.stdin.buffer) or, where a caller replaced it by a text stream, as its
    text in UTF-8; either way at most the limit."""
    import io
    import sys

    from deckcheck.importers.limits import read_stdin

    def stdin(data: bytes):
        return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8") if binary else io.StringIO(data.decode())
    monkeypatch.setattr(sys, "stdin", stdin("Thrust é\n".encode()))  # 10 bytes
    assert read_stdin(10, "text decklists") == "Thrust é\n".encode()
    monkeypatch.setattr(sys, "stdin", stdin("Thrust é!\n".encode()))
    with pytest.raises(InputFileError) as raised:
        read_stdin(10, "text decklists")
    assert (raised.value.source, raised.value.message) == ("-", "larger than 10 bytes, the limit for text decklists")


def test_bytes_in_memory_of_exactly_the_size_limit_are_read_and_one_more_are_not():
    from deckcheck.importers.limits import text_of_bytes
    assert text_of_bytes(b"3 Thrust\n\n", "upload", limit=10) == "3 Thrust\n\n"
    with pytest.raises(InputFileError) as raised:
        text_of_bytes(b"3 Thrust\n\n\n", "upload", "deal files", limit=10)
    assert raised.value.message == "larger than 10 bytes (11 bytes), the limit for deal files"


@pytest.mark.parametrize("exc,message", [
    (FileNotFoundError(2, "No such file or directory"), "no such file"),
    (IsADirectoryError(21, "Is a directory"), "is a folder; name the files in it"),
    (PermissionError(13, "Permission denied"), "permission denied (the file cannot be read)"),
    (OSError(5, "Input/output error"), "cannot be read (Input/output error)"),
    (OSError("disk on fire"), "cannot be read (disk on fire)"),  # no strerror: the exception's own words
])
def test_a_file_that_cannot_be_opened_is_named_with_why(exc, message):
    from deckcheck.importers.limits import _open_error
    error = _open_error("deck.txt", exc)
    assert (error.source, error.message) == ("deck.txt", message)


def _write(tmp_path, name: str, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_a_json_decklist_nested_exactly_the_depth_limit_is_read_and_one_level_more_is_not(tmp_path):
    """JSON_DEPTH (32): the deck object and 31 arrays in a note are 32 levels; one array more, 33."""
    from deckcheck.importers.decklists import read_decklists

    def deck(depth: int) -> bytes:
        note = "[" * (depth - 1) + "]" * (depth - 1)
        return ('{"format": "type1e", "note": ' + note + ', "sections": {"Endurance": [{"card": "Thrust", '
                '"quantity": 3}]}}').encode()
    (raw,) = read_decklists(_write(tmp_path, "deep.json", deck(limits.JSON_DEPTH.value)))
    assert [line.readings[0] for line in raw.lines] == [(3, "Thrust")]
    with pytest.raises(DecklistError) as raised:
        read_decklists(_write(tmp_path, "deeper.json", deck(limits.JSON_DEPTH.value + 1)))
    assert str(raised.value).endswith("JSON nested 33 levels deep; a decklist needs 4 and the limit is 32")


def _sheet():
    from nasty import rows_xml, sheet_xml
    return sheet_xml(rows_xml([["quantity", "card"], [3, "Thrust"]]))


def test_a_workbook_of_exactly_the_parts_limit_is_read_and_one_part_more_is_not(tmp_path, monkeypatch):
    import zipfile

    from nasty import many_members

    from deckcheck.importers import limits as file_limits
    from deckcheck.importers.tables import SheetError, read_tables
    parts = len(zipfile.ZipFile(_write(tmp_path, "base.xlsx", many_members(3))).infolist())
    monkeypatch.setattr(file_limits, "XLSX_MAX_MEMBERS", parts)
    (table,) = read_tables(tmp_path / "base.xlsx")
    assert table.rows == [[3.0, "Thrust"]]
    with pytest.raises(SheetError) as raised:
        read_tables(_write(tmp_path, "more.xlsx", many_members(4)))
    assert f"not a readable workbook: {parts + 1} parts, more than {parts}" in str(raised.value)


def test_a_workbook_inflating_to_exactly_the_size_limit_is_read_and_one_byte_more_is_not(tmp_path, monkeypatch):
    import zipfile

    from nasty import workbook

    from deckcheck.importers import limits as file_limits
    from deckcheck.importers.tables import SheetError, read_tables
    path = _write(tmp_path, "d.xlsx", workbook({"Deck": _sheet()}))
    inflated = sum(i.file_size for i in zipfile.ZipFile(path).infolist())
    monkeypatch.setattr(file_limits, "XLSX_MAX_UNCOMPRESSED", inflated)
    assert read_tables(path)[0].rows == [[3.0, "Thrust"]]
    monkeypatch.setattr(file_limits, "XLSX_MAX_UNCOMPRESSED", inflated - 1)
    with pytest.raises(SheetError) as raised:
        read_tables(path)
    assert f"it inflates to {size_text(inflated)}, more than {size_text(inflated - 1)}" in str(raised.value)


def test_a_part_inflating_exactly_the_ratio_limit_is_read_and_more_is_not(tmp_path, monkeypatch):
    """XLSX_RATIO: a part of more than 1 MiB may inflate up to the ratio times its stored size; the 1 MiB is a
    limit too (a part of exactly that size is never judged by its ratio)."""
    import zipfile

    from nasty import padded_sheet

    from deckcheck.importers import limits as file_limits
    from deckcheck.importers.tables import SheetError, read_tables
    path = _write(tmp_path, "padded.xlsx", padded_sheet(2 << 20))
    part = next(i for i in zipfile.ZipFile(path).infolist() if i.filename.endswith("sheet1.xml"))
    ratio = -(-part.file_size // part.compress_size)  # the smallest whole ratio the part keeps
    monkeypatch.setattr(file_limits, "XLSX_MAX_RATIO", ratio)
    assert read_tables(path)[0].rows == [[3.0, "Thrust"]]
    monkeypatch.setattr(file_limits, "XLSX_MAX_RATIO", ratio - 1)
    with pytest.raises(SheetError) as raised:
        read_tables(path)
    assert (f"part 'xl/worksheets/sheet1.xml' inflates {part.file_size // part.compress_size:,} times its stored "
            f"size (a zip bomb?); the limit is {ratio - 1}") in str(raised.value)
    monkeypatch.setattr(file_limits, "XLSX_RATIO_FROM_BYTES", part.file_size)  # not more than it: not judged
    assert read_tables(path)[0].rows == [[3.0, "Thrust"]]
    monkeypatch.setattr(file_limits, "XLSX_RATIO_FROM_BYTES", part.file_size - 1)
    with pytest.raises(SheetError):
        read_tables(path)


@pytest.mark.parametrize("form", ['<c r ="Z999999"><v>1</v></c>', '<c r= "Z999999"><v>1</v></c>',
                                  '<c\tr="Z999999"><v>1</v></c>', '<c\nr="Z999999"><v>1</v></c>',
                                  '<c\rr="Z999999"><v>1</v></c>', '<c r="Z999999"><v>1</v></c>'])
def test_a_far_cell_is_found_however_its_reference_is_written(tmp_path, form):
    """XML allows white space around '=' and any white space before an attribute: a far cell written so is found
    and refused like one written the usual way."""
    from nasty import cell, sheet_xml, workbook

    from deckcheck.importers.tables import SheetError, read_tables
    body = '<row r="1">' + cell("A1", "card") + "</row><row>" + form + "</row>"  # the row's number: the cell's
    path = _write(tmp_path, "far.xlsx", workbook({"Deck": sheet_xml(body)}))
    with pytest.raises(SheetError) as raised:
        read_tables(path)
    assert "a sheet reaches 999,999 rows x 26 columns (up to cell Z999999)" in str(raised.value)


def test_a_stored_part_is_exactly_one_to_one(tmp_path, monkeypatch):
    """A part stored without compression inflates exactly 1 time its stored size: under a ratio limit of 1 it is
    read (the limit), deflated it inflates more and is refused."""
    import zipfile

    from nasty import rows_xml, sheet_xml, workbook

    from deckcheck.importers import limits as file_limits
    from deckcheck.importers.tables import SheetError, read_tables
    sheet = {"Deck": sheet_xml(rows_xml([["quantity", "card"], [3, "Thrust"]]) + " " * (1 << 20))}
    monkeypatch.setattr(file_limits, "XLSX_MAX_RATIO", 1)
    stored = _write(tmp_path, "stored.xlsx", workbook(sheet, compression=zipfile.ZIP_STORED))
    assert read_tables(stored)[0].rows == [[3.0, "Thrust"]]
    with pytest.raises(SheetError):
        read_tables(_write(tmp_path, "deflated.xlsx", workbook(sheet)))


def test_a_far_cell_past_the_first_piece_of_the_stream_is_found(tmp_path, monkeypatch):
    """The scan inflates a sheet piece by piece (4 MiB, here 64 bytes): a far cell in a later piece counts."""
    from nasty import cell, sheet_xml, workbook

    from deckcheck.importers import limits as file_limits
    from deckcheck.importers.tables import SheetError, read_tables
    monkeypatch.setattr(file_limits, "_CHUNK", 64)
    rows = "".join(f'<row r="{r}">' + cell(f"A{r}", "card") + "</row>" for r in range(1, 30))
    path = _write(tmp_path, "long.xlsx", workbook({"Deck": sheet_xml(rows + '<row r="999999">'
                                                                      + cell("Z999999", 1) + "</row>")}))
    with pytest.raises(SheetError) as raised:
        read_tables(path)
    assert "a sheet reaches 999,999 rows x 26 columns (up to cell Z999999)" in str(raised.value)


def test_a_sheet_declaring_xml_entities_is_refused(tmp_path):
    """Entities can only be declared before the root element (an entity expanding to many cells, or a billion
    laughs); a sheet that declares one is refused before the spreadsheet reader sees it."""
    from nasty import cell, workbook

    from deckcheck.importers.tables import SheetError, read_tables
    sheet = ('<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY cells "' + cell("A2", 1) * 3 + '">]>'
             '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
             '<row r="1">' + cell("A1", "card") + '</row><row r="2">&cells;</row></sheetData></worksheet>')
    with pytest.raises(SheetError) as raised:
        read_tables(_write(tmp_path, "entities.xlsx", workbook({"Deck": sheet})))
    assert "not a readable workbook: a sheet declares XML entities" in str(raised.value)


def test_a_sheet_part_inflating_to_exactly_the_size_limit_is_scanned(tmp_path, monkeypatch):
    """The inflated bytes are counted as they stream (a zip's directory may lie): a part of exactly the limit is
    scanned; one byte more is refused (the directory's sizes are checked first, then the stream)."""
    import zipfile

    from nasty import rows_xml, sheet_xml

    from deckcheck.importers import limits as file_limits
    xml = sheet_xml(rows_xml([["quantity", "card"], [3, "Thrust"]])).encode()
    path = tmp_path / "one-part.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("xl/worksheets/sheet1.xml", xml)
    monkeypatch.setattr(file_limits, "XLSX_MAX_UNCOMPRESSED", len(xml))
    scan = file_limits.inspect_xlsx(path)
    assert [(s.rows, s.columns) for s in scan.sheets.values()] == [(2, 2)]
    monkeypatch.setattr(file_limits, "XLSX_MAX_UNCOMPRESSED", len(xml) - 1)
    with pytest.raises(InputFileError) as raised:
        file_limits.inspect_xlsx(path)
    assert raised.value.message.startswith(f"not a readable workbook: it inflates to {size_text(len(xml))}")


def test_a_reference_cut_by_a_read_is_found_whole(tmp_path, monkeypatch):
    """The scan reads the inflated sheet in pieces and keeps what follows the last '>' for the next one, so that
    no reference is cut in two: here a read ends inside r="Z999999"."""
    from nasty import cell, sheet_xml, workbook

    from deckcheck.importers import limits as file_limits
    from deckcheck.importers.tables import SheetError, read_tables
    chunk = (1 << 20) + 100  # more than 1 MiB: a piece without '>' that long would be scanned as it is
    head = sheet_xml('<row r="1">' + cell("A1", "card") + "</row>")
    head, tail = head.split("</sheetData>")
    far = '<row r="999999"><c r="Z999999"><v>1</v></c></row>'
    pad = " " * (chunk - len(head.encode()) - far.index("Z9") - 2)  # the read ends after r="Z9
    body = head + pad + far + "</sheetData>" + tail
    assert body.encode()[chunk - 3:chunk] == b'"Z9'
    monkeypatch.setattr(file_limits, "_CHUNK", chunk)
    monkeypatch.setattr(file_limits, "XLSX_MAX_RATIO", 10_000)  # white space deflates far better than a sheet
    with pytest.raises(SheetError) as raised:
        read_tables(_write(tmp_path, "cut.xlsx", workbook({"Deck": body})))
    assert "a sheet reaches 999,999 rows x 26 columns (up to cell Z999999)" in str(raised.value)
