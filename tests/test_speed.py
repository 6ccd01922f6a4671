"""Speed that is the design (issue 35): a catalogue reads each name once, however many decks name it."""
from __future__ import annotations

import pytest

from deckcheck import catalog
from deckcheck.catalog import CardIndex, NameMiss


def test_a_name_resolved_again_picks_its_printings_once(bundled_index, monkeypatch):
    index = CardIndex(bundled_index.cards, sets=bundled_index.sets)
    picks = []
    real = catalog._pick

    def counted(found, context):
        picks.append(found)
        return real(found, context)
    monkeypatch.setattr(catalog, "_pick", counted)
    first = index.resolve("Thrust")
    assert all(index.resolve("Thrust") is first for _ in range(50))
    assert len(picks) == 1


def test_a_miss_read_again_is_the_same_miss_raised_afresh(bundled_index, monkeypatch):
    index = CardIndex(bundled_index.cards, sets=bundled_index.sets)
    looked = []
    real = index._found

    def counted(*args):
        looked.append(args)
        return real(*args)
    monkeypatch.setattr(index, "_found", counted)
    errors = []
    for _ in range(3):
        with pytest.raises(NameMiss) as caught:
            index.resolve("Conor McLeod Back Away", suggest=False)
        errors.append(caught.value)
    assert len(looked) == 1
    assert len({id(e) for e in errors}) == 3 and len({str(e) for e in errors}) == 1
    with pytest.raises(NameMiss) as asked:  # asked with suggestions, a remembered miss is looked up for them
        index.resolve("Conor McLeod Back Away")
    assert asked.value.suggestions and len(looked) > 1
