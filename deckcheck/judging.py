"""Deck checks as judges do them (issue 34 item 3): a registered list laid out in the order a deck is counted, the
card names a judge types read as decklist lines, and each difference told as a problem of the list or of the deck.

Pure: the card types and the verdicts come from the caller (deckcheck.library.desk); nothing here reads a database.

Highlander's rule texts (shared/seeds) say nothing about deck checks. The two kinds of problem are the distinction
judges know from the Magic: The Gathering Infraction Procedure Guide, cited as tournament practice and not as a
Highlander rule: 3.4 Decklist Problem (the registered list is illegal, or does not say what the player meant to
play: the list is fixed) and 3.5 Deck Problem (the list is legal and the deck does not match it: the deck is fixed).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterable, Mapping, TypedDict

from .decklist import CardText, Refused, parse_card_text
from .registered import Difference, Line, Registered, count_value
from .stats import TYPE_ORDER, UNKNOWN_TYPE

LIST, DECK = "list", "deck"  # a difference's `problem`
PROBLEM_WORDS = {LIST: "the list is wrong (decklist problem)", DECK: "the deck does not match its list (deck problem)"}
SOURCE = ("MTG Infraction Procedure Guide 3.4 Decklist Problem / 3.5 Deck Problem (no rule of the games covers deck "
          "checks)")


def type_key(kind: str) -> tuple[int, int, str]:
    """Where a card type comes when a deck is counted: the types of the statistics' order (attacks, then the
    defences, then the rest), any other type after them by name, cards of no known type last."""
    if kind in TYPE_ORDER:
        return (0, TYPE_ORDER.index(kind), "")
    if kind in (UNKNOWN_TYPE, ""):
        return (2, 0, "")
    return (1, 0, kind.casefold())


@dataclass(frozen=True)
class Group:
    """The cards of one type in one section of a registered list, in counting order."""

    section: str
    type: str
    lines: tuple[Line, ...]

    @property
    def total(self) -> int:
        """How many cards of this type the list registers in this section."""
        return sum(line.quantity for line in self.lines)


def counting_groups(registered: Registered, type_of: Mapping[str, str]) -> list[Group]:
    """A registered list as a judge counts it: section by section (the format's order), within a section type by
    type (type_key), within a type card by card as the list names them. `type_of`: each card name's type (a card
    it does not name, or names with "", counts as of unknown type)."""
    groups: list[Group] = []
    for section in registered.section_names():
        by_type: dict[str, list[Line]] = {}
        for line in registered.lines:
            if line.section == section:
                by_type.setdefault(type_of.get(line.card) or UNKNOWN_TYPE, []).append(line)
        for kind in sorted(by_type, key=type_key):
            groups.append(Group(section, kind, tuple(by_type[kind])))
    return groups


def typed_line(text: str, count: str) -> CardText | Refused:
    """A card the judge typed, read as a decklist line: "Thrust", "2 Thrust", "Thrust x2" (a count written on the
    line counts; without one, and without a Counted number, it is 1 copy). With a Counted number the line is read
    as a sheet's card column beside a quantity column (a quantity on the line too is the quantity written twice),
    and 0 counted is a reading too. A Refused (its message) for what no decklist line could be; DeckCheckError
    for a Counted number that is not a whole number from 0 to 999."""
    count = count.strip()
    if not count:
        return parse_card_text(text)
    n = count_value(count, text[:60])
    read = parse_card_text(text, quantity=max(n, 1))
    if isinstance(read, Refused):
        return read
    return replace(read, readings=tuple((n, name) for _qty, name in read.readings))


def rewrite_typed(text: str, suggestion: str) -> str:
    """A typed card with its name replaced by a suggestion, the rest as written ("2 Thrustt" -> "2 Thrust")."""
    read = parse_card_text(text)
    if isinstance(read, Refused) or not read.name or read.name not in text:
        return suggestion
    return text.replace(read.name, suggestion, 1)


class ClassifiedJSON(TypedDict):
    """One difference of a deck check with the kind of problem it is and why."""

    card: str
    registered: int
    counted: int
    problem: str
    why: str


def list_is_wrong(legal: bool | None, unread: Iterable[str]) -> bool:
    """Whether the registered list itself is wrong: NOT LEGAL by the rules, or with lines that did not read (an
    unverified verdict, `legal` None, is not a wrong list: the data, not the player, left it open)."""
    return legal is False or any(True for _ in unread)


def classify(differences: Iterable[Difference], legal: bool | None, rules: Iterable[str], unread: Iterable[str],
             counted_legal: bool | None = None) -> list[ClassifiedJSON]:
    """Each difference with its `problem`: "list" while the registered list is wrong (list_is_wrong: the list is
    what gets fixed, IPG 3.4), else "deck" (a legal list the deck does not match, IPG 3.5); `why` says what made
    it so: the lines that did not read, the rules the list breaks, and whether the deck as counted is legal."""
    unread = tuple(unread)
    rules = tuple(rules)
    wrong = list_is_wrong(legal, unread)
    if wrong:
        parts = []
        if unread:
            parts.append(f"{len(unread)} line{'s' if len(unread) != 1 else ''} of the list did not read "
                         f"({'; '.join(t[:60] for t in unread[:3])}{'; ...' if len(unread) > 3 else ''})")
        if legal is False:
            parts.append("the list as registered is NOT LEGAL" + (f" ({', '.join(rules)})" if rules else ""))
        if counted_legal:
            parts.append("the deck as counted is legal")
        why = "; ".join(parts) + ": fix the list (decklist problem)"
    else:
        why = "the registered list is legal and the deck differs from it: fix the deck (deck problem)"
    return [{**d.as_dict(), "problem": LIST if wrong else DECK, "why": why} for d in differences]


def difference_line(d: ClassifiedJSON) -> str:
    """A difference in words with its kind: "Thrust: registered 3, counted 2 — the deck does not match its list
    (deck problem)"."""
    registered = f"registered {d['registered']}" if d["registered"] else "not registered"
    return f"{d['card']}: {registered}, counted {d['counted']} — {PROBLEM_WORDS[d['problem']]}"


@dataclass(frozen=True)
class Judged:
    """A deck as counted against its list: whether it matches, the differences classified, the lines saying them
    (then each section whose total differs), the section totals, and the counted deck's own verdict."""

    matches: bool
    differences: list[ClassifiedJSON]
    lines: list[str]
    totals: dict[str, dict[str, int]]
    as_counted: dict[str, Any]
