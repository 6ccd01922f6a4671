"""The Python library (CONTRACTS §8): one call per job, the CLI's results, no database on the bundled cards."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import docs_pages
import deckcheck
from deckcheck.report import AMBIGUOUS_CARD, BAD_LINE, UNKNOWN_CARD, UNKNOWN_FORMAT, UNREADABLE, WRONG_SECTION

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
GOLDEN = EXAMPLES / "golden"
SHEETS = {"cards/type2-my-cards.txt": "cards/my-2e-cards.csv",
          "other-games/raven-group.txt": "other-games/raven-stormcrow-cards.csv",
          "other-games/raven-group-illegal.txt": "other-games/raven-stormcrow-cards.csv",
          "other-games/taktik52-table.txt": "other-games/taktik52-heroes.csv",
          "other-games/taktik52-table-illegal.txt": "other-games/taktik52-heroes.csv"}


def golden_decks() -> list[str]:
    return sorted(p.name.removesuffix(".json").replace("__", "/") for p in GOLDEN.glob("*__*.json"))


@pytest.mark.parametrize("deck", golden_decks())
def test_check_file_equals_the_golden_cli_report(deck, monkeypatch):
    """Results equal the CLI's: the golden files are `check --json` of the same decks."""
    monkeypatch.chdir(ROOT)
    cards = deckcheck.read_card_sheet(f"examples/{SHEETS[deck]}") if deck in SHEETS else []
    reports = deckcheck.check_file(f"examples/{deck}", cards=cards)
    assert all(isinstance(r, deckcheck.Report) for r in reports)
    golden = json.loads((GOLDEN / (deck.replace("/", "__") + ".json")).read_text(encoding="utf-8"))
    assert [r.as_dict() for r in reports] == golden


def test_check_text_equals_check_file_of_the_same_text():
    path = EXAMPLES / "decks" / "type1e-kurgan-illegal.txt"
    by_text = deckcheck.check_text(path.read_text(encoding="utf-8"), source=str(path))
    (by_file,) = deckcheck.check_file(path)
    assert by_text.as_dict() == by_file.as_dict() and by_text.legal is False


def test_the_bundled_path_reads_no_database_and_writes_nothing(tmp_path):
    """In a fresh process with an empty home: no SQLAlchemy, no file written, taktik52's built-in cards there."""
    code = """
import sys, deckcheck
r = deckcheck.check_file('examples/other-games/taktik52-table.txt',
                         cards=deckcheck.read_card_sheet('examples/other-games/taktik52-heroes.csv'))
assert [x.legal for x in r] == [True], [x.as_dict() for x in r]
assert deckcheck.check_text(open('examples/decks/type1e-connor-legal.txt').read()).legal is True
print(sorted(m for m in ('sqlalchemy', 'sqlmodel', 'platformdirs', 'pandas') if m in sys.modules))
"""
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "DECKCHECK_DB"} | {
        "HOME": str(home), "XDG_DATA_HOME": str(home / "data"), "DECKCHECK_DB": str(tmp_path / "never.db")}
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"
    assert list(home.rglob("*")) == [] and not (tmp_path / "never.db").exists()


def test_db_argument_uses_that_database(shared_db):
    text = (EXAMPLES / "decks" / "type1e-connor-legal.txt").read_text(encoding="utf-8")
    assert deckcheck.check_text(text, db=shared_db).as_dict() == deckcheck.check_text(text).as_dict()


def test_cards_replace_bundled_cards_of_the_same_id():
    import dataclasses

    from deckcheck.library.api import BundledCards
    card = next(c for c in BundledCards().cards() if c.name == "Upper Left Attack")
    # The printing is named with its set: once one printing's Restriction differs, the bare name
    # matches printings that differ in rules data and is ambiguous (CONTRACTS §2).
    text = f"Format: type1e\nEndurance:\n2 Upper Left Attack [{card.set}]\n"
    base = deckcheck.check_text(text)
    restricted = dataclasses.replace(card, restriction=1)
    report = deckcheck.check_text(text, cards=[restricted])
    assert "HL-RESTRICTED" not in [i.rule for i in base.issues]
    assert "HL-RESTRICTED" in [i.rule for i in report.issues]


@pytest.mark.parametrize("text,kind", [
    ("1 Upper Left Atack", UNKNOWN_CARD),
    ("1 Back Away", AMBIGUOUS_CARD),
    ("Hunters:\n1 Thrust", WRONG_SECTION),
    ("Format: modern\n1 Thrust", UNKNOWN_FORMAT),
    ("Endurance:\n3 x", UNKNOWN_CARD),
])
def test_input_problems_say_their_kind(text, kind):
    report = deckcheck.check_text(text)
    assert report.legal is None and [e.kind for e in report.input_errors] == [kind]


def test_a_file_that_cannot_be_read_is_an_unreadable_report(tmp_path):
    (report,) = deckcheck.check_file(tmp_path / "missing.txt")
    assert report.legal is None and report.input_errors[0].kind == UNREADABLE


def test_every_problem_kind_is_documented():
    readme = docs_pages.text()
    from deckcheck.report import PROBLEM_KINDS
    assert BAD_LINE in PROBLEM_KINDS
    for kind in PROBLEM_KINDS:
        assert f"`{kind}`" in readme


def test_typed_card_errors():
    from deckcheck.library.api import BundledCards
    from deckcheck.games import get_format
    index = BundledCards().index(get_format("type1e"))
    with pytest.raises(deckcheck.UnknownCardError) as unknown:
        index.resolve("Conor McLeod Back Away")
    assert isinstance(unknown.value, deckcheck.CardNotFoundError) and isinstance(unknown.value, ValueError)
    assert str(unknown.value).startswith("'Conor McLeod Back Away': unknown card")
    assert unknown.value.reason == "unknown card" and unknown.value.kind == UNKNOWN_CARD
    with pytest.raises(deckcheck.AmbiguousCardError) as ambiguous:
        index.resolve("Back Away")
    assert ambiguous.value.kind == AMBIGUOUS_CARD and "Back Away (Kern)" in ambiguous.value.suggestions
    assert ambiguous.value.reason.startswith("ambiguous: ")


def test_bad_arguments_raise_typed_errors(tmp_path):
    with pytest.raises(deckcheck.UnknownFormatError, match="'modern'"):
        deckcheck.check_text("1 Thrust", format="modern")
    sheet = tmp_path / "bad.csv"
    sheet.write_text("name,deckbuilding\nX,flying=1\n", encoding="utf-8")
    with pytest.raises(deckcheck.CardSheetError, match="flying"):
        deckcheck.read_card_sheet(sheet)


def test_read_card_sheet_warns_about_unknown_columns(tmp_path):
    sheet = tmp_path / "cards.csv"
    sheet.write_text("name,colour\nMy Card,blue\n", encoding="utf-8")
    with pytest.warns(UserWarning, match="colour"):
        cards = deckcheck.read_card_sheet(sheet)
    assert [c.name for c in cards] == ["My Card"]


def test_report_records_and_frame():
    report = deckcheck.check_text("Endurance:\n1 Upper Left Atack\n", format="type1e")
    assert report.records() == [{
        "deck": "-", "player": None, "format": "type1e", "legal": None, "persona": None, "kind": UNKNOWN_CARD,
        "rule": None, "severity": None, "message": "unknown card", "cards": None, "limit": None, "actual": None,
        "fix": None, "line": 2, "text": "1 Upper Left Atack",
        "suggestions": ", ".join(report.input_errors[0].suggestions)}]
    assert report.input_errors[0].suggestions[0] == "Upper Left Attack"
    illegal = deckcheck.check_file(EXAMPLES / "decks" / "type1e-kurgan-illegal.txt")[0]
    rows = illegal.records()
    assert [(r["kind"], r["rule"], r["limit"], r["actual"]) for r in rows] == \
        [("issue", i.rule, i.limit, i.actual) for i in illegal.issues]
    assert all(set(r) == set(deckcheck.Report.record_columns) for r in rows)
    frame = illegal.to_frame()
    assert list(frame.columns) == list(deckcheck.Report.record_columns) and len(frame) == len(rows)
    assert list(deckcheck.check_text(
        (EXAMPLES / "decks" / "type1e-connor-legal.txt").read_text()).to_frame().columns) == list(frame.columns)


def test_tournament_records_are_the_summary_rows():
    reports = deckcheck.check_file(EXAMPLES / "tournament" / "registration.xlsx")
    t = deckcheck.Tournament(reports)
    from deckcheck.tournament import SUMMARY_COLUMNS
    assert [list(r.values()) for r in t.records()] == t.summary_rows()
    assert list(t.to_frame().columns) == list(SUMMARY_COLUMNS) and len(t.to_frame()) == len(reports)


def test_collection_records(tmp_path):
    from deckcheck.library.api import CollectionApp
    app = CollectionApp(f"sqlite:///{tmp_path / 'c.db'}")
    app.import_sheet(EXAMPLES / "collection" / "my-binder.csv")
    holdings = app.collections.holdings("main")
    rows = holdings.records()
    assert len(rows) == len(holdings) > 0
    assert rows[0]["card_id"] == holdings[0].card.id and rows[0]["collection"] == "main"
    assert sum(r["quantity"] for r in rows) == sum(h.quantity for h in holdings)
    assert list(holdings.to_frame().columns) == list(type(holdings).record_columns)


def test_to_frame_without_pandas_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=re.escape("deckcheck[pandas]")):
        deckcheck.check_text("1 Thrust").to_frame()


def test_package_is_typed():
    assert (Path(deckcheck.__file__).parent / "py.typed").exists()
    for name in deckcheck.__all__:
        assert getattr(deckcheck, name) is not None


def test_readme_python_section_runs(tmp_path, monkeypatch):
    """The library page's examples (docs/library.md), run as written from the checkout."""
    blocks = re.findall(r"```python\n(.*?)```", docs_pages.page("library.md"), re.S)
    assert blocks
    monkeypatch.chdir(ROOT)
    for block in blocks:
        exec(compile(block, "docs/library.md", "exec"), {"__name__": "readme"})


@pytest.mark.parametrize("text", ["\tstarts with a tab", "=1+1", "+3 Ability", "-1 Exertion", "@home", "'quoted",
                                  "plain", " spaced "])
def test_card_text_survives_csv_export_and_import(tmp_path, text):
    """One formula guard for every writer and reader: export -> import gives the same text back."""
    from deckcheck.importers.cardsheet import read_card_sheet, write_card_sheet
    card = deckcheck.Card(id="X-1", name="Odd Card", title="Odd Card", text=text)
    write_card_sheet(tmp_path / "cards.csv", [card])
    (back,) = read_card_sheet(tmp_path / "cards.csv").cards
    assert back.text == (text.strip() if text == " spaced " else text)


def test_formula_guard():
    from deckcheck.formula import FORMULA_START, cell_text, guard, unguard
    for start in FORMULA_START:
        assert guard(start + "x") == "'" + start + "x" and unguard(guard(start + "x")) == start + "x"
        assert cell_text(str(guard(start + "x "))) == start + "x "
    assert guard("x=1") == "x=1" and guard(3) == 3 and unguard("'x") == "'x" and unguard(5) == 5
    assert cell_text("  x ") == "x" and cell_text("'x") == "'x"


def test_a_game_is_one_module_and_one_registry_line():
    from deckcheck.cardsheet import card_from_row
    from deckcheck.errors import RowProblem
    from deckcheck.games import FORMATS, GAMES
    assert [g.name for g in GAMES] == ["highlander", "raven-stormcrow", "taktik52"]
    assert all(f.game == g.name for g in GAMES for f in g.formats)
    assert deckcheck.all_formats() == list(FORMATS)
    problems: list[RowProblem] = []
    card_from_row({"name": "Pawn", "game": "chess"}, 2, problems)
    assert [p.message for p in problems] == ["unknown game; known: highlander, raven-stormcrow, taktik52"]
    hunter = card_from_row({"name": "Ann", "game": "raven-stormcrow", "type": "hunter"})
    assert hunter is not None and hunter.type == "Hunter"  # the game's card types, matched case-insensitively


# -- every decklist file kind, named or in a folder ------------------------------------------------------
DECK_HEADER: tuple[object, ...] = ("section", "quantity", "card", "set")
DECK_ROWS: list[tuple[object, ...]] = [
    ("Pre-Game", 1, "Connor MacLeod Persona", "SE"), ("Endurance", 4, "Upper Left Attack (1)", ""),
    ("Endurance", 7, "Thrust (2)", "")]  # 7 Thrust: an HL-TITLE-MAX error, so the reports say something


def _deck_text(path: Path) -> None:
    lines = ["Format: type1e"]
    for section, qty, card, set_code in DECK_ROWS:
        lines += [f"{section}:", f"{qty} {card}" + (f" [{set_code}]" if set_code else "")]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _deck_json(path: Path) -> None:
    sections: dict[str, list] = {}
    for section, qty, card, set_code in DECK_ROWS:
        item = {"card": card, "quantity": qty} | ({"set": set_code} if set_code else {})
        sections.setdefault(str(section), []).append(item)
    path.write_text(json.dumps({"format": "type1e", "sections": sections}), encoding="utf-8")


def _deck_delimited(path: Path) -> None:
    sep = "\t" if path.suffix == ".tsv" else ","
    path.write_text("\n".join(sep.join(map(str, row)) for row in [DECK_HEADER] + DECK_ROWS)
                    + "\n", encoding="utf-8")


def _deck_workbook(path: Path) -> None:
    import xlsxwriter
    written = path.with_name(path.name + ".xlsx")
    book = xlsxwriter.Workbook(str(written))
    sheet = book.add_worksheet("Deck")
    for r, row in enumerate([DECK_HEADER] + DECK_ROWS):
        sheet.write_row(r, 0, row)
    book.close()
    written.rename(path)  # an .xlsm is an .xlsx that may hold macros: the same parts


def _deck_ods(path: Path) -> None:
    """An OpenDocument spreadsheet, written part by part (deckcheck writes none)."""
    import zipfile
    from xml.sax.saxutils import escape
    ns = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
          'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
          'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"')

    def cell(value: object) -> str:
        if isinstance(value, int):
            return f'<table:table-cell office:value-type="float" office:value="{value}"><text:p>{value}</text:p>' \
                   '</table:table-cell>'
        return f'<table:table-cell office:value-type="string"><text:p>{escape(str(value))}</text:p></table:table-cell>'
    rows = "".join("<table:table-row>" + "".join(map(cell, row)) + "</table:table-row>"
                   for row in [DECK_HEADER] + DECK_ROWS)
    content = (f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {ns} office:version="1.2">'
               f'<office:body><office:spreadsheet><table:table table:name="Deck">{rows}</table:table>'
               '</office:spreadsheet></office:body></office:document-content>')
    manifest = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
                'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
                '<manifest:file-entry manifest:full-path="/" '
                'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
                '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
                '</manifest:manifest>')
    with zipfile.ZipFile(path, "w") as book:
        book.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet", zipfile.ZIP_STORED)
        book.writestr("META-INF/manifest.xml", manifest, zipfile.ZIP_DEFLATED)
        book.writestr("content.xml", content, zipfile.ZIP_DEFLATED)


DECK_WRITERS = {".txt": _deck_text, ".dec": _deck_text, ".deck": _deck_text, ".json": _deck_json,
                ".csv": _deck_delimited, ".tsv": _deck_delimited, ".xlsx": _deck_workbook, ".xlsm": _deck_workbook,
                ".ods": _deck_ods}


def test_every_readable_decklist_kind_is_written_here():
    """A suffix added to the readers' table needs a file of that kind in the tests below, and a word in the README."""
    from deckcheck.importers.decklists import READERS
    assert sorted(READERS) == sorted(DECK_WRITERS)
    readme = docs_pages.text()
    assert [s for s in READERS if f"`{s}`" not in readme] == []


def test_a_folder_checks_every_kind_a_named_file_is_read_as(tmp_path):
    """`check FOLDER` checks each kind of decklist the readers read (it skipped .tsv, .xlsm and .ods), and each
    report equals the one of the file named directly."""
    folder = tmp_path / "decks"
    folder.mkdir()
    for suffix, write in DECK_WRITERS.items():
        write(folder / f"deck{suffix}")
    (folder / "notes.md").write_text("1 Thrust\n", encoding="utf-8")  # not a decklist suffix: not in the walk
    in_folder = deckcheck.check_file(folder)
    assert sorted(Path(r.deck).suffix for r in in_folder) == sorted(DECK_WRITERS)
    for report in in_folder:
        (named,) = deckcheck.check_file(report.deck)
        assert named.as_dict() == report.as_dict()
        assert not report.input_errors, report.as_dict()
        assert "HL-TITLE-MAX" in [i.rule for i in report.issues]
        assert (report.counts, report.issues) == (in_folder[0].counts, in_folder[0].issues)  # one deck, nine files


# -- the card and collection commands as library calls -----------------------------------------------------
def test_card_search_finds_any_field_folded():
    """`cards search` is CardSource.search: name, title, Immortal, type, set or weapon, case and accents folded."""
    source = deckcheck.card_source()
    found = source.search("KURGAN")
    assert [c.id for c in found] == [c.id for c in source.search("kurgan")] and len(found) > 5
    assert all("kurgan" in " ".join(filter(None, (c.name, c.immortal))).lower() for c in found)
    odd = deckcheck.Card(id="X-1", name="Odd Card", title="Odd Card", type="Attack", weapon="Zweihänder")
    assert [c.id for c in deckcheck.card_source(cards=[odd]).search("zweihander")] == ["X-1"]
    assert source.search("zweihander") == [] and source.search("zzzzqq") == []


def test_card_find_by_id_name_or_set_and_unknown_names():
    source = deckcheck.card_source()
    thrusts = source.find("Thrust [ME]")
    assert thrusts and {c.set for c in thrusts} == {"ME"} and {c.title for c in thrusts} == {"Thrust"}
    assert source.find(thrusts[0].id) == [thrusts[0]]
    with pytest.raises(deckcheck.UnknownCardError) as caught:
        source.find("Upper Left Atack")
    assert caught.value.suggestions[0] == "Upper Left Attack"


def test_set_counts_and_card_stats_equal_a_new_database(shared_db):
    """The bundled cards (no database) give what `cards sets` and `cards stats` print from a new database."""
    bundled, stored = deckcheck.card_source(), deckcheck.card_source(db=shared_db)
    sets = bundled.set_counts()
    assert sets == stored.set_counts()
    assert sum(s.cards for s in sets) == sum(1 for c in bundled.cards() if c.set)
    series = next(s for s in sets if s.code == "SE")
    assert series.as_dict() == {"code": "SE", "name": "Series Edition", "edition": 1, "year": "1995",
                                "cards": sum(1 for c in bundled.cards() if c.set == "SE")}
    stats = bundled.card_stats()
    assert stats == stored.card_stats()
    assert stats.cards == len(bundled.cards()) == sum(stats.counts["game"].values())
    text = next(f for f in stats.fields if f.field == "text")
    assert text.known == sum(1 for c in bundled.cards() if c.text) and sum(n for _k, n in text.kinds) == text.known


def test_collection_calls_behind_the_collection_and_deck_commands(tmp_path):
    app = deckcheck.CollectionApp(f"sqlite:///{tmp_path / 'c.db'}")
    app.import_sheet(EXAMPLES / "collection" / "my-binder.csv")
    app.import_sheet(EXAMPLES / "collection" / "deckbox-export.csv", "other")
    stats = app.stats()
    assert (stats.collection, stats.cards, stats.distinct, stats.printings) == ("main", 12, 6, 6)
    assert (stats.value, stats.unpriced) == ({}, 6)
    assert stats.by_set == {"ME": 9, "SE": 1, "WC": 2} and stats.by_edition == {"1": 12}
    assert ("SE", 1, sum(1 for c in app.collections.cards.values()
                         if c.set == "SE" and c.game == "highlander")) in stats.completion
    assert app.stats("other").cards == 3
    assert [h.card.name for h in app.entries("main", "BINDER 2")] == ["Thrust (2)", "Upper Left Attack (1)"]
    assert [h.card.name for h in app.entries("main", "german")] == ["Back Away (Kern)"]
    assert len(app.entries()) == 6 and app.entries().records()[0]["collection"] == "main"

    connor = EXAMPLES / "decks" / "type1e-connor-legal.txt"
    needs = app.missing([str(connor)])
    assert needs.together and all(n.short == n.needed - n.owned > 0 for n in needs.together)
    assert not [n for n in needs.together if n.card.title == "Thrust"]  # 4 Thrust (2) needed, 4 owned
    as_json = needs.as_dict("main")
    assert list(as_json) == ["collection", "decks", "together"] and list(as_json["decks"]) == [str(connor)]
    assert as_json["together"] == as_json["decks"][str(connor)]  # one deck: together is that deck
    ula = next(row for row in as_json["together"] if row["card"] == "Upper Left Attack (1)")
    assert ula == {"card": "Upper Left Attack (1)", "set": "ME", "needed": 4, "owned": 3, "short": 1}

    app.save_deck("connor", str(connor))
    deck, fmt, text = app.saved_deck("connor")
    assert (deck.source, fmt.name) == ("connor", "type1e")
    by_text = deckcheck.check_text(text)
    assert deckcheck.validate(deck, fmt).issues == by_text.issues and by_text.legal is True
    assert sum(e.quantity for e in deck.entries) == sum(by_text.counts.values())
    spare = {s.card.name: s.as_dict() for s in app.trades()}
    assert spare["Back Away (Kern)"] == {"card": "Back Away (Kern)", "set": "WC", "owned": 2, "used": 0, "spare": 2,
                                         "marked_for_trade": 2}
    assert all(s["spare"] == max(0, s["owned"] - s["used"]) for s in spare.values())


def test_taktik_opening_as_dict():
    from deckcheck.games import taktik
    opening = taktik.deal(4, seed=7)  # the game is for 4 or more
    data = opening.as_dict()
    assert list(data) == ["players", "starter", "tie", "may_still_redeal"] and data["starter"] == opening.starter
    first, hand = data["players"][0], opening.hands[0]
    assert first == {"player": hand.player, "cards": [c.name for c in hand.cards], "life_points": hand.life_points,
                     "life_cards": [c.name for c in hand.life_cards], "shield": hand.shield,
                     "shield_card": hand.shield_card.name, "may_redeal": hand.may_redeal, "redeals": []}
    assert hand.life_points == sum(taktik._value(c) for c in hand.life_cards)


def test_the_bundled_cards_are_read_and_indexed_once_for_checks_and_statistics():
    """One reading path: check_text and deck_stats on the bundled cards share one source and one name index,
    so a program checking many decks builds it once; cards given to a call make a source of its own."""
    import deckcheck
    from deckcheck.library.statsapi import text_index
    shared = deckcheck.card_source()
    assert deckcheck.card_source() is shared
    index = shared.index(deckcheck.get_format("type1e"))
    assert text_index() is index and shared.index(deckcheck.get_format("type2")) is index
    text = (ROOT / "examples" / "decks" / "type1e-connor-legal.txt").read_text()
    assert deckcheck.check_text(text).legal is True and deckcheck.deck_stats(text).endurance > 0
    one = [index.cards[0]]
    assert deckcheck.card_source(cards=one) is not shared and text_index(cards=one) is not index


def test_card_sheets_apply_in_the_library_as_cards_does_in_the_cli(tmp_path, shared_db):
    """Review M6: a partial, names-only sheet reaches check_text and check_file as `check --cards` reads it."""
    sheet = tmp_path / "restricted.csv"
    sheet.write_text("name,restriction\nthrust (2),1\n", encoding="utf-8")
    deck = EXAMPLES / "decks" / "type1e-connor-legal.txt"
    report = deckcheck.check_text(deck.read_text(), sheets=[sheet])
    (from_file,) = deckcheck.check_file(deck, sheets=[sheet])
    exe = str(Path(sys.executable).with_name("deckcheck"))
    cli = json.loads(subprocess.run([exe, "check", str(deck), "--json", "--cards", str(sheet), "--db", shared_db],
                                    capture_output=True, text=True).stdout)
    errors = [i for i in cli["issues"] if i["severity"] == "error"]
    assert [i.rule for i in report.errors] == [i["rule"] for i in errors] == ["HL-RESTRICTED"]
    assert "Thrust (2)" in errors[0]["message"]
    assert from_file.as_dict()["issues"] == cli["issues"]
    assert deckcheck.check_text(deck.read_text()).errors == []  # the shared bundled source is untouched


def test_import_deckcheck_loads_only_what_a_call_needs():
    """PEP 562: `import deckcheck` imports none of its modules but its version's (a three-line module that storage
    reads too); each public name loads its own on first use,
    and every name of __all__ (CONTRACTS §8) is there, for `from deckcheck import *` and dir() alike."""
    import subprocess
    import sys
    code = ("import sys, deckcheck\n"
            "print(sorted(m for m in sys.modules if m.startswith('deckcheck.')))\n"
            "deckcheck.get_format\n"
            "print('deckcheck.library.api' in sys.modules, 'deckcheck.formats' in sys.modules)\n"
            "from deckcheck import *\n"
            "print(all(name in dir(deckcheck) and getattr(deckcheck, name) is not None for name in deckcheck.__all__))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.stdout.splitlines() == ["['deckcheck.version']", "False True", "True"], r.stderr[-2000:]
    import deckcheck
    with pytest.raises(AttributeError):
        deckcheck.no_such_name  # noqa: B018
    assert sorted(deckcheck.__all__) == sorted(deckcheck._EXPORTS)


def test_check_tournament_reports_progress_and_draws_nothing(shared_db, monkeypatch, capsys):
    """The library call tells its progress to a callback (files done, of how many) and imports no terminal
    library: the progress bar is the CLI's."""
    import sys

    from deckcheck.library.api import check_tournament
    monkeypatch.chdir(ROOT)
    monkeypatch.delitem(sys.modules, "rich.progress", raising=False)
    calls: list[tuple[int, int]] = []
    t = check_tournament(["examples/tournament/"], db_url=shared_db, progress=lambda done, total: calls.append(
        (done, total)))
    total = calls[0][1]
    assert calls == [(n, total) for n in range(total + 1)] and total >= 2 and len(t.reports) >= total
    assert "rich.progress" not in sys.modules
    assert capsys.readouterr() == ("", "")


def test_dir_of_the_package_lists_its_public_names_not_its_helpers():
    import deckcheck
    names = dir(deckcheck)
    assert set(deckcheck.__all__) <= set(names) and "__version__" in names
    assert not {"Any", "importlib", "TYPE_CHECKING", "annotations", "_EXPORTS"} & set(names)


def test_a_catalogue_reads_its_stored_cards_once_and_a_view_over_it_too(db_url, card_reads):
    """Catalog.stored reads the database once for its life (as its name indexes are built once): a club server's
    check with a person's pending answers (an Overlaid over the server's catalogue) read ~1,500 rows (~34 ms) each
    time. Each call gives a list of its own, so a caller that sorts or extends it changes nothing of the next."""
    from deckcheck.cardsheet import SheetCard
    from deckcheck.library.api import Catalog, Overlaid
    reads = card_reads
    catalog = Catalog(db_url)
    first = catalog.cards()
    first.clear()
    again = catalog.cards()
    assert len(again) > 1000 and reads == [None]
    card = again[0]
    view = Overlaid(catalog, [SheetCard(card, 2, frozenset({"text"}))])
    assert [c.id for c in view.cards()] == [c.id for c in again] and view.cards() is not again
    assert reads == [None]
    assert [c.game for c in catalog.cards("highlander")] == ["highlander"] * len(catalog.cards("highlander"))
    assert reads == [None, "highlander"]
