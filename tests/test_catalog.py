"""Name resolution on the real bundled cards: exact names, Immortal prefix/brackets, versions, ambiguity."""
from __future__ import annotations

import pytest

from deckcheck.catalog import CardIndex
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


def test_unknown_set_lists_the_closest(bundled_index):
    with pytest.raises(CardNotFoundError, match=r"unknown set 'Movie Editoin'; closest sets: ME \(Movie Edition\)"):
        bundled_index.resolve("Thrust", "Movie Editoin")
    with pytest.raises(CardNotFoundError, match="no printing in set WC; printed in AT, ME, SE, TIN"):
        bundled_index.resolve("Thrust", "WC")


@pytest.mark.parametrize("written_set", ["ME", "me", "Movie Edition", "movie  edition", "The Movie Edition"])
def test_a_set_by_code_or_name(bundled_index, written_set):
    assert bundled_index.resolve("Upper Left Attack (2)", written_set).set == "ME"


@pytest.mark.parametrize("written_set", ["Watcher's Chronicle", "The Watchers Chronicle", "wc"])
def test_the_is_optional_and_apostrophes_are_deleted(bundled_index, written_set):
    assert bundled_index.resolve("Back Away (Kern)", written_set).set == "WC"


@pytest.mark.parametrize("written,card_name", [
    ("Thrust [ME]", "Thrust"),  # forms within the set: the ME Thrusts are pictures of one card
    ("Lower Right Block [SE]", "Lower Right Block"),
    ("Duncan MacLeod Persona [DC]", "Duncan MacLeod Persona"),
    ("Duncan MacLeod Persona [Connor vs. Duncan]", "Duncan MacLeod Persona"),
    ("Duncan MacLeod's Master's Dodge", None),
    ("Verona, Italy 1637", "Verona, Italy 1637"),  # a number that is part of the printed name
])
def test_lookup_reads_the_set_form_everywhere(bundled_index, written, card_name):
    if card_name is None:
        with pytest.raises(CardNotFoundError):
            bundled_index.lookup(written)
        return
    card = bundled_index.lookup(written)
    assert card.title in card_name or card.name == card_name


@pytest.mark.parametrize("written", ["Upper Right Attack 2", "Upper Right Attack - 2", "Upper Right Attack -2"])
def test_a_bare_trailing_number_is_refused_with_both_ways(bundled_index, written):
    with pytest.raises(CardNotFoundError) as exc:
        bundled_index.resolve(written)
    assert '"2 Upper Right Attack"' in str(exc.value) and '"Upper Right Attack (2)"' in str(exc.value)


def test_apostrophes_are_deleted_other_punctuation_is_a_space(bundled_index):
    card = bundled_index.resolve("Duncan MacLeod Master's Dodge")
    assert bundled_index.resolve("Duncan MacLeod Masters Dodge") is card
    assert bundled_index.resolve("DUNCAN-MACLEOD  MASTER’S DODGE") is card


def test_the_decks_persona_reads_a_shared_title(bundled_index):
    from deckcheck.catalog import Context
    card = bundled_index.resolve("Dodge", context=Context(persona="duncan macleod"))
    assert card.name == "Duncan MacLeod Dodge"
    with pytest.raises(CardNotFoundError, match="ambiguous"):  # Kern has no Dodge: still ambiguous
        bundled_index.resolve("Dodge", context=Context(persona="kern"))


@pytest.mark.parametrize("persona,first", [("richie ryan", "Richie Ryan Dodge"), ("xavier st cloud",
                                                                                  "Xavier St. Cloud Dodge")])
def test_candidates_put_the_decks_persona_first(bundled_index, persona, first):
    from deckcheck.catalog import Context
    candidates = bundled_index.candidates(bundled_index.matches("Dodge"), Context(persona=persona))
    assert candidates[0].write_as == first and len(candidates) == 14


def test_type1e_reads_first_edition_cards_first(bundled_index):
    from deckcheck.catalog import Context
    assert bundled_index.resolve("Duncan MacLeod Persona", context=Context(edition=1)).edition == 1
    assert bundled_index.resolve("Duncan MacLeod Persona", context=Context(edition=2)).edition == 2


def test_every_suggestion_resolves_as_written(bundled_index):
    from deckcheck.catalog import Context
    for written in ("Duncan MacLeod Persona", "Back Away", "Dodge", "Duncan Back Away", "Uper Left Atack"):
        with pytest.raises(CardNotFoundError) as exc:
            bundled_index.resolve(written, context=Context(edition=None))
        assert exc.value.suggestions, written
        for suggestion in exc.value.suggestions:
            bundled_index.lookup(suggestion)  # raises if the suggestion cannot be written so


def test_unknown_names_suggest_by_shared_words(bundled_index):
    with pytest.raises(CardNotFoundError) as exc:
        bundled_index.resolve("Duncan Back Away")
    assert exc.value.suggestions[0] == "Duncan MacLeod Back Away"


def test_suggestions_do_bounded_work_per_name(bundled_index, monkeypatch):
    """However long or strange the name, at most SUGGESTION_CANDIDATES names are scored closely."""
    from deckcheck import catalog
    seen: list[int] = []

    def closest(text: str, names: list[str], limit: int) -> list[str]:
        seen.append(len(names))
        return []
    index = catalog.CardIndex(bundled_index.cards, closest)
    for text in ("a" + " " * 200_000 + "b", "attack " * 1000, "x" * 50_000, "Upper Left Atack", "zzzz"):
        index.suggest(text)
    assert seen and max(seen) <= catalog.SUGGESTION_CANDIDATES



def test_a_request_during_the_word_index_build_waits_for_it(bundled_index, monkeypatch):
    """A server's request threads share one index: a suggestion asked while another thread is building
    the word index gets the same answer as asked alone (the index is seen only when whole)."""
    import threading

    from deckcheck import catalog
    expected = catalog.CardIndex(bundled_index.cards, sets=bundled_index.sets).suggest("Conor MacLeod Persona")
    index = catalog.CardIndex(bundled_index.cards, sets=bundled_index.sets)
    building, second_done = threading.Event(), threading.Event()
    trigrams = catalog._trigrams

    def slow_trigrams(word: str):
        if not building.is_set():  # the builder pauses at its first trigram until the other request ran
            building.set()
            second_done.wait(timeout=1)
        return trigrams(word)

    monkeypatch.setattr(catalog, "_trigrams", slow_trigrams)
    results: dict[str, object] = {}

    def ask(who: str) -> None:
        try:
            results[who] = index.suggest("Conor MacLeod Persona")
        except Exception as exc:  # noqa: BLE001 - a thread's exception is a result the test looks at
            results[who] = exc
        if who == "second":
            second_done.set()

    first = threading.Thread(target=ask, args=("first",))
    first.start()
    assert building.wait(timeout=10)
    second = threading.Thread(target=ask, args=("second",))
    second.start()
    first.join()
    second.join()
    assert results == {"first": expected, "second": expected}


def test_a_fact_stated_for_one_printing_is_the_cards_and_two_values_are_a_conflict_not_two_cards():
    """Printings of one card key are one card for a line that names no set: a fact one printing states is the
    card's (a reprint carries the card's facts); a fact two printings state differently is unknown (a conflict),
    never an ambiguous name."""
    from deckcheck.cards import Card, as_one_card, card_groups, conflicts, one_card, same_card
    se = Card(id="SE-x", name="X", title="X", set="SE", type="Attack", signature=False, restriction=2)
    tin = Card(id="TIN-x", name="X", title="X", set="TIN", type="Attack", signature=None, restriction=2)
    other = Card(id="OTH-x", name="X", title="X", set="OTH", type="Attack", signature=True, restriction=None,
                 hand_icons=None)
    assert same_card([se, tin]) and not same_card([se, other]) and one_card([se, tin, other])
    assert conflicts([se, tin, other]) == ["signature"]
    one = as_one_card([tin, se])
    assert (one.id, one.signature, one.restriction) == ("TIN-x", False, 2) and as_one_card([tin, se]) is one
    mixed = as_one_card([other, se])
    assert (mixed.id, mixed.signature, mixed.restriction, mixed.hand_icons) == ("OTH-x", None, 2, 0)
    assert [[c.id for c in g] for g in card_groups([se, tin, other])] == [["SE-x", "TIN-x", "OTH-x"]]
    index = CardIndex([se, tin])
    assert index.resolve("X").signature is False and index.resolve("X", "TIN").signature is None
    assert CardIndex([se, other]).resolve("X").signature is None


def test_a_changed_copy_of_a_card_computes_its_own_keys(bundled_index):
    """dataclasses.replace gives a card a fresh cache: a copy with another restriction (or any rules field) is
    not the same card for a decklist, even when the original's keys were computed before the copy was made."""
    from dataclasses import replace

    from deckcheck.cards import as_one_card
    card = bundled_index.resolve("Thrust")
    before, key = card.rules_key, card.card_key
    changed = replace(card, restriction=(card.restriction or 0) + 1)
    assert changed.rules_key != before and changed.card_key == key  # restriction is a printing's fact
    retyped = replace(card, type="Block")
    assert retyped.rules_key != before and retyped.card_key != key
    other = replace(card, restriction=(card.restriction or 0) + 2)
    assert as_one_card([changed, other]).restriction is None  # the printings disagree: unknown, not the first's
    assert card.rules_key == before  # the original's keys stay its own



def test_a_search_made_again_finds_the_same_cards_and_a_kept_index_keeps_no_searches(bundled_index):
    import pickle
    index = CardIndex(bundled_index.cards, sets=bundled_index.sets)
    first = index.search("lower block")
    assert first and all("Block" in (c.type or "") or "block" in c.name.casefold() for c in first[:5])
    again = index.search("lower block")
    assert again == first and again is not first  # a copy: a caller's sort or filter changes nothing kept
    again.clear()
    assert index.search("lower block") == first
    assert index.search("lower blokc")[:3] == first[:3]  # another text is searched anew (a typo too)
    kept = pickle.loads(pickle.dumps(index.searcher))
    assert kept._found.get("lower block") is None and kept.search("lower block") == first
