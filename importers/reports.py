"""Tournament reports written for people: XLSX (Summary, Issues, Input errors), CSV (the summary), JSON."""
from __future__ import annotations

import json
from pathlib import Path

from deckcheck.tournament import INPUT_ERROR_COLUMNS, ISSUE_COLUMNS, SUMMARY_COLUMNS, Tournament

from .tables import SheetSpec, write_csv, write_text, write_xlsx

STYLE = {"legal": "good", "NOT LEGAL": "bad", "unreadable": "warn"}


def write_tournament_report(path: Path | str, tournament: Tournament) -> str:
    """Write the report in the format its extension names (.xlsx, .csv, .json); return that format."""
    path = Path(path)
    suffix = path.suffix.lower()
    summary = tournament.summary_rows()
    if suffix == ".xlsx":
        styles = [STYLE[str(row[6])] for row in summary]
        issues = tournament.issue_rows()
        issue_styles = ["bad" if row[3] == "error" else "warn" for row in issues]
        write_xlsx(path, [SheetSpec("Summary", SUMMARY_COLUMNS, summary, styles),
                          SheetSpec("Issues", ISSUE_COLUMNS, issues, issue_styles, widths={4: 70, 5: 50, 8: 40}),
                          SheetSpec("Input errors", INPUT_ERROR_COLUMNS, tournament.input_error_rows(),
                                    widths={4: 60, 5: 50})])
        return "xlsx"
    if suffix == ".csv":
        write_csv(path, SUMMARY_COLUMNS, summary)
        return "csv"
    if suffix == ".json":
        write_text(path, json.dumps(tournament.as_dicts(), ensure_ascii=False, indent=1) + "\n")
        return "json"
    from deckcheck.errors import DeckcheckError
    raise DeckcheckError(f"{str(path)!r}: a report is .xlsx, .csv or .json")
