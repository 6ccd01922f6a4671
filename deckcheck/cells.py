"""A spreadsheet cell that holds no value, as sheet readers hand it to the core; how a number that is not printed is
written (one way everywhere: sheets, forms and the API read `none`, `-` and `none printed` alike, and every page and
command prints `none`)."""
from __future__ import annotations

from typing import Iterable


class CellError(str):
    """An error cell (`#DIV/0!`, `#N/A`) or a formula with no cached value (CONTRACTS.md §4: a bad row).

    It is a str (what the sheet shows, e.g. '#DIV/0!' or '=SUM(B2:B4)') so that code reading text
    never mistakes it for a number or an empty cell; readers that know it say why the row is bad.
    `message` says what the cell holds, where it is (sheet and cell, once the sheet reader has
    placed it) and what to do: "an error cell (#N/A) in sheet 'cards', cell B3".
    """

    what: str
    hint: str
    where: str

    def __new__(cls, text: str, what: str, hint: str = "", where: str = "") -> "CellError":
        self = super().__new__(cls, text)
        self.what, self.hint, self.where = what, hint, where
        return self

    @property
    def message(self) -> str:
        """What the cell holds, where, and what to do about it."""
        return self.what + (f" in {self.where}" if self.where else "") + (f"; {self.hint}" if self.hint else "")

    def located(self, sheet: str, ref: str) -> "CellError":
        """The same cell, its message naming the sheet and the cell (e.g. 'B3')."""
        return CellError(str(self), self.what, self.hint, f"sheet {sheet!r}, cell {ref}")


def cell_problem(cells: Iterable[object]) -> tuple[int, "CellError"] | None:
    """The first cell of a row (index, cell) that is a CellError, or None."""
    for i, value in enumerate(cells):
        if value.__class__ is CellError:
            return i, value
    return None


NONE_WORDS = frozenset({"none", "-", "none printed"})  # no number printed (a Restriction number, Hand icons): 0
NONE = "none"


def is_none_word(text: str) -> bool:
    """Whether a cell says that no number is printed: `none`, `-` or `none printed` (any case and spacing)."""
    return " ".join(text.lower().split()) in NONE_WORDS


def restriction_text(value: int | None, unknown: str = "unknown") -> str:
    """A Restriction number as every page and command prints it: the number, `none` when none is printed."""
    if value is None:
        return unknown
    return NONE if value == 0 else str(value)
