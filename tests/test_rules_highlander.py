"""Every Highlander rule: a deck that breaks only that rule, and one that just keeps it (table-driven)."""
from __future__ import annotations

import pytest

from deckcheck.check import validate
from deckcheck.decklist import parse_text
from deckcheck.decks import build_deck
from deckcheck.formats import get_format

BASE_ENDURANCE = """\
3 Upper Left Attack
3 Upper Center Attack
3 Upper Right Attack
3 Middle Left Attack
3 Thrust
3 Middle Right Attack
3 Lower Left Attack
3 Lower Center Attack
3 Lower Right Attack
3 Upper Left Block
3 Upper Center Block
3 Upper Right Block
3 Lower Left Block
3 Lower Center Block
3 Lower Right Block
Filler A
Filler B
Filler C
Filler D
Filler E
"""


def deck_text(pregame: str = "", add: str = "", remove: tuple[str, ...] = ()) -> str:
    lines = [ln for ln in BASE_ENDURANCE.splitlines() if not any(ln.endswith(r) for r in remove)]
    return "Pre-Game:\n" + pregame + "\nEndurance:\n" + "\n".join(lines) + "\n" + add


def check(index, text: str, fmt: str):
    raw = parse_text(text, "test")
    deck, problems = build_deck(raw, index, get_format(fmt))
    assert not problems, problems
    return validate(deck, fmt)


def test_base_deck_is_clean_in_both_formats(synthetic_index):
    for fmt in ("type1e", "type2"):
        report = check(synthetic_index, deck_text(), fmt)
        assert report.legal is True
        assert report.issues == [], report.issues
        assert report.counts == {"Pre-Game": 0, "Endurance": 50}


# (rule id, format, pre-game lines, added endurance lines, removed endurance lines)
BREAKS = [
    ("HL-DECK-MIN", "type1e", "", "", ("Filler E",)),
    ("HL-TITLE-MAX", "type1e", "", "4 Thrust", ()),
    ("HL-RESTRICTED", "type1e", "", "3 Limited Event", ()),
    ("HL-SECTION", "type1e", "Filler F", "", ()),
    ("HL-SECTION", "type2", "", "Watcher One", ()),
    ("HL-PERSONA-COUNT", "type1e", "Alpha Persona\nBeta Persona", "", ()),
    ("HL-OTHER-PERSONA", "type1e", "Alpha Persona", "Beta Strike", ()),
    ("HL-OTHER-PERSONA", "type1e", "Gamma Persona", "2 Beta Strike", ()),
    ("HL-GENERIC-SPECIFIC", "type1e", "", "2 Alpha Strike", ()),
    ("HL-RESERVED", "type1e", "", "Beta Secret", ()),
    ("HL-SIGNATURE", "type2", "", "Beta Sig", ()),
    ("HL-MASTER", "type1e", "Alpha Persona", "3 Alpha Master's Lesson", ()),
    ("HL-MASTER", "type1e", "", "Grand Master Plan", ()),
    ("HL-MASTER", "type2", "", "Grand Master Plan", ()),
    ("HL-WEAPON-SPECIFIC", "type1e", "", "Sword Cut", ()),
    ("HL-WEAPON-SPECIFIC", "type1e", "Axe Pre-Game", "Sword Cut", ()),
    ("HL-WOC-COUNT", "type1e", "Sword Pre-Game\nAxe Pre-Game", "", ()),
    ("HL-HAND-ICONS", "type1e", "Great Sword Pre-Game\nBuckler", "", ()),
    ("HL-PREMIUM", "type1e", "Alpha Premium", "", ()),  # made for Alpha: a Generic Immortal cannot use it
    ("HL-PREMIUM", "type1e", "Generic Immortal Persona\nAlpha Premium", "", ()),
    ("HL-HAND-ICONS", "type1e", "Twin Bracers", "", ()),  # no Weapon of Choice: one hand is the weapon's
    ("HL-MASTER", "type1e", "Generic Immortal Persona", "2 Grand Master Plan", ()),  # its allowance is 1
    ("HL-MASTER", "type1e", "", "Mastery of Steel", ()),
    ("HL-MASTER", "type1e", "", "Weapon Master Drill", ()),
    ("HL-GENERIC-SPECIFIC", "type1e", "Generic Immortal Persona", "2 Alpha Strike", ()),
    ("HL-DECK-MIN", "type1e", "Lean Deck\nLeaner Deck", "", ("Filler A", "Filler B", "Filler C")),  # 48 applies
    ("HL-SECTION", "type1e", "", "Alpha Persona", ()),
    ("HL-PREMIUM", "type2", "Alpha Persona\nBeta Premium", "", ()),
    ("HL1-BASIC-ATTACKS", "type1e", "", "3 Filler F", ("Thrust",)),
    ("HL1-BASIC-BLOCKS", "type1e", "", "3 Filler F", ("Lower Center Block",)),
    ("HL1-PREGAME-MAX", "type1e", "Alpha Persona\nAlpha Premium\nWatcher One\nRelic One\nRelic Two\nRelic Three"
                                  "\nRelic Four", "", ()),
    ("HL1-WATCHER-COUNT", "type1e", "Watcher One\nWatcher Two", "", ()),
    ("HL2-EDITION-MIX", "type2", "", "Filler A (2)", ()),
    ("HL2-ATTACK-GRID", "type2", "", "3 Filler F", ("Thrust",)),
    ("HL2-BLOCK-GRID", "type2", "", "3 Filler F\n3 Filler B\n3 Filler C",
     ("Lower Center Block", "Lower Left Block", "Lower Right Block")),
    ("HL2-PREGAME-MAX", "type2", "Relic One\nRelic Two\nRelic Three\nRelic Four\nRelic Five\nRelic Six\nRelic "
                                 "Seven", "", ()),
    ("HL2-PREGAME-UNIQUE", "type2", "2 Unique Relic", "", ()),
    ("HL2-GEMS", "type2", "Alpha Persona", "2 Agile Trick", ()),
    ("HL2-PERMISSION", "type2", "", "Personal Gun", ()),
    ("HL2-WATCHER-HUNTER", "type2", "", "Watcher Ally\nHunter Ally", ()),
]


def test_a_grant_counts_only_from_a_pregame_card(synthetic_index):
    report = check(synthetic_index, deck_text("Gun Permit", "Personal Gun"), "type2")
    assert report.errors == []
    # written in the Endurance, a Pre-Game card still counts where its type belongs (RULES.md Words):
    # the misplacement is HL-SECTION's, and the grant holds
    misplaced = check(synthetic_index, deck_text("", "Personal Gun\nGun Permit"), "type2")
    assert {i.rule for i in misplaced.errors} == {"HL-SECTION"}


def test_generic_specific_counts_pregame_cards_too(synthetic_index):
    report = check(synthetic_index, deck_text("Alpha Persona") .replace("Pre-Game:\nAlpha Persona",
                                                                       "Pre-Game:\n2 Alpha Premium"), "type1e")
    assert "HL-GENERIC-SPECIFIC" in {i.rule for i in report.errors}

KEEPS = [
    ("HL-DECK-MIN", "type1e", "", "", ()),
    ("HL-TITLE-MAX", "type1e", "", "3 Thrust", ()),
    ("HL-RESTRICTED", "type1e", "", "2 Limited Event", ()),
    ("HL-SECTION", "type1e", "Watcher One", "Filler F", ()),
    ("HL-PERSONA-COUNT", "type1e", "Alpha Persona", "", ()),
    ("HL-OTHER-PERSONA", "type1e", "Alpha Persona", "Alpha Strike", ()),
    ("HL-OTHER-PERSONA", "type1e", "Duncan MacLeod Persona", "Clan MacLeod Banner", ()),
    ("HL-OTHER-PERSONA", "type1e", "Gamma Persona", "Beta Strike\nAlpha Strike", ()),
    ("HL-OTHER-PERSONA", "type1e", "Delta Persona", "Beta Master's Lesson", ()),
    ("HL-GENERIC-SPECIFIC", "type1e", "", "Alpha Strike\nBeta Strike", ()),
    ("HL-RESERVED", "type1e", "Gamma Persona", "Beta Secret", ()),
    ("HL-RESERVED", "type1e", "Beta Persona", "2 Beta Secret", ()),
    ("HL-SIGNATURE", "type2", "Beta Persona", "Beta Sig", ()),
    ("HL-MASTER", "type1e", "Alpha Persona", "2 Alpha Master's Lesson", ()),
    ("HL-WEAPON-SPECIFIC", "type1e", "Sword Pre-Game", "Sword Cut", ()),
    ("HL-WOC-COUNT", "type1e", "Sword Pre-Game\nAxe Pre-Game\nDual Wield", "", ()),
    ("HL-HAND-ICONS", "type1e", "Sword Pre-Game\nBuckler", "", ()),
    ("HL-PREMIUM", "type1e", "Alpha Persona\nAlpha Premium", "", ()),
    ("HL-PREMIUM", "type1e", "Generic Premium", "", ()),  # names no Persona: a Generic Immortal may use it
    ("HL-PREMIUM", "type2", "Alpha Persona\nGeneric Premium", "", ()),
    ("HL-HAND-ICONS", "type1e", "Buckler", "", ()),
    ("HL-HAND-ICONS", "type2", "Twin Bracers", "", ()),
    ("HL-MASTER", "type1e", "Generic Immortal Persona", "Grand Master Plan", ()),
    ("HL-MASTER", "type1e", "", "Grandmaster Gambit\nRemastered Tape", ()),  # words merely containing Master
    ("HL-MASTER", "type1e", "Master Relic", "", ()),  # only Endurance cards count
    ("HL-OTHER-PERSONA", "type1e", "Generic Immortal Persona", "Alpha Strike\nBeta Strike", ()),
    ("HL-DECK-MIN", "type1e", "Lean Deck\nLeaner Deck", "", ("Filler A", "Filler B")),
    ("HL1-BASIC-ATTACKS", "type1e", "", "1 Thrust\n2 Filler F", ("Thrust",)),
    ("HL1-PREGAME-MAX", "type1e", "Alpha Persona\nAlpha Big Premium\nWatcher One\nRelic One\nRelic Two\nRelic "
                                  "Three\nRelic Four\nRelic Five", "", ()),
    ("HL1-WATCHER-COUNT", "type1e", "Watcher One", "", ()),
    ("HL2-EDITION-MIX", "type2", "", "Filler G", ()),
    ("HL2-PREGAME-MAX", "type2", "Relic One\nRelic Two\nRelic Three\nRelic Four\nRelic Five\nRelic Six\n"
                                 "Crystal (Clio)", "", ()),
    ("HL2-PREGAME-UNIQUE", "type2", "Unique Relic\nCrystal (Erato)", "", ()),
    ("HL2-GEMS", "type2", "Alpha Persona", "Agile Trick", ()),
    ("HL2-GEMS", "type2", "", "3 Agile Trick", ()),
    ("HL2-PERMISSION", "type2", "Gun Permit", "Personal Gun", ()),
    ("HL2-WATCHER-HUNTER", "type2", "", "2 Watcher Ally", ()),
]


@pytest.mark.parametrize("rule_id,fmt,pregame,add,remove", BREAKS,
                         ids=[f"{b[0]}-{i}" for i, b in enumerate(BREAKS)])
def test_deck_breaking_only_this_rule(synthetic_index, rule_id, fmt, pregame, add, remove):
    report = check(synthetic_index, deck_text(pregame, add, remove), fmt)
    errors = {i.rule for i in report.errors}
    assert errors == {rule_id}, report.issues
    assert report.legal is False
    for issue in report.errors:
        assert issue.message and issue.fix, issue


@pytest.mark.parametrize("rule_id,fmt,pregame,add,remove", KEEPS, ids=[f"{k[0]}-{i}" for i, k in enumerate(KEEPS)])
def test_deck_just_keeping_this_rule(synthetic_index, rule_id, fmt, pregame, add, remove):
    report = check(synthetic_index, deck_text(pregame, add, remove), fmt)
    assert rule_id not in {i.rule for i in report.issues}, report.issues
    assert report.errors == [], report.issues


def test_every_rule_of_rules_md_has_a_breaking_case():
    highlander = {r.id for f in ("type1e", "type2") for r in get_format(f).rules}
    assert highlander - {"HL2-SLEEVES"} == {b[0] for b in BREAKS}


def test_sleeves_warning_for_mixed_editions_alone(synthetic_index):
    report = check(synthetic_index, deck_text(add="Filler G"), "type2")
    assert [(i.rule, i.severity) for i in report.issues] == [("HL2-SLEEVES", "warning")]
    assert report.legal is True


def test_title_limits_count_the_endurance_only(synthetic_index):
    """1E 'no more than six of any one card' and 2E 同名カードはデッキに6枚まで: the deck proper
    (デッキ = Endurance)."""
    report = check(synthetic_index, deck_text("Relic One", "3 Thrust") + "\nPre-Game:\nThrust\n", "type1e")
    # a Thrust written under Pre-Game is misplaced (HL-SECTION) and still counts where its type belongs:
    # the 7th of its title in the Endurance (RULES.md Words, "Where a card counts")
    assert {i.rule for i in report.errors} == {"HL-SECTION", "HL-TITLE-MAX"}
    report = check(synthetic_index, deck_text("Filler A (2)"), "type2")
    assert "HL2-EDITION-MIX" in {i.rule for i in report.issues}  # the Event counts in the Endurance, by its type


def test_numbers_and_cards_in_the_issue(synthetic_index):
    report = check(synthetic_index, deck_text(add="4 Thrust"), "type1e")
    (issue,) = report.issues
    assert (issue.limit, issue.actual) == (6, 7)
    assert issue.cards == ("Thrust",)
    assert issue.message == "7 cards titled Thrust; at most 6 are allowed"
    assert issue.fix == "remove 1 Thrust"


def test_deck_min_numbers(synthetic_index):
    (issue,) = check(synthetic_index, deck_text(remove=("Filler E", "Filler D")), "type1e").issues
    assert (issue.rule, issue.limit, issue.actual, issue.fix) == ("HL-DECK-MIN", 50, 48, "add 2 cards to the Endurance")


def test_basic_attacks_lists_the_missing(synthetic_index):
    report = check(synthetic_index, deck_text(add="6 Filler F", remove=("Thrust", "Upper Left Attack")), "type1e")
    (issue,) = report.errors
    assert issue.message == "missing 2 Basic Attacks: Upper Left Attack, Thrust"


def test_block_grid_lists_uncovered_squares(synthetic_index):
    text = deck_text(add="9 Filler F", remove=("Lower Center Block", "Lower Left Block", "Lower Right Block"))
    report = check(synthetic_index, text, "type2")
    issue = next(i for i in report.errors if i.rule == "HL2-BLOCK-GRID")
    assert "Lower Left, Lower Center, Lower Right" in issue.message
    assert (issue.limit, issue.actual) == (6, 3)


def test_a_card_breaking_two_rules_is_reported_under_each(synthetic_index):
    report = check(synthetic_index, deck_text(add="Beta Master's Lesson"), "type2")
    assert {i.rule for i in report.errors} == {"HL-RESERVED", "HL-MASTER"}


def test_every_violation_at_once(synthetic_index):
    text = deck_text("Alpha Premium\nWatcher One\nWatcher Two", "4 Thrust\n3 Limited Event\nSword Cut",
                     ("Lower Right Block",))
    report = check(synthetic_index, text, "type1e")
    assert {i.rule for i in report.errors} == {"HL-TITLE-MAX", "HL-RESTRICTED", "HL-WEAPON-SPECIFIC",
                                               "HL-PREMIUM", "HL1-BASIC-BLOCKS", "HL1-WATCHER-COUNT"}


def test_richie_allowance_is_one_per_persona_reserved_first(synthetic_index):
    report = check(synthetic_index, deck_text("Gamma Persona", "Beta Strike\nBeta Secret"), "type1e")
    (issue,) = report.errors
    assert (issue.rule, issue.actual, issue.cards) == ("HL-OTHER-PERSONA", 1, ("Beta Strike",))


def test_two_crystals_break_the_crystal_limit_and_uniqueness(synthetic_index):
    report = check(synthetic_index, deck_text("Crystal (Clio)\nCrystal (Erato)"), "type2")
    assert {i.rule for i in report.errors} == {"HL2-PREGAME-MAX", "HL2-PREGAME-UNIQUE"}


def test_methos_allowance_covers_master_cards_only(synthetic_index):
    report = check(synthetic_index, deck_text("Delta Persona", "Beta Master's Lesson\nBeta Strike"), "type1e")
    assert [(i.rule, i.cards) for i in report.errors] == [("HL-OTHER-PERSONA", ("Beta Strike",))]


def test_signature_is_never_lifted_by_a_modifier(synthetic_index):
    report = check(synthetic_index, deck_text("Gamma Persona", "Beta Sig"), "type1e")
    assert {i.rule for i in report.errors} == {"HL-SIGNATURE", "HL-OTHER-PERSONA"}


@pytest.mark.parametrize("pregame,add,fmt,rule,unknown_card", [
    ("", "Mystery Card", "type1e", "HL-SECTION", "Mystery Card"),
    ("Unknown Persona", "Grand Master Plan", "type1e", "HL-MASTER", "Unknown Persona"),
    ("", "2 Vague Event", "type1e", "HL-RESTRICTED", "Vague Event"),
    ("", "Beta Vague Secret", "type1e", "HL-RESERVED", "Beta Vague Secret"),
    ("Unknown Persona", "Agile Trick", "type2", "HL2-GEMS", "Unknown Persona"),
])
def test_unknown_data_is_a_warning_naming_rule_and_cards(synthetic_index, pregame, add, fmt, rule, unknown_card):
    report = check(synthetic_index, deck_text(pregame, add), fmt)
    unknown = [i for i in report.issues if i.rule == "HL-DATA-UNKNOWN"]
    assert unknown, report.issues
    assert any(i.message.startswith(rule + " not verified") and unknown_card in i.cards for i in unknown)
    assert all(i.severity == "warning" for i in unknown)
    assert rule not in {i.rule for i in report.errors}


def test_unknown_block_grid_is_not_a_false_error(synthetic_index):
    text = deck_text(add="3 Mystery Block\n6 Filler F", remove=("Lower Center Block", "Lower Left Block",
                                                                "Lower Right Block"))
    report = check(synthetic_index, text, "type2")
    assert "HL2-BLOCK-GRID" not in {i.rule for i in report.errors}
    assert any(i.rule == "HL-DATA-UNKNOWN" and "HL2-BLOCK-GRID" in i.message for i in report.issues)


def test_known_grid_coverage_needs_no_unknown_block(synthetic_index):
    report = check(synthetic_index, deck_text(add="Mystery Block", remove=("Filler E",)), "type2")
    assert report.issues == []


def test_deck_min_modifier(synthetic_cards):
    from dataclasses import replace

    from deckcheck.cards import parse_modifiers
    from deckcheck.catalog import CardIndex
    cards = [replace(c, modifiers=parse_modifiers("deck_min=40")) if c.name == "Relic One" else c
             for c in synthetic_cards]
    report = check(CardIndex(cards), deck_text("Relic One", remove=("Filler E", "Filler D")), "type1e")
    assert report.issues == []


@pytest.mark.parametrize("text,counts,persona", [
    # an Event under Pre-Game counts toward the Endurance; a Persona under Endurance does not
    (deck_text("Filler E", remove=("Filler E",)), {"Pre-Game": 0, "Endurance": 50}, None),
    (deck_text("", "Alpha Persona"), {"Pre-Game": 1, "Endurance": 50}, "Alpha"),
])
def test_cards_count_where_their_type_belongs(synthetic_index, text, counts, persona):
    report = check(synthetic_index, text, "type1e")
    assert report.counts == counts and report.persona == persona
    assert {i.rule for i in report.errors} == {"HL-SECTION"}  # the misplacement, and nothing else


def test_a_persona_titled_generic_immortal_is_a_generic_immortal(synthetic_index):
    report = check(synthetic_index, deck_text("Generic Immortal Persona", "Alpha Strike\nBeta Secret"), "type1e")
    assert {i.rule for i in report.errors} == {"HL-RESERVED"}  # no Persona's own cards: Reserved needs one


def test_modifiers_combine(synthetic_index):
    """The highest deck_min applies (RULES.md Modifier); pregame_extra values add up."""
    report = check(synthetic_index, deck_text("Leaner Deck\nLean Deck"), "type1e")
    assert report.errors == []
    short = check(synthetic_index, deck_text("Leaner Deck\nLean Deck", remove=("Filler A", "Filler B", "Filler C")),
                  "type1e")
    (issue,) = short.errors
    assert (issue.rule, issue.limit, issue.actual) == ("HL-DECK-MIN", 48, 47)


def test_a_generic_immortal_may_hold_one_clan_macleod_card(synthetic_index):
    """A Generic Immortal (no Persona) holds a Clan MacLeod card as any one Immortal Specific card: one copy (the
    limit) is allowed, two (limit + 1) are not; no Persona's clan is looked for."""
    one = check(synthetic_index, deck_text("", "Clan MacLeod Banner"), "type1e")
    assert not {"HL-OTHER-PERSONA", "HL-GENERIC-SPECIFIC"} & {i.rule for i in one.errors}
    two = check(synthetic_index, deck_text("", "2 Clan MacLeod Banner"), "type1e")  # one of each card: limit + 1
    assert "HL-GENERIC-SPECIFIC" in {i.rule for i in two.errors}
