"""A spreadsheet cell that holds no value, as sheet readers hand it to the core."""
from __future__ import annotations


class CellError(str):
    """An error cell (`#DIV/0!`, `#N/A`) or a formula with no cached value (CONTRACTS.md §4: a bad row).

    It is a str (what the sheet shows, e.g. '#DIV/0!' or '=SUM(B2:B4)') so that code reading text
    never mistakes it for a number or an empty cell; readers that know it say why the row is bad.
    """

    message: str

    def __new__(cls, text: str, message: str) -> "CellError":
        self = super().__new__(cls, text)
        self.message = message
        return self


def cell_problem(cells) -> tuple[int, "CellError"] | None:
    """The first cell of a row (index, cell) that is a CellError, or None."""
    for i, value in enumerate(cells):
        if value.__class__ is CellError:
            return i, value
    return None
