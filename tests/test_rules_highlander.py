"""Every Highlander rule: a deck that breaks only that rule, and one that just keeps it (table-driven)."""
from __future__ import annotations

import pytest

from deckcheck.check import details_of, validate
from deckcheck.report import Coverage
from deckcheck.games import get_format, parse_text
from deckcheck.decks import build_deck

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


def test_two_crystals_are_one_issue_of_the_crystal_limit(synthetic_index):
    """Issue 36: two Crystals are HL2-PREGAME-MAX's "2 Crystals", not also "2 unique Pre-Game cards titled Crystal"."""
    report = check(synthetic_index, deck_text("Crystal (Clio)\nCrystal (Erato)"), "type2")
    assert [i.rule for i in report.errors] == ["HL2-PREGAME-MAX"]


def test_two_unique_personas_are_one_issue_of_the_persona_count(synthetic_index):
    """Issue 36: two Personas (2nd-edition Personas are marked unique, titled Persona) are HL-PERSONA-COUNT's one
    issue, not also "2 unique Pre-Game cards titled Persona"; a unique Pre-Game card twice is still reported."""
    from dataclasses import replace
    from deckcheck.catalog import CardIndex
    unique = CardIndex([replace(c, unique=True) if c.type == "Persona" else c for c in synthetic_index.cards])
    report = check(unique, deck_text("Alpha Persona\nBeta Persona"), "type2")
    assert [i.rule for i in report.errors] == ["HL-PERSONA-COUNT"]


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


def _deck(*entries):
    """A deck of (card, quantity, section) without a card sheet."""
    from deckcheck.decks import Deck
    deck = Deck(source="t")
    for card, quantity, section in entries:
        deck.add(card, quantity, section)
    return deck


def _rule_issues(deck, fmt: str, rule_id: str) -> list[tuple]:
    """(rule, message, cards, limit, actual, fix) of the issues of one rule, its data-unknown warnings included."""
    return [(i.rule, i.message, i.cards, i.limit, i.actual, i.fix) for i in validate(deck, fmt).issues
            if rule_id in (i.rule, i.message.split(" ", 1)[0])]


def _event(name: str, immortal: str | None = None, **fields):
    from deckcheck.cards import Card
    title = name.split(" ", 1)[1] if immortal else name
    return Card(id=name, name=name, title=title, immortal=immortal, type="Event", **fields)


def _persona(immortal: str, modifiers: str = ""):
    from deckcheck.cards import Card, parse_modifiers
    return Card(id=f"P-{immortal}", name=f"{immortal} Persona", title="Persona", immortal=immortal, type="Persona",
                gem_master=1, modifiers=parse_modifiers(modifiers))


def test_a_clan_macleod_card_needs_a_macleod_persona(synthetic_index):
    """HL-OTHER-PERSONA's Clan MacLeod exception is for a Persona whose name holds MacLeod: in a deck of another
    Persona a Clan MacLeod card is a card of another Persona (RULES.md HL-OTHER-PERSONA, Immortal Specific)."""
    report = check(synthetic_index, deck_text("Alpha Persona", "Clan MacLeod Banner"), "type1e")
    assert [(i.rule, i.message, i.actual) for i in report.errors] == [
        ("HL-OTHER-PERSONA", "1 card of Clan MacLeod in a deck of Alpha: Clan MacLeod Banner", 1)]
    kept = check(synthetic_index, deck_text("Duncan MacLeod Persona", "Clan MacLeod Banner"), "type1e")
    assert kept.errors == []


def test_a_persona_titled_generic_immortal_is_named_a_generic_immortal(synthetic_index):
    report = check(synthetic_index, deck_text("Generic Immortal Persona", "Beta Secret"), "type1e")
    assert [i.message for i in report.errors] == [
        "Beta Secret is Reserved for Beta; it cannot be included by a Generic Immortal"]


def test_a_generic_immortal_owns_no_immortal_specific_card(synthetic_cards):
    """HighlanderView.is_own for a deck whose Persona is titled Generic Immortal: no card is its own, not even a
    Clan MacLeod card (the rules ask it only of a deck with a Persona; the view answers any deck)."""
    from deckcheck.games.highlander.view import HighlanderView
    by_name = {c.name: c for c in synthetic_cards}
    deck = _deck((by_name["Generic Immortal Persona"], 1, "Pre-Game"))
    view = HighlanderView(deck, get_format("type1e").params)
    assert view.is_generic
    assert [view.is_own(by_name[n]) for n in ("Clan MacLeod Banner", "Alpha Strike", "Filler A")] == [False] * 3
    macleod = HighlanderView(_deck((by_name["Duncan MacLeod Persona"], 1, "Pre-Game")), get_format("type1e").params)
    assert [macleod.is_own(by_name[n]) for n in ("Clan MacLeod Banner", "Alpha Strike", "Filler A")] == [
        True, False, False]


def test_other_persona_each_counts_copies_of_different_cards_of_one_persona():
    """other_persona_each=1 (Richie Ryan): one card of each other Persona, whichever specific card it is; a second,
    different card of the same Persona is one too many."""
    richie = _persona("Gamma", "other_persona_each=1")
    strike, jab, thrust = _event("Beta Strike", "Beta"), _event("Beta Jab", "Beta"), _event("Delta Thrust", "Delta")
    limit = _deck((richie, 1, "Pre-Game"), (strike, 1, "Endurance"), (thrust, 1, "Endurance"))
    assert _rule_issues(limit, "type1e", "HL-OTHER-PERSONA") == []
    over = _deck((richie, 1, "Pre-Game"), (jab, 1, "Endurance"), (strike, 1, "Endurance"), (thrust, 1, "Endurance"))
    assert _rule_issues(over, "type1e", "HL-OTHER-PERSONA") == [
        ("HL-OTHER-PERSONA", "1 card of Beta in a deck of Gamma: Beta Strike", ("Beta Strike",), 0, 1,
         "remove 1 Beta card")]  # the quota goes by name: Beta Jab first, whatever the written order


def test_other_persona_each_and_total_add_up():
    """Modifiers combine (RULES.md Modifier): other_persona_each=1 on the Persona and other_persona_total=2 on a
    Pre-Game card allow 3 cards of one other Persona (the limit); a 4th is refused."""
    from deckcheck.cards import Card, parse_modifiers
    richie = _persona("Gamma", "other_persona_each=1")
    pass_card = Card(id="PASS", name="Open Door", title="Open Door", type="Pre-Game",
                     modifiers=parse_modifiers("other_persona_total=2"))
    strike, jab = _event("Beta Strike", "Beta"), _event("Beta Jab", "Beta")
    limit = _deck((richie, 1, "Pre-Game"), (pass_card, 1, "Pre-Game"), (strike, 2, "Endurance"), (jab, 1, "Endurance"))
    assert _rule_issues(limit, "type1e", "HL-OTHER-PERSONA") == []
    over = _deck((richie, 1, "Pre-Game"), (pass_card, 1, "Pre-Game"), (strike, 2, "Endurance"), (jab, 2, "Endurance"))
    assert _rule_issues(over, "type1e", "HL-OTHER-PERSONA") == [
        ("HL-OTHER-PERSONA", "1 card of Beta in a deck of Gamma: Beta Strike", ("Beta Strike",), 0, 1,
         "remove 1 Beta card")]


def test_the_grids_the_report_draws_are_the_basic_attacks_and_the_blocks():
    """details_of: the squares the Basic Attacks cover and the squares the Blocks cover; a non-basic
    Attack, a Dodge and a block of unknown grid add nothing."""
    from deckcheck.cards import Card
    from deckcheck.grid import mask_of

    def card(name, kind, squares, basic=False):
        return Card(id=name, name=name, title=name, type=kind, basic=basic,
                    grid=None if squares is None else mask_of(squares))
    deck = _deck((card("Low Cut", "Attack", ("LL",), basic=True), 1, "Endurance"),
                 (card("Fancy Cut", "Attack", ("UR",)), 1, "Endurance"),
                 (card("Wall", "Block", ("UC", "UR")), 1, "Endurance"),
                 (card("Foggy Block", "Block", None), 1, "Endurance"),
                 (card("Duck", "Dodge", ("MC",), basic=True), 1, "Endurance"))
    coverage = details_of(deck, "type2", validate(deck, "type2")).coverage
    assert coverage == Coverage(attacks=mask_of(("LL",)), blocks=mask_of(("UC", "UR")))


def test_restriction_counts_a_specific_card_across_its_lines():
    """HL-RESTRICTED: two printings of one specific card with Restriction number 2, one copy each, are 2 (the
    limit); two and one are 3, one too many. Each specific card is judged once, in the order of the deck."""
    limited = _event("Twice Event", restriction=2)
    reprint = _event("Twice Event", restriction=2, set="ZZ")
    thrice = _event("Thrice Event", restriction=1)
    assert _rule_issues(_deck((limited, 1, "Endurance"), (reprint, 1, "Endurance")), "type1e", "HL-RESTRICTED") == []
    over = _deck((thrice, 2, "Endurance"), (limited, 2, "Endurance"), (reprint, 1, "Endurance"))
    assert _rule_issues(over, "type1e", "HL-RESTRICTED") == [
        ("HL-RESTRICTED", "2 copies of Thrice Event, which has Restriction number 1", ("Thrice Event",), 1, 2,
         "remove 1 Thrice Event"),
        ("HL-RESTRICTED", "3 copies of Twice Event, which has Restriction number 2", ("Twice Event",), 2, 3,
         "remove 1 Twice Event")]


def test_a_generic_immortal_counts_an_immortal_specific_card_across_its_lines():
    """HL-GENERIC-SPECIFIC: one of each Immortal Specific card (per Immortal and title), whichever printing or
    picture: Alpha's Strike in two pictures, one copy each, is two copies."""
    strike, picture = _event("Alpha Strike", "Alpha"), _event("Alpha Strike (2)", "Alpha")
    picture = _replace(picture, title="Strike")
    assert _rule_issues(_deck((strike, 1, "Endurance")), "type1e", "HL-GENERIC-SPECIFIC") == []
    assert _rule_issues(_deck((strike, 1, "Endurance"), (picture, 1, "Endurance")), "type1e",
                        "HL-GENERIC-SPECIFIC") == [
        ("HL-GENERIC-SPECIFIC", "2 copies of Alpha's Strike; a Generic Immortal may include 1",
         ("Alpha Strike", "Alpha Strike (2)"), 1, 2, "remove 1 Alpha Strike")]


def _replace(card, **changes):
    from dataclasses import replace
    return replace(card, **changes)


def test_an_edition_mix_is_named_by_the_title_as_first_written():
    """HL2-EDITION-MIX: "Crow's Feint" and "Crows Feint" are one title (RULES.md Title); the message writes it as
    the deck first does, and keeps the edition most copies have."""
    first = _replace(_event("Crow's Feint"), edition=1)
    second = _replace(_event("Crows Feint"), edition=2)
    assert _rule_issues(_deck((first, 1, "Endurance"), (second, 2, "Endurance")), "type2", "HL2-EDITION-MIX") == [
        ("HL2-EDITION-MIX", "Crow's Feint comes from editions 1, 2; all cards of one title must share one edition",
         ("Crow's Feint", "Crows Feint"), None, None, "use only edition 2 Crow's Feint cards")]


def test_a_persona_titled_generic_immortal_has_no_gem_limit(synthetic_index):
    """HL2-GEMS: no gem limit is stated for a Generic Immortal, also when its Persona card is titled Generic
    Immortal (whose gem values are 0)."""
    report = check(synthetic_index, deck_text("Generic Immortal Persona", "3 Agile Trick"), "type2")
    assert "HL2-GEMS" not in {i.rule for i in report.issues} and "HL2-GEMS" not in str(report.issues)
    assert {i.rule for i in check(synthetic_index, deck_text("Alpha Persona", "2 Agile Trick"), "type2").errors} == {
        "HL2-GEMS"}  # Alpha's Agility 1 allows 3 icons; 4 are one too many


def test_the_game_fills_its_tournament_columns_and_its_statistics(synthetic_index):
    """Highlander's hooks (deckcheck.games.highlander): a tournament summary names a deck without a Persona as the
    format does (Generic Immortal) once the deck could be read, and nothing while it could not; the statistics
    draw the format's opening hand and Exertion unless asked for others."""
    from deckcheck.check import check_raw
    from deckcheck.games.highlander import GAME
    assert GAME.summary_of is not None and GAME.stats is not None
    generic = check(synthetic_index, deck_text(), "type1e")
    assert GAME.summary_of(generic) == {"persona": "Generic Immortal", "endurance": 50, "pre_game": 0}
    alpha = check(synthetic_index, deck_text("Alpha Persona"), "type1e")
    assert GAME.summary_of(alpha) == {"persona": "Alpha", "endurance": 50, "pre_game": 1}
    unread = check_raw(parse_text(deck_text(add="Nonesuch Card"), "t"), lambda fmt: synthetic_index)
    assert unread.legal is None and GAME.summary_of(unread)["persona"] == ""
    deck, _ = build_deck(parse_text(deck_text(), "t"), synthetic_index, get_format("type1e"))
    assert [(s.hand, s.exertion) for s in (GAME.stats(deck, "type1e"), GAME.stats(deck, "type1e", 7, 3))] == [
        (15, 5), (7, 3)]


def test_a_format_takes_only_rules_that_read_its_view(synthetic_index):
    """The typed seam (Format[Params, View], Rule[View]): Type 2 rules in a format of Type 1e parameters, or
    Highlander rules over another game's view, are type errors (mypy in scripts/lint.sh reports the unused
    ignore below the day they stop being one); at run time such a format breaks on the first rule that reads a
    parameter it lacks."""
    from deckcheck.formats import Format
    from deckcheck.games.highlander import rules as highlander
    from deckcheck.games.highlander import section_of_type
    from deckcheck.games.highlander.view import HighlanderView
    from deckcheck.games.raven import RavenView
    mixed = Format(name="mixed", title="Type 2 rules, Type 1e numbers", game="highlander",
                   rules=highlander.TYPE2, params=highlander.Type1eParams(),
                   view=HighlanderView,  # type: ignore[arg-type]  # the error this test expects
                   default_section=section_of_type)
    Format(name="other", title="another game's view", game="highlander", rules=highlander.TYPE1E,
           params=highlander.Type1eParams(), view=RavenView,  # type: ignore[arg-type]  # expected, as above
           default_section=section_of_type)
    deck, _ = build_deck(parse_text(deck_text(), "t"), synthetic_index, get_format("type2"))
    with pytest.raises(AttributeError, match="Type1eParams"):
        validate(deck, mixed)


def test_modifiers_are_true_exactly_when_a_field_is_away_from_its_default():
    """Modifiers.__bool__ names its fields one by one (it runs for every card of every deck); a field added to
    Modifiers and forgotten there fails here."""
    import dataclasses
    from typing import Any

    from deckcheck.cards import NO_MODIFIERS, Modifiers
    assert not NO_MODIFIERS and not Modifiers()
    for f in dataclasses.fields(Modifiers):
        default = getattr(NO_MODIFIERS, f.name)
        value: Any = (1 if default is None else True if isinstance(default, bool) else
                 frozenset({"x"}) if isinstance(default, frozenset) else default + 1)
        changed = dataclasses.replace(NO_MODIFIERS, **{f.name: value})
        assert changed != NO_MODIFIERS and bool(changed), f.name
        if isinstance(default, int) and not isinstance(default, bool):
            lower: dict[str, Any] = {f.name: default - 1}
            assert bool(dataclasses.replace(NO_MODIFIERS, **lower)), f.name
