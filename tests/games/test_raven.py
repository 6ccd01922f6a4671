"""The Raven and the Stormcrow: each RS rule broken alone and kept, on the example cards."""
from __future__ import annotations

from pathlib import Path

import pytest

from deckcheck.catalog import CardIndex
from deckcheck.check import check_raw
from deckcheck.decklist import parse_text
from deckcheck.formats import get_format

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def index(sheet_index):
    return sheet_index("examples/other-games/raven-stormcrow-cards.csv")


GROUP = {"hunters": "Ranger Ann\nOld Marek", "items": "Longbow @ Ranger Ann\nChainmail @ Old Marek",
         "prey": "Marsh Wolf\nStormcrow", "combat": "10 Quick Strike\n10 Parry\n8 Deep Cut\n8 Graze\n4 Broken Arm"}


def group(**changes) -> str:
    parts = GROUP | changes
    return "Format: raven-stormcrow\n" + "".join(f"{k.title()}:\n{v}\n" for k, v in parts.items() if v is not None)


def check(index, text):
    report = check_raw(parse_text(text, "group"), lambda fmt: index)
    assert not report.input_errors, report.input_errors
    return report


def test_base_group_is_legal(index):
    report = check(index, group())
    assert report.issues == [] and report.counts == {"Hunters": 2, "Items": 2, "Prey": 2, "Combat": 40}
    assert report.persona is None and report.format == "raven-stormcrow"


@pytest.mark.parametrize("rule_id,changes", [
    ("RS-HUNTERS", {"hunters": None, "items": None}),
    ("RS-RENOWN", {"hunters": "Ranger Ann\nOld Marek\nSister Ilse",
                   "items": "Longbow @ Ranger Ann\nChainmail @ Old Marek"}),
    ("RS-ITEM-PER-HUNTER", {"items": "Longbow @ Ranger Ann\nRaven Feather @ Ranger Ann"}),
    ("RS-ITEM-PER-HUNTER", {"items": "Longbow"}),
    ("RS-ITEM-PER-HUNTER", {"items": "Longbow @ Sister Ilse"}),
    ("RS-COMBAT-MIN", {"combat": "10 Quick Strike\n10 Parry\n8 Deep Cut\n8 Graze\n3 Broken Arm"}),
    ("RS-SECTION", {"prey": "Marsh Wolf\nStormcrow\nLongbow"}),
    ("RS-PREY-RENOWN", {"prey": "Marsh Wolf\nStormcrow\nBog Troll"}),
])
def test_breaks_only(index, rule_id, changes):
    report = check(index, group(**changes))
    assert {i.rule for i in report.errors} == {rule_id}, report.issues


@pytest.mark.parametrize("rule_id,changes", [
    ("RS-RENOWN", {"hunters": "Ranger Ann\nOld Marek", "items": "Raven Feather @ Ranger Ann\nChainmail @ Old Marek"}),
    ("RS-PREY-RENOWN", {"prey": "Stormcrow\nMarsh Wolf"}),
    ("RS-ITEM-PER-HUNTER", {"items": "Longbow @ ranger ann"}),
])
def test_keeps(index, rule_id, changes):
    assert check(index, group(**changes)).issues == []


def test_renown_numbers(index):
    report = check(index, group(hunters="Ranger Ann\nOld Marek\nSister Ilse"))
    (issue,) = report.errors
    assert (issue.limit, issue.actual) == (40, 46)


def test_cards_go_to_their_sections_without_headers(index):
    report = check(index, "Format: raven\nRanger Ann\nLongbow @ Ranger Ann\nMarsh Wolf\n20 Parry\n20 Graze\n")
    assert report.counts == {"Hunters": 1, "Items": 1, "Prey": 1, "Combat": 40} and report.issues == []


def test_the_headings_the_format_declares_are_read_in_every_form(index):
    """The parser takes each game's headings from its format (Hunter: as well as Hunters:)."""
    text = group().replace("Hunters:", "Hunter:").replace("Items:", "item:").replace("Prey:", "PREY:")
    report = check(index, text)
    assert report.issues == [] and report.counts == {"Hunters": 2, "Items": 2, "Prey": 2, "Combat": 40}


def test_an_unknown_heading_lists_this_games_headings(index):
    report = check_raw(parse_text(group().replace("Hunters:", "Hunterz:"), "group"), lambda fmt: index)
    (problem,) = report.input_errors
    assert "unknown heading 'Hunterz'; headings are Hunters, Items, Prey, Combat, Sideboard" in problem.message
    assert "Pre-Game" not in problem.message


def test_unknown_renown_is_reported_not_passed(index):
    cards = [c.with_extra(renown=None) if c.name == "Old Marek" else c for c in index.cards]
    report = check(CardIndex(cards), group())
    assert [i.rule for i in report.issues] == ["HL-DATA-UNKNOWN"] and "RS-RENOWN" in report.issues[0].message


def test_format_is_listed():
    assert [r.id for r in get_format("raven").rules] == ["RS-HUNTERS", "RS-RENOWN", "RS-ITEM-PER-HUNTER",
                                                         "RS-COMBAT-MIN", "RS-SECTION", "RS-PREY-RENOWN"]


def test_card_sheets_tournament_and_formats_work_for_the_other_games(tmp_path, monkeypatch):
    import json
    import subprocess
    import sys
    monkeypatch.setenv("DECKCHECK_DB", str(tmp_path / "games.db"))
    exe = str(Path(sys.executable).with_name("deckcheck"))

    def run(*args):
        return subprocess.run([exe, *args], capture_output=True, text=True, cwd=ROOT)
    for sheet in ("raven-stormcrow-cards.csv", "taktik52-heroes.csv"):
        assert run("cards", "import", f"examples/other-games/{sheet}").returncode == 0
    assert run("check", "examples/other-games/raven-group.txt").returncode == 0
    r = run("tournament", "check", "examples/other-games/raven-group.txt", "examples/other-games/taktik52-table.txt",
            "examples/other-games/taktik52-table-illegal.txt", "--json")
    assert [(json.loads(l)["format"], json.loads(l)["legal"]) for l in r.stdout.splitlines()] == [
        ("raven-stormcrow", True), ("taktik52", True), ("taktik52", False)]
    assert r.returncode == 1
    listed = run("formats").stdout
    assert "raven-stormcrow" in listed and "TK-HEROES" in listed and "RS-PREY-RENOWN" in listed
    exported = tmp_path / "all.csv"
    assert run("cards", "export", str(exported)).returncode == 0
    assert "raven-stormcrow,RS-EX-01,Ranger Ann" in exported.read_text()


def test_an_unknown_heading_lists_the_headings_of_the_format_asked_for(index):
    """Review L8: with the format given by the caller (`--format`) and no Format: line, the message lists
    that format's headings too."""
    text = group().replace("Format: raven-stormcrow\n", "").replace("Hunters:", "Hunterz:")
    report = check_raw(parse_text(text, "group"), lambda fmt: index, "raven-stormcrow")
    (problem,) = report.input_errors
    assert "headings are Hunters, Items, Prey, Combat, Sideboard" in problem.message
