"""The options of `deckcheck check` and `deckcheck tournament check`, declared once.

Both commands have two front ends: the argparse fast path of deckcheck.cli.entry (no typer import: checking a deck
costs less than importing typer) and the typer commands of deckcheck.cli.commands (help, usage errors, every
other command). Each builds its options from these tables, so the two cannot drift apart; both print
`version_line()` for --version.
"""
from __future__ import annotations

import argparse
import os
from dataclasses import dataclass
from typing import Mapping, NoReturn


@dataclass(frozen=True)
class Option:
    """One option: its flags, help text, kind (`text`: one value; `flag`: on or off; `many`: repeatable) and the
    environment variable that gives its default."""

    flags: tuple[str, ...]
    help: str
    kind: str = "text"
    env: str | None = None


DB = Option(("--db",), "Database URL (sqlite:///file.db, postgresql+psycopg://...) or a SQLite file path; default "
            "$DECKCHECK_DB or the user data directory.", env="DECKCHECK_DB")
CARDS = Option(("--cards",), "A card sheet (CSV/XLSX) that adds or overrides cards for this run only. Repeatable.",
               "many")

CHECK: Mapping[str, Option] = {
    "format": Option(("--format", "-f"), "Format name or alias; default: the deck's Format: line, else type1e."),
    "as_json": Option(("--json",), "Print the JSON report (one object per line).", "flag"),
    "quiet": Option(("--quiet", "-q"), "One line per deck (PATH: LEGAL|NOT LEGAL|UNREADABLE — N errors, M "
                    "warnings), then a summary line.", "flag"),
    "cards": CARDS,
    "db": DB,
}
TOURNAMENT_CHECK: Mapping[str, Option] = {
    "format": Option(("--format", "-f"), "Format for every deck (default: each deck's Format: line, else type1e)."),
    "out": Option(("--out", "-o"), "Write the report: .xlsx (Summary, Issues, Input errors), .csv (summary) or "
                  ".json; - : the summary CSV on standard output."),
    "as_json": Option(("--json",), "Print one JSON object per deck per line instead of the table.", "flag"),
    "cards": CARDS,
    "db": DB,
}


def flags(options: Mapping[str, Option]) -> frozenset[str]:
    """Every flag of these options."""
    return frozenset(f for option in options.values() for f in option.flags)


def argparse_parser(prog: str, positional: str, options: Mapping[str, Option]) -> argparse.ArgumentParser:
    """A parser of the options (each stored under its table name), without help and without exiting: an error
    raises BadArguments, so that typer reports it with its usage text."""
    parser = argparse.ArgumentParser(prog=prog, add_help=False)
    parser.add_argument(positional, nargs="+")
    for name, option in options.items():
        if option.kind == "flag":
            parser.add_argument(*option.flags, dest=name, action="store_true")
        elif option.kind == "many":
            parser.add_argument(*option.flags, dest=name, action="append", default=[])
        else:
            parser.add_argument(*option.flags, dest=name,
                                default=(os.environ.get(option.env) or None) if option.env else None)
    parser.error = _no_exit  # type: ignore[method-assign]
    return parser


class BadArguments(Exception):
    """Arguments the fast path leaves to typer (which says what is wrong, with its usage text)."""


def _no_exit(message: str) -> NoReturn:
    raise BadArguments(message)


def version_line() -> str:
    """`deckcheck 0.1.0` (the installed distribution's version)."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return f"deckcheck {version('deckcheck')}"
    except PackageNotFoundError:
        return "deckcheck (not installed)"
