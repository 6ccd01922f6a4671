"""The bundled card data: built reproducibly from ../shared/data, and true to it (spot checks, counts)."""
from __future__ import annotations

import csv
from collections import Counter
from pathlib import Path

import pytest

from deckcheck.db import build_bundled

SHARED = Path(__file__).resolve().parents[3] / "shared"  # ../shared beside the checkout


@pytest.fixture(scope="module")
def by_id(bundled):
    return {c.id: c for c in bundled}


def test_committed_sheets_are_what_the_build_script_makes():
    assert build_bundled.main(["--shared", str(SHARED), "--check"]) == 0


def test_every_checklist_row_is_a_card(bundled):
    with open(SHARED / "data/highlander-1e/checklist.tsv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    first = [c for c in bundled if c.edition == 1]
    assert len(rows) == len(first) == 1487
    per_set = Counter(c.set for c in first)
    assert per_set == Counter(r["set_code"] for r in rows)
    assert per_set["ME"] == 302 and per_set["AT"] == 263


def test_types(bundled):
    types = Counter(c.type for c in bundled if c.edition == 1)
    assert types["Persona"] == 47 and types["Weapon of Choice"] == 9 and types["Crystal"] == 6
    assert types["Quickening"] == 32 and types["Watcher"] == 3 and types[None] == 3
    assert types["Attack"] == 174 and types["Block"] == 95


def test_basic_cards(bundled, by_id):
    basics = [c for c in bundled if c.basic]
    assert {c.title for c in basics} == {"Upper Left Attack", "Upper Center Attack", "Upper Right Attack",
                                         "Middle Left Attack", "Thrust", "Middle Right Attack", "Lower Left Attack",
                                         "Lower Center Attack", "Lower Right Attack", "Upper Left Block",
                                         "Upper Center Block", "Upper Right Block", "Lower Left Block",
                                         "Lower Center Block", "Lower Right Block"}
    assert by_id["ME-thrust-2"].grid == 1 << 4 and not by_id["ME-thrust-2"].grid_inferred
    block = by_id["AT-upper-left-block-version-3"]
    assert block.grid_inferred and block.version == "3"
    from deckcheck.grid import format_grid
    assert format_grid(block.grid) == "UL UC ML MC"
    assert all(c.grid_inferred for c in basics if c.type == "Block")


@pytest.mark.parametrize("card_id,immortal,title,kind", [
    ("SE-connor-macleod-back-away", "Connor MacLeod", "Back Away", "Dodge"),
    ("WC-back-away-kern", "Kern", "Back Away", "Dodge"),
    ("WC-evade-annie-devlin-left", "Annie Devlin", "Evade", "Dodge"),
    ("OTH-quickening-nakano-duplicate-event", "The Sorcerer Nakano", "Quickening", "Quickening"),
    ("OTH-quickening-katana", "General Katana", "Quickening", "Quickening"),
    ("TG-clan-macleod-clan-priest", "Clan MacLeod", "Clan Priest", "Event"),
    ("WC-joe-dawson-pre-game-watcher", None, "Joe Dawson", "Watcher"),
    ("AT-katana-sword-pre-game", None, "Pre-Game", "Weapon of Choice"),
    ("FH-crystal-pre-game-clio", None, "Crystal Pre-Game", "Crystal"),
    ("ME-the-kurgan-premium-1", "The Kurgan", "Premium +1", "Premium"),
    ("WC-connor-macleod-premium-1-ability", "Connor MacLeod", "Premium +1 Ability", "Premium"),
])
def test_spot_checks(by_id, card_id, immortal, title, kind):
    card = by_id[card_id]
    assert (card.immortal, card.title, card.type) == (immortal, title, kind)


def test_weapon_specific(by_id):
    card = by_id["AT-katana-sword-quality-blade"]
    assert (card.weapon, card.title, card.immortal) == ("Katana Sword", "Quality Blade", None)


def test_persona_allowances_and_modifiers(bundled, by_id):
    assert by_id["SE-connor-macleod-persona"].gem_master == 7
    assert by_id["ME-khabul-khan-persona"].gem_master == 4
    assert by_id["MC-methos-persona"].gem_master == 8 and by_id["MC-methos-persona"].modifiers.master_any_persona
    assert by_id["SE-richie-ryan-persona"].modifiers.other_persona_each == 1
    assert by_id["DC-duncan-macleod-premium-2-additional-pre-game-cards"].modifiers.pregame_extra == 2
    known = {c.immortal for c in bundled if c.is_persona and c.gem_master is not None}
    with open(SHARED / "data" / "highlander-1e" / "personas.tsv", encoding="utf-8") as f:
        stated = {row["persona"] for row in csv.DictReader(f, delimiter="\t")}
    assert known == stated  # every stated allowance reaches its Persona, and no other


def test_unknown_stays_unknown(bundled, by_id):
    amanda = by_id["SE-amanda-persona"]
    assert amanda.gem_master is None  # not in personas.tsv: never a guessed number
    # SOURCES.md: Signature cards began with The Gathering; no Signature mark of a later printing was found
    assert all(c.signature is None for c in bundled if c.edition == 1 and c.set not in ("SE", "ME", "WC"))
    back_away = by_id["SE-connor-macleod-back-away"]
    assert back_away.restriction is None and back_away.reserved is None
    assert by_id["ME-extra-weapon"].gems == (0, 0, 0, 0, 0, 0)  # 1st edition cards print no gems


def test_no_signature_cards_before_the_gathering(bundled):
    """Every printing of the three sets released before The Gathering (SOURCES.md: 583 rows) is known not to
    be a Signature card, credited to the article that says Signature cards were introduced in The Gathering;
    the Tin Set (no release date), Other and the later sets stay unknown."""
    early = [c for c in bundled if c.edition == 1 and c.set in ("SE", "ME", "WC")]
    assert len(early) == 583 and all(c.signature is False for c in early)
    assert {c.set for c in bundled if c.edition == 1 and c.signature is not None} == {"SE", "ME", "WC"}
    with open(build_bundled.DATA / "highlander-1e.csv", encoding="utf-8", newline="") as f:
        sources = {row["id"]: row["signature_source"] for row in csv.DictReader(f)}
    assert {sources[c.id] for c in early} == {"source:http://www.watcherdatabase.tk/Articles/19.html"}
    assert sources["TIN-thrust"] == sources["TG-the-kurgan-bloodlust"] == ""


def test_sets_before_signatures_reads_release_dates():
    row = {"release_year": "", "release_month": ""}
    sets = [row | {"set_code": "TG", "release_year": "1998", "release_month": "6"},
            row | {"set_code": "WC", "release_year": "1998", "release_month": "5"},  # one month before: no Signature
            row | {"set_code": "X", "release_year": "1998", "release_month": "6"},  # the same month: unknown
            row | {"set_code": "TIN"}]  # no release date: unknown
    assert build_bundled.sets_before_signatures(sets) == {"WC"}
    with pytest.raises(SystemExit, match="TG"):
        build_bundled.sets_before_signatures([row | {"set_code": "TG"}])


def test_master_cards_by_title(by_id):
    assert by_id["SE-master-sword-master"].is_master
    assert by_id["WC-master-s-advice-kalas"].is_master
    assert not by_id["SE-connor-macleod-back-away"].is_master


def test_second_edition_records(by_id):
    duncan = by_id["CvD-057"]
    assert (duncan.edition, duncan.immortal, duncan.gems) == (2, "Duncan MacLeod", (6, 5, 5, 5, 5, 5))
    katana = by_id["P03-028"]
    assert (katana.weapon, katana.title, katana.type, katana.subtype) == ("Katana", "Master of the Katana",
                                                                          "Situation", ("Standing Defense",))
    assert katana.gem_reason == 2 and katana.restriction is None
    assert by_id["P03-003"].hand_icons == 1 and by_id["B1"].rules_key == by_id["P03-003"].rules_key
