"""The 3x3 target grid as a 9-bit mask: rows U, M, L; columns L, C, R."""
from __future__ import annotations

from typing import Iterable

from .errors import DeckcheckError, clipped

SQUARES = ("UL", "UC", "UR", "ML", "MC", "MR", "LL", "LC", "LR")
BIT = {name: 1 << i for i, name in enumerate(SQUARES)}
ALL = (1 << 9) - 1
UPPER_AND_LOWER = BIT["UL"] | BIT["UC"] | BIT["UR"] | BIT["LL"] | BIT["LC"] | BIT["LR"]
SQUARE_NAMES = {
    "UL": "Upper Left", "UC": "Upper Center", "UR": "Upper Right",
    "ML": "Middle Left", "MC": "Thrust (Middle Center)", "MR": "Middle Right",
    "LL": "Lower Left", "LC": "Lower Center", "LR": "Lower Right",
}


def parse_grid(text: str) -> int:
    """Parse 'UL UC MC' (spaces or commas) into a mask; raise DeckcheckError on an unknown square."""
    mask = 0
    for token in text.replace(",", " ").split():
        square = token.strip().upper()
        if square not in BIT:
            raise DeckcheckError(f"unknown grid square {clipped(token)} in {clipped(text)}; squares are "
                                 f"{' '.join(SQUARES)}")
        mask |= BIT[square]
    return mask


def mask_of(squares: Iterable[str]) -> int:
    """The mask of square codes ('UL', 'MC', ...)."""
    mask = 0
    for square in squares:
        mask |= BIT[square]
    return mask


def format_grid(mask: int) -> str:
    """The squares of a mask in reading order, space-separated."""
    return " ".join(name for name in SQUARES if mask & BIT[name])


def squares_of(mask: int) -> list[str]:
    """The square names set in a mask, in reading order."""
    return [name for name in SQUARES if mask & BIT[name]]


def picture(mask: int, on: str = "■", off: str = "·") -> list[str]:
    """Three text rows drawing the mask, upper row first."""
    rows = []
    for r in range(3):
        rows.append(" ".join(on if mask & (1 << (3 * r + c)) else off for c in range(3)))
    return rows
