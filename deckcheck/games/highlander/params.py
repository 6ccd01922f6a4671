"""The numbers of the two Highlander formats (RULES.md HL-*, HL1-*, HL2-*) as typed parameters: the rules read them,
the views are typed by them, the formats' data set them. Apart from the rules so that the view, which the rules
read through, names them without a circle."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from ... import grid as gridmod
from ...rules import Params


@dataclass(frozen=True)
class HighlanderParams(Params):
    """The numbers both Highlander formats share (RULES.md HL-*)."""

    deck_min: int = 50
    title_max: int = 6
    pregame_max: int = 6
    persona_max: int = 1
    woc_max: int = 1
    hand_max: int = 2
    hand_max_without_woc: int | None = None  # the Hand icons allowed without a Weapon of Choice (type1e: 1)
    generic_specific_max: int = 1
    clan_cards: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({"clan macleod": "macleod"}))


@dataclass(frozen=True)
class Type1eParams(HighlanderParams):
    """type1e: the Basic Attacks and Blocks every deck holds, and one Watcher at most; 1st-edition names first."""

    name_edition: int | None = 1
    hand_max_without_woc: int | None = 1
    watcher_max: int = 1
    basic_attacks: tuple[str, ...] = ("Upper Left Attack", "Upper Center Attack", "Upper Right Attack",
                                      "Middle Left Attack", "Thrust", "Middle Right Attack", "Lower Left Attack",
                                      "Lower Center Attack", "Lower Right Attack")
    basic_blocks: tuple[str, ...] = ("Upper Left Block", "Upper Center Block", "Upper Right Block",
                                     "Lower Left Block", "Lower Center Block", "Lower Right Block")


@dataclass(frozen=True)
class Type2Params(HighlanderParams):
    """type2: Crystals, gems, the squares the Basic Attacks and the Blocks cover, exclusive subtypes."""

    crystal_max: int = 1
    unique_max: int = 1
    gem_factor: int = 3
    attack_squares: tuple[str, ...] = gridmod.SQUARES
    block_squares: tuple[str, ...] = ("UL", "UC", "UR", "LL", "LC", "LR")
    exclusive_subtypes: tuple[str, ...] = ("Watcher", "Hunter")
