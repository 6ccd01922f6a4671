"""What made a deck, or one of its lines, uncheckable: an InputProblem and its kind (CONTRACTS.md §3 `problems`).

Below deckcheck.decks, which reports them as it reads a list, and deckcheck.report, which carries them (and names them
too, as it always has)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# InputProblem.kind: what made a deck (or one of its lines) uncheckable, for programs to branch on
BAD_LINE = "bad-line"              # the line does not read as a decklist line, or a heading is wrong
UNKNOWN_CARD = "unknown-card"      # no card has this name (suggestions: the closest names)
AMBIGUOUS_CARD = "ambiguous-card"  # several different cards have it (suggestions: how to write each)
WRONG_SECTION = "wrong-section"    # a section the format does not have
UNKNOWN_FORMAT = "unknown-format"  # the deck names a format that does not exist
UNREADABLE = "unreadable"          # the file could not be read at all
PROBLEM_KINDS = (BAD_LINE, UNKNOWN_CARD, AMBIGUOUS_CARD, WRONG_SECTION, UNKNOWN_FORMAT, UNREADABLE)


@dataclass(frozen=True, slots=True)
class InputProblem:
    """A line of the decklist that could not be read or resolved, and what kind of problem it is."""

    line: int | None
    text: str
    message: str
    suggestions: tuple[str, ...] = ()
    kind: str = BAD_LINE

    def as_dict(self) -> dict[str, Any]:
        """The JSON object of CONTRACTS.md §3."""
        return {"line": self.line, "text": self.text, "message": self.message, "suggestions": list(self.suggestions)}

    def cause(self) -> str | None:
        """For a file that could not be read at all, its message without the file's name (which the report already
        shows): `'deck.xlsx': not a readable workbook` -> `not a readable workbook`; None for any other problem."""
        for name in (self.text, repr(self.text)):
            if name and self.message.startswith(name + ": "):
                return self.message[len(name) + 2:]
            if name and self.line is not None and self.message.startswith(f"{name}, line {self.line}: "):
                return self.message[len(name) + 2:]
        return None


def joined(suggestions: tuple[str, ...] | list[str]) -> str:
    """Suggestions as one text for a terminal: comma-separated, or each in double quotes when one holds a comma or a
    semicolon (`"K♠, King of Spades", "K♠, 2 of Spades"`: a line of several Taktik cards; `Rapier Slice (UL, MC)`)."""
    if any("," in s or ";" in s for s in suggestions):
        return ", ".join(f'"{s}"' for s in suggestions)
    return ", ".join(suggestions)
