"""Provenance per value (deckcheck.provenance) and partial card sheets (CONTRACTS §1a), on both databases."""
from __future__ import annotations

import pytest

from deckcheck import provenance as prov
from deckcheck.db.store import Store
from deckcheck.db.sources import stored_sources
from deckcheck.db.updates import update_cards
from deckcheck.errors import DeckcheckError
from deckcheck.importers.cardsheet import read_card_sheet, write_card_sheet

BREAK_WEAPON_URL = "http://www.oocities.org/gislef/cotw19.htm"


def by_id(store: Store) -> dict:
    return {c.id: c for c in store.cards()}


def sheet(tmp_path, text: str, name: str = "partial.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("text,kind,ref,at", [
    ("checklist:edforth/ccgdata", "checklist", "edforth/ccgdata", ""),
    ("source:http://x.example/a:b @ 1", "source", "http://x.example/a:b", "1"),
    ("sheet:my cards.csv @ 2026-11-30T18:05:00+00:00", "sheet", "my cards.csv", "2026-11-30T18:05:00+00:00"),
    ("WEB:alice @ 2026-11-30T18:07:00+00:00", "web", "alice", "2026-11-30T18:07:00+00:00"),
    ("default", "default", "", ""),
])
def test_provenance_text_round_trip(text, kind, ref, at):
    p = prov.parse(text)
    assert (p.kind, p.ref, p.at) == (kind, ref, at)
    assert prov.parse(str(p)) == p


@pytest.mark.parametrize("text", ["guess:x", "http://x.example", "sheet:a\x1bb", "source:" + "x" * 3000, ""])
def test_bad_provenance_text_is_an_input_error(text):
    with pytest.raises(DeckcheckError):
        prov.parse(text)


def test_strength_order():
    assert prov.STRENGTH["source"] > prov.STRENGTH["sheet"] == prov.STRENGTH["web"] > prov.STRENGTH["checklist"] \
        > prov.STRENGTH["derived"] > prov.STRENGTH["default"]


def test_bundled_values_know_their_sources(db_url):
    store = Store(db_url)
    sources = stored_sources(store, ["ME-break-weapon", "TG-riposte-ll", "SE-upper-left-block",
                                     "SE-amanda-persona", "WC-joe-dawson-pre-game-watcher", "CvD-057"])
    assert sources["ME-break-weapon"]["restriction"] == prov.Provenance("source", BREAK_WEAPON_URL)
    assert sources["ME-break-weapon"]["set"].kind == "checklist"
    assert sources["ME-break-weapon"]["title"].kind == "derived"
    assert "reserved" not in sources["ME-break-weapon"]  # unknown: no provenance
    assert sources["TG-riposte-ll"]["grid"] == prov.Provenance("derived", "grid from name")
    assert sources["SE-upper-left-block"]["grid"].ref == "Basic Block inference"
    assert "gem_master" not in sources["SE-amanda-persona"]
    assert sources["WC-joe-dawson-pre-game-watcher"]["restriction"].kind == "source"
    assert sources["CvD-057"]["gem_master"].ref == "http://www.watcherdatabase.tk/Cards/Card/6074.html"


def test_partial_sheet_changes_only_its_columns(db_url, tmp_path):
    store = Store(db_url)
    before = by_id(store)
    path = sheet(tmp_path, "id,name,restriction\nME-riposte-ul,Riposte (UL),2\nSE-thrust,Thrust,?\n")
    rows = read_card_sheet(path).rows
    dry = update_cards(store, rows, prov.sheet(path.name), dry_run=True)
    assert by_id(store) == before  # a dry run writes nothing
    assert {(c.card_id, c.field, c.old, c.new) for c in dry.changes} == {
        ("ME-riposte-ul", "restriction", "unknown", "2")}  # Thrust: unknown → unknown changes nothing
    result = update_cards(store, rows, prov.sheet(path.name))
    assert result.updated == ["ME-riposte-ul"] and result.unchanged == 1
    after = by_id(store)
    riposte, old = after["ME-riposte-ul"], before["ME-riposte-ul"]
    assert riposte.restriction == 2
    assert (riposte.set, riposte.type, riposte.grid, riposte.grid_inferred, riposte.basic, riposte.reserved,
            riposte.title, riposte.version) == (old.set, old.type, old.grid, old.grid_inferred, old.basic,
                                                old.reserved, old.title, old.version)
    assert stored_sources(store, ["ME-riposte-ul"])["ME-riposte-ul"]["restriction"].ref == "partial.csv"
    assert stored_sources(store, ["ME-riposte-ul"])["ME-riposte-ul"]["grid"].kind == "derived"


def test_blank_keeps_unknown_clears(db_url, tmp_path):
    store = Store(db_url)
    path = sheet(tmp_path, "id,name,type,rarity\nSE-thrust,Thrust,unknown,\n")
    result = update_cards(store, read_card_sheet(path).rows, prov.sheet(path.name))
    card = by_id(store)["SE-thrust"]
    assert card.type is None and card.rarity == "Common"
    assert [(c.field, c.old, c.new, c.new_source and c.new_source.kind) for c in result.changes] == [
        ("type", "Attack", "", "sheet")]
    # "unknown" is what this sheet said: it stays its source, so no later update fills it in unasked
    assert stored_sources(store, ["SE-thrust"])["SE-thrust"]["type"].ref == path.name


def test_weaker_source_never_replaces_silently(db_url, tmp_path):
    store = Store(db_url)
    path = sheet(tmp_path, "id,name,restriction,rarity\nME-break-weapon,Break Weapon,2,Common\n")
    rows = read_card_sheet(path).rows
    result = update_cards(store, rows, prov.sheet(path.name))
    card = by_id(store)["ME-break-weapon"]
    assert card.restriction == 3 and card.rarity == "Common"  # the checklist's rarity is weaker than a sheet
    [kept] = result.kept
    assert kept.old_source is not None and kept.new_source is not None
    assert (kept.field, kept.old, kept.new, kept.old_source.kind, kept.new_source.kind) == \
        ("restriction", "3", "2", "source", "sheet")
    assert BREAK_WEAPON_URL in str(kept)
    forced = update_cards(store, rows, prov.sheet(path.name), overwrite=True)
    assert by_id(store)["ME-break-weapon"].restriction == 2 and not forced.kept
    assert stored_sources(store, ["ME-break-weapon"])["ME-break-weapon"]["restriction"].kind == "sheet"


def test_sheet_without_provenance_keeps_stored_provenance(db_url, tmp_path):
    store = Store(db_url)
    path = sheet(tmp_path, "id,name,restriction,type\nME-break-weapon,Break Weapon,3,Event\n")
    result = update_cards(store, read_card_sheet(path).rows, prov.sheet(path.name))
    assert result.unchanged == 1 and not result.changes
    sources = stored_sources(store, ["ME-break-weapon"])["ME-break-weapon"]
    assert sources["restriction"].ref == BREAK_WEAPON_URL and sources["type"].kind == "checklist"


def test_web_edit_through_the_library_call(db_url):
    store = Store(db_url)
    edit = prov.web("alice", "2026-11-30T18:07:00+00:00")
    result = update_cards(store, [{"id": "SE-connor-macleod-back-away", "reserved": "no", "restriction": "6"}],
                          source=edit)
    assert sorted(c.field for c in result.changes) == ["reserved", "restriction"]
    card = by_id(store)["SE-connor-macleod-back-away"]
    assert (card.reserved, card.restriction, card.type) == (False, 6, "Dodge")
    assert stored_sources(store, [card.id])[card.id]["reserved"] == edit
    with pytest.raises(DeckcheckError, match="row 1"):
        update_cards(store, [{"id": "SE-connor-macleod-back-away", "restriction": "many"}], source=edit)


def test_new_card_from_a_sheet(db_url, tmp_path):
    store = Store(db_url)
    path = sheet(tmp_path, "id,name,type,restriction\nX-1,Brand New,Event,2\n")
    result = update_cards(store, read_card_sheet(path).rows, prov.sheet(path.name, "T"))
    assert result.added == ["X-1"]
    sources = stored_sources(store, ["X-1"])["X-1"]
    assert sources["restriction"] == prov.Provenance("sheet", "partial.csv", "T") == sources["type"]
    assert sources["reserved"] == prov.DEFAULT


def test_provenance_survives_export_import_export(db_url, tmp_path):
    a = Store(db_url)
    edits = sheet(tmp_path, "id,name,restriction,grid\nME-riposte-ul,Riposte (UL),2,\n"
                            "SE-amanda-back-away,Amanda Back Away,,UL UC\n", "edits.csv")
    update_cards(a, read_card_sheet(edits).rows, prov.sheet("edits.csv", "2026-11-30T18:00:00+00:00"))
    update_cards(a, [{"id": "ME-break-weapon", "text": "Edited."}], prov.web("bob", "2026-11-30T18:01:00+00:00"),
                 overwrite=True)
    first = tmp_path / "first.csv"
    write_card_sheet(first, a.cards(), stored_sources(a))
    b = Store(f"sqlite:///{tmp_path / 'b.db'}")
    result = update_cards(b, read_card_sheet(first).rows, prov.sheet("first.csv"), overwrite=True)
    assert set(result.updated) == {"ME-riposte-ul", "SE-amanda-back-away", "ME-break-weapon"}
    second = tmp_path / "second.csv"
    write_card_sheet(second, b.cards(), stored_sources(b))
    assert first.read_bytes() == second.read_bytes()
    assert stored_sources(b, ["ME-break-weapon"])["ME-break-weapon"]["text"] == \
        prov.web("bob", "2026-11-30T18:01:00+00:00")


def test_stated_provenance_column_credits_an_unchanged_value(db_url, tmp_path):
    store = Store(db_url)
    path = sheet(tmp_path, "id,name,rarity,rarity_source\nME-pistol-lc,Pistol (LC),Rare,source:http://x.example/p\n")
    result = update_cards(store, read_card_sheet(path).rows, prov.sheet(path.name))
    assert [(c.field, c.old, c.new) for c in result.changes] == [("rarity", "Rare", "Rare")]
    assert stored_sources(store, ["ME-pistol-lc"])["ME-pistol-lc"]["rarity"].ref == "http://x.example/p"


def test_provenance_columns_in_xlsx_read_back(sqlite_url, tmp_path):
    store = Store(sqlite_url)
    edit = prov.web("carol", "2026-11-30T19:00:00+00:00")
    update_cards(store, [{"id": "ME-riposte-ul", "restriction": "2"}], edit)
    sheet_path = tmp_path / "cards.xlsx"
    write_card_sheet(sheet_path, store.cards(), stored_sources(store))
    data = read_card_sheet(sheet_path)
    assert data.has_provenance and not data.notices
    riposte = next(r for r in data.rows if r.card.id == "ME-riposte-ul")
    assert riposte.sources["restriction"] == edit
    other = Store(f"sqlite:///{tmp_path / 'other.db'}")
    result = update_cards(other, data.rows, prov.sheet(sheet_path.name))
    assert result.updated == ["ME-riposte-ul"] and not result.kept
    assert stored_sources(other, ["ME-riposte-ul"]) == stored_sources(store, ["ME-riposte-ul"])


def test_rows_without_an_id_are_matched_by_name_to_every_printing(db_url, tmp_path):
    """A sheet written by hand (`name,restriction`) updates the card its name names, as a decklist reads
    names (§2), each printing of it; it never adds a copy under a derived id."""
    store = Store(db_url)
    store.init()
    before = by_id(store)
    path = sheet(tmp_path, "name,restriction\nbreak weapon,4\nConnor MacLeod Persona,2\nMy Own Card,1\n")
    result = update_cards(store, read_card_sheet(path).rows, prov.sheet(path.name), overwrite=True)
    after = by_id(store)
    personas = sorted(i for i, c in before.items() if c.name == "Connor MacLeod Persona")
    assert len(personas) == 3
    assert sorted(result.updated) == sorted(["ME-break-weapon", *personas]) and result.added == ["my-own-card"]
    assert after["ME-break-weapon"].restriction == 4 and after["ME-break-weapon"].name == "Break Weapon"
    assert all(after[i].restriction == 2 for i in personas)
    assert set(after) - set(before) == {"my-own-card"}


def test_a_set_narrows_the_name_and_an_ambiguous_name_changes_nothing(db_url, tmp_path):
    from deckcheck.errors import CardSheetError
    store = Store(db_url)
    store.init()
    path = sheet(tmp_path, "name,set,restriction\nConnor MacLeod Persona,tin,2\nBreak Weapon,Movie Edition,2\n")
    result = update_cards(store, read_card_sheet(path).rows, "sheet:x", overwrite=True)
    assert sorted(result.updated) == ["ME-break-weapon", "TIN-connor-macleod-persona"] and result.added == []
    after = by_id(store)
    assert (after["TIN-connor-macleod-persona"].set, after["ME-break-weapon"].restriction) == ("TIN", 2)
    before = after
    path = sheet(tmp_path, "name,restriction\nDuncan MacLeod Persona,3\nBreak Weapon,2\n", "ambiguous.csv")
    with pytest.raises(CardSheetError) as caught:
        update_cards(store, read_card_sheet(path).rows, "sheet:x", overwrite=True)
    message = str(caught.value)
    assert "row 2, column 'name', value 'Duncan MacLeod Persona': names more than one stored card (" in message
    assert "CvD-057" in message and "nothing was changed" in message
    assert by_id(store) == before


@pytest.mark.parametrize("text,problem", [
    # a set the card is not printed in, on a row that does not give a new card its type
    ("name,set,restriction\nThrust,WC,1\n", "row 2, column 'set', value 'WC': 'Thrust' has no printing in this set "
                                             "(it is printed in SE, TIN)"),
    # the same card twice: once by id, once by name
    ("id,name,restriction\nME-break-weapon,Break Weapon,1\n,break weapon,2\n",
     "row 3, column 'name', value 'Break Weapon': names the card ME-break-weapon that row 2 already names"),
])
def test_rows_that_cannot_be_matched_safely_are_bad_rows(db_url, tmp_path, text, problem):
    from deckcheck.errors import CardSheetError
    store = Store(db_url)
    store.init()
    before = by_id(store)
    with pytest.raises(CardSheetError) as caught:
        update_cards(store, read_card_sheet(sheet(tmp_path, text)).rows, "sheet:x", overwrite=True)
    assert problem in str(caught.value)
    assert by_id(store) == before


def test_a_row_that_says_it_is_another_card_adds_that_card(db_url, tmp_path):
    """Review H1: a 2nd-edition Thrust for Duncan is not the 1st-edition Thrust of the same name; nor is an
    other Immortal's card or a name written only in part."""
    store = Store(db_url)
    store.init()
    before = by_id(store)
    text = ("name,edition,type,immortal\nThrust,2,Attack,Duncan MacLeod\nBreak Weapon,1,Event,Kurgan\n"
            "name,1,Event,\n").replace("name,1,Event,", "Poison Gas,1,Event,")
    result = update_cards(store, read_card_sheet(sheet(tmp_path, text)).rows, "sheet:x", overwrite=True)
    assert result.updated == [] and len(result.added) == 3
    after = by_id(store)
    assert all(after[i] == c for i, c in before.items())  # no stored card changed
    assert after[result.added[0]].edition == 2


def test_a_derived_id_keeps_the_stored_name_and_set(db_url, tmp_path):
    """Review L1/L2: `challenge` in set `me` updates ME's Challenge without renaming it or its set."""
    store = Store(db_url)
    store.init()
    challenge = next(c for c in by_id(store).values() if c.name == "Challenge")
    text = f"name,set,restriction\n{challenge.name.lower()},{challenge.set.lower()},2\n"
    result = update_cards(store, read_card_sheet(sheet(tmp_path, text)).rows, "sheet:x", overwrite=True)
    assert result.updated == [challenge.id]
    after = by_id(store)[challenge.id]
    assert (after.name, after.set, after.restriction) == (challenge.name, challenge.set, 2)


def test_a_cards_sheet_for_one_run_matches_names_the_same_way(sqlite_url, tmp_path):
    from deckcheck.library.api import Catalog
    path = sheet(tmp_path, "name,restriction\nbreak weapon,1\n")
    catalog = Catalog(sqlite_url, sheets=[path])
    cards = {c.id: c for c in catalog.cards()}
    assert cards["ME-break-weapon"].restriction == 1 and "break-weapon" not in cards
    assert catalog.sources(["ME-break-weapon"])["ME-break-weapon"]["restriction"] == prov.Provenance(
        "sheet", "partial.csv (this run only)")
