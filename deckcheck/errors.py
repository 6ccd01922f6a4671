"""Typed exceptions for bad input: one base class so the CLI can catch them in one place."""
from __future__ import annotations

from typing import Any


class DeckcheckError(ValueError):
    """Base class of every input error deckcheck raises (exit code 2 in the CLI)."""


class InputFileError(DeckcheckError):
    """A file (or a text) that cannot be read at all: missing, a folder, not permitted, past a limit, not text."""

    def __init__(self, source: str, message: str):
        self.source = source
        self.message = message
        self.line = None
        super().__init__(f"{source}: {message}")


class UnknownFormatError(DeckcheckError):
    """A format name that no registered format answers to."""

    def __init__(self, name: str, known: list[str]):
        self.name = name
        self.known = known
        super().__init__(f"unknown format {name!r}; known formats: {', '.join(known)}")


class CardSheetError(DeckcheckError):
    """A card sheet that cannot be read: every bad cell, with row, column and value."""

    def __init__(self, source: str, problems: list["RowProblem"], consequence: str = "nothing was imported"):
        self.source = source
        self.problems = problems
        self.consequence = consequence
        lines = [f"{source}: {len(problems)} bad row(s); {consequence}"]
        lines += [f"  {p}" for p in problems[:50]]
        if len(problems) > 50:
            lines.append(f"  ... and {len(problems) - 50} more")
        super().__init__("\n".join(lines))


def clipped(value: object, limit: int = 80) -> str:
    """A value quoted for a message (repr), a long one cut with its length said: a 5,000-digit cell is named,
    not printed whole."""
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(str(value)):,} characters)"


class RowProblem:
    """One bad cell of a sheet: row number (1 = header), column, value and what is wrong."""

    __slots__ = ("row", "column", "value", "message", "suggestions")

    def __init__(self, row: int, column: str, value: object, message: str, suggestions: list[str] | None = None):
        self.row = row
        self.column = column
        self.value = value
        self.message = message
        self.suggestions = suggestions or []

    def as_dict(self) -> dict[str, Any]:
        """The problem as a JSON object."""
        return {"row": self.row, "column": self.column, "value": self.value,
                "message": self.message, "suggestions": list(self.suggestions)}

    def __str__(self) -> str:
        text = f"row {self.row}, column {self.column!r}, value {clipped(self.value)}: {self.message}"
        if self.suggestions:
            text += f" (did you mean: {', '.join(self.suggestions)}?)"
        return text

    def __repr__(self) -> str:
        return f"RowProblem({self})"


class DecklistError(DeckcheckError):
    """A decklist file that cannot be read at all (not a single bad line: those are input errors)."""

    def __init__(self, source: str, message: str, line: int | None = None, text: str | None = None):
        self.source = source
        self.line = line
        self.text = text
        where = f"{source}, line {line}" if line else source
        quoted = f": {text!r}" if text is not None else ""
        super().__init__(f"{where}: {message}{quoted}")


class CardNotFoundError(DeckcheckError):
    """A card name that does not name exactly one card: UnknownCardError or AmbiguousCardError.

    `text` is the name as written, `reason` what is wrong without the name ("unknown card"),
    `suggestions` the closest names (unknown) or how to write each card it could be (ambiguous).
    """

    kind = "unknown-card"  # InputProblem.kind of a decklist line that fails this way

    def __init__(self, text: str, reason: str, suggestions: list[str] | None = None):
        self.text = text
        self.reason = reason
        self.suggestions = suggestions or []
        hint = f"; did you mean: {', '.join(self.suggestions)}?" if self.suggestions else ""
        super().__init__(f"{text!r}: {reason}{hint}")


class UnknownCardError(CardNotFoundError):
    """A name that matches no card (or no printing in the set named); suggestions are the closest names."""


class AmbiguousCardError(CardNotFoundError):
    """A name that matches several cards that differ in rules data; suggestions say how to write each."""

    kind = "ambiguous-card"


class DatabaseError(DeckcheckError):
    """A database URL that cannot be used, or a database in a state deckcheck cannot work with."""
