"""The limits of decklist text, wherever it comes from: a file, standard input, a library call, a web form.

A file's bytes are decoded by importers.limits; text handed over as a string (deckcheck.check_text,
deck_stats, deck_diff, a decklist pasted into the web app) skips that step, so both call
`checked_text`, and a text past a limit is refused with the same InputFileError and the same words
wherever it came from. Why each number is what it is (docs/limits.md):

- TEXT_MAX_BYTES: a decklist is about 2 KB and a registration sheet of 500 players about 1.5 MB;
  4 MiB leaves room for both and for a benchmark file of 100,000 lines, and bounds what one text
  costs (its lines as Python objects, a few hundred MB at most).
- LINE_MAX_CHARS: the longest card name is under 100 characters; a line of 4,096 holds any card
  with set, quantity and attachment many times over. The limit bounds the work per line.
"""
from __future__ import annotations

from . import limits
from .decklist import RawDeck
from .games import parse_text
from .errors import DecklistError, InputFileError
from .limits import size_text

TEXT_MAX_BYTES = limits.TEXT_BYTES.value  # the numbers: deckcheck.limits
LINE_MAX_CHARS = limits.LINE_CHARS.value


def too_big(what: str, limit: int, size: int | None = None) -> str:
    """The message for a file past its size limit."""
    actual = f" ({size_text(size)})" if size else ""
    return f"larger than {size_text(limit)}{actual}, the limit for {what}"


def check_line_lengths(text: str, source: str, max_line: int = LINE_MAX_CHARS) -> None:
    """InputFileError naming the first line longer than the limit."""
    if len(text) <= max_line:
        return
    lines = text.splitlines()  # not empty: the text is longer than a line may be
    if max(map(len, lines)) <= max_line:
        return
    number = next(i for i, line in enumerate(lines, start=1) if len(line) > max_line)
    raise InputFileError(source, f"line {number} is longer than {max_line:,} characters, the limit for a line")


def check_characters(text: str, source: str) -> None:
    """InputFileError for a text holding NUL characters, which no text file has (a decoded file can hold them)."""
    if "\x00" in text:
        raise InputFileError(source, "not a text file (it holds NUL bytes; UTF-16 without a byte-order mark?)")


def lone_surrogate(exc: UnicodeEncodeError) -> str:
    """What is wrong with a text that cannot be encoded: 'holds \\ud800, a lone surrogate, which is not text'."""
    bad = exc.object[exc.start:exc.end].encode("unicode_escape").decode("ascii")
    return f"holds {bad}, a lone surrogate, which is not text"


def checked_text(text: str, source: str, what: str = "text decklists", limit: int = TEXT_MAX_BYTES,
                 max_line: int = LINE_MAX_CHARS) -> str:
    """A decklist given as a string, within the limits a decklist file is read under; InputFileError if not.

    Its size counts in UTF-8 bytes, as a file's would. A lone surrogate (which no decoded file holds,
    but a JSON string can) is refused rather than failing later when the text is printed or stored.
    """
    if len(text) > limit:  # every character is at least one byte: too big without encoding it
        raise InputFileError(source, too_big(what, limit))
    if not text.isascii():
        try:
            size = len(text.encode("utf-8"))  # a file's size counts bytes
        except UnicodeEncodeError as exc:
            raise InputFileError(source, lone_surrogate(exc)) from None
        if size > limit:  # worded as for standard input, which a text is like: its size is not told
            raise InputFileError(source, too_big(what, limit))
    check_characters(text, source)
    check_line_lengths(text, source, max_line)
    return text


def parse_checked(text: str, source: str = "-") -> RawDeck:
    """A text decklist given as a string, parsed (deckcheck.games.parse_text) once it is within the limits.

    Past a limit: DecklistError with the words `deckcheck check` gives for a file or standard input.
    """
    try:
        checked_text(text, source)
    except InputFileError as exc:
        raise DecklistError(exc.source, exc.message) from None
    return parse_text(text, source)
