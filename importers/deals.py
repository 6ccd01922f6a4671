"""The opening deal of the 52-card game read from text or a sheet."""
from __future__ import annotations

from pathlib import Path

from deckcheck.cells import cell_problem
from deckcheck.errors import DeckcheckError
from deckcheck.games.taktik import Hand, parse_deal_text, parse_hands

from . import limits
from .tables import read_tables


def read_deal(path: Path | str) -> list[Hand]:
    """Hands from 'Player: card, card, card' lines, or a CSV/XLSX: player + three card columns, or player, card rows.

    DeckcheckError naming the file when it cannot be read (see importers.limits) or holds no hand.
    """
    path = Path(path)
    source = str(path)
    if path.suffix.lower() not in (".csv", ".tsv", ".xlsx"):
        try:
            text = limits.read_text(path, "deal files")
        except limits.InputFileError as exc:
            raise DeckcheckError(str(exc)) from None
        try:
            hands = parse_deal_text(text)
        except DeckcheckError as exc:
            raise DeckcheckError(f"{source}: {exc}") from None
        return _some(hands, source)
    if path.is_dir():
        raise DeckcheckError(f"{source}: is a folder; name the file of dealt cards")
    tables = read_tables(path, unique_headers=False)
    if not tables or not tables[0].header:
        raise DeckcheckError(f"{source}: the sheet is empty; it needs a 'player' column and the cards dealt")
    table = tables[0]
    header = [h.lower() for h in table.header]
    if "player" not in header:
        raise DeckcheckError(f"{source}: no 'player' column")
    p = header.index("player")
    others = [i for i in range(len(header)) if i != p and header[i]]
    rows: dict[str, tuple[int, list[str]]] = {}
    for number, row in table.numbered():
        bad = cell_problem(row[i] for i in [p, *others] if i < len(row))
        if bad is not None:  # never a player or a card named '#N/A'
            raise DeckcheckError(f"{source}: row {number} holds {bad[1].message}")
        player = str(row[p]).strip() if p < len(row) else ""
        if not player:
            continue
        line, cards = rows.setdefault(player, (number, []))
        cards += [str(row[i]).strip() for i in others if i < len(row) and str(row[i]).strip()]
    try:
        hands = parse_hands([(line, player, cards) for player, (line, cards) in rows.items()])
    except DeckcheckError as exc:
        raise DeckcheckError(f"{source}: {exc}") from None
    return _some(hands, source)


def _some(hands: list[Hand], source: str) -> list[Hand]:
    if not hands:
        raise DeckcheckError(f"{source}: no player's cards found; write one line per player, "
                             "'Player: card, card, card'")
    return hands
