"""Highlander's card fields, declared once (deckcheck.fields): the Immortal and Weapon a card names, its grid,
Restriction, swords, Hand icons, gems and deck-building effects; read and written by the card sheet, stored in
the card's own database columns, asked by the facts forms in the words here."""
from __future__ import annotations

from typing import Any

from ...cards import GEM_COLOURS, NO_MODIFIERS, parse_modifiers
from ...fields import (
    ATTRIBUTE,
    CELL,
    FLAG,
    IDENTITY,
    RULES,
    UNKNOWN,
    UNKNOWN_WORDS,
    Field,
    as_written,
    flag,
    known_flag,
    tag_set,
    whole_number,
    yes_no,
)
from ...grid import format_grid, parse_grid


def read_grid(text: str) -> int | None:
    """A grid cell: its squares ('UL UC MC'), 'none' for a card that covers none, or 'unknown'."""
    if text.lower() == "none":
        return 0
    if text.lower() in UNKNOWN_WORDS:
        return None
    return parse_grid(text)


def write_grid(mask: int) -> str:
    """A grid as a cell: its squares, 'none' when it covers none."""
    return format_grid(mask) or "none"


def restriction_cell(value: int) -> str:
    """A Restriction as a cell: blank when none is printed."""
    return "" if value == 0 else str(value)


def gem_blank(card_type: str | None) -> int | None:
    """A blank gem cell: none on a card, unknown on a Persona (whose gems are its allowance)."""
    return None if card_type == "Persona" else 0


def gem_field(colour: str, label: str, settle: str = "", *, asked: int) -> Field:
    """The field of one gem colour (gem_master, ...)."""
    def cell(card: Any) -> str:
        value = card.gem(colour)
        return ("" if card.is_persona else UNKNOWN) if value is None else str(value)
    return Field(f"gem_{colour}", whole_number, str, numeric=True, blank=0, unknown=UNKNOWN, kept=ATTRIBUTE,
                 place=RULES, label=label, asked=asked, settle=settle, type=int, blank_of=gem_blank, show=cell,
                 unknowable=colour == "master", editable=True)


_GEM_WORDS = {"master": ("Master allowance", "the Master allowance printed on the Persona card")}
FIELDS = (
    Field("immortal", as_written, blank=None, kept=ATTRIBUTE, place=IDENTITY, type=str),
    Field("weapon", as_written, blank=None, kept=ATTRIBUTE, place=IDENTITY, type=str),
    Field("basic", known_flag, yes_no, blank=False, kept=ATTRIBUTE, db=FLAG, place=RULES, type=bool),
    Field("grid", read_grid, write_grid, blank=None, kept=ATTRIBUTE, place=RULES, label="Grid", asked=5,
          form=("Grid", "tap the squares the card covers"), settle="the squares of the grid printed on the card",
          type=int, unknowable=True, editable=True),
    Field("grid_inferred", known_flag, yes_no, blank=False, kept=ATTRIBUTE, db=FLAG, place=RULES, rules=False,
          type=bool, sourced=False),  # its provenance is the grid's
    Field("restriction", whole_number, restriction_cell, numeric=True, blank=0, unknown=UNKNOWN, kept=ATTRIBUTE,
          place=RULES, label="Restriction", asked=1, fact=True, type=int,
          choices=("none", "1", "2", "3", "4", "5", "6"),
          form=("Restriction number", "the number printed on the card; “none printed” when there is none"),
          settle="the Restriction number printed on the card (or that none is printed)", unknowable=True,
          editable=True),
    Field("reserved", flag, yes_no, blank=False, unknown=UNKNOWN, kept=ATTRIBUTE, db=FLAG, place=RULES,
          label="Reserved sword", asked=2, fact=True, type=bool, choices=("yes", "no"),
          form=("Reserved sword", "is the Reserved sword printed on the card?"),
          settle="whether the card shows the Reserved sword", unknowable=True, editable=True),
    Field("signature", flag, yes_no, blank=False, unknown=UNKNOWN, kept=ATTRIBUTE, db=FLAG, place=RULES,
          label="Signature sword", asked=3, fact=True, type=bool, choices=("yes", "no"),
          form=("Signature sword", "is there a sword with an S on the card?"),
          settle="whether the card shows the Signature sword with an S", unknowable=True, editable=True),
    Field("unique", flag, yes_no, blank=False, unknown=UNKNOWN, kept=ATTRIBUTE, db=FLAG, place=RULES, label="Unique",
          asked=8, fact=True, settle="whether the card is marked unique", type=bool, choices=("yes", "no"),
          form=("Unique", "is the card marked Unique?"), unknowable=True, editable=True),
    Field("hand_icons", whole_number, str, numeric=True, blank=0, unknown=UNKNOWN, kept=ATTRIBUTE, place=RULES,
          label="Hand icons", asked=4, fact=True, type=int, form=("Hand icons", "how many Hand icons are printed"),
          choices=("0", "1", "2"),
          settle="the number of Hand icons printed on the card", unknowable=True, editable=True),
    *(gem_field(colour, *_GEM_WORDS.get(colour, (f"{colour.title()} gems",)), asked=9 + i)
      for i, colour in enumerate(GEM_COLOURS)),
    Field("requires", tag_set, lambda tags: ";".join(sorted(tags)), blank=frozenset(), kept=ATTRIBUTE, db=CELL,
          place=RULES, type=frozenset, editable=True),
    Field("deckbuilding", parse_modifiers, str, blank=NO_MODIFIERS, kept=ATTRIBUTE, db=CELL, attribute="modifiers",
          place=RULES, editable=True),
)
