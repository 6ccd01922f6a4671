"""Highlander's card fields, declared once (deckcheck.fields): the Immortal and Weapon a card names, its grid,
Restriction, swords, Hand icons, gems and deck-building effects; read and written by the card sheet, stored in
the card's own database columns, asked by the facts forms in the words here."""
from __future__ import annotations

from typing import Any, Callable

from ...cards import GEM_COLOURS, NO_MODIFIERS, Card, Modifiers, parse_modifiers
from ...fields import (
    ATTRIBUTE,
    CELL,
    FLAG,
    Counted,
    IDENTITY,
    RULES,
    UNKNOWN,
    UNKNOWN_WORDS,
    Field,
    PageRow,
    as_written,
    flag,
    known_flag,
    page_words,
    tag_set,
    whole_number,
    yes_no,
)
from ...grid import SQUARE_NAMES, format_grid, parse_grid, squares_of

GRID_TYPES = ("Attack", "Special Attack", "Block", "Dodge")  # the cards printed with a grid


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


# -- the card page's rows (Field.page): each field's label and value in a player's words -------------------------
def has_grid(card: Card) -> bool:
    """Whether a card has a grid to cover squares with (an Attack, Block or Dodge; a card of unknown type may)."""
    return card.type in GRID_TYPES or card.grid is not None or card.type is None


def grid_words(card: Card) -> str:
    """The squares a grid covers, in words."""
    if card.grid is None:
        return "unknown"
    squares = [SQUARE_NAMES[s] for s in squares_of(card.grid)]
    words = ", ".join(squares) if squares else "no square"
    return words + (" (derived from its name)" if card.grid_inferred else "")


def modifiers_words(m: Modifiers) -> str:
    """The deck-building changes a card makes, as a sentence."""
    parts = []
    if m.deck_min is not None:
        parts.append(f"a deck of at least {m.deck_min} cards")
    if m.pregame_extra:
        parts.append(f"{m.pregame_extra} more Pre-Game card{'s' if m.pregame_extra != 1 else ''}")
    if m.master_any_persona:
        parts.append("Master cards of any Persona, Reserved included")
    if m.other_persona_each:
        parts.append(f"{m.other_persona_each} Immortal Specific card{'s' if m.other_persona_each != 1 else ''} "
                     "from each other Persona")
    if m.other_persona_total:
        parts.append(f"{m.other_persona_total} non-Signature card{'s' if m.other_persona_total != 1 else ''} from "
                     "Immortals you are not playing")
    if m.woc_max is not None:
        parts.append(f"up to {m.woc_max} Weapon{'s' if m.woc_max != 1 else ''} of Choice")
    parts += [f"lets the deck include {tag} cards" for tag in sorted(m.grants)]
    return "; ".join(parts)


def _yes(value: bool | None, yes: str, no: str = "no") -> str | None:
    return None if value is None else (yes if value else no)


def _weapon_row(card: Card) -> PageRow:
    if card.is_persona or card.type == "Weapon of Choice":
        return "Weapon", card.weapon or "none"
    return "Weapon it needs", card.weapon or "none: any weapon"


def _grid_row(card: Card) -> PageRow:
    if card.type in GRID_TYPES or card.grid is not None:
        return "Squares of its grid", None if card.grid is None else grid_words(card)
    return "Squares of its grid", "none: it is not an Attack, Block or Dodge" if card.type else None


def _restriction_row(card: Card) -> PageRow:
    n = card.restriction
    if n is None:
        return "Restriction number", None
    return "Restriction number", f"{n}: at most {n} cop{'y' if n == 1 else 'ies'} in a deck" if n else "none"


def _gem_row(colour: str) -> Callable[[Card], PageRow | None]:
    """A gem count's row; None for a 1st-edition card's missing gem (they print none, a Persona's Master aside)."""
    def row(card: Card) -> PageRow | None:
        value, persona = card.gem(colour), card.is_persona
        if colour == "master" and persona:
            label = "Master cards allowed" if card.edition == 1 else "Master gem (white): Master cards allowed"
        elif persona:
            label = f"{colour.capitalize()} gems"
        else:
            label = f"{colour.capitalize()} gem icons"
        if card.edition == 1 and not value and not (colour == "master" and persona):
            return None
        return label, None if value is None else str(value)
    return row


def gem_field(colour: str, label: str, settle: str = "", *, asked: int) -> Field:
    """The field of one gem colour (gem_master, ...)."""
    def cell(card: Any) -> str:
        value = card.gem(colour)
        return ("" if card.is_persona else UNKNOWN) if value is None else str(value)
    return Field(f"gem_{colour}", whole_number, str, numeric=True, blank=0, unknown=UNKNOWN, kept=ATTRIBUTE,
                 place=RULES, label=label, asked=asked, settle=settle, type=int, blank_of=gem_blank, show=cell,
                 unknowable=colour == "master", editable=True, page=_gem_row(colour),
                 filtered=lambda c: c.is_persona)  # a Persona's gems are its allowance


_GEM_WORDS = {"master": ("Master allowance", "the Master allowance printed on the Persona card")}
FIELDS = (
    Field("immortal", as_written, blank=None, kept=ATTRIBUTE, place=IDENTITY, type=str, keyed="immortal_key",
          page=page_words("Immortal", lambda c: c.immortal or "none: a Generic card, any Immortal may include it")),
    Field("weapon", as_written, blank=None, kept=ATTRIBUTE, place=IDENTITY, type=str, keyed="weapon_key",
          page=_weapon_row),
    Field("basic", known_flag, yes_no, blank=False, kept=ATTRIBUTE, db=FLAG, place=RULES, type=bool,
          page=page_words("Basic card", lambda c: yes_no(c.basic))),
    Field("grid", read_grid, write_grid, blank=None, kept=ATTRIBUTE, place=RULES, label="Grid", asked=5,
          form=("Grid", "tap the squares the card covers"), settle="the squares of the grid printed on the card",
          type=int, unknowable=True, editable=True, page=_grid_row, applies=has_grid,
          filtered=lambda c: c.type in GRID_TYPES),
    Field("grid_inferred", known_flag, yes_no, blank=False, kept=ATTRIBUTE, db=FLAG, place=RULES, rules=False,
          type=bool, sourced=False, page=lambda c: None, follows="grid"),  # its provenance and words: the grid's
    Field("restriction", whole_number, restriction_cell, numeric=True, blank=0, unknown=UNKNOWN, kept=ATTRIBUTE,
          place=RULES, label="Restriction", asked=1, fact=True, type=int,
          choices=("none", "1", "2", "3", "4", "5", "6"),
          form=("Restriction number", "the number printed on the card; “none printed” when there is none"),
          settle="the Restriction number printed on the card (or that none is printed)", unknowable=True,
          editable=True, page=_restriction_row),
    Field("reserved", flag, yes_no, blank=False, unknown=UNKNOWN, kept=ATTRIBUTE, db=FLAG, place=RULES,
          label="Reserved sword", asked=2, fact=True, type=bool, choices=("yes", "no"),
          form=("Reserved sword", "is the Reserved sword printed on the card?"),
          settle="whether the card shows the Reserved sword", unknowable=True, editable=True,
          page=page_words("Reserved", lambda c: _yes(c.reserved, "yes: only its own Persona includes it")),
          mark=("Reserved", "⚔", "Reserved: only its own Persona includes it")),
    Field("signature", flag, yes_no, blank=False, unknown=UNKNOWN, kept=ATTRIBUTE, db=FLAG, place=RULES,
          label="Signature sword", asked=3, fact=True, type=bool, choices=("yes", "no"),
          form=("Signature sword", "is there a sword with an S on the card?"),
          settle="whether the card shows the Signature sword with an S", unknowable=True, editable=True,
          page=page_words("Signature", lambda c: _yes(c.signature,
                                                        "yes: only its own Persona, whatever a modifier says")),
          mark=("Signature", "✒", "Signature: only its own Persona, never lifted by a modifier")),
    Field("unique", flag, yes_no, blank=False, unknown=UNKNOWN, kept=ATTRIBUTE, db=FLAG, place=RULES, label="Unique",
          asked=8, fact=True, settle="whether the card is marked unique", type=bool, choices=("yes", "no"),
          form=("Unique", "is the card marked Unique?"), unknowable=True, editable=True,
          page=page_words("Unique", lambda c: _yes(c.unique, "yes")), mark=("Unique", "◆", "Unique")),
    Field("hand_icons", whole_number, str, numeric=True, blank=0, unknown=UNKNOWN, kept=ATTRIBUTE, place=RULES,
          label="Hand icons", asked=4, fact=True, type=int, form=("Hand icons", "how many Hand icons are printed"),
          choices=("0", "1", "2"),
          settle="the number of Hand icons printed on the card", unknowable=True, editable=True),
    *(gem_field(colour, *_GEM_WORDS.get(colour, (f"{colour.title()} gems",)), asked=9 + i)
      for i, colour in enumerate(GEM_COLOURS)),
    Field("requires", tag_set, lambda tags: ";".join(sorted(tags)), blank=frozenset(), kept=ATTRIBUTE, db=CELL,
          place=RULES, type=frozenset, editable=True,
          page=page_words("Needs permission", lambda c: ", ".join(sorted(c.requires)) or "none")),
    Field("deckbuilding", parse_modifiers, str, blank=NO_MODIFIERS, kept=ATTRIBUTE, db=CELL, attribute="modifiers",
          place=RULES, editable=True,
          page=page_words("Changes the deck's rules", lambda c: modifiers_words(c.modifiers) or "no")),
)


# -- what `cards stats` and `cards lint` read of its data (Game.counted, Game.card_problems) ----------------------
STAT_GRID_TYPES = ("Attack", "Special Attack", "Block")  # the cards whose grid `cards stats` and `cards lint` count


def _is_specific(card: Card) -> bool:
    return card.is_immortal_specific


def _is_pregame(card: Card) -> bool:
    return card.is_pregame


def _counted(name: str, applies_to: str, applies: Callable[[Card], bool]) -> Counted:
    return Counted(name, name, applies_to, applies, lambda c: getattr(c, name) is not None)


def _gem_known(colour: str) -> Callable[[Card], bool]:
    return lambda c: c.gem(colour) is not None


COUNTED = (
    Counted("grid", "grid", "Attacks and Blocks", lambda c: c.type in STAT_GRID_TYPES, lambda c: c.grid is not None),
    Counted("grid", "grid (not inferred)", "Attacks and Blocks", lambda c: c.type in STAT_GRID_TYPES,
            lambda c: c.grid is not None and not c.grid_inferred),
    Counted("grid", "grid of Attacks", "Attacks", lambda c: c.type == "Attack", lambda c: c.grid is not None),
    _counted("restriction", "all cards", lambda c: True),
    _counted("reserved", "Immortal Specific cards", _is_specific),
    _counted("signature", "Immortal Specific cards", _is_specific),
    _counted("unique", "Pre-Game cards", _is_pregame),
    _counted("hand_icons", "Pre-Game cards", _is_pregame),
    *(Counted(f"gem_{colour}", f"gem_{colour}", "Personas", lambda c: c.is_persona, _gem_known(colour))
      for colour in GEM_COLOURS),
)


def card_problems(card: Card) -> list[str]:
    """What leaves rules undecided in a card's data: an Attack or Block without grid, a Persona without allowance or
    Immortal."""
    out = []
    if card.type in STAT_GRID_TYPES and card.grid is None:
        out.append(f"{card.type} with no grid")
    if card.is_persona and card.gem_master is None:
        out.append("Persona with no Master allowance (gem_master)")
    if card.is_persona and card.immortal is None:
        out.append("Persona with no Immortal name")
    return out
