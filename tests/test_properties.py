"""Properties of the validator over generated decks (hypothesis)."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckcheck.check import validate
from deckcheck.decks import Deck
from deckcheck.formats import get_format


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
def test_report_lists_every_violation_at_once(synthetic_cards, data, fmt):
    deck = data.draw(decks(synthetic_cards))
    report = validate(deck, fmt)
    view = get_format(fmt).view(deck, get_format(fmt).params)
    for rule in get_format(fmt).rules:
        alone = [i for i in rule(view)]
        assert all(i in report.issues for i in alone)
    assert report.legal == (not report.errors)


@SETTINGS
@given(data=st.data())
def test_adding_a_copy_never_fixes_title_max(synthetic_cards, data):
    deck = data.draw(decks(synthetic_cards))
    before = "HL-TITLE-MAX" in rules_of(validate(deck, "type1e"))
    if not before or not deck.entries:
        return
    entry = data.draw(st.sampled_from(deck.entries))
    more = copy_deck(deck)
    more.add(entry.card, 1, entry.section)
    assert "HL-TITLE-MAX" in rules_of(validate(more, "type1e"))


@SETTINGS
@given(data=st.data(), fmt=st.sampled_from(["type1e", "type2"]))
def test_removing_a_card_never_fixes_deck_min(synthetic_cards, data, fmt):
    deck = data.draw(decks(synthetic_cards))
    if "HL-DECK-MIN" not in rules_of(validate(deck, fmt)):
        return
    endurance = [e for e in deck.entries if e.section == "Endurance" and not e.card.modifiers]
    if not endurance:
        return
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
    if sum(e.card.is_persona for e in deck.entries) > 1:
        return
    shuffled = Deck(source=deck.source)
    for e in data.draw(st.permutations(deck.entries)):
        shuffled.add(e.card, e.quantity, e.section)
    a, b = validate(deck, fmt), validate(shuffled, fmt)
    assert {(i.rule, i.severity, i.limit, i.actual, frozenset(i.cards)) for i in a.issues} == \
           {(i.rule, i.severity, i.limit, i.actual, frozenset(i.cards)) for i in b.issues}
