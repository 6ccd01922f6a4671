"""Terminal rendering with rich: check reports, card details, tables. Imported only by the CLI."""
from __future__ import annotations

import os
import re
import textwrap
from typing import TYPE_CHECKING, Any, Mapping, Sequence

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.markup import escape
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .. import grid as gridmod
from ..cards import Card
from ..games import registry
from .plain import plural, short_message, suggestion_hint, tsv_lines
from ..provenance import Provenance
from ..report import Report
from ..unverified import decided_issues, unverified, verdict_text

if TYPE_CHECKING:  # a check's report panel needs no tournament
    from ..tournament import Tournament

# control characters (ESC starts terminal escape sequences; CR rewrites the line), bidi overrides, lone surrogates
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape_char(m: re.Match[str]) -> str:
    return m.group().encode("unicode_escape").decode("ascii")


def clean(value: object) -> str:
    """User text made safe for a terminal: control characters and bidi overrides shown as escapes (\\x1b)."""
    text = str(value)
    return _UNSAFE.sub(_escape_char, text) if _UNSAFE.search(text) else text


def esc(value: object) -> str:
    """User text to put inside a rich markup string: clean, with its [brackets] escaped."""
    return escape(clean(value))


def plain(value: object, style: str = "") -> Text:
    """User text as a rich Text (never read as markup), clean."""
    return Text("" if value is None else clean(value), style=style)


VERDICT = {True: ("LEGAL", "bold green"), False: ("NOT LEGAL", "bold red"), None: ("NOT CHECKED", "bold yellow")}


def grid_text(mask: int, label: str) -> Text:
    """A 3x3 grid drawn under a label: covered squares green, the rest red."""
    text = Text(label + "\n", style="bold")
    for row in gridmod.picture(mask):
        for cell in row.split(" "):
            text.append(cell + " ", style="green" if cell == "■" else "red")
        text.append("\n")
    return text


def report_panel(report: Report) -> Panel:
    """One deck's report: verdict, counts, issues by severity with rule, cards, numbers and fix."""
    verdict, style = VERDICT[report.legal]
    head = Text()
    head.append(verdict_text(verdict, report), style=style)
    head.append(f"  {clean(report.format)}")
    if report.persona:
        head.append(f"  Persona: {clean(report.persona)}")
    elif report.legal is not None and report.details.no_persona:
        head.append(f"  {clean(report.details.no_persona)}")
    if report.counts:
        head.append("  " + ", ".join(f"{k} {v}" for k, v in report.counts.items()))
    parts: list[RenderableType] = [head]
    if report.input_errors:
        table = Table(title="Input errors", title_style="bold yellow", show_header=True, expand=True)
        table.add_column("line", justify="right", width=5)
        table.add_column("text")
        table.add_column("problem")
        for e in report.input_errors:
            hint = suggestion_hint(e.message, e.suggestions, newline=True)
            cause = e.cause() if e.text == report.deck else None  # the whole file, named in the panel's title
            if cause is not None:
                table.add_row("" if e.line is None else str(e.line), "unreadable", plain(cause + hint))
                continue
            table.add_row("" if e.line is None else str(e.line), plain(e.text), plain(e.message + hint))
        parts.append(table)
    for title, issues, colour in (("Errors", decided_issues(report, "error"), "red"),
                                  ("Warnings", decided_issues(report, "warning"), "yellow")):
        if not issues:
            continue
        table = Table(title=f"{title} ({len(issues)})", title_style=f"bold {colour}", expand=True, show_lines=True)
        table.add_column("rule", style=colour, no_wrap=True)
        table.add_column("problem")
        table.add_column("fix")
        for i in issues:
            message = short_message(i)  # HL-DATA-UNKNOWN: one line per rule; --json keeps the cards
            body = plain(message)
            if i.limit is not None or i.actual is not None:
                body.append(f"\nlimit {i.limit}, actual {i.actual}", style="dim")
            if i.cards and message == i.message and len(", ".join(i.cards)) > len(i.message):
                body.append("\ncards: " + clean(", ".join(i.cards)), style="dim")
            table.add_row(plain(i.rule), body, plain(i.fix))
        parts.append(table)
    groups = unverified(report)
    if groups:  # after errors and warnings: each rule in words, its cards (the first 10), what settles it
        table = Table(title=f"Unverified ({len(groups)})", title_style="bold yellow", expand=True, show_lines=True)
        table.add_column("rule", style="yellow", no_wrap=True)
        table.add_column("not checked, for these cards")
        table.add_column("settled by")
        for g in groups:
            body = plain(g.words)
            body.append("\n" + clean(g.cards_text()), style="dim")
            table.add_row(plain(g.rule), body, plain(g.settle))
        parts.append(table)
    coverage = report.details.coverage
    if coverage is not None and report.legal is not None:
        grids = Table.grid(padding=(0, 4))
        grids.add_row(grid_text(coverage.attacks, "Basic Attacks cover"), grid_text(coverage.blocks, "Blocks cover"))
        parts.append(grids)
    title = report.deck + (f"  ({report.player})" if report.player and report.player not in report.deck else "")
    return Panel(Group(*parts), title=plain(title), title_align="left", border_style=style.split()[-1])


def card_panel(card: Card, sources: Mapping[str, Provenance] | None = None) -> Panel:
    """A readable card: every rules field, unknowns marked, the grid drawn; with `sources`, where each
    value came from, beside it."""
    def show(value: object) -> Text:
        if value is None:
            return Text("unknown", style="yellow")
        if value is True:
            return Text("yes")
        if value is False:
            return Text("no")
        return plain(value) if value != "" else Text("—")
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    if sources is not None:
        table.add_column(style="dim")
    # (label, sheet column whose provenance applies, value): the rows a card's page has (Field.page), its game's
    fields: list[tuple[str, str, object]] = [(row[0], f.name if f.sourced else "", row[1])
                                             for f in registry().fields_of(card.game)
                                             if (row := f.page_row(card)) is not None]
    fields.append(("Master card", "title", card.is_master))
    if sources is not None and card.text:
        fields.append(("Text", "text", "(below)"))
    for label, column, shown in fields:
        cells = [Text(label), show(shown)]  # show() cleans user text (plain)
        if sources is not None:
            where = sources.get(column) if column and shown is not None else None
            cells.append(plain(where.describe() if where else ("" if shown is None or not column else "not recorded")))
        table.add_row(*cells)
    parts: list[RenderableType] = [table]
    if card.type in ("Attack", "Block", "Special Attack", "Dodge") or card.grid is not None:
        if card.grid is None:
            parts.append(Text("the grid: unknown", style="yellow"))
        else:
            parts.append(grid_text(card.grid, "the grid" + (" (inferred)" if card.grid_inferred else "")))
    if card.text:
        parts.append(plain(card.text, style="italic"))
    return Panel(Group(*parts), title=plain(card.name), title_align="left")


def simple_table(title: str, header: Sequence[str], rows: Sequence[Sequence[object]],
                 justify_right: Sequence[str] = (), keep: int = 1) -> FitTable:
    """A table with a title that fits the console it is printed on (FitTable); the first `keep` columns stay on
    each row's first line."""
    return FitTable(title, header, rows, justify_right, keep)


class FitTable:
    """A table that fits: on a terminal, one line a row in aligned columns, the widest columns past the first `keep`
    folded onto a second line (`heading: value`) until the first line fits the width, no cell ever cut; elsewhere (a
    pipe, a file) a `# title` line, then the heading and one line a row, tab-separated (deckcheck.cli.plain)."""

    def __init__(self, title: str, header: Sequence[str], rows: Sequence[Sequence[object]],
                 justify_right: Sequence[str] = (), keep: int = 1, styles: Sequence[str] = ()):
        self.title = clean(title)
        self.styles = list(styles)  # each row's style on a terminal (default: none)
        self.header = [clean(h) for h in header]
        self.rows = [["" if v is None else clean(v) for v in row] for row in rows]
        self.right = {i for i, h in enumerate(header) if h in justify_right}
        self.keep = keep

    def text(self, terminal: bool, width: int) -> Text:
        """What is printed: aligned and folded to `width` on a terminal, tab-separated lines elsewhere."""
        if not terminal:
            return Text("\n".join(tsv_lines(self.title, self.header, self.rows)))
        widths = [max([cell_len(h)] + [cell_len(r[i]) for r in self.rows]) for i, h in enumerate(self.header)]
        shown, folded = fold_columns(widths, width, self.keep)
        out = Text()
        out.append(wrapped(self.title, width) + "\n", style="bold")
        out.append(self._line(self.header, shown, widths) + "\n", style="bold")
        for n, row in enumerate(self.rows):
            out.append(self._line(row, shown, widths) + "\n", style=self.styles[n] if n < len(self.styles) else "")
            below = "  ".join(f"{self.header[i]}: {row[i]}" for i in folded if row[i])
            if below:
                out.append(wrapped(below, width, "    ") + "\n", style="dim")
        out.rstrip()
        return out

    def _line(self, cells: Sequence[str], shown: Sequence[int], widths: Sequence[int]) -> str:
        padded = [" " * (widths[i] - cell_len(cells[i])) + cells[i] if i in self.right else
                  cells[i] + " " * (widths[i] - cell_len(cells[i])) for i in shown]
        return "  ".join(padded).rstrip()

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.text(console.is_terminal, options.max_width)


def wrapped(text: str, width: int, indent: str = "") -> str:
    """Text broken at spaces into lines of `width`, each after `indent`; a word longer than a line is kept whole."""
    return "\n".join(textwrap.wrap(text, width, initial_indent=indent, subsequent_indent=indent,
                                    break_long_words=False, break_on_hyphens=False)) or indent


def fold_columns(widths: Sequence[int], width: int, keep: int = 1) -> tuple[list[int], list[int]]:
    """(the columns on a row's first line, the columns folded onto its second): the widest columns past the first
    `keep` are folded, one at a time, until the first line (two spaces between columns) fits `width`."""
    shown = list(range(len(widths)))
    folded = []
    while len(shown) > keep and sum(widths[i] for i in shown) + 2 * (len(shown) - 1) > width:
        widest = max(shown[keep:], key=lambda i: (widths[i], i))
        shown.remove(widest)
        folded.append(widest)
    return shown, sorted(folded)


class SafeConsole(Console):
    """A rich Console that cleans the control characters out of every string it is asked to print.

    Markup in such a string is still read (callers escape user text in markup with esc(), or pass
    markup=False); the cleaning is safe there because markup tags hold no control characters.
    """

    def print(self, *objects: Any, **kwargs: Any) -> None:
        """Print as rich does, strings cleaned first. A FitTable: its lines as they are (it fits a terminal; a pipe
        gets its tabs). On a terminal, text asked not to wrap (for a pipe's sake) is wrapped at the width all the
        same: every line is readable in 80 columns."""
        if any(isinstance(o, FitTable) for o in objects):
            for o in objects:
                if isinstance(o, FitTable) and not self.is_terminal:
                    self.file.write(o.text(False, self.width).plain + "\n")
                else:
                    super().print(o, soft_wrap=True)
            return
        if self.is_terminal:
            kwargs.pop("soft_wrap", None)
        super().print(*(clean(o) if isinstance(o, str) else o for o in objects), **kwargs)


def console(stderr: bool = False) -> Console:
    """A rich console on standard output (or error), without syntax highlighting; user text is cleaned. FORCE_TERMINAL
    set: a terminal whatever the stream is (as `check` reads it)."""
    forced = True if os.environ.get("FORCE_TERMINAL") else None
    return SafeConsole(stderr=stderr, highlight=False, force_terminal=forced)


def tournament_table(tournament: Tournament) -> tuple[FitTable, Text]:
    """One line per deck (coloured by verdict on a terminal; tab-separated to a pipe), and the totals line.

    A FitTable rather than a rich Table: measuring a thousand-row Table took longer than checking the thousand decks.
    """
    colours = {"legal": "green", "NOT LEGAL": "red", "unreadable": "yellow"}
    shown = tournament.summary_columns.index("first error")  # it and what follows: in the report
    columns = tournament.summary_columns[:shown]
    summary = [row[:shown] for row in tournament.summary_rows()]
    rows = [["" if v is None else str(v) for v in row] for row in summary]
    for row in rows:
        row[1] = row[1].replace("\\", "/").rsplit("/", 1)[-1]  # the file name; report files keep the path
    labels = {"legal": "verdict", "errors": "err", "warnings": "warn"}
    for game in tournament.games:
        labels.update(game.summary_labels)
    header = [labels.get(c, c) for c in columns]
    # a column of counts is right-aligned
    numeric = [header[i] for i in range(3, len(columns)) if columns[i] != "legal"
               and all(isinstance(row[i], int) or row[i] == "" for row in summary)]
    verdict = columns.index("legal")
    table = FitTable(f"{plural(len(rows), 'deck')} checked", header, rows, numeric,
                     styles=[colours[row[verdict]] for row in rows])
    totals = tournament.totals()
    text = Text(f"{totals['decks']} decks: ")
    text.append(f"{totals['legal']} legal", style="green")
    text.append(", ")
    text.append(f"{totals['not legal']} not legal", style="red")
    text.append(", ")
    text.append(f"{totals['unreadable']} unreadable", style="yellow")
    return table, text
