"""The header words of every sheet deckcheck reads (decklists, registrations, collections, card sheets), in the
languages its players write: one table, so a sheet headed `Anzahl;Karte;Edition` reads wherever a sheet is read.

Words are compared folded (deckcheck.text.normalize: case, accents, punctuation and `_` ignored).
"""
from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from .text import normalize

WORDS: Mapping[str, tuple[str, ...]] = {
    "quantity": ("quantity", "qty", "count", "amount", "copies", "anzahl", "menge", "stuck",
                 "stück", "stückzahl", "quantité", "qté", "nombre", "exemplaires", "枚数", "数量", "個数", "数"),
    "card": ("card", "card name", "cardname", "name", "karte", "kartenname", "karten", "carte", "nom",
             "nom de la carte", "nom de carte", "カード名", "カード", "名前", "カード名称"),
    "set": ("set", "set name", "set code", "edition", "expansion", "erweiterung", "édition", "extension",
            "série", "セット", "セット名", "エキスパンション", "収録"),
    "section": ("section", "abschnitt", "bereich", "teil", "rubrique", "partie", "セクション", "区分", "デッキ区分"),
    "player": ("player", "spieler", "spielerin", "joueur", "joueuse", "プレイヤー", "選手", "プレイヤー名"),
    "format": ("format", "フォーマット"),
    "condition": ("condition", "zustand", "état", "状態", "コンディション"),
    "language": ("language", "sprache", "langue", "言語"),
    "foil": ("foil", "printing", "フォイル"),
    "location": ("location", "ort", "lagerort", "emplacement", "場所", "保管場所"),
    "notes": ("notes", "note", "notizen", "bemerkung", "bemerkungen", "remarques", "remarque", "メモ", "備考"),
    "trade_quantity": ("trade quantity", "tradelist count", "trade", "zum tauschen", "à échanger", "交換用"),
    "want_quantity": ("want quantity", "wishlist count", "want", "gesucht", "recherché", "欲しい"),
    "price": ("price", "my price", "preis", "prix", "価格", "値段"),
}
"""Each column's header words (English first, then German, French, Japanese), as a sheet may write them."""

_CARD_SHEET = {"card": "name"}  # a card sheet names its card column `name`, and its `edition` is a number
_CARD_SHEET_NOT = frozenset(normalize(w) for w in ("edition", "édition"))

_FOLDED = {normalize(word): column for column, words in WORDS.items() for word in words}
_CARD_FOLDED = {word: _CARD_SHEET.get(column, column) for word, column in _FOLDED.items()
                if column in ("card", "set") and word not in _CARD_SHEET_NOT}


def column_of(header: object, card_sheet: bool = False) -> str | None:
    """The column a header cell names (`Anzahl` -> quantity, `Card Name` -> card), or None for a word not in the
    table. In a card sheet (`card_sheet`), the card words name its `name` column and `Edition` stays its own."""
    key = normalize(str(header or ""))
    if card_sheet:
        return _CARD_FOLDED.get(key)
    return _FOLDED.get(key)


def columns_of(header: Sequence[object], wanted: Iterable[str] | None = None) -> dict[str, int]:
    """Where each known column stands in a header row (the first cell naming it counts); only `wanted` columns
    when given."""
    keep = None if wanted is None else frozenset(wanted)
    out: dict[str, int] = {}
    for i, cell in enumerate(header):
        column = column_of(cell)
        if column is not None and (keep is None or column in keep):
            out.setdefault(column, i)
    return out


def unknown_headers(header: Sequence[object], known: Mapping[str, int]) -> list[str]:
    """The header cells of no known column, as written (for a message that quotes what the sheet has)."""
    used = set(known.values())
    return [str(h).strip() for i, h in enumerate(header) if i not in used and str(h or "").strip()]


SHOWN = {"card": ("card", "card name", "name", "karte", "carte", "カード名"),
         "quantity": ("quantity", "qty", "count", "anzahl", "quantité", "枚数"),
         "set": ("set", "set name", "edition", "édition", "セット")}
"""Words a message shows for a column a sheet lacks: English, German, French, Japanese."""


def missing_message(header: Sequence[object], needed: Sequence[str]) -> str:
    """`the sheet's headers are 'Foo', 'Bar'; none names the card (card, card name, ...)`: what a header lacks,
    each column with words that name it, and the header cells the sheet has, quoted."""
    found = columns_of(header)
    lacks = " or ".join(f"the {c} ({', '.join(SHOWN.get(c, WORDS[c][:4]))})" for c in needed if c not in found)
    has = ", ".join(repr(str(h).strip()) for h in header if str(h or "").strip())
    return f"the sheet's headers are {has}; none names {lacks}" if has else f"no header row names {lacks}"


def numeric_unknown(header: Sequence[object], known: Mapping[str, int],
                    rows: Iterable[Sequence[object]], sample: int = 20) -> str | None:
    """The first header of no known column whose cells, in the first `sample` rows that fill it, are all whole
    numbers (`Stk`, `Exemplare`): where a sheet keeps its quantities under a word we do not know. None if none."""
    candidates = {i: str(h).strip() for i, h in enumerate(header)
                  if i not in set(known.values()) and str(h or "").strip()}
    if not candidates:
        return None
    seen: dict[int, int] = dict.fromkeys(candidates, 0)
    numeric = dict.fromkeys(candidates, True)
    for n, row in enumerate(rows):
        if n >= sample:
            break
        for i in candidates:
            cell = row[i] if i < len(row) else ""
            text = str(cell).strip() if cell is not None else ""
            if not text:
                continue
            seen[i] += 1
            if not _whole_number(cell):
                numeric[i] = False
    return next((candidates[i] for i in candidates if numeric[i] and seen[i]), None)


def _whole_number(cell: object) -> bool:
    if isinstance(cell, bool):
        return False
    if isinstance(cell, int):
        return True
    if isinstance(cell, float):
        return cell.is_integer()
    text = fold_digits(str(cell).strip())
    return text.isascii() and text.isdigit()


_FULL_WIDTH_DIGITS = str.maketrans({chr(0xFF10 + i): str(i) for i in range(10)})


def fold_digits(text: str) -> str:
    """A cell's full-width digits (`４`, as a Japanese keyboard types them) as ASCII ones; other text as it is."""
    return text if text.isascii() else text.translate(_FULL_WIDTH_DIGITS)
