"""The tournament desk as library calls: events, players' submissions, the organiser's table and reports.

The web pages and the JSON API of `deckcheck serve` call these; the reports are written by the same code as
`deckcheck tournament check --out`. The desk's SQL is deckcheck.db.events.
"""
from __future__ import annotations

import json
import random
import secrets
import tempfile
import time
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any, Sequence, Union, cast

from ..check import check_raw, choose_format, provisional
from ..db.events import EventTables
from ..deckdiff import DeckDiff, diff_decks
from ..cards import Card
from ..catalog import CardIndex
from ..decklist import RawDeck, Refused
from ..decks import build_deck
from ..desk import (MAX_EVENT_NAME, MAX_PLAYER_NAME, CountedCardUnknown, DeskError, Event, EventClosed,
                    EventNotFound, ListsNotLocked, NotAuthorised, RateLimited, Submission, TooLarge, WrongToken,
                    clean_name, decklist_text, expected_players, folded, from_stamp, hash_token, is_id, new_id,
                    new_token, now, player_key, report_from_dict, shared_names, stamp, text_field, token_matches,
                    wait_words)
from ..errors import CardNotFoundError, DecklistError
from ..games import get_format
from .people import Person
from ..importers.reports import write_tournament_report
from ..judging import Judged, classify, difference_line, typed_line
from ..registered import MAX_EXTRA_CARDS, MAX_NOTE, Line, Registered, compare_counts, count_value
from ..rates import Rate
from ..report import InputProblem, Issue, Report
from ..stats import EXERTION, HAND, check_draw
from ..text import is_digits
from ..textlimits import parse_checked
from ..tournament import Arrival, Tournament, verdict
from .api import Catalog, unreadable
from .statsapi import require_stats

MAX_DECKLIST_BYTES = 256 * 1024  # a decklist is a few KB; a registration workbook is not a player's deck
REPORT_KINDS = ("xlsx", "csv", "json")
PASTED = "pasted"  # the source of a pasted decklist (CONTRACTS §6); decks stored earlier say "pasted decklist"
PASTED_BEFORE = "pasted decklist"
MAX_DRAW = 1000
MAX_LISTED = 500  # events listed at /desk
Decklist = Union[str, Sequence[RawDeck], Report]


RateLimit = Rate  # the desk's submissions per address: the one rate of deckcheck.rates


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
    checks: tuple[dict[str, Any], ...] = ()  # the deck checks of this player, oldest first
    unverified: int = 0  # how many rules card data kept from deciding (CONTRACTS §3 revision 3)
    name_shared: bool = False  # another player gave the same name (one of them is numbered: "Anna (2)")
    provisional: str = ""  # an unreadable deck's verdict on the lines that read (Report.provisional_text)

    @property
    def check_outcome(self) -> str:
        """"", "matches", or "differs" (the newest check's)."""
        if not self.checks:
            return ""
        return "matches" if self.checks[-1].get("matches") else "differs"


def provisional_text(report_json: str | None) -> str:
    """Report.provisional_text of a stored report ("" for a deck that read, or one stored before)."""
    try:
        data = json.loads(report_json or "{}")
    except ValueError:
        return ""
    if not isinstance(data, dict) or not isinstance(data.get("provisional"), dict) or not data.get("input_errors"):
        return ""
    return report_from_dict(data).provisional_text


def unverified_count(report_json: str | None) -> int:
    """How many rules card data kept from deciding in a stored report (one stored before the count was kept:
    from its HL-DATA-UNKNOWN issues)."""
    try:
        data = json.loads(report_json or "{}")
    except ValueError:
        return 0
    if not isinstance(data, dict):
        return 0
    if isinstance(data.get("unverified"), list):
        return len(data["unverified"])
    undecided = (Issue.from_dict(i).undecided for i in data.get("issues") or [] if isinstance(i, dict))
    return len({rule for rule in undecided if rule is not None})


class Desk:
    """The tournament desk on one database (SQLite or PostgreSQL; several processes may share it)."""

    def __init__(self, db_url: str | None = None, catalog: Catalog | None = None,
                 rate_limit: RateLimit | None = None):
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
    def create_event(self, name: object, format: str, deadline: datetime | None = None,
                     expected: object = (),
                     tz_offset: int = 0, owner_id: int | None = None
                     ) -> tuple[Event, str]:
        """A new event and its organiser token (shown once; only its hash is stored). DeskError when the name
        (or an expected player's) is empty, too long or not text. `tz_offset`: the organiser's time zone,
        minutes east of UTC."""
        fmt = get_format(format)  # UnknownFormatError: a typed input error
        event = Event(id=new_id(), name=clean_name(name, "event name", MAX_EVENT_NAME), format=fmt.name,
                      deadline=deadline, created_at=now(),
                      # a JSON body's value, whatever it is: expected_players refuses what is not names
                      expected=tuple(expected_players(cast("str | list[str] | None", expected))),
                      closed_at=None, tz_offset=tz_offset, owner_id=owner_id)
        token = new_token()
        self.tables.add_event(event, hash_token(token))
        return event, token

    def events_of(self, person: Person) -> list[Event]:
        """The events this person may open (their own; on a personal server every event), newest first."""
        return [e for e in self.tables.events(MAX_LISTED) if person.owns(e.owner_id)]

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
        if limit.off:
            return
        now = time.time()
        if self.tables.hit(address or "-", limit.window(now)) > limit.count:
            wait, words = wait_words(limit.wait(now))
            raise RateLimited(f"more than {limit.count} submissions from your address within "
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
            text = decklist
            try:
                decklist, shown = [parse_checked(text, source)], text
            except DecklistError as exc:  # past a limit of text decklists: an unreadable deck, as for a file
                decklist = unreadable(source, exc, event.format)
        if isinstance(decklist, Report):
            report = decklist
            report.registered = Registered((), tuple(f"{e.text}: {e.message}" for e in report.input_errors))
        else:
            raws = list(decklist)
            shown = shown or "".join(decklist_text(r) for r in raws)
            if len(raws) != 1:
                report = Report(deck=source, format=event.format, input_errors=[InputProblem(
                    None, source, f"the file holds {len(raws)} decklists; submit only yours")])
                report.registered = Registered((), (f"{source}: {len(raws)} decklists",))
            else:
                report = check_raw(raws[0], self.catalog.index, event.format)
                if report.input_errors:
                    report.provisional = provisional(raws[0], self.catalog.index, event.format)
        report.deck, report.player = source, player
        report.format = report.format or event.format
        return report, shown

    def submit_deck(self, event_id: str, player: object, decklist: Decklist, source: str = PASTED,
                    address: str = "", replaces: object = None) -> Submission:
        """Check and store a player's deck. EventClosed after the deadline.

        `decklist` as for check_deck; `source` names it in reports (the uploaded file's name, or pasted text).
        `replaces`: the id of one of the player's earlier decks (their private link): this deck replaces it, and
        counts in its place. Without it the deck is a new player's, even under a name another submission holds
        (a name is not a key: that name is numbered, `Anna (2)`, and the organiser sees both flagged).
        """
        event = self.event(event_id)
        if not event.is_open():
            raise EventClosed("the event is closed: submissions are no longer taken")
        name = clean_name(player, "player name", MAX_PLAYER_NAME)
        entry = self.entry_of(event_id, replaces)
        self.check_rate(address)
        report, shown = self.check_deck(event, name, decklist, source)
        deck_id, moment = new_id(), now()
        data = report.as_dict() | {"player": name}
        if report.registered is not None:
            data["registered"] = report.registered.as_dict()
        if report.provisional is not None:
            data["provisional"] = report.provisional.as_dict()
        number, stored, key = self.tables.add_submission({
            "id": deck_id, "event_id": event_id, "player": name, "player_key": player_key(name),
            "submitted_at": moment, "address": address[:100], "source": source, "text": shown,
            "verdict": verdict(report), "errors": len(report.errors), "warnings": len(report.warnings),
            "persona": report.persona or "", "report": json.dumps(data, ensure_ascii=False)}, entry)
        first = self.tables.current_of(event_id, key)
        shown_name = event.display_name(first.player if first is not None else stored)
        report.player = shown_name
        return Submission(deck_id, event_id, shown_name, moment, source, shown, report, number, spelling=stored,
                          key=key, name_taken=name if stored != name else "")

    def entry_of(self, event_id: str, deck_id: object) -> str | None:
        """The entry key of a player's earlier deck (the id of their private link), None when none is named;
        DeskError (404) when it is not a deck of this event."""
        if deck_id is None or deck_id == "":
            return None
        if not isinstance(deck_id, str):
            raise DeskError(f"replaces must be the id of one of your decks (text), not {deck_id!r:.40}")
        return self.submission(event_id, deck_id).key

    def counting(self, event: Event, player: object) -> Submission | None:
        """The deck that counts for a player (by name, folded as names are), None when they sent none."""
        key = self.key_of(event, player)
        found = self.tables.current_of(event.id, key) if key is not None else None
        return self._shown(event, found) if found is not None else None

    def key_of(self, event: Event, player: object) -> str | None:
        """The entry of a player by name: the name's own key, else the entry whose shown name folds to the name
        (the expected spelling "Björn Svensson" finds the deck sent as "bjorn svensson"); None for no player."""
        name = clean_name(player, "player name", MAX_PLAYER_NAME)
        current = {r.player_key: event.display_name(r.first_spelling or r.player)
                   for r in self.tables.current(event.id)}
        if player_key(name) in current:
            return player_key(name)
        return next((k for k, shown in current.items() if folded(shown) == folded(name)), None)

    def counting_of(self, event: Event, deck_id: object) -> Submission | None:
        """The deck that counts for the player whose earlier deck this is (their private link), None without one."""
        key = self.entry_of(event.id, deck_id)
        found = self.tables.current_of(event.id, key) if key is not None else None
        return self._shown(event, found) if found is not None else None

    @staticmethod
    def _shown(event: Event, submission: Submission) -> Submission:
        """The submission under the player's display name (the expected player's spelling, else their first)."""
        return replace(submission, player=event.display_name(submission.player))

    def submission(self, event_id: str, deck_id: str) -> Submission:
        """One submitted deck by its id (the player's private link); EventNotFound when there is none."""
        found = self.tables.submission(event_id, deck_id) if is_id(event_id) and is_id(deck_id) else None
        if found is None:
            raise EventNotFound(f"no deck {deck_id[:40]!r} in this event")
        return self._shown(self.event(event_id), found)

    # -- the organiser --------------------------------------------------------------------------
    def rows(self, event_id: str, verdicts: tuple[str, ...] = (), search: str = "") -> list[Row]:
        """The organiser's table: each player's current deck, filtered by verdict and by words in name or persona."""
        words = search.casefold().split()
        event = self.event(event_id)
        checks = self.checks_by_entry(event_id)
        current = self.tables.current(event_id)
        shared = shared_names([r.player_key for r in current])
        rows = [Row(r.id, event.display_name(r.first_spelling or r.player), from_stamp(r.submitted_at), r.verdict,
                    r.errors, r.warnings, r.persona, r.submissions,
                    checks=tuple(checks.get(r.player_key, ())), unverified=unverified_count(r.report),
                    name_shared=r.player_key in shared, provisional=provisional_text(r.report))
                for r in current]
        if verdicts:
            rows = [r for r in rows if r.verdict in verdicts]
        if words:
            rows = [r for r in rows if all(w in f"{r.player} {r.persona}".casefold() for w in words)]
        return rows

    def missing(self, event: Event, rows: list[Row] | None = None) -> list[str]:
        """Expected players who have not submitted a deck yet (rows: the event's table, when already read), their
        names folded as names are matched (case, accents, spacing)."""
        have = {folded(r.player) for r in (self.rows(event.id) if rows is None else rows)}
        return [name for name in event.expected if folded(name) not in have]

    def list_submissions(self, event_id: str) -> list[Submission]:
        """Every player's current deck in full (under their display name), in order of arrival."""
        event = self.event(event_id)
        return [self._shown(event, s) for s in self.tables.current_submissions(event_id)]

    def history(self, submission: Submission) -> list[Submission]:
        """Every deck of the player who sent this one (its entry, never another player's of the same name), oldest
        first (to compare what changed)."""
        event = self.event(submission.event_id)
        return [self._shown(event, s) for s in self.tables.history(submission.event_id, submission.key)]

    def compare(self, event_id: str, before_id: str, after_id: str, hand: int | None = None,
                exertion: int | None = None) -> DeckDiff:
        """Two submitted decks of an event compared as `deckcheck diff` compares decklists: cards added and
        removed, verdicts and odds before and after (a player's earlier deck against their later one).

        A deck with lines that do not resolve is compared by the lines that do (the page lists the others:
        `unread`). EventNotFound when either id is not a deck of the event; DeckcheckError for a format
        without statistics (and a DecklistError for a kept text past the limits of text decklists).
        """
        hand = HAND if hand is None else hand
        exertion = EXERTION if exertion is None else exertion
        check_draw("hand", hand)
        check_draw("exertion", exertion)
        event = self.event(event_id)
        sides = []
        for deck_id in (before_id, after_id):
            submission = self.submission(event_id, deck_id)
            source = f"{submission.player}, {event.when(submission.submitted_at, seconds=True)}"
            raw = parse_checked(submission.text, source)  # a text kept before the limits held: DecklistError
            fmt = require_stats(choose_format(raw, submission.report.format or event.format))
            deck, problems = build_deck(raw, self.catalog.index(fmt), fmt)
            sides.append((deck, fmt, problems))
        (before, before_fmt, unread_before), (after, after_fmt, unread_after) = sides
        diff = diff_decks(before, before_fmt, after, after_fmt, hand, exertion)
        return replace(diff, before=replace(diff.before, input_errors=list(unread_before)),
                       after=replace(diff.after, input_errors=list(unread_after)))

    def tournament(self, event_id: str) -> Tournament:
        """The players' current decks as the Tournament that `deckcheck tournament check` reports, with when
        each came, how many decks the player sent, and the deck checks made of it."""

        event = self.event(event_id)
        checks = self.checks_by_entry(event_id)
        current = self.list_submissions(event_id)
        return Tournament(reports=[replace(s.report, player=s.player) for s in current],
                          arrivals=[Arrival(event.iso(s.submitted_at), s.number,
                                            [public_check(c) for c in checks.get(s.key, [])]) for s in current])

    # -- deck checks ----------------------------------------------------------------------------
    def locked(self, event_id: str, player: object) -> tuple[Event, Submission]:
        """The event and a player's locked list (the deck that counts); EventClosed's twin DeskError (409) while
        submissions are still taken, EventNotFound when the player sent no deck."""
        event = self.event(event_id)
        if event.locked_at is None:
            raise ListsNotLocked("the lists are not locked yet: deck checks start at the deadline or when the "
                                 "organiser closes the event")
        found = self.counting(event, player)
        if found is None:
            raise EventNotFound(f"no deck from {str(player)[:40]!r} in this event")
        return event, found

    def deck_check(self, event_id: str, player: object, judge: object, counts: object, note: object = "",
                   extra: object = None) -> dict[str, Any]:
        """Count a player's locked list at the table and keep the result: who, when, the counts, the differences,
        the note. `counts`: {card name as in a decklist: copies}; a registered card not named counts 0.

        DeskError (400) naming the bad field for a count that is not a whole number from 0 to 999, a card no
        card of the format is named, an empty judge's name; nothing is stored then."""
        event, submission = self.locked(event_id, player)
        judge_name = clean_name(judge, "judge's name", MAX_PLAYER_NAME)
        note_text = text_field(note, "note").strip()
        if len(note_text) > MAX_NOTE:
            raise DeskError(f"the note is {len(note_text)} characters long; at most {MAX_NOTE} are allowed")
        counted, sections = self.read_counts(event, submission, counts)
        judged = self.judge(event, submission, counted, sections)
        check_id, moment = new_id(), now()
        data = {"id": check_id, "player": submission.player, "player_key": submission.key,
                "deck_id": submission.id, "fingerprint": submission.fingerprint, "judge": judge_name,
                "at": event.iso(moment), "matches": judged.matches, "differences": judged.differences,
                "totals": judged.totals, "counts": counted, "note": note_text, "lines": judged.lines,
                "as_counted": judged.as_counted}
        self.tables.add_deckcheck({"id": check_id, "event_id": event.id, "player_key": data["player_key"],
                                   "deck_id": submission.id, "at": stamp(moment), "matches": judged.matches,
                                   "data": json.dumps(data, ensure_ascii=False)})
        return public_check(data)

    def judge(self, event: Event, submission: Submission, counted: dict[str, int],
              sections: dict[str, str]) -> Judged:
        """A deck as counted against its locked list: the differences, each a problem of the list or of the deck
        (deckcheck.judging.classify), the lines that say them, the section totals and the counted deck's verdict."""
        comparison = compare_counts(submission.registered, counted, sections)
        as_counted = self.as_counted(event, submission, counted, sections)
        report = submission.report
        differences = classify(comparison.differences, report.legal, sorted({i.rule for i in report.errors}),
                               submission.registered.not_read, as_counted["verdict"] == "legal")
        totals_lines = comparison.lines()[len(comparison.differences):]
        return Judged(comparison.matches, differences, [difference_line(d) for d in differences] + totals_lines,
                      comparison.totals, as_counted)

    def card_types(self, event: Event, submission: Submission) -> dict[str, str]:
        """The type of each card the locked list names ("" for a name no card of the format has now), for the
        counting order."""
        index = self.catalog.index(get_format(submission.report.format or event.format))
        types: dict[str, str] = {}
        for line in submission.registered.lines:
            try:
                types[line.card] = index.resolve(line.card.partition(" @ ")[0], suggest=False).type or ""
            except CardNotFoundError:
                types[line.card] = ""
        return types

    def as_counted(self, event: Event, submission: Submission, counted: dict[str, int],
                   sections: dict[str, str]) -> dict[str, Any]:
        """The verdict of the deck as counted (its own check, in the list's sections): {"verdict", "rules"}, the
        rules it breaks ("as counted: NOT LEGAL — HL-TITLE-MAX")."""
        left = dict(counted)
        lines = [Line(line.section, line.card, left.pop(line.card, 0)) for line in submission.registered.lines]
        lines += [Line(sections.get(card, ""), card, n) for card, n in left.items()]
        text = Registered(tuple(line for line in lines if line.quantity), ()).text()
        if not text:
            return {"verdict": "empty", "rules": []}
        report = check_raw(parse_checked(text, "as counted"), self.catalog.index,
                           submission.report.format or event.format)
        return {"verdict": verdict(report), "rules": sorted({i.rule for i in report.errors})}

    def read_counts(self, event: Event, submission: Submission, counts: object) -> tuple[dict[str, int],
                                                                                        dict[str, str]]:
        """The counted copies by the registered list's card names, and the section of each counted card the
        list does not hold; DeskError for a name no card has, or a count that is not a whole number.
        `counts`: {name: count} (the API's), or (name, count) pairs (a form's; one card may come twice)."""
        if isinstance(counts, dict):
            counts = list(counts.items())
        if not isinstance(counts, list) or not all(isinstance(p, tuple) and len(p) == 2 for p in counts):
            raise DeskError('counts must be an object like {"Thrust": 3}')  # (JSON gives no tuples)
        registered = {line.card.casefold(): line.card for line in submission.registered.lines}
        if len(counts) > len(registered) + MAX_EXTRA_CARDS:
            raise DeskError(f"{len(counts)} cards counted; the list holds {len(registered)} and at most "
                            f"{MAX_EXTRA_CARDS} others may be counted")
        fmt = get_format(submission.report.format or event.format)
        index = None
        counted: dict[str, int] = {}
        sections: dict[str, str] = {}
        for written, value in counts:
            name = clean_name(written, "card name", 200)
            card = registered.get(name.casefold())
            if card is not None:
                counted[card] = counted.get(card, 0) + count_value(value, name)
                continue
            index = index or self.catalog.index(fmt)
            n, found = typed_card(index, name, "" if value is None else str(count_value(value, name)), registered)
            card = registered.get(found.name.casefold(), found.name)
            if card not in registered.values():
                sections[card] = fmt.section_of(None, found) or next(iter(fmt.sections), "")
            counted[card] = counted.get(card, 0) + n
        return counted, sections

    def checks_by_entry(self, event_id: str) -> dict[str, list[dict[str, Any]]]:
        """The event's deck checks by the entry key of the player checked, oldest first (as stored)."""
        checks: dict[str, list[dict[str, Any]]] = {}
        for c in self.tables.deckchecks(event_id):
            checks.setdefault(c.get("player_key", ""), []).append(c)
        return checks

    def deckchecks(self, event_id: str) -> list[dict[str, Any]]:
        """Every deck check of the event, oldest first (their JSON objects)."""
        self.event(event_id)
        return [public_check(c) for c in self.tables.deckchecks(event_id)]

    def draw(self, event_id: str, n: object, seed: object = None) -> dict[str, Any]:
        """A fair draw of `n` players for deck checks among those with a locked list not yet checked: the same
        seed (shown) gives the same draw. DeskError for an n that is not a whole number from 1 to 1000."""
        if isinstance(n, bool) or not isinstance(n, (int, str)) or not is_digits(str(n).strip()) \
                or not 1 <= int(n) <= MAX_DRAW:
            raise DeskError(f"n must be a whole number from 1 to {MAX_DRAW}, not {n!r:.40}")
        if seed is None or seed == "":
            seed = secrets.token_hex(4)
        if not isinstance(seed, str) or len(seed) > 64 or not seed.isprintable():
            raise DeskError(f"seed must be text of at most 64 printable characters, not {seed!r:.40}")
        event = self.event(event_id)
        checked = {c.get("player_key") for c in self.tables.deckchecks(event_id)}
        candidates = sorted((s.key, s.player) for s in self.list_submissions(event_id) if s.key not in checked)
        chosen = random.Random(f"{event.id}:{seed}").sample(candidates, min(int(n), len(candidates)))
        return {"seed": seed, "players": [name for _key, name in chosen], "candidates": len(candidates)}

    def report_file(self, event_id: str, kind: str) -> bytes:
        """report.xlsx, .csv or .json, written by the CLI's own report writer."""
        if kind not in REPORT_KINDS:
            raise EventNotFound(f"no report {kind[:20]!r}; reports are {', '.join(REPORT_KINDS)}")
        tournament = self.tournament(event_id)
        with tempfile.TemporaryDirectory(prefix="deckcheck-desk-") as folder:
            path = Path(folder) / f"report.{kind}"
            write_tournament_report(path, tournament)
            return path.read_bytes()


def typed_card(index: CardIndex, name: str, count: str, registered: dict[str, str]) -> tuple[int, Card]:
    """The copies and the card of a name the judge typed, read as a decklist line ("2 Thrust", "Thrustt" misspelt):
    a reading naming a card of the list wins, then one naming any card of the format; CountedCardUnknown with the
    suggestions of the name as written when none does (`count`: the Counted field, "" when the line says it)."""
    read = typed_line(name, count)
    if isinstance(read, Refused):
        raise DeskError(f"card {name[:60]!r}: {read}")
    for qty, reading in read.readings:
        if reading.casefold() in registered:
            return qty, index.resolve(registered[reading.casefold()], suggest=False)
    for qty, reading in read.readings:
        try:
            return qty, index.resolve(reading, read.set_code, suggest=False)
        except CardNotFoundError:
            continue
    try:
        return read.readings[0][0], index.resolve(read.name, read.set_code)
    except CardNotFoundError as exc:
        raise CountedCardUnknown(name, exc.reason, exc.suggestions) from None


def public_check(data: dict[str, Any]) -> dict[str, Any]:
    """A stored deck check as the API answers it (without the key it is found by)."""
    return {k: v for k, v in data.items() if k != "player_key"}
