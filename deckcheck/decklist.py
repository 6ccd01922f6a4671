"""The text decklist (CONTRACTS.md §2) read into plain lines; resolving names is a second step.

Every line is read in time linear in its length: the card-line grammar is taken apart with
string methods from both ends (no regular expression that can backtrack), and a line longer
than MAX_LINE characters is refused before it is looked at.
"""
from __future__ import annotations

import csv
import difflib
import io
import re
import unicodedata
from dataclasses import KW_ONLY, dataclass, field
from enum import Enum
from typing import Iterator, Mapping

from . import limits
from .headers import column_of
from .markup import take_off
from .memo import Memo
from .text import APOSTROPHES, is_digits as _is_digits, normalize, split_written_set as _split_set
from .text import ends_in_bare_number as ends_in_bare_number, split_set as split_set  # the shape of a name as written


SIDE_WORDS = ("sideboard", "maybeboard", "considering")  # read and resolved, not part of the deck
_SIDE_ALIASES = {"side": "sideboard", "sb": "sideboard", "maybe": "maybeboard"}
OTHER_WORDS = frozenset({"other", "others", "misc", "miscellaneous", "tech", "extras", "utility"})
"""Headings of no kind (`Other:`, `**Misc**`, `Tech (3)`): the cards below go where their type belongs."""
MAX_LINE = limits.LINE_CHARS.value  # characters: no card name comes near; a longer line is refused unread
MAX_QUANTITY = limits.QUANTITY.value  # as for collections (CONTRACTS §4)

METADATA_WORDS = {"format": "format", "name": "name", "title": "name", "deck name": "name", "deck title": "name",
                  "deckname": "name", "list name": "name", "player": "player", "author": "author",
                  "date": "date", "event": "event", "tournament": "event"}
TITLE_HEADINGS = frozenset({"deck", "decklist", "deck list", "list", "my deck", "my list"})
"""Words of a line that may carry the deck's title (`Deck: "Kurgan Rush"`): in quotes anywhere, or unquoted on the
list's first line when it names no card. `Decklist:` alone is a heading of no kind (as `Other:`)."""
_QTY_MARKS = "xX×*"
NUMBER_WORDS = {w: i for i, w in enumerate(
    ("one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
     "seventeen eighteen nineteen twenty").split(), start=1)}
"""Quantities written in words (`three Thrust`, `Thrust (three)`), up to twenty: no card is held more often."""
_COPIES = ("copies", "copy")
_QUOTES = {'"': '"', "'": "'", "\u201c": "\u201d", "\u201e": "\u201c", "\u00ab": "\u00bb", "\u2018": "\u2019"}
_SEPARATORS = ",;=:"  # `Thrust, 3`, `Thrust; 3`, `Thrust = 3`, `Thrust: 3` (and ` - 3`, whose number may be a version)


@dataclass(frozen=True)
class Grammar:
    """What a decklist's words mean, from the games it may be of (deckcheck.formats.Game; built once by
    deckcheck.registry.grammar_of for a Registry): the parser reads this value, never the games.

    `headings`: folded heading word (singular and plural) -> (section, the card types it names; None: any);
    `singular`: the heading words as a game declares them (`Dodge` alone on a line is a card's title too);
    `inline`: heading words whose line may carry its one card after the colon (`Persona: Duncan MacLeod`);
    `pairs`: sections whose lines are `Name: value` pairs -> what a line that is not one is told;
    `sections`: every format's section names and their other names, folded; `compact`: the sections written
    together (`pregame` -> `pre-game`); `titles`: the sections folded -> as the game writes them;
    `help`: a format's name, alias or folded name -> (its game's headings, its game's sections with their other
    names), for the messages of an unknown heading or section; `default`: the format whose help a list without
    a known format gets.
    """

    headings: Mapping[str, tuple[str, frozenset[str] | None]]
    singular: frozenset[str] = frozenset()
    inline: frozenset[str] = frozenset()
    pairs: Mapping[str, str] = field(default_factory=dict)
    sections: frozenset[str] = frozenset()
    compact: Mapping[str, str] = field(default_factory=dict)
    titles: Mapping[str, str] = field(default_factory=dict)
    help: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    default: str = ""
    # What the parser found each line to be under these words (one answer per line text: a tournament's decks
    # write the same lines again and again), each answer in a 1-tuple (an answer may be None)
    headings_read: Memo[tuple[str, bool], tuple[_Heading | None]] = field(
        default_factory=lambda: Memo(_LINE_MEMO), compare=False, repr=False)
    lines_cleaned: Memo[tuple[str, bool], tuple[tuple[str, bool] | None]] = field(
        default_factory=lambda: Memo(_LINE_MEMO), compare=False, repr=False)

    def section_word(self, text: str) -> str | None:
        """The folded section name if text names a known section (or a side board), else None."""
        word = text.strip().rstrip(":").strip().lower()
        if normalize(word) in self.sections or word in SIDE_WORDS:
            return word
        key = _word_key(word)
        compact = key.replace(" ", "")
        if compact in self.compact:
            return self.compact[compact]
        if key in _SIDE_ALIASES:
            return _SIDE_ALIASES[key]
        for side in SIDE_WORDS:
            if compact == side:
                return side
        kind = self.headings.get(key)
        return kind[0] if kind else None

    def _help(self, declared_format: str | None) -> tuple[str, str]:
        """The help texts of the declared format's game (the default format's when none is declared or it is
        unknown), found as deckcheck.formats.find_format finds a format."""
        key = normalize(declared_format or self.default).replace(" ", "-")
        found = self.help.get(key) or self.help.get(normalize(key))
        return found or self.help.get(self.default, ("", ""))

    def known_headings(self, declared_format: str | None) -> str:
        """The headings a decklist may use, for an unknown heading's message: those the declared format's game
        declares (Game.heading_help), the default format's game's when the list declares none."""
        return self._help(declared_format)[0]

    def known_sections(self, declared_format: str | None) -> str:
        """The sections of the declared format's game, each with its other names: `Pre-Game, Endurance (Deck,
        Main)`, for an unknown section's message."""
        return self._help(declared_format)[1]

    def unknown_heading(self, word: str, format_name: str | None) -> str:
        """The message of a heading no format knows, listing the headings of the deck's format."""
        return f"unknown heading {word!r}; headings are {self.known_headings(format_name)}"


@dataclass(slots=True, kw_only=True)
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
    title: bool = False  # the list's first line, no quantity, before any heading: the deck's title if no card
    twice: str | None = None  # the line holds two quantities (`3 Thrust x2`): the message if no reading is a card
    quantity_written: bool = False  # a quantity was written on the line (or in its column)
    bare: str = ""  # the line as read, without bullet, Markdown, remark: what a suggestion rewrites
    dash: str | None = None  # `Upper Right Attack - 2`: a number after ` - ` is a quantity unless a version has it
    separated: bool = False  # `Thrust, 3`: the error of a line naming no card is its name's, not the whole line's
    worded: bool = False  # the quantity is a word (`three Thrust`): the whole line is tried first as a name
    heading: str | None = None  # `Word: 3` where Word is no heading: read as a card, else that unknown heading
    # one of the cards of a line that writes several (Taktik's Deck: `K♠, Kign of Spades`): the line's bare text and
    # where this card's name stands in it, so that its problem names it and a suggestion rewrites only it
    part_of: tuple[str, int, int] | None = None


@dataclass(slots=True)
class Stated:
    """A count the list states: a heading's (`Attacks (24):`), compared with the card lines below it up to
    `end` (the next heading), or a total line's (`Total: 51`), compared with the section it names (None:
    the whole deck). A difference is a notice, never an error."""

    line: int
    count: int
    section: str | None
    heading: bool
    end: int | None = None  # the first line after the heading's cards (None: to the end of the list)
    since: int = 0  # a total: the line after the previous heading or total (a running total counts from it)


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
    section: str | None = None  # a card line refused (a quantity past the bound): the section it stands in


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
    date: str | None = None  # `Date: 2026-03-14`, or a date under the title
    event: str | None = None  # `Event: Spring Regionals`
    first_card_line: int | None = None  # a title written there without `#` is read as a card
    stated: list[Stated] = field(default_factory=list)  # counts the list states (headings, totals)
    notices: list[str] = field(default_factory=list)  # what the reader read differently from a card line
    headings: list[int] = field(default_factory=list)  # the lines of headings (and remarks posing as ones)
    grammar: Grammar | None = field(default=None, compare=False, repr=False)  # what read it (parse_text's)

    def unknown_heading(self, word: str, format_name: str | None) -> str:
        """The message of a heading no format knows, in the words of the grammar that read the list."""
        if self.grammar is None:
            return f"unknown heading {word!r}"
        return self.grammar.unknown_heading(word, format_name)

    def add(self, number: int, text: str, section: str | None, quantity: int | None = None,
            set_code: str | None = None, kinds: frozenset[str] | None = None, shown: str | None = None,
            title: bool = False, heading: str | None = None) -> None:
        """Add one card line (quantity None: read it from the text); `shown` is the line as written, when
        `text` is what is left of it once bullets, Markdown and remarks are taken off."""
        parsed = parse_card_text(text, quantity)
        if isinstance(parsed, Refused):
            self.problems.append(RawProblem(number, shown or text, str(parsed), section=section))
            return
        written = quantity is not None or (parsed.quantity_written and not parsed.worded)
        self.lines.append(RawLine(
            line=number, text=shown or text, section=section, readings=parsed.readings,
            set_code=set_code or parsed.set_code, attach=parsed.attach, kinds=kinds, title=title and not written,
            twice=parsed.twice, quantity_written=written, bare=text, dash=parsed.dash, separated=parsed.separated,
            worded=parsed.worded, heading=heading))


def _word_key(text: str) -> str:
    return normalize(text)


@dataclass(slots=True)
class CardText:
    """One card line taken apart: its readings, the [SET] and the @ attachment."""

    readings: tuple[tuple[int, str], ...]
    _: KW_ONLY  # the flags by name: CardText(readings, worded=True)
    set_code: str | None = None
    attach: str | None = None
    quantity_written: bool = False
    twice: str | None = None  # `3 Thrust x2`: the message for a line whose readings name no card
    dash: str | None = None  # the digits after ` - ` (`Upper Right Attack - 2`): a version's number, or a quantity
    separated: bool = False  # the quantity stands after a separator (`Thrust, 3`, `Thrust: 3`, `Thrust - 3`)
    worded: bool = False  # the quantity is a word (`three Thrust`): the whole line is the first reading

    @property
    def name(self) -> str:
        """The name the line writes, without its quantity (what a suggestion replaces)."""
        return self.readings[1][1] if self.worded and len(self.readings) > 1 else self.readings[0][1]


class Refusal(Enum):
    """Why a card line was refused, as data (its message says it in words)."""

    LONG_LINE = "long line"
    BAD_QUANTITY = "bad quantity"
    QUANTITY_TWICE = "quantity twice"
    NO_NAME = "no card name"


class Refused(str):
    """A card line refused: the message, which reads as any text does, and `reason`, why."""

    reason: Refusal

    def __new__(cls, message: str, reason: Refusal) -> Refused:
        refused = super().__new__(cls, message)
        refused.reason = reason
        return refused

    def __getnewargs__(self) -> tuple[str, Refusal]:  # type: ignore[override]
        return str(self), self.reason


_OUT_OF_RANGE = f"the quantity must be a whole number from 1 to {MAX_QUANTITY:,}"
_BELOW_ONE = Refused("the quantity must be at least 1", Refusal.BAD_QUANTITY)


def _quantity(digits: str) -> int | Refused:
    """The whole number digits spell, or the refusal of it."""
    if len(digits) > 7 or not digits.isascii() or not digits.isdigit():
        return Refused(_OUT_OF_RANGE, Refusal.BAD_QUANTITY)
    value = int(digits)
    if value < 1:
        return _BELOW_ONE
    if value > MAX_QUANTITY:
        return Refused(_OUT_OF_RANGE, Refusal.BAD_QUANTITY)
    return value


def unquote(text: str) -> str:
    """A text in quotes (`"Kurgan Rush"`, `“Kurgan Rush”`, `«Kurgan Rush»`) without them; any other text as it is."""
    text = text.strip()
    close = _QUOTES.get(text[:1])
    if close is not None and len(text) > 2 and text.endswith(close) and text[1:-1].strip():
        return text[1:-1].strip()
    if text[:1] in "\u201c\u201d" and text[-1:] in "\u201c\u201d" and len(text) > 2:
        return text[1:-1].strip()
    return text


_NUMBER_DIGITS = {form: str(n) for w, n in NUMBER_WORDS.items() for form in (w, w.title(), w.upper())}
_NUMBER_INITIALS = frozenset(w[0] for w in _NUMBER_DIGITS)  # a line starting otherwise has no number word first


def _number_word(word: str) -> str | None:
    """`three` -> `3` (one to twenty, in lower case, capitalised or in capitals); None for any other word."""
    return _NUMBER_DIGITS.get(word)


def _quantity_text(text: str) -> str | None:
    """A quantity standing alone after a separator or in brackets: `3`, `x3`, `3x`, `×3`, `three`, `3 copies`,
    `three copies`, `x 3` -> its digits; None for anything else."""
    words = text.split()
    if len(words) > 1 and words[-1].lower() in _COPIES + ("cards", "card"):
        words.pop()
    if len(words) == 2 and words[0] in ("x", "X", "×"):
        words.pop(0)
    if len(words) != 1:
        return None
    word = words[0]
    if _is_digits(word):
        return word
    if len(word) > 1 and (word[0] in "xX×" and _is_digits(word[1:])):
        return word[1:]
    if len(word) > 1 and (word[-1] in "xX×" and _is_digits(word[:-1])):
        return word[:-1]
    return _number_word(word)


def _separated_quantity(body: str) -> tuple[str, str, bool] | None:
    """`name, N`, `name; N`, `name = N`, `name: N`, `name - N` (N digits, `xN`, a number word, `N copies`) ->
    (name, digits, whether N came bare after ` - `, where it may be a version's number); else None. The last
    separator counts: `Watcher (Hunter: 2 Damage): 2` is two of that card."""
    at = max(body.rfind(","), body.rfind(":"), body.rfind("="), body.rfind(";"))
    dash = body.rfind(" - ")
    if dash > at:
        tail, head = body[dash + 3:], body[:dash]
    elif at > 0:
        tail, head = body[at + 1:], body[:at]
    else:
        return None
    head = head.rstrip()
    qty = _quantity_text(tail) if len(tail) <= 30 else None
    if qty is None or not head or head.endswith(tuple(_SEPARATORS) + ("-",)):
        return None
    return head, qty, dash > at and _is_digits(tail.strip())


_COUNTERS = "枚"  # a counter word written after a number (`Thrust 3枚`, `Thrust×3枚`: three cards)
_MARKS_NO_NAME_HOLDS = "×*" + _COUNTERS  # `Thrust×3` is three copies, never `Thrust (3)` (which it folds to)


def _counted(word: str) -> str:
    """A word without a counter after its digits (`3枚` -> `3`)."""
    return word[:-1] if word[-1:] in _COUNTERS and word[-2:-1].isdigit() else word


def _glued_quantity(body: str) -> tuple[str, str] | None:
    """`Thrust×3`, `Upper Left Attack×3枚`, `Thrust (2)x3`: a quantity mark written right after the name, no space
    -> (name, digits); else None. A letter x counts only after a closing bracket (`Box3` stays a name)."""
    body = _counted(body)
    if body[-1:] == ")":  # `Lower Right Attack（x3）` (full-width brackets fold to these)
        at = body.rfind("(")
        inner = body[at + 1:-1]
        if at > 0 and body[at - 1] != " " and inner[:1] in _QTY_MARKS and _is_digits(inner[1:]):
            return body[:at].rstrip(), inner[1:]
    start = body.rfind(" ") + 1
    at = max(body.rfind(mark, start) for mark in _QTY_MARKS)
    if at <= start or not _is_digits(body[at + 1:]) or (body[at] in "xX" and body[at - 1] != ")"):
        return None
    return body[:at].rstrip(), body[at + 1:]


def _trailing_quantity(body: str) -> tuple[str, str] | None:
    """`name xN`, `name x N`, `name ×N`, `name (xN)`, `name *N`, `name (three)`, `name (3 copies)`, `name x three`,
    `name 3枚` -> (name, digits); else None. (`name (3)` is version 3.)"""
    head, _, last = body.rpartition(" ")
    if not head:
        return None
    last = _counted(last)
    if last[:1] not in _QTY_MARKS and _is_digits(last) and body[-1:] in _COUNTERS:
        return head.rstrip(), last  # `Thrust 3枚`
    if last[:1] in _QTY_MARKS and _is_digits(last[1:]):  # (no digits, no quantity: "x" alone is a word)
        return head.rstrip(), last[1:]
    if last[-1:] == ")":
        if last[:1] == "(" and last[1:2] in _QTY_MARKS and _is_digits(last[2:-1]):
            return head.rstrip(), last[2:-1]
        at = body.rfind("(")
        if 0 < at and len(body) - at < 30 and body[at - 1] == " " and not _is_digits(body[at + 1:-1]):
            qty = _quantity_text(body[at + 1:-1])  # `(three)`, `(3 copies)`; never `(3)`, a version
            if qty is not None:
                return body[:at].rstrip(), qty
        return None
    if _is_digits(last):
        before, _, mark = head.rstrip().rpartition(" ")
        if before and len(mark) == 1 and mark in _QTY_MARKS:
            return before.rstrip(), last
        return None
    word = _number_word(last)
    if word and head[-2:] in (" x", " X", " ×"):
        return head[:-2].rstrip(), word
    return None


def _drop_copies(rest: str) -> str:
    """`copies of Thrust`, `copy of Thrust`, `copies Thrust` -> `Thrust` (after a leading quantity)."""
    word, _, after = rest.partition(" ")
    if word.lower() in _COPIES and after:
        of, _, name = after.partition(" ")
        return name if of.lower() == "of" and name else after
    return rest


def _worded_quantity(body: str) -> tuple[str, str] | None:
    """`three Thrust`, `Three x Thrust`, `three copies of Thrust` -> (digits, name); else None."""
    first, _, rest = body.partition(" ")
    digits = _number_word(first)
    if digits is None or not rest:
        return None
    if rest[:2] in ("x ", "X ", "× "):
        rest = rest[2:]
    rest = _drop_copies(rest)
    return (digits, rest) if rest else None


def _leading_quantity(body: str) -> tuple[str, str] | None:
    """`N name`, `Nx name`, `N x name`, `N× name`, `N copies of name` -> (digits, name); else None."""
    first, _, rest = body.partition(" ")
    rest = rest.lstrip()
    if not rest:
        return None
    if rest[:1] in "cC":
        rest = _drop_copies(rest)
    if first[-1:] == ":" and len(first) > 1:  # `3x: Thrust`, `3: Thrust`
        first = first[:-1]
    if first[:1] == "(" and first[-1:] == ")" and len(first) > 2:  # `(3) Thrust`, `(3x) Thrust`
        first = first[1:-1]
    if rest[:3] in ("of ", "Of ") and _is_digits(first.rstrip("xX×")):  # `3 of Thrust` (`10 of Hearts` read whole too)
        rest = rest[3:].lstrip() or rest
    if first[-1:] in "xX×" and _is_digits(first[:-1]):
        return first[:-1], rest
    if first[:1] in "xX×" and _is_digits(first[1:]):  # `x3 Thrust`
        return first[1:], rest
    if _is_digits(first):
        mark, _, after = rest.partition(" ")
        if mark in ("x", "X", "×") and after.strip():
            return first, after.lstrip()
        return first, rest
    return None


def _trailing_readings(qty: int, name: str, whole: str) -> list[tuple[int, str]]:
    """The readings of a line with a quantity after its name: that, then the whole line as a name (`2 Thrust x2`:
    an error if it is no card), unless it holds a mark no name holds (`Thrust×3`, `Thrust *3` fold to
    `Thrust 3`, the folded name of `Thrust (3)`: never one copy of a version)."""
    if any(mark in whole for mark in _MARKS_NO_NAME_HOLDS):
        return [(qty, name)]
    return [(qty, name), (1, whole)]


_LINE_MEMO = 8192  # distinct lines remembered per table: a tournament's decks write the same lines again and again
_MEMO_CHARS = 256  # only lines this short are remembered (a card line is): at most ~2 MB held per table
_CARD_TEXTS: Memo[tuple[str, int | None], CardText | Refused] = Memo(_LINE_MEMO)


def parse_card_text(text: str, quantity: int | None = None) -> CardText | Refused:
    """What one card line is (_parse_card_text), remembered: the answer depends on the text and quantity alone,
    and nobody changes a CardText once made."""
    if len(text) > MAX_LINE:
        return Refused(_LONG_LINE, Refusal.LONG_LINE)
    if len(text) > _MEMO_CHARS:
        return _parse_card_text(text, quantity)
    key = (text, quantity)
    known = _CARD_TEXTS.get(key)
    return known if known is not None else _CARD_TEXTS.put(key, _parse_card_text(text, quantity))


def _parse_card_text(text: str, quantity: int | None = None) -> CardText | Refused:
    """Readings of one card line: ((qty, name), ...), the [SET] and the @ attachment; or an error message.

    The quantity is written once, before the name or after it (`N name`, `Nx name`, `N x name`,
    `N× name`, `name xN`, `name x N`, `name ×N`, `name (xN)`, `name *N`); `[SET]` stands after the
    name, before or after a trailing quantity. A line that may read as `N name` also keeps the
    bare-name reading (`10 of Hearts`): the reading whose name exists wins.
    """
    if len(text) > MAX_LINE:
        return Refused(_LONG_LINE, Refusal.LONG_LINE)
    body = " ".join(text.split())  # one space between words: every step below sees single spaces
    attach = None
    at = body.find(" @")
    if at > 0:
        body, attach = body[:at].rstrip(), body[at + 2:].strip() or None
    body, set_code = _split_set(body)
    whole = body  # read as a bare name too, last: a card's exact name wins over any other reading
    trailing = _trailing_quantity(body) or _glued_quantity(body)
    dash, separated = None, None
    if trailing is None and ("," in body or ":" in body or "=" in body or ";" in body or " - " in body):
        separated = _separated_quantity(body)
        if separated is not None:
            trailing = separated[:2]
            dash = separated[1] if separated[2] else None
    if trailing is None and body.endswith(")") and " (" in body:
        # `Thrust x3 (ME)`, `Thrust ×3 (1)`: the bracket belongs to the name, as [SET] may stand after a quantity
        at = body.rindex(" (")
        inner = _trailing_quantity(body[:at])
        if inner:
            trailing = (f"{inner[0]}{body[at:]}", inner[1])
    if trailing:
        body, qty_text = trailing
        if set_code is None:
            body, set_code = _split_set(body)
    readings: list[tuple[int, str]] = []
    twice = None
    if trailing and quantity is None:
        lead = _leading_quantity(body) or (_worded_quantity(body) if body[:1] in _NUMBER_INITIALS else None)
        if lead:
            twice = (f"the quantity is written twice ({lead[0]} before the name, {qty_text} after it): "
                     "keep one")
    if quantity is not None:
        if trailing:
            return Refused("the quantity is written twice (in its column and on the line)", Refusal.QUANTITY_TWICE)
        checked = _quantity(str(quantity)) if quantity >= 0 else _BELOW_ONE
        if isinstance(checked, Refused):
            return checked
        readings.append((quantity, body))
    elif trailing:
        qty = _quantity(qty_text)
        if isinstance(qty, str):
            return qty
        readings += _trailing_readings(qty, body, whole)
    else:
        leading = _leading_quantity(body)
        worded = _worded_quantity(body) if leading is None and body[:1] in _NUMBER_INITIALS else None
        if leading:
            qty = _quantity(leading[0])
            if isinstance(qty, str):
                return qty
            readings.append((qty, leading[1]))
        readings.append((1, body))
        if worded:  # after the whole line: `Four Horsemen`, `One Year of Love` are cards
            readings.append((int(worded[0]), worded[1]))
            return CardText(tuple(readings), set_code=set_code, attach=attach, quantity_written=True, twice=twice,
                            worded=True)
    readings = [(q, n) for q, n in readings if n]
    if not readings:
        return Refused("no card name", Refusal.NO_NAME)
    return CardText(tuple(readings), set_code=set_code, attach=attach,
                    quantity_written=quantity is not None or len(readings) > 1 or trailing is not None,
                    twice=twice, dash=dash,
                    separated=separated is not None)


def _heading(line: str) -> tuple[str, str] | None:
    """`Word:` or `Word: rest` -> (word, rest) when the part before the colon is made of words only."""
    colon = line.find(":", 0, _MAX_HEADING)
    if colon <= 0:
        return None
    word = line[:colon].strip()
    if not word or not word[0].isalpha():
        return None
    if not word.isalpha():
        letters = word.translate(_HEADING_MARKS)
        if letters and not letters.isalpha():
            return None
    return word, line[colon + 1:].strip()


_HEADING_MARKS = str.maketrans("", "", " -'’&/")  # what a heading's words may hold besides letters
_MAX_HEADING = 100  # characters before a heading's colon: no heading (nor card name) comes near


# Characters phones, word processors and forums put in place of plain ones (CONTRACTS.md §2, revision 3).
_SPACE_CHARS = "\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000"
_DASH_CHARS = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
_INVISIBLE = "\ufeff\u200b\u200c\u200d\u2060\u00ad"  # (U+00AD: a soft hyphen a word processor hides in a name)
_NAME_QUOTES = "「」『』"  # Japanese quotes around a card's name: `「Thrust」×3`
_FOLD_CHARS = str.maketrans({**{c: " " for c in _SPACE_CHARS}, **{c: "-" for c in _DASH_CHARS},
                             **{c: "'" for c in APOSTROPHES if c != "'"}, **{c: None for c in _INVISIBLE},
                             **{chr(0xFF01 + i): chr(0x21 + i) for i in range(94)},  # full-width forms
                             **{c: None for c in _NAME_QUOTES}, "【": "[", "】": "]", "、": ",", "✕": "×", "✖": "×"})
BULLETS = "-*•·+>"  # before a line, then a space (`•` and `·` need none: no card name starts with one)
_SEPARATOR_CHARS = "-=*_~#"
_LIST_NUMBER = re.compile(r"(\d{1,4})[.)] +")  # a numbered list's `1. ` or `1) `
_EMOJI_PARTS = "\ufe0f\ufe0e\u20e3"  # emoji and text presentation selectors, the keycap


def fold_chars(text: str) -> str:
    """A line with the characters phones and word processors write read as plain ones: Unicode spaces as
    spaces, en and em dashes as hyphens, every apostrophe form as ', full-width digits and letters as ASCII,
    zero-width characters and byte-order marks dropped."""
    return text if text.isascii() else text.translate(_FOLD_CHARS)


def _is_separator(line: str) -> bool:
    """`-----`, `=====`, `* * *`: three or more of one of - = * _ ~ # and nothing else."""
    if line[:1] not in _SEPARATOR_CHARS or len(line) > 200:
        return False
    marks = line.replace(" ", "")
    return len(marks) >= 3 and marks[0] in _SEPARATOR_CHARS and marks == marks[0] * len(marks)


def _is_decoration(char: str) -> bool:
    """An emoji or other pictograph (`✅`, `⚔️`, `🃏`, `➤`) with its modifiers: no card name holds one."""
    return char in _EMOJI_PARTS or unicodedata.category(char) in ("So", "Sk") and char not in "^`´"


def _strip_decoration(line: str) -> str:
    """The line without the emoji and pictographs chats put around it (`✅ 3 Thrust`, `🛡️ Blocks 🛡️`)."""
    if line.isascii():
        return line
    start, end = 0, len(line)
    while start < end and (_is_decoration(line[start]) or line[start] == " "):
        start += 1
    while end > start and (_is_decoration(line[end - 1]) or line[end - 1] == " ") and not _is_suit(line, end - 1):
        end -= 1
    return line[start:end]


_SUITS = "♠♥♦♣♤♡♢♧"


def _is_suit(line: str, at: int) -> bool:
    """A playing card's suit written right after its rank (`Q♥`, `10♦`): part of the card's name, not an emoji."""
    return line[at] in _SUITS and at > 0 and line[at - 1].isalnum()


def _strip_bullet(line: str) -> str:
    """The line without the list marks before it (`- `, `* `, `• `, `> `, several in a row) and without the
    emoji around it."""
    line = _strip_decoration(line)
    for _ in range(4):
        if line[:1] in "•·" or (line[:1] in BULLETS and line[1:2] == " "):
            line = line[1:].lstrip()
        else:
            break
    numbered = _LIST_NUMBER.match(line)
    rest = line[numbered.end():] if numbered else ""
    parsed = parse_card_text(rest) if rest else None
    if isinstance(parsed, CardText) and parsed.quantity_written:
        line = rest  # `1. 3x Thrust`, `2) Thrust x3`: the list's numbering, then the line's own quantity
    return line


def _strip_markdown(line: str) -> tuple[str, bool]:
    """The line without Markdown emphasis (`**Blocks:**`, `__Blocks__`, `*Thrust* x3`); and whether it had any.
    A `*3` after a name stays: only a `*` or `_` that opens the line and closes before a space, a colon or the
    end is emphasis."""
    marked = False
    for mark in ("**", "__"):
        if mark in line:
            line, marked = line.replace(mark, ""), True
    for mark in ("*", "_"):
        if line[:1] == mark and line[1:2] not in (" ", mark, ""):
            close = line.find(mark, 1)
            if close > 0 and line[close + 1:close + 2] in ("", " ", ":"):
                line, marked = line[1:close] + line[close + 1:], True
    return line.strip(), marked


def _remark_cut(line: str) -> str:
    """The line without a remark after `//`, ` # ` or ` -- ` (`3 Thrust // staple`, `3 Thrust  # core`)."""
    for mark in (" //", " # ", " -- "):
        at = line.find(mark)
        if at > 0:
            line = line[:at].rstrip()
    return line


def _dash_remark(line: str) -> str | None:
    """`3 Thrust - tech`, `Thrust x3 — staple` (an en or em dash folds to `-`): a card line with its quantity, then
    words that are no quantity after ` - `: the card line without them; None for any other line (`Persona -
    Duncan MacLeod`, `Attacks - 24`, `Upper Right Attack - 2` keep their readings)."""
    head, dash, tail = line.partition(" - ")
    if not dash or not head or _quantity_text(tail) is not None or _count_text(tail) is not None:
        return None
    parsed = parse_card_text(head)
    return head if isinstance(parsed, CardText) and parsed.quantity_written and not parsed.worded else None


_SPLITTERS = (" / ", "; ", " | ")


def _several(line: str) -> list[str] | None:
    """`3 Thrust / 2 Lunge / Dodge x2`, `3 Thrust; 2 Lunge`: several card lines written on one, each with its
    quantity; None for a line that is not so (`Thrust; 3` is one card and its quantity)."""
    mark = next((m for m in _SPLITTERS if m in line), None)
    if mark is None:
        return None
    parts = [p.strip() for p in line.split(mark)]
    if len(parts) < 2 or len(parts) > 200:
        return None
    for part in parts:
        parsed = parse_card_text(part) if part else None
        if not isinstance(parsed, CardText) or not parsed.quantity_written or parsed.worded or parsed.separated:
            return None
    return parts


def _count_text(text: str) -> int | None:
    """`24`, `24 cards`, `1 card`, `24枚`, `twenty-four`, `vingt-quatre`, `vierundzwanzig`, `二十四枚` -> 24; None
    for anything else."""
    words = _counted(text.strip()).lower().split()
    if len(words) >= 2 and words[-1] in _CARD_WORDS:
        words = words[:-1]
    if len(words) == 1 and _is_digits(words[0]) and len(words[0]) <= 7:
        return int(words[0])
    key = "-".join(words)  # `twenty six`, `vingt et un` as `twenty-six`, `vingt-et-un`
    return _COUNT_WORDS.get(key[:-1] if key[-1:] in _COUNTERS else key) if 0 < len(words) <= 4 else None


_CARD_WORDS = ("cards", "card", "cartes", "carte", "karten", "karte")
_TENS = {w: 10 * i for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), start=2)}


def _english(n: int) -> Iterator[str]:
    """`twenty-six`: how English writes n (0-99)."""
    words = {0: "zero", **{i: w for w, i in NUMBER_WORDS.items()}, **{i: w for w, i in _TENS.items()}}
    tens, unit = divmod(n, 10)
    yield words[n] if n in words else f"{words[10 * tens]}-{words[unit]}"


_FR = ("zéro un deux trois quatre cinq six sept huit neuf dix onze douze treize quatorze quinze seize").split()
_FR_TENS = {2: "vingt", 3: "trente", 4: "quarante", 5: "cinquante", 6: "soixante"}


def _french(n: int) -> Iterator[str]:
    """`vingt-six`, `vingt-et-un`, `soixante-et-onze`, `quatre-vingt-dix`, and `zero`, `septante`, `huitante`,
    `octante`, `nonante` as Belgium and Switzerland write them: how French writes n (0-99)."""
    tens, unit = divmod(n, 10)
    if n < 17:
        yield _FR[n]
        yield from ("zero",) if n == 0 else ()
    elif n < 20:
        yield f"dix-{_FR[unit]}"
    elif n < 70:
        yield _FR_TENS[tens] + ("" if unit == 0 else "-et-un" if unit == 1 else f"-{_FR[unit]}")
    elif n < 80:
        yield "soixante-et-onze" if n == 71 else f"soixante-{next(_french(n - 60))}"
    else:
        yield "quatre-vingts" if n == 80 else f"quatre-vingt-{next(_french(n - 80))}"
        yield from ("quatre-vingt",) if n == 80 else ()
    if n >= 70:  # Belgium, Switzerland
        for word in {7: ("septante",), 8: ("huitante", "octante"), 9: ("nonante",)}[tens]:
            yield word + ("" if unit == 0 else "-et-un" if unit == 1 else f"-{_FR[unit]}")


_DE = ("null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn vierzehn fünfzehn "
       "sechzehn siebzehn achtzehn neunzehn").split()
_DE_TENS = {2: "zwanzig", 3: "dreißig", 4: "vierzig", 5: "fünfzig", 6: "sechzig", 7: "siebzig", 8: "achtzig",
            9: "neunzig"}


def _german(n: int) -> Iterator[str]:
    """`sechsundzwanzig`, `einundzwanzig`, `zwo`, and each written with `ss`, `ue`, `oe` for `ß`, `ü`, `ö`: how
    German writes n (0-99)."""
    tens, unit = divmod(n, 10)
    forms = [_DE[n]] if n < 20 else [_DE_TENS[tens] if unit == 0 else
                                     f"{'ein' if unit == 1 else _DE[unit]}und{_DE_TENS[tens]}"]
    forms += ["zwo"] if n == 2 else ["ein"] if n == 1 else []
    for form in forms:
        yield form
        spelt = form.replace("ß", "ss").replace("ü", "ue").replace("ö", "oe")
        yield from (spelt,) if spelt != form else ()


_JA = "〇一二三四五六七八九"


def _japanese(n: int) -> Iterator[str]:
    """`二十六`, `十`, `〇` and `零`: how Japanese writes n (0-99) in kanji numerals."""
    tens, unit = divmod(n, 10)
    if n < 10:
        yield _JA[n]
        yield from ("零",) if n == 0 else ()
    else:
        yield ("" if tens == 1 else _JA[tens]) + "十" + ("" if unit == 0 else _JA[unit])


def _count_table() -> dict[str, int]:
    """Each way a heading's count is written in words, 0-99, in English and the languages whose heading words
    Highlander declares (French, German, Japanese) -> the number; a form two numbers share is a bug."""
    table: dict[str, int] = {}
    for language in (_english, _french, _german, _japanese):
        for n in range(100):
            for form in language(n):
                if table.setdefault(form, n) != n:
                    raise ValueError(f"{form!r} is both {table[form]} and {n}")
    return table


_COUNT_WORDS = _count_table()
"""Generated: the counts are a few hundred words (no words-to-number package reads kanji numerals)."""


def _split_count(grammar: Grammar, text: str) -> tuple[str, int | None]:
    """A heading's words and the count it carries: `Attacks (24)`, `Attacks [24]`, `Attacks - 24`,
    `Endurance (50 cards)` -> (words, count); `Attacks` -> (Attacks, None)."""
    text = text.strip()
    for open_, close in (("(", ")"), ("[", "]")):
        if text.endswith(close):
            at = text.rfind(open_)
            count = _count_text(text[at + 1:-1]) if at > 0 else None
            if count is None and at > 0 and _bare_heading_word(grammar, text[:at]):
                # `Attacks (x18)`; not `Dodge (x3)`, which is three copies of the card Dodge
                count = _count_text(text[at + 1:-1].strip().strip("xX×"))
            if count is not None:
                return text[:at].rstrip(), count
    head, dash, tail = text.rpartition(" - ")
    if dash and head:
        count = _count_text(tail)
        if count is not None:
            return head.rstrip(), count
    return text, None


def _is_heading_word(grammar: Grammar, word: str) -> bool:
    key = _word_key(word)
    return (key in grammar.headings or grammar.section_word(word) is not None or key in METADATA_WORDS
            or key in OTHER_WORDS)


def _bare_heading_word(grammar: Grammar, word: str) -> bool:
    """A word that is a heading even without a colon: a section (`Endurance`, `Sideboard`) or a kind of
    card in the plural (`Attacks`, `BLOCKS`); a singular kind (`Dodge`) is a card's title too."""
    key = _word_key(word)
    if key in grammar.headings:
        return key not in grammar.singular
    return grammar.section_word(word) is not None or key in OTHER_WORDS


@dataclass(slots=True)
class _Heading:
    word: str
    rest: str
    count: int | None


_JOINER = re.compile(r"\s*(?:/|&|\+|,|\band\b)\s*", re.IGNORECASE)


_CARDS_WORD = re.compile(r"\s+(?:cards?|deck)$", re.IGNORECASE)


def _heading_end(line: str) -> int:
    """Where the words of a heading end: at its colon, its count in brackets or its ` - `."""
    ends = [at for at in (line.find(":"), line.find("("), line.find("["), line.find(" - ")) if at > 0]
    return min(ends) if ends else len(line)


def _drop_cards_word(grammar: Grammar, line: str) -> str:
    """`Pre-Game cards:`, `Attack cards (24)`, `Main Deck (50)`, `Side deck:`: a heading word followed by
    `cards` or `deck` reads as that heading word."""
    if "card" not in line.lower() and "deck" not in line.lower():
        return line
    cut = _heading_end(line)
    found = _CARDS_WORD.search(line[:cut].rstrip())
    word = line[:found.start()].strip() if found else ""
    if not word or not _is_heading_word(grammar, word) or _word_key(word) in METADATA_WORDS:
        return line
    return f"{word} {line[cut:].strip()}".rstrip()


def _join_kinds(grammar: Grammar, line: str) -> str:
    """`Events/Situations:`, `Events & Situations (5)`, `Attacks and Blocks`: kinds of card of one section
    written as one heading read as that section's heading (`Endurance:`, `Endurance (5)`)."""
    if "/" not in line and "&" not in line and "+" not in line and "," not in line and " and " not in line.lower():
        return line  # (a two-letter needle such as " a" is slow to seek in a long line of spaces: not used)
    cut = _heading_end(line)
    parts = _JOINER.split(line[:cut].strip())
    table = grammar.headings
    if len(parts) < 2 or not all(_word_key(p) in table for p in parts):
        return line
    sections = {table[_word_key(p)][0] for p in parts}
    return f"{grammar.titles[sections.pop()]} {line[cut:].strip()}".rstrip() if len(sections) == 1 else line


def _read_heading(grammar: Grammar, line: str, marked: bool) -> _Heading | None:
    """What _find_heading finds in a line, remembered by the grammar (nobody changes a _Heading once made)."""
    if len(line) > _MEMO_CHARS:
        return _find_heading(grammar, line, marked)
    key = (line, marked)
    known = grammar.headings_read.get(key)
    if known is None:
        known = grammar.headings_read.put(key, (_find_heading(grammar, line, marked),))
    return known[0]


def _find_heading(grammar: Grammar, line: str, marked: bool) -> _Heading | None:
    """A heading line in any of the ways posts write one, or None.

    `Word:` / `Word: a card` / `Word: 24` / `Word (24):` / `Word (24)` / `Word [24]` / `Word - 24` /
    `Word - a card` (a Pre-Game kind: `Persona - Duncan MacLeod`); a bare `Attacks` or `Endurance`, and
    any heading word written as Markdown (`__Blocks__`, `## Blocks`).
    """
    line = _join_kinds(grammar, _drop_cards_word(grammar, line))
    found = _heading(line)
    if found is None and len(line) > 2 * _MAX_HEADING:
        return None  # a heading without a colon, or with a card after a dash, is short
    if found is None:
        colon = line.find(":")
        if colon > 0 and line[colon + 1:].strip() == "":
            word, count = _split_count(grammar, line[:colon])
            if count is not None and word and _is_heading_word(grammar, word) and _heading(word + ":"):
                return _Heading(word, "", count)
            return None
        if colon > 0:
            word, count = _split_count(grammar, line[:colon])
            if count is not None and _is_heading_word(grammar, word) and _heading(word + ":"):
                return _Heading(word, line[colon + 1:].strip(), count)
            return None
        word, count = _split_count(grammar, line)
        if word and _heading(word + ":") and _is_heading_word(grammar, word) and (
                count is not None or marked or _bare_heading_word(grammar, word)):
            return _Heading(word, "", count)
        head, dash, tail = line.partition(" - ")
        if dash and tail and _word_key(head) in grammar.headings and _heading(head + ":"):
            return _Heading(head, tail.strip(), None)  # `Persona - Duncan MacLeod`
        return None
    word, rest = found
    word, count = _split_count(grammar, word)
    if count is None and rest:
        count = _count_text(rest)
        if count is not None and _is_heading_word(grammar, word) and _word_key(word) not in METADATA_WORDS:
            rest = ""
        else:
            count = None
    return _Heading(word, rest, count)


def _total(grammar: Grammar, line: str) -> tuple[str | None, int] | None:
    """A total line: `Total: 51`, `Total: 51 cards`, `51 cards`, `Endurance total: 51`, `Total Endurance = 51`
    -> (the section it names or None, 51); None when the line is not one."""
    if len(line) > _MAX_HEADING:
        return None
    low = line.lower()
    if "total" not in low and not low.rstrip().endswith(("card", "cards")):
        return None  # (a card line: every total says "total" or ends in "cards")
    words = [w for w in low.replace(":", " ").replace("=", " ").split() if w != "-"]
    if len(words) > 8 or not words:
        return None
    while words and words[-1] in ("cards", "card", "total"):
        words.pop()
    if not words or not _is_digits(words[-1]) or len(words[-1]) > 7:
        return None
    count = int(words.pop())
    if "total" in words:
        words.remove("total")
    elif words:
        return None  # `3 cards` alone is a total; `Blocks 3` is not
    elif not line.lower().rstrip().endswith(("cards", "card", "total")):
        return None
    words = [w for w in words if w not in ("cards", "card", "of", "in", "the")]
    if not words:
        return None, count
    section = grammar.section_word(" ".join(words))
    if section is None and _word_key(" ".join(words)) not in grammar.headings:
        return None
    return section or grammar.headings[_word_key(" ".join(words))][0], count


TABLE_COLUMNS = frozenset({"quantity", "card", "set", "section", "player", "format"})
"""The columns of a decklist table, named by the words of the one header table (deckcheck.headers)."""


TABLE_DELIMITERS = "\t;,|"  # a pasted table: from a spreadsheet (tabs), a CSV file, a Markdown table


_DELIMITER_NAMES = {"\t": "tabs", ";": "semicolons", ",": "commas", "|": "'|' marks"}


def rewrite_row(header: str, row: str, suggestion: str) -> str | None:
    """A row of a pasted table (whose first line is `header`) with a suggested name in its card cell (and the
    suggestion's [SET] in its set cell, where it has one): what clicking a suggestion does to a row; None when
    `header` is no table's header row."""
    header = fold_chars(header).strip()
    for delimiter in TABLE_DELIMITERS:
        cols = _table_columns(header, delimiter)
        if cols is None:
            continue
        cells = _cells(row, delimiter)
        name, set_code = _split_set(suggestion.strip())
        for column, value in (("card", name), ("set", set_code)):
            at = cols.get(column)
            if value and at is not None:
                cells += [""] * (at + 1 - len(cells))
                cells[at] = f" {value} " if delimiter == "|" else value
        if delimiter not in ",;":
            return delimiter.join(cells)
        out = io.StringIO()
        csv.writer(out, delimiter=delimiter, lineterminator="").writerow(cells)
        return out.getvalue()
    return None


def _cells(line: str, delimiter: str) -> list[str]:
    """The cells of a pasted table's row: a CSV row's quotes are read as a CSV reader reads them."""
    if delimiter in ",;":
        return next(csv.reader([line], delimiter=delimiter), [])
    return line.split(delimiter)


def _table_columns(line: str, delimiter: str = "\t") -> dict[str, int] | None:
    """The columns of a pasted table's header row (`Qty<TAB>Name<TAB>Set`, `Quantity,Card Name,Set Name`,
    `| Qty | Card |`), or None when it is not one."""
    if delimiter not in line:
        return None
    cols: dict[str, int] = {}
    other = 0
    for i, cell in enumerate(_cells(line, delimiter)):
        column = column_of(cell) if cell.strip() else ""
        if column is None or (column and column not in TABLE_COLUMNS):
            other += 1  # a web table's other columns (`Type`, `Cost`): named in a notice, their cells not read
        elif column:
            cols.setdefault(column, i)
    return cols if "card" in cols and len(cols) >= 2 and other <= len(cols) else None


def _tab_line(line: str) -> str:
    """`3<TAB>Thrust` and `Thrust<TAB>3` as `3 Thrust`; another line with tabs has them as spaces."""
    cells = [c.strip() for c in line.split("\t") if c.strip()]
    if len(cells) == 2:
        for qty, name in (cells, cells[::-1]):
            if _is_digits(qty.rstrip("xX×")) and not _is_digits(name):
                return f"{qty} {name}"
    return " ".join(cells)


def _bare_line(line: str) -> tuple[str, bool]:
    """A line (its characters folded) without remark, bullets, Markdown emphasis and tabs; and whether it
    had Markdown."""
    line, marked = _strip_markdown(_strip_bullet(_remark_cut(line)))
    if "\t" in line:
        line = _tab_line(line)
    return line, marked


def rewrite_line(line: str, suggestion: str, grammar: Grammar) -> str:
    """A decklist line rewritten with a suggested name (what clicking a suggestion does): the quantity
    written on it, its [SET] and `@` attachment and a heading it stands on are kept; bullets, Markdown and
    remarks are dropped; a suggestion that is a whole line (`Name: ...`, the title) replaces it. The
    quantity stays a quantity (`- 3 Upper Left Attack` never becomes `Upper Left Attack (3)`)."""
    suggestion = suggestion.strip()
    whole = _heading(suggestion)
    if whole is not None and _word_key(whole[0]) in METADATA_WORDS:
        return suggestion
    if len(line) <= MAX_LINE:
        pieces = [p.strip() for _n, p in take_off([line], MAX_LINE).lines if p.strip()]
        if pieces != [line.strip()]:  # markup on the line (`<li>3 Thrst</li>`): the card lines it holds
            if not pieces:
                return suggestion
            at = _closest(pieces, suggestion)
            pieces[at] = rewrite_line(pieces[at], suggestion, grammar)
            return "\n".join(pieces)
    body, _marked = _bare_line(fold_chars(line).strip().lstrip("#").strip() if line.lstrip().startswith("# ")
                               else fold_chars(line).strip())
    prefix = ""
    found = _read_heading(grammar, body, False)
    if found is not None and found.rest and _is_heading_word(grammar, found.word):
        prefix, body = f"{found.word}: ", found.rest
    parts = _several(body) if ("/" in body or ";" in body or "|" in body) else None
    if parts is not None:  # `3 Thrst / 2 Lunge`: the part the suggestion is for, the others as written
        mark = next(m for m in _SPLITTERS if m in body)
        at = _closest(parts, suggestion)
        parts[at] = rewrite_line(parts[at], suggestion, grammar)
        return prefix + mark.join(parts)
    parsed = parse_card_text(body)
    if isinstance(parsed, str):
        return prefix + suggestion
    name, set_in = _split_set(suggestion)
    old = parsed.name
    if not (set_in and parsed.set_code) and not parsed.dash:  # the name replaced where it stands
        for text in (body, " ".join(body.split())):
            at = text.find(old)
            if old and at >= 0 and (at == 0 or text[at - 1] == " "):
                return prefix + text[:at] + suggestion + text[at + len(old):]
    out = f"{parsed.readings[0][0]} {name}" if parsed.quantity_written else name
    set_code = set_in or parsed.set_code
    if set_code:
        out += f" [{set_code}]"
    if parsed.attach:
        out += f" @ {parsed.attach}"
    return prefix + out


def _closest(lines: list[str], suggestion: str) -> int:
    """Which of several card lines a suggested name is for: the one whose name is most like it."""
    want = normalize(_split_set(suggestion)[0])

    def likeness(text: str) -> float:
        parsed = parse_card_text(text)
        name = parsed.name if isinstance(parsed, CardText) else text
        return difflib.SequenceMatcher(None, normalize(name), want).ratio()
    return max(range(len(lines)), key=lambda i: likeness(lines[i]))


def _numbered_list(lines: list[str]) -> bool:
    """Whether the list is numbered: three lines or more start `1. `, `2. `, `3. ` ... (or `1) `), in order and
    none left out; their numbers are then the list's, not quantities (`3. Quickening (Duncan MacLeod)`)."""
    numbers = []
    for raw in lines:
        found = _LIST_NUMBER.match(fold_chars(raw[:16]).lstrip())
        if found:
            numbers.append(int(found.group(1)))
            if numbers[-1] != len(numbers):
                return False
    return len(numbers) >= 3


def parse_text(text: str, source: str = "-", *, grammar: Grammar) -> RawDeck:
    """Read a text decklist: comments, metadata lines, section headings and card lines, in every form a
    forum post, a notes app or a spreadsheet gives them (CONTRACTS.md §2, revision 3).

    An unknown heading is an input error for its own line only: the cards below it are still
    read (and go where their type belongs), so every problem of a decklist shows in one round.
    """
    deck = RawDeck(source, grammar=grammar)
    unmarked = take_off(text.splitlines(), MAX_LINE)
    lines = unmarked.lines
    notice = unmarked.notice()
    if notice:
        deck.notices.append(notice)
    first = next((i for i, (_n, raw) in enumerate(lines) if fold_chars(raw).strip()), None)
    if first is not None and len(lines[first][1]) <= MAX_LINE:
        for delimiter in TABLE_DELIMITERS:
            table = _table_columns(fold_chars(lines[first][1]).strip(), delimiter)
            if table is not None:
                _read_table(grammar, deck, lines, first, table, delimiter)
                return deck
    later = _table_below(lines)  # a web page's table under its title and by-line: the lines above read as text
    reader = _Reader(deck, grammar, _numbered_list([raw for _n, raw in lines[:later[0] if later else None]]))
    for number, raw in lines[:later[0]] if later else lines:
        if len(raw) > MAX_LINE:  # (tested here, not in a call: the parser is hot)
            _refuse_long(deck, number, raw)
        else:
            reader.read(number, raw)
    if later:
        _read_table(grammar, deck, lines, *later)
    return deck


def _table_below(lines: list[tuple[int, str]]) -> tuple[int, dict[str, int], str] | None:
    """Where a table whose cells stand between tabs or `|` marks starts below the list's first line (its header
    row's index, columns and delimiter), or None."""
    for i, (_number, raw) in enumerate(lines):
        if len(raw) <= MAX_LINE and ("\t" in raw or "|" in raw):
            folded = fold_chars(raw).strip()
            for delimiter in "\t|":
                cols = _table_columns(folded, delimiter)
                if cols is not None:
                    return i, cols, delimiter
    return None


_BYLINE = re.compile(r"(?:(?:posted|written|built|list|deck) )?(?:by|von|par|de) ([^\W\d][\w.' -]{0,60})",
                     re.IGNORECASE)
_MONTHS = ("jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|"
           "september|october|november|december|januar|februar|märz|mai|juni|juli|oktober|dezember|janvier|"
           "février|mars|avril|juin|juillet|août|septembre|octobre|novembre|décembre")
_DATE = re.compile(rf"(?:(?:posted|updated|am|le|on)\s)?(?:\d{{4}}-\d{{1,2}}-\d{{1,2}}|"
                   rf"\d{{1,2}}[./]\d{{1,2}}[./]\d{{2,4}}|"
                   rf"(?:{_MONTHS})\.? \d{{1,2}}(?:st|nd|rd|th)?,? \d{{4}}|\d{{1,2}}\.? (?:{_MONTHS})\.? \d{{4}}|"
                   r"\d{4}年\d{1,2}月\d{1,2}日)", re.IGNORECASE)


def _refuse_long(deck: RawDeck, number: int, raw: str) -> None:
    """A line past MAX_LINE, refused unread: an input error of its own."""
    deck.problems.append(RawProblem(number, raw[:80] + "…", _LONG_LINE))


_LONG_LINE = f"the line is longer than {MAX_LINE:,} characters"


@dataclass(slots=True)
class _Reader:
    """A text decklist being read line by line: the section in force, and what the lines before told."""

    deck: RawDeck
    grammar: Grammar
    numbered: bool  # the list numbers its lines (`1. `, `2. `): those numbers are no quantities
    section: str | None = None
    seen_content: bool = False  # a heading or a card line came before: no title line after it
    open_heading: Stated | None = None  # a heading with a count whose cards are still being read
    since: int = 0  # the first line a running total counts

    def read(self, number: int, raw: str) -> None:
        """One line of the list: a pair, a total, a heading (or metadata, a title) or a card line."""
        cleaned = self._cleaned(raw)
        if cleaned is None:
            return
        line, marked = cleaned
        if len(line) <= 80 and self._at_top() and self._top(number, line):
            return
        if (self.section in self.grammar.pairs and self._pair(number, raw, line)) or self._total(number, line):
            return
        found = _read_heading(self.grammar, line, marked)
        if found is None:
            self._card(number, line, self.section, raw=raw, title=not self.seen_content)
        else:
            self._heading(number, raw, line, found)

    def _cleaned(self, raw: str) -> tuple[str, bool] | None:
        """What _clean makes of a line, remembered by the grammar."""
        if len(raw) > _MEMO_CHARS:
            return self._clean(raw)
        key = (raw, self.numbered)
        known = self.grammar.lines_cleaned.get(key)
        if known is None:
            known = self.grammar.lines_cleaned.put(key, (self._clean(raw),))
        return known[0]

    def _clean(self, raw: str) -> tuple[str, bool] | None:
        """The line without list number, `#`, remark, bullets and Markdown, and whether it had Markdown or `#`;
        None for a line that is nothing to read (blank, a comment, a separator)."""
        line = fold_chars(raw).strip()
        listed = _LIST_NUMBER.match(line) if self.numbered else None
        if listed:
            line = line[listed.end():]
        if not line or line.startswith("//") or _is_separator(line):
            return None
        marked = False
        if line.startswith("#"):
            rest = line.lstrip("#")
            line, marked = _remark_cut(rest.strip()), True
            # `## Blocks`, `### Sideboard (15)` is that heading; any other `#` line a comment
            found = _read_heading(self.grammar, _strip_markdown(line)[0], True) if rest.startswith(" ") else None
            if (found is None or _word_key(found.word) in METADATA_WORDS
                    or not _is_heading_word(self.grammar, found.word)):
                return None
        line, emphasis = _bare_line(line)
        if not line or _is_separator(line):
            return None
        return line, marked or emphasis

    def _at_top(self) -> bool:
        """Whether no heading and no card came yet, but perhaps the title line."""
        return not self.seen_content or (not self.deck.headings and len(self.deck.lines) == 1
                                         and self.deck.lines[0].title and not self.deck.problems)

    def _top(self, number: int, line: str) -> bool:
        """The top of a post, before any heading or card: a by-line (`by Björn`, `posted by Björn`) names the
        author, a date line (`2026-03-14`, `14.03.2026`, `March 14, 2026`, `2026年3月14日`) the date; a notice
        says so. Whether the line was one."""
        byline = _BYLINE.fullmatch(line)
        if byline and self.deck.author is None and not byline.group(1)[0].islower():  # (not `by the way`)
            self.deck.author = byline.group(1).strip()
            self.deck.notices.append(f"line {number} read as the author: {self.deck.author!r}")
            return True
        if _DATE.fullmatch(line) and self.deck.date is None:
            self.deck.date = line
            self.deck.notices.append(f"line {number} read as the date: {line!r}")
            return True
        return False

    def _pair(self, number: int, raw: str, line: str) -> bool:
        """A line of a section of `Name: value` pairs (`Players:`), unless it is the next section's heading."""
        pair_form = self.grammar.pairs[self.section or ""]
        heading = _heading(line)
        if heading is not None and not heading[1] and self.grammar.section_word(heading[0]) is not None:
            return False
        player, colon, hero = line.partition(":")
        if colon and player.strip() and hero.strip():
            self.deck.players.append(RawPlayer(number, raw, player.strip(), hero.strip()))
        else:
            self.deck.problems.append(RawProblem(number, raw, pair_form))
        return True

    def _total(self, number: int, line: str) -> bool:
        """A total line (`Total: 51`): a count the list states, compared later; it closes an open heading."""
        total = _total(self.grammar, line)
        if total is None:
            return False
        self.deck.stated.append(Stated(number, total[1], total[0], False, since=self.since))
        self._close_heading(number)
        return True

    def _close_heading(self, number: int) -> None:
        if self.open_heading is not None:
            self.open_heading.end, self.open_heading = number, None
        self.since = number + 1

    def _card(self, number: int, text: str, section: str | None, kinds: frozenset[str] | None = None,
              raw: str | None = None, title: bool = False, heading: str | None = None) -> None:
        if self.deck.first_card_line is None:
            self.deck.first_card_line = number
        remark = _dash_remark(text) if " - " in text else None
        if remark is not None:
            self.deck.notices.append(f"line {number}: {text[len(remark):].strip(' -')!r} read as a remark")
            text = remark
        several = _several(text) if ("/" in text or ";" in text or "|" in text) else None
        if several is not None:
            self.deck.notices.append(f"line {number} read as {len(several)} card lines: "
                                     + "; ".join(map(repr, several)))
            for part in several:
                self.deck.add(number, part, section, kinds=kinds, shown=raw, heading=heading)
        else:
            self.deck.add(number, text, section, kinds=kinds, shown=raw, title=title, heading=heading)
        self.seen_content = True

    def _heading(self, number: int, raw: str, line: str, found: _Heading) -> None:
        """A line read as a heading: metadata, the deck's title, a card and its quantity (`Thrust: 3`), a label
        line naming its card, or a heading that opens a section (an unknown one is an input error)."""
        grammar, deck = self.grammar, self.deck
        word, rest, key = found.word, found.rest, _word_key(found.word)
        if key in METADATA_WORDS:
            field_name = METADATA_WORDS[key]
            value = (unquote(rest) if field_name == "name" else rest) or None
            setattr(deck, "declared_format" if field_name == "format" else field_name, value)
            return
        if key in TITLE_HEADINGS and rest and found.count is None and self._title(number, raw, rest):
            return
        if (found.count is None and rest and not _is_heading_word(grammar, word) and key not in TITLE_HEADINGS
                and _quantity_text(rest) is not None):
            # `Thrust: 3`: a card and its quantity (`Attacks: 18` is a heading); no card -> that unknown heading
            self._card(number, line, self.section, raw=raw, title=not self.seen_content, heading=word)
            return
        self.seen_content = True
        if key in grammar.inline and rest:
            # a label line (`Persona: Duncan MacLeod`): it names its one card; the lines after it stay
            # where they were (the section in force before it)
            self._card(number, rest, grammar.headings[key][0], grammar.headings[key][1], raw=raw)
            return
        self._close_heading(number)
        opened = self._section(word, key)
        if opened is None:
            deck.problems.append(RawProblem(number, raw, grammar.unknown_heading(word, deck.declared_format), word))
            self.section = None  # the cards below are read and go where their type belongs
            return
        self.section, kinds = opened
        deck.headings.append(number)
        if found.count is not None:
            self.open_heading = Stated(number, found.count, self.section, True)
            deck.stated.append(self.open_heading)
        if rest:
            self._card(number, rest, self.section, kinds, raw=raw)

    def _title(self, number: int, raw: str, rest: str) -> bool:
        """`Deck: "Kurgan Rush"` anywhere, `Deck: Kurgan Rush` first: the deck's title (the latter if it names
        no card, as a title line); whether the line was read so."""
        if unquote(rest) != rest:
            self.deck.name = unquote(rest)
            self.deck.notices.append(f"line {number} read as the deck's title: {self.deck.name!r}")
            return True
        if not self.seen_content:
            self._card(number, rest, None, raw=raw, title=True)
            return True
        return False

    def _section(self, word: str, key: str) -> tuple[str | None, frozenset[str] | None] | None:
        """The section a heading opens and the card types it names; (None, None) for a heading of no kind
        (`Other:`, `Decklist:`: the cards below go where their type belongs); None for an unknown heading."""
        if key in self.grammar.headings:
            return self.grammar.headings[key]
        section = self.grammar.section_word(word)
        if section is not None:
            return section, None
        if key in OTHER_WORDS or key in TITLE_HEADINGS:
            return None, None
        return None


def _read_table(grammar: Grammar, deck: RawDeck, lines: list[tuple[int, str]], first: int, cols: dict[str, int],
                delimiter: str = "\t") -> None:
    """A pasted table (a header row, then one row a card, cells between tabs, commas, semicolons or the `|` of
    Markdown), read as the CSV reader reads its rows: quantity, card, set, section; a `player` column names the
    one player of the list. A Markdown table's rule (`|---|:--|`) is no row."""
    def cell(cells: list[str], name: str) -> str:
        i = cols.get(name)
        return cells[i].strip() if i is not None and i < len(cells) else ""
    header = _cells(fold_chars(lines[first][1]).strip(), delimiter)
    ignored = [h.strip() for i, h in enumerate(header) if h.strip() and i not in cols.values()]
    if ignored:
        deck.notices.append(f"line {lines[first][0]}: the table's columns {', '.join(map(repr, ignored))} are not "
                            "read (a decklist table reads quantity, card, set, section, player, format)")
    for number, raw in lines[first + 1:]:
        if len(raw) > MAX_LINE:
            _refuse_long(deck, number, raw)
            continue
        folded = fold_chars(raw).strip()
        if not folded or folded.startswith(("#", "//")) or _is_separator(folded):
            continue
        if delimiter not in folded:  # (a row without its cells was read as nothing, or as a bad quantity)
            deck.problems.append(RawProblem(number, raw, f"not a row of the table: its cells stand between "
                                                         f"{_DELIMITER_NAMES[delimiter]}, as in the first line"))
            continue
        cells = _cells(folded, delimiter)
        if delimiter == "|" and not "".join(cells).strip(" -:"):
            continue
        name, qty_text = cell(cells, "card"), cell(cells, "quantity")
        if not name and not qty_text:
            continue
        player, fmt = cell(cells, "player"), cell(cells, "format")
        if player:
            if deck.player is None:
                deck.player = player
            elif player != deck.player:
                deck.problems.append(RawProblem(number, raw, f"the table holds the decks of several players "
                                                             f"({deck.player!r}, {player!r}): check it as a sheet "
                                                             "file, one deck a player"))
                continue
        if fmt and not deck.declared_format:
            deck.declared_format = fmt
        if qty_text and not _is_digits(qty_text):
            deck.problems.append(RawProblem(number, raw, f"quantity {qty_text[:20]!r} is not a whole number"))
            continue
        qty = _quantity(qty_text) if qty_text else 1
        if isinstance(qty, str):
            deck.problems.append(RawProblem(number, raw, qty))
            continue
        section_text = cell(cells, "section")
        word = grammar.section_word(section_text) if section_text else None
        if section_text and word is None:
            deck.problems.append(RawProblem(number, raw, f"unknown section {section_text!r}"))
            continue
        if deck.first_card_line is None:
            deck.first_card_line = number
        deck.add(number, name, word, qty, cell(cells, "set") or None, shown=raw)
