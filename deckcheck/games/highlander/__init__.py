"""Highlander: The Card Game, 1st edition (type1e) and 2nd edition Type 2 (type2).

The game's declaration: card types, formats with their sections and parameters. Its rules are the
plain functions of `rules.py` beside this file (HL-*, HL1-*, HL2-*), which read the HighlanderView of
`view.py`; the rule engine they use (`@rule`, Params, the message helpers) is deckcheck.rules.
"""
from __future__ import annotations

from types import MappingProxyType

from ...cards import ENDURANCE_TYPES, GEM_COLOURS, HIGHLANDER, PREGAME_TYPES, Card
from ...formats import Format, Game
from . import rules as hl
from .view import ENDURANCE, PREGAME, HighlanderView

SECTIONS = MappingProxyType({PREGAME: ("pre game", "pregame"), ENDURANCE: ("endurance", "deck", "main")})


def section_of_type(card: Card) -> str:
    """Where a card goes when its line stands under no heading: Pre-Game cards apart, all else the Endurance."""
    return PREGAME if card.is_pregame else ENDURANCE


TYPE1E = Format(
    name="type1e", title="Highlander 1st edition (Arms and Tactics rules)", game=HIGHLANDER, rules=hl.TYPE1E,
    aliases=("1e", "first", "1st", "type1", "type-1", "arms-and-tactics", "tcg1e"),
    sections=SECTIONS, default_section=section_of_type, params=hl.Type1eParams(), view=HighlanderView,
    source="seeds/highlander-1e-rulebook-arms-and-tactics.txt", no_persona="Generic Immortal",
)

TYPE2 = Format(
    name="type2", title="Highlander 2nd edition, Type 2 (Le Montagnard)", game=HIGHLANDER, rules=hl.TYPE2,
    aliases=("2e", "second", "2nd", "type-2", "t2"),
    sections=SECTIONS, default_section=section_of_type, params=hl.Type2Params(), view=HighlanderView,
    source="seeds/highlander-2e-type2-summary-ja.txt", no_persona="Generic Immortal",
)

GAME = Game(HIGHLANDER, (TYPE1E, TYPE2), card_types=PREGAME_TYPES | ENDURANCE_TYPES,
            columns=("immortal", "weapon", "version", "edition", "basic", "grid", "grid_inferred", "restriction",
                     "reserved", "signature", "unique", "hand_icons", "gem_master", "gem_agility", "gem_strength",
                     "gem_toughness", "gem_empathy", "gem_reason", "requires", "deckbuilding"),
            rule_columns={hl.restricted: ("restriction",), hl.section: ("type",), hl.reserved: ("reserved",),
                          hl.signature: ("signature",), hl.master: ("gem_master",), hl.hand_icons: ("hand_icons",),
                          hl.attack_grid: ("grid",), hl.block_grid: ("grid",), hl.pregame_unique: ("unique",),
                          hl.gems: tuple(f"gem_{c}" for c in GEM_COLOURS[1:])})
