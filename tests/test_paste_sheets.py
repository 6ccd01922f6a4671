"""Issue 33: a quantity written right after a name never reads as a version, and one table of header words
(English, German, French, Japanese) for every sheet deckcheck reads: decklists, collections, card sheets."""
from __future__ import annotations

import pytest

from deckcheck.errors import DeckcheckError
from deckcheck.headers import column_of, missing_message, numeric_unknown
from deckcheck.importers.cardsheet import read_card_sheet
from deckcheck.importers.decklists import read_decklists
from deckcheck.games import get_format, parse_text
from deckcheck.decks import build_deck

from conftest import sheet


def read(index, text, fmt="type1e"):
    deck, problems = build_deck(parse_text(text), index, get_format(fmt))
    return sorted((e.card.name, e.quantity) for e in deck), [(p.line, p.message) for p in problems]


@pytest.mark.parametrize("text,card", [
    ("Thrust×3", "Thrust"), ("Upper Left Attack×3", "Upper Left Attack"), ("Thrust*3", "Thrust"),
    ("Upper Left Attack (3)×3", "Upper Left Attack (3)"), ("Upper Left Attack (2)x3", "Upper Left Attack (2)"),
    ("Thrust×3枚", "Thrust"), ("Thrust 3枚", "Thrust"), ("Thrust ×3枚", "Thrust"),
])
def test_a_quantity_glued_to_the_name_is_a_quantity_never_a_version(bundled_index, text, card):
    assert read(bundled_index, text) == ([(card, 3)], [])


def test_a_folded_quantity_mark_is_never_read_as_the_name_of_a_version(bundled_index):
    """`Thrust ×3` folds to `Thrust 3`, the folded name of `Thrust (3)`: when its name reads no card, the line is
    an error, never one copy of version 3."""
    entries, problems = read(bundled_index, "Thrst×3")
    assert entries == [] and problems and problems[0][0] == 1
    assert read(bundled_index, "3 Thrust×2") == ([], [(1, "the quantity is written twice (3 before the name, 2 "
                                                      "after it): keep one")])


@pytest.mark.parametrize("header,column", [
    ("Qty", "quantity"), ("Anzahl", "quantity"), ("Quantité", "quantity"), ("枚数", "quantity"),
    ("Card", "card"), ("Karte", "card"), ("Carte", "card"), ("カード名", "card"), ("Card Name", "card"),
    ("Edition", "set"), ("Set Name", "set"), ("Édition", "set"), ("セット", "set"), ("Stk", None)])
def test_one_table_of_header_words(header, column):
    assert column_of(header) == column


COLLECTIONS = [
    "Card,Qty,Set\nThrust (1),3,ME\nConnor MacLeod Persona,2,SE\n",
    "Card Name;Qty;Set Name\nThrust (1);3;ME\nConnor MacLeod Persona;2;SE\n",
    "Karte;Anzahl;Edition\nThrust (1);3;ME\nConnor MacLeod Persona;2;SE\n",
    "Carte;Quantité;Édition\nThrust (1);3;ME\nConnor MacLeod Persona;2;SE\n",
    "カード名\t枚数\tセット\nThrust (1)\t３\tME\nConnor MacLeod Persona\t2\tSE\n",
]


def test_collection_sheets_of_every_language_import_their_quantities(collection_app, tmp_path):
    """(One database for all the forms, a collection each: a new database is the slow part.)"""
    for n, text in enumerate(COLLECTIONS):
        name = f"form {n}"
        layout, changes, problems, rows = collection_app.import_sheet(sheet(tmp_path, text, f"{n}.csv"),
                                                                      collection=name)
        assert (layout, problems, rows) == ("deckcheck", [], 2), text
        held = {h.card.name: h.quantity for h in collection_app.collections.holdings(name)}
        assert held == {"Thrust (1)": 3, "Connor MacLeod Persona": 2}, text
    before = sorted((h.card.name, h.quantity) for h in collection_app.collections.holdings())
    with pytest.raises(DeckcheckError, match="its column 'Stk' holds numbers"):
        collection_app.import_sheet(sheet(tmp_path, "Card,Stk,Set\nThrust (1),3,ME\n"))
    assert sorted((h.card.name, h.quantity) for h in collection_app.collections.holdings()) == before
    with pytest.raises(DeckcheckError, match=r"headers are 'Foo', 'Bar'; none names the card \(card, "):
        collection_app.import_sheet(sheet(tmp_path, "Foo,Bar\nThrust,3\n"))


@pytest.mark.parametrize("text", [
    "Anzahl;Karte;Edition\n3;Thrust;\n2;Upper Left Attack;\n", "Qty,Card\n3,Thrust\n2,Upper Left Attack\n",
    "枚数,カード名\n３,Thrust\n2,Upper Left Attack\n", "Quantité\tCarte\n3\tThrust\n2\tUpper Left Attack\n"])
def test_decklist_sheets_of_every_language(bundled_index, tmp_path, text):
    (raw,) = read_decklists(sheet(tmp_path, text, "deck.csv"))
    deck, problems = build_deck(raw, bundled_index, get_format("type1e"))
    assert problems == [] and sorted((e.card.name, e.quantity) for e in deck) == [("Thrust", 3),
                                                                                  ("Upper Left Attack", 2)]


def test_a_pasted_table_reads_the_same_header_words(bundled_index):
    assert read(bundled_index, "Karte\tAnzahl\tEdition\nThrust\t3\tME\n") == ([("Thrust (1)", 3)], [])


def test_a_decklist_sheet_with_numbers_under_an_unknown_word_is_refused(tmp_path):
    (raw,) = read_decklists(sheet(tmp_path, "Stk;Karte\n3;Thrust\n", "deck.csv"))
    assert raw.lines == [] and "the column 'Stk' holds numbers" in raw.problems[0].message


def test_a_card_sheet_takes_the_card_words_and_keeps_its_edition(tmp_path):
    path = sheet(tmp_path, "Card Name,Set,Edition,Type\nBrand New Attack,ME,2,Attack\n", "cards.csv")
    (card,) = read_card_sheet(path).cards
    assert (card.name, card.set, card.edition) == ("Brand New Attack", "ME", 2)


def test_messages_quote_what_the_sheet_has_and_name_what_it_lacks():
    text = missing_message(["Karte", "Stk"], ("card", "quantity"))
    assert text == "the sheet's headers are 'Karte', 'Stk'; none names the quantity (quantity, qty, count, anzahl, " \
                   "quantité, 枚数)"
    assert numeric_unknown(["Karte", "Stk"], {"card": 0}, [["Thrust", "3"], ["Dodge", "１"]]) == "Stk"
    assert numeric_unknown(["Karte", "Notes"], {"card": 0}, [["Thrust", "binder"], ["Dodge", "2"]]) is None


@pytest.mark.parametrize("name", ["google-sheets-de.csv", "tabelle-fr.csv"])
def test_spreadsheet_exports_of_other_countries_read_to_the_plain_deck(bundled_index, name):
    """A Google Sheets export (quoted cells, CRLF, a German header and sections) and a French Excel CSV
    (semicolons, a byte-order mark, `Pré-jeu`/`Réserve`, a full-width quantity) are the plain list."""
    from pathlib import Path
    data = Path(__file__).parent / "data"
    (raw,) = read_decklists(data / "sheets" / name)
    deck, problems = build_deck(raw, bundled_index, get_format("type1e"))
    plain, _p = build_deck(parse_text((data / "pasted" / "plain.txt").read_text(encoding="utf-8")), bundled_index,
                           get_format("type1e"))
    assert problems == []
    assert sorted((e.card.name, e.quantity, e.section) for e in deck) == sorted(
        (e.card.name, e.quantity, e.section) for e in plain)
