"""Collections (CONTRACTS.md §4): rows of owned cards, other tools' layouts, and what decks still need.

Pure: the importers read sheets into plain rows, this module checks and resolves them; the
database stores the result.
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, Iterable, Mapping, Sequence, TypedDict

from . import limits
from .cards import Card, CardKey
from .catalog import CardIndex
from .cells import CellError
from .errors import CardNotFoundError, DeckcheckError, RowProblem
from .formats import DEFAULT_FORMAT
from .formula import cell_text
from .games import get_format
from .headers import columns_of, fold_digits
from .records import Records
from .text import normalize

COLUMNS = ("card", "set", "quantity", "condition", "language", "foil", "trade_quantity", "want_quantity",
           "location", "notes", "price")
MAX_QUANTITY = limits.QUANTITY.value  # CONTRACTS §4: a quantity is a whole number from 0 to this
DEFAULT_CONDITION, DEFAULT_LANGUAGE = "NM", "English"  # what an empty cell or an option left out means (§4)
_LANGUAGES = {  # other tools' codes and spellings -> the word an entry is stored under
    "en": "English", "eng": "English", "english": "English", "de": "German", "ger": "German", "german": "German",
    "deutsch": "German", "fr": "French", "fre": "French", "french": "French", "francais": "French",
    "it": "Italian", "ita": "Italian", "italian": "Italian", "es": "Spanish", "spa": "Spanish",
    "spanish": "Spanish", "pt": "Portuguese", "portuguese": "Portuguese", "ja": "Japanese", "jp": "Japanese",
    "japanese": "Japanese", "nl": "Dutch", "dutch": "Dutch",
}
EXTRA_COLUMNS = ("card_id",)  # deckcheck's addition: the exact printing, so that a round trip is exact
CONDITIONS = ("M", "NM", "LP", "MP", "HP", "D")
_CONDITION_WORDS = {
    "mint": "M", "near mint": "NM", "nm m": "NM", "lightly played": "LP", "light played": "LP",
    "good lightly played": "LP", "good": "LP", "excellent": "LP", "moderately played": "MP", "played": "MP",
    "heavily played": "HP", "damaged": "D", "poor": "D",
}
_TRUE, _FALSE = {"yes", "y", "true", "1", "foil", "x"}, {"no", "n", "false", "0", "", "normal", "non foil"}
DECK_NAME_MAX = limits.DECK_NAME.value


def deck_name(name: str) -> str:
    """A saved deck's name as given, once it is one line of printable text of 1 to DECK_NAME_MAX characters;
    DeckcheckError quoting it (cut short) otherwise."""
    shown = repr(name[:40]) + ("..." if len(name) > 40 else "")
    if len(name) > DECK_NAME_MAX:
        raise DeckcheckError(f"a deck's name is at most {DECK_NAME_MAX} characters; {shown} has {len(name):,}")
    if not name.strip():
        raise DeckcheckError("a deck's name cannot be empty")
    if not name.replace("\x00", "").isprintable():  # (a NUL: the storage's own refusal names it, on every engine)
        raise DeckcheckError(f"a deck's name is one line of printable text; {shown} holds a control character")
    return name


# Other collection tools' sheets, recognised by their headers: our column <- theirs (folded).
LAYOUTS: dict[str, dict[str, str]] = {
    "deckcheck": {c: c for c in COLUMNS + EXTRA_COLUMNS} | {"collection": "collection"},
    "deckbox": {"quantity": "count", "card": "name", "set": "edition", "condition": "condition",
                "language": "language", "foil": "foil", "trade_quantity": "tradelist count", "price": "my price"},
    "tcgplayer": {"quantity": "quantity", "card": "card name", "set": "set name", "condition": "condition",
                  "language": "language", "foil": "printing"},
}
_REQUIRED = {"deckcheck": ("card",), "deckbox": ("count", "name", "edition"),
             "tcgplayer": ("quantity", "card name", "set name")}


def detect_layout(header: Sequence[object]) -> tuple[str, dict[str, int]] | None:
    """Which layout a header row is, and where each of our columns stands in it: another tool's by its own
    headers, else ours, its columns named by any word of the one header table (`Card,Qty,Set`, `Karte;Anzahl`)."""
    folded = {normalize(str(h or "")): i for i, h in enumerate(header)}
    for layout in ("deckcheck", "deckbox", "tcgplayer"):
        if layout == "deckcheck" and "card" not in folded:
            continue
        if all(normalize(r) in folded for r in _REQUIRED[layout]):
            where = {ours: folded[normalize(theirs)] for ours, theirs in LAYOUTS[layout].items()
                     if normalize(theirs) in folded}
            return layout, {**columns_of(header, _OURS), **where}
    where = columns_of(header, _OURS)
    return ("deckcheck", where) if "card" in where else None


_OURS = COLUMNS + EXTRA_COLUMNS + ("collection",)


Key = tuple[str, str, str, bool]  # card id, condition, language, foil


class HoldingCounts(TypedDict, total=False):
    """A Holding's counts, as a caller gives them by keyword."""

    quantity: int
    trade_quantity: int
    want_quantity: int


class HoldingFields(HoldingCounts, total=False):
    """A Holding's fields besides its card, condition and language: what a caller may give by keyword."""

    foil: bool
    location: str
    notes: str
    collection: str
    price: str


@dataclass(slots=True)
class Holding:
    """Copies of one printing in one condition, language and finish.

    Slotted: an import of a 200,000-row sheet holds one per row until it is stored.
    """

    card: Card
    condition: str = DEFAULT_CONDITION
    language: str = DEFAULT_LANGUAGE
    foil: bool = False
    quantity: int = 0
    trade_quantity: int = 0
    want_quantity: int = 0
    location: str = ""
    notes: str = ""
    collection: str = ""
    price: str = ""  # per copy, as written ("1.50", "€2,00"); see parse_price

    @property
    def key(self) -> Key:
        """What identifies a holding: printing, condition, language, finish."""
        return (self.card.id, self.condition, self.language, self.foil)

    def add(self, other: "Holding") -> None:
        """Merge another holding of the same key: quantities add up, text fields keep the last non-empty."""
        self.quantity += other.quantity
        self.trade_quantity += other.trade_quantity
        self.want_quantity += other.want_quantity
        self.location = other.location or self.location
        self.notes = other.notes or self.notes
        self.price = other.price or self.price

    def row(self) -> list[object]:
        """The collection sheet row (COLUMNS, then EXTRA_COLUMNS)."""
        return [self.card.name, self.card.set or "", self.quantity, self.condition, self.language,
                "yes" if self.foil else "no", self.trade_quantity, self.want_quantity, self.location, self.notes,
                self.price, self.card.id]

    def describe(self) -> str:
        """One line for people: '3 x Thrust (1) [ME] LP English', with what is wanted or for trade."""
        name = f"{self.card.name} [{self.card.set}]" if self.card.set else self.card.name
        what = f"{name} {self.condition} {self.language}{' foil' if self.foil else ''}"
        if self.want_quantity and not self.quantity:
            return f"wants {self.want_quantity} x {what}"
        extra = [f"{self.want_quantity} wanted"] * bool(self.want_quantity) + \
            [f"{self.trade_quantity} for trade"] * bool(self.trade_quantity)
        return f"{self.quantity} x {what}" + (f" ({', '.join(extra)})" if extra else "")

    def describe_change(self, old: "Holding | None") -> str:
        """This entry after a change, with what it held before: '4 → 8 x Thrust (1) [ME] LP English' (the
        copies for trade and wanted too where they changed); without an old entry, describe()."""
        if old is None:
            return self.describe()
        name = f"{self.card.name} [{self.card.set}]" if self.card.set else self.card.name
        what = f"{name} {self.condition} {self.language}{' foil' if self.foil else ''}"
        extra = [f"{label} {a} → {b}" for label, a, b in (("for trade", old.trade_quantity, self.trade_quantity),
                                                          ("wanted", old.want_quantity, self.want_quantity))
                 if a != b]
        return f"{old.quantity} → {self.quantity} x {what}" + (f" ({', '.join(extra)})" if extra else "")


def language_name(text: str) -> str:
    """The language an entry is stored under: empty means English; other tools' codes become words."""
    t = text.strip()
    if not t:
        return DEFAULT_LANGUAGE
    return _LANGUAGES.get(normalize(t), t)


_PRICE = re.compile(r"^\s*(?P<pre>[^\d\s.,-]{0,3})\s*(?P<num>\d[\d.,' ]*)\s*(?P<post>[^\d\s.,]{0,3})\s*$")


def parse_price(text: str) -> tuple[str, Decimal] | None:
    """(currency as written, amount) of a price such as '1.50', '$0.25', '2,50 €', '1,234.50'; None if not one."""
    m = _PRICE.match(text or "")
    if not m or (m["pre"] and m["post"]):
        return None
    num = m["num"].replace(" ", "").replace("'", "")
    last = max(num.rfind("."), num.rfind(","))
    if last >= 0 and len(num) - last - 1 in (1, 2):  # a decimal part: the last separator
        num = num[:last].replace(".", "").replace(",", "") + "." + num[last + 1:]
    else:
        num = num.replace(".", "").replace(",", "")
    try:
        return (m["pre"] or m["post"]), Decimal(num)
    except InvalidOperation:
        return None


def value(holdings: Iterable[Holding]) -> tuple[dict[str, Decimal], int]:
    """What the copies are worth per currency (copies x price per copy), and how many entries have no usable price."""
    totals: dict[str, Decimal] = defaultdict(Decimal)
    unpriced = 0
    for h in holdings:
        if not h.quantity:
            continue
        found = parse_price(h.price)
        if found is None:
            unpriced += 1
        else:
            totals[found[0]] += found[1] * h.quantity
    return dict(totals), unpriced


def money(worth: dict[str, Decimal]) -> str:
    """What `value` gives, for people: '€12.50, 3.00' (a one-character currency before the amount, a longer
    one after it), by currency; '' for none."""
    return ", ".join(f"{cur}{amount:,.2f}" if len(cur) == 1 else f"{amount:,.2f} {cur}".rstrip()
                     for cur, amount in sorted(worth.items()))


class Holdings(list[Holding], Records):
    """The holdings of one or more collections; `records()` gives the collection sheet's rows (CONTRACTS §4)."""

    record_columns = ("collection", "card", "set", "quantity", "condition", "language", "foil", "trade_quantity",
                      "want_quantity", "location", "notes", "price", "card_id")

    def records(self) -> list[dict[str, Any]]:
        """One row per holding: the §4 columns plus the collection's name and the printing's card_id."""
        return [{"collection": h.collection, "card": h.card.name, "set": h.card.set or "", "quantity": h.quantity,
                 "condition": h.condition, "language": h.language, "foil": h.foil,
                 "trade_quantity": h.trade_quantity, "want_quantity": h.want_quantity, "location": h.location,
                 "notes": h.notes, "price": h.price, "card_id": h.card.id} for h in self]


def condition_code(text: str) -> str | None:
    """M NM LP MP HP D from a code or another tool's word; '' for none; None when not a condition."""
    t = text.strip()
    if not t:
        return ""
    if t.upper() in CONDITIONS:
        return t.upper()
    return _CONDITION_WORDS.get(normalize(t))


class RowReader:
    """Turns sheet rows into Holdings, resolving names once per (name, set) and collecting bad cells."""

    def __init__(self, index: CardIndex, sets: Mapping[str, str] | None = None):
        self.index = index
        self.sets = {normalize(k): v for k, v in (sets or {}).items()}
        self._resolved: dict[tuple[str, str], Card | CardNotFoundError] = {}
        self._texts: dict[str, str] = {}  # one object per distinct text (a sheet repeats its locations and notes)
        self.problems: list[RowProblem] = []
        # what bad rows named, per collection: a card id, or None when the row's card is not known
        self.bad_cards: dict[str, set[str | None]] = defaultdict(set)

    def resolve(self, name: str, set_text: str) -> Card | CardNotFoundError:
        """The card a name (and set) names, or the error saying why not; once per pair."""
        key = (name, set_text)
        found = self._resolved.get(key)
        if found is None:
            set_code = self.sets.get(normalize(set_text), set_text) if set_text else None
            try:
                found = self.index.lookup(name, set_code)
            except CardNotFoundError as exc:
                found = exc
            self._resolved[key] = found
        return found

    def read(self, number: int, cells: Mapping[str, object], collection: str = "") -> Holding | None:
        """One row; None (and problems recorded) when a cell is bad. Written for speed: 200,000 rows a sheet."""
        problems = self.problems
        before = len(problems)
        get = cells.get
        if CellError in {v.__class__ for v in cells.values()}:  # an error cell or a formula with no value
            for column, value in cells.items():
                if value.__class__ is CellError:
                    problems.append(RowProblem(number, column, str(value), value.message))
            self.bad_cards[_text(get("collection")) or collection].add(None)  # which entry it meant is unknown
            return None
        card = None
        card_id = _text(get("card_id"))
        if card_id:
            card = self.index.by_id(card_id)
            if card is None:
                problems.append(RowProblem(number, "card_id", card_id, "no card has this id"))
        else:
            name = _text(get("card"))
            if not name:
                problems.append(RowProblem(number, "card", get("card"), "a row needs a card name"))
            else:
                found = self.resolve(name, _text(get("set")))
                if isinstance(found, CardNotFoundError):
                    problems.append(RowProblem(number, "card", name, found.reason, found.suggestions))
                else:
                    card = found
        raw_condition = _text(get("condition"))
        condition = raw_condition if raw_condition in CONDITIONS else condition_code(raw_condition)
        if condition is None:
            problems.append(RowProblem(number, "condition", get("condition"),
                                       f"condition is one of {' '.join(CONDITIONS)}"))
        foil_text = _text(get("foil")).lower()
        if foil_text not in _TRUE and foil_text not in _FALSE:
            problems.append(RowProblem(number, "foil", get("foil"), "expected yes or no"))
        want = self._number(number, "want_quantity", get("want_quantity"), 0)
        quantity = self._number(number, "quantity", get("quantity"), 0 if want else 1)
        trade = self._number(number, "trade_quantity", get("trade_quantity"), 0)
        target = _text(get("collection")) or collection
        if card is None or condition is None or len(problems) != before:
            self.bad_cards[target].add(card.id if card is not None else None)
            return None
        same = self._texts.setdefault
        location, notes, price = _text(get("location")), _text(get("notes")), _text(get("price"))
        return Holding(card, condition or DEFAULT_CONDITION, language_name(_text(get("language"))),
                       foil_text in _TRUE, quantity, trade, want, same(location, location), same(notes, notes),
                       target, same(price, price))

    def _number(self, row: int, column: str, value: object, empty: int) -> int:
        """A quantity cell: a whole number from 0 to MAX_QUANTITY (a spreadsheet's 3.0 is 3); else a problem."""
        number: int | None = None
        if isinstance(value, int) and value.__class__ is not bool:
            number = value
        elif isinstance(value, float):
            if value.is_integer():
                number = int(value)
        else:
            text = fold_digits(_text(value))
            if not text:
                return empty
            m = _WHOLE.match(text)
            if m:
                number = int(m[1])
        if number is None or not 0 <= number <= MAX_QUANTITY:
            self.problems.append(RowProblem(row, column, value,
                                            f"a quantity is a whole number from 0 to {MAX_QUANTITY:,}"))
            return 0
        return number


_WHOLE = re.compile(r"^([0-9]{1,7})(?:\.0*)?$", re.ASCII)


def _text(value: object) -> str:
    """A cell as text; an apostrophe our exports put before = + - @ is taken off again."""
    if value is None:
        return ""
    if value.__class__ is str:
        return cell_text(value)
    if value.__class__ is float and value.is_integer():
        return str(int(value))
    return str(value).strip()


def combine(holdings: Iterable[Holding]) -> dict[tuple[str, str, str, str, bool], Holding]:
    """Holdings of one key (per collection) added together, in first-seen order. Merges into the first."""
    out: dict[tuple[str, str, str, str, bool], Holding] = {}
    for h in holdings:
        key = (h.collection, h.card.id, h.condition, h.language, h.foil)
        first = out.get(key)
        if first is None:
            out[key] = h
        else:
            first.add(h)
    return out


# -- what decks need -------------------------------------------------------------------------------
@dataclass
class Need:
    """One card a deck (or several) needs: how many, how many the collection holds, how many are short."""

    card: Card
    needed: int
    owned: int

    @property
    def short(self) -> int:
        """Copies still missing."""
        return max(0, self.needed - self.owned)


@dataclass
class Missing:
    """What each deck, and all of them together, still lack from the collection."""

    per_deck: dict[str, list[Need]] = field(default_factory=dict)
    together: list[Need] = field(default_factory=list)

    def as_dict(self, collection: str) -> dict[str, Any]:
        """The JSON object of `collection missing --json`: per deck and together, each card needed, owned, short."""
        def rows(needs: list[Need]) -> list[dict[str, Any]]:
            return [{"card": n.card.name, "set": n.card.set, "needed": n.needed, "owned": n.owned, "short": n.short}
                    for n in needs]
        return {"collection": collection, "decks": {k: rows(v) for k, v in self.per_deck.items()},
                "together": rows(self.together)}


def owned_by_card(holdings: Iterable[Holding]) -> dict[CardKey, int]:
    """Copies owned per card as the rules see it (printings that differ only in set or picture count together)."""
    owned: dict[CardKey, int] = defaultdict(int)
    for h in holdings:
        owned[h.card.card_key] += h.quantity
    return owned


def missing(decks: Mapping[str, Iterable[tuple[Card, int]]], holdings: Iterable[Holding]) -> Missing:
    """For each deck and for all together (they share the collection): needed, owned and short per card."""
    owned = owned_by_card(holdings)
    result = Missing()
    total: dict[CardKey, tuple[Card, int]] = {}  # card -> (the first deck's printing, copies all decks need)
    for name, cards in decks.items():
        needs: dict[CardKey, Need] = {}
        for card, quantity in cards:
            need = needs.get(card.card_key)
            if need is None:
                needs[card.card_key] = Need(card, quantity, owned.get(card.card_key, 0))
            else:
                need.needed += quantity
        result.per_deck[name] = [n for n in needs.values() if n.short]
        for key, need in needs.items():
            card, needed = total.get(key, (need.card, 0))
            total[key] = (card, needed + need.needed)
    result.together = [n for n in (Need(card, needed, owned.get(key, 0)) for key, (card, needed) in total.items())
                       if n.short]
    return result


@dataclass
class Surplus:
    """A card held beyond what the saved decks use, or marked for trade."""

    card: Card
    owned: int
    used: int
    marked: int

    @property
    def spare(self) -> int:
        """Copies beyond what the decks use."""
        return max(0, self.owned - self.used)

    def as_dict(self) -> dict[str, Any]:
        """One item of `collection trades --json`."""
        return {"card": self.card.name, "set": self.card.set, "owned": self.owned, "used": self.used,
                "spare": self.spare, "marked_for_trade": self.marked}


def trades(holdings: Sequence[Holding], used: Mapping[CardKey, int]) -> list[Surplus]:
    """Cards whose copies exceed what the saved decks use, and cards marked for trade."""
    owned: dict[CardKey, tuple[Card, int, int]] = {}  # card -> (its first printing, copies, copies marked for trade)
    for h in holdings:
        card, n, marked = owned.get(h.card.card_key, (h.card, 0, 0))
        owned[h.card.card_key] = (card, n + h.quantity, marked + h.trade_quantity)
    out = [Surplus(card, n, used.get(key, 0), marked) for key, (card, n, marked) in owned.items()]
    return sorted((s for s in out if s.spare or s.marked), key=lambda s: (s.card.name, s.card.set or ""))


def set_completion(cards: Iterable[Card], holdings: Iterable[Holding], edition: int = 1) -> list[tuple[str, int, int]]:
    """(set, distinct printings owned, printings in the set) for each set of an edition of the default format's
    game."""
    game = get_format(DEFAULT_FORMAT).game
    printings: dict[str, set[str]] = defaultdict(set)
    for c in cards:
        if c.game == game and c.edition == edition and c.set:
            printings[c.set].add(c.id)
    held = {h.card.id for h in holdings if h.quantity > 0}
    return [(s, len(ids & held), len(ids)) for s, ids in printings.items()]


def filter_holdings(holdings: Iterable[Holding], text: str) -> list[Holding]:
    """The entries whose card name, set, location, notes or language contains the text (case and accents folded)."""
    needle = normalize(text)
    return [h for h in holdings
            if needle in normalize(" ".join((h.card.name, h.card.set or "", h.location, h.notes, h.language)))]


@dataclass
class CollectionStats:
    """What a collection holds: copies, distinct cards and printings, value, by set and edition, set completion."""

    collection: str
    cards: int
    distinct: int  # distinct cards as the rules see them (printings of one card count once)
    printings: int
    value: dict[str, Decimal]  # currency -> the priced entries' total
    unpriced: int  # entries without a price
    by_set: dict[str, int]  # set code ("?" when unknown) -> copies, by code
    by_edition: dict[str, int]
    completion: list[tuple[str, int, int]]  # 1st-edition sets: (set, printings owned, printings in the set)


def collection_stats(collection: str, holdings: Sequence[Holding], cards: Iterable[Card]) -> CollectionStats:
    """The statistics of a collection's entries; `cards` are every card, for how complete each 1st-edition set is."""
    by_set: dict[str, int] = defaultdict(int)
    by_edition: dict[str, int] = defaultdict(int)
    for h in holdings:
        by_set[h.card.set or "?"] += h.quantity
        by_edition[str(h.card.edition)] += h.quantity
    worth, unpriced = value(holdings)
    return CollectionStats(collection, sum(h.quantity for h in holdings),
                           len({h.card.card_key for h in holdings if h.quantity}),
                           len({h.card.id for h in holdings if h.quantity}), worth, unpriced,
                           dict(sorted(by_set.items())), dict(sorted(by_edition.items())),
                           set_completion(cards, holdings))

