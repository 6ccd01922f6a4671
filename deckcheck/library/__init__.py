"""The Python library of CONTRACTS §8: check decklists and read card sheets in one call.

On the bundled cards these calls open no database and write nothing (no file in the user's data
directory, no SQLAlchemy import); with `db=URL` they read that database, as the CLI's `--db` does.
Results equal the CLI's for the same input: `check_text(...).as_dict()` is one line of `check --json`.
"""
from __future__ import annotations

import warnings
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Sequence

from .api import BundledCards, CardSource, Catalog, check_files, unreadable
from ..cards import Card
from ..check import check_raw
from ..errors import DeckcheckError
from ..games import get_format
from ..report import Report
from ..textlimits import parse_checked


def card_source(cards: Iterable[Card] = (), db: str | None = None,
                sheets: Sequence[str | Path] = ()) -> CardSource:
    """The cards a call sees: the bundled cards (or those of the database `db`), with `cards` added or replacing
    cards of the same id, and card `sheets` applied as `--cards` applies them (a partial sheet changes only
    its columns; rows without an id are matched by name). Its methods are the card commands: `search`,
    `find`, `set_counts`, `card_stats`.

    The bundled cards alone are one shared source per process, so their name indexes are built once
    however many decks a program checks."""
    if db:
        return Catalog(db, sheets, cards)
    cards = tuple(cards)
    return BundledCards(cards, sheets) if cards or sheets else _bundled_source()


@lru_cache(maxsize=1)
def _bundled_source() -> BundledCards:
    return BundledCards()


def check_text(text: str, format: str | None = None, *, cards: Iterable[Card] = (), db: str | None = None,
               source: str = "-", sheets: Sequence[str | Path] = ()) -> Report:
    """Check a text decklist (CONTRACTS §2) and return its Report.

    The format is `format`, else the deck's `Format:` line, else type1e. `cards` (e.g. from
    read_card_sheet) add to or replace bundled cards for this call, whole; `sheets` (card sheet paths) are
    applied as the CLI's `--cards` applies them (partial rows, names); `source` is the name the
    report gives the deck (`-`, as the CLI names standard input). An unknown or ambiguous card,
    or an unknown format named in the deck, is an input error in the report (`legal` is None);
    an unknown `format` argument raises UnknownFormatError. A text past the limits of text
    decklists (4 MiB, lines of 4,096 characters, no NUL), or with nothing but blank lines, is an unreadable deck,
    as `check -` says.
    """
    if format:
        get_format(format)
    from ..importers.decklists import not_empty
    try:
        raw = parse_checked(not_empty(text, source), source)
    except DeckcheckError as exc:  # past a limit, or empty: unreadable, as `check -` reports it
        return unreadable(source, exc, format or "")
    return check_raw(raw, card_source(cards, db, sheets).index, format)


def check_file(path: str | Path, format: str | None = None, *, cards: Iterable[Card] = (),
               db: str | None = None, sheets: Sequence[str | Path] = ()) -> list[Report]:
    """Check every deck a decklist file holds (text, CSV, XLSX, JSON; a registration workbook holds several).

    A folder checks every decklist file in it. A file that cannot be read gives one report whose
    input error says why, as in `check --json`.
    """
    if format:
        get_format(format)
    return list(check_files([path], card_source(cards, db, sheets), format))


def read_card_sheet(path: str | Path) -> list[Card]:
    """The cards of a card sheet (CONTRACTS §1, CSV or XLSX). CardSheetError names every bad row.

    Columns the sheet has that deckcheck does not know are ignored with a UserWarning.
    """
    from ..importers.cardsheet import read_card_sheet as read
    sheet = read(path)
    for notice in sheet.notices:
        warnings.warn(f"{path}: {notice}", stacklevel=2)
    return list(sheet.cards)
