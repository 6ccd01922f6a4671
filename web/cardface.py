"""A card drawn from its data, and its fields in the words a player reads (the card page).

No card images exist to ship, so the page draws the card: a title bar with the Immortal's name, the
Restriction number, the Reserved sword, the Signature and Unique marks; the grid with its squares;
the type line; the text; the gems of a 2nd-edition card; set and rarity. A value the data does not
hold is a "?" badge that leads to where it can be filled in, never a guess (HL-DATA-UNKNOWN).
"""
from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from deckcheck.cards import Card, Modifiers
from deckcheck.cardsheet import value_of
from deckcheck.grid import SQUARE_NAMES, squares_of

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
    f.foot = " · ".join(p for p in (card.set or "set unknown", card.rarity or "rarity unknown",
                                    EDITIONS.get(card.edition, f"edition {card.edition}") if has("edition") else "")
                        if p)
    return f


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


def field_rows(card: Card, columns: list[str]) -> list[dict]:
    """Every field of the card in a player's words: [{"key", "label", "value" (None: unknown), "source_key"}]."""
    persona = card.is_persona
    rows: list[dict] = []

    def add(key: str, label: str, value: str | None, source_key: str | None = None) -> None:
        rows.append({"key": key, "label": label, "value": value, "source_key": source_key or key})

    for column in columns:
        if column == "game":
            add(column, "Game", _game_title(card.game))
        elif column == "id":
            add(column, "Card id", card.id)
        elif column == "name":
            add(column, "Name in decklists", card.name)
        elif column == "title":
            add(column, "Title", card.title)
        elif column == "immortal":
            add(column, "Immortal", card.immortal or "none: a Generic card, any Immortal may include it")
        elif column == "weapon":
            if persona or card.type == "Weapon of Choice":
                add(column, "Weapon", card.weapon or "none")
            else:
                add(column, "Weapon it needs", card.weapon or "none: any weapon")
        elif column == "version":
            add(column, "Version (picture)", card.version or "the only one")
        elif column == "edition":
            add(column, "Edition", EDITIONS.get(card.edition, str(card.edition)))
        elif column == "set":
            add(column, "Set", card.set)
        elif column == "type":
            add(column, "Type", card.type)
        elif column == "subtype":
            add(column, "Subtype", ", ".join(card.subtype) or "none")
        elif column == "basic":
            add(column, "Basic card", "yes" if card.basic else "no")
        elif column == "grid":
            if card.type in GRID_TYPES or card.grid is not None:
                add(column, "Squares of its grid", None if card.grid is None else grid_words(card))
            else:
                add(column, "Squares of its grid", "none: it is not an Attack, Block or Dodge" if card.type
                    else None)
        elif column == "grid_inferred":
            continue
        elif column == "restriction":
            add(column, "Restriction number", None if card.restriction is None else (
                f"{card.restriction}: at most {card.restriction} cop{'y' if card.restriction == 1 else 'ies'} in a deck"
                if card.restriction else "none printed"))
        elif column == "reserved":
            add(column, "Reserved", _yes(card.reserved, "yes: only its own Persona includes it"))
        elif column == "signature":
            add(column, "Signature", _yes(card.signature, "yes: only its own Persona, whatever a modifier says"))
        elif column == "unique":
            add(column, "Unique", _yes(card.unique, "yes"))
        elif column == "hand_icons":
            add(column, "Hand icons", None if card.hand_icons is None else str(card.hand_icons))
        elif column.startswith("gem_"):
            colour = column[4:]
            value = getattr(card, column)
            if colour == "master" and persona:
                label = "Master cards allowed" if card.edition == 1 else "Master gem (white): Master cards allowed"
            elif persona:
                label = f"{colour.capitalize()} gems"
            else:
                label = f"{colour.capitalize()} gem icons"
            if card.edition == 1 and not value and not (colour == "master" and persona):
                continue  # 1st-edition cards print no gems (a Persona's Master allowance aside)
            add(column, label, None if value is None else str(value))
        elif column == "requires":
            add(column, "Needs permission", ", ".join(sorted(card.requires)) or "none")
        elif column == "deckbuilding":
            add(column, "Changes the deck's rules", modifiers_words(card.modifiers) or "no")
        elif column == "rarity":
            add(column, "Rarity", card.rarity)
        elif column == "text":
            continue  # on the card itself
        else:
            value = value_of(card, column)
            add(column, column.replace("_", " ").capitalize(), None if value is None else str(value))
    return rows


def _game_title(game: str) -> str:
    """A game's whole name (deckcheck.formats.Game.full_title), its name when no game has it."""
    from deckcheck.games import game_named
    try:
        return game_named(game).full_title
    except KeyError:
        return game
