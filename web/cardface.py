"""A card drawn from its data, and its fields in the words a player reads (the card page).

No card images exist to ship, so the page draws the card: a title bar with the Immortal's name, the
Restriction number, the Reserved sword, the Signature and Unique marks; the grid with its squares;
the type line; the text; the gems of a 2nd-edition card; set and rarity. A card of another game shows its
game in the bar and its game's own columns (a Raven card's Renown, Health and Skill); a card of a standard deck
(Game.pips) its rank and suit symbol in red or black. A value the data does not hold is a "?" badge that leads to
where it can be filled in, never a guess (HL-DATA-UNKNOWN).
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field

from deckcheck.cards import EDITIONS, Card
from deckcheck.cardsheet import value_of
from deckcheck.fields import Field, PageRow
from deckcheck.games import game_named, registry
from deckcheck.library.facts import FORM_FIELDS

GRID_TYPES = ("Attack", "Special Attack", "Block", "Dodge")
GEMS = (("master", "Master", "M"), ("agility", "Agility", "A"), ("strength", "Strength", "S"),
        ("toughness", "Toughness", "T"), ("empathy", "Empathy", "E"), ("reason", "Reason", "R"))
_BY_NAME = {f.name: f for f in registry().fields}
_MARKED = tuple(f for f in registry().fields if f.mark[0])


@dataclass
class Mark:
    """One mark of the title bar: what it is, its symbol, what it means; unknown: a "?" badge."""

    key: str
    label: str
    symbol: str
    meaning: str
    unknown: bool = False


@dataclass
class Face:
    """What the drawn card shows."""

    owner: str  # the title bar: the Immortal's name, the weapon, or "Generic"
    title: str
    marks: list[Mark] = field(default_factory=list)
    type_line: str = ""
    type_unknown: bool = False
    grid: bool = False  # a grid is drawn (an Attack, Block or Dodge, or a card with a known grid)
    gems: list[tuple[str, str, str, int | None]] = field(default_factory=list)  # key, colour name, letter, value
    gems_are_allowance: bool = False
    master_allowance: int | None = None  # a 1st-edition Persona: "up to N Master cards"
    master_unknown: bool = False
    hands: int | None = 0
    text: str | None = None
    foot: str = ""
    kind: str = "other"  # attack, defense, persona, pregame, other: the card's colour band
    corner: str = ""  # a card of a standard deck (Game.pips): its rank and suit symbol, `Q♥`
    ink: str = ""  # its ink: "red" or "black"
    # the game's own columns (Game.extra_columns) of a card drawn without pips: key, label, value (None: unknown)
    stats: list[tuple[str, str, str | None]] = field(default_factory=list)


def _kind(card: Card) -> str:
    if card.type in ("Attack", "Special Attack"):
        return "attack"
    if card.type in ("Block", "Dodge", "Attack/Defense"):
        return "defense"
    if card.type == "Persona":
        return "persona"
    if card.is_pregame:
        return "pregame"
    return "other"


def face(card: Card, columns: Collection[str] | None = None) -> Face:
    """The drawn card of a card's data; `columns`: those its game has (None: all), so that a card of a game
    without Immortals is not called Generic, nor printed in an edition of a game without editions."""
    def has(column: str) -> bool:
        return columns is None or column in columns
    owner = card.immortal or (f"{card.weapon} (weapon)" if card.weapon else "Generic") if has("immortal") else ""
    f = Face(owner=owner, title=card.title or card.name, kind=_kind(card), text=card.text)
    if not has("restriction"):
        pass
    elif card.restriction is None:
        f.marks.append(Mark("restriction", "Restriction number", "R", "Restriction number unknown", unknown=True))
    elif card.restriction:
        f.marks.append(Mark("restriction", "Restriction number", str(card.restriction),
                            f"Restriction {card.restriction}: at most {card.restriction} in a deck"))
    for marked in _MARKED:  # the flags its fields declare a mark of (Field.mark)
        label, symbol, meaning = marked.mark
        value = marked.value(card) if has(marked.name) else False
        if value is None:
            f.marks.append(Mark(marked.name, label, symbol, f"{label}: unknown", unknown=True))
        elif value:
            f.marks.append(Mark(marked.name, label, symbol, meaning))
    words = [card.type or "Type unknown"]
    if card.basic:
        words.append("Basic")
    f.type_line = " — ".join([words[0], " · ".join(words[1:] + list(card.subtype))]) \
        if len(words) > 1 or card.subtype else words[0]
    f.type_unknown = card.type is None
    f.grid = card.type in GRID_TYPES or card.grid is not None
    f.hands = card.hand_icons
    gems = [(key, name, letter, getattr(card, f"gem_{key}")) for key, name, letter in GEMS]
    if card.edition >= 2:
        f.gems_are_allowance = card.is_persona
        f.gems = [g for g in gems if g[3] is None or g[3] or (card.is_persona and card.edition >= 2)]
    elif card.is_persona:
        f.master_allowance = card.gem_master
        f.master_unknown = card.gem_master is None
    _game_face(f, card, has)
    f.foot = " · ".join(p for p in (card.set or "set unknown" if has("set") else "",
                                    card.rarity or "rarity unknown" if has("rarity") else "",
                                    EDITIONS.get(card.edition, f"edition {card.edition}") if has("edition") else "")
                        if p)
    return f


def _game_face(f: Face, card: Card, has: Callable[[str], bool]) -> None:
    """What a card's own game adds to its face: its name in the bar of a game without Immortals, then its pips or
    its own columns."""
    try:
        game = game_named(card.game)
    except KeyError:
        return
    if not has("immortal"):
        f.owner = game.full_title
    drawn = game.pips(card) if game.pips is not None else None
    if drawn is not None:
        f.corner, f.ink = drawn
        return
    for column in game.extra_columns:
        if has(column.name):
            value = value_of(card, column.name)
            f.stats.append((column.name, column.label or column.name.replace("_", " ").capitalize(),
                            None if value is None else str(value)))


FieldRow = PageRow  # a field's label and its value in a player's words (None: unknown)
# The rows whose words need what the field table's module cannot import: the game's whole name (the games' registry).
_REGISTRY_ROWS: dict[str, Callable[[Card], FieldRow]] = {"game": lambda c: ("Game", game_title(c.game))}


def form_fields(card: Card, columns: Collection[str]) -> tuple[list[str], list[str]]:
    """Which facts a fill-in form asks of a card: (those its page says are unknown, the others the card has), in
    FORM_FIELDS order, of the page's `columns`; a field the card does not have (Field.applies: a Persona's grid) is
    in neither. The one choice of a card's questions (the card page, its form and the check page's form), read off
    the page's field description (field_row)."""
    unknown: list[str] = []
    known: list[str] = []
    for column in FORM_FIELDS:
        f = _BY_NAME[column]
        if column not in columns or (f.applies is not None and not f.applies(card)):
            continue
        row = field_row(card, column) or (f.label, "")  # one the page does not list (the text) is on the card
        (unknown if row[1] is None else known).append(column)
    return unknown, known


def field_row(card: Card, column: str, fields: Mapping[str, Field] | None = None) -> FieldRow | None:
    """One field's label and value in a player's words, as its declaration gives them (Field.page_row); None for a
    field the card page does not list. `fields`: the fields by name (default: the registered games')."""
    if column in _REGISTRY_ROWS:
        return _REGISTRY_ROWS[column](card)
    f = (_BY_NAME if fields is None else fields).get(column)
    if f is None:  # a column of no field (a plugin game no longer there): its name and the value kept for it
        value = card.extra_value(column)
        return column.replace("_", " ").capitalize(), None if value is None else str(value)
    return f.page_row(card)


def field_rows(card: Card, columns: list[str], fields: Mapping[str, Field] | None = None) \
        -> list[dict[str, str | None]]:
    """Every field of the card in a player's words: [{"key", "label", "value" (None: unknown), "source_key"}]."""
    return [{"key": column, "label": row[0], "value": row[1], "source_key": column}
            for column in columns if (row := field_row(card, column, fields)) is not None]


def game_title(game: str) -> str:
    """A game's whole name (deckcheck.formats.Game.full_title), its name when no game has it."""
    try:
        return game_named(game).full_title
    except KeyError:
        return game
