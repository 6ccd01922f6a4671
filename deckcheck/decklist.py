"""The text decklist (CONTRACTS.md §2) read into plain lines; resolving names is a second step.

Every line is read in time linear in its length: the card-line grammar is taken apart with
string methods from both ends (no regular expression that can backtrack), and a line longer
than MAX_LINE characters is refused before it is looked at.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from .text import normalize

SIDE_WORDS = ("sideboard", "maybeboard", "considering")  # read and resolved, not part of the deck
MAX_LINE = 10_000  # characters: no card name comes near; a longer line is refused unread
MAX_QUANTITY = 1_000_000  # as for collections (CONTRACTS §4)

ENDURANCE_WORD, PREGAME_WORD = "endurance", "pre-game"
_ENDURANCE_KINDS: dict[str, frozenset[str] | None] = {
    "attack": frozenset({"Attack", "Special Attack", "Attack/Defense"}),
    "basic attack": frozenset({"Attack"}),
    "block": frozenset({"Block", "Attack/Defense"}),
    "defense": frozenset({"Block", "Dodge", "Attack/Defense"}),
    "defence": frozenset({"Block", "Dodge", "Attack/Defense"}),
    "dodge": frozenset({"Dodge"}),
    "guard": frozenset({"Block", "Dodge", "Attack/Defense"}),
    "special": frozenset({"Special Attack", "Attack"}),
    "special attack": frozenset({"Special Attack", "Attack"}),
    "event": frozenset({"Event"}),
    "situation": frozenset({"Situation"}),
    "edge": frozenset({"Edge"}),
    "location": frozenset({"Location"}),
    "object": frozenset({"Object"}),
    "plot": frozenset({"Plot"}),
    "ally": None,  # Ally is a subtype of several types: any Endurance card
    "illusion": frozenset({"Illusion"}),
}
_PREGAME_KINDS: dict[str, frozenset[str] | None] = {
    "persona": frozenset({"Persona"}),
    "weapon of choice": frozenset({"Weapon of Choice"}),
    "weapon": frozenset({"Weapon of Choice"}),
    "watcher": frozenset({"Watcher"}),
    "premium": frozenset({"Premium"}),
    "quickening": frozenset({"Quickening"}),
    "crystal": frozenset({"Crystal"}),
}
_PLURALS = {"ally": "allies", "defense": "defenses", "defence": "defences", "weapon of choice": "weapons of choice"}
METADATA_WORDS = {"format": "format", "name": "name", "title": "name", "deck name": "name", "player": "player",
                  "author": "author"}
_QTY_MARKS = "xX×*"


def _heading_table() -> dict[str, tuple[str, frozenset[str] | None]]:
    table: dict[str, tuple[str, frozenset[str] | None]] = {}
    for section, kinds in ((ENDURANCE_WORD, _ENDURANCE_KINDS), (PREGAME_WORD, _PREGAME_KINDS)):
        for word, types in kinds.items():
            table[word] = table[_PLURALS.get(word, word + "s")] = (section, types)
    return table


KIND_HEADINGS = _heading_table()  # folded heading word -> (section, the card types it names; None: any)


@dataclass(slots=True)
class RawLine:
    """One card line: where it stands, how it can be read (quantity, name), and its extras.

    `kinds`: the card types a heading line names (`Persona: Duncan MacLeod`): the card is
    matched among them (None: among all cards).
    """

    line: int
    text: str
    section: str | None
    readings: tuple[tuple[int, str], ...]
    set_code: str | None = None
    attach: str | None = None
    kinds: frozenset[str] | None = None


@dataclass(slots=True)
class RawPlayer:
    """One line of a `Players:` section: a player and the Hero they play."""

    line: int
    text: str
    name: str
    hero: str


@dataclass(slots=True)
class RawProblem:
    """A line that could not be read at all."""

    line: int
    text: str
    message: str
    heading: str | None = None  # an unknown heading as written: its message lists the format's own headings


@dataclass(slots=True)
class RawDeck:
    """A decklist before its names are resolved."""

    source: str
    declared_format: str | None = None
    player: str | None = None
    lines: list[RawLine] = field(default_factory=list)
    players: list[RawPlayer] = field(default_factory=list)
    problems: list[RawProblem] = field(default_factory=list)
    name: str | None = None
    author: str | None = None
    first_card_line: int | None = None  # a title written there without `#` is read as a card

    def add(self, number: int, text: str, section: str | None, quantity: int | None = None,
            set_code: str | None = None, kinds: frozenset[str] | None = None) -> None:
        """Add one card line as written (quantity None: read it from the text)."""
        parsed = parse_card_text(text, quantity)
        if isinstance(parsed, str):
            self.problems.append(RawProblem(number, text, parsed))
            return
        self.lines.append(RawLine(number, text, section, parsed.readings, set_code or parsed.set_code,
                                  parsed.attach, kinds))


def _word_key(text: str) -> str:
    return normalize(text)


@lru_cache(maxsize=1)
def section_words() -> frozenset[str]:
    """The section headings of every format of every game, and their other names, folded: each game
    declares its own (deckcheck.games), so a new game's headings are read without a change here."""
    from .formats import all_formats
    return frozenset(normalize(w) for fmt in all_formats() for section, words in fmt.sections.items()
                     for w in (section, *words))


def section_word(text: str) -> str | None:
    """The folded section name if text names a known section (or a side board), else None."""
    word = text.strip().rstrip(":").strip().lower()
    if normalize(word) in section_words() or word in SIDE_WORDS:
        return word
    key = _word_key(word)
    if key in ("pre game", "pregame"):
        return PREGAME_WORD
    for side in SIDE_WORDS:
        if key.replace(" ", "") == side:
            return side
    kind = KIND_HEADINGS.get(key)
    return kind[0] if kind else None


@dataclass(slots=True)
class CardText:
    """One card line taken apart: its readings, the [SET] and the @ attachment."""

    readings: tuple[tuple[int, str], ...]
    set_code: str | None = None
    attach: str | None = None


def _quantity(digits: str) -> int | str:
    """The whole number digits spell, or the message that refuses it."""
    if len(digits) > 7 or not digits.isascii() or not digits.isdigit():
        return f"the quantity must be a whole number from 1 to {MAX_QUANTITY:,}"
    value = int(digits)
    if value < 1:
        return "the quantity must be at least 1"
    if value > MAX_QUANTITY:
        return f"the quantity must be a whole number from 1 to {MAX_QUANTITY:,}"
    return value


def _is_digits(text: str) -> bool:
    return bool(text) and text.isascii() and text.isdigit()


def _split_set(body: str) -> tuple[str, str | None]:
    """`name [SET]` -> (name, SET); a body not ending in `]` is returned as it is."""
    if not body.endswith("]"):
        return body, None
    start = body.rfind("[")
    if start < 0:
        return body, None
    inner = body[start + 1:-1].strip()
    if not inner or "]" in inner:
        return body, None
    return body[:start].rstrip(), inner


def split_set(text: str) -> tuple[str, str | None]:
    """A card name as written anywhere (`Thrust [ME]`) -> (name, set written in brackets or None)."""
    return _split_set(text.strip())


def _trailing_quantity(body: str) -> tuple[str, str] | None:
    """`name xN`, `name x N`, `name ×N`, `name (xN)`, `name *N` -> (name, digits); else None."""
    head, _, last = body.rpartition(" ")
    if not head:
        return None
    if last[:1] in _QTY_MARKS and _is_digits(last[1:]):  # (no digits, no quantity: "x" alone is a word)
        return head.rstrip(), last[1:]
    if last[:1] == "(" and last[-1:] == ")" and last[1:2] in _QTY_MARKS and _is_digits(last[2:-1]):
        return head.rstrip(), last[2:-1]
    if _is_digits(last):
        before, _, mark = head.rstrip().rpartition(" ")
        if before and len(mark) == 1 and mark in _QTY_MARKS:
            return before.rstrip(), last
    return None


def _leading_quantity(body: str) -> tuple[str, str] | None:
    """`N name`, `Nx name`, `N x name`, `N× name` -> (digits, name); else None."""
    first, _, rest = body.partition(" ")
    rest = rest.lstrip()
    if not rest:
        return None
    if first[-1:] in "xX×" and _is_digits(first[:-1]):
        return first[:-1], rest
    if _is_digits(first):
        mark, _, after = rest.partition(" ")
        if mark in ("x", "X", "×") and after.strip():
            return first, after.lstrip()
        return first, rest
    return None


def ends_in_bare_number(name: str) -> bool:
    """True for `Upper Right Attack 2`, `... - 2`, `... -2`: a number outside round brackets."""
    head, _, last = name.rpartition(" ")
    if not head:
        return False
    return _is_digits(last) or (last[:1] in "-–" and _is_digits(last[1:]))


def parse_card_text(text: str, quantity: int | None = None) -> CardText | str:
    """Readings of one card line: ((qty, name), ...), the [SET] and the @ attachment; or an error message.

    The quantity is written once, before the name or after it (`N name`, `Nx name`, `N x name`,
    `N× name`, `name xN`, `name x N`, `name ×N`, `name (xN)`, `name *N`); `[SET]` stands after the
    name, before or after a trailing quantity. A line that may read as `N name` also keeps the
    bare-name reading (`10 of Hearts`): the reading whose name exists wins.
    """
    if len(text) > MAX_LINE:
        return f"the line is longer than {MAX_LINE:,} characters"
    body = " ".join(text.split())  # one space between words: every step below sees single spaces
    attach = None
    at = body.find(" @")
    if at > 0:
        body, attach = body[:at].rstrip(), body[at + 2:].strip() or None
    body, set_code = _split_set(body)
    whole = body  # read as a bare name too, last: a card's exact name wins over any other reading
    trailing = _trailing_quantity(body)
    if trailing:
        body, qty_text = trailing
        if set_code is None:
            body, set_code = _split_set(body)
    readings: list[tuple[int, str]] = []
    if quantity is not None:
        if trailing:
            return "the quantity is written twice (in its column and on the line)"
        checked = _quantity(str(quantity)) if quantity >= 0 else "the quantity must be at least 1"
        if isinstance(checked, str):
            return checked
        readings.append((quantity, body))
    elif trailing:
        qty = _quantity(qty_text)
        if isinstance(qty, str):
            return qty
        readings.append((qty, body))  # `2 Thrust x2`: the name is read whole (an error if it is no card)
        readings.append((1, whole))
    else:
        leading = _leading_quantity(body)
        if leading:
            qty = _quantity(leading[0])
            if isinstance(qty, str):
                return qty
            readings.append((qty, leading[1]))
        readings.append((1, body))
    readings = [(q, n) for q, n in readings if n]
    if not readings:
        return "no card name"
    return CardText(tuple(readings), set_code, attach)


def _heading(line: str) -> tuple[str, str] | None:
    """`Word:` or `Word: rest` -> (word, rest) when the part before the colon is made of words only."""
    colon = line.find(":")
    if colon <= 0:
        return None
    word = line[:colon].strip()
    if not word or not word[0].isalpha():
        return None
    for ch in word:
        if not (ch.isalpha() or ch in " -'’&/"):
            return None
    return word, line[colon + 1:].strip()


_KNOWN_HEADINGS = ("Pre-Game, Endurance (Deck, Main), kinds of card (Attacks, Blocks, Persona, ...), "
                   "Sideboard, Maybeboard, Considering; metadata: Format, Name, Player, Author")


def unknown_heading(word: str, format_name: str | None) -> str:
    """The message of a heading no format knows, listing the headings of the deck's format."""
    return f"unknown heading {word!r}; headings are {known_headings(format_name)}"


def known_headings(declared_format: str | None) -> str:
    """The headings a decklist may use, for an unknown heading's message: the declared format's own
    sections when it is another game's (the Highlander headings otherwise)."""
    from .errors import UnknownFormatError
    from .formats import get_format
    try:
        fmt = get_format(declared_format) if declared_format else None
    except UnknownFormatError:
        fmt = None
    if fmt is None or fmt.game == "highlander":
        return _KNOWN_HEADINGS
    return f"{', '.join(fmt.sections)}, Sideboard, Maybeboard, Considering; metadata: Format, Name, Player, Author"


def parse_text(text: str, source: str = "-") -> RawDeck:
    """Read a text decklist: comments, metadata lines, section headings and card lines.

    An unknown heading is an input error for its own line only: the cards below it are still
    read (and go where their type belongs), so every problem of a decklist shows in one round.
    """
    deck = RawDeck(source)
    section: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        if len(raw) > MAX_LINE:
            deck.problems.append(RawProblem(number, raw[:80] + "…", f"the line is longer than {MAX_LINE:,} "
                                                                     "characters"))
            continue
        line = raw.strip()
        if not line or line.startswith("#") or line.startswith("//"):
            continue
        heading = _heading(line)
        if section == "players" and (heading is None or heading[1] or section_word(heading[0]) is None):
            player, colon, hero = line.partition(":")
            if colon and player.strip() and hero.strip():
                deck.players.append(RawPlayer(number, raw, player.strip(), hero.strip()))
            else:
                deck.problems.append(RawProblem(number, raw, "a player line is 'Player name: Hero name'"))
            continue
        if heading is None:
            _add_card(deck, number, line, section)
            continue
        word, rest = heading
        key = _word_key(word)
        kinds = None
        if key in KIND_HEADINGS:
            section, kinds = KIND_HEADINGS[key]
        elif section_word(word) is not None:
            section = section_word(word)
        elif key in METADATA_WORDS:
            field_name = METADATA_WORDS[key]
            setattr(deck, "declared_format" if field_name == "format" else field_name, rest or None)
            continue
        else:
            deck.problems.append(RawProblem(number, raw, unknown_heading(word, deck.declared_format), word))
            section = None  # the cards below are read and go where their type belongs
            continue
        if rest:
            _add_card(deck, number, rest, section, kinds)
    return deck


def _add_card(deck: RawDeck, number: int, text: str, section: str | None,
              kinds: frozenset[str] | None = None) -> None:
    if deck.first_card_line is None:
        deck.first_card_line = number
    deck.add(number, text, section, kinds=kinds)
