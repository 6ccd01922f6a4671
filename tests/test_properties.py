"""Properties of the validator over generated decks (hypothesis): metamorphic relations, not re-implementations."""
from __future__ import annotations

import dataclasses

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from deckcheck.check import validate
from deckcheck.decks import Deck
from deckcheck.games import get_format


@st.composite
def decks(draw, cards):
    deck = Deck(source="generated")
    for card in draw(st.lists(st.sampled_from(cards), max_size=40)):
        section = "Pre-Game" if card.is_pregame else "Endurance"
        if draw(st.integers(0, 9)) == 0:
            section = "Endurance" if section == "Pre-Game" else "Pre-Game"
        deck.add(card, draw(st.integers(1, 8)), section)
    return deck


def rules_of(report, severity="error"):
    return {i.rule for i in report.issues if i.severity == severity}


def copy_deck(deck: Deck) -> Deck:
    new = Deck(source=deck.source)
    for e in deck.entries:
        new.add(e.card, e.quantity, e.section)
    return new


SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(data=st.data(), fmt=st.sampled_from(["type1e", "type2"]))
def test_issues_name_only_cards_of_the_deck(synthetic_cards, data, fmt):
    deck = data.draw(decks(synthetic_cards))
    names = {e.card.name for e in deck.entries}
    for issue in validate(deck, fmt).issues:
        assert set(issue.cards) <= names, issue
        assert issue.rule and issue.message


@SETTINGS
@given(data=st.data(), fmt=st.sampled_from(["type1e", "type2"]))
def test_renaming_the_sets_never_changes_a_verdict(synthetic_cards, data, fmt):
    deck = data.draw(decks(synthetic_cards))
    renamed = Deck(source=deck.source)
    for e in deck.entries:
        renamed.add(dataclasses.replace(e.card, set="ZZ"), e.quantity, e.section)
    assert validate(renamed, fmt).issues == validate(deck, fmt).issues


@SETTINGS
@given(data=st.data(), fmt=st.sampled_from(["type1e", "type2"]), extra=st.integers(1, 3))
def test_a_higher_limit_never_adds_errors_of_its_rule(synthetic_cards, data, fmt, extra):
    deck = data.draw(decks(synthetic_cards))
    base = get_format(fmt)
    pregame_rule = "HL1-PREGAME-MAX" if fmt == "type1e" else "HL2-PREGAME-MAX"
    for param, rule_id in (("title_max", "HL-TITLE-MAX"), ("pregame_max", pregame_rule),
                           ("woc_max", "HL-WOC-COUNT"), ("hand_max", "HL-HAND-ICONS")):
        looser = dataclasses.replace(base, params=dataclasses.replace(
            base.params, **{param: getattr(base.params, param) + extra}))
        before = [i for i in validate(deck, base).errors if i.rule == rule_id]
        after = [i for i in validate(deck, looser).errors if i.rule == rule_id]
        assert len(after) <= len(before)
        assert all(i.actual is not None and i.limit is not None and i.actual > i.limit for i in after)


@SETTINGS
@given(data=st.data(), fmt=st.sampled_from(["type1e", "type2"]))
def test_adding_an_endurance_card_never_adds_a_deck_min_error(synthetic_cards, data, fmt):
    deck = data.draw(decks(synthetic_cards))
    assume(not any(e.card.modifiers for e in deck.entries))
    filler = next(c for c in synthetic_cards if c.name == "Filler A")
    more = copy_deck(deck)
    more.add(filler, 1, "Endurance")
    assert "HL-DECK-MIN" not in rules_of(validate(more, fmt)) - rules_of(validate(deck, fmt))


@SETTINGS
@given(data=st.data())
def test_adding_a_copy_never_fixes_title_max(synthetic_cards, data):
    deck = data.draw(decks(synthetic_cards))
    assume("HL-TITLE-MAX" in rules_of(validate(deck, "type1e")))
    entry = data.draw(st.sampled_from(deck.entries))
    more = copy_deck(deck)
    more.add(entry.card, 1, entry.section)
    assert "HL-TITLE-MAX" in rules_of(validate(more, "type1e"))


@SETTINGS
@given(data=st.data(), fmt=st.sampled_from(["type1e", "type2"]))
def test_removing_a_card_never_fixes_deck_min(synthetic_cards, data, fmt):
    deck = data.draw(decks(synthetic_cards))
    assume("HL-DECK-MIN" in rules_of(validate(deck, fmt)))
    endurance = [e for e in deck.entries if e.section == "Endurance" and not e.card.modifiers]
    assume(endurance)
    entry = data.draw(st.sampled_from(endurance))
    fewer = copy_deck(deck)
    for e in fewer.entries:
        if e.card.id == entry.card.id and e.section == entry.section:
            e.quantity -= 1
    fewer.entries = [e for e in fewer.entries if e.quantity > 0]
    assert "HL-DECK-MIN" in rules_of(validate(fewer, fmt))


@SETTINGS
@given(data=st.data(), fmt=st.sampled_from(["type1e", "type2"]))
def test_validation_is_deterministic_and_order_free(synthetic_cards, data, fmt):
    """The written order changes nothing (but which of two Persona cards is played: the first written)."""
    deck = data.draw(decks(synthetic_cards))
    assume(sum(e.card.is_persona for e in deck.entries) <= 1)
    shuffled = Deck(source=deck.source)
    for e in data.draw(st.permutations(deck.entries)):
        shuffled.add(e.card, e.quantity, e.section)
    a, b = validate(deck, fmt), validate(shuffled, fmt)
    assert {(i.rule, i.severity, i.limit, i.actual, frozenset(i.cards)) for i in a.issues} == \
           {(i.rule, i.severity, i.limit, i.actual, frozenset(i.cards)) for i in b.issues}
