"""What the Highlander rules read: a deck with the format's parameters and the cards' modifiers applied.

The view walks the deck once and keeps the groups the rules ask for (by title, by specific card,
Immortal Specific cards, ...), so that each rule is a short loop over a small list.
"""
from __future__ import annotations

from collections import Counter, defaultdict
from functools import lru_cache
from typing import Callable, Generic, Sequence, TypeVar, overload

from ...cards import ENDURANCE_TYPES, NO_MODIFIERS, PREGAME_TYPES, Card, CardId, Modifiers
from ...decks import Deck, Entry
from ...report import Coverage
from ...text import normalize

from .params import HighlanderParams

P = TypeVar("P", bound="HighlanderParams", covariant=True)  # a view of Type 2 parameters is a view of Highlander ones
_Owner = TypeVar("_Owner")
_Value = TypeVar("_Value")
PREGAME = "Pre-Game"
ENDURANCE = "Endurance"
GENERIC_IMMORTAL = "generic immortal"  # the folded Immortal of a Persona titled Generic Immortal
# Where a card counts (RULES.md Words): by its type, wherever the list puts it.
_PLACE = {t: PREGAME for t in PREGAME_TYPES} | {t: ENDURANCE for t in ENDURANCE_TYPES}


@lru_cache(maxsize=None)
def folded(names: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """(name, folded name) pairs for a format parameter, folded once per process."""
    return tuple((n, normalize(n)) for n in names)


class lazy(Generic[_Owner, _Value]):
    """A value computed on first use and then kept in the instance.

    functools.cached_property does the same, but on Python 3.11 it takes a lock on every first
    use, which cost more than some rules; views are never shared between threads.
    """

    def __init__(self, compute: Callable[[_Owner], _Value]) -> None:
        self.compute = compute
        self.__doc__ = compute.__doc__

    def __set_name__(self, owner: type[_Owner], name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type[_Owner] | None = None) -> lazy[_Owner, _Value]: ...

    @overload
    def __get__(self, obj: _Owner, owner: type[_Owner] | None = None) -> _Value: ...

    def __get__(self, obj: _Owner | None, owner: type[_Owner] | None = None) -> lazy[_Owner, _Value] | _Value:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.compute(obj)
        return value


def place_of(card: Card, section: str) -> str:
    """Where a card written in `section` counts: by its type, wherever the list put it (the view's `place`)."""
    return _PLACE.get(card.type or "", section)


def _allocation_order(e: Entry) -> tuple[bool, str, str]:
    return (e.card.reserved is not True, e.card.name, e.card.id)


class HighlanderView(Generic[P]):
    """A deck seen by the Highlander rules, with the parameters of its format (Type1eParams, Type2Params)."""

    def __init__(self, deck: Deck, params: P):
        self.deck = deck
        self.params = params
        self.endurance: list[Entry] = []
        self.pregame: list[Entry] = []
        self.title_count: dict[str, int] = {}  # Endurance cards by title: the deck proper (デッキ)
        self.personas: list[Entry] = []
        self.specific: list[Entry] = []  # Immortal Specific cards (any section, Personas excluded)
        self.by_type: dict[str, list[Entry]] = {}  # Pre-Game kinds only: Persona, Premium, Watcher, ...
        self.modifiers: list[Modifiers] = []
        self.place: dict[int, str | None] = {}  # id(entry) -> where it counts: by its type, wherever the list put it
        self.endurance_count = self.pregame_count = 0
        self._take(deck.entries)

    def plus(self, entry: Entry) -> HighlanderView[P]:
        """The view of a deck of this one's entries and one more (a card on a line of its own), made from this
        view's groups without walking the deck again: what a search for the deck asks of each card it lists
        (deckcheck.adding). This view is left as it was."""
        new = object.__new__(type(self))
        new.deck = Deck(entries=[*self.deck.entries, entry])
        new.params = self.params
        new.endurance, new.pregame, new.specific = self.endurance.copy(), self.pregame.copy(), self.specific.copy()
        new.title_count, new.place = self.title_count.copy(), self.place.copy()
        new.by_type = {kind: entries.copy() for kind, entries in self.by_type.items()}
        new.modifiers = self.modifiers.copy()
        new.endurance_count, new.pregame_count = self.endurance_count, self.pregame_count
        new._take((entry,))
        return new

    def _take(self, entries: Sequence[Entry]) -> None:
        """Add entries to the groups (the deck's, or one more for `plus`), then find the Persona."""
        endurance_count, pregame_count = self.endurance_count, self.pregame_count
        title_count, by_type, place = self.title_count, self.by_type, self.place
        add_endurance, add_pregame, add_specific = self.endurance.append, self.pregame.append, self.specific.append
        for e in entries:  # locals bound above: this loop runs for every line of every deck
            card, quantity = e.card, e.quantity
            where = place[id(e)] = _PLACE.get(card.type or "", e.section)  # type unknown: where it is written
            if where == ENDURANCE:
                add_endurance(e)
                endurance_count += quantity
                key = card.title_key
                title_count[key] = title_count.get(key, 0) + quantity
            else:
                add_pregame(e)
                pregame_count += quantity
            kind = card.type
            if kind in PREGAME_TYPES:
                if kind in by_type:
                    by_type[kind].append(e)
                else:
                    by_type[kind] = [e]
            if card.immortal is not None and kind != "Persona":
                add_specific(e)
            if card.modifiers is not NO_MODIFIERS and card.modifiers:
                self.modifiers.append(card.modifiers)
        self.endurance_count, self.pregame_count = endurance_count, pregame_count
        self.personas = by_type.get("Persona", [])
        self.persona: Card | None = self.personas[0].card if self.personas else None  # the first one written
        immortal = self.persona.immortal_key if self.persona is not None else None
        # A Persona titled Generic Immortal makes a Generic Immortal deck (1E glossary); its allowance applies.
        self.persona_key: str | None = None if immortal == GENERIC_IMMORTAL else immortal

    @lazy
    def restricted_ids(self) -> frozenset[CardId]:
        """The specific cards (Card.specific_id) of the deck's cards with a Restriction number, or an unknown
        one."""
        return frozenset(e.card.specific_id for e in self.deck.entries if e.card.restriction != 0)

    @property
    def whose(self) -> str:
        """How a message names the deck: 'a Generic Immortal' or 'a deck of Connor MacLeod' ('a deck of The
        Kurgan', never 'a The Kurgan deck')."""
        if self.persona is None or self.persona_key is None:
            return "a Generic Immortal"
        return f"a deck of {self.persona.immortal}"

    def persona_name(self) -> str | None:
        """The report's name of the deck's Persona: its Immortal (None: no Persona)."""
        return (self.persona.immortal or self.persona.name) if self.persona is not None else None

    def counts(self) -> dict[str, int]:
        """Cards in each section."""
        return {PREGAME: self.pregame_count, ENDURANCE: self.endurance_count}

    @lazy
    def by_title(self) -> dict[str, list[Entry]]:
        """Endurance entries grouped by title (built on first use: rules read it only to report)."""
        groups: dict[str, list[Entry]] = defaultdict(list)
        for e in self.endurance:
            groups[e.card.title_key].append(e)
        return groups

    @lazy
    def endurance_titles(self) -> set[str]:
        """The folded titles present in the Endurance."""
        return set(self.title_count)

    # -- the Persona ----------------------------------------------------------------------------
    @property
    def is_generic(self) -> bool:
        """A Generic Immortal: no Persona card that names an Immortal."""
        return self.persona_key is None

    def is_own(self, card: Card) -> bool:
        """Whether an Immortal Specific card belongs to the played Persona (Clan MacLeod for any MacLeod)."""
        key = card.immortal_key
        if key is None or self.persona_key is None:
            return False
        if key == self.persona_key:
            return True
        clan = self.params.clan_cards
        return key in clan and clan[key] in self.persona_key.split()

    # -- modifiers, applied before the rules ---------------------------------------------------
    @lazy
    def deck_min(self) -> int:
        """The smallest Endurance allowed: the format's, or the highest that modifiers set (RULES.md Modifier)."""
        values = [m.deck_min for m in self.modifiers if m.deck_min is not None]
        return max(values) if values else self.params.deck_min

    @lazy
    def pregame_extra(self) -> int:
        """Extra Pre-Game slots that modifiers add."""
        return sum(m.pregame_extra for m in self.modifiers)

    @lazy
    def master_any_persona(self) -> bool:
        """Whether a modifier allows Master cards of any Persona."""
        return any(m.master_any_persona for m in self.modifiers)

    @lazy
    def woc_max(self) -> int:
        """How many Weapons of Choice are allowed."""
        values = [m.woc_max for m in self.modifiers if m.woc_max is not None]
        return max(values) if values else self.params.woc_max

    @lazy
    def grants(self) -> frozenset[str]:
        """Permission tags granted by the Pre-Game cards (RULES.md HL2-PERMISSION), folded."""
        tags: set[str] = set()
        for e in self.pregame:
            tags |= {normalize(t) for t in e.card.modifiers.grants}
        return frozenset(tags)

    @lazy
    def others(self) -> list[Entry]:
        """Immortal Specific cards (any section) that are not the played Persona's own: all, for a Generic Immortal."""
        own, clan = self.persona_key, self.params.clan_cards
        if own is None:
            return self.specific
        return [e for e in self.specific if e.card.immortal_key != own
                and not (e.card.immortal_key in clan and self.is_own(e.card))]

    @lazy
    def foreign(self) -> tuple[dict[str, list[tuple[Entry, int]]], dict[str, list[tuple[Entry, int]]]]:
        """Endurance cards of other Personas: (allowed by a modifier, not allowed), by Immortal name.

        Each value lists (entry, copies). Master cards are allowed by master_any_persona; the
        other_persona_each quota applies per Immortal, then other_persona_total; Signature cards
        are never allowed. Quotas go to Reserved cards first (refused, they break two rules), then by
        name, so the written order of the deck does not change the verdict.
        """
        allowed: dict[str, list[tuple[Entry, int]]] = defaultdict(list)
        refused: dict[str, list[tuple[Entry, int]]] = defaultdict(list)
        if self.is_generic:
            return allowed, refused
        each = max((m.other_persona_each for m in self.modifiers), default=0)
        total = sum(m.other_persona_total for m in self.modifiers)
        used_each: Counter[str] = Counter()
        foreign = [e for e in self.others if self.place[id(e)] == ENDURANCE]
        if len(foreign) > 1:
            foreign.sort(key=_allocation_order)
        for entry in foreign:
            card = entry.card
            who = card.immortal or ""
            if card.signature is True:
                ok = 0
            elif self.master_any_persona and card.is_master:
                ok = entry.quantity
            else:
                from_each = min(entry.quantity, max(each - used_each[who], 0))
                used_each[who] += from_each
                from_total = min(entry.quantity - from_each, total)
                total -= from_total
                ok = from_each + from_total
            if ok:
                allowed[who].append((entry, ok))
            if entry.quantity - ok:
                refused[who].append((entry, entry.quantity - ok))
        return allowed, refused

    def coverage(self) -> Coverage:
        """What the terminal report and the pages draw: the squares the Basic Attacks and the Blocks cover."""
        attacks = blocks = 0
        for e in self.endurance:
            grid = e.card.grid or 0
            if e.card.type == "Block":
                blocks |= grid
            elif e.card.basic and e.card.type == "Attack":
                attacks |= grid
        return Coverage(attacks, blocks)
