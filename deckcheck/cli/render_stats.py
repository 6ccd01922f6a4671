"""Terminal output of `deckcheck stats` and `deckcheck diff`: rich in a terminal, plain aligned text when piped."""
from __future__ import annotations

from typing import Mapping

from rich.columns import Columns
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..deckdiff import DeckDiff
from ..grid import SQUARES
from ..report import Report
from ..stats import ODDS, DeckStats

ROWS = (("Upper", SQUARES[0:3]), ("Middle", SQUARES[3:6]), ("Lower", SQUARES[6:9]))
COLUMNS = ("Left", "Center", "Right")
VERDICT = {True: "LEGAL", False: "NOT LEGAL", None: "NOT CHECKED"}
VERDICT_STYLE = {True: "bold green", False: "bold red", None: "bold yellow"}


def odds_titles(stats: DeckStats) -> dict[str, str]:
    """What each odds grid answers, with the draw sizes."""
    return {"opening_block": f"Opening hand of {stats.hand} holds a block",
            "exertion_attack": f"Exertion of {stats.exertion} finds an attack",
            "exertion_defense": f"Exertion of {stats.exertion} finds a defense"}


def percent(p: float) -> str:
    """A chance as a percentage with one decimal ('100%' and '0%' only when exact)."""
    if p >= 1:
        return "100%"
    if p <= 0:
        return "0%"
    return f"{min(max(p * 100, 0.1), 99.9):.1f}%"


def heat(p: float) -> str:
    """The colour of a chance: red below one half, yellow below 0.8, green above."""
    return "red" if p < 0.5 else "yellow" if p < 0.8 else "green"


def _type_rows(stats: DeckStats) -> list[tuple[str, str, str]]:
    total = stats.endurance or 1
    return [(kind, str(n), f"{100 * n / total:.1f}%") for kind, n in stats.by_type.items()]


def _count_cell(stats: DeckStats, square: str) -> str:
    c = stats.squares[square]
    return f"{c.attacks}/{c.blocks}/{c.dodges}"


def _headline(stats: DeckStats) -> str:
    return f"{stats.format}  Endurance {stats.endurance} cards  (odds exact; hand {stats.hand}, " \
           f"Exertion {stats.exertion})"


def _unknown_line(stats: DeckStats) -> str:
    return "grid unknown, counted as covering nothing: " + ", ".join(stats.unknown_grid)


# -- plain text -------------------------------------------------------------------------------------
def _plain_grid(cells: Mapping[str, str], width: int) -> list[str]:
    lines = ["        " + "".join(c.rjust(width) for c in COLUMNS)]
    for name, squares in ROWS:
        lines.append(name.ljust(8) + "".join(cells[s].rjust(width) for s in squares))
    return lines


def stats_text(stats: DeckStats) -> str:
    """The statistics as plain aligned text (for pipes and files)."""
    lines = [f"{stats.deck}: {_headline(stats)}", "", "type               copies   share"]
    lines += [f"{kind:<18} {n:>6}  {share:>6}" for kind, n, share in _type_rows(stats)]
    lines += ["", "attacks/blocks/dodges per square"]
    lines += _plain_grid({s: _count_cell(stats, s) for s in SQUARES}, 10)
    for kind, title in odds_titles(stats).items():
        lines += ["", title]
        lines += _plain_grid({s: percent(float(p)) for s, p in stats.odds[kind].items()}, 9)
    if stats.unknown_grid:
        lines += ["", _unknown_line(stats)]
    return "\n".join(lines) + "\n"


def diff_text(diff: DeckDiff) -> str:
    """The comparison as plain aligned text."""
    lines = [f"A: {diff.before.deck} ({diff.before.format}): {_verdict_words(diff.before)}",
             f"B: {diff.after.deck} ({diff.after.format}): {_verdict_words(diff.after)}", ""]
    lines += [f"+ {c.quantity} {c.card} ({c.section})" for c in diff.added]
    lines += [f"- {c.quantity} {c.card} ({c.section})" for c in diff.removed]
    if not diff.added and not diff.removed:
        lines.append("same cards")
    lines += _rule_lines(diff)
    if diff.after_stats is None:  # a game without statistics: its cards and verdicts are the comparison
        return "\n".join(lines) + "\n"
    lines += ["", "square  " + "".join(f"{t:>26}" for t in _diff_titles(diff))]
    rows = {kind: diff.odds_rows(kind) for kind in ODDS}
    for i, square in enumerate(SQUARES):
        cells = [_change(rows[kind][i][1], rows[kind][i][2]) for kind in ODDS]
        lines.append(f"{square:<8}" + "".join(f"{c:>26}" for c in cells))
    return "\n".join(lines) + "\n"


def _verdict_words(report: Report) -> str:
    errors, warnings = len(report.errors), len(report.warnings)
    return f"{VERDICT[report.legal]}, {errors} error(s), {warnings} warning(s)"


def _rule_lines(diff: DeckDiff) -> list[str]:
    out = []
    if diff.fixed_rules:
        out.append("no longer broken: " + ", ".join(diff.fixed_rules))
    if diff.new_rules:
        out.append("newly broken: " + ", ".join(diff.new_rules))
    return [""] + out if out else []


def _diff_titles(diff: DeckDiff) -> list[str]:
    s = diff.after_stats
    if s is None:
        return []
    return [f"block in hand of {s.hand}", f"attack in Exertion of {s.exertion}",
            f"defense in Exertion of {s.exertion}"]


def _change(a: float, b: float) -> str:
    delta = round((b - a) * 100, 1)
    sign = "+" if delta > 0 else "" if delta < 0 else "±"
    return f"{percent(a)} → {percent(b)} ({sign}{delta:.1f})"


# -- rich ---------------------------------------------------------------------------------------------
def _rich_grid(title: str, cells: Mapping[str, Text]) -> Table:
    table = Table(title=title, title_style="bold", show_edge=True, show_lines=True, padding=(0, 1))
    table.add_column("", style="dim")
    for c in COLUMNS:
        table.add_column(c, justify="right")
    for name, squares in ROWS:
        table.add_row(name, *[cells[s] for s in squares])
    return table


def stats_panel(stats: DeckStats) -> Panel:
    """The statistics for a terminal: the type table, square counts and three grids of percentages."""
    types = Table(title="Endurance by type", title_style="bold")
    types.add_column("type")
    types.add_column("copies", justify="right")
    types.add_column("share", justify="right")
    for row in _type_rows(stats):
        types.add_row(*row)
    counts = _rich_grid("attacks/blocks/dodges", {s: Text(_count_cell(stats, s)) for s in SQUARES})
    top = Columns([types, counts], padding=(0, 4))  # side by side where the terminal is wide enough
    grids = Columns([_rich_grid(title, {s: Text(percent(float(p)), style=heat(float(p)))
                                        for s, p in stats.odds[kind].items()})
                     for kind, title in odds_titles(stats).items()], padding=(0, 2))
    parts: list[RenderableType] = [Text(_headline(stats)), top, grids]
    if stats.unknown_grid:
        parts.append(Text(_unknown_line(stats), style="yellow"))
    return Panel(Group(*parts), title=Text(stats.deck), title_align="left", expand=False)  # a name, not markup


def diff_panel(diff: DeckDiff) -> Panel:
    """The comparison for a terminal: verdicts, cards added and removed, odds before and after."""
    head = Text()
    for label, report in (("A", diff.before), ("B", diff.after)):
        head.append(f"{label}: {report.deck} ({report.format}): ")  # Text.append takes no markup
        head.append(_verdict_words(report), style=VERDICT_STYLE[report.legal])
        head.append("\n")
    cards = Text()
    for sign, style, changes in (("+", "green", diff.added), ("-", "red", diff.removed)):
        for c in changes:
            cards.append(f"{sign} {c.quantity} {c.card}", style=style)
            cards.append(f"  ({c.section})\n", style="dim")
    if not diff.added and not diff.removed:
        cards.append("same cards\n", style="dim")
    for line in _rule_lines(diff)[1:]:
        cards.append(line + "\n", style="bold")
    if diff.after_stats is None:  # a game without statistics
        return Panel(Group(head, cards), title="deck comparison", title_align="left")
    odds = Table(title="Odds before → after", title_style="bold")
    odds.add_column("square")
    for t in _diff_titles(diff):
        odds.add_column(t, justify="right")
    rows = {kind: diff.odds_rows(kind) for kind in ODDS}
    for i, square in enumerate(SQUARES):
        cells = []
        for kind in ODDS:
            a, b = rows[kind][i][1], rows[kind][i][2]
            style = "green" if b > a else "red" if b < a else ""
            cells.append(Text(_change(a, b), style=style))
        odds.add_row(square, *cells)
    return Panel(Group(head, cards, odds), title="deck comparison", title_align="left")


def print_stats(out: Console, stats: DeckStats) -> None:
    """Print statistics: a panel in a terminal, plain text otherwise."""
    if out.is_terminal:
        out.print(stats_panel(stats))
    else:
        out.file.write(stats_text(stats))


def print_diff(out: Console, diff: DeckDiff) -> None:
    """Print a comparison: a panel in a terminal, plain text otherwise."""
    if out.is_terminal:
        out.print(diff_panel(diff))
    else:
        out.file.write(diff_text(diff))
