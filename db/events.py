"""Tournament desk tables and their SQL: events, every submission kept, one current deck per player, rate counters.

Concurrency (SQLite and PostgreSQL alike, several server processes on one database):
- a submission is inserted only while its event is open, in one statement that re-reads the event
  (on PostgreSQL with FOR SHARE, so a concurrent close waits or wins, never half-wins);
- the current deck of a player is one row per (event, player) under a unique key: a new player claims
  the key of their name with ON CONFLICT DO NOTHING, and when another submission holds it, the name
  numbered ("anna (2)"); a resubmission (through the player's private link) locks its entry (FOR UPDATE)
  before the submission is stored: racing submissions never share an entry by accident and never fail,
  and one player's are stored one after the other, the last one counting;
- the rate limit counts in the database (one row per address and time window), so every process
  shares it.
"""
from __future__ import annotations

import json
from contextlib import contextmanager
from typing import Any, Iterator

from sqlalchemy import Connection, Engine, delete, func, insert, literal, or_, select, update
from sqlalchemy.exc import DBAPIError

from deckcheck.desk import (Event, EventClosed, EventNotFound, Submission, from_stamp, now, numbered, player_key,
                            report_from_dict, stamp)
from deckcheck.errors import DatabaseError
from deckcheck.swiss import TIEBREAKERS

from .engine import sqlite_path, trouble, writer_turn
from .models import CHECKS, ENTRIES, EVENTS, RATES, SUBMISSIONS, dialect_insert


def _event(row: Any) -> Event:
    return Event(id=row.id, name=row.name, format=row.format,
                 deadline=from_stamp(row.deadline) if row.deadline else None,
                 expected=tuple(json.loads(row.expected or "[]")), created_at=from_stamp(row.created_at),
                 closed_at=from_stamp(row.closed_at) if row.closed_at else None, tz_offset=row.tz_offset or 0,
                 tiebreakers=tuple(t for t in (row.tiebreakers or "").split(",") if t) or TIEBREAKERS,
                 owner_id=row.owner_id)


_SUBMISSION_COLUMNS = ("id", "event_id", "player", "player_key", "submitted_at", "source", "text", "report")


def _submission_query(*more: Any) -> tuple[Any, list[Any]]:
    """SELECT of submissions `s` (columns of _SUBMISSION_COLUMNS, then `more`, then first_spelling: the name a player
    first gave in the event, the one shown; later spellings that fold to it are kept, not shown). The caller joins
    and filters; `s` is the alias to name in its clauses."""
    s, f = SUBMISSIONS.alias("s"), SUBMISSIONS.alias("f")
    first = (select(f.c.player).where(f.c.event_id == s.c.event_id, f.c.player_key == s.c.player_key)
             .order_by(f.c.seq).limit(1).scalar_subquery().label("first_spelling"))
    return s, [*[s.c[c] for c in _SUBMISSION_COLUMNS], *more, first]


def _submission(row: Any, number: int = 1) -> Submission:
    first = getattr(row, "first_spelling", None) or row.player
    return Submission(id=row.id, event_id=row.event_id, player=first, submitted_at=from_stamp(row.submitted_at),
                      source=row.source, text=row.text, report=report_from_dict(json.loads(row.report)),
                      number=number, spelling=row.player, key=row.player_key)


@contextmanager
def _translated() -> Iterator[None]:
    """A database that stays locked past the wait (a long import holding SQLite's lock on a loaded machine), or a
    full or read-only disk: DatabaseError saying so (the web answers 503, try again), never a bug's 500."""
    try:
        yield
    except DBAPIError as exc:
        why = trouble(exc)
        if why is None:
            raise
        raise DatabaseError(f"the desk's database: {why}; nothing was changed") from exc


class EventTables:
    """The desk's SQL on one SQLAlchemy engine (the Store's: same database, same tables set-up)."""

    def __init__(self, engine: Engine):
        self.engine = engine

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        """A write transaction; on a SQLite file, writers take turns before they ask SQLite for its lock
        (deckcheck.db.engine.writer_turn: without it a few of forty submissions racing from two server processes
        waited seconds in SQLite's retry sleeps)."""
        path = sqlite_path(self.engine.url.render_as_string(hide_password=False))
        with _translated(), writer_turn(path), self.engine.begin() as con:
            yield con

    # -- events ---------------------------------------------------------------------------------
    def add_event(self, event: Event, token_hash: str) -> None:
        """Store a new event."""
        with self._writing() as con:
            con.execute(insert(EVENTS).values(
                id=event.id, name=event.name, format=event.format, tz_offset=event.tz_offset,
                deadline=stamp(event.deadline) if event.deadline else None,
                expected=json.dumps(list(event.expected), ensure_ascii=False), token_hash=token_hash,
                created_at=stamp(event.created_at), closed_at=None, tiebreakers=",".join(event.tiebreakers),
                owner_id=event.owner_id))

    def event(self, event_id: str) -> tuple[Event, str]:
        """The event and its token hash; EventNotFound when there is none."""
        table = EVENTS
        with self.engine.connect() as con:
            row = con.execute(select(table).where(table.c.id == event_id)).first()
        if row is None:
            raise EventNotFound(f"no event {event_id[:40]!r}")
        return _event(row), row.token_hash

    def events(self, limit: int) -> list[Event]:
        """The newest events, at most `limit` of them, newest first."""
        with self.engine.connect() as con:
            rows = con.execute(select(EVENTS).order_by(EVENTS.c.created_at.desc()).limit(limit)).all()
        return [_event(r) for r in rows]

    def close(self, event_id: str) -> Event:
        """Close the event now (a closed event stays closed); return it."""
        table = EVENTS
        with self._writing() as con:
            con.execute(update(table).where(table.c.id == event_id, table.c.closed_at.is_(None))
                        .values(closed_at=stamp(now())))
        return self.event(event_id)[0]

    # -- submissions ----------------------------------------------------------------------------
    def add_submission(self, values: dict[str, Any], entry: str | None = None) -> tuple[int, str, str]:
        """Store a submission while its event is open: a new player's first deck (`entry` None), or the next deck
        of the player whose entry key is `entry` (a resubmission through their private link).

        Returns how many decks the player has submitted (this one included), the name it is stored under and its
        entry key. A new player whose name another submission holds gets the name numbered ("Anna (2)"): a name is
        not a key, and a second player never joins the first one's decks. EventClosed when the event was closed or
        its deadline passed, even by a close racing this very call.

        The player's entry row is claimed or locked before the submission gets its sequence number, so a
        player's submissions are stored one after the other: the current deck, the newest in the
        history and the one whose count is highest are always the same.
        """
        values = dict(values, submitted_at=stamp(values["submitted_at"]))
        events, table, entries = EVENTS, SUBMISSIONS, ENTRIES
        with self._writing() as con:
            if entry is None:
                # the claim is the first write of the transaction: on SQLite it takes the database's write lock
                name, n = values["player"], 1
                while not self._claim(con, values["event_id"], name):
                    n += 1  # every key refused is another entry's, so at most one more than the event's entries
                    name = numbered(values["player"], n)
                values.update(player=name, player_key=player_key(name))
                if n > 1:
                    values["report"] = json.dumps(json.loads(values["report"]) | {"player": name}, ensure_ascii=False)
            else:
                values["player_key"] = entry
            key = (entries.c.event_id == values["event_id"]) & (entries.c.player_key == values["player_key"])
            # PostgreSQL: the entry's row locked, one submission at a time per player (on SQLite the first write)
            if con.execute(update(entries).where(key).values(submissions=entries.c.submissions)).rowcount != 1:
                raise EventNotFound("no deck of that private link in this event")
            source = select(*[literal(v, table.c[k].type) for k, v in values.items()]).where(
                events.c.id == values["event_id"], events.c.closed_at.is_(None),
                or_(events.c.deadline.is_(None), events.c.deadline > values["submitted_at"]))
            # FOR SHARE on PostgreSQL: a close of the event waits for this insert, or this insert sees the close
            add = insert(table).from_select(list(values), source.with_for_update(read=True)).returning(table.c.seq)
            inserted = con.execute(add).first()
            if inserted is None:
                con.rollback()
                self.event(values["event_id"])  # EventNotFound when there is no such event
                raise EventClosed("the event is closed: submissions are no longer taken")
            count = update(entries).where(key).values(seq=inserted[0], submissions=entries.c.submissions + 1)
            return con.execute(count.returning(entries.c.submissions)).scalar_one(), values["player"], \
                values["player_key"]

    @staticmethod
    def _claim(con: Connection, event_id: str, name: str) -> bool:
        """Make the entry of a new player named `name` (by its key); False when another submission holds it."""
        return con.execute(dialect_insert(con)(ENTRIES).values(event_id=event_id, player_key=player_key(name), seq=None,
                                                        submissions=0)
                           .on_conflict_do_nothing().returning(ENTRIES.c.id)).first() is not None

    def current(self, event_id: str) -> list[Any]:
        """Every player's current deck as a row (id, player, submitted_at, verdict, errors, warnings, persona,
        submissions, player_key, first_spelling, report), in order of arrival."""
        s, columns = _submission_query()
        first = columns[-1]
        e = ENTRIES.alias("e")
        stmt = (select(s.c.id, s.c.player, s.c.submitted_at, s.c.verdict, s.c.errors, s.c.warnings, s.c.persona,
                       e.c.submissions, e.c.player_key, first, s.c.report)
                .join_from(e, s, s.c.seq == e.c.seq).where(e.c.event_id == event_id).order_by(s.c.seq))
        with self.engine.connect() as con:
            return list(con.execute(stmt).all())

    def current_submissions(self, event_id: str) -> list[Submission]:
        """Every player's current deck in full, in order of arrival."""
        e = ENTRIES.alias("e")
        s, columns = _submission_query(e.c.submissions)
        stmt = select(*columns).join_from(e, s, s.c.seq == e.c.seq).where(e.c.event_id == event_id).order_by(s.c.seq)
        with self.engine.connect() as con:
            rows = con.execute(stmt).all()
        return [_submission(r, r.submissions) for r in rows]

    def submission(self, event_id: str, deck_id: str) -> Submission | None:
        """One submitted deck of the event (current or older), or None."""
        s, columns = _submission_query()
        n = SUBMISSIONS.alias("n")
        number = (select(func.count()).select_from(n)
                  .where(n.c.event_id == s.c.event_id, n.c.player_key == s.c.player_key, n.c.seq <= s.c.seq)
                  .scalar_subquery().label("number"))
        stmt = select(*columns, number).where(s.c.event_id == event_id, s.c.id == deck_id)
        with self.engine.connect() as con:
            row = con.execute(stmt).first()
        return _submission(row, row.number) if row is not None else None

    def current_of(self, event_id: str, key: str) -> Submission | None:
        """A player's current deck (by player_key), or None."""
        e = ENTRIES.alias("e")
        s, columns = _submission_query(e.c.submissions)
        stmt = (select(*columns).join_from(e, s, s.c.seq == e.c.seq)
                .where(e.c.event_id == event_id, e.c.player_key == key))
        with self.engine.connect() as con:
            row = con.execute(stmt).first()
        return _submission(row, row.submissions) if row is not None else None

    def history(self, event_id: str, key: str) -> list[Submission]:
        """Every deck of one player's entry (its key: Submission.key) in the event, oldest first."""
        s, columns = _submission_query()
        stmt = select(*columns).where(s.c.event_id == event_id, s.c.player_key == key).order_by(s.c.seq)
        with self.engine.connect() as con:
            rows = con.execute(stmt).all()
        return [_submission(r, n) for n, r in enumerate(rows, start=1)]

    def count_submissions(self, event_id: str) -> int:
        """How many decks were submitted to the event in all (every resubmission counted)."""
        with self.engine.connect() as con:
            return int(con.execute(select(func.count()).select_from(SUBMISSIONS)
                                   .where(SUBMISSIONS.c.event_id == event_id)).scalar_one())

    # -- deck checks ----------------------------------------------------------------------------
    def add_deckcheck(self, values: dict[str, Any]) -> None:
        """Store a deck check (only once the event's lists are locked: EventClosed's opposite is checked by
        the caller, which read the locked list)."""
        with self._writing() as con:
            con.execute(insert(CHECKS).values(**values))

    def deckchecks(self, event_id: str) -> list[dict[str, Any]]:
        """Every deck check of the event, oldest first, as their JSON objects."""
        with self.engine.connect() as con:
            rows = con.execute(select(CHECKS.c.data).where(CHECKS.c.event_id == event_id)
                               .order_by(CHECKS.c.seq)).all()
        return [json.loads(r.data) for r in rows]

    # -- rate limit -----------------------------------------------------------------------------
    def hit(self, address: str, bucket: int) -> int:
        """Count one submission from an address in a time window; return the window's count so far."""
        with self._writing() as con:
            table = RATES
            stmt = dialect_insert(con)(table).values(address=address, bucket=bucket, hits=1)
            stmt = stmt.on_conflict_do_update(index_elements=["address", "bucket"],
                                              set_={"hits": table.c.hits + 1}).returning(table.c.hits)
            hits = con.execute(stmt).scalar_one()
            if hits == 1:  # the address's first hit in a new window: forget its older windows
                con.execute(delete(table).where(table.c.address == address, table.c.bucket < bucket))
            return int(hits)
