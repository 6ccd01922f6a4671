"""The text decklist (CONTRACTS.md §2) read into plain lines; resolving names is a second step."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

SECTION_WORDS = ("pre-game", "pregame", "endurance", "deck", "main", "hunters", "items", "prey", "combat",
                 "players")
_HEADER = re.compile(r"^\s*([A-Za-z][A-Za-z -]*?)\s*:\s*$")
_DIRECTIVE = re.compile(r"^\s*(format|player)\s*:\s*(.+?)\s*$", re.IGNORECASE)
_LEADING = re.compile(r"^(\d+)\s*[xX×]?\s+(\S.*)$")
_TRAILING = re.compile(r"^(\S.*?)\s+[xX×]\s*(\d+)$")
_SET = re.compile(r"^(.*?)\s*\[([^\[\]]+)\]\s*$")
_ATTACH = re.compile(r"^(.*?)\s+@\s*(.+)$")
_PLAYER = re.compile(r"^\s*(.+?)\s*:\s*(.+?)\s*$")


@dataclass(slots=True)
class RawLine:
    """One card line: where it stands, how it can be read (quantity, name), and its extras."""

    line: int
    text: str
    section: str | None
    readings: tuple[tuple[int, str], ...]
    set_code: str | None = None
    attach: str | None = None


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


@dataclass(slots=True)
class RawDeck:
    """A decklist before its names are resolved."""

    source: str
    declared_format: str | None = None
    player: str | None = None
    lines: list[RawLine] = field(default_factory=list)
    players: list[RawPlayer] = field(default_factory=list)
    problems: list[RawProblem] = field(default_factory=list)

    def add(self, number: int, text: str, section: str | None, quantity: int | None = None,
            set_code: str | None = None) -> None:
        """Add one card line as written (quantity None: read it from the text)."""
        parsed = parse_card_text(text, quantity)
        if isinstance(parsed, str):
            self.problems.append(RawProblem(number, text, parsed))
            return
        readings, found_set, attach = parsed
        self.lines.append(RawLine(number, text, section, readings, set_code or found_set, attach))


def section_word(text: str) -> str | None:
    """The folded section name if text names a known section, else None."""
    word = text.strip().rstrip(":").strip().lower()
    return word if word in SECTION_WORDS else None


def parse_card_text(text: str, quantity: int | None = None):
    """Readings of one card line: ((qty, name), ...), the [SET] and the @ attachment; or an error message."""
    body = text.strip()
    attach = None
    m = _ATTACH.match(body)
    if m:
        body, attach = m.group(1).strip(), m.group(2).strip()
    set_code = None
    m = _SET.match(body)
    if m:
        body, set_code = m.group(1).strip(), m.group(2).strip()
    readings: list[tuple[int, str]] = []
    if quantity is not None:
        readings.append((quantity, body))
    else:
        m = _LEADING.match(body)
        if m:
            readings.append((int(m.group(1)), m.group(2).strip()))
        m = _TRAILING.match(body)
        if m:
            readings.append((int(m.group(2)), m.group(1).strip()))
        readings.append((1, body))
    if not body:
        return "no card name"
    if any(q < 1 for q, _ in readings):
        return "the quantity must be at least 1"
    readings = [(q, n) for q, n in readings if n]
    return tuple(readings), set_code, attach


def parse_text(text: str, source: str = "-") -> RawDeck:
    """Read a text decklist: comments, `Format:`/`Player:` lines, section headers and card lines."""
    deck = RawDeck(source)
    section: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#") or line.startswith("//"):
            continue
        header = _HEADER.match(line)
        if header:
            word = section_word(header.group(1))
            if word is None:
                deck.problems.append(RawProblem(number, raw, f"unknown section {header.group(1)!r}; sections are "
                                                             "Pre-Game, Endurance (Deck, Main), Hunters, Items, "
                                                             "Prey, Combat, Players"))
                section = "?"
            else:
                section = word
            continue
        directive = _DIRECTIVE.match(line)
        if directive and section != "players":
            key, value = directive.group(1).lower(), directive.group(2)
            if key == "format":
                deck.declared_format = value
            else:
                deck.player = value
            continue
        if section == "?":
            continue  # lines under an unknown header were already reported with it
        if section == "players":
            m = _PLAYER.match(line)
            if not m:
                deck.problems.append(RawProblem(number, raw, "a player line is 'Player name: Hero name'"))
            else:
                deck.players.append(RawPlayer(number, raw, m.group(1), m.group(2)))
            continue
        deck.add(number, line, section)
    return deck
