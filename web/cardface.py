"""A card drawn from its data, and its fields in the words a player reads (the card page).

No card images exist to ship, so the page draws the card: a title bar with the Immortal's name, the
Restriction number, the Reserved sword, the Signature and Unique marks; the grid with its squares;
the type line; the text; the gems of a 2nd-edition card; set and rarity. A card of another game shows its
game in the bar and its game's own columns (a Raven card's Renown, Health and Skill); a card of a standard deck
(Game.pips) its rank and suit symbol in red or black. A value the data does not hold is a "?" badge that leads to
where it can be filled in, never a guess (HL-DATA-UNKNOWN).
"""
from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, field

from deckcheck.cards import Card, Modifiers
from deckcheck.cardsheet import value_of
from deckcheck.grid import SQUARE_NAMES, squares_of
from deckcheck.library.facts import FORM_FIELDS

GRID_TYPES = ("Attack", "Special Attack", "Block", "Dodge")
GEMS = (("master", "Master", "M"), ("agility", "Agility", "A"), ("strength", "Strength", "S"),
        ("toughness", "Toughness", "T"), ("empathy", "Empathy", "E"), ("reason", "Reason", "R"))
EDITIONS = {1: "1st edition", 2: "2nd edition (Type 2)", 3: "3rd edition"}


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
    for key, label, symbol, meaning in (
            ("reserved", "Reserved", "⚔", "Reserved: only its own Persona includes it"),
            ("signature", "Signature", "✒", "Signature: only its own Persona, never lifted by a modifier"),
            ("unique", "Unique", "◆", "Unique")):
        value = getattr(card, key) if has(key) else False
        if value is None:
            f.marks.append(Mark(key, label, symbol, f"{label}: unknown", unknown=True))
        elif value:
            f.marks.append(Mark(key, label, symbol, meaning))
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
    from deckcheck.games import game_named
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


FieldRow = tuple[str, str | None]  # a field's label and its value in a player's words (None: unknown)


def _weapon_row(card: Card) -> FieldRow:
    if card.is_persona or card.type == "Weapon of Choice":
        return "Weapon", card.weapon or "none"
    return "Weapon it needs", card.weapon or "none: any weapon"


def has_grid(card: Card) -> bool:
    """Whether a card has a grid to cover squares with (an Attack, Block or Dodge; a card of unknown type may)."""
    return card.type in GRID_TYPES or card.grid is not None or card.type is None


def form_fields(card: Card, columns: Collection[str]) -> tuple[list[str], list[str]]:
    """Which facts a fill-in form asks of a card: (those its page says are unknown, the others the card has), in
    FORM_FIELDS order, of the page's `columns`; a field the card does not have (a Persona's grid) is in neither.
    The one choice of a card's questions (the card page, its form and the check page's form), read off the page's
    field description (field_row)."""
    unknown: list[str] = []
    known: list[str] = []
    for column in FORM_FIELDS:
        if column not in columns or (column == "grid" and not has_grid(card)):
            continue
        row = field_row(card, column) if column != "text" else ("Text", card.text or "")  # text: on the card
        if row is not None:
            (unknown if row[1] is None else known).append(column)
    return unknown, known


def _grid_row(card: Card) -> FieldRow:
    if card.type in GRID_TYPES or card.grid is not None:
        return "Squares of its grid", None if card.grid is None else grid_words(card)
    return "Squares of its grid", "none: it is not an Attack, Block or Dodge" if card.type else None


def _restriction_row(card: Card) -> FieldRow:
    n = card.restriction
    if n is None:
        return "Restriction number", None
    return "Restriction number", f"{n}: at most {n} cop{'y' if n == 1 else 'ies'} in a deck" if n else "none"


def _gem_row(card: Card, column: str) -> FieldRow | None:
    """A gem count's row; None for a 1st-edition card's missing gem (they print none, a Persona's Master aside)."""
    colour, value, persona = column[4:], getattr(card, column), card.is_persona
    if colour == "master" and persona:
        label = "Master cards allowed" if card.edition == 1 else "Master gem (white): Master cards allowed"
    elif persona:
        label = f"{colour.capitalize()} gems"
    else:
        label = f"{colour.capitalize()} gem icons"
    if card.edition == 1 and not value and not (colour == "master" and persona):
        return None
    return label, None if value is None else str(value)


def _other_row(card: Card, column: str) -> FieldRow:
    value = value_of(card, column)
    return column.replace("_", " ").capitalize(), None if value is None else str(value)


FIELD_ROWS: dict[str, Callable[[Card], FieldRow | None]] = {
    "game": lambda c: ("Game", game_title(c.game)),
    "id": lambda c: ("Card id", c.id),
    "name": lambda c: ("Name in decklists", c.name),
    "title": lambda c: ("Title", c.title),
    "immortal": lambda c: ("Immortal", c.immortal or "none: a Generic card, any Immortal may include it"),
    "weapon": _weapon_row,
    "version": lambda c: ("Version (picture)", c.version or "the only one"),
    "edition": lambda c: ("Edition", EDITIONS.get(c.edition, str(c.edition))),
    "set": lambda c: ("Set", c.set),
    "type": lambda c: ("Type", c.type),
    "subtype": lambda c: ("Subtype", ", ".join(c.subtype) or "none"),
    "basic": lambda c: ("Basic card", "yes" if c.basic else "no"),
    "grid": _grid_row,
    "grid_inferred": lambda c: None,
    "restriction": _restriction_row,
    "reserved": lambda c: ("Reserved", _yes(c.reserved, "yes: only its own Persona includes it")),
    "signature": lambda c: ("Signature", _yes(c.signature, "yes: only its own Persona, whatever a modifier says")),
    "unique": lambda c: ("Unique", _yes(c.unique, "yes")),
    "hand_icons": lambda c: ("Hand icons", None if c.hand_icons is None else str(c.hand_icons)),
    "requires": lambda c: ("Needs permission", ", ".join(sorted(c.requires)) or "none"),
    "deckbuilding": lambda c: ("Changes the deck's rules", modifiers_words(c.modifiers) or "no"),
    "rarity": lambda c: ("Rarity", c.rarity),
    "text": lambda c: None,  # on the card itself
}


def field_row(card: Card, column: str) -> FieldRow | None:
    """One field's label and value in a player's words; None for a field the card page does not list."""
    if column in FIELD_ROWS:
        return FIELD_ROWS[column](card)
    return _gem_row(card, column) if column.startswith("gem_") else _other_row(card, column)


def field_rows(card: Card, columns: list[str]) -> list[dict[str, str | None]]:
    """Every field of the card in a player's words: [{"key", "label", "value" (None: unknown), "source_key"}]."""
    return [{"key": column, "label": row[0], "value": row[1], "source_key": column}
            for column in columns if (row := field_row(card, column)) is not None]


def game_title(game: str) -> str:
    """A game's whole name (deckcheck.formats.Game.full_title), its name when no game has it."""
    from deckcheck.games import game_named
    try:
        return game_named(game).full_title
    except KeyError:
        return game
