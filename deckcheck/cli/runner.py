"""The bodies of `deckcheck check` and `deckcheck tournament check`, shared by both entry points.

The argparse fast path (deckcheck.cli.entry) and the typer commands (deckcheck.cli.commands) both call these, so the
two paths cannot drift and commands never calls back into entry. Like entry, this module imports neither typer
nor rich at load time: a check that prints JSON or plain text never loads them.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Sequence

from ..errors import DeckcheckError
from ..games import get_format
from ..library.api import Catalog, check_files, check_tournament
from ..report import worst_exit_code
from .plain import quiet_line, report_text, summary_line, todo_hint

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


def run_check(decks: Sequence[str], fmt: str | None, as_json: bool, cards: Sequence[str | Path], db: str | None,
              quiet: bool = False) -> int:
    """Check decklists and print their reports; return the exit code (the worst of the decks).

    In a terminal each report is a panel; to a pipe or a file it is plain text, never cut to a
    terminal's width; with quiet, one line per deck and, after several, a summary line.
    """
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


def run_tournament(inputs: Sequence[str], fmt: str | None, out: str | None, as_json: bool, cards: Sequence[str | Path],
                   db: str | None) -> int:
    """Check every deck of a tournament, print the summary (or JSON lines), write the report.

    `--out -` writes the summary as CSV to standard output instead of the table.
    """
    from .render import console
    if out == "-":
        if as_json:
            raise DeckcheckError("--out - and --json both write to standard output: give one of them")
    elif out is not None:  # a report that cannot be written is refused before any deck is checked
        from ..importers.reports import check_report_target
        check_report_target(out)
    err = console(stderr=True)
    if as_json or not err.is_terminal:
        tournament = check_tournament(inputs, fmt, cards, db)
    else:  # a progress bar on the terminal: the CLI's, drawn from the library's progress calls
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
        with Progress(TextColumn("checking decklists"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                      console=err, transient=True) as bar:
            task = bar.add_task("check", total=None)
            tournament = check_tournament(inputs, fmt, cards, db,
                                          progress=lambda done, total: bar.update(task, completed=done, total=total))
    if out == "-":
        from ..importers.reports import write_summary_csv
        write_summary_csv(sys.stdout, tournament)
        return tournament.exit_code
    if as_json:
        for item in tournament.as_dicts():
            sys.stdout.write(json_line(item))
    else:
        from .render import tournament_table
        screen = console()
        table, totals = tournament_table(tournament)
        screen.print(table)
        screen.print(totals, soft_wrap=True)
    if out is not None:
        from ..importers.reports import write_tournament_report
        kind = write_tournament_report(out, tournament)
        err.print(f"wrote the {kind} report to {out}", soft_wrap=True, markup=False)
    return tournament.exit_code
