"""A registered decklist as judges read it: the cleaned list (sections, card names, counts), its fingerprint,
and a physical deck counted against it at the table (a deck check).

Pure: the cleaned list is made from a resolved Deck; nothing here reads files or databases.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Mapping, Sequence, TypedDict

from .errors import DeckcheckError

if TYPE_CHECKING:
    from .decks import Deck
    from .problems import InputProblem

FINGERPRINT_CHARS = 8  # 32 bits of SHA-256: enough to tell a player's lists apart, short enough to read aloud
MAX_COUNT = 999  # copies of one card a judge can count (a Highlander deck holds a few dozen)
MAX_EXTRA_CARDS = 100  # cards counted that the list does not register, in one check
MAX_NOTE = 2000
NOT_READ = "# not read: "


@dataclass(frozen=True)
class Line:
    """Copies of one card in one section of a registered list."""

    section: str
    card: str
    quantity: int


class RegisteredJSON(TypedDict):
    """A registered list as kept with a submission: its lines as [section, card, quantity]."""

    lines: list[list[str | int]]
    not_read: list[str]
    sections: list[str]
    players: list[str]


class DifferenceJSON(TypedDict):
    """One difference of a deck check: copies registered (0 when the list does not have the card) and counted."""

    card: str
    registered: int
    counted: int


@dataclass(frozen=True)
class Registered:
    """A cleaned decklist: its lines in section order, the lines that were not read, and the sections' order."""

    lines: tuple[Line, ...]
    not_read: tuple[str, ...] = ()
    sections: tuple[str, ...] = ()
    # a table game's players with their Heroes ("Players:" then "Anna: The Fox"): they decide a verdict too
    players: tuple[str, ...] = ()
    players_section: str = ""

    def text(self) -> str:
        """The cleaned list as text: a heading per section, "N Card" lines, then the lines that were not read."""
        out: list[str] = []
        for section in self.section_names():
            out.append(f"{section}:")
            out += [f"{line.quantity} {line.card}" for line in self.lines if line.section == section]
        if self.players:
            out += [f"{self.players_section or 'Players'}:", *self.players]
        out += [NOT_READ + text for text in self.not_read]
        return "\n".join(out) + "\n" if out else ""

    def section_names(self) -> list[str]:
        """The sections that hold cards, in the format's order (others after, as they come)."""
        have = list(dict.fromkeys(line.section for line in self.lines))
        return [s for s in self.sections if s in have] + [s for s in have if s not in self.sections]

    def total(self, section: str) -> int:
        """How many cards the list registers in a section."""
        return sum(line.quantity for line in self.lines if line.section == section)

    @cached_property
    def fingerprint(self) -> str:
        """A short hash of the cleaned text: the same list, the same fingerprint (computed once: a tournament's
        summary table, sheets and JSON each show it)."""
        return fingerprint(self.text())

    def as_dict(self) -> RegisteredJSON:
        """The JSON kept with a submission (read back by from_dict)."""
        return {"lines": [[line.section, line.card, line.quantity] for line in self.lines],
                "not_read": list(self.not_read), "sections": list(self.sections), "players": list(self.players)}

    @classmethod
    def from_dict(cls, data: object) -> "Registered":
        """A Registered back from as_dict's JSON (an empty list for anything else: a submission from before)."""
        if not isinstance(data, dict):
            return cls(())
        lines = tuple(Line(str(s), str(c), int(q)) for s, c, q in data.get("lines", []))
        sections = tuple(map(str, data.get("sections", [])))
        players = tuple(map(str, data.get("players", [])))
        return cls(lines, tuple(map(str, data.get("not_read", []))), sections, players,
                   "Players" if players else "")


def fingerprint(text: str) -> str:
    """The first FINGERPRINT_CHARS hex digits of the SHA-256 of a cleaned list's text."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:FINGERPRINT_CHARS]


def registered_of(deck: "Deck", sections: Sequence[str], problems: Sequence["InputProblem"] = (),
                  players_section: str = "") -> Registered:
    """The cleaned list of a resolved deck: copies of one card name in one section added up, sections in the
    format's order, cards by name, a table game's players with their Heroes (under `players_section`); each line
    that did not resolve kept as "line N: text" (so it counts in the fingerprint)."""
    counts: dict[tuple[str, str], int] = {}
    for entry in deck.entries:
        name = entry.card.name + (f" @ {entry.attach}" if entry.attach else "")
        counts[(entry.section, name)] = counts.get((entry.section, name), 0) + entry.quantity
    order = {s: n for n, s in enumerate(sections)}
    lines = tuple(Line(s, c, q) for (s, c), q in sorted(
        counts.items(), key=lambda item: (order.get(item[0][0], len(order)), item[0][0], item[0][1].casefold(),
                                          item[0][1])))
    not_read = tuple(f"line {p.line}: {p.text}" if p.line is not None else p.text for p in problems)
    players = tuple(f"{p.name}: {p.hero.name if p.hero is not None else '?'}" for p in deck.players)
    return Registered(lines, not_read, tuple(sections), players, players_section if players else "")


# -- deck checks -------------------------------------------------------------------------------------
class DeckCheckError(DeckcheckError):
    """Counts that cannot be a deck check (a negative or huge number, an unknown card)."""


@dataclass(frozen=True)
class Difference:
    """A card whose count differs from the list: registered None when the list does not have it."""

    card: str
    registered: int | None
    counted: int

    def text(self) -> str:
        """"Thrust: registered 3, counted 2" or "Dodge: not registered, counted 1"."""
        if self.registered is None:
            return f"{self.card}: not registered, counted {self.counted}"
        return f"{self.card}: registered {self.registered}, counted {self.counted}"

    def as_dict(self) -> DifferenceJSON:
        return {"card": self.card, "registered": self.registered or 0, "counted": self.counted}


@dataclass(frozen=True)
class Comparison:
    """A physical deck counted against its registered list."""

    differences: tuple[Difference, ...]
    totals: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def matches(self) -> bool:
        """Whether every card was counted as registered (and nothing else was)."""
        return not self.differences

    def lines(self) -> list[str]:
        """Every difference named, then each section whose total differs ("Endurance 49 counted, 51 registered")."""
        out = [d.text() for d in self.differences]
        out += [f"{s} {t['counted']} counted, {t['registered']} registered" for s, t in self.totals.items()
                if t["counted"] != t["registered"]]
        return out


def count_value(value: object, card: str) -> int:
    """A counted number of copies: a whole number from 0 to MAX_COUNT (text from a form, or a JSON number)."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise DeckCheckError(f"the count of {card[:60]!r} must be a whole number, not {value!r:.40}")
    if isinstance(value, str):
        text = value.strip()
        if not text.isascii() or not text.isdigit():
            raise DeckCheckError(f"the count of {card[:60]!r} is {value[:20]!r}, not a whole number from 0 to "
                                 f"{MAX_COUNT}")
        value = int(text)
    if not 0 <= value <= MAX_COUNT:
        raise DeckCheckError(f"the count of {card[:60]!r} is {value}; counts run from 0 to {MAX_COUNT}")
    return value


def compare_counts(registered: Registered, counted: Mapping[str, int], extra_sections: Mapping[str, str]) -> Comparison:
    """The differences between a registered list and the copies counted of each card name (a name the list
    registers in two sections is compared in total). `counted` names cards as the list does; a registered card
    missing from it counts 0. `extra_sections`: the section of each counted card the list does not register."""
    want: dict[str, int] = {}
    section_of: dict[str, str] = {}
    for line in registered.lines:
        want[line.card] = want.get(line.card, 0) + line.quantity
        section_of.setdefault(line.card, line.section)
    differences = [Difference(card, n, counted.get(card, 0)) for card, n in want.items() if counted.get(card, 0) != n]
    differences += [Difference(card, None, n) for card, n in sorted(counted.items(), key=lambda i: i[0].casefold())
                    if card not in want and n > 0]
    totals: dict[str, dict[str, int]] = {}
    for section in registered.section_names() + sorted(set(extra_sections.values())):
        totals.setdefault(section, {"registered": registered.total(section), "counted": 0})
    for card, n in counted.items():
        section = section_of.get(card) or extra_sections.get(card, "")
        if section and card in want and len({ln.section for ln in registered.lines if ln.card == card}) > 1:
            for line in registered.lines:  # one name in two sections: each section counted as registered
                if line.card == card:
                    totals[line.section]["counted"] += min(line.quantity, n)
                    n -= min(line.quantity, n)
            totals[section]["counted"] += n
        elif section:
            totals[section]["counted"] += n
    return Comparison(tuple(differences), totals)
