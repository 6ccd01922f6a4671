"""What adding one card does to a deck (deckcheck.adding), against the plain validation of the deck plus the card:
on every deck of the rule tables (each rule broken, each just kept, the edges of test_mutants, in both formats, and
decks holding cards of unknown marks) and every synthetic card, each rule's `may_change` keeps its promise (when it
says no, the rule says of the deck plus the card what it says of the deck: no error more, as many undecided
issues), so does each key (`same_for`: cards of one key make the rule say the same), the Additions are the plain
answer, running each rule no more than that, and HighlanderView.plus is the view of the deck plus the card."""
from __future__ import annotations

import dataclasses
from collections import Counter
from functools import cache

import pytest
from test_mutants import Case, cases
from test_rules_highlander import deck_text

from deckcheck.adding import Additions
from deckcheck.cards import Card, parse_modifiers
from deckcheck.catalog import CardIndex
from deckcheck.check import validate
from deckcheck.decks import Deck, Entry, build_deck
from deckcheck.games import get_format, parse_text
from deckcheck.games.highlander.view import HighlanderView

# Decks holding what the rule tables' decks never hold, made of the cards `keyed` adds: a card of another Persona
# of unknown Signature (in a Generic Immortal's deck, and in Alpha's), a Pre-Game card of unknown Hand icons.
HOLDING: list[Case] = [("holds-unsigned-generic", "type1e", {}, "", "Beta Unsigned", ()),
                      ("holds-unsigned-alpha", "type1e", {}, "Alpha Persona", "Beta Unsigned", ()),
                      ("holds-vague-relic", "type2", {}, "Alpha Persona\nVague Relic", "", ())]
CASES = cases() + HOLDING
IDS = [c[0] for c in CASES]


def keyed(by_id: dict[str, Card]) -> list[Card]:
    """What tells apart the keys of the rules (Rule.same_for): beside a card of each value a key reads, one of an
    unknown value, and what a key must tell apart."""
    return [
        dataclasses.replace(by_id["T-BS"], id="T-BS-unsigned", name="Beta Unsigned", title="Unsigned",
                            signature=None),
        dataclasses.replace(by_id["T-BML"], id="T-BML-unsigned", name="Beta Master's Doubt", title="Master's Doubt",
                            signature=None, reserved=False),
        dataclasses.replace(by_id["T-BML"], id="T-BML-signed", name="Beta Master's Oath", title="Master's Oath",
                            signature=True),  # Master, Reserved, never let in
        dataclasses.replace(by_id["T-BS"], id="T-BS-shouted", name="BETA Shout", title="Shout",
                            immortal="BETA"),  # Beta to the Premiums, another Immortal's issue to HL-OTHER-PERSONA
        dataclasses.replace(by_id["T-R1"], id="T-R-vague", name="Vague Relic", title="Vague Relic", hand_icons=None),
        dataclasses.replace(by_id["T-SW"], id="T-SW-vague", name="Vague Sword Pre-Game", title="Vague Sword Pre-Game",
                            hand_icons=None),
        dataclasses.replace(by_id["T-AX"], id="T-AX-handless", name="Handless Axe Pre-Game",
                            title="Handless Axe Pre-Game", hand_icons=0),
        dataclasses.replace(by_id["T-FA"], id="T-FA-lean", name="Lean Event", title="Lean Event",
                            modifiers=parse_modifiers("deck_min=48")),  # a modifier, no Pre-Game card
    ]


@pytest.fixture(scope="module")
def index(synthetic_cards) -> CardIndex:
    """The synthetic cards and the keyed ones, which the HOLDING decks hold."""
    return CardIndex([*synthetic_cards, *keyed({c.id: c for c in synthetic_cards})])


@pytest.fixture(scope="module")
def candidates(synthetic_cards) -> list[Card]:
    """Every synthetic card, and what the decks reach only with a card they do not hold already: another printing
    of a card (a title at its max, a Restriction number reached, a Generic Immortal's one copy, a unique
    Pre-Game title, a Reserved Master card Delta's master_any_persona lets in), a Basic Attack of unknown grid, a
    modifier raising the Endurance's minimum; and what tells apart the keys of the rules (Rule.same_for)."""
    by_id = {c.id: c for c in synthetic_cards}
    reprints = [dataclasses.replace(by_id[i], id=f"{i}-again", set="Again")
                for i in ("T-THR", "T-LIM", "T-AS", "T-UR", "T-BML")]
    return [*synthetic_cards, *reprints, dataclasses.replace(by_id["T-ULA"], id="T-ULA-blurred", grid=None),
            dataclasses.replace(by_id["T-LD1"], id="T-LD-heavy", name="Heavy Deck", title="Heavy Deck",
                                modifiers=parse_modifiers("deck_min=60")), *keyed(by_id)]


@cache
def deck_of(index, case_id: str):
    """The case's deck (one entry a card and section, as a search adds to it) and its format."""
    _name, fmt_name, params, pregame, add, remove = next(c for c in CASES if c[0] == case_id)
    fmt = get_format(fmt_name)
    if params:
        fmt = dataclasses.replace(fmt, params=dataclasses.replace(fmt.params, **params))
    deck, problems = build_deck(parse_text(deck_text(pregame, add, remove), "t"), index, fmt)
    assert not problems, problems
    return Deck.from_entries((e.card, e.section, e.quantity) for e in deck.entries), fmt


def tally(issues) -> tuple[Counter, int]:
    return Counter(i.rule for i in issues if i.severity == "error"), sum(1 for i in issues if i.undecided is not None)


def plus(deck: Deck, card, section: str) -> Deck:
    return Deck.from_entries([(e.card, e.section, e.quantity) for e in deck.entries] + [(card, section, 1)])


@pytest.mark.parametrize("case_id", IDS)
def test_may_change_keeps_its_promise(case_id, index, candidates):
    deck, fmt = deck_of(index, case_id)
    view = fmt.view(deck, fmt.params)
    held = {(e.card.id, e.section) for e in deck.entries}
    said_no = 0
    for card in candidates:
        section = fmt.section_of(None, card)
        if (card.id, section) in held:
            continue  # one more copy on a line of the deck: Additions validate the deck whole
        after = fmt.view(plus(deck, card, section), fmt.params)
        for rule in fmt.rules:
            assert rule.may_change is not None, rule.id  # every Highlander rule says what may change it
            if rule.may_change(view, card, section):
                continue
            said_no += 1
            errors, undecided = tally(rule(view))
            errors_after, undecided_after = tally(rule(after))
            assert not errors_after - errors and undecided_after == undecided, (rule.id, card.id)
    assert said_no


@pytest.mark.parametrize("case_id", IDS)
def test_same_for_keeps_its_promise(case_id, index, candidates):
    """Two cards of one key (Rule.same_for) that may change a rule make it say the same of the deck plus either:
    as many errors, as many undecided issues."""
    deck, fmt = deck_of(index, case_id)
    view = fmt.view(deck, fmt.params)
    held = {(e.card.id, e.section) for e in deck.entries}
    said: dict[tuple[str, object], tuple[str, tuple]] = {}
    shared = 0
    for card in candidates:
        section = fmt.section_of(None, card)
        if (card.id, section) in held:
            continue
        after = None
        for rule in fmt.rules:
            if rule.same_for is None or not rule.may_change or not rule.may_change(view, card, section):
                continue
            key = rule.same_for(view, card, section)
            if key is None:
                continue
            after = after or fmt.view(plus(deck, card, section), fmt.params)
            errors, undecided = tally(rule(after))
            first = said.setdefault((rule.id, key), (card.id, (sorted(errors.items()), undecided)))
            assert first[1] == (sorted(errors.items()), undecided), (rule.id, key, first[0], card.id)
            shared += first[0] != card.id
    assert shared


@pytest.mark.parametrize("case_id", IDS)
def test_additions_are_the_plain_validation(case_id, index, candidates):
    deck, fmt = deck_of(index, case_id)
    additions = Additions(deck, fmt)
    errors, undecided = tally(validate(deck, fmt).issues)
    for card in candidates:
        section = fmt.section_of(None, card)
        errors_after, undecided_after = tally(validate(plus(deck, card, section), fmt).issues)
        want = (tuple(sorted(r for r, n in errors_after.items() if n > errors[r])), undecided_after > undecided)
        assert additions.of(card, section) == want, card.id


def groups(view: HighlanderView) -> dict:
    """What a HighlanderView holds, entries by identity (a lazy value is made on first use: compared too)."""
    ids = lambda entries: [id(e) for e in entries]  # noqa: E731
    return {"entries": ids(view.deck.entries), "endurance": ids(view.endurance), "pregame": ids(view.pregame),
            "specific": ids(view.specific), "personas": ids(view.personas), "title_count": view.title_count,
            "by_type": {k: ids(v) for k, v in view.by_type.items()}, "modifiers": view.modifiers,
            "place": view.place, "counts": (view.endurance_count, view.pregame_count), "persona": view.persona,
            "persona_key": view.persona_key, "restricted_ids": view.restricted_ids, "others": ids(view.others),
            "by_title": {k: ids(v) for k, v in view.by_title.items()}, "deck_min": view.deck_min,
            "woc_max": view.woc_max, "pregame_extra": view.pregame_extra, "grants": view.grants,
            "foreign": [{k: [(id(e), n) for e, n in v] for k, v in side.items()} for side in view.foreign]}


@pytest.mark.parametrize("case_id", IDS[::7])
def test_plus_is_the_view_of_the_deck_plus_the_entry(case_id, index, candidates):
    deck, fmt = deck_of(index, case_id)
    view = fmt.view(deck, fmt.params)
    before = groups(view)
    for card in candidates:
        entry = Entry(card, 1, fmt.section_of(None, card))
        extended = view.plus(entry)
        assert groups(extended) == groups(HighlanderView(Deck(entries=[*deck.entries, entry]), fmt.params)), card.id
    assert groups(view) == before  # the deck's own view is left as it was


def test_reserved_is_changed_by_reserved_cards_and_quota_takers(synthetic_index):
    """HL-RESERVED runs again for a card of another Persona that is Reserved or of unknown mark; one known not to
    be Reserved only where it may take, by name, the quota that lets in a card of unknown mark."""
    def asks(pregame: str, add: str, card_id: str) -> bool:
        fmt = get_format("type1e")
        deck, problems = build_deck(parse_text(deck_text(pregame, add, ()), "t"), synthetic_index, fmt)
        assert not problems, problems
        reserved = next(r for r in fmt.rules if r.id == "HL-RESERVED")
        card = synthetic_index.by_id(card_id)
        assert reserved.may_change is not None and card is not None
        section = fmt.section_of(None, card)
        assert section is not None
        return reserved.may_change(fmt.view(deck, fmt.params), card, section)
    assert [asks("Alpha Persona", "", c) for c in ("T-BS", "T-BR", "T-VR", "T-AS")] == [False, True, True, False]
    assert asks("Gamma Persona", "Beta Strike", "T-FA") is False
    assert asks("Gamma Persona", "Beta Vague Secret", "T-BS")  # Beta Strike sorts first: it takes the quota
    assert not asks("Delta Persona", "Beta Vague Secret", "T-BS")  # no quota: Delta lets in Master cards alone


@pytest.mark.parametrize("case_id", IDS[::5])
def test_each_rule_runs_once_for_each_card_it_may_change_and_a_keyed_one_once_per_key(case_id, index,
                                                                                      candidates):
    """What the Additions save: a rule runs again only for the cards its may_change lets through, and one with a
    key (same_for) once for each key (a card of key None alone), however many cards share it."""
    deck, fmt = deck_of(index, case_id)
    runs: Counter = Counter()

    def counted(rule):
        def check(view):
            runs[rule.id] += 1
            return rule.check(view)
        return dataclasses.replace(rule, check=check)
    counting = dataclasses.replace(fmt, rules=tuple(counted(r) for r in fmt.rules))
    additions = Additions(deck, counting)
    view = fmt.view(deck, fmt.params)
    held = {(e.card.id, e.section) for e in deck.entries}
    runs.clear()
    expected: Counter = Counter()
    keys: set = set()
    for card in candidates:
        section = fmt.section_of(None, card)
        if (card.id, section) in held:
            continue
        additions.of(card, section)
        for rule in fmt.rules:
            if not rule.may_change(view, card, section):
                continue
            key = rule.same_for(view, card, section) if rule.same_for else None
            if key is None or (rule.id, key) not in keys:
                expected[rule.id] += 1
                keys.add((rule.id, key))
    assert runs == expected
    assert any(rule.same_for and expected[rule.id] < sum(1 for c in candidates if rule.may_change(
        view, c, fmt.section_of(None, c)) and (c.id, fmt.section_of(None, c)) not in held) for rule in fmt.rules)


def test_a_view_without_plus_is_made_anew_for_each_card(sheet_index):
    """A game whose view offers no `plus` (The Raven and the Stormcrow): the deck plus each card of its sheet is
    viewed anew, and the Additions are the plain validation."""
    index = sheet_index("examples/other-games/raven-stormcrow-cards.csv")
    fmt = get_format("raven-stormcrow")
    text = ("Hunters:\nRanger Ann\nOld Marek\nItems:\nLongbow\nPrey:\nMarsh Wolf\nCombat:\n10 Quick Strike\n"
            "10 Parry\n8 Deep Cut\n8 Graze\n3 Broken Arm")
    built, problems = build_deck(parse_text(text, "group"), index, fmt)
    assert not problems, problems
    deck = Deck.from_entries((e.card, e.section, e.quantity) for e in built.entries)
    assert not hasattr(fmt.view(deck, fmt.params), "plus")
    additions = Additions(deck, fmt)
    errors, undecided = tally(validate(deck, fmt).issues)
    answers = set()
    for card in index.cards:
        section = fmt.section_of(None, card)
        assert section is not None, card.id
        errors_after, undecided_after = tally(validate(plus(deck, card, section), fmt).issues)
        want = (tuple(sorted(r for r, n in errors_after.items() if n > errors[r])), undecided_after > undecided)
        assert additions.of(card, section) == want, card.id
        answers.add(want)
    assert len(answers) > 1


def test_one_more_copy_on_a_line_of_the_deck_is_one_copy(synthetic_index):
    """A card the deck holds is checked whole with one copy more on its line: a 6th Thrust and a 2nd Limited Event
    (Restriction 2) are taken, a 7th and a 3rd are not."""
    fmt = get_format("type1e")
    thrust, limited = synthetic_index.by_id("T-THR"), synthetic_index.by_id("T-LIM")

    def effects(add: str) -> list[tuple[tuple[str, ...], bool]]:
        built, problems = build_deck(parse_text(deck_text("Alpha Persona", add, ()), "t"), synthetic_index, fmt)
        assert not problems, problems
        additions = Additions(Deck.from_entries((e.card, e.section, e.quantity) for e in built.entries), fmt)
        return [additions.of(card, "Endurance") for card in (thrust, limited)]
    assert effects("2 Thrust\nLimited Event") == [((), False), ((), False)]
    assert effects("3 Thrust\n2 Limited Event") == [(("HL-TITLE-MAX",), False), (("HL-RESTRICTED",), False)]
