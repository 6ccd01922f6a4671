"""The stated facts of card-facts.tsv and the grids read off Attack names reach the bundled data and `check`."""
from __future__ import annotations

import pytest

from deckcheck.check import validate
from deckcheck.db.build_bundled import grid_from_name
from deckcheck.games import get_format, parse_text
from deckcheck.decks import build_deck
from deckcheck.grid import format_grid

BASICS = "\n".join(f"3 {t}" for t in (
    "Upper Left Attack", "Upper Center Attack", "Upper Right Attack", "Middle Left Attack", "Thrust",
    "Middle Right Attack", "Lower Left Attack", "Lower Center Attack", "Lower Right Attack", "Upper Left Block",
    "Upper Center Block", "Upper Right Block", "Lower Left Block", "Lower Center Block", "Lower Right Block"))


@pytest.fixture(scope="module")
def by_id(bundled):
    return {c.id: c for c in bundled}


def check(index, endurance: str, pregame: str = ""):
    text = f"Format: type1e\nPre-Game:\n{pregame}\nEndurance:\n{BASICS}\n{endurance}\n"
    deck, problems = build_deck(parse_text(text, "test"), index, get_format("type1e"))
    assert not problems, problems
    return validate(deck, "type1e")


def rules_about(report, name: str) -> set[str]:
    return {i.rule for i in report.issues if any(name in c for c in i.cards)}


def test_four_break_weapon_is_restricted_not_unknown(bundled_index):
    report = check(bundled_index, "4 Break Weapon")
    assert rules_about(report, "Break Weapon") == {"HL-RESTRICTED"}
    issue = next(i for i in report.issues if i.rule == "HL-RESTRICTED")
    assert (issue.limit, issue.actual) == (3, 4) and report.legal is False
    assert rules_about(check(bundled_index, "3 Break Weapon"), "Break Weapon") == set()


def test_reserved_card_in_a_generic_deck(bundled_index):
    report = check(bundled_index, "1 Xavier St. Cloud Poison Gas [SE]")
    assert "HL-RESERVED" in rules_about(report, "Poison Gas") and report.legal is False


def test_restriction_applies_to_the_named_row_only(by_id):
    assert by_id["ME-break-weapon"].restriction == 3
    assert by_id["SE-xavier-st-cloud-poison-gas"].restriction == 2
    assert by_id["TIN-xavier-st-cloud-poison-gas"].restriction == 2
    assert by_id["AT-rules-of-the-game-ranged-attack"].restriction == 3
    assert by_id["AT-rules-of-the-game-event"].restriction is None  # its restriction note is cut off: unknown
    assert by_id["ME-kiss-your-butt-goodbye"].restriction == 3


def test_none_printed_is_known_not_restricted(by_id):
    assert by_id["WC-joe-dawson-pre-game-watcher"].restriction == 0


def test_reserved_marks_yes_and_no(bundled, by_id):
    assert by_id["ME-general-katana-intimidate"].reserved is True
    assert by_id["TG-general-katana-trip"].reserved is False
    assert by_id["WC-back-away-hugh-fitzcairn"].reserved is False
    assert by_id["TG-the-kurgan-bloodlust"].reserved is True
    assert sum(c.reserved is True for c in bundled) == 10 and sum(c.reserved is False for c in bundled) == 13
    assert sum(c.restriction is not None for c in bundled) == 10
    assert by_id["TG-general-katana-trip"].signature is None  # no Signature mark of a TG card was stated anywhere


def test_hand_icons_stated_for_one_printing(bundled, by_id):
    assert by_id["AT-paul-kinman-9mm"].hand_icons == 1  # the 2001 Handbook Addendum's entry
    assert [c.id for c in bundled if c.edition == 1 and c.hand_icons is not None] == ["AT-paul-kinman-9mm"]


def test_texts(bundled, by_id):
    assert by_id["ME-twist-of-fate"].text.startswith("Play this card to force your opponent")
    assert by_id["WC-hugh-fitzcairn-persona"].text.endswith("You may have up to 5 Master cards.")
    texts = [c for c in bundled if c.edition == 1 and c.text]
    assert len(texts) == 73 + 24  # 73 stated texts; the Persona texts of personas.tsv on 24 other Persona rows


def test_new_personas_allowances_and_no_guessed_modifiers(bundled, by_id):
    assert by_id["WC-hugh-fitzcairn-persona"].gem_master == 5 and by_id["AT-kanwulf-persona"].gem_master == 5
    assert not by_id["WC-hugh-fitzcairn-persona"].modifiers and not by_id["AT-kanwulf-persona"].modifiers
    assert len({c.immortal for c in bundled if c.is_persona and c.gem_master is not None}) == 18
    assert by_id["SE-amanda-persona"].gem_master is None


@pytest.mark.parametrize("name,squares", [
    ("Slash (Upper Left & Lower Right)", "UL LR"),
    ("Slash (Lower Right  & Upper Left)", "UL LR"),
    ("Riposte (UL)", "UL"),
    ("Rapier Slice (UL, MC)", "UL MC"),
    ("Parrying Blade Dual Attack (LL, UR)", "UR LL"),
    ("Lunge (Upper Center)", "UC"),
    ("Flurry Strike (Left)", None),
    ("Slash (Upper)", None),
    ("Slash (Horizontal)", None),
    ("Claymore Cleave (Left-Right)", None),
    ("Connor MacLeod Slash (LL to UR)", None),  # the ends of a stroke, not every square it crosses
    ("Caspian Master's Attack (left)", None),
    ("Dirty Trick (Kick)", None),
    ("Upper Left (UL) (LR)", None),
    ("Thrust", None),
])
def test_grid_from_name(name, squares):
    grid = grid_from_name(name)
    assert (None if grid is None else format_grid(grid)) == squares


def test_grids_derived_for_attacks_only_and_marked_inferred(bundled, by_id):
    riposte = by_id["TG-riposte-ll"]
    assert format_grid(riposte.grid) == "LL" and riposte.grid_inferred
    assert by_id["WC-flurry-strike-left"].grid is None
    derived = [c for c in bundled if c.grid is not None and not c.basic]
    assert derived and all(c.type in ("Attack", "Special Attack") and c.grid_inferred for c in derived)
    assert len(derived) == 40
    assert all(c.grid is None for c in bundled if c.type in ("Block", "Dodge") and not c.basic)
