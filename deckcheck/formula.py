"""The one formula guard: text a spreadsheet would run as a formula is written with a leading apostrophe.

Writers guard every text cell they put in a CSV; readers take the apostrophe off again, so that
export -> import gives back the same text (a card text starting with '=' or a tab included).
"""
from __future__ import annotations

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # what spreadsheets (and CSV injection) treat as a formula


def guard(value: object) -> object:
    """The cell as written: text starting with = + - @ tab or carriage return gets an apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def is_guarded(text: str) -> bool:
    """Whether a cell is a guarded text of ours: an apostrophe before one of FORMULA_START."""
    return text[:1] == "'" and text[1:2] in FORMULA_START


def unguard(value: object) -> object:
    """The text a guarded cell stands for (the apostrophe taken off); anything else unchanged."""
    if isinstance(value, str) and is_guarded(value):
        return value[1:]
    return value


def cell_text(value: str) -> str:
    """A text cell as read: a guarded cell exactly as it was written, any other stripped of outer spaces."""
    return value[1:] if is_guarded(value) else value.strip()
