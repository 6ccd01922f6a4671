"""The card sheet (CONTRACTS.md §1): its columns, and conversion between sheet rows and Cards.

Reading the file is the importers' job; this module turns plain rows (dicts of text) into
Cards and back, collecting every bad cell with its row, column and value. A row states only the
fields whose cells are filled (CONTRACTS.md §1a): `SheetCard` keeps which, and the provenance
columns (`restriction_source`, ...) it carries, so that an update changes those fields alone.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from . import provenance as prov
from .cards import DEFAULT_GAME, Card, same_card
from .catalog import CardIndex, closest_names
from .cells import CellError, is_none_word
from .errors import CardNotFoundError, CardSheetError, DeckcheckError, RowProblem
from .fields import IDENTITY as NAMES_THE_CARD, UNKNOWN_WORDS, Field, parse_whole
from .fields import UNKNOWN as UNKNOWN  # what card_json writes for an unknown value
from .formula import cell_text
from .games import registry
from .headers import column_of
from .text import normalize, slug

if TYPE_CHECKING:
    from .catalog import CardSet

FIELDS = registry().fields
COLUMNS = tuple(f.name for f in FIELDS)
"""Every column, in the order exports write them: the core ones, the games' own (deckcheck.fields: Game.fields, kept
as Card attributes or in Card.extra), rarity and text. `grid_inferred` is deckcheck's addition."""
EXTRA = frozenset(f.name for f in FIELDS if f.in_extra)
FOLLOWERS = tuple(f for f in FIELDS if f.follows)  # fields that qualify another's value (Field.follows)
# The order a card's row (card_to_row, the API's JSON) has always listed its columns in: the card sheet's, but the
# games' own values kept in Card.extra after the others, and the columns a card's type writes (Field.show) last.
ROW_ORDER = tuple(f.name for f in sorted(FIELDS, key=lambda f: (f.show is not None, f.in_extra)))
# The core columns card_from_row reads itself (a name, an id, a title and a version derive from one another); every
# other column is read by its field.
_READ_HERE = frozenset({"game", "id", "name", "title", "version", "edition", "set", "type"})

_UNKNOWN_WORDS = UNKNOWN_WORDS


@lru_cache(maxsize=1)
def _games() -> tuple[tuple[str, ...], dict[str, str]]:
    """The names of the games (deckcheck.games) and every game's card types by folded name."""
    games = registry().games
    types = {normalize(t): t for t in sorted(set().union(*(g.card_types for g in games)))}
    return tuple(g.name for g in games), types


@lru_cache(maxsize=1)
def _types_by_game() -> dict[str, dict[str, str]]:
    """Each game's card types by folded name (a game that declares none takes any type)."""
    return {g.name: {normalize(t): t for t in sorted(g.card_types)} for g in registry().games}


def one_of_these(text: str, values: Iterable[str], what: str) -> str:
    """The message of a cell that is none of `values`: the closest of them suggested, else all of them (a sheet's
    column of one typo asks once: the suggestions cost more than reading a row)."""
    return _one_of_these(text, tuple(values), what)


@lru_cache(maxsize=4096)
def _one_of_these(text: str, values: tuple[str, ...], what: str) -> str:
    words = set(normalize(text).split())
    within = [v for v in values if normalize(v) in words]  # "Basic Attack": its word Attack
    close = list(dict.fromkeys(within + closest_names(text, list(values), 3)))[:3]
    if close:
        return f"not {what}: did you mean {' or '.join(close)}?"
    return f"not {what}; one of {', '.join(values)}"
_VERSION_SUFFIX = re.compile(r"\s*\((?:version\s*)?(\d+)\)\s*$", re.IGNORECASE)


def header_map(header: Iterable[object]) -> tuple[dict[int, str], list[str]]:
    """Map column positions to known column names (case-insensitive; the provenance columns too);
    return the unknown headers too."""
    known, unknown = {}, []
    header = list(header)
    counted = any(column_of(name) == "quantity" for name in header)  # a decklist or a collection: no card sheet
    for i, name in enumerate(header):
        key = str(name or "").strip().lower().replace(" ", "_")
        if key in COLUMNS or key in prov.SOURCE_COLUMNS:
            known[i] = key
        elif not counted and column_of(name, card_sheet=True) in COLUMNS:  # `Card Name`, `Karte`, `カード名`
            known[i] = str(column_of(name, card_sheet=True))
        elif key:
            unknown.append(str(name))
    return known, unknown


def duplicate_columns(columns: Mapping[int, str]) -> list[str]:
    """Known columns that a header names more than once (a sheet must say which cell counts)."""
    return sorted(c for c, n in Counter(columns.values()).items() if n > 1)


def derive_title(name: str, *prefixes: str | None) -> tuple[str, str | None]:
    """The title and version marker read off a name, given what a card's name may start with or end in brackets
    (its game's identity fields: a Highlander card's Immortal and Weapon)."""
    title = name.strip()
    version = None
    m = _VERSION_SUFFIX.search(title)
    if m:
        version, title = m.group(1), title[:m.start()].strip()
    for prefix in prefixes:
        if not prefix:
            continue
        if normalize(title).startswith(normalize(prefix) + " "):
            title = title[len(prefix):].strip()
        suffix = f"({prefix})"
        if title.lower().endswith(suffix.lower()):
            title = title[:-len(suffix)].strip()
    return title or name.strip(), version


def derive_id(game: str, set_code: str | None, name: str) -> str:
    """A stable printing id for a row that gives none: set + name (+ the game, but for the default game)."""
    parts = ([game] if game != DEFAULT_GAME else []) + ([set_code] if set_code else []) + [slug(name)]
    return "-".join(p.replace(" ", "-") for p in parts)


class _Row:
    """One sheet row being parsed; problems are collected rather than raised."""

    def __init__(self, values: Mapping[str, object], row: int, problems: list[RowProblem]):
        self.values = values
        self.row = row
        self.problems = problems

    def text(self, column: str) -> str:
        value = self.values.get(column)
        if value is None:
            return ""
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return cell_text(str(value))

    def bad(self, column: str, message: str) -> None:
        self.problems.append(RowProblem(self.row, column, self.values.get(column), message))

    def integer(self, column: str, empty: int | None, unknown_ok: bool = True) -> int | None:
        text = self.text(column)
        if not text:
            return empty
        if text.lower() in _UNKNOWN_WORDS and unknown_ok:
            return None
        if unknown_ok and is_none_word(text):  # no number printed
            return 0
        try:
            number = parse_whole(text)
        except DeckcheckError as exc:
            self.bad(column, str(exc))
            return empty
        if number < 0:
            self.bad(column, "must not be negative")
        return number

    def field(self, f: Field, card_type: str | None) -> Any:
        """The value of a field's cell: its blank value when the cell is blank or bad (then a problem is said)."""
        text = self.text(f.name)
        if not text:
            return f.blank_value(card_type)
        try:
            return f.read(text)
        except DeckcheckError as exc:
            self.bad(f.name, str(exc))
            return f.blank_value(card_type)


def card_from_row(values: Mapping[str, object], row: int = 0, problems: list[RowProblem] | None = None) -> Card | None:
    """Build a Card from one sheet row (column name -> cell). Bad cells go to `problems`; None if unusable."""
    own: list[RowProblem] = []
    errors = {column: value for column, value in values.items() if isinstance(value, CellError)}
    if errors:  # an error cell or a formula with no value: a bad cell, never a card named '#N/A' (CONTRACTS §4)
        own += [RowProblem(row, column, cell, cell.message) for column, cell in errors.items()]
        values = {column: value for column, value in values.items() if column not in errors}
    r = _Row(values, row, own)
    name = r.text("name")
    if not name and "name" not in errors:
        r.bad("name", "a card needs a name")
    game = r.text("game").lower() or DEFAULT_GAME
    games, known_types = _games()
    game_known = game in games
    if not game_known:
        r.bad("game", f"unknown game; known: {', '.join(games)}")
        game = DEFAULT_GAME
    type_text = r.text("type")
    card_type = None
    if type_text and type_text.lower() not in _UNKNOWN_WORDS:
        card_type = known_types.get(normalize(type_text), type_text)
        own_types = _types_by_game().get(game)
        if game_known and own_types and normalize(type_text) not in own_types:  # else the deck is blamed later
            title = registry().game_named(game).title
            r.bad("type", one_of_these(type_text, own_types.values(), f"a card type of {title}"))
    edition = r.integer("edition", 1, unknown_ok=False)
    if edition not in (1, 2, 3):
        r.bad("edition", "edition is 1, 2 or 3")
        edition = 1
    stated: dict[str, Any] = {}
    extra = []
    for f in FIELDS:  # every game's fields, on any row (a sheet says what it says)
        if f.name in _READ_HERE:
            continue
        value = r.field(f, card_type)
        if not f.in_extra:
            stated[f.attribute] = value
        elif r.text(f.name):
            extra.append((f.name, value))
    title, derived_version = derive_title(name, *(stated[f.attribute] for f in FIELDS if f.place == NAMES_THE_CARD))
    title = r.text("title") or title
    version = r.text("version") or derived_version
    set_code = r.text("set") or None
    card = Card(id=r.text("id") or derive_id(game, set_code, name), name=name, title=title, game=game,
                version=version, edition=edition, set=set_code, type=card_type, extra=tuple(extra), **stated)
    if problems is not None:
        problems.extend(own)
    return None if own else card


BY_NAME = {f.name: f for f in FIELDS}


def attribute(column: str) -> str:
    """The Card attribute a sheet column sets."""
    f = BY_NAME.get(column)
    return column if f is None else f.attribute


def value_of(card: Card, column: str) -> object:
    """The value of a card a sheet column states (a game's own column: from Card.extra)."""
    f = BY_NAME.get(column)
    return getattr(card, column) if f is None else f.value(card)


@dataclass(frozen=True)
class SheetCard:
    """One card-sheet row: the card it describes (blank cells at the contract's defaults), the fields
    it states (a filled cell, or a filled provenance cell: then the blank value is the stated one),
    and the provenance its provenance columns give."""

    card: Card
    row: int = 0
    fields: frozenset[str] = frozenset(prov.FIELDS)
    sources: Mapping[str, prov.Provenance] = field(default_factory=dict)
    id_stated: bool = True  # False: the row left `id` blank, so its id was derived from set + name

    def merged(self, stored: Card | None) -> Card:
        """The card after this row updates the stored one: only the fields it states change."""
        if stored is None:
            return self.card
        values = {attribute(f): getattr(self.card, attribute(f)) for f in self.fields if f not in EXTRA}
        extra = {f: self.card.extra_value(f) for f in self.fields if f in EXTRA}
        if extra:
            values["extra"] = tuple((dict(stored.extra) | extra).items())
        for f in FOLLOWERS:  # a grid the row states is read off the card, unless the row says inferred
            if f.follows in self.fields:
                values[f.attribute] = getattr(self.card, f.attribute)
        values["name"] = self.card.name
        return replace(stored, **values)  # a new card computes its own rules key


def _blank(value: object) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def sheet_card_from_row(values: Mapping[str, object], row: int = 0,
                        problems: list[RowProblem] | None = None) -> SheetCard | None:
    """A SheetCard from one row (column -> cell); bad cells go to `problems`; None if unusable."""
    own: list[RowProblem] = []
    card = card_from_row(values, row, own)
    sources = {}
    for f in prov.FIELDS:
        cell = values.get(prov.column(f))
        if _blank(cell) or cell.__class__ is CellError:  # card_from_row has named an error cell
            continue
        try:
            sources[f] = prov.parse(str(cell))
        except DeckcheckError as exc:
            own.append(RowProblem(row, prov.column(f), cell, str(exc)))
    if problems is not None:
        problems.extend(own)
    if card is None or own:
        return None
    stated = {f for f in prov.FIELDS if not _blank(values.get(f))} | set(sources)
    stated |= {f.name for f in FOLLOWERS if not _blank(values.get(f.name))}
    return SheetCard(card, row, frozenset(stated), sources, id_stated=not _blank(values.get("id")))


def sheet_cards_from_rows(rows: Iterable[tuple[int, Mapping[str, object]]], source: str, skip_bad: bool = False,
                          consequence: str = "nothing was imported") -> tuple[list[SheetCard], list[RowProblem]]:
    """Parse numbered rows; raise CardSheetError listing every bad row unless skip_bad (then return them)."""
    found: list[SheetCard] = []
    problems: list[RowProblem] = []
    seen: dict[str, int] = {}
    for number, values in rows:
        before = len(problems)
        item = sheet_card_from_row(values, number, problems)
        if item is not None and item.card.id in seen:
            problems.append(RowProblem(number, "id", item.card.id,
                                       f"the same id is already on row {seen[item.card.id]}"))
            item = None
        if item is not None and len(problems) == before:
            seen[item.card.id] = number
            found.append(item)
    if problems and not skip_bad:
        raise CardSheetError(source, problems, consequence)
    return found, problems


def cards_from_rows(rows: Iterable[tuple[int, Mapping[str, object]]], source: str,
                    skip_bad: bool = False) -> tuple[list[Card], list[RowProblem]]:
    """Parse numbered rows into whole Cards (blank cells at their defaults); raise CardSheetError listing
    every bad row unless skip_bad (then return them)."""
    found, problems = sheet_cards_from_rows(rows, source, skip_bad)
    return [item.card for item in found], problems


def provenance_to_row(sources: Mapping[str, prov.Provenance]) -> dict[str, str]:
    """The provenance columns of a card (empty where a value has none recorded)."""
    return {prov.column(f): str(sources[f]) if f in sources else "" for f in prov.FIELDS}


def card_to_row(card: Card) -> dict[str, str]:
    """The sheet row of a card: every column of COLUMNS as text (in ROW_ORDER); unknown values as 'unknown'."""
    return {f.name: f.cell(card) for f in _ROW_FIELDS}


_ROW_FIELDS = tuple(f for name in ROW_ORDER for f in FIELDS if f.name == name)
_ROW_FIELD = {f.name: f for f in _ROW_FIELDS}


def card_cell(card: Card, column: str) -> str:
    """One column of the card's sheet row (card_to_row(card)[column]), without writing the whole row."""
    return _ROW_FIELD[column].cell(card)


# What makes a card that card, beyond its name: its edition, title, version and its game's identity fields.
IDENTITY = ("edition", "title") + tuple(f.name for f in FIELDS if f.place == NAMES_THE_CARD) + ("version",)


def match_by_name(items: Iterable[SheetCard], stored: Iterable[Card], where: str, sets: Iterable[CardSet] = ()
                  ) -> list[SheetCard]:
    """Rows that left `id` blank, matched to the stored card of exactly their name (and set, by code or name,
    when the row gives one): such a row updates every printing of that one card, keeping its stored name
    and set as written there.

    A row is matched only where nothing it states says it is another card (its edition, title, Immortal,
    Weapon or version); then, or when no stored card has its name, it adds a card, as a row with an id
    does. Refused, as bad rows (CardSheetError, nothing changed): a name that is different stored cards
    (the row needs an id or a set); a set in which the named card has no printing, on a row that does not
    give the type a new card needs; two rows that come to name the same card.
    `sets`: the known sets (catalog.CardSet), so a set may be written by its name.
    """
    cards = list(stored)
    by_id = {c.id: c for c in cards}
    known_sets = list(sets)
    indexes: dict[str, CardIndex] = {}
    problems: list[RowProblem] = []
    out: list[SheetCard] = []
    matched_rows: dict[str, int] = {}
    for item in items:
        if item.id_stated:
            out.append(item)
            continue
        same = by_id.get(item.card.id)
        if same is not None:  # the derived id is stored: the row is about it, under its stored name
            out.append(replace(item, card=replace(item.card, name=same.name, set=same.set)))
            continue
        game = item.card.game
        if game not in indexes:
            indexes[game] = CardIndex([c for c in cards if c.game == game], sets=known_sets)
        index = indexes[game]
        key = normalize(item.card.name)
        named = [c for c in index.matches(item.card.name) if normalize(c.name) == key]
        code = None
        if "set" in item.fields and item.card.set:
            try:
                code = index.set_code(item.card.set)
            except CardNotFoundError:
                code = item.card.set  # a set deckcheck does not know: a new printing
            in_set = [c for c in named if c.set == code]
            if named and not in_set and "type" not in item.fields:
                printed = ", ".join(sorted({c.set or "?" for c in named}))
                problems.append(RowProblem(item.row, "set", item.card.set, f"{item.card.name!r} has no printing in "
                                           f"this set (it is printed in {printed}); give the row an id, or the type "
                                           "a new printing needs"))
                continue
            named = in_set
        conflicts = [f for f in IDENTITY if f in item.fields and named
                     and any(_identity(c, f) != _identity(item.card, f) for c in named)]
        if not named or conflicts:
            out.append(item)  # a card the database does not hold: the row adds it
            continue
        if not same_card(named):
            ids = sorted(c.id for c in named)
            problems.append(RowProblem(item.row, "name", item.card.name, "names more than one stored card ("
                                       f"{', '.join(ids[:8])}{', ...' if len(ids) > 8 else ''}); give the row "
                                       "an id (or a set)"))
            continue
        for c in named:
            matched_rows.setdefault(c.id, item.row)
            out.append(replace(item, card=replace(item.card, id=c.id, name=c.name, set=c.set)))
    seen: dict[str, SheetCard] = {}
    for item in out:
        first = seen.setdefault(item.card.id, item)
        if first is not item and (item.card.id in matched_rows):
            problems.append(RowProblem(item.row, "name", item.card.name, f"names the card {item.card.id} that row "
                                       f"{first.row} already names; give one row per card"))
    if problems:
        raise CardSheetError(where, problems, "nothing was changed")
    return out


def _identity(card: Card, field_name: str) -> object:
    value = value_of(card, field_name)
    return normalize(value) if isinstance(value, str) else value


@lru_cache(maxsize=1)
def unknowable() -> tuple[str, ...]:
    """The rules fields a card may hold as unknown (Field.unknowable), for the filters "known" and "unknown"."""
    return tuple(f.name for f in registry().fields if f.unknowable)


def is_unknown(card: Card, column: str) -> bool:
    """Whether a rules field of the card is unknown, on a card its filter counts (Field.filtered: a grid only on
    Attacks, Blocks and Dodges)."""
    f = BY_NAME.get(column)
    if f is not None and f.filtered is not None and not f.filtered(card):
        return False
    return value_of(card, column) is None


def card_json(card: Card) -> dict[str, str]:
    """A card as the row of the card sheet (§1 columns; unknown values are "unknown")."""
    row = card_to_row(card)
    for column in unknowable():
        if is_unknown(card, column):
            row[column] = UNKNOWN
    return row
