"""Decklist files (CONTRACTS.md §2): text, CSV, XLSX and JSON, read into raw decklists."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from deckcheck.cells import CellError
from deckcheck.decklist import RawDeck, RawPlayer, RawProblem
from deckcheck.games import parse_text, registry
from deckcheck.headers import columns_of, fold_digits, missing_message, numeric_unknown
from deckcheck.errors import DecklistError
from deckcheck.formula import unguard as unquote  # the one formula guard of our exports
from deckcheck.textlimits import lone_surrogate

from . import limits
from .tables import Table, read_tables

if TYPE_CHECKING:
    from deckcheck.cards import Card


def read_decklists(path: str | Path) -> list[RawDeck]:
    """Every decklist a file holds: one for a text, JSON or plain sheet; one per player in a registration workbook.

    Files past the limits of importers.limits (size, line length, JSON depth, sheet extent) are refused
    with DecklistError before they are read whole.
    """
    source = str(path)
    try:
        if source == "-":
            return [parse_text(not_empty(limits.read_text("-"), "-"), "-")]
        path = Path(path)
        if path.is_dir():
            raise DecklistError(source, "is a folder; name the decklist files in it")
        if path.is_file() and path.stat().st_size == 0:  # any kind of file: nothing in it is no deck of no cards
            raise DecklistError(source, "the file is empty")
        return READERS.get(path.suffix.lower(), _read_text)(path)
    except limits.InputFileError as exc:
        raise DecklistError(exc.source, exc.message) from None


def _read_text(path: Path) -> list[RawDeck]:
    """A text decklist (CONTRACTS.md §2), the one deck of the file."""
    return [parse_text(not_empty(limits.read_text(path), str(path)), str(path))]


def not_empty(text: str, source: str) -> str:
    """The text of a decklist file; DecklistError when it holds nothing (no byte, or only spaces and blank lines):
    such a file is unreadable, not a deck of no cards."""
    if text.strip().lstrip("\ufeff").strip():
        return text
    where = "standard input" if source == "-" else "the file"
    raise DecklistError(source, f"{where} is empty" if not text else f"{where} holds only blank lines")


def _read_json_file(path: Path) -> list[RawDeck]:
    return [_read_json(path)]


JSON_KEYS = ("format", "sections", "player", "players", "name", "title", "author")
CARD_KEYS = ("card", "quantity", "set", "attach")


def _read_json(path: Path) -> RawDeck:
    """A JSON decklist (CONTRACTS.md §2); a value of the wrong shape is an input error, never ignored."""
    source = str(path)
    data = _load_json(path)
    deck = _JsonDeck(RawDeck(source))
    for key in ("format", "player"):
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            deck.problem({key: value}, f"{key!r} must be a text")
    deck.raw.declared_format = data["format"] if isinstance(data.get("format"), str) else None
    deck.raw.player = data["player"] if isinstance(data.get("player"), str) else None
    for section, items in data["sections"].items():
        _json_section(deck, section, items)
    players = data.get("players") or []
    if not isinstance(players, list):
        deck.problem({"players": players}, "'players' must be a list of {\"name\": ..., \"hero\": ...}")
        players = []
    for p in players:
        deck.number += 1
        if not isinstance(p, dict) or not isinstance(p.get("name"), str) or not isinstance(p.get("hero", ""), str):
            deck.problem(p, 'each player is {"name": "...", "hero": "..."}', counted=True)
            continue
        deck.raw.players.append(RawPlayer(deck.number, json.dumps(p, ensure_ascii=False), p["name"],
                                          p.get("hero", "")))
    return deck.raw


def _load_json(path: Path) -> dict[str, Any]:
    """The object a JSON decklist file holds, its bounds checked; DecklistError for any other file."""
    source = str(path)
    text = limits.decode_text(limits.read_bytes(path, limits.TEXT_MAX_BYTES, "JSON decklists"), source,
                              max_line=limits.TEXT_MAX_BYTES)
    depth = limits.json_depth(text)
    if depth > limits.JSON_MAX_DEPTH:
        raise DecklistError(source, f"JSON nested {depth:,} levels deep; a decklist needs 4 and the limit is "
                                    f"{limits.JSON_MAX_DEPTH}")
    try:
        data = json.loads(text, parse_int=_json_int, parse_constant=_json_constant)
    except json.JSONDecodeError as exc:
        raise DecklistError(source, f"not valid JSON: {exc.msg}", exc.lineno) from None
    except _TooLong as exc:
        raise DecklistError(source, str(exc)) from None
    except (ValueError, RecursionError) as exc:
        raise DecklistError(source, f"not valid JSON: {exc}") from None
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError as exc:
        raise DecklistError(source, lone_surrogate(exc)) from None
    if not isinstance(data, dict) or not isinstance(data.get("sections"), dict):
        raise DecklistError(source, 'a JSON decklist is {"format": ..., "sections": {"Endurance": [...]}}')
    return data


@dataclass(slots=True)
class _JsonDeck:
    """A JSON decklist being read: the raw deck and the number of the last item read (its `line`)."""

    raw: RawDeck
    number: int = 0

    def problem(self, item: object, message: str, counted: bool = False) -> None:
        """An item of the wrong shape, as an input error of its own number (counted: the number is taken)."""
        if not counted:
            self.number += 1
        text = item if isinstance(item, str) else json.dumps(item, ensure_ascii=False)
        self.raw.problems.append(RawProblem(self.number, text, message))


def _json_section(deck: _JsonDeck, section: str, items: object) -> None:
    """One section of a JSON decklist: its name checked, then each card of its list."""
    word = registry().grammar.section_word(section)
    if word is None:
        known = registry().grammar.known_sections(deck.raw.declared_format)
        deck.problem(section, f"unknown section {section!r}; sections are {known}")
    if not isinstance(items, list):
        deck.problem({section: items}, f"section {section!r} must hold a list of cards")
        return
    for item in items:
        deck.number += 1
        if isinstance(item, str):
            deck.raw.add(deck.number, item, word)
            continue
        wrong = _json_card_shape(item)
        if wrong is not None:
            deck.problem(item, wrong, counted=True)
            continue
        attach = item.get("attach")
        deck.raw.add(deck.number, item["card"] + (f" @ {attach}" if attach else ""), word, item.get("quantity", 1),
                     item.get("set") or None)


def _json_card_shape(item: object) -> str | None:
    """What is wrong with the shape of one card of a JSON decklist, or None when it is a card."""
    if not isinstance(item, dict) or not isinstance(item.get("card"), str):
        return 'each card is {"card": "name", "quantity": N} or "name"'
    unknown = [k for k in item if k not in CARD_KEYS]
    qty = item.get("quantity", 1)
    if unknown:
        return f"unknown key {unknown[0]!r}; a card has {', '.join(CARD_KEYS)}"
    if not isinstance(qty, int) or isinstance(qty, bool) or not 1 <= qty <= limits.QUANTITY_MAX:
        return f"the quantity must be a whole number from 1 to {limits.QUANTITY_MAX:,}"
    if not isinstance(item.get("set"), (str, type(None))) or not isinstance(item.get("attach"), (str, type(None))):
        return "'set' and 'attach' must be texts"
    return None


class _TooLong(ValueError):
    pass


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > 18:
        raise _TooLong(f"holds a number of {len(text):,} digits; quantities go up to {limits.QUANTITY_MAX:,}")
    return int(text)


def _json_constant(text: str) -> float:
    raise ValueError(f"{text} is not a number JSON allows")


_WHOLE = re.compile(r"[0-9]+")  # ASCII digits only: '³'.isdigit() is true, and int('٣') is 3


DECK_COLUMNS = ("card", "quantity", "set", "section", "player", "format")  # a decklist or registration sheet's


def _columns(table: Table) -> dict[str, int]:
    return columns_of(table.header, DECK_COLUMNS)  # the one table of header words (deckcheck.headers)


def is_decklist_table(table: Table) -> bool:
    """A sheet with a 'card' column."""
    cols = _columns(table)
    return "card" in cols


def _read_sheets(path: Path) -> list[RawDeck]:
    every = read_tables(path)
    tables = [t for t in every if is_decklist_table(t)]
    if not tables:
        shown = next((t.header for t in every if t.header), [])
        raise DecklistError(str(path), "no sheet with a 'card' column (columns: section, quantity, card, set, "
                                       f"player): {missing_message(shown, ('card',))}")
    decks: list[RawDeck] = []
    several = len(tables) > 1
    for table in tables:
        decks += decks_from_table(table, str(path), sheet_player=table.name if several else None)
    return decks


READERS: dict[str, Callable[[Path], list[RawDeck]]] = {
    ".txt": _read_text, ".dec": _read_text, ".deck": _read_text, ".json": _read_json_file,
    ".csv": _read_sheets, ".tsv": _read_sheets, ".xlsx": _read_sheets, ".xlsm": _read_sheets, ".ods": _read_sheets}
"""The decklist files deckcheck reads, by suffix (lower case), and the reader of each: `check FOLDER` checks
exactly these files, and a file named directly is read by its suffix's reader (as text when it has another)."""


def is_text_suffix(suffix: str) -> bool:
    """Whether a file with this suffix is read as a text decklist (not by a file reader)."""
    return READERS.get(suffix.lower(), _read_text) is _read_text


def _cell(row: Sequence[object], i: int | None) -> str:
    if i is None or i >= len(row) or row[i] is None:
        return ""
    value = unquote(row[i])
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def decks_from_table(table: Table, source: str, sheet_player: str | None = None) -> list[RawDeck]:
    """Decks of one sheet in long form: one per distinct `player` (or one deck when there is no such column)."""
    cols = _columns(table)
    card_i, qty_i = cols["card"], cols.get("quantity")
    section_i, set_i, player_i = cols.get("section"), cols.get("set"), cols.get("player")
    format_i = cols.get("format")
    decks: dict[str, RawDeck] = {}
    used = [i for i in (card_i, qty_i, section_i, set_i, player_i, format_i) if i is not None]
    stray = numeric_unknown(table.header, cols, iter(table.rows)) if qty_i is None else None
    if stray is not None:  # its numbers are the quantities, under a word we do not know: never 1 copy a row
        refused = RawDeck(f"{source}#{table.name}" if sheet_player else source, player=sheet_player)
        refused.problems.append(RawProblem(1, ", ".join(map(str, table.header)), f"no quantity column, and the "
                                           f"column {stray!r} holds numbers: name it 'quantity' (or qty, count, "
                                           "anzahl, quantité, 枚数) so that its numbers count"))
        return [refused]
    for number, row in table.numbered():
        name = _cell(row, card_i)
        player = _cell(row, player_i) if player_i is not None else (sheet_player or "")
        if not name and not _cell(row, qty_i):
            continue
        where = f"{source}#{table.name}" if sheet_player else source
        deck = decks.get(player)
        if deck is None:
            label = f"{where} [{player}]" if player and player_i is not None else where
            deck = decks[player] = RawDeck(label, player=player or None)
        text = f"{_cell(row, qty_i)} {name}".strip()
        bad = next((i for i in used if i < len(row) and row[i].__class__ is CellError), None)
        if bad is not None:
            deck.problems.append(RawProblem(number, text, f"column {table.header[bad]!r} holds "
                                                          f"{row[bad].message}"))  # type: ignore[attr-defined]
            continue
        fmt = _cell(row, format_i)
        if fmt and not deck.declared_format:
            deck.declared_format = fmt
        qty_text = fold_digits(_cell(row, qty_i))
        if qty_text and not _WHOLE.fullmatch(qty_text):
            deck.problems.append(RawProblem(number, text, f"quantity {qty_text!r} is not a whole number"))
            continue
        if qty_text and (len(qty_text) > 7 or int(qty_text) > limits.QUANTITY_MAX):
            deck.problems.append(RawProblem(number, text[:80], f"quantity {qty_text[:20]!r}"
                                                               f"{'...' if len(qty_text) > 20 else ''} is more than "
                                                               f"{limits.QUANTITY_MAX:,}"))
            continue
        section = _cell(row, section_i)
        word = registry().grammar.section_word(section) if section else None
        if section and word is None:
            deck.problems.append(RawProblem(number, text, f"unknown section {section!r}"))
            continue
        if word == "players":
            deck.players.append(RawPlayer(number, text, name.split(":")[0].strip(),
                                          name.partition(":")[2].strip()))
            continue
        deck.add(number, name, word, int(qty_text) if qty_text else 1, _cell(row, set_i) or None)
    return list(decks.values())


def write_decklist(path: str | Path, fmt: str, text: str, entries: Iterable[tuple[Card, str, int]]) -> None:
    """Write a deck as a decklist file: text, CSV (section, quantity, card, set) or JSON (CONTRACTS.md §2)."""
    from .writers import check_target, write_csv, write_text
    path = Path(path)
    suffix = "." + check_target(path, (".txt", ".dec", ".deck", ".csv", ".tsv", ".json"))
    if suffix in (".csv", ".tsv"):
        write_csv(path, ("section", "quantity", "card", "set"),
                  [[section, q, card.name, card.set or ""] for card, section, q in entries])
    elif suffix == ".json":
        sections: dict[str, list[dict[str, str | int]]] = {}
        for card, section, q in entries:
            item: dict[str, str | int] = {"card": card.name, "quantity": q}
            if card.set:
                item["set"] = card.set
            sections.setdefault(section, []).append(item)
        write_text(path, json.dumps({"format": fmt, "sections": sections}, indent=1, ensure_ascii=False) + "\n")
    else:
        write_text(path, text)
