"""Every issue of every rule case, to the letter: message, cards, limit, actual and fix (a golden file).

The rows are the BREAKS and KEEPS tables of test_rules_highlander.py plus EDGES: decks that reach
the other branches (several copies, several lines of one card, unknown data, other parameters).
scripts/mutation.py runs these against each mutant; `pytest --update-golden` rewrites the file
(read the diff: it changes only where RULES.md or a message changed).
"""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from test_rules_highlander import BREAKS, KEEPS, deck_text

from deckcheck.check import validate
from deckcheck.games import get_format, parse_text
from deckcheck.decks import build_deck

GOLDEN = Path(__file__).resolve().parent / "data" / "rule_issues.json"

# (format, parameter changes, pre-game lines, added endurance lines, removed endurance lines)
EDGES: list[tuple[str, dict, str, str, tuple[str, ...]]] = [
    ("type1e", {}, "", "5 Limited Event", ()),
    ("type1e", {}, "", "2 Limited Event\nLimited Event", ()),
    ("type1e", {}, "", "Limited Event\nLimited Event", ()),
    ("type1e", {}, "", "Limited Event\n2 Vague Event", ()),
    ("type1e", {}, "", "Vague Event\nVague Event", ()),
    ("type1e", {}, "", "Vague Event", ()),
    ("type1e", {}, "", "Mystery Card\nOrder Form", ()),
    ("type1e", {}, "Filler F\n2 Relic One", "Watcher One", ()),
    ("type1e", {}, "Alpha Persona\nBeta Persona\nGamma Persona", "", ()),
    ("type1e", {"persona_max": 2}, "Alpha Persona\nBeta Persona\nGamma Persona", "", ()),
    ("type1e", {"persona_max": 2}, "Alpha Persona\nBeta Persona", "", ()),
    ("type1e", {}, "Alpha Persona", "3 Beta Strike", ()),
    ("type1e", {}, "Alpha Persona", "Beta Strike\nBeta Secret\nGamma Persona", ()),
    ("type1e", {}, "", "3 Alpha Strike", ()),
    ("type1e", {}, "", "Alpha Strike\nAlpha Strike", ()),
    ("type1e", {"generic_specific_max": 2}, "", "2 Alpha Strike\nBeta Strike", ()),
    ("type1e", {}, "", "2 Beta Secret\nBeta Vague Secret", ()),
    ("type1e", {}, "Gamma Persona", "Beta Vague Secret", ()),
    ("type2", {}, "", "2 Beta Sig", ()),
    ("type2", {}, "Alpha Persona", "Beta Sig", ()),
    ("type1e", {}, "Alpha Persona", "4 Alpha Master's Lesson", ()),
    ("type1e", {}, "Unknown Persona", "Grand Master Plan", ()),
    ("type1e", {}, "", "2 Grand Master Plan", ()),
    ("type1e", {}, "", "2 Sword Cut", ()),
    ("type1e", {}, "Sword Pre-Game", "2 Sword Cut", ()),
    ("type1e", {}, "Sword Pre-Game\nAxe Pre-Game\nGreat Sword Pre-Game", "", ()),
    ("type1e", {"woc_max": 2}, "Sword Pre-Game\nAxe Pre-Game", "", ()),
    ("type1e", {}, "2 Buckler\nGreat Sword Pre-Game", "", ()),
    ("type1e", {"hand_max": 5}, "2 Buckler\nGreat Sword Pre-Game", "", ()),
    ("type1e", {}, "Alpha Persona\nBeta Premium", "", ()),
    ("type2", {}, "Generic Premium\nAlpha Premium", "", ()),
    ("type1e", {}, "Alpha Persona\nAlpha Premium\nWatcher One\nRelic One\nRelic Two\nRelic Three\nRelic Four\n"
                   "Relic Five", "", ()),
    ("type1e", {}, "2 Watcher One\nWatcher Two", "", ()),
    ("type1e", {"watcher_max": 2}, "Watcher One\nWatcher Two", "", ()),
    ("type1e", {}, "", "", ("Thrust", "Upper Left Attack", "Upper Left Block")),
    ("type2", {}, "", "3 Filler A (2)", ()),
    ("type2", {}, "", "Filler A (2)\nFiller G\nFiller F", ()),
    ("type2", {}, "", "3 Mystery Block\n3 Filler F", ("Lower Center Block",)),
    ("type2", {}, "", "3 Filler F\n3 Filler B\n3 Filler C\n3 Sword Cut", ("Thrust", "Upper Left Attack",
                                                                          "Upper Center Attack")),
    ("type2", {}, "Relic One\nRelic Two\nRelic Three\nRelic Four\nRelic Five\nRelic Six\nRelic Seven\n"
                  "Unique Relic\nCrystal (Clio)\nCrystal (Erato)", "", ()),
    ("type2", {"crystal_max": 2, "pregame_max": 8}, "Relic One\nRelic Two\nRelic Three\nCrystal (Clio)\n"
                                                    "2 Crystal (Erato)", "", ()),
    ("type2", {}, "Unique Relic\nUnique Relic", "", ()),
    ("type2", {"unique_max": 2}, "3 Unique Relic\nCrystal (Clio)\nCrystal (Erato)", "", ()),
    ("type2", {"unique_max": 2}, "2 Unique Relic", "", ()),
    ("type2", {}, "Alpha Persona", "4 Agile Trick", ()),
    ("type2", {"gem_factor": 2}, "Alpha Persona", "2 Agile Trick", ()),
    ("type2", {}, "Unknown Persona", "Agile Trick", ()),
    ("type2", {}, "Unknown Persona", "", ()),
    ("type2", {}, "", "2 Personal Gun", ()),
    ("type2", {}, "", "2 Watcher Ally\nHunter Ally", ()),
    ("type2", {}, "", "Watcher Ally\n3 Hunter Ally", ()),
    ("type2", {"exclusive_subtypes": ("Watcher",)}, "", "Watcher Ally\nHunter Ally", ()),
    ("type1e", {"deck_min": 52}, "", "", ()),
    ("type1e", {"title_max": 2}, "", "", ()),
    ("type2", {}, "Alpha Persona\nAlpha Big Premium\nRelic One\nRelic Two\nRelic Three\nRelic Four\nRelic Five\n"
                  "Relic Six", "", ()),
    ("type2", {"gem_factor": 2}, "Alpha Persona", "Agile Trick", ()),
    ("type1e", {}, "Gamma Persona", "Beta Strike\nBeta Secret", ()),
    ("type2", {}, "", "Filler A (2)\nFiller G", ()),
    ("type2", {"block_squares": ("UL", "MC")}, "", "", ("Upper Left Block", "Upper Center Block")),
]


Case = tuple[str, str, dict, str, str, tuple[str, ...]]


def cases() -> list[Case]:
    rows: list[Case] = [(f"breaks-{i}-{b[0]}", b[1], {}, b[2], b[3], b[4]) for i, b in enumerate(BREAKS)]
    rows += [(f"keeps-{i}-{k[0]}", k[1], {}, k[2], k[3], k[4]) for i, k in enumerate(KEEPS)]
    rows += [(f"edge-{i}", fmt, params, pregame, add, remove) for i, (fmt, params, pregame, add, remove)
             in enumerate(EDGES)]
    return rows


def issues_of(index, fmt_name: str, params: dict, pregame: str, add: str, remove: tuple[str, ...]) -> list[dict]:
    fmt = get_format(fmt_name)
    if params:
        fmt = dataclasses.replace(fmt, params=dataclasses.replace(fmt.params, **params))
    deck, problems = build_deck(parse_text(deck_text(pregame, add, remove), "t"), index, fmt)
    assert not problems, problems
    report = validate(deck, fmt)
    return [issue.as_dict() for issue in report.issues] + [{"legal": report.legal, "counts": report.counts}]


_GOLDEN: dict[str, list[dict]] = {}


def golden() -> dict[str, list[dict]]:
    if not _GOLDEN:
        _GOLDEN.update(json.loads(GOLDEN.read_text(encoding="utf-8")))
    return _GOLDEN


def test_golden_is_complete(synthetic_index, update_golden):
    if update_golden:
        table = {case[0]: issues_of(synthetic_index, *case[1:]) for case in cases()}
        GOLDEN.write_text(json.dumps(table, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        _GOLDEN.clear()
    assert set(golden()) == {c[0] for c in cases()}


@pytest.mark.parametrize("case", cases(), ids=[c[0] for c in cases()])
def test_issues_to_the_letter(case, synthetic_index):
    assert issues_of(synthetic_index, *case[1:]) == golden()[case[0]]


def _deck(*entries: tuple[object, int, str]):
    from deckcheck.decks import Deck
    deck = Deck(source="t")
    for card, quantity, section in entries:
        deck.add(card, quantity, section)  # type: ignore[arg-type]
    return deck


def _issues(deck, fmt: str, rule_id: str) -> list[tuple]:
    return [(i.rule, i.message, i.cards, i.limit, i.actual, i.fix) for i in validate(deck, fmt).issues
            if rule_id in (i.rule, i.message.split(" ", 1)[0])]


def test_restriction_number_one_and_printings_on_several_lines():
    from deckcheck.cards import Card
    one = Card(id="R1", name="Lone Event", title="Lone Event", type="Event", restriction=1)
    other_print = Card(id="R1b", name="Lone Event", title="Lone Event", type="Event", restriction=1, set="ZZ")
    assert _issues(_deck((one, 2, "Endurance")), "type1e", "HL-RESTRICTED") == [
        ("HL-RESTRICTED", "2 copies of Lone Event, which has Restriction number 1", ("Lone Event",), 1, 2,
         "remove 1 Lone Event")]
    assert _issues(_deck((one, 1, "Endurance"), (other_print, 1, "Endurance")), "type1e", "HL-RESTRICTED") == [
        ("HL-RESTRICTED", "2 copies of Lone Event, which has Restriction number 1", ("Lone Event",), 1, 2,
         "remove 1 Lone Event")]
    assert _issues(_deck((one, 1, "Endurance")), "type1e", "HL-RESTRICTED") == []


def test_unique_mark_unknown_on_a_repeated_pregame_title():
    from deckcheck.cards import Card
    vague = Card(id="U1", name="Vague Relic", title="Vague Relic", type="Pre-Game", unique=None, edition=2)
    assert _issues(_deck((vague, 2, "Pre-Game")), "type2", "HL2-PREGAME-UNIQUE") == [
        ("HL-DATA-UNKNOWN", "HL2-PREGAME-UNIQUE not verified: unique mark unknown (several cards of one title) for "
         "1 card: Vague Relic", ("Vague Relic",), None, None,
         "add the values printed on the cards, with a card sheet or the fill-in form")]
    assert _issues(_deck((vague, 1, "Pre-Game")), "type2", "HL2-PREGAME-UNIQUE") == []


def test_other_persona_total_quota_is_shared_by_all_other_personas():
    from deckcheck.cards import Card, Modifiers
    persona = Card(id="P", name="Eta Persona", title="Persona", immortal="Eta", type="Persona",
                   modifiers=Modifiers(other_persona_total=2))
    beta = Card(id="B", name="Beta Strike", title="Strike", immortal="Beta", type="Event")
    gamma = Card(id="G", name="Gamma Strike", title="Strike", immortal="Gamma", type="Event")
    kept = _deck((persona, 1, "Pre-Game"), (beta, 1, "Endurance"), (gamma, 1, "Endurance"))
    assert _issues(kept, "type1e", "HL-OTHER-PERSONA") == []
    over = _deck((persona, 1, "Pre-Game"), (beta, 2, "Endurance"), (gamma, 1, "Endurance"))
    assert _issues(over, "type1e", "HL-OTHER-PERSONA") == [
        ("HL-OTHER-PERSONA", "1 card of Gamma in a deck of Eta: Gamma Strike", ("Gamma Strike",), 0, 1,
         "remove 1 Gamma card")]
