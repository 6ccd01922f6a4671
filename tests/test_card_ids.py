"""The interned ids of cards (Card.specific_id, Card.owner_title_id): a long-running server's table of them holds
the keys of the cards it still holds, not of every card it ever read, and two keys alive never share an id."""
from __future__ import annotations

import copy
import gc
import pickle

import pytest

from deckcheck.cards import Card, interned_keys
from deckcheck.catalog import CardIndex
from deckcheck.cardsheet import cards_from_rows
from deckcheck.check import validate
from deckcheck.decks import build_deck
from deckcheck.games import get_format, parse_text


def a_strangers_sheet(n: int, size: int = 20) -> list[Card]:
    """The cards of a card sheet someone uploads: restricted Events and Immortal Specific cards nobody else has."""
    rows = [(i + 2, {"name": f"Stranger {n} Card {i}", "set_code": "ZZ", "type": "Event", "restriction": "1",
                     "immortal": "Connor MacLeod" if i % 2 else ""}) for i in range(size)]
    cards, problems = cards_from_rows(rows, f"sheet-{n}.csv")
    assert not problems and len(cards) == size
    return cards


def check_with(cards: list[Card]) -> None:
    """What the server does with such a sheet: an index of its cards, a deck of them checked."""
    fmt = get_format("type1e")
    index = CardIndex(cards)
    text = "Endurance:\n" + "".join(f"2 {c.name}\n" for c in cards)
    deck, problems = build_deck(parse_text(text, "upload"), index, fmt)
    assert not problems
    report = validate(deck, fmt)
    assert {i.rule for i in report.issues} >= {"HL-RESTRICTED"}  # the rules read the ids of these cards


def test_the_ids_of_cards_no_longer_held_are_forgotten():
    """Before, every card key ever made stayed in a module-level table (two per card: its specific card, its
    Immortal and title): 50 sheets of 20 new cards grew it by 2,000 keys, and a server never freed them."""
    check_with(a_strangers_sheet(0))
    gc.collect()
    before = interned_keys()
    for n in range(1, 51):
        check_with(a_strangers_sheet(n))
    gc.collect()
    assert interned_keys() <= before
    held = a_strangers_sheet(51)  # the keys of cards still held stay
    assert interned_keys() == before + 2 * len(held)


def test_two_keys_alive_never_share_an_id_and_one_key_has_one():
    """Cards made while others are freed (an id's key forgotten, then new keys interned): of the cards alive, the
    same specific card has the same id (identical: a rule's set finds it) and two different ones never an equal
    id, nor the same owner and title; more keys than any bounded memo holds stay interned while their cards live."""
    rounds: list[list[Card]] = []
    for round_ in range(20):
        rounds.append([Card(id=f"r{round_}-{i}", name=f"Card {round_}-{i}", title=f"Card {round_}-{i}",
                            type="Event", immortal=("Kurgan", None)[i % 2], version=str(i % 3)) for i in range(500)])
        if round_ % 3 == 1:
            rounds[round_ - 1] = []  # the round before is freed once this one's keys came: ids below theirs go
    held = [card for cards in rounds for card in cards]
    by_key: dict[object, Card] = {}
    for card in held:
        by_key.setdefault(card.specific_key, card)
    assert len(by_key) == 6500
    assert len({c.specific_id for c in by_key.values()}) == len(by_key)
    ids = [c.specific_id for c in by_key.values()]
    owners = {(c.game, c.immortal_key, c.title_key): c.owner_title_id for c in held}
    assert len(set(owners.values())) == len(owners)
    assert not set(owners.values()) & set(ids)  # a specific card's id is never an owner's and title's
    for card in held:  # a card made again of a live key (a sheet read again, a printing) takes the same id
        again = Card(id="again", name=card.name, title=card.title, type="Event", immortal=card.immortal,
                     version=card.version)
        assert again.specific_id is card.specific_id and again.owner_title_id is card.owner_title_id
    fresh_id = Card(id="new", name="Never Seen", title="Never Seen").specific_id
    assert fresh_id not in set(ids) and fresh_id not in set(owners.values())


def test_an_id_is_this_process_own():
    """A card pickled and read back takes this process's id of its key; an id alone is never pickled (another
    process's object would be a stranger to every set here), and a copy of one is itself."""
    card = Card(id="a", name="A", title="A")
    again = pickle.loads(pickle.dumps(card))
    assert again.specific_id is card.specific_id and again.owner_title_id is card.owner_title_id
    assert copy.deepcopy(card).specific_id is card.specific_id and copy.copy(card.specific_id) is card.specific_id
    with pytest.raises(TypeError):
        pickle.dumps(card.specific_id)
