"""The library calls behind the CLI: cards from the database plus card sheets, and checking files.

Not part of the pure core: it reaches the database (deckcheck.db) and files (deckcheck.importers),
importing them only when called.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Iterable, Iterator, Sequence

from .cards import Card
from .catalog import CardIndex
from .check import check_raw
from .errors import DeckcheckError
from .formats import Format
from .report import InputProblem, Report


_PROCESSED: dict[int, tuple[list[str], list[str]]] = {}


def closest_names(text: str, names: list[str], limit: int = 5) -> list[str]:
    """The names closest to a name that matched nothing, ranked by rapidfuzz (reordered words score well)."""
    from rapidfuzz import fuzz, process, utils
    cached = _PROCESSED.get(id(names))
    if cached is None or cached[0] is not names:  # the names are folded once per list, not once per query
        cached = _PROCESSED[id(names)] = (names, [utils.default_process(n) for n in names])
    found = process.extract(utils.default_process(text), cached[1], scorer=fuzz.WRatio, processor=None,
                            limit=limit, score_cutoff=70)
    return [names[i] for _choice, _score, i in found]


class Catalog:
    """The cards a command sees: the stored database, overlaid by card sheets given for this run."""

    def __init__(self, db_url: str | None = None, sheets: Sequence[str | Path] = ()):
        from .db.store import Store
        self.store = Store(db_url)
        self.overlay: list[Card] = []
        for sheet in sheets:
            from .importers.cardsheet import read_card_sheet
            self.overlay += read_card_sheet(sheet).cards
        self._indexes: dict[str, CardIndex] = {}

    def cards(self, game: str | None = None) -> list[Card]:
        """Stored cards of a game, with this run's sheet rows replacing (same id) or adding cards."""
        stored = self.store.cards(game)
        if not self.overlay:
            return stored
        extra = {c.id: c for c in self.overlay if game is None or c.game == game}
        merged = [extra.pop(c.id, c) for c in stored]
        return merged + list(extra.values())

    def index(self, fmt: Format) -> CardIndex:
        """The name index of a format's game (built-in cards of the format included), built once."""
        key = f"{fmt.game}:{fmt.name}" if fmt.builtin_cards else fmt.game
        if key not in self._indexes:
            cards = self.cards(fmt.game)
            if fmt.builtin_cards:
                cards = fmt.builtin_cards() + cards
            self._indexes[key] = CardIndex(cards, closest_names)
        return self._indexes[key]


DECK_SUFFIXES = (".txt", ".dec", ".deck", ".csv", ".xlsx", ".json")


def expand_paths(paths: Iterable[str | Path]) -> list[Path | str]:
    """Decklist files named directly, and the decklist files in named folders (sorted)."""
    out: list[Path | str] = []
    for p in paths:
        if str(p) == "-":
            out.append("-")
            continue
        path = Path(p)
        if path.is_dir():
            out += sorted(f for f in path.rglob("*") if f.is_file() and f.suffix.lower() in DECK_SUFFIXES
                          and not f.name.startswith((".", "~$")))
        else:
            out.append(path)
    return out


def unreadable(source: str, exc: Exception, fmt_name: str = "") -> Report:
    """The report of a deck file that could not be read at all."""
    return Report(deck=source, format=fmt_name, input_errors=[InputProblem(getattr(exc, "line", None),
                                                                           source, str(exc))])


def check_files(paths: Iterable[str | Path], catalog: Catalog, fmt: str | None = None,
                progress: Callable[[int], None] | None = None, details: bool = False) -> Iterator[Report]:
    """Check every deck in the files and folders; a file that cannot be read is a report with its error."""
    from .importers.decklists import read_decklists
    for path in expand_paths(paths):
        try:
            raws = read_decklists(path)
        except DeckcheckError as exc:
            yield unreadable(str(path), exc, fmt or "")
        else:
            for raw in raws:
                yield check_raw(raw, catalog.index, fmt, details)
        if progress:
            progress(1)


def check_tournament(inputs: Sequence[str | Path], fmt: str | None = None, sheets: Sequence[str | Path] = (),
                     db_url: str | None = None, progress_console=None):
    """Check every deck of folders, files and registration workbooks; an unreadable one is a report too."""
    from .tournament import Tournament
    if fmt:
        from .formats import get_format
        get_format(fmt)
    catalog = Catalog(db_url, sheets)
    paths = expand_paths(inputs)
    tournament = Tournament()
    if progress_console is None:
        tournament.reports = list(check_files(paths, catalog, fmt))
        return tournament
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    with Progress(TextColumn("checking decklists"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=progress_console, transient=True, disable=not progress_console.is_terminal) as bar:
        task = bar.add_task("check", total=len(paths))
        tournament.reports = list(check_files(paths, catalog, fmt, progress=lambda n: bar.advance(task, n)))
    return tournament
