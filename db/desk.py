"""The tournament desk as library calls: events, players' submissions, the organiser's table and reports.

The web pages and the JSON API of `deckcheck serve` call these; the reports are written by the same
code as `deckcheck tournament check --out`.
"""
from __future__ import annotations

import json
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Sequence, Union

from deckcheck.decklist import RawDeck
from deckcheck.desk import (MAX_EVENT_NAME, MAX_PLAYER_NAME, DeskError, Event, EventClosed, EventNotFound,
                            NotAuthorised, RateLimited, Submission, TooLarge, WrongToken, clean_name, decklist_text,
                            expected_players, from_stamp, hash_token, is_id, new_id, new_token, now,
                            player_key, token_matches, wait_words)
from deckcheck.errors import DecklistError
from deckcheck.formats import get_format
from deckcheck.report import InputProblem, Report
from deckcheck.tournament import Tournament, verdict

from .events import EventTables

if TYPE_CHECKING:
    from deckcheck.deckdiff import DeckDiff

MAX_DECKLIST_BYTES = 256 * 1024  # a decklist is a few KB; a registration workbook is not a player's deck
REPORT_KINDS = ("xlsx", "csv", "json")
PASTED = "pasted decklist"
Decklist = Union[str, Sequence[RawDeck], Report]


@dataclass(frozen=True)
class RateLimit:
    """At most `submissions` from one address per `seconds` (0 submissions: no limit)."""

    submissions: int = 60
    seconds: int = 60

    @classmethod
    def parse(cls, text: str) -> "RateLimit":
        """'60/60' (submissions per seconds), or '0' for no limit."""
        count, _, seconds = str(text).strip().partition("/")
        try:
            limit = cls(int(count), int(seconds or 60))
        except ValueError:
            raise DeskError(f"rate limit {text!r} is not N/SECONDS (e.g. 60/60), or 0 for none") from None
        if limit.submissions < 0 or limit.seconds <= 0:
            raise DeskError(f"rate limit {text!r}: N must be 0 or more and SECONDS more than 0")
        return limit


@dataclass(frozen=True)
class Row:
    """One line of the organiser's table: a player's current deck."""

    deck_id: str
    player: str
    submitted_at: datetime
    verdict: str
    errors: int
    warnings: int
    persona: str
    submissions: int


class Desk:
    """The tournament desk on one database (SQLite or PostgreSQL; several processes may share it)."""

    def __init__(self, db_url: str | None = None, catalog=None, rate_limit: RateLimit | None = None):
        from deckcheck.api import Catalog
        self.catalog = catalog if catalog is not None else Catalog(db_url)
        self.store = self.catalog.store
        self.rate_limit = rate_limit or RateLimit()
        self._tables: EventTables | None = None

    @property
    def tables(self) -> EventTables:
        """The desk's SQL on the store's engine (created with the other tables on first use)."""
        if self._tables is None:
            self._tables = EventTables(self.store.engine)
        return self._tables

    # -- events ---------------------------------------------------------------------------------
    def create_event(self, name: object, format: str, deadline=None, expected=()) -> tuple[Event, str]:
        """A new event and its organiser token (shown once; only its hash is stored). DeskError when the name
        (or an expected player's) is empty, too long or not text."""
        fmt = get_format(format)  # UnknownFormatError: a typed input error
        event = Event(id=new_id(), name=clean_name(name, "event name", MAX_EVENT_NAME), format=fmt.name,
                      deadline=deadline, expected=tuple(expected_players(expected)), created_at=now(),
                      closed_at=None)
        token = new_token()
        self.tables.add_event(event, hash_token(token))
        return event, token

    def event(self, event_id: str) -> Event:
        """The event (EventNotFound when there is none)."""
        return self._event(event_id)[0]

    def _event(self, event_id: str) -> tuple[Event, str]:
        """The event and its token hash; EventNotFound when there is none, or the id is not one desk ids look like
        (looked up no further: PostgreSQL refuses text with a NUL, for one)."""
        if not is_id(event_id):
            raise EventNotFound(f"no event {str(event_id)[:40]!r}")
        return self.tables.event(event_id)

    def authorise(self, event_id: str, token: str | None) -> Event:
        """The event when the token is its organiser's: NotAuthorised without one, WrongToken otherwise.

        An unknown event with a token is WrongToken too, so the answer tells nothing about which ids exist.
        """
        if not token:
            raise NotAuthorised("this needs the organiser's token (Authorization: Bearer TOKEN)")
        try:
            event, stored = self._event(event_id)
        except EventNotFound:
            token_matches(token, "0" * 64)  # the same work as a real comparison
            raise WrongToken("wrong organiser token for this event") from None
        if not token_matches(token, stored):
            raise WrongToken("wrong organiser token for this event")
        return event

    def close_event(self, event_id: str) -> Event:
        """Close the event: no submission is taken after this."""
        self.event(event_id)
        return self.tables.close(event_id)

    # -- players --------------------------------------------------------------------------------
    def check_rate(self, address: str) -> None:
        """Count a submission attempt from an address; RateLimited past the limit (counted in the database)."""
        limit = self.rate_limit
        if limit.submissions <= 0:
            return
        now = time.time()
        bucket = int(now // limit.seconds)
        if self.tables.hit(address or "-", bucket) > limit.submissions:
            wait, words = wait_words((bucket + 1) * limit.seconds - now)
            raise RateLimited(f"more than {limit.submissions} submissions from your address within "
                              f"{limit.seconds} s; wait {words} and submit again", retry_after=wait)

    def check_deck(self, event: Event, player: str, decklist: Decklist, source: str = PASTED) -> tuple[Report, str]:
        """The report of a player's decklist in the event's format, and the decklist as text for the judges.

        `decklist` is the text, or the raw decks read from a file (`importers.decklists.read_decklists`),
        or the Report of a file that could not be read at all.
        """
        shown = ""
        if isinstance(decklist, str):
            if not decklist.strip():
                raise DeskError("no decklist: paste it or choose a file")
            if len(decklist.encode("utf-8", "surrogatepass")) > MAX_DECKLIST_BYTES:
                raise TooLarge(f"the decklist is over {MAX_DECKLIST_BYTES // 1024} KB")
            from deckcheck.textlimits import parse_checked
            text = decklist
            try:
                decklist, shown = [parse_checked(text, source)], text
            except DecklistError as exc:  # past a limit of text decklists: an unreadable deck, as for a file
                from deckcheck.api import unreadable
                decklist = unreadable(source, exc, event.format)
        if isinstance(decklist, Report):
            report = decklist
        else:
            raws = list(decklist)
            shown = shown or "".join(decklist_text(r) for r in raws)
            if len(raws) != 1:
                report = Report(deck=source, format=event.format, input_errors=[InputProblem(
                    None, source, f"the file holds {len(raws)} decklists; submit only yours")])
            else:
                from deckcheck.check import check_raw
                report = check_raw(raws[0], self.catalog.index, event.format)
        report.deck, report.player = source, player
        report.format = report.format or event.format
        return report, shown

    def submit_deck(self, event_id: str, player: object, decklist: Decklist, source: str = PASTED,
                    address: str = "") -> Submission:
        """Check and store a player's deck; it replaces their earlier one. EventClosed after the deadline.

        `decklist` as for check_deck; `source` names it in reports (the uploaded file's name, or pasted text).
        """
        event = self.event(event_id)
        if not event.is_open():
            raise EventClosed("the event is closed: submissions are no longer taken")
        name = clean_name(player, "player name", MAX_PLAYER_NAME)
        self.check_rate(address)
        report, shown = self.check_deck(event, name, decklist, source)
        deck_id, moment = new_id(), now()
        data = report.as_dict() | {"player": name}
        number = self.tables.add_submission({
            "id": deck_id, "event_id": event_id, "player": name, "player_key": player_key(name),
            "submitted_at": moment, "address": address[:100], "source": source, "text": shown,
            "verdict": verdict(report), "errors": len(report.errors), "warnings": len(report.warnings),
            "persona": report.persona or "", "report": json.dumps(data, ensure_ascii=False)})
        return Submission(deck_id, event_id, name, moment, source, shown, report, number)

    def submission(self, event_id: str, deck_id: str) -> Submission:
        """One submitted deck by its id (the player's private link); EventNotFound when there is none."""
        found = self.tables.submission(event_id, deck_id) if is_id(event_id) and is_id(deck_id) else None
        if found is None:
            raise EventNotFound(f"no deck {deck_id[:40]!r} in this event")
        return found

    # -- the organiser --------------------------------------------------------------------------
    def rows(self, event_id: str, verdicts: tuple[str, ...] = (), search: str = "") -> list[Row]:
        """The organiser's table: each player's current deck, filtered by verdict and by words in name or persona."""
        words = search.casefold().split()
        rows = [Row(r.id, r.player, from_stamp(r.submitted_at), r.verdict, r.errors, r.warnings, r.persona,
                    r.submissions) for r in self.tables.current(event_id)]
        if verdicts:
            rows = [r for r in rows if r.verdict in verdicts]
        if words:
            rows = [r for r in rows if all(w in f"{r.player} {r.persona}".casefold() for w in words)]
        return rows

    def missing(self, event: Event, rows: list[Row] | None = None) -> list[str]:
        """Expected players who have not submitted a deck yet (rows: the event's table, when already read)."""
        have = {player_key(r.player) for r in (self.rows(event.id) if rows is None else rows)}
        return [name for name in event.expected if player_key(name) not in have]

    def list_submissions(self, event_id: str) -> list[Submission]:
        """Every player's current deck in full, in order of arrival."""
        return self.tables.current_submissions(event_id)

    def history(self, event_id: str, player: str) -> list[Submission]:
        """Every deck a player submitted, oldest first (to compare what changed)."""
        return self.tables.history(event_id, player)

    def compare(self, event_id: str, before_id: str, after_id: str, hand: int | None = None,
                exertion: int | None = None) -> "DeckDiff":
        """Two submitted decks of an event compared as `deckcheck diff` compares decklists: cards added and
        removed, verdicts and odds before and after (a player's earlier deck against their later one).

        EventNotFound when either id is not a deck of the event; UnreadableDeckError when a decklist has lines
        that do not resolve (its report lists them); DeckcheckError for a format without statistics (and a
        DecklistError for a kept text past the limits of text decklists).
        """
        from deckcheck.deckdiff import diff_decks
        from deckcheck.stats import EXERTION, HAND, check_draw
        from deckcheck.statsapi import resolve
        from deckcheck.textlimits import parse_checked
        hand = HAND if hand is None else hand
        exertion = EXERTION if exertion is None else exertion
        check_draw("hand", hand)
        check_draw("exertion", exertion)
        event = self.event(event_id)
        sides = []
        for deck_id in (before_id, after_id):
            submission = self.submission(event_id, deck_id)
            source = f"{submission.player}, {submission.submitted_at:%Y-%m-%d %H:%M:%S} UTC"
            raw = parse_checked(submission.text, source)  # a text kept before the limits held: DecklistError
            fmt = get_format(submission.report.format or event.format)
            deck, fmt = resolve(raw, self.catalog.index(fmt), fmt.name)
            sides.append((deck, fmt))
        (before, before_fmt), (after, after_fmt) = sides
        return diff_decks(before, before_fmt, after, after_fmt, hand, exertion)

    def tournament(self, event_id: str) -> Tournament:
        """The players' current decks as the Tournament that `deckcheck tournament check` reports."""
        return Tournament(reports=[s.report for s in self.list_submissions(event_id)])

    def report_file(self, event_id: str, kind: str) -> bytes:
        """report.xlsx, .csv or .json, written by the CLI's own report writer."""
        if kind not in REPORT_KINDS:
            raise EventNotFound(f"no report {kind[:20]!r}; reports are {', '.join(REPORT_KINDS)}")
        from deckcheck.importers.reports import write_tournament_report
        tournament = self.tournament(event_id)
        with tempfile.TemporaryDirectory(prefix="deckcheck-desk-") as folder:
            path = Path(folder) / f"report.{kind}"
            write_tournament_report(path, tournament)
            return path.read_bytes()
