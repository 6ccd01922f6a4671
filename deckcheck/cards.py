"""Cards as printed: rules data, with None meaning "unknown" wherever the data may be missing."""
from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass, field, replace
from itertools import count
from operator import attrgetter
from typing import Any, Callable, Hashable, Iterable

from .errors import DeckcheckError, clipped
from .fields import ATTRIBUTE, CELL, CORE, HEAD, MAX_NUMBER, TAIL, Field, as_written, page_words, tags, whole_number
from .text import has_master_word, normalize

# The game of a card sheet row with no `game` (CONTRACTS §1): the one place outside deckcheck.games that names a
# game, since every card sheet written before there were other games means it.
DEFAULT_GAME = "highlander"

PREGAME_TYPES = frozenset({"Persona", "Weapon of Choice", "Watcher", "Premium", "Quickening", "Crystal", "Pre-Game"})
ENDURANCE_TYPES = frozenset({"Attack", "Special Attack", "Block", "Dodge", "Event", "Situation", "Plot",
                             "Location", "Object", "Edge", "Illusion", "Attack/Defense"})
GEM_COLOURS = ("master", "agility", "strength", "toughness", "empathy", "reason")

_INT_MODIFIERS = ("deck_min", "pregame_extra", "other_persona_each", "other_persona_total", "woc_max")
_FLAG_MODIFIERS = ("master_any_persona",)
MODIFIER_KEYS = _INT_MODIFIERS + _FLAG_MODIFIERS + ("grants",)


@dataclass(frozen=True, slots=True)
class Modifiers:
    """Deck-building effects printed on a card (CONTRACTS.md §1, column `deckbuilding`)."""

    deck_min: int | None = None
    pregame_extra: int = 0
    master_any_persona: bool = False
    other_persona_each: int = 0
    other_persona_total: int = 0
    woc_max: int | None = None
    grants: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        """True when any field is away from its default (the same as `!= NO_MODIFIERS`, without the dataclass's
        tuple comparison: every deck's view asks it of every card)."""
        return self is not NO_MODIFIERS and (
            self.deck_min is not None or self.woc_max is not None or self.master_any_persona
            or self.pregame_extra != 0 or self.other_persona_each != 0 or self.other_persona_total != 0
            or bool(self.grants))

    def __str__(self) -> str:
        parts = []
        if self.deck_min is not None:
            parts.append(f"deck_min={self.deck_min}")
        if self.pregame_extra:
            parts.append(f"pregame_extra={self.pregame_extra}")
        if self.master_any_persona:
            parts.append("master_any_persona")
        if self.other_persona_each:
            parts.append(f"other_persona_each={self.other_persona_each}")
        if self.other_persona_total:
            parts.append(f"other_persona_total={self.other_persona_total}")
        if self.woc_max is not None:
            parts.append(f"woc_max={self.woc_max}")
        parts += [f"grants={tag}" for tag in sorted(self.grants)]
        return ";".join(parts)


NO_MODIFIERS = Modifiers()


def parse_modifiers(text: str) -> Modifiers:
    """Parse 'deck_min=40;grants=Watcher'; raise DeckcheckError naming an unknown key or bad number."""
    numbers: dict[str, int] = {}
    flags: set[str] = set()
    grants: set[str] = set()
    for raw in text.split(";"):
        item = raw.strip()
        if not item:
            continue
        key, sep, value = item.partition("=")
        key, value = key.strip().lower(), value.strip()
        if key in _FLAG_MODIFIERS:
            if sep and value.lower() not in ("yes", "true", "1"):
                raise DeckcheckError(f"modifier {key!r} takes no value, got {clipped(item)}")
            flags.add(key)
        elif key in _INT_MODIFIERS:
            if not (value.isascii() and value.isdigit()):  # isdigit() alone takes '\u00b2', which int() refuses
                raise DeckcheckError(f"modifier {key!r} needs a whole number, got {clipped(item)}")
            if len(value.lstrip("0")) > len(str(MAX_NUMBER)) or int(value) > MAX_NUMBER:  # bounded before int()
                raise DeckcheckError(f"modifier {key!r} needs a whole number of at most {MAX_NUMBER:,}, "
                                     f"got {clipped(item)}")
            numbers[key] = int(value)
        elif key == "grants":
            if not value:
                raise DeckcheckError(f"modifier 'grants' needs a tag, got {clipped(item)}")
            grants.add(value)
        else:
            raise DeckcheckError(f"unknown deck-building modifier {clipped(key)} in {clipped(text)}; "
                                 f"known: {', '.join(MODIFIER_KEYS)}")
    if not numbers and not flags and not grants:
        return NO_MODIFIERS
    return Modifiers(grants=frozenset(grants), master_any_persona="master_any_persona" in flags, **numbers)


# A card as a tuple of what identifies it (a specific card, a rules key, a card key): compared and hashed only.
CardKey = tuple[Hashable, ...]


class CardId:
    """What a card key is interned as (Card.specific_id, Card.owner_title_id): one object per key among the cards
    alive, compared by identity (the cheapest hash a rule's set can take). The table forgets a key when no card
    holds its id any more, so a long-running server's table is only as large as the cards it still holds (card
    imports, sheets brought to a check); an id is never the same object as another key's while both live. Its
    number (never given twice in a process) only tells ids apart to a reader."""

    __slots__ = ("number", "__weakref__")

    def __init__(self, number: int) -> None:
        self.number = number

    def __repr__(self) -> str:
        return f"CardId({self.number})"

    def __copy__(self) -> "CardId":
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> "CardId":
        return self

    def __reduce__(self) -> str | tuple[Any, ...]:
        raise TypeError("a CardId belongs to one process: a pickled card takes this process's (Card.__setstate__)")


# The table: each key's id, held weakly (the cards of the key hold it). A lookup takes no lock (one dict read, one
# reference called); making an id and forgetting one take _TABLE, reentrant since a reference's callback may run
# in the thread that holds it (a collection started while it makes an id).
_IDS: dict[CardKey, weakref.KeyedRef[CardKey, CardId]] = {}
_NUMBERS = count()
_TABLE = threading.RLock()


def _new_id(key: CardKey) -> CardId:
    """The id of a key no card alive holds: made under the lock, so two threads making cards of one new key give
    them one id."""
    with _TABLE:
        ref = _IDS.get(key)
        found = ref() if ref is not None else None
        if found is None:
            found = CardId(next(_NUMBERS))
            _IDS[key] = weakref.KeyedRef(found, _forget, key)
        return found


def _forget(ref: weakref.KeyedRef[CardKey, CardId]) -> None:
    """A key's last card went: the table forgets the key, unless a card of it came since and holds a new id."""
    with _TABLE:
        if _IDS.get(ref.key) is ref:
            del _IDS[ref.key]


def interned_keys() -> int:
    """How many keys the table of ids holds: those of the cards alive (and of cards in garbage not yet collected)."""
    return len(_IDS)


class _Cache:
    """What a Card computes once: its rules key and card key, and the one card its printings are (as_one_card, by
    the printings' ids), under the fields declared when it was made (`keys`: a field declared since makes it
    anew). Never pickled: a card read back starts with an empty one."""

    __slots__ = ("rules", "card", "one_card", "keys")

    def __init__(self) -> None:
        self.rules: CardKey | None = None
        self.card: CardKey | None = None
        self.one_card: dict[tuple[str, ...], Card] = {}
        self.keys = _KEYS


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One printed card. Fields set to None are unknown; the validator reports what it cannot decide."""

    id: str
    name: str
    title: str
    game: str = DEFAULT_GAME
    immortal: str | None = None
    weapon: str | None = None
    version: str | None = None
    edition: int = 1
    set: str | None = None
    type: str | None = None
    subtype: tuple[str, ...] = ()
    basic: bool = False
    grid: int | None = None
    grid_inferred: bool = False
    restriction: int | None = 0  # 0: no Restriction number printed; None: unknown
    reserved: bool | None = False
    signature: bool | None = False
    unique: bool | None = False
    hand_icons: int | None = 0
    gem_master: int | None = 0
    gem_agility: int | None = 0
    gem_strength: int | None = 0
    gem_toughness: int | None = 0
    gem_empathy: int | None = 0
    gem_reason: int | None = 0
    requires: frozenset[str] = frozenset()
    modifiers: Modifiers = NO_MODIFIERS
    # The values of the columns a game declares beyond these (deckcheck.formats.Column), as sorted
    # (column, value) pairs; an unknown value is left out, so extra_value gives None.
    extra: tuple[tuple[str, object], ...] = ()
    rarity: str | None = None
    text: str | None = None
    # What the card computes once (a fresh one for every card, dataclasses.replace included: never stale).
    _cache: _Cache = field(default_factory=_Cache, init=False, repr=False, compare=False)
    # Keys the rules read for every deck, computed once per card (plain slots: the fastest reads).
    title_key: str = field(init=False, repr=False, compare=False)
    immortal_key: str | None = field(init=False, repr=False, compare=False)
    weapon_key: str | None = field(init=False, repr=False, compare=False)
    specific_key: tuple[str, str, str | None, str | None, str, int] = field(init=False, repr=False, compare=False)
    specific_id: CardId = field(init=False, repr=False, compare=False)  # the same, interned: cheaper to hash
    owner_title_id: CardId = field(init=False, repr=False, compare=False)  # Immortal + title, interned
    is_master: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        setter = object.__setattr__
        if self.extra:
            setter(self, "extra", tuple(sorted((k, v) for k, v in dict(self.extra).items() if v is not None)))
        setter(self, "title_key", normalize(self.title))
        setter(self, "immortal_key", normalize(self.immortal) if self.immortal else None)
        setter(self, "weapon_key", normalize(self.weapon) if self.weapon else None)
        # The specific card (RULES.md): title, Immortal, Weapon, version, edition.
        setter(self, "specific_key", (self.game, self.title_key, self.immortal_key, self.weapon_key,
                                      normalize(self.version or ""), self.edition))
        self._take_ids()
        # A Master card: the title holds the word Master in any form.
        setter(self, "is_master", has_master_word(self.title))

    def _take_ids(self) -> None:
        """Its interned ids (CardId), each read from the table, or made."""
        setter = object.__setattr__
        key: CardKey = self.specific_key
        setter(self, "specific_id", (ref := _IDS.get(key)) and ref() or _new_id(key))
        key = (self.game, self.immortal_key, self.title_key)
        setter(self, "owner_title_id", (ref := _IDS.get(key)) and ref() or _new_id(key))

    # Kept indexes (deckcheck.db.indexcache) hold cards pickled: every field and key but the interned ids, which
    # belong to one process and are taken again from this one's table (CardId); the cache starts empty.
    def __getstate__(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in _STATE)

    def __setstate__(self, state: tuple[object, ...]) -> None:
        # each slot set through its own descriptor (half the time of object.__setattr__ by name: a kept index
        # reads some 1,500 cards on every `deckcheck check`)
        for put, value in zip(_PUT_STATE, state, strict=True):
            put(self, value)
        setter = object.__setattr__
        if self.modifiers == NO_MODIFIERS:
            setter(self, "modifiers", NO_MODIFIERS)
        setter(self, "_cache", _Cache())
        self._take_ids()

    def _keyed(self) -> _Cache:
        """Its cache, made anew when fields were declared since it was made (declare_fields)."""
        cache = self._cache
        if cache.keys is not _KEYS:
            cache = _Cache()
            object.__setattr__(self, "_cache", cache)
        return cache

    @property
    def rules_key(self) -> CardKey:
        """Everything the rules read; two printings with equal keys are the same card for a decklist: the card key,
        then the facts a source states for one printing (printing_facts)."""
        cache = self._cache
        key = cache.rules
        if key is None or cache.keys is not _KEYS:
            cache = self._keyed()
            key = cache.rules = self.card_key + cache.keys.facts(self)
        return key

    @property
    def card_key(self) -> CardKey:
        """The rules key without the facts a source states for one printing (printing_facts): printings with
        equal card keys are one card unless two of them state different values of such a fact. It holds the
        fields declared rules=True and not fact=True (Field.keyed: title_key for the title), then the values
        of the game's own columns that are no fact."""
        cache = self._cache
        key = cache.card
        if key is None or cache.keys is not _KEYS:
            cache = self._keyed()
            keys = cache.keys
            extra = self.extra if not keys.extra_facts else tuple(
                pair for pair in self.extra if pair[0] not in keys.extra_facts)
            key = cache.card = keys.card(self) + (extra,)
        return key

    def facts(self) -> CardKey:
        """The values of printing_facts() (None where unknown; an empty text is unknown too: Card.text_key)."""
        return self._keyed().keys.facts(self)

    @property
    def effect_version(self) -> str:
        """Its version as the rules key reads it (Field.keyed): a version naming a picture ('2', 'Version 3') is
        none, the same card as the others; one naming an effect stays."""
        version = normalize(self.version or "")
        return "" if version.isdigit() or version.startswith("version ") else version

    @property
    def text_key(self) -> str | None:
        """Its text as the keys read it (Field.keyed): normalized, None when unknown or empty."""
        return normalize(self.text or "") or None

    def extra_value(self, column: str) -> object:
        """The value of a game's own column (Raven's `renown`, Taktik's `rank`); None when unknown or absent."""
        for name, value in self.extra:
            if name == column:
                return value
        return None

    def with_extra(self, **values: object) -> "Card":
        """The same card with these game columns set (None: unknown)."""
        return replace(self, extra=tuple((dict(self.extra) | values).items()))

    @property
    def gems(self) -> tuple[int | None, ...]:
        """The six gem values in the order of GEM_COLOURS."""
        return (self.gem_master, self.gem_agility, self.gem_strength, self.gem_toughness,
                self.gem_empathy, self.gem_reason)

    def gem(self, colour: str) -> int | None:
        """The gem value of one colour (see GEM_COLOURS)."""
        value: int | None = getattr(self, "gem_" + colour)
        return value

    @property
    def is_pregame(self) -> bool:
        """A Pre-Game card: put into play before the game, never part of the Endurance."""
        return self.type in PREGAME_TYPES

    @property
    def is_endurance(self) -> bool:
        """A card that belongs in the Endurance."""
        return self.type in ENDURANCE_TYPES

    @property
    def is_persona(self) -> bool:
        """A Persona card."""
        return self.type == "Persona"

    @property
    def is_immortal_specific(self) -> bool:
        """A card with an Immortal's name under its title (a Persona excluded)."""
        return self.immortal is not None and not self.is_persona

    def __hash__(self) -> int:
        return hash((self.game, self.id))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.game == other.game and self.id == other.id and self.rules_key == other.rules_key \
            and self.name == other.name and self.set == other.set and self.rarity == other.rarity

    def __str__(self) -> str:
        return self.name


def _core(name: str, place: int, write: Callable[[Any], str] = str, read: Callable[[str], Any] = as_written,
          **words: Any) -> Field:
    return Field(name, read, write, kept=ATTRIBUTE, place=place, **words)


EDITIONS = {1: "1st edition", 2: "2nd edition (Type 2)", 3: "3rd edition"}  # an edition in a player's words
_words = page_words

# The fields every game's cards have (deckcheck.fields); each game declares its own (Game.fields). The card sheet
# reads these itself (deckcheck.cardsheet.card_from_row): a name, an id and a title derive from one another.
CORE_FIELDS = (
    _core("game", HEAD, sourced=False),  # its row names the game in full: the web's, which has the games
    _core("id", HEAD, rules=False, sourced=False, page=_words("Card id", lambda c: c.id)),
    _core("name", HEAD, rules=False, sourced=False, page=_words("Name in decklists", lambda c: c.name)),
    _core("title", HEAD, keyed="title_key", page=_words("Title", lambda c: c.title)),
    _core("version", CORE, blank=None, keyed="effect_version",
          page=_words("Version (picture)", lambda c: c.version or "the only one")),
    _core("edition", CORE, read=whole_number, numeric=True, blank=1, type=int,
          page=_words("Edition", lambda c: EDITIONS.get(c.edition, str(c.edition)))),
    _core("set", CORE, blank=None, rules=False, column="set_code", page=_words("Set", lambda c: c.set)),
    _core("type", CORE, blank=None, label="Type", asked=7, settle="the card type printed on the card", unknowable=True,
          editable=True),
    _core("subtype", CORE, ";".join, read=tags, blank=(), db=CELL, editable=True,
          page=_words("Subtype", lambda c: ", ".join(c.subtype) or "none")),
    _core("rarity", TAIL, blank=None, rules=False, editable=True, page=_words("Rarity", lambda c: c.rarity)),
    _core("text", TAIL, blank=None, label="Text", asked=6, form=("Text", "the card's text as printed"), fact=True,
          keyed="text_key", editable=True, page=lambda c: None),  # on the drawn card itself
)


def same_card(cards: "list[Card] | tuple[Card, ...]") -> bool:
    """Whether printings are one card: equal card keys, and no fact stated with two different values."""
    if not one_card(cards):
        return False
    return not conflicts(cards)


def one_card(cards: "list[Card] | tuple[Card, ...]") -> bool:
    """Whether printings are one card for a line that names no set: equal card keys (a fact two of them state
    differently is a conflict of that card, unknown in as_one_card, never a second card)."""
    return len({c.card_key for c in cards}) <= 1


def conflicts(cards: "list[Card] | tuple[Card, ...]") -> list[str]:
    """The facts (printing_facts) that printings state with two different values, in that order."""
    columns = zip(*(c.facts() for c in cards), strict=True)
    return [f.name for f, column in zip(_KEYS.fact_fields, columns, strict=True)
            if len({v for v in column if v is not None}) > 1]


def as_one_card(cards: "list[Card] | tuple[Card, ...]") -> Card:
    """The first printing, knowing every fact some printing states: a reprint carries the card's facts, so a fact
    known for one printing and unknown for another is the card's; one stated with two values is unknown here (a
    conflict the card page shows)."""
    first = cards[0]
    if len(cards) == 1 or len({c.rules_key for c in cards}) == 1:
        return first
    key = tuple(c.id for c in cards)
    one = first._cache.one_card.get(key)  # the same object for the same printings, as the printings themselves are
    if one is None:
        facts = [c.facts() for c in cards]
        values: dict[str, Any] = {}  # attribute -> value
        extra: dict[str, Any] = {}  # a game's own column -> value
        for i, f in enumerate(first._keyed().keys.fact_fields):
            stated = {v[i] for v in facts if v[i] is not None}
            if facts[0][i] is None or len(stated) > 1:
                (extra if f.in_extra else values)[f.attribute] = None if len(stated) != 1 else next(
                    f.value(c) for c, v in zip(cards, facts, strict=True) if v[i] is not None)
        one = replace(first, **values) if values else first
        one = first._cache.one_card[key] = one.with_extra(**extra) if extra else one
    return one


def card_groups(cards: "list[Card] | tuple[Card, ...]") -> list[list[Card]]:
    """Printings grouped into cards by card key, in the order given (a fact two printings state differently is a
    conflict of one card: one_card)."""
    groups: list[list[Card]] = []
    by_key: dict[CardKey, list[Card]] = {}
    for card in cards:
        group = by_key.get(card.card_key)
        if group is None:
            group = by_key[card.card_key] = []
            groups.append(group)
        group.append(card)
    return groups


# What a pickled Card holds (Card.__getstate__): its fields and computed keys, less the cache and interned ids.
_STATE = tuple(name for name in Card.__slots__ if name not in ("_cache", "specific_id", "owner_title_id"))
_PUT_STATE: tuple[Callable[[Card, object], None], ...] = tuple(getattr(Card, name).__set__ for name in _STATE)


# -- the keys' fields, derived from the field table ------------------------------------------------------------------
class _Keys:
    """What a card's keys hold, from the fields declared (declare_fields), in the table's order (Field.place): the
    card key's attributes (`card`: the fields the rules read that are no printing's fact, each as Field.keyed; a
    Card attribute no field declares yet is keyed as it is, never left out), and the facts a source states for
    one printing (`fact_fields`, read by `facts`; `extra_facts`: those a game keeps in Card.extra)."""

    __slots__ = ("card", "fact_fields", "facts", "extra_facts")

    facts: Callable[[Card], CardKey]

    def __init__(self, table: Iterable[Field]) -> None:
        fields = sorted(table, key=lambda f: f.place)
        attributes = {f.attribute for f in fields if not f.in_extra}
        undeclared = [name for name in _ATTRIBUTES if name not in attributes]
        self.card = _values([f.keyed for f in fields if f.rules and not f.fact and not f.in_extra] + undeclared)
        self.fact_fields = tuple(f for f in fields if f.fact)
        self.extra_facts = frozenset(f.name for f in self.fact_fields if f.in_extra)
        if self.extra_facts:  # a game's own among them: each read as the field keeps it
            each = tuple(_extra_value(f.name) if f.in_extra else attrgetter(f.keyed) for f in self.fact_fields)
            self.facts = lambda card: tuple(get(card) for get in each)
        else:
            self.facts = _values([f.keyed for f in self.fact_fields])


def _extra_value(name: str) -> Callable[[Card], object]:
    return lambda card: card.extra_value(name)


def _values(names: list[str]) -> Callable[[Card], CardKey]:
    """The tuple of a card's attributes of these names (attrgetter: one call, whatever their number)."""
    get = attrgetter(*names) if names else None
    if get is None or len(names) == 1:
        return lambda card: (get(card),) if get is not None else ()
    return get


# A Card's own attributes (its dataclass fields, less Card.extra and what it computes)
_ATTRIBUTES = tuple(f.name for f in Card.__dataclass_fields__.values() if f.init and f.name != "extra")
_DECLARED: dict[str, Field] = {}  # every field declared, by name: the first declaration of a name (the registry's)
_KEYS = _Keys(())


def declare_fields(fields: Iterable[Field]) -> None:
    """Key cards by these fields (their `rules` and `fact` flags) too: the core's, then each game's as it is made
    (deckcheck.formats.Game), so the card keys hold what the games' field tables say and the core names none of
    their fields. A name declared before keeps its first declaration, as the registry's table does."""
    global _KEYS
    new = [f for f in fields if f.name not in _DECLARED]
    if new:
        for f in new:
            _DECLARED.setdefault(f.name, f)
        _KEYS = _Keys(_DECLARED.values())


def printing_facts() -> tuple[str, ...]:
    """The facts a public source states about one printing (card-facts.tsv) or that one printing's era settles (no
    Signature cards before The Gathering): a reprint whose facts are unknown is still the same card. The fields
    declared fact=True (deckcheck.fields.Field.fact), in the field table's order."""
    return tuple(f.name for f in _KEYS.fact_fields)


declare_fields(CORE_FIELDS)
