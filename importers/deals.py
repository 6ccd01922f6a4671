"""The opening deal of the 52-card game read from text or a sheet."""
from __future__ import annotations

from pathlib import Path

from deckcheck.errors import DeckcheckError
from deckcheck.games.taktik import Hand, parse_deal_text, parse_hands

from .tables import read_tables


def read_deal(path: Path | str) -> list[Hand]:
    """Hands from 'Player: card, card, card' lines, or a CSV/XLSX: player + three card columns, or player, card rows."""
    path = Path(path)
    if not path.exists():
        raise DeckcheckError(f"{str(path)!r}: no such file")
    if path.suffix.lower() not in (".csv", ".tsv", ".xlsx"):
        return parse_deal_text(path.read_text(encoding="utf-8-sig"))
    table = read_tables(path)[0]
    header = [h.lower() for h in table.header]
    if "player" not in header:
        raise DeckcheckError(f"{str(path)!r}: no 'player' column")
    p = header.index("player")
    others = [i for i in range(len(header)) if i != p and header[i]]
    rows: dict[str, tuple[int, list[str]]] = {}
    for number, row in table.numbered():
        player = str(row[p]).strip() if p < len(row) else ""
        if not player:
            continue
        line, cards = rows.setdefault(player, (number, []))
        cards += [str(row[i]).strip() for i in others if i < len(row) and str(row[i]).strip()]
    return parse_hands([(line, player, cards) for player, (line, cards) in rows.items()])
