"""The tournament desk's pure parts: secret tokens and random ids, player names, deadlines, stored reports.

Storage lives in `deckcheck.db.events`, the service in `deckcheck.library.desk`, the pages in `deckcheck.web.desk`.
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import hmac
import math
import re
import secrets
import unicodedata
from dataclasses import dataclass
from typing import Any, Mapping

from .decklist import RawDeck
from .errors import DeckcheckError
from .registered import Registered
from .report import InputProblem, Issue, Report
from .swiss import TIEBREAKERS
from .tournament import verdict

TOKEN_BYTES = 32  # organiser tokens: 256 random bits, stored only as their SHA-256
ID_BYTES = 12  # event and deck ids: 96 random bits, so ids cannot be enumerated or guessed
MAX_PLAYER_NAME = 80
MAX_EVENT_NAME = 200
MAX_EXPECTED_PLAYERS = 2000
_SPACES = re.compile(r"\s+")
_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what new_id makes (with room to spare); nothing else is looked up
# zero-width and direction-changing characters: in a name they hide it or turn the text around it
_INVISIBLE = frozenset("\u200b\u200e\u200f\u2060\ufeff\u061c") | frozenset(map(chr, range(0x202A, 0x202F))) \
    | frozenset(map(chr, range(0x2066, 0x206A)))
MAX_OFFSET = 14 * 60  # minutes: the furthest time zones from UTC
EARLIEST_DEADLINE, LATEST_DEADLINE = 1970, 9998  # years: a deadline is stored as fixed-width text


class DeskError(DeckcheckError):
    """A request the desk refuses (each kind its own type: web/errors.py gives each its HTTP status)."""


class EventNotFound(DeskError):
    """No event has this id (or it is not this organiser's)."""


class EventClosed(DeskError):
    """The event is closed or past its deadline: no more submissions."""


class CountedCardUnknown(DeskError):
    """A card a judge typed that names no card of the format (or several): `suggestions`, as a decklist's."""

    def __init__(self, text: str, reason: str, suggestions: list[str]):
        hint = f"; did you mean: {', '.join(suggestions)}?" if suggestions else ""
        super().__init__(f"card {text[:60]!r}: {reason}{hint}")
        self.text = text
        self.suggestions = suggestions


class ListsNotLocked(DeskError):
    """Deck checks count a locked list: not before the deadline or the organiser's close."""


class RoundRefused(DeskError):
    """A round, result or drop the state of the event refuses (the last round lacks results; the top cut is over)."""


class RoundTaken(DeskError):
    """Another request started this round meanwhile: nothing was stored."""


class NotAuthorised(DeskError):
    """No organiser token was given."""


class WrongToken(DeskError):
    """An organiser token was given but it is not this event's."""


class NotAJudge(WrongToken):
    """A signed-in account the event's organiser did not name a judge of it (403)."""


class RateLimited(DeskError):
    """Too many submissions from one address within the window; `retry_after`: the seconds until it ends."""

    def __init__(self, message: str, retry_after: int = 60):
        super().__init__(message)
        self.retry_after = retry_after


def wait_words(seconds: float) -> tuple[int, str]:
    """The whole seconds to wait (at least 1) and the same in words ("40 s", "12 min 5 s"), for a 429."""
    whole = max(1, math.ceil(seconds))
    minutes, rest = divmod(whole, 60)
    return whole, (f"{minutes} min {rest} s" if minutes and rest else f"{minutes} min" if minutes else f"{rest} s")


class TooLarge(DeskError):
    """A decklist over the desk's size limit."""


def new_id() -> str:
    """A random, URL-safe id for an event or a submitted deck."""
    return secrets.token_urlsafe(ID_BYTES)


def new_token() -> str:
    """A new organiser token: 32 random bytes, URL-safe."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def hash_token(token: str) -> str:
    """The stored form of a token (SHA-256, hex): a random 256-bit token needs no slow hash or salt."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str, stored_hash: str) -> bool:
    """Whether a token is the one whose hash is stored, compared in constant time."""
    return hmac.compare_digest(hash_token(token), stored_hash)


def is_id(text: object) -> bool:
    """Whether text could be an event or deck id (anything else is answered "not found" without a look-up)."""
    return isinstance(text, str) and _ID.fullmatch(text) is not None


def clean_name(text: object, what: str, limit: int) -> str:
    """A name as shown: NFC, spaces collapsed; no control, surrogate, zero-width or direction-changing
    characters (they hide a name or turn the text around it); DeskError when empty, too long or not text."""
    if text is not None and not isinstance(text, str):
        raise DeskError(f"{what} must be text, not {_json_kind(text)}")
    name = "".join(" " if unicodedata.category(c) in ("Cc", "Zl", "Zp") else c for c in
                   unicodedata.normalize("NFC", text or "")
                   if c not in _INVISIBLE and unicodedata.category(c) != "Cs")
    name = _SPACES.sub(" ", name).strip()
    if not name:
        raise DeskError(f"{what} is empty; type the {what}")
    if len(name) > limit:
        raise DeskError(f"{what} {name[:40]!r}... is {len(name)} characters long; at most {limit} are allowed")
    return name


def _json_kind(value: object) -> str:
    """What a JSON value is, in words ("a list"), for messages about a field of the wrong kind."""
    kinds = {dict: "an object", list: "a list", bool: "true or false", int: "a number", float: "a number"}
    return kinds.get(type(value), type(value).__name__)


def text_field(value: object, what: str) -> str:
    """A JSON field that must be text (or missing): its text; DeskError naming the field otherwise."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise DeskError(f"{what} must be text, not {_json_kind(value)}")
    return value


def player_key(name: str) -> str:
    """Who a player is: the name folded, so 'Anna  Smith' and 'anna smith' resubmit the same deck."""
    return _SPACES.sub(" ", name).strip().casefold()


def folded(name: str) -> str:
    """A name as names are matched: case, accents and spacing folded ("Björn  Svensson" -> "bjorn svensson")."""
    decomposed = unicodedata.normalize("NFKD", name)
    return player_key("".join(c for c in decomposed if not unicodedata.combining(c)))


def numbered(name: str, n: int) -> str:
    """The name of the n-th player to give a name (`Anna`, then `Anna (2)`): a name is not a key, and a player who
    types a name another submission holds gets a deck of their own under it, numbered."""
    return name if n <= 1 else f"{name} ({n})"


_NUMBERED = re.compile(r"^(.*) \(([2-9]|[1-9][0-9]+)\)$")


def shared_names(keys: list[str]) -> set[str]:
    """The entry keys whose name more than one player gave (`anna` and `anna (2)`): the organiser sees them
    flagged."""
    def base(key: str) -> str:
        found = _NUMBERED.match(key)
        return found.group(1) if found else key
    counts: dict[str, int] = {}
    for key in keys:
        counts[base(key)] = counts.get(base(key), 0) + 1
    return {key for key in keys if counts[base(key)] > 1}


def expected_players(text: str | list[str] | None) -> list[str]:
    """The expected players from one name per line (or a list); duplicates by player_key dropped."""
    if text is not None and not isinstance(text, (str, list, tuple)):
        raise DeskError(f"expected players must be a list of names or one name per line, not {_json_kind(text)}")
    names = text.splitlines() if isinstance(text, str) else list(text or [])
    seen: dict[str, str] = {}
    for raw in names:
        if not isinstance(raw, str):
            raise DeskError(f"expected players must be names (text), not {_json_kind(raw)}")
        if not raw.strip():
            continue
        name = clean_name(raw, "player name", MAX_PLAYER_NAME)
        seen.setdefault(player_key(name), name)
    if len(seen) > MAX_EXPECTED_PLAYERS:
        raise DeskError(f"{len(seen)} expected players; at most {MAX_EXPECTED_PLAYERS} are allowed")
    return list(seen.values())


def now() -> _dt.datetime:
    """The current time in UTC."""
    return _dt.datetime.now(_dt.timezone.utc)


def stamp(moment: _dt.datetime) -> str:
    """A UTC time as stored: fixed-width ISO text, so that text order is time order in any database."""
    return moment.astimezone(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def from_stamp(text: str) -> _dt.datetime:
    """A stored time back as an aware UTC datetime."""
    return _dt.datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=_dt.timezone.utc)


def parse_deadline(text: str | None, offset_minutes: int | None = None) -> _dt.datetime | None:
    """A deadline from ISO 8601 text; without a zone it is UTC, or local time `offset_minutes` east of UTC.

    DeskError for text that is not a date and time, and for a year before 1970 or after 9998."""
    if text is None or (isinstance(text, str) and not text.strip()):
        return None
    if not isinstance(text, str):
        raise DeskError(f"deadline must be text like 2026-12-05T09:30+01:00, not {_json_kind(text)}")
    try:
        moment = _dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
        if moment.tzinfo is None:
            zone = _dt.timezone(_dt.timedelta(minutes=offset_minutes or 0))
            moment = moment.replace(tzinfo=zone)
        moment = moment.astimezone(_dt.timezone.utc)
    except (ValueError, OverflowError):  # OverflowError: a zone that moves it past year 1 or 9999
        raise DeskError(f"deadline {text[:40]!r} is not a date and time (2026-12-05T09:30)") from None
    if not EARLIEST_DEADLINE <= moment.year <= LATEST_DEADLINE:
        raise DeskError(f"deadline {text[:40]!r} is not between the years {EARLIEST_DEADLINE} and {LATEST_DEADLINE}")
    return moment


def parse_offset(value: object) -> int:
    """An event's UTC offset in minutes east of UTC from "+01:00", "-05:30", "Z" or a number of minutes;
    DeskError for anything else or beyond ±14:00."""
    if value is None or value == "":
        return 0
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise DeskError(f"utc_offset must be text like +01:00, not {_json_kind(value)}")
    if isinstance(value, int):
        minutes = value
    else:
        found = re.fullmatch(r"([+-])([0-9]{2}):?([0-9]{2})|[Zz]|(-?[0-9]{1,3})", value.strip())
        if found is None:
            raise DeskError(f"utc_offset {value[:40]!r} is not an offset like +01:00 or -05:30")
        if found.group(4) is not None:
            minutes = int(found.group(4))
        elif found.group(1):
            minutes = (int(found.group(2)) * 60 + int(found.group(3))) * (-1 if found.group(1) == "-" else 1)
        else:
            minutes = 0
    if not -MAX_OFFSET <= minutes <= MAX_OFFSET:
        raise DeskError(f"utc_offset {value!r:.40} is beyond ±14:00")
    return minutes


def deadline_offset(text: object) -> int | None:
    """The UTC offset (minutes) a deadline was written with, None when it names no zone."""
    if not isinstance(text, str) or not text.strip():
        return None
    try:
        moment = _dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    offset = moment.utcoffset()
    return None if offset is None else int(offset.total_seconds() // 60)


def zone(offset_minutes: int) -> _dt.timezone:
    """The fixed time zone `offset_minutes` east of UTC."""
    return _dt.timezone(_dt.timedelta(minutes=offset_minutes))


def report_from_dict(data: Mapping[str, Any]) -> Report:
    """A Report back from its §3 object (as stored with a submission, with its cleaned list)."""
    issues = [Issue.from_dict(i) for i in data.get("issues", [])]
    problems = [InputProblem(e.get("line"), e.get("text", ""), e.get("message", ""), tuple(e.get("suggestions", ())))
                for e in data.get("input_errors", [])]
    return Report(deck=data.get("deck", ""), format=data.get("format", ""), persona=data.get("persona"),
                  counts=dict(data.get("counts", {})), issues=issues, input_errors=problems,
                  player=data.get("player"), notices=list(data.get("notices", [])),
                  registered=Registered.from_dict(data["registered"]) if "registered" in data else None,
                  provisional=report_from_dict(data["provisional"]) if isinstance(data.get("provisional"), dict)
                  else None)


def decklist_text(raw: RawDeck) -> str:
    """A decklist read from a sheet or JSON file written out as text, for the judges' printout."""
    out = []
    if raw.declared_format:
        out.append(f"Format: {raw.declared_format}")
    section = None
    for line in sorted(raw.lines, key=lambda r: r.line):
        if line.section != section and line.section:
            out.append(f"\n{line.section.title()}:")
            section = line.section
        qty, name = line.readings[0]
        out.append(f"{qty} {name}" + (f" [{line.set_code}]" if line.set_code else "")
                   + (f" @ {line.attach}" if line.attach else ""))
    if raw.players:
        out.append("\nPlayers:")
        out += [f"{p.name}: {p.hero}" for p in raw.players]
    for p in raw.problems:
        out.append(f"# line {p.line} not read: {p.text}")
    return "\n".join(out).strip() + "\n"


@dataclass(frozen=True)
class Event:
    """One event of the desk, as the organiser set it up."""

    id: str
    name: str
    format: str
    deadline: _dt.datetime | None
    expected: tuple[str, ...]
    created_at: _dt.datetime
    closed_at: _dt.datetime | None
    tz_offset: int = 0  # minutes east of UTC: the organiser's time zone, for times on pages, printouts, reports
    tiebreakers: tuple[str, ...] = TIEBREAKERS  # the standings' order after points
    owner_id: int | None = None  # the account that made it (CONTRACTS §9); None: the server's keeper

    def is_open(self, moment: _dt.datetime | None = None) -> bool:
        """Whether submissions are taken: not closed, and the deadline (if any) not passed."""
        moment = moment or now()
        return self.closed_at is None and (self.deadline is None or moment < self.deadline)

    @property
    def locked_at(self) -> _dt.datetime | None:
        """When the lists were locked (the close, or the deadline once passed); None while submissions are taken."""
        if self.is_open():
            return None
        if self.closed_at is not None and (self.deadline is None or self.closed_at < self.deadline):
            return self.closed_at
        return self.deadline

    def local(self, moment: _dt.datetime) -> _dt.datetime:
        """A time in the event's time zone."""
        return moment.astimezone(zone(self.tz_offset))

    def when(self, moment: _dt.datetime, seconds: bool = False) -> str:
        """A time as people at the event read it: "2026-12-05 09:30 (UTC+01:00)"."""
        local = self.local(moment)
        return local.strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M") + f" ({self.zone_name})"

    def words(self, moment: _dt.datetime | str) -> str:
        """A time as people say it, in the event's time zone: "Tuesday 1 December 2026 at 22:47 (UTC+01:00)"
        (an ISO 8601 text too: a deck check's `at`; text that is not a time is given back as it is)."""
        if isinstance(moment, str):
            try:
                parsed = _dt.datetime.fromisoformat(moment)
            except ValueError:
                return moment
            moment = parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=_dt.timezone.utc)
        local = self.local(moment)
        return f"{local:%A} {local.day} {local:%B %Y} at {local:%H:%M} ({self.zone_name})"

    def clock(self, moment: _dt.datetime) -> str:
        """The time of day alone in the event's time zone ("09:30:12")."""
        return self.local(moment).strftime("%H:%M:%S")

    def iso(self, moment: _dt.datetime) -> str:
        """ISO 8601 with the event's offset, to the second (the reports' submitted_at)."""
        return self.local(moment).replace(microsecond=0).isoformat()

    @property
    def zone_name(self) -> str:
        """"UTC" or "UTC+01:00"."""
        if not self.tz_offset:
            return "UTC"
        sign = "+" if self.tz_offset > 0 else "-"
        return f"UTC{sign}{abs(self.tz_offset) // 60:02d}:{abs(self.tz_offset) % 60:02d}"

    def display_name(self, given: str) -> str:
        """How a player is shown: the expected player's spelling when the name folds to one (case, accents and
        spacing aside: "bjorn  svensson" is "Björn Svensson"), else as given."""
        key = folded(given)
        return next((name for name in self.expected if folded(name) == key), given)


@dataclass(frozen=True)
class Submission:
    """One submitted deck: who, when, the decklist as text, and its report as checked then."""

    id: str
    event_id: str
    player: str
    submitted_at: _dt.datetime
    source: str
    text: str
    report: Report
    number: int = 1  # how many decks this player has submitted so far (this one included)
    spelling: str = ""  # the name as typed with this deck, when `player` (the display name) differs
    key: str = ""  # the player's entry: their decks are those of this key (a name another player gave is numbered)
    name_taken: str = ""  # on the answer to a submission: the name typed, when another submission held it

    @property
    def registered(self) -> Registered:
        """The cleaned list of this deck (empty for a deck stored before cleaned lists were kept)."""
        return self.report.registered if self.report.registered is not None else Registered(())

    @property
    def fingerprint(self) -> str:
        """The short hash of the cleaned list ("" for a deck stored before cleaned lists were kept)."""
        return self.registered.fingerprint if self.report.registered is not None else ""

    @property
    def verdict(self) -> str:
        """legal, NOT LEGAL or unreadable (as in tournament reports)."""
        return verdict(self.report)
