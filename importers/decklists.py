"""Decklist files (CONTRACTS.md §2): text, CSV, XLSX and JSON, read into raw decklists."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Sequence

from deckcheck.decklist import RawDeck, RawProblem, parse_text, section_word
from deckcheck.errors import DecklistError

from .tables import Table, read_tables, unquote



def read_decklists(path: str | Path) -> list[RawDeck]:
    """Every decklist a file holds: one for a text, JSON or plain sheet; one per player in a registration workbook."""
    if str(path) == "-":
        return [parse_text(sys.stdin.read(), "-")]
    path = Path(path)
    if not path.exists():
        raise DecklistError(str(path), "no such file")
    if path.is_dir():
        raise DecklistError(str(path), "is a folder; name the decklist files in it")
    suffix = path.suffix.lower()
    if suffix == ".json":
        return [_read_json(path)]
    if suffix in (".csv", ".tsv", ".xlsx", ".xlsm", ".ods"):
        return _read_sheets(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DecklistError(str(path), f"not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    return [parse_text(text, str(path))]


def _read_json(path: Path) -> RawDeck:
    try:
        data = json.loads(path.read_text(encoding="utf-8-sig"))
    except json.JSONDecodeError as exc:
        raise DecklistError(str(path), f"not valid JSON: {exc.msg}", exc.lineno) from exc
    if not isinstance(data, dict) or not isinstance(data.get("sections"), dict):
        raise DecklistError(str(path), 'a JSON decklist is {"format": ..., "sections": {"Endurance": [...]}}')
    deck = RawDeck(str(path), declared_format=data.get("format"), player=data.get("player"))
    number = 0
    for section, items in data["sections"].items():
        if not isinstance(items, list):
            raise DecklistError(str(path), f"section {section!r} must hold a list of cards")
        word = section_word(section)
        for item in items:
            number += 1
            if isinstance(item, str):
                deck.add(number, item, word)
                continue
            if not isinstance(item, dict) or "card" not in item:
                deck.problems.append(RawProblem(number, json.dumps(item), 'each card is {"card": ..., "quantity": N}'))
                continue
            qty = item.get("quantity", 1)
            if not isinstance(qty, int) or isinstance(qty, bool):
                deck.problems.append(RawProblem(number, json.dumps(item), "the quantity must be a whole number"))
                continue
            text = str(item["card"])
            if item.get("attach"):
                text += f" @ {item['attach']}"
            deck.add(number, text, word, qty, item.get("set"))
    for p in data.get("players", []) or []:
        from deckcheck.decklist import RawPlayer
        number += 1
        deck.players.append(RawPlayer(number, json.dumps(p), str(p.get("name", "")), str(p.get("hero", ""))))
    return deck


def _columns(table: Table) -> dict[str, int]:
    return {str(h).strip().lower(): i for i, h in enumerate(table.header)}


def is_decklist_table(table: Table) -> bool:
    """A sheet with a 'card' column."""
    cols = _columns(table)
    return "card" in cols


def _read_sheets(path: Path) -> list[RawDeck]:
    tables = [t for t in read_tables(path) if is_decklist_table(t)]
    if not tables:
        raise DecklistError(str(path), "no sheet with a 'card' column (columns: section, quantity, card, set, "
                                       "player)")
    decks: list[RawDeck] = []
    several = len(tables) > 1
    for table in tables:
        decks += decks_from_table(table, str(path), sheet_player=table.name if several else None)
    return decks


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
    card_i, qty_i = cols["card"], cols.get("quantity", cols.get("qty"))
    section_i, set_i, player_i = cols.get("section"), cols.get("set"), cols.get("player")
    format_i = cols.get("format")
    decks: dict[str, RawDeck] = {}
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
        fmt = _cell(row, format_i)
        if fmt and not deck.declared_format:
            deck.declared_format = fmt
        text = f"{_cell(row, qty_i)} {name}".strip()
        qty_text = _cell(row, qty_i)
        if qty_text and not qty_text.isdigit():
            deck.problems.append(RawProblem(number, text, f"quantity {qty_text!r} is not a whole number"))
            continue
        section = _cell(row, section_i)
        word = section_word(section) if section else None
        if section and word is None:
            deck.problems.append(RawProblem(number, text, f"unknown section {section!r}"))
            continue
        if word == "players":
            from deckcheck.decklist import RawPlayer
            deck.players.append(RawPlayer(number, text, name.split(":")[0].strip(),
                                          name.partition(":")[2].strip()))
            continue
        deck.add(number, name, word, int(qty_text) if qty_text else 1, _cell(row, set_i) or None)
    return list(decks.values())


def write_decklist(path: str | Path, fmt: str, text: str, entries) -> None:
    """Write a deck as a decklist file: text, CSV (section, quantity, card, set) or JSON (CONTRACTS.md §2)."""
    from .tables import write_csv, write_text
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".csv":
        write_csv(path, ("section", "quantity", "card", "set"),
                  [[section, q, card.name, card.set or ""] for card, section, q in entries])
    elif suffix == ".json":
        sections: dict[str, list] = {}
        for card, section, q in entries:
            item = {"card": card.name, "quantity": q}
            if card.set:
                item["set"] = card.set
            sections.setdefault(section, []).append(item)
        write_text(path, json.dumps({"format": fmt, "sections": sections}, indent=1, ensure_ascii=False) + "\n")
    else:
        write_text(path, text)
