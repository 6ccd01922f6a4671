"""Entry point of the `deckcheck` command.

`deckcheck check` and `deckcheck tournament check` are the commands run most (once per deck from
scripts; before every round), so they have a fast path: their options are parsed here with
argparse and typer is not imported. typer 0.29 builds its parameters through pydantic, which alone
costs more than checking a deck. Every other command, and --help or a usage error, goes through
the typer app in deckcheck.commands, which defines the same options (a test runs both paths on the
same arguments and compares the results).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Sequence

from .errors import DeckcheckError

FAST_PATH_OFF = "DECKCHECK_NO_FAST_PATH"


_LINE_BREAKS = {0x85: "\\u0085", 0x2028: "\\u2028", 0x2029: "\\u2029"}


def json_line(obj: object) -> str:
    """One JSON line that every reader splits where it ends (str.splitlines() also breaks at U+0085,
    U+2028 and U+2029: those are escaped), and that can be written as UTF-8 (a file name's undecodable
    bytes are escaped too)."""
    line = json.dumps(obj, ensure_ascii=False)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        line = json.dumps(obj)
    return line.translate(_LINE_BREAKS) + "\n"


def run_check(decks: Sequence[str], fmt: str | None, as_json: bool, cards: Sequence, db: str | None,
              quiet: bool = False) -> int:
    """Check decklists and print their reports; return the exit code (the worst of the decks).

    In a terminal each report is a panel; to a pipe or a file it is plain text, never cut to a
    terminal's width; with quiet, one line per deck and, after several, a summary line.
    """
    from .api import Catalog, check_files
    from .formats import get_format
    from .plain import quiet_line, report_text, summary_line, todo_hint
    from .report import worst_exit_code
    if fmt:
        get_format(fmt)
    catalog = Catalog(db, cards)
    for notice in catalog.notices:
        from .render import clean
        sys.stderr.write(f"notice: {clean(notice)}\n")
    reports = []
    out = None
    plain = quiet or not (sys.stdout.isatty() or os.environ.get("FORCE_TERMINAL"))
    for report in check_files(decks, catalog, fmt, details=not (as_json or plain)):
        reports.append(report)
        if as_json:
            sys.stdout.write(json_line(report.as_dict()))
        elif quiet:
            sys.stdout.write(quiet_line(report) + "\n")
        elif plain:
            sys.stdout.write(report_text(report) + "\n")
        else:
            from .render import console, report_panel
            out = out or console()
            out.print(report_panel(report))
    if not reports:
        raise DeckcheckError("no decklist found in " + ", ".join(map(str, decks)))
    if quiet and len(reports) > 1:
        sys.stdout.write(summary_line(reports) + "\n")
    hint = None if as_json else todo_hint(reports)
    if hint:
        sys.stderr.write(hint + "\n")
    return worst_exit_code(reports)


def run_tournament(inputs: Sequence[str], fmt: str | None, out: str | None, as_json: bool, cards: Sequence,
                   db: str | None) -> int:
    """Check every deck of a tournament, print the summary (or JSON lines), write the report.

    `--out -` writes the summary as CSV to standard output instead of the table.
    """
    from .api import check_tournament
    from .render import console
    if out == "-":
        if as_json:
            raise DeckcheckError("--out - and --json both write to standard output: give one of them")
    elif out is not None:  # a report that cannot be written is refused before any deck is checked
        from .importers.reports import check_report_target
        check_report_target(out)
    err = console(stderr=True)
    tournament = check_tournament(inputs, fmt, cards, db, progress_console=None if as_json else err)
    if out == "-":
        from .importers.reports import write_summary_csv
        write_summary_csv(sys.stdout, tournament)
        return tournament.exit_code
    if as_json:
        for item in tournament.as_dicts():
            sys.stdout.write(json_line(item))
    else:
        from .render import tournament_table
        console().print(tournament_table(tournament))
    if out is not None:
        from .importers.reports import write_tournament_report
        kind = write_tournament_report(out, tournament)
        err.print(f"wrote the {kind} report to {out}", soft_wrap=True, markup=False)
    return tournament.exit_code


def _parser(prog: str, positional: str, with_out: bool) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, add_help=False)
    parser.add_argument(positional, nargs="+")
    parser.add_argument("--format", "-f", dest="fmt")
    parser.add_argument("--json", dest="as_json", action="store_true")
    if not with_out:
        parser.add_argument("--quiet", "-q", action="store_true")
    parser.add_argument("--cards", action="append", default=[])
    parser.add_argument("--db", default=os.environ.get("DECKCHECK_DB") or None)
    if with_out:
        parser.add_argument("--out", "-o")
    parser.error = _no_exit  # type: ignore[method-assign]  # let typer report bad arguments, with its usage text
    return parser


def fast_path(argv: Sequence[str]) -> int | None:
    """Run check or tournament check without typer when the arguments are plain; else None."""
    if os.environ.get(FAST_PATH_OFF):
        return None
    if list(argv) in (["--version"], ["-V"]):
        sys.stdout.write(version_line() + "\n")
        return 0
    if argv[:1] == ["check"]:
        rest, options = argv[1:], _CHECK_OPTIONS | {"--quiet", "-q"}
    elif argv[:2] == ["tournament", "check"]:
        rest, options = argv[2:], _CHECK_OPTIONS | {"--out", "-o"}
    else:
        return None
    if not all(a == "-" or not a.startswith("-") or a.split("=", 1)[0] in options for a in rest):
        return None
    try:
        if argv[0] == "check":
            args = _parser("deckcheck check", "decks", False).parse_args(rest)
            return run_check(args.decks, args.fmt, args.as_json, args.cards, args.db, args.quiet)
        args = _parser("deckcheck tournament check", "inputs", True).parse_args(rest)
    except _BadArguments:
        return None
    return run_tournament(args.inputs, args.fmt, args.out, args.as_json, args.cards, args.db)


_CHECK_OPTIONS = {"--format", "-f", "--json", "--cards", "--db"}


def version_line() -> str:
    """`deckcheck 0.1.0` (the installed distribution's version)."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return f"deckcheck {version('deckcheck')}"
    except PackageNotFoundError:
        return "deckcheck (not installed)"


class _BadArguments(Exception):
    pass


def _no_exit(message: str):
    raise _BadArguments(message)


def show_notices() -> None:
    """The library's one-time notices (INFO on the "deckcheck" logger: where a new database was created)
    as `deckcheck: ...` lines on stderr; once, however often main() runs in one process."""
    import logging
    logger = logging.getLogger("deckcheck")
    if not any(getattr(h, "deckcheck_cli", False) for h in logger.handlers):
        handler = logging.StreamHandler()  # sys.stderr as it is when a line is written
        handler.setFormatter(logging.Formatter("deckcheck: %(message)s"))
        handler.deckcheck_cli = True  # type: ignore[attr-defined]
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)


def main(argv: Sequence[str] | None = None) -> None:
    """Run deckcheck; every DeckcheckError becomes a clean message and exit code 2."""
    argv = list(sys.argv[1:] if argv is None else argv)
    show_notices()
    try:
        code = fast_path(argv)
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
    except BrokenPipeError:  # the reader went away (| head): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        sys.exit(130)


if __name__ == "__main__":
    main()
