"""Nasty input files, made at test time (no binary blobs in git): the inputs of issue 9 and their kin.

`nasty_files()` returns (name, bytes) pairs; the suffix of a name says which reader it is for
(.txt text decklist, .json JSON decklist, .csv/.xlsx sheets). Every one must be refused or read
with a clear message: exit code 0, 1 or 2 as CONTRACTS.md §3 says, never a traceback, never a
native abort, never a hang. The CLI tests (tests/test_nasty.py) and the web app's tests (the same
bytes through /api/check) both use this list. Only the standard library is used, so that any test
can import it; XLSX files are written by hand (zipfile) because several of them are workbooks no
well-behaved writer would make.
"""
from __future__ import annotations

import io
import json
import zipfile
import zlib
from typing import Sequence

_CT = ('<?xml version="1.0" encoding="UTF-8"?>'
       '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
       '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
       '<Default Extension="xml" ContentType="application/xml"/>'
       '<Override PartName="/xl/workbook.xml" '
       'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
       '{overrides}</Types>')
_SHEET_CT = ('<Override PartName="/xl/worksheets/sheet{n}.xml" '
             'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>')
_RELS = ('<?xml version="1.0" encoding="UTF-8"?>'
         '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
         '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
         'officeDocument" Target="xl/workbook.xml"/></Relationships>')
_WB = ('<?xml version="1.0" encoding="UTF-8"?>'
       '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
       'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>{sheets}</sheets>'
       '</workbook>')
_WB_SHEET = '<sheet name="{name}" sheetId="{n}" r:id="rId{n}"/>'
_WB_RELS = ('<?xml version="1.0" encoding="UTF-8"?>'
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">{rels}'
            '</Relationships>')
_WB_REL = ('<Relationship Id="rId{n}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
           'worksheet" Target="worksheets/sheet{n}.xml"/>')
_SHEET_HEAD = ('<?xml version="1.0" encoding="UTF-8"?>'
               '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">')


def column_letters(col: int) -> str:
    """1 -> A, 27 -> AA, 16384 -> XFD."""
    letters = ""
    while col:
        col, rest = divmod(col - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def cell(ref: str, value: object = None, formula: str | None = None, error: str | None = None) -> str:
    """One <c> element: a number, an inline string, a formula (cached value optional) or an error cell."""
    if error is not None:
        f = f"<f>{formula}</f>" if formula else ""
        return f'<c r="{ref}" t="e">{f}<v>{error}</v></c>'
    f = f"<f>{formula}</f>" if formula else ""
    if value is None:
        return f'<c r="{ref}">{f}</c>'
    if isinstance(value, (int, float)):
        return f'<c r="{ref}">{f}<v>{value}</v></c>'
    text = str(value).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if formula:
        return f'<c r="{ref}" t="str">{f}<v>{text}</v></c>'
    return f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'


def rows_xml(rows: Sequence[Sequence[object]]) -> str:
    """<row> elements for plain values (None leaves the cell out)."""
    out = []
    for r, row in enumerate(rows, start=1):
        cells = "".join(cell(f"{column_letters(c)}{r}", v) for c, v in enumerate(row, start=1) if v is not None)
        out.append(f'<row r="{r}">{cells}</row>')
    return "".join(out)


def sheet_xml(body: str, dimension: str | None = None) -> str:
    """A worksheet part around <row> elements, with an optional <dimension ref=...>."""
    dim = f'<dimension ref="{dimension}"/>' if dimension else ""
    return f"{_SHEET_HEAD}{dim}<sheetData>{body}</sheetData></worksheet>"


def workbook(sheets: dict[str, str], extra: dict[str, bytes] | None = None,
             compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    """An XLSX file from {sheet name: worksheet XML}; extra members are added as they are."""
    buf = io.BytesIO()
    names = list(sheets)
    with zipfile.ZipFile(buf, "w", compression) as z:
        z.writestr("[Content_Types].xml", _CT.format(overrides="".join(_SHEET_CT.format(n=i)
                                                                       for i in range(1, len(names) + 1))))
        z.writestr("_rels/.rels", _RELS)
        z.writestr("xl/workbook.xml", _WB.format(sheets="".join(_WB_SHEET.format(name=name, n=i)
                                                               for i, name in enumerate(names, start=1))))
        z.writestr("xl/_rels/workbook.xml.rels", _WB_RELS.format(rels="".join(_WB_REL.format(n=i) for i in
                                                                              range(1, len(names) + 1))))
        for i, name in enumerate(names, start=1):
            z.writestr(f"xl/worksheets/sheet{i}.xml", sheets[name])
        for member, data in (extra or {}).items():
            z.writestr(member, data)
    return buf.getvalue()


def decklist_sheet(rows: Sequence[Sequence[object]]) -> bytes:
    """A one-sheet decklist workbook (section, quantity, card) with plain values."""
    return workbook({"Deck": sheet_xml(rows_xml([["section", "quantity", "card"], *rows]))})


def padded_sheet(pad_bytes: int) -> bytes:
    """A decklist workbook whose sheet XML is inflated with whitespace: a zip bomb in miniature.

    Deflate squeezes the padding about 1000 to 1; the padding is streamed into the zip so that
    making it never holds the inflated XML in memory.
    """
    head = _SHEET_HEAD + "<sheetData>" + rows_xml([["quantity", "card"], [3, "Thrust"]])
    tail = "</sheetData></worksheet>"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", _CT.format(overrides=_SHEET_CT.format(n=1)))
        z.writestr("_rels/.rels", _RELS)
        z.writestr("xl/workbook.xml", _WB.format(sheets=_WB_SHEET.format(name="Deck", n=1)))
        z.writestr("xl/_rels/workbook.xml.rels", _WB_RELS.format(rels=_WB_REL.format(n=1)))
        with z.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as member:
            member.write(head.encode())
            block = b" " * (1 << 20)
            for _ in range(pad_bytes >> 20):
                member.write(block)
            member.write(tail.encode())
    return buf.getvalue()


def many_members(count: int) -> bytes:
    """A decklist workbook with `count` extra (empty) zip members."""
    return workbook({"Deck": sheet_xml(rows_xml([["quantity", "card"], [3, "Thrust"]]))},
                    extra={f"customXml/item{i}.xml": b"" for i in range(count)})


def nested_json(depth: int) -> bytes:
    """A JSON text of `depth` nested arrays."""
    return b"[" * depth + b"]" * depth


def json_deck(sections: object, fmt: object = "type1e", **extra: object) -> bytes:
    """A JSON decklist (CONTRACTS.md §2) with any values, right or wrong."""
    return json.dumps({"format": fmt, "sections": sections, **extra}).encode()


def deflate_ratio(data: bytes) -> float:
    """How many times deflate shrinks the bytes (to check a bomb is a bomb)."""
    return len(data) / max(1, len(zlib.compress(data)))


LEGAL_LINE = "3 Thrust"


def nasty_files() -> list[tuple[str, bytes]]:
    """(name, bytes) of every nasty input; sizes stay under ~6 MB so that a web test can send them too."""
    far = '<row r="1">' + cell("A1", "quantity") + cell("B1", "card") + "</row>" + \
          '<row r="1048576">' + cell("XFD1048576", 1) + "</row>"
    sneaky_far = '<row r="1">' + cell("A1", "quantity") + cell("B1", "card") + cell("XFD1048576", 1) + "</row>"
    spaced = '<row r="1">' + cell("A1", "card") + '</row><row r="2"><c\n r = "XFD1048576"><v>1</v></c></row>'
    header = '<row r="1">' + cell("A1", "section") + cell("B1", "quantity") + cell("C1", "card") + "</row>"
    no_cache = header + '<row r="2">' + cell("A2", "Endurance") + cell("B2", formula="1+1") + \
        cell("C2", "Thrust") + "</row>"
    error = header + '<row r="2">' + cell("A2", "Endurance") + cell("B2", formula="1/0", error="#DIV/0!") + \
        cell("C2", "Thrust") + "</row>"
    na = header + '<row r="2">' + cell("A2", "Endurance") + cell("B2", error="#N/A") + cell("C2", "Thrust") + "</row>"
    files: list[tuple[str, bytes]] = [
        # spreadsheets: native aborts, bombs, extents, cells that are not values
        ("far-corner.xlsx", workbook({"Deck": sheet_xml(far)})),
        ("far-corner-in-row-1.xlsx", workbook({"Deck": sheet_xml(sneaky_far)})),
        ("far-corner-dimension.xlsx", workbook({"Deck": sheet_xml(rows_xml([["quantity", "card"], [3, "Thrust"]]),
                                                                  dimension="A1:XFD1048576")})),
        ("far-corner-lower-case.xlsx", workbook({"Deck": sheet_xml('<row r="1">' + cell("A1", "card") +
                                                                   cell("xfd1048576", 1) + "</row>")})),
        ("far-corner-spaced.xlsx", workbook({"Deck": sheet_xml(spaced)})),
        # the reader takes any number of column letters: ZZZZZZZ is column 8,031,810,176
        ("far-corner-many-letters.xlsx", workbook({"Deck": sheet_xml('<row r="1">' + cell("A1", "card") +
                                                                     cell("ZZZZZZZ1048576", 1) + "</row>")})),
        ("far-corner-many-letters-dimension.xlsx", workbook({"Deck": sheet_xml(
            rows_xml([["quantity", "card"], [3, "Thrust"]]), dimension="A1:ZZZZZZZ1048576")})),
        ("wide-area.xlsx", workbook({"Deck": sheet_xml('<row r="1">' + cell("A1", "card") + cell("Z999999", 1)
                                                       + "</row>")})),
        ("zip-bomb.xlsx", padded_sheet(96 << 20)),
        ("many-members.xlsx", many_members(5000)),
        ("formula-no-cached-value.xlsx", workbook({"Deck": sheet_xml(no_cache)})),
        ("error-cell.xlsx", workbook({"Deck": sheet_xml(error)})),
        ("error-cell-no-formula.xlsx", workbook({"Deck": sheet_xml(na)})),
        ("not-a-zip.xlsx", b"PK\x03\x04 this is not a zip file at all"),
        ("truncated.xlsx", decklist_sheet([["Endurance", 3, "Thrust"]])[:300]),
        ("empty.xlsx", b""),
        ("duplicate-header.xlsx", workbook({"Deck": sheet_xml(rows_xml([["card", "quantity", "Card"],
                                                                        ["Thrust", 3, "Lunge"]]))})),
        ("superscript.xlsx", decklist_sheet([["Endurance", "\u00b3", "Thrust"]])),
        # JSON decklists
        ("deep.json", nested_json(100_000)),
        ("deep-sections.json", b'{"format": "type1e", "sections": {"Endurance": ' + nested_json(5000) + b"}}"),
        ("huge-int.json", b'{"format": "type1e", "sections": {"Endurance": [{"card": "Thrust", "quantity": '
         + b"9" * 5000 + b"}]}}"),
        ("big-quantity.json", json_deck({"Endurance": [{"card": "Thrust", "quantity": 2 ** 63}]})),
        ("float-quantity.json", json_deck({"Endurance": [{"card": "Thrust", "quantity": 1e308}]})),
        ("nan-quantity.json", b'{"format": "type1e", "sections": {"Endurance": [{"card": "Thrust", '
                              b'"quantity": NaN}]}}'),
        ("lone-surrogate.json", b'{"format": "type1e", "sections": {"Endurance": [{"card": "Thr\\ud800ust"}]}}'),
        ("lone-surrogate-key.json", b'{"format": "type1e", "sections": {"\\udfff": ["Thrust"]}}'),
        ("utf16.json", json_deck({"Endurance": [{"card": "Thrust", "quantity": 3}]}).decode().encode("utf-16")),
        ("latin1.json", '{"format": "type1e", "sections": {"Endurance": ["Caf\u00e9"]}}'.encode("latin-1")),
        ("binary.json", bytes(range(256)) * 4),
        ("number-format.json", json_deck({"Endurance": ["Thrust"]}, fmt=12)),
        ("list-set.json", json_deck({"Endurance": [{"card": "Thrust", "set": ["ME"]}]})),
        ("dict-card.json", json_deck({"Endurance": [{"card": {"name": "Thrust"}}]})),
        ("players-not-list.json", json_deck({"Players": []}, fmt="taktik52", players={"Anna": "x"})),
        ("player-number.json", json_deck({"Endurance": ["Thrust"]}, player=7)),
        ("unknown-section.json", json_deck({"Endurence": [{"card": "Thrust", "quantity": 3}]})),
        ("sections-list.json", json_deck([["Endurance", "Thrust"]])),
        ("top-level-list.json", b'[{"card": "Thrust"}]'),
        ("null.json", b"null"),
        ("empty.json", b""),
        # CSV sheets
        ("superscript.csv", "section,quantity,card\nEndurance,\u00b3,Thrust\n".encode()),
        ("arabic-digits.csv", "section,quantity,card\nEndurance,\u0663,Thrust\n".encode()),
        ("huge-field.csv", b"section,quantity,card\nEndurance,3,\"" + b"a" * 200_000 + b"\"\n"),
        ("duplicate-header.csv", b"card,quantity,card\nThrust,3,Lunge\n"),
        ("duplicate-header-case.csv", b"Quantity,card,quantity\n3,Thrust,4\n"),
        ("huge-quantity.csv", b"quantity,card\n" + b"9" * 5000 + b",Thrust\n"),
        ("latin1.csv", "quantity,card\n3,Caf\u00e9\n".encode("latin-1")),
        ("binary.csv", bytes(range(256)) * 4),
        ("nul.csv", b"quantity,card\n3,Thr\x00ust\n"),
        ("header-only.csv", b"section,quantity,card\n"),
        ("empty.csv", b""),
        # text decklists
        ("long-line.txt", b"3 " + b"a" * 20_000 + b"\n"),
        ("too-big.txt", (LEGAL_LINE + "\n").encode() * 700_000),
        ("spaces.txt", b"a" + b" " * 40_000 + b"b\n"),
        ("latin1.txt", "3 Thrust\n2 Caf\u00e9\n".encode("latin-1")),
        ("utf16.txt", "Format: type1e\n3 Thrust\n".encode("utf-16")),
        ("binary.txt", bytes(range(256)) * 4),
        ("nul.txt", b"3 Thr\x00ust\n"),
        ("huge-int.txt", b"9" * 5000 + b" Thrust\n"),
        ("escape-sequences.txt", b"\x1b]0;pwned\x07\x1b[31m3 Thrust\x1b[0m\n\x9b2J1 Lunge\n"),
        ("rich-markup.txt", b"Player: [bold]Ann[/bold] [/x]\n3 Thrust [/]\n[red]2 Lunge\n1 [link=file:///etc]x[/link]\n"),
        ("bidi.txt", "3 Thr\u202eust\n".encode()),
        ("empty.txt", b""),
        ("comment-only.txt", b"# nothing here\n// nor here\n"),
        ("header-only.txt", b"Pre-Game:\nEndurance:\n"),
        ("crlf-only.txt", b"\r\n" * 1000),
    ]
    return files


def texts_past_limits() -> dict[str, tuple[str, str]]:
    """Decklists handed over as text (a library call, a web form) past a limit of text decklists.

    name -> (text, words of the refusal). A file of the same text is refused with the same words
    (importers.limits); a text must not slip past because it never was a file. The lone surrogate
    can only come as a string (a JSON `\\ud800`): no UTF-8 file holds one.
    """
    return {
        "long-line": ("3 Thrust\n2 " + "x" * 4095 + "\n",
                      "line 2 is longer than 4,096 characters, the limit for a line"),
        "nul": ("3 Thrust\n3 Thr\x00ust\n", "not a text file (it holds NUL bytes"),
        "too-big": (("# " + "x" * 4000 + "\n") * 1100, "larger than 4 MiB"),  # a file's message adds its size
        "too-big-in-utf-8": (("# " + "\u00e9" * 2000 + "\n") * 1100, "larger than 4 MiB"),  # 2.2 M characters
        "lone-surrogate": ("3 Thrust\n3 Thr\ud800ust\n", "holds \\ud800, a lone surrogate, which is not text"),
    }
