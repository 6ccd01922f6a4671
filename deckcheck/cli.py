"""Entry point of the `deckcheck` command.

`deckcheck check` is the command run most, often once per deck from scripts, so it has a fast
path: its options are parsed here with argparse and typer is not imported. typer 0.29 builds its
parameters through pydantic, which alone costs more than checking a deck. Every other command,
and `check --help`, goes through the typer app in deckcheck.commands, which defines the same
options (a test runs both paths on the same arguments and compares the results).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Sequence

from .errors import DeckcheckError

FAST_PATH_OFF = "DECKCHECK_NO_FAST_PATH"


def run_check(decks: Sequence[str], fmt: str | None, as_json: bool, cards: Sequence, db: str | None) -> int:
    """Check decklists and print their reports; return the exit code (the worst of the decks)."""
    from .api import Catalog, check_files
    from .formats import get_format
    from .report import worst_exit_code
    if fmt:
        get_format(fmt)
    catalog = Catalog(db, cards)
    reports = []
    out = None
    for report in check_files(decks, catalog, fmt, details=not as_json):
        reports.append(report)
        if as_json:
            sys.stdout.write(json.dumps(report.as_dict(), ensure_ascii=False) + "\n")
        else:
            from .render import console, report_panel
            out = out or console()
            out.print(report_panel(report))
    if not reports:
        raise DeckcheckError("no decklist found in " + ", ".join(map(str, decks)))
    return worst_exit_code(reports)


def _check_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="deckcheck check", add_help=False)
    parser.add_argument("decks", nargs="+")
    parser.add_argument("--format", "-f", dest="fmt")
    parser.add_argument("--json", dest="as_json", action="store_true")
    parser.add_argument("--cards", action="append", default=[])
    parser.add_argument("--db", default=os.environ.get("DECKCHECK_DB") or None)
    return parser


def fast_check(argv: Sequence[str]) -> int | None:
    """Run `check` without typer when the arguments are plain; None when typer should handle them."""
    if os.environ.get(FAST_PATH_OFF) or not all(_is_plain(a) for a in argv):
        return None
    parser = _check_parser()
    parser.error = _no_exit  # let typer report bad arguments, with its usage text
    try:
        args = parser.parse_args(argv)
    except _BadArguments:
        return None
    return run_check(args.decks, args.fmt, args.as_json, args.cards, args.db)


_FAST_OPTIONS = {"--format", "-f", "--json", "--cards", "--db"}


def _is_plain(arg: str) -> bool:
    """An argument the fast path understands: a file, '-', or one of check's own options."""
    return arg == "-" or not arg.startswith("-") or arg.split("=", 1)[0] in _FAST_OPTIONS


class _BadArguments(Exception):
    pass


def _no_exit(message: str):
    raise _BadArguments(message)


def main(argv: Sequence[str] | None = None) -> None:
    """Run deckcheck; every DeckcheckError becomes a clean message and exit code 2."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv[:1] == ["check"]:
            code = fast_check(argv[1:])
            if code is not None:
                sys.exit(code)
        from .commands import app
        app(args=argv, prog_name="deckcheck")
    except DeckcheckError as exc:
        from .render import console
        err = console(stderr=True)
        err.print("[bold red]error:[/] ", end="")
        err.print(str(exc), markup=False, soft_wrap=True)
        sys.exit(2)


if __name__ == "__main__":
    main()
