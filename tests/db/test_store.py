"""The card database on SQLite and PostgreSQL: first use, atomic and idempotent imports, exact round trips."""
from __future__ import annotations

from dataclasses import replace

import pytest

from deckcheck.cardsheet import card_from_row
from deckcheck.db.store import Store, bundled_cards
from deckcheck.errors import CardSheetError, DatabaseError
from deckcheck.importers.cardsheet import read_card_sheet, write_card_sheet


def test_first_use_creates_and_fills(empty_db_url):
    store = Store(empty_db_url)
    cards = store.cards()
    assert len(cards) == len(bundled_cards()) >= 1491
    assert sum(c.game == "highlander" and c.edition == 1 for c in cards) == 1487
    by_id = {c.id: c for c in cards}
    assert by_id["SE-connor-macleod-persona"].gem_master == 7
    assert by_id["ME-thrust-1"].grid == 16 and by_id["ME-thrust-1"].restriction is None


def test_stored_cards_equal_the_bundled_ones(db_url):
    stored = {c.id: c for c in Store(db_url).cards()}
    for card in bundled_cards():
        assert stored[card.id] == card, card.id


def test_empty_database(empty_db_url):
    store = Store(empty_db_url)
    assert store.init(empty=True)
    assert store.count() == 0 and store.cards() == []
    assert not store.ensure_initialized()


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_export_import_export_is_identical(db_url, tmp_path, suffix, sqlite_url):
    first, second = tmp_path / f"a{suffix}", tmp_path / f"b{suffix}"
    write_card_sheet(first, Store(db_url).cards())
    other = Store(sqlite_url if db_url.startswith("postgresql") else f"sqlite:///{tmp_path / 'other.db'}")
    other.init(empty=True)
    result = other.import_cards(read_card_sheet(first).cards, first.name)
    assert len(result.added) >= 1491 and not result.updated
    write_card_sheet(second, other.cards())
    if suffix == ".csv":
        assert first.read_bytes() == second.read_bytes()
    else:
        a, b = read_card_sheet(first).cards, read_card_sheet(second).cards
        assert [c.rules_key for c in a] == [c.rules_key for c in b] and [c.id for c in a] == [c.id for c in b]


def test_import_adds_updates_and_is_idempotent(db_url, tmp_path):
    store = Store(db_url)
    sheet = tmp_path / "mine.csv"
    sheet.write_text("id,name,immortal,type,gem_master,edition\n"
                     "SE-amanda-persona,Amanda Persona,Amanda,Persona,5,1\n"
                     "X-1,Duncan MacLeod Katana Kata,Duncan MacLeod,Attack,,2\n", encoding="utf-8")
    first = store.import_cards(read_card_sheet(sheet).cards, sheet.name)
    assert (first.added, first.updated, first.unchanged) == (["X-1"], ["SE-amanda-persona"], 0)
    again = store.import_cards(read_card_sheet(sheet).cards, sheet.name)
    assert (again.added, again.updated, again.unchanged) == ([], [], 2)
    by_id = {c.id: c for c in store.cards()}
    assert by_id["SE-amanda-persona"].gem_master == 5 and by_id["X-1"].edition == 2


def test_a_bad_row_imports_nothing(db_url, tmp_path):
    store = Store(db_url)
    before = store.cards()
    sheet = tmp_path / "bad.csv"
    sheet.write_text("id,name,type,deckbuilding\nN-1,New One,Event,\nN-2,New Two,Event,fly=3\n", encoding="utf-8")
    with pytest.raises(CardSheetError) as exc:
        read_card_sheet(sheet)
    assert "row 3, column 'deckbuilding', value 'fly=3'" in str(exc.value)
    assert store.cards() == before


def test_failure_half_way_rolls_back(db_url, monkeypatch):
    store = Store(db_url)
    before = len(store.cards())
    good = [c for i in range(1500) if (c := card_from_row({"id": f"G-{i}", "name": f"Good {i}"}))]

    import deckcheck.db.store as mod
    real = mod.card_to_values
    calls = {"n": 0}

    def explode(card, source=""):
        calls["n"] += 1
        if calls["n"] > 1200:
            raise RuntimeError("disk full")
        return real(card, source)
    monkeypatch.setattr(mod, "card_to_values", explode)
    with pytest.raises(RuntimeError):
        store.import_cards(good, "x")
    monkeypatch.setattr(mod, "card_to_values", real)
    assert len(store.cards()) == before


def test_dry_run_changes_nothing(db_url):
    store = Store(db_url)
    card = replace(store.cards()[0], text="changed")
    result = store.import_cards([card], "x", dry_run=True)
    assert result.updated == [card.id]
    assert store.cards()[0].text != "changed"


def test_bad_url_is_a_clean_error(tmp_path):
    with pytest.raises(DatabaseError, match="cannot use database URL"):
        Store("nosuchdialect://x").count()


def test_plain_postgresql_urls_use_psycopg():
    from deckcheck.db.engine import resolve_url
    assert resolve_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert resolve_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert resolve_url("postgresql+psycopg://u@h/db") == "postgresql+psycopg://u@h/db"


def test_two_processes_setting_up_one_database(tmp_path):
    import subprocess
    import sys
    url = f"sqlite:///{tmp_path / 'race.db'}"
    code = f"from deckcheck.db.store import Store; print(Store({url!r}).count())"
    procs = [subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(3)]
    results = [p.communicate() for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0], results
    assert {out.strip() for out, _err in results} == {str(len(bundled_cards()))}
