"""The card field table (deckcheck.fields): one declaration per field, from which the card sheet's columns and the
games' words are derived, in the order the card sheet has always had them (CONTRACTS §1)."""
from __future__ import annotations

from typing import Any

import pytest

from deckcheck import cardsheet
from deckcheck.cards import CORE_FIELDS, Card
from deckcheck.errors import DeckcheckError
from deckcheck.fields import Field, flag, known_flag, whole_number
from deckcheck.games import registry

# The §1 columns as the contract lists them: a change of the field table must not move one.
SHEET = ("game", "id", "name", "title", "immortal", "weapon", "version", "edition", "set", "type", "subtype", "basic",
         "grid", "grid_inferred", "restriction", "reserved", "signature", "unique", "hand_icons", "gem_master",
         "gem_agility", "gem_strength", "gem_toughness", "gem_empathy", "gem_reason", "requires", "deckbuilding",
         "renown", "health", "skill", "rank", "suit", "rarity", "text")


def test_the_sheet_columns_are_the_field_table_in_contract_order() -> None:
    assert tuple(f.name for f in registry().fields) == SHEET == cardsheet.COLUMNS


def test_a_field_is_declared_once() -> None:
    names = [f.name for f in CORE_FIELDS] + [f.name for game in registry().games for f in game.fields]
    assert len(names) == len(set(names))


@pytest.mark.parametrize(("text", "value"), [("yes", True), ("X", True), ("n", False), ("?", None), ("unknown", None)])
def test_flag(text: str, value: bool | None) -> None:
    assert flag(text) is value


@pytest.mark.parametrize("text", ["maybe", "unknown", "?"])
def test_known_flag_refuses_what_is_not_yes_or_no(text: str) -> None:
    with pytest.raises(DeckcheckError, match="expected yes or no"):
        known_flag(text)


def test_whole_number() -> None:
    assert whole_number("3.0") == 3 and whole_number("?") is None
    with pytest.raises(DeckcheckError, match="negative"):
        whole_number("-1")


def test_a_field_reads_its_value_where_it_is_kept() -> None:
    card = Card(id="x", name="X", title="X", game="raven", extra=(("renown", 4),))
    renown = next(f for f in registry().fields if f.name == "renown")
    assert renown.value(card) == 4 and renown.cell(card) == "4"
    assert next(f for f in registry().fields if f.name == "set").cell(card) == ""
    with pytest.raises(ValueError, match="kept"):
        Field("odd", str, kept="elsewhere")


def test_the_provenance_columns_are_the_fields_that_carry_one() -> None:
    from deckcheck import provenance
    assert provenance.FIELDS == tuple(c for c in SHEET if c not in ("game", "id", "name", "grid_inferred"))


def test_the_unknown_filters_and_the_keepers_edits_are_read_off_the_field_table() -> None:
    """Field.unknowable and Field.editable, not lists in cardsheet.py and web/cards.py: the same fields as the lists
    they replaced, in the field table's order, and a field declared so in any game joins them."""
    assert cardsheet.unknowable() == ("type", "grid", "restriction", "reserved", "signature", "unique", "hand_icons",
                                      "gem_master")
    web_cards = pytest.importorskip("deckcheck.web.cards")
    assert web_cards.EDITABLE == ("type", "subtype", "grid", "restriction", "reserved", "signature", "unique",
                                  "hand_icons", "gem_master", "gem_agility", "gem_strength", "gem_toughness",
                                  "gem_empathy", "gem_reason", "requires", "deckbuilding", "rarity", "text")
    fields = registry().fields
    assert cardsheet.unknowable() == tuple(f.name for f in fields if f.unknowable)
    assert set(cardsheet.unknowable()) <= set(web_cards.EDITABLE)  # what may be unknown, the keeper may fill in
    assert not any(f.editable for f in fields if f.name in ("game", "id", "name", "title", "set"))


def test_a_card_pages_rows_are_the_field_declarations() -> None:
    """web/cardface.py keeps no list of rows: a field a game declares is on its cards' pages in the words its
    declaration gives (Field.page), or under its label with its value as a sheet writes it, or not at all
    (page returning None); a field of no game its name's."""
    from deckcheck.formats import number_column
    from deckcheck.web import cardface
    reach = number_column("reach", page=lambda card: ("Reach", f"{card.extra_value('reach')} squares"))
    power = number_column("power", label="Power printed")
    hidden = number_column("secret", page=lambda card: None)
    fields = {f.name: f for f in (reach, power, hidden)}
    card = Card(id="t", name="T", title="T", game="toy", extra=(("reach", 3), ("secret", 1)))
    rows = cardface.field_rows(card, ["reach", "power", "secret", "other_thing"], fields)
    assert [(r["label"], r["value"]) for r in rows] == [("Reach", "3 squares"), ("Power printed", None),
                                                        ("Other thing", None)]
    hl = Card(id="h", name="H", title="H", type="Persona", immortal="Kurgan", restriction=None, edition=2)
    shown = {r["key"]: (r["label"], r["value"]) for r in cardface.field_rows(hl, list(SHEET))}
    assert shown["restriction"] == ("Restriction number", None) and shown["weapon"] == ("Weapon", "none")
    assert shown["gem_master"] == ("Master gem (white): Master cards allowed", "0") and "text" not in shown
    assert shown["game"] == ("Game", registry().game_named("highlander").full_title) and "grid_inferred" not in shown
    assert {k for k, f in cardface._BY_NAME.items() if f.page is None} <= {  # the rest say it in their declaration
        f.name for f in registry().fields if f.name in ("game", "type", "hand_icons") or f.kept == "extra"}


def _another(f: Field, current: object) -> object:
    """A value of a card's attribute other than `current`."""
    from deckcheck.cards import Modifiers, parse_modifiers
    if f.type is bool or isinstance(current, bool):
        return not current
    if f.type is int or isinstance(current, int):
        return (current if isinstance(current, int) else 0) + 2
    if isinstance(current, Modifiers):
        return parse_modifiers("deck_min=40")
    if isinstance(current, (tuple, frozenset)):
        return type(current)(("X",))
    return "Zed"


def test_the_rules_key_and_the_printing_facts_are_those_the_fields_declare() -> None:
    """Card.rules_key holds every field declared rules=True, card_key those of them not fact=True, printing_facts the
    fact=True ones in the table's order: a field declared with these flags is keyed so, or this fails."""
    from dataclasses import replace

    from deckcheck.cards import printing_facts
    fields = registry().fields
    assert printing_facts() == tuple(f.name for f in fields if f.fact)
    base = Card(id="a", name="A", title="A", type="Attack", grid=None)
    kept = [f for f in fields if not f.in_extra]
    assert {f.name for f in kept} >= {"restriction", "signature", "gem_reason", "text"}
    for f in kept:
        changed: dict[str, Any] = {f.attribute: _another(f, getattr(base, f.attribute))}
        other = replace(base, **changed)
        keyed = (other.rules_key != base.rules_key, other.card_key != base.card_key)
        assert keyed == (f.rules, f.rules and not f.fact), f.name


TOY_FACTS = """
from deckcheck.cards import Card, as_one_card, card_groups, conflicts, one_card, printing_facts

# cards made before any game declared its fields: a field no game declared yet is keyed as it is, never left out
thrusts = [Card(id=f"t{n}", name="Thrust", title="Thrust", restriction=n) for n in (1, 2)]
assert printing_facts() == ("text",) and not one_card(thrusts)

from deckcheck.fields import number_field
from deckcheck.formats import Game
from deckcheck.games import BUILT_IN
from deckcheck.registry import Registry

assert one_card(thrusts) and conflicts(thrusts) == ["restriction"]  # Highlander's declarations, keys made anew


def printing(card_id, **extra):
    return Card(id=card_id, name="Jab", title="Jab", game="toy-stamps", type="Move", extra=tuple(extra.items()))


early = [printing("e1", stamp=1), printing("e2", stamp=2)]
assert not one_card(early)  # a column no game declared: read by the rules, no fact
before = printing_facts()
toy = Game("toy-stamps", (), card_types=frozenset({"Move"}),
           fields=(number_field("stamp", fact=True), number_field("power")))
assert printing_facts() == tuple(f.name for f in Registry(BUILT_IN + (toy,)).fields if f.fact), printing_facts()
assert printing_facts() == before[:-1] + ("stamp", "text")  # a game's column comes before the core's text
assert one_card(early) and conflicts(early) == ["stamp"]
first, second, unstated = printing("a", stamp=1, power=2), printing("b", stamp=2, power=2), printing("c", power=2)
assert one_card([first, second]) and conflicts([first, second]) == ["stamp"]
assert first.card_key == second.card_key and first.rules_key != second.rules_key
assert as_one_card([first, second]).extra_value("stamp") is None  # stated with two values: unknown
assert as_one_card([unstated, first]).extra_value("stamp") == 1  # a reprint carries the card's fact
stronger = printing("d", stamp=1, power=3)  # a column the rules read, no fact: another card
assert not one_card([first, stronger]) and len(card_groups([first, second, stronger])) == 2
print("ok")
"""


def test_a_fact_a_games_table_declares_is_a_printing_fact() -> None:
    """A game's own field declared fact=True (kept in Card.extra) is a printing's fact as Highlander's are: two
    printings that differ only in it are one card with a conflict of it, and a printing stating it lends it to one
    that does not (as_one_card); a field of the game without the flag still tells two cards apart. Before, the
    facts were a hand-kept tuple of Highlander's and the core's: such a game's printings were two cards. (In a
    process of its own: a game made declares its fields for the process's cards.)"""
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-c", TOY_FACTS], capture_output=True, text=True, timeout=120)
    assert r.stdout.strip() == "ok", r.stderr[-2000:]
