"""Decklist files: text, CSV, XLSX (one deck, a player column, one sheet per player), JSON; unreadable files."""
from __future__ import annotations

import json

import pytest

from deckcheck.errors import DecklistError
from deckcheck.importers.decklists import read_decklists, write_decklist


def xlsx(path, sheets: dict[str, list[list]]):
    import xlsxwriter
    book = xlsxwriter.Workbook(str(path))
    for name, rows in sheets.items():
        ws = book.add_worksheet(name)
        for r, row in enumerate(rows):
            ws.write_row(r, 0, row)
    book.close()
    return path


def lines(raw):
    return [(l.line, l.section, l.readings[0], l.set_code) for l in raw.lines]


def test_xlsx_one_deck(tmp_path):
    path = xlsx(tmp_path / "d.xlsx", {"Deck": [["section", "quantity", "card", "set"],
                                               ["Pre-Game", 1, "Connor MacLeod Persona", "SE"],
                                               ["Endurance", 3, "Thrust", ""], ["", "", "", ""],
                                               ["Endurance", None, "Upper Left Attack", None]]})
    (raw,) = read_decklists(path)
    assert lines(raw) == [(2, "pre-game", (1, "Connor MacLeod Persona"), "SE"), (3, "endurance", (3, "Thrust"), None),
                          (5, "endurance", (1, "Upper Left Attack"), None)]


def test_registration_with_player_column_and_format(tmp_path):
    path = tmp_path / "reg.csv"
    path.write_text("player,format,section,quantity,card\nAnn,type2,Endurance,3,Thrust\nBob,,Endurance,2,Thrust\n"
                    "Ann,,Endurance,1,Challenge\n")
    ann, bob = read_decklists(path)
    assert (ann.player, ann.declared_format, len(ann.lines)) == ("Ann", "type2", 2)
    assert (bob.player, bob.declared_format, bob.source) == ("Bob", None, f"{path} [Bob]")


def test_one_sheet_per_player(tmp_path):
    path = xlsx(tmp_path / "reg.xlsx", {"Ann": [["quantity", "card"], [3, "Thrust"]],
                                        "Notes": [["anything", "else"], ["not", "a deck"]],
                                        "Bob": [["quantity", "card"], [2, "Thrust"]]})
    decks = read_decklists(path)
    assert [(d.player, d.source) for d in decks] == [("Ann", f"{path}#Ann"), ("Bob", f"{path}#Bob")]


@pytest.mark.parametrize("row,message", [("Endurance,three,Thrust", "not a whole number"),
                                         ("Bogus,1,Thrust", "unknown section"),
                                         ("Endurance,0,Thrust", "at least 1")])
def test_bad_sheet_rows_are_line_problems(tmp_path, row, message):
    path = tmp_path / "d.csv"
    path.write_text("section,quantity,card\nEndurance,3,Thrust\n" + row + "\n")
    (raw,) = read_decklists(path)
    assert raw.problems[0].line == 3 and message in raw.problems[0].message


def test_json_decklist_and_its_errors(tmp_path):
    path = tmp_path / "d.json"
    path.write_text(json.dumps({"format": "type1e", "sections": {"Endurance": [
        {"card": "Thrust", "quantity": 3}, "Challenge", {"card": "Thrust", "quantity": "x"}, {"name": "?"}]}}))
    (raw,) = read_decklists(path)
    assert raw.declared_format == "type1e" and [l.readings[0] for l in raw.lines] == [(3, "Thrust"), (1, "Challenge")]
    assert [p.message for p in raw.problems] == ["the quantity must be a whole number from 1 to 1,000,000",
                                                 'each card is {"card": "name", "quantity": N} or "name"']
    path.write_text("{not json")
    with pytest.raises(DecklistError, match="not valid JSON"):
        read_decklists(path)
    path.write_text('{"cards": []}')
    with pytest.raises(DecklistError, match="sections"):
        read_decklists(path)


def test_unreadable_files(tmp_path):
    with pytest.raises(DecklistError, match="no such file"):
        read_decklists(tmp_path / "nope.txt")
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("3 Thrust\n2 Caf\xe9\n".encode("latin-1"))
    with pytest.raises(DecklistError, match="not UTF-8"):
        read_decklists(bad)
    sheet = tmp_path / "nocard.csv"
    sheet.write_text("a,b\n1,2\n")
    with pytest.raises(DecklistError, match="no sheet with a 'card' column"):
        read_decklists(sheet)


@pytest.mark.parametrize("suffix", [".txt", ".csv", ".json"])
def test_written_decklists_read_back(tmp_path, suffix, bundled_index):
    from deckcheck.decks import build_deck
    from deckcheck.games import get_format
    card = bundled_index.resolve("Thrust", "SE")
    persona = bundled_index.resolve("Connor MacLeod Persona", "ME")
    entries = [(persona, "Pre-Game", 1), (card, "Endurance", 3)]
    path = tmp_path / f"deck{suffix}"
    write_decklist(path, "type1e", "Format: type1e\nPre-Game:\n1 Connor MacLeod Persona [ME]\nEndurance:\n"
                                   "3 Thrust [SE]\n", entries)
    (raw,) = read_decklists(path)
    deck, problems = build_deck(raw, bundled_index, get_format("type1e"))
    assert problems == [] and [(e.card.id, e.section, e.quantity) for e in deck] == [
        ("ME-connor-macleod-persona", "Pre-Game", 1), ("SE-thrust", "Endurance", 3)]
