"""Checking a deck: validate(deck, format) -> Report, and the whole path from decklist text."""
from __future__ import annotations

from typing import Callable, Collection

from .catalog import CardIndex, Context, NO_CONTEXT
from .decklist import RawDeck
from .decks import Deck, build_deck
from .errors import AmbiguousCardError, CardNotFoundError, UnknownFormatError
from .formats import AnyFormat, DeckView
from .games import registry
from .registered import registered_of
from .registry import Registry
from .report import UNKNOWN_CARD, UNKNOWN_FORMAT, Details, InputProblem, Report
from .todo import collect


def validate(deck: Deck, fmt: AnyFormat | str, games: Registry | None = None) -> Report:
    """Run every rule of the format on the deck; the report lists every issue at once (what the terminal and the
    pages draw besides: details_of). `games`: the registry the format and its game are found in (default: the
    default registry, deckcheck.games.registry)."""
    return _checked(deck, fmt, games)[0]


def _checked(deck: Deck, fmt: AnyFormat | str, games: Registry | None) -> tuple[Report, DeckView]:
    """The report of validate and the view of the deck its rules read (details_of draws from it too)."""
    games = registry() if games is None else games
    fmt = games.get_format(fmt)
    view = fmt.view(deck, fmt.params)
    unknown_id = games.game_named(fmt.game).data_unknown  # a rule another game declared first reports under ours
    issues = [issue for rule in fmt.rules for issue in rule(view, unknown_id)]
    persona = view.persona_name()
    counts = view.counts()
    report = Report(deck=deck.source, format=fmt.name, persona=persona,
                    counts=_counts(deck, fmt) if counts is None else counts, issues=issues, player=deck.player,
                    notices=list(deck.notices))
    return report, view


def details_of(deck: Deck, fmt: AnyFormat | str, report: Report, games: Registry | None = None,
               view: DeckView | None = None, named_set: Collection[int] = ()) -> Details:
    """What the terminal and the web pages draw of a checked deck besides its report: the grids covered, the
    format's words for a deck without a Persona, the statistics of a game that has them (Game.stats), and the
    cards behind the unverified rules, for the pages' fill-in form, with the lines that may be rewritten to name a
    printing (all of a card's but those in `named_set`, the lines that name one). `view`: the deck's, when the
    check built it."""
    games = registry() if games is None else games
    fmt = games.get_format(fmt)
    stats = games.game_named(fmt.game).stats
    details = Details(coverage=(fmt.view(deck, fmt.params) if view is None else view).coverage(),
                      no_persona=fmt.no_persona if report.persona is None and fmt.no_persona else None,
                      stats=None if stats is None else stats(deck, fmt.name))
    if report.unverified:
        todo = collect([(deck, report)])
        details.unverified_cards = [(card, todo.columns[card.id]) for card in todo.cards.values()]
        for e in deck.entries:
            if e.card.id in todo.cards:
                details.unverified_copies[e.card.id] = details.unverified_copies.get(e.card.id, 0) + e.quantity
        for card_id in todo.cards:
            lines = [n for n in dict.fromkeys(deck.card_lines.get(card_id, ())) if n not in named_set]
            if lines:
                details.unverified_lines[card_id] = lines
    return details


def with_details(deck: Deck, fmt: AnyFormat | str, report: Report, games: Registry | None = None) -> Report:
    """The report with its details filled in (details_of)."""
    report.details = details_of(deck, fmt, report, games)
    return report


def _counts(deck: Deck, fmt: AnyFormat) -> dict[str, int]:
    counts = dict.fromkeys(fmt.sections, 0)
    for e in deck.entries:
        counts[e.section] += e.quantity
    return counts


def _other_game(raw: RawDeck, index_for: Callable[[AnyFormat], CardIndex], fmt: AnyFormat,
                games: Registry) -> list[str]:
    """For a list with no `Format:` line that the default format cannot read: the notice naming the first game
    whose cards every line names (its first format), so that its lines are not all just 'unknown card'."""
    for game in games.games:
        if game.name == fmt.game or not game.formats:
            continue
        other = game.formats[0]
        index = index_for(other)
        if not _names_any_card(raw, index):
            continue  # (a deck of the other game names at least one of its cards: no need to read it all)
        deck, problems = build_deck(raw, index, other)
        if not problems and deck.entries:
            return [f"this list has no Format: line and was read as {fmt.name}; every line of it names a card of "
                    f"{game.title}: write 'Format: {other.name}' as its first line (or check it with --format "
                    f"{other.name})"]
    return []


def _names_any_card(raw: RawDeck, index: CardIndex) -> bool:
    """Whether some line of the list names a card of the index as it is written (the cheap test before reading the
    list as that game's: a deck whose cards are all another game's has one at least). A line whose ` - N` only the
    cards tell apart (a version or a quantity) counts as one."""
    for line in raw.lines:
        if line.dash is not None:
            return True
        context = NO_CONTEXT if line.kinds is None else Context(kinds=line.kinds)
        for _quantity, name in line.readings:
            if not index.may_name(name):
                continue
            try:
                index.resolve(name, line.set_code, context, suggest=False)
            except AmbiguousCardError:
                return True
            except CardNotFoundError:
                continue
            return True
    return False


# Where a card sheet is brought, in the CLI's words (web.decks.page_text gives a page's, which name no command).
CARD_SHEET_HINT = ("(`--cards FILE` on the command line, the Card sheet field on the check page; "
                   "`deckcheck cards import FILE` keeps it)")


def no_card_list(index: CardIndex, fmt: AnyFormat, games: Registry) -> list[str]:
    """For a deck with unknown cards: the notice, once, that the format's card list is not bundled and no card sheet
    brought it (no more of its cards are known than the bundle's few), so that its "unknown card" lines say why."""
    builtin = {c.id for c in fmt.builtin_cards()} if fmt.builtin_cards else set()
    own = fmt.own_card or (lambda card: card.game == fmt.game)
    known = sum(1 for card in index.cards if card.id not in builtin and own(card))
    if known > fmt.bundled_own:
        return []
    words = fmt.card_list or games.game_named(fmt.game).full_title
    only = f" (only {known} {words} card{'s' if known != 1 else ''} known here)" if known else ""
    return [f"no {words} card list is bundled{only}: bring your card sheet {CARD_SHEET_HINT}"]


def choose_format(raw: RawDeck, requested: str | None, games: Registry | None = None) -> AnyFormat:
    """The format asked for on the command line, else the deck's `Format:` line, else the default."""
    games = registry() if games is None else games
    return games.get_format(requested or raw.declared_format or games.default_format)


def provisional(raw: RawDeck, index_for: Callable[[AnyFormat], CardIndex], requested: str | None = None,
                games: Registry | None = None) -> Report | None:
    """The rules' report on the lines of a deck that read, when some did not (None when every line read, none did,
    or the format is unknown): shown apart from the deck's verdict (it has none), so that a typo is told from an
    illegal deck."""
    games = registry() if games is None else games
    try:
        fmt = choose_format(raw, requested, games)
    except UnknownFormatError:
        return None
    deck, problems = build_deck(raw, index_for(fmt), fmt)
    if not problems or not deck.entries:
        return None
    return _checked(deck, fmt, games)[0]


def check_raw(raw: RawDeck, index_for: Callable[[AnyFormat], CardIndex], requested: str | None = None,
              details: bool = False, games: Registry | None = None) -> Report:
    """Resolve and validate a raw decklist. Unreadable lines become input errors (and no verdict). `games`: the
    registry the formats are found in (default: the default registry)."""
    games = registry() if games is None else games
    try:
        fmt = choose_format(raw, requested, games)
    except UnknownFormatError as exc:  # an unknown format named in the deck itself is that deck's input error
        return Report(deck=raw.source, format=requested or raw.declared_format or "", player=raw.player,
                      input_errors=[InputProblem(None, raw.declared_format or requested or "", str(exc),
                                                 kind=UNKNOWN_FORMAT)])
    deck, problems = build_deck(raw, index_for(fmt), fmt)
    if problems:
        report = Report(deck=raw.source, format=fmt.name, player=raw.player, counts=_counts(deck, fmt),
                        input_errors=problems, notices=list(deck.notices))
        if not requested and not raw.declared_format:
            report.notices += _other_game(raw, index_for, fmt, games)
        if any(p.kind == UNKNOWN_CARD for p in problems):
            report.notices += no_card_list(index_for(fmt), fmt, games)
    else:
        report, view = _checked(deck, fmt, games)
        if details:
            report.details = details_of(deck, fmt, report, games, view, {r.line for r in raw.lines if r.set_code})
    pairs = games.game_named(fmt.game).pair_sections
    report.registered = registered_of(deck, tuple(fmt.sections), problems, next(iter(pairs), ""))
    return report
