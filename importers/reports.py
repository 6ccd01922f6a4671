"""Tournament reports written for people: XLSX (Summary, Issues, Input errors), CSV (the summary), JSON."""
from __future__ import annotations

import json
from pathlib import Path
from typing import IO

from deckcheck.tournament import DECKCHECK_COLUMNS, INPUT_ERROR_COLUMNS, ISSUE_COLUMNS, Tournament

from .writers import SheetSpec, check_target, write_csv, write_csv_to, write_text, write_xlsx

STYLE = {"legal": "good", "NOT LEGAL": "bad", "unreadable": "warn"}
REPORT_SUFFIXES = (".xlsx", ".csv", ".tsv", ".json")


def check_report_target(path: Path | str) -> str:
    """The kind of report a path names; OutputError (before any deck is checked) when it cannot be written."""
    return check_target(path, REPORT_SUFFIXES)


def write_tournament_report(path: Path | str, tournament: Tournament) -> str:
    """Write the report in the format its extension names (.xlsx, .csv, .json); return that format."""
    path = Path(path)
    kind = check_report_target(path)
    summary = tournament.summary_rows()
    columns = tournament.summary_columns
    if kind == "xlsx":
        verdict = columns.index("legal")
        styles = [STYLE[str(row[verdict])] for row in summary]
        issues = tournament.issue_rows()
        issue_styles = ["bad" if row[3] == "error" else "warn" for row in issues]
        checks = tournament.deckcheck_rows()
        write_xlsx(path, [SheetSpec("Summary", columns, summary, styles, long_text="mark"),
                          SheetSpec("Issues", ISSUE_COLUMNS, issues, issue_styles, widths={4: 70, 5: 50, 8: 40},
                                    long_text="mark"),
                          SheetSpec("Input errors", INPUT_ERROR_COLUMNS, tournament.input_error_rows(),
                                    widths={4: 60, 5: 50}, long_text="mark")]
                   # the desk's deck checks, once there are any
                   + [SheetSpec("Deck checks", DECKCHECK_COLUMNS, checks,
                                ["good" if row[4] == "yes" else "bad" for row in checks],
                                widths={5: 60, 6: 40}, long_text="mark")] * bool(checks))
        return "xlsx"
    if kind == "json":
        write_text(path, json.dumps(tournament.as_dicts(), ensure_ascii=False, indent=1) + "\n")
        return "json"
    write_csv(path, columns, summary)
    return kind


def write_summary_csv(stream: IO[str], tournament: Tournament) -> None:
    """The summary (one row per deck, as in the .csv report) to an open stream: `--out -`."""
    write_csv_to(stream, tournament.summary_columns, tournament.summary_rows())
