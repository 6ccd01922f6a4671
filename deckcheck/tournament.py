"""A tournament's decks checked together: the summary, issue and input-error rows of one report."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import PurePath
from typing import Any, Iterable

from .errors import DeckcheckError
from .formats import DEFAULT_FORMAT, Game
from .games import game_of, registry
from .records import Records
from .report import Report, worst_exit_code
from .unverified import decided_issues, unverified

# A summary row: who and which file, the columns of the deck's game (deckcheck.formats.Game.summary), the verdict,
# and how the deck came (the desk's; unverified, revision 3: how many rules card data kept undecided).
DECK_COLUMNS = ("player", "source", "format")
VERDICT_COLUMNS = ("legal", "errors", "warnings", "first error")
ARRIVAL_COLUMNS = ("submitted_at", "submissions", "fingerprint", "deck_check", "unverified")
DECKCHECK_COLUMNS = ("player", "judge", "at", "fingerprint", "matches", "differences", "note")
ISSUE_COLUMNS = ("player", "source", "rule", "severity", "message", "cards", "limit", "actual", "fix")
INPUT_ERROR_COLUMNS = ("player", "source", "line", "text", "message", "suggestions")


def player_of(report: Report) -> str:
    """The player a deck belongs to: the registration's player, the deck's Player: line, or the file name."""
    if report.player:
        return report.player
    return _file_stem(report.deck) if report.deck not in ("", "-") else report.deck


@lru_cache(maxsize=4096)
def _file_stem(deck: str) -> str:
    """The file name of a deck's source without its extension (PurePath's 20 µs, asked for by every row of a
    report: the summary, each issue, each input error)."""
    return PurePath(deck.split("#")[0]).stem


def verdict(report: Report) -> str:
    """legal, NOT LEGAL or unreadable."""
    return {True: "legal", False: "NOT LEGAL", None: "unreadable"}[report.legal]


def first_error(report: Report) -> str:
    """What an organiser reads first: the first input error of an unreadable deck ("line 4: unknown card:
    3 Uper Left Attack"), the first error of an illegal one ("HL-DECK-MIN: the Endurance holds 40 ..."); else ""."""
    if report.input_errors:
        e = report.input_errors[0]
        where = f"line {e.line}: " if e.line is not None else ""
        return f"{where}{e.message}: {e.text}"
    errors = report.errors
    return f"{errors[0].rule}: {errors[0].message}" if errors else ""


def game_of_report(report: Report) -> Game | None:
    """The game of a report's format (None: the format is unknown)."""
    try:
        return game_of(report.format)
    except (DeckcheckError, KeyError):
        return None


def summary_columns(games: Iterable[Game]) -> tuple[str, ...]:
    """The summary's columns for decks of these games: each game's own between the deck's and the verdict's."""
    return DECK_COLUMNS + tuple(dict.fromkeys(c for game in games for c in game.summary)) + VERDICT_COLUMNS \
        + ARRIVAL_COLUMNS


def __getattr__(name: str) -> Any:
    if name == "SUMMARY_COLUMNS":  # the summary's columns for decks of the default format's game
        return summary_columns([game_of(DEFAULT_FORMAT)])
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass
class Arrival:
    """How a deck came to the desk: when (ISO 8601 text with the event's offset; None for a file checked by
    the CLI), how many decks the player sent in all, and the deck checks made of it (their JSON objects)."""

    submitted_at: str | None = None
    submissions: int = 1
    deckchecks: list[dict[str, Any]] = field(default_factory=list)


def fingerprint_of(report: Report) -> str:
    """The fingerprint of the cleaned list a report was made from ("" for a file that could not be read)."""
    return report.registered.fingerprint if report.registered is not None else ""


def deckcheck_outcome(checks: list[dict[str, Any]]) -> str:
    """What the deck checks of a deck found, in one cell: "matches", or each difference named."""
    return " | ".join("matches" if c.get("matches") else "; ".join(c.get("lines") or ["differs"]) for c in checks)


@dataclass
class Tournament(Records):
    """Every deck's report, in input order. `records()` gives one row per deck (the summary sheet).

    `arrivals` (the desk's, parallel to `reports`): when each deck came and its deck checks."""

    reports: list[Report] = field(default_factory=list)
    arrivals: list[Arrival] = field(default_factory=list)

    @property
    def games(self) -> list[Game]:
        """The games of the decks (in the order games are known), the default format's when no deck has one."""
        found = {id(g) for g in map(game_of_report, self.reports) if g is not None}
        if not found:
            return [game_of(DEFAULT_FORMAT)]
        return [g for g in registry().games if id(g) in found]

    @property
    def summary_columns(self) -> tuple[str, ...]:
        """The columns of the summary: the deck's, those of the decks' games, the verdict's."""
        return summary_columns(self.games)

    @property
    def record_columns(self) -> tuple[str, ...]:
        return self.summary_columns

    def arrival(self, n: int) -> Arrival:
        """How the n-th deck came (a file checked by the CLI: no time, one submission, no check)."""
        return self.arrivals[n] if n < len(self.arrivals) else Arrival()

    def records(self) -> list[dict[str, Any]]:
        """One row per deck, keyed by summary_columns (the Summary sheet of `tournament check --out`)."""
        columns = self.summary_columns
        return [dict(zip(columns, row, strict=True)) for row in self.summary_rows()]

    @property
    def exit_code(self) -> int:
        """0 all legal, 1 some illegal, 2 some unreadable."""
        return worst_exit_code(self.reports)

    def totals(self) -> dict[str, int]:
        """How many decks, and how many of each verdict."""
        return {"decks": len(self.reports), "legal": sum(r.legal is True for r in self.reports),
                "not legal": sum(r.legal is False for r in self.reports),
                "unreadable": sum(r.legal is None for r in self.reports)}

    def summary_rows(self) -> list[list[object]]:
        """One row per deck, in summary_columns order."""
        own = self.summary_columns[len(DECK_COLUMNS):-len(VERDICT_COLUMNS + ARRIVAL_COLUMNS)]
        rows: list[list[object]] = []
        for n, r in enumerate(self.reports):
            a = self.arrival(n)
            game = game_of_report(r)
            values = game.summary_row(r) if game is not None else {}
            rows.append([player_of(r), r.deck, r.format, *(values.get(c, "") for c in own), verdict(r),
                         len(r.errors), len(r.warnings), first_error(r), a.submitted_at or "", a.submissions,
                         fingerprint_of(r), deckcheck_outcome(a.deckchecks), len(r.unverified)])
        return rows

    def deckcheck_rows(self) -> list[list[object]]:
        """One row per deck check, in DECKCHECK_COLUMNS order."""
        return [[player_of(r), c.get("judge", ""), c.get("at", ""), c.get("fingerprint", ""),
                 "yes" if c.get("matches") else "no", "; ".join(c.get("lines") or []), c.get("note", "")]
                for n, r in enumerate(self.reports) for c in self.arrival(n).deckchecks]

    def issue_rows(self) -> list[list[object]]:
        """One row per issue of every deck, in ISSUE_COLUMNS order: a rule card data kept from deciding is one row,
        its unverified group (in words, its cards, what settles it), after the deck's other issues."""
        rows: list[list[object]] = []
        for r in self.reports:
            rows += [[player_of(r), r.deck, i.rule, i.severity, i.message, ", ".join(i.cards), i.limit, i.actual,
                      i.fix] for i in decided_issues(r)]
            said = {i.undecided: i for i in r.issues if i.undecided is not None}  # the game's DATA-UNKNOWN id
            rows += [[player_of(r), r.deck, said[g.rule].rule, said[g.rule].severity, f"{g.rule} unverified: "
                      f"{g.words}", ", ".join(g.cards), None, None, f"settled by {g.settle}"] for g in unverified(r)]
        return rows

    def input_error_rows(self) -> list[list[object]]:
        """One row per input error of every deck, in INPUT_ERROR_COLUMNS order."""
        return [[player_of(r), r.deck, e.line, e.text, e.message, ", ".join(e.suggestions)]
                for r in self.reports for e in r.input_errors]

    def as_dicts(self) -> list[dict[str, Any]]:
        """The JSON of each deck (CONTRACTS.md §3) plus its player and source."""
        out = []
        for n, r in enumerate(self.reports):
            a = self.arrival(n)
            out.append(r.as_dict() | {"player": player_of(r), "source": r.deck, "submitted_at": a.submitted_at,
                                      "submissions": a.submissions, "fingerprint": fingerprint_of(r),
                                      "deckchecks": a.deckchecks})
        return out
