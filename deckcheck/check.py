"""Checking a deck: validate(deck, format) -> Report, and the whole path from decklist text."""
from __future__ import annotations

from typing import Callable

from .catalog import CardIndex
from .decklist import RawDeck
from .decks import Deck, build_deck
from .errors import UnknownFormatError
from .formats import DEFAULT_FORMAT, AnyFormat
from .games import game_named, get_format, registry
from .registered import registered_of
from .report import UNKNOWN_FORMAT, InputProblem, Report
from .todo import collect


def validate(deck: Deck, fmt: AnyFormat | str, details: bool = False) -> Report:
    """Run every rule of the format on the deck; the report lists every issue at once.

    With details, the report also carries what the terminal and the web pages draw: the grids covered
    and, for a game with statistics (Game.stats), the deck's (`details["stats"]`, a deckcheck.stats.DeckStats).
    """
    fmt = get_format(fmt)
    view = fmt.view(deck, fmt.params)
    unknown_id = game_named(fmt.game).data_unknown  # a rule another game declared first still reports under ours
    issues = [issue for rule in fmt.rules for issue in rule(view, unknown_id)]
    persona = view.persona_name()
    counts = view.counts()
    report = Report(deck=deck.source, format=fmt.name, persona=persona,
                    counts=_counts(deck, fmt) if counts is None else counts, issues=issues, player=deck.player,
                    notices=list(deck.notices))
    if details:
        report.details = view.details()
        if persona is None and fmt.no_persona:
            report.details["no_persona"] = fmt.no_persona
        stats = game_named(fmt.game).stats
        if stats is not None:
            report.details["stats"] = stats(deck, fmt.name)
        if report.unverified:  # the cards behind them, for the pages' fill-in form
            todo = collect([(deck, report)])
            report.details["unverified_cards"] = [(card, todo.columns[card.id]) for card in todo.cards.values()]
            copies: dict[str, int] = {}
            for e in deck.entries:
                if e.card.id in todo.cards:
                    copies[e.card.id] = copies.get(e.card.id, 0) + e.quantity
            report.details["unverified_copies"] = copies  # the form asks first about the cards played most
    return report


def _counts(deck: Deck, fmt: AnyFormat) -> dict[str, int]:
    counts = dict.fromkeys(fmt.sections, 0)
    for e in deck.entries:
        counts[e.section] += e.quantity
    return counts


def _other_game(raw: RawDeck, index_for: Callable[[AnyFormat], CardIndex], fmt: AnyFormat) -> list[str]:
    """For a list with no `Format:` line that the default format cannot read: the notice naming the first game
    whose cards every line names (its first format), so that its lines are not all just 'unknown card'."""
    for game in registry().games:
        if game.name == fmt.game or not game.formats:
            continue
        other = game.formats[0]
        deck, problems = build_deck(raw, index_for(other), other)
        if not problems and deck.entries:
            return [f"this list has no Format: line and was read as {fmt.name}; every line of it names a card of "
                    f"{game.title}: write 'Format: {other.name}' as its first line (or check it with --format "
                    f"{other.name})"]
    return []


def choose_format(raw: RawDeck, requested: str | None) -> AnyFormat:
    """The format asked for on the command line, else the deck's `Format:` line, else the default."""
    return get_format(requested or raw.declared_format or DEFAULT_FORMAT)


def check_raw(raw: RawDeck, index_for: Callable[[AnyFormat], CardIndex], requested: str | None = None,
              details: bool = False) -> Report:
    """Resolve and validate a raw decklist. Unreadable lines become input errors (and no verdict)."""
    try:
        fmt = choose_format(raw, requested)
    except UnknownFormatError as exc:  # an unknown format named in the deck itself is that deck's input error
        return Report(deck=raw.source, format=requested or raw.declared_format or "", player=raw.player,
                      input_errors=[InputProblem(None, raw.declared_format or requested or "", str(exc),
                                                 kind=UNKNOWN_FORMAT)])
    deck, problems = build_deck(raw, index_for(fmt), fmt)
    if problems:
        report = Report(deck=raw.source, format=fmt.name, player=raw.player, counts=_counts(deck, fmt),
                        input_errors=problems, notices=list(deck.notices))
        if not requested and not raw.declared_format:
            report.notices += _other_game(raw, index_for, fmt)
    else:
        report = validate(deck, fmt, details)
    report.registered = registered_of(deck, tuple(fmt.sections), problems)
    return report
