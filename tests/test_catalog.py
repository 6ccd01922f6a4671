"""Name resolution on the real bundled cards: exact names, Immortal prefix/brackets, versions, ambiguity."""
from __future__ import annotations

import pytest

from deckcheck.errors import CardNotFoundError


@pytest.mark.parametrize("written,card_id", [
    ("Connor MacLeod Back Away", "SE-connor-macleod-back-away"),
    ("connor macleod  back-away", "SE-connor-macleod-back-away"),
    ("Back Away (Kern)", "WC-back-away-kern"),
    ("Kern Back Away", "WC-back-away-kern"),
    ("Upper Left Attack (2)", "ME-upper-left-attack-2"),
    ("Upper Left Attack", "SE-upper-left-attack"),
    ("Katana Sword Quality Blade", "AT-katana-sword-quality-blade"),
    ("Quality Blade (Katana Sword)", "AT-katana-sword-quality-blade"),
    ("Persona (Kalas)", "WC-persona-kalas"),
    ("Kalas Persona", "WC-persona-kalas"),
    ("Quickening (Kurgan)", "OTH-quickening-kurgan"),
    ("The Kurgan Quickening", "OTH-quickening-kurgan"),
])
def test_written_forms_resolve(bundled_index, written, card_id):
    assert bundled_index.resolve(written).id == card_id


def test_printings_that_differ_only_in_set_are_one_card(bundled_index):
    card = bundled_index.resolve("Connor MacLeod Persona")
    assert card.name == "Connor MacLeod Persona" and card.gem_master == 7
    assert bundled_index.resolve("Connor MacLeod Persona", "TIN").set == "TIN"


def test_version_left_out_when_the_versions_are_pictures(bundled_index):
    assert bundled_index.resolve("Middle Left Attack (Version 2)").title == "Middle Left Attack"
    # only ME (1)-(3) and AT (Version 1)-(3) are named so: pictures of one card
    card = bundled_index.resolve("Lower Center Block", "ME")
    assert card.set == "ME" and card.grid_inferred
    assert bundled_index.resolve("Lower Center Block").set == "SE"  # the exact name wins


def test_ambiguous_title_lists_how_to_write_each(bundled_index):
    with pytest.raises(CardNotFoundError) as exc:
        bundled_index.resolve("Back Away")
    assert "ambiguous" in str(exc.value)
    assert "Back Away (Kern)" in exc.value.suggestions
    assert "Connor MacLeod Back Away" in exc.value.suggestions


def test_effect_versions_are_ambiguous(bundled_index):
    with pytest.raises(CardNotFoundError) as exc:
        bundled_index.resolve("Cat and Mouse")
    assert "Cat and Mouse (draw a card)" in exc.value.suggestions


def test_editions_are_ambiguous_until_a_set_is_named(bundled_index):
    with pytest.raises(CardNotFoundError) as exc:
        bundled_index.resolve("Duncan MacLeod Persona")
    assert "Duncan MacLeod Persona [Connor vs. Duncan]" in exc.value.suggestions
    assert bundled_index.resolve("Duncan MacLeod Persona", "Connor vs. Duncan").edition == 2


def test_unknown_name_suggests_the_closest(bundled_index):
    with pytest.raises(CardNotFoundError) as exc:
        bundled_index.resolve("Conor McLeod Back Away")
    assert "Connor MacLeod Back Away" in exc.value.suggestions


def test_unknown_set(bundled_index):
    with pytest.raises(CardNotFoundError, match="no printing in set XX; printed in AT, ME, SE, TIN"):
        bundled_index.resolve("Thrust", "XX")
