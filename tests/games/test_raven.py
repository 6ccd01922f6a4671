"""The Raven and the Stormcrow: each RS rule broken alone and kept, on the example cards."""
from __future__ import annotations

from pathlib import Path

import pytest

from deckcheck.catalog import CardIndex
from deckcheck.check import check_raw
from deckcheck.games import get_format, parse_text

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
                                                         "RS-COMBAT-MIN", "RS-SECTION", "RS-PREY-RENOWN",
                                                         "RS-SKILL-REACH"]


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


def check_with(index, text, **params):
    """The group checked under raven-stormcrow with some of its numbers changed."""
    import dataclasses

    from deckcheck.check import validate
    from deckcheck.decks import build_deck
    fmt = get_format("raven-stormcrow")
    fmt = dataclasses.replace(fmt, params=dataclasses.replace(fmt.params, **params))
    deck, problems = build_deck(parse_text(text, "group"), index, fmt)
    assert not problems, problems
    return validate(deck, fmt)


def with_renown(index, **renown):
    """The example cards with some Renown values changed (by card name, underscores for spaces)."""
    changed = {name.replace("_", " "): value for name, value in renown.items()}
    return CardIndex([c.with_extra(renown=changed[c.name]) if c.name in changed else c for c in index.cards])


def issues_of(report, rule_id):
    return [(i.message, i.cards, i.limit, i.actual, i.fix) for i in report.issues if i.rule == rule_id]


def test_renown_at_the_limit_is_legal_and_one_past_it_is_not(index):
    """RS-RENOWN: Hunters 12 + 15 + 9 and Longbow 4 are 40 Renown, the limit; with Longbow worth 5, 41."""
    text = group(hunters="Ranger Ann\nOld Marek\nSister Ilse", items="Longbow @ Ranger Ann")
    assert check(index, text).issues == []
    over = check(with_renown(index, Longbow=5), text)
    assert issues_of(over, "RS-RENOWN") == [
        ("Hunters and Items are worth 41 Renown; at most 40 is allowed",
         ("Ranger Ann", "Old Marek", "Sister Ilse", "Longbow"), 40, 41, "remove Hunters or Items worth 1 Renown")]
    assert [i.rule for i in over.issues] == ["RS-RENOWN"]


def test_prey_renown_at_the_limit_is_legal_and_one_past_it_is_not(index):
    """RS-PREY-RENOWN: Stormcrow 35 and a Marsh Wolf worth 25 are 60 Renown, the limit; worth 26, 61."""
    text = group(prey="Stormcrow\nMarsh Wolf")
    assert check(with_renown(index, Marsh_Wolf=25), text).issues == []
    over = check(with_renown(index, Marsh_Wolf=26), text)
    assert issues_of(over, "RS-PREY-RENOWN") == [
        ("the Prey are worth 61 Renown; at most 60 is allowed", ("Stormcrow", "Marsh Wolf"), 60, 61,
         "remove Prey worth 1 Renown")]
    assert [i.rule for i in over.issues] == ["RS-PREY-RENOWN"]


def test_hunters_at_the_limit_and_below_it(index):
    """RS-HUNTERS: no Hunter at all, or fewer than a changed minimum; the fix counts the Hunters to add."""
    none = check(index, group(hunters=None, items=None))
    assert issues_of(none, "RS-HUNTERS") == [("the group holds no Hunter", (), 1, 0, "add a Hunter")]
    assert check_with(index, group(), hunters_min=2).issues == []  # two Hunters: the limit
    short = check_with(index, group(), hunters_min=3)
    assert issues_of(short, "RS-HUNTERS") == [
        ("the group holds 2 Hunters; at least 3 are required", (), 3, 2, "add a Hunter")]
    shorter = check_with(index, group(), hunters_min=4)
    assert issues_of(shorter, "RS-HUNTERS") == [
        ("the group holds 2 Hunters; at least 4 are required", (), 4, 2, "add 2 Hunters")]


def test_items_per_hunter_at_the_limit_and_one_past_it(index):
    """RS-ITEM-PER-HUNTER: one Item on a Hunter is the limit, two are one too many; under a limit of two, three."""
    two = check(index, group(items="Longbow @ Ranger Ann\nRaven Feather @ Ranger Ann"))
    assert issues_of(two, "RS-ITEM-PER-HUNTER") == [
        ("2 Items attached to Ranger Ann: Longbow, Raven Feather; at most 1 is allowed",
         ("Longbow", "Raven Feather"), 1, 2, "keep one Item on Ranger Ann")]
    items = "Longbow @ Ranger Ann\nRaven Feather @ Ranger Ann"
    assert check_with(index, group(items=items), items_per_hunter=2).issues == []
    three = check_with(index, group(items=items + "\nChainmail @ Ranger Ann"), items_per_hunter=2)
    assert issues_of(three, "RS-ITEM-PER-HUNTER") == [
        ("3 Items attached to Ranger Ann: Longbow, Raven Feather, Chainmail; at most 2 are allowed",
         ("Longbow", "Raven Feather", "Chainmail"), 2, 3, "keep two Items on Ranger Ann")]


@pytest.mark.parametrize("broken,count,fix", [("3 Broken Arm", 39, "add 1 Event or Wound"),
                                              ("2 Broken Arm", 38, "add 2 Events or Wounds")])
def test_combat_cards_one_and_two_short_of_the_limit(index, broken, count, fix):
    """RS-COMBAT-MIN: 40 Combat cards are the limit (the base group); 39 and 38 are short by one and two."""
    report = check(index, group(combat=f"10 Quick Strike\n10 Parry\n8 Deep Cut\n8 Graze\n{broken}"))
    assert issues_of(report, "RS-COMBAT-MIN") == [
        (f"the Combat deck holds {count} Combat cards; at least 40 are required", (), 40, count, fix)]


def with_skill(index, **skill):
    """The example cards with some Skill values changed (by card name, underscores for spaces)."""
    changed = {name.replace("_", " "): value for name, value in skill.items()}
    return CardIndex([c.with_extra(skill=changed[c.name]) if c.name in changed else c for c in index.cards])


def test_a_combat_card_no_hunter_reaches_is_said_with_the_numbers(index):
    """RS-SKILL-REACH (PART IV: a Hunter performs Combat cards of Skill at most its own): the best Skill is Old Marek's
    4, or Ranger Ann's 3 with the Longbow's +1; Broken Arm at Skill 4 is reached, at 5 it is not."""
    assert check(with_skill(index, Broken_Arm=4), group()).issues == []
    over = check(with_skill(index, Broken_Arm=5), group())
    assert issues_of(over, "RS-SKILL-REACH") == [
        ("Broken Arm needs Skill 5; the best Skill of the group is 4 (Ranger Ann), so no Hunter can perform it",
         ("Broken Arm",), 4, 5, "remove Broken Arm, or add a Hunter (or Item) of Skill 5")]
    assert [(i.rule, i.severity) for i in over.issues] == [("RS-SKILL-REACH", "warning")]
    # the Item's bonus counts for its own Hunter only: Marek at 3 and Ann's 3 + 1 reach 4, not 5
    marek = with_skill(with_skill(index, Broken_Arm=5), Old_Marek=3)
    assert issues_of(check(marek, group()), "RS-SKILL-REACH")[0][2] == 4
    unknown = check(CardIndex([c.with_extra(skill=None) if c.name == "Old Marek" else c for c in index.cards]), group())
    assert [i.rule for i in unknown.issues] == ["HL-DATA-UNKNOWN"] and unknown.issues[0].cards == ("Old Marek",)


def test_a_card_out_of_its_section_takes_its_article(index):
    """Issue 36: "Longbow is an Item", never "a Item"."""
    report = check(index, group(items="Chainmail @ Old Marek", combat=GROUP["combat"] + "\nLongbow"))
    assert [i.message for i in report.issues if i.rule == "RS-SECTION"] == ["Longbow is an Item but stands in Combat"]


def test_a_list_naming_no_card_of_another_game_is_not_read_as_that_game(index, monkeypatch):
    """The notice naming the game a Format-less list is of still comes; a list naming no card of any other game is
    read as the default format only (reading it whole as every other game was a fifth of a tournament's time)."""
    import deckcheck.check as check_module
    built: list[str] = []
    real = check_module.build_deck

    def counted(raw, ix, fmt):
        built.append(fmt.game)
        return real(raw, ix, fmt)
    monkeypatch.setattr(check_module, "build_deck", counted)
    report = check_raw(parse_text(group().replace("Format: raven-stormcrow\n", ""), "group"), lambda fmt: index)
    assert any("no Format: line" in n and "raven" in n for n in report.notices), report.notices
    assert len(set(built)) == 2  # the default game's, then the Raven's
    built.clear()
    report = check_raw(parse_text("Thrst\nDodgee\n", "typo"), lambda fmt: index)
    assert report.input_errors and not any("no Format: line" in n for n in report.notices)
    assert len(built) == 1
