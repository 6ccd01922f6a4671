"""A card field, declared once: its card-sheet column, how a cell is read and written, its words for a player.

The generic card's fields (deckcheck.cards.CORE_FIELDS) and a game's own (Game.fields) are values of one type, from
which the card sheet's columns (deckcheck.cardsheet), the provenance columns, the facts forms, the database's
columns and the API's card model are derived. Stdlib only: the core's readers of a cell live here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from .cells import is_none_word
from .errors import DeckcheckError

# The largest number a card-sheet cell or a deck-building modifier may hold: far above any card's (a
# Restriction, gems, Hand icons, a deck minimum), and within every database's INTEGER. A cell is checked
# before it is converted: a number of thousands of digits is a bad cell, not Python's 4,300-digit limit.
MAX_NUMBER = 1_000_000_000

UNKNOWN = "unknown"
UNKNOWN_WORDS = frozenset({"unknown", "?"})
TRUE = frozenset({"yes", "y", "true", "1", "x"})
FALSE = frozenset({"no", "n", "false", "0", ""})

# Where a field's value is kept: an attribute of the Card with its own database column, or Card.extra (a JSON
# object in the database's `extra` column, so a game's new field needs no migration).
ATTRIBUTE = "attribute"
EXTRA = "extra"
# How a database column holds an attribute's value: as it is (text, a number, NULL for unknown), as 0/1 (a flag),
# or as the text its card-sheet cell holds (Field.write, read back by Field.read: tags, modifiers).
VALUE, FLAG, CELL = "value", "flag", "cell"
# The places of the card sheet's columns (Field.place): a game's identity fields after the core's title, its
# rules fields after the core's type; fields of a place keep the order their games declare them in.
HEAD, IDENTITY, CORE, RULES, GAME, TAIL = 0, 10, 20, 30, 40, 50


def _text(value: object) -> str:
    return str(value)


PageRow = tuple[str, str | None]  # a field's label on a card's page and its value in a player's words (None: unknown)


@dataclass(frozen=True)
class Field:
    """One card field (a card-sheet column).

    `read` turns a filled cell's text into the value (None: unknown), raising DeckcheckError with what a good cell
    is; `write` turns a known value back into the cell's text; `numeric`: a spreadsheet export writes it as a
    number. `blank`: the value of a blank cell; `unknown`: how the sheet writes an unknown value. `kept`: ATTRIBUTE
    (the Card's attribute `attribute`, default its name, and a database column) or EXTRA (Card.extra). `place`:
    where the column sits in the card sheet (HEAD ... TAIL). `label`: how a page names it ("Signature sword"): a
    player may answer it (the facts API), in the order of `asked`; `form`: the fill-in form's title and hint of its
    group (the form asks it), `choices` what it offers (none: a line of text); `settle`: what a player reads off the
    card to settle it; `fact`: a fact a source states about one printing (a reprint whose fact is unknown is still
    the same card); `rules`: the rules read it (part of Card.rules_key); `sourced`: its value carries a provenance
    (deckcheck.provenance); `type`: the Python type of a known value; `column` (default: its name) and `db`: the
    database column of an attribute and how it holds the value (VALUE, FLAG, CELL). Where a card's type changes
    them: `blank_of` (the blank cell's value for a card of that type) and `show` (the cell of a card).
    `unknowable`: a card may hold it as unknown, and the card list filters on it (known / unknown); `editable`: the
    keeper may change it on the card's page. `page`: the card page's row of a card, its label and its value in a
    player's words (None: unknown), or None where the page lists none (default: page_row's); `applies`: whether a
    card has the field at all (a Persona has no grid: its form does not ask it; default: every card of its game);
    `filtered`: the cards whose unknown value the card list's filter "unknown" counts (default: every card);
    `follows`: the field whose value this one qualifies (grid_inferred: the grid's), stated by a row that states
    that one and changed with it; `keyed` (default: `attribute`): the Card attribute a card's keys read for it
    (deckcheck.cards: Card.card_key, Card.facts), a form that leaves out what makes no other card (title_key:
    the title normalized); `mark`: the drawn card's mark of a flag (its label, symbol and meaning when set;
    a "?" badge when unknown), for a game whose cards a page draws.
    """

    name: str
    read: Callable[[str], Any]
    write: Callable[[Any], str] = _text
    numeric: bool = False
    blank: Any = None
    unknown: str = ""
    kept: str = EXTRA
    attribute: str = ""
    place: int = GAME
    label: str = ""
    asked: int = 0
    form: tuple[str, str] = ("", "")
    choices: tuple[str, ...] = ()
    settle: str = ""
    fact: bool = False
    rules: bool = True
    sourced: bool = True
    type: type = object
    column: str = ""
    db: str = VALUE
    blank_of: Callable[[str | None], Any] | None = None
    show: Callable[[Any], str] | None = None
    unknowable: bool = False
    editable: bool = False
    page: Callable[[Any], PageRow | None] | None = None
    applies: Callable[[Any], bool] | None = None
    filtered: Callable[[Any], bool] | None = None
    follows: str = ""
    mark: tuple[str, str, str] = ("", "", "")
    keyed: str = ""

    def __post_init__(self) -> None:
        if not self.attribute:
            object.__setattr__(self, "attribute", self.name)
        if not self.keyed:
            object.__setattr__(self, "keyed", self.attribute)
        if not self.column:
            object.__setattr__(self, "column", self.name)
        if self.kept not in (ATTRIBUTE, EXTRA):
            raise ValueError(f"the field {self.name}: kept is {ATTRIBUTE!r} or {EXTRA!r}, not {self.kept!r}")

    @property
    def in_extra(self) -> bool:
        """Whether its value is kept in Card.extra."""
        return self.kept == EXTRA

    def blank_value(self, card_type: str | None) -> Any:
        """The value of a blank cell on a card of this type."""
        return self.blank if self.blank_of is None else self.blank_of(card_type)

    def value(self, card: Any) -> object:
        """The card's value of this field (None: unknown)."""
        return card.extra_value(self.name) if self.kept == EXTRA else getattr(card, self.attribute)

    def page_row(self, card: Any) -> PageRow | None:
        """The card page's row of a card: `page`'s, else its label (its name, capitalised) and its value as a
        sheet writes it (None: unknown)."""
        if self.page is not None:
            return self.page(card)
        value = self.value(card)
        return self.label or self.name.replace("_", " ").capitalize(), None if value is None else self.write(value)

    def cell(self, card: Any) -> str:
        """The card's cell of this column in a card sheet."""
        if self.show is not None:
            return self.show(card)
        value = self.value(card)
        return self.unknown if value is None else self.write(value)


@dataclass(frozen=True)
class Counted:
    """One row of `cards stats` a game declares (Game.counted): how many of the cards `applies` picks hold `field`
    known (`known`), named `label`, the cards it counts said `applies_to` ("Immortal Specific cards")."""

    field: str
    label: str
    applies_to: str
    applies: Callable[[Any], bool]
    known: Callable[[Any], bool]


def whole_number(text: str) -> int | None:
    """A cell holding a whole number of zero or more ('3', '3.0'); None for 'unknown' or '?'; 0 for `none`, `-`
    or `none printed` (no number printed: deckcheck.cells.is_none_word)."""
    if text.lower() in UNKNOWN_WORDS:
        return None
    if is_none_word(text):
        return 0
    number = parse_whole(text)
    if number < 0:
        raise DeckcheckError("must not be negative")
    return number


def parse_whole(text: str) -> int:
    """A whole number as a sheet writes it ('3', '3.0', '-2'), at most MAX_NUMBER either way; DeckcheckError
    'not a whole number' or 'too large' (told by its digits before any conversion)."""
    if not re.fullmatch(r"\s*[+-]?\d+(\.\d*)?\s*", text):
        raise DeckcheckError("not a whole number")
    digits = text.strip().lstrip("+-").lstrip("0").split(".")[0]
    if len(digits) > len(str(MAX_NUMBER)):
        raise DeckcheckError(f"too large: a number here is at most {MAX_NUMBER:,}")
    try:
        number = int(float(text)) if re.fullmatch(r"\d+(\.0+)?", text) else int(text)
    except (ValueError, OverflowError):
        raise DeckcheckError("not a whole number") from None
    if abs(number) > MAX_NUMBER:
        raise DeckcheckError(f"too large: a number here is at most {MAX_NUMBER:,}")
    return number


def flag(text: str) -> bool | None:
    """A yes/no cell ('yes', 'n', 'x', ...); None for 'unknown' or '?'."""
    folded = text.lower()
    if folded in TRUE:
        return True
    if folded in FALSE:
        return False
    if folded in UNKNOWN_WORDS:
        return None
    raise DeckcheckError("expected yes or no")


def known_flag(text: str) -> bool:
    """A yes/no cell that may not be unknown."""
    value = flag(text)
    if value is None:
        raise DeckcheckError("expected yes or no")
    return value


def yes_no(value: bool) -> str:
    """A known flag as a card sheet writes it."""
    return "yes" if value else "no"


def tags(text: str) -> tuple[str, ...]:
    """A cell of tags separated by ';'."""
    return tuple(t.strip() for t in text.split(";") if t.strip())


def tag_set(text: str) -> frozenset[str]:
    """A cell of tags separated by ';', as a set."""
    return frozenset(tags(text))


def number_field(name: str, **words: Any) -> Field:
    """A game's field holding a whole number of zero or more, blank or 'unknown' when unknown (kept in Card.extra)."""
    return Field(name, whole_number, str, numeric=True, type=int, **words)



def page_words(label: str, value: Callable[[Any], str | None]) -> Callable[[Any], PageRow]:
    """A card page's row (Field.page) of a fixed label and the card's value in a player's words."""
    return lambda card: (label, value(card))


def as_written(cell: str) -> str:
    """A cell of text, kept as written."""
    return cell
