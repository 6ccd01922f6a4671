"""Check reports as plain text: for a pipe or a file (never cut to a terminal's width) and for `check -q`.

No rich here: plain output needs no terminal, and starts faster. Control characters from the input
(a decklist line holding ESC) are shown escaped, never sent to the terminal.
"""
from __future__ import annotations

import unicodedata
from typing import Sequence

from ..problems import joined
from ..report import Issue, Report, is_data_unknown
from ..unverified import decided_issues, unverified, verdict_text

VERDICTS = {True: "LEGAL", False: "NOT LEGAL", None: "UNREADABLE"}


def plural(n: int, word: str, words: str | None = None) -> str:
    """'1 deck', '2 decks'."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


def safe(text: str) -> str:
    """Text with control characters (ESC, ...) escaped, so input cannot drive the terminal; Unicode spaces (the
    ideographic space of a Japanese list, a no-break space) are shown as they are: none drives a terminal."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() or ch in "\t" or unicodedata.category(ch) == "Zs" else ascii(ch)[1:-1]
                   for ch in text)


def tsv_cell(text: str) -> str:
    """A cell of a tab-separated line: its tabs and line breaks written as escapes (\\t, \\n), so it stays one cell."""
    return safe(text).replace("\t", "\\t").replace("\n", "\\n")


def tsv_lines(title: str, header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """A table for a pipe or a file: `# title`, the heading, then one tab-separated line a row."""
    return [f"# {tsv_cell(title)}"] + ["\t".join(tsv_cell(c) for c in row) for row in (header, *rows)]


def short_message(issue: Issue) -> str:
    """An issue's message; for a data-unknown warning without the list of cards (JSON keeps it): one line per rule."""
    if issue.cards and is_data_unknown(issue.rule):
        listed = ": " + ", ".join(issue.cards)
        if issue.message.endswith(listed):
            return issue.message[: -len(listed)]
    return issue.message


def quiet_line(report: Report) -> str:
    """`PATH: LEGAL|NOT LEGAL|UNREADABLE — N errors, M warnings` (input errors count as errors when unreadable)."""
    errors = len(report.input_errors) if report.legal is None else len(report.errors)
    what = "input error" if report.legal is None else "error"
    return (f"{safe(report.deck)}: {verdict_text(VERDICTS[report.legal], report)} — {plural(errors, what)}, "
            f"{plural(len(decided_issues(report, 'warning')), 'warning')}")


def summary_line(reports: Sequence[Report]) -> str:
    """`8 decks: 5 legal, 2 not legal, 1 unreadable`."""
    legal = sum(r.legal is True for r in reports)
    illegal = sum(r.legal is False for r in reports)
    unreadable = sum(r.legal is None for r in reports)
    return f"{plural(len(reports), 'deck')}: {legal} legal, {illegal} not legal, {unreadable} unreadable"


def todo_hint(reports: Sequence[Report]) -> str | None:
    """The line that points to `deckcheck cards todo` when some rule waited on unknown card data."""
    undecided = [r for r in reports if any(is_data_unknown(i.rule) for i in r.issues)]
    if not undecided:
        return None
    decks = " ".join(_quoted(r.deck) for r in undecided[:3]) + (" ..." if len(undecided) > 3 else "")
    return (f"some rules are unverified for want of card data: deckcheck cards todo {decks} --out todo.csv "
            "writes the cards and columns to fill in")


def _quoted(path: str) -> str:
    """A path as a shell word for a hint: bare, quoted, or (with control characters) $'...' with each of them
    escaped, so that the hint still runs as shown and a path cannot drive the terminal."""
    if path and all(c.isalnum() or c in "/._-" for c in path):
        return path
    if path.isprintable():
        return "'" + path.replace("'", "'\\''") + "'"
    return "$'" + "".join(c if c.isprintable() and c not in "'\\" else
                          ("\\" + c if c in "'\\" else f"\\x{ord(c):02x}" if ord(c) < 256 else
                           f"\\u{ord(c):04x}" if ord(c) < 0x10000 else f"\\U{ord(c):08x}") for c in path) + "'"


def suggestion_hint(message: str, suggestions: tuple[str, ...] | list[str], *, newline: bool = False) -> str:
    """What follows an input error's message: its suggestions, named as the message asks for them (an ambiguous
    line's `write one of them: A, B`, which read `write one of them (write one of: A, B)`), else `did you mean`."""
    if not suggestions:
        return ""
    if message.endswith("write one of them"):
        return f": {joined(suggestions)}"
    return f"\ndid you mean: {joined(suggestions)}" if newline else f" (did you mean: {joined(suggestions)})"


def report_text(report: Report) -> str:
    """A whole report as lines of plain text: verdict, counts, input errors, issues with their fix, notices."""
    verdict = verdict_text(VERDICTS[report.legal], report) if report.legal is not None else "NOT CHECKED"
    head = [f"{safe(report.deck)}: {verdict}", report.format]
    if report.player and report.player not in report.deck:
        head.insert(1, f"player {safe(report.player)}")
    if report.persona:
        head.append(f"Persona: {safe(report.persona)}")
    if report.counts:
        head.append(", ".join(f"{k} {v}" for k, v in report.counts.items()))
    lines = ["  ".join(head)]
    for e in report.input_errors:
        where = f"line {e.line}" if e.line is not None else "input"
        hint = suggestion_hint(e.message, e.suggestions)
        cause = e.cause() if e.text == report.deck else None  # the whole file: named once, in the head line
        if cause is not None:
            lines.append(f"  unreadable: {safe(cause)}{hint}")
            continue
        text = safe(e.text)
        colon = "" if text.endswith(":") else ":"  # `Rocks:` reads `Rocks: unknown heading`, not `Rocks::`
        lines.append(f"  {where}: {text}{colon} {safe(e.message)}{hint}")
    for issue in decided_issues(report):  # a rule card data kept from deciding: once, as its unverified line
        numbers = f" (limit {issue.limit}, actual {issue.actual})" if issue.limit is not None else ""
        fix = f" — {issue.fix}" if issue.fix else ""
        lines.append(f"  {issue.severity} {issue.rule}: {safe(short_message(issue))}{numbers}{fix}")
    for g in unverified(report):  # after errors and warnings: in words, the first 10 cards, what settles it
        lines.append(f"  unverified {g.rule}: {g.words}: {safe(g.cards_text())} — settled by {g.settle}")
    lines += [f"  notice: {safe(n)}" for n in report.notices]
    return "\n".join(lines)
