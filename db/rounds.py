"""An event's rounds, pairings, results and drops: their SQL (the Swiss rules are deckcheck.swiss, the service
deckcheck.library.rounds).

A round is one row per (event, number) under a unique key: two requests (or two servers on one PostgreSQL)
starting the next round at once cannot both start it; the one that loses gets RoundTaken and nothing stored.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Sequence

from sqlalchemy import Engine, insert, select, update
from sqlalchemy.exc import IntegrityError

from deckcheck.desk import RoundTaken

from .events import EventTables
from .models import CLAIMS, DROPS, EVENTS, PAIRINGS, ROUNDS, dialect_insert


@dataclass(frozen=True)
class StoredPairing:
    """A table as stored: players by entry key (`b_key` "" a bye), the result once reported."""

    round: int
    table: int
    a_key: str
    b_key: str
    a_wins: int | None
    b_wins: int | None
    draws: int | None
    reported_by: str
    reported_at: str


@dataclass(frozen=True)
class StoredRound:
    """A round as stored, its tables in order."""

    number: int
    top: bool
    seed: str
    started_at: str
    pairings: tuple[StoredPairing, ...]


class RoundTables:
    """The rounds' SQL on the desk's engine (EventTables' write turns and error translation)."""

    def __init__(self, engine: Engine):
        self.events = EventTables(engine)
        self.engine = engine

    def rounds(self, event_id: str) -> list[StoredRound]:
        """Every round of the event, in order, with its tables."""
        with self.engine.connect() as con:
            heads = con.execute(select(ROUNDS).where(ROUNDS.c.event_id == event_id).order_by(ROUNDS.c.number)).all()
            rows = con.execute(select(PAIRINGS).where(PAIRINGS.c.event_id == event_id)
                               .order_by(PAIRINGS.c.round, PAIRINGS.c.table_no)).all()
        tables: dict[int, list[StoredPairing]] = {}
        for r in rows:
            tables.setdefault(r.round, []).append(StoredPairing(r.round, r.table_no, r.a_key, r.b_key, r.a_wins,
                                                                r.b_wins, r.draws, r.reported_by, r.reported_at))
        return [StoredRound(h.number, bool(h.top), h.seed, h.started_at, tuple(tables.get(h.number, ())))
                for h in heads]

    def add_round(self, event_id: str, number: int, top: bool, seed: str, started_at: str,
                  pairings: Sequence[tuple[int, str, str]]) -> None:
        """Store round `number` and its tables (table, a_key, b_key); RoundTaken when it exists already."""
        try:
            with self.events._writing() as con:
                con.execute(insert(ROUNDS).values(event_id=event_id, number=number, top=top, seed=seed,
                                                  started_at=started_at))
                if pairings:
                    con.execute(insert(PAIRINGS), [{"event_id": event_id, "round": number, "table_no": t,
                                                    "a_key": a, "b_key": b} for t, a, b in pairings])
        except IntegrityError:
            raise RoundTaken(f"round {number} was started meanwhile (by another request); nothing was "
                             f"changed: reload to see it") from None

    def set_result(self, event_id: str, number: int, table: int, values: dict[str, Any],
                   only_unreported: bool = False) -> bool:
        """Store a table's result (a_wins, b_wins, draws, reported_by, reported_at); whether a row changed
        (`only_unreported`: only while it has none)."""
        where = [PAIRINGS.c.event_id == event_id, PAIRINGS.c.round == number, PAIRINGS.c.table_no == table,
                 PAIRINGS.c.b_key != ""]
        if only_unreported:
            where.append(PAIRINGS.c.reported_by.notin_(["organiser"]))
        with self.events._writing() as con:
            return bool(con.execute(update(PAIRINGS).where(*where).values(**values)).rowcount)

    def drops(self, event_id: str) -> dict[str, int]:
        """The dropped players' entry keys and the round after which each dropped."""
        with self.engine.connect() as con:
            rows = con.execute(select(DROPS.c.player_key, DROPS.c.after_round)
                               .where(DROPS.c.event_id == event_id)).all()
        return {r.player_key: r.after_round for r in rows}

    def add_drop(self, event_id: str, key: str, after_round: int, at: str) -> None:
        """Drop a player (a second drop of the same player changes nothing)."""
        with self.events._writing() as con:
            con.execute(dialect_insert(con)(DROPS).values(event_id=event_id, player_key=key,
                                                          after_round=after_round, at=at)
                        .on_conflict_do_nothing())

    def set_tiebreakers(self, event_id: str, order: str) -> None:
        """The event's tie-breaker order after points ("omw,gw,ogw")."""
        with self.events._writing() as con:
            con.execute(update(EVENTS).where(EVENTS.c.id == event_id).values(tiebreakers=order))

    # -- disputes of reported results --------------------------------------------------------------
    def claims(self, event_id: str) -> list[dict[str, Any]]:
        """Every dispute of the event, oldest first: its JSON object with `id`, `round`, `table`, `status`."""
        with self.engine.connect() as con:
            rows = con.execute(select(CLAIMS).where(CLAIMS.c.event_id == event_id).order_by(CLAIMS.c.seq)).all()
        return [json.loads(r.data) | {"id": r.id, "round": r.round, "table": r.table_no, "player_key": r.player_key,
                                      "status": r.status} for r in rows]

    def add_claim(self, event_id: str, claim_id: str, number: int, table: int, key: str, at: str,
                  data: dict[str, Any]) -> str:
        """Store a player's dispute of a table's result, or replace their open one of that table (one open dispute
        per player and table); the id of the dispute kept."""
        where = [CLAIMS.c.event_id == event_id, CLAIMS.c.round == number, CLAIMS.c.table_no == table,
                 CLAIMS.c.player_key == key, CLAIMS.c.status == "open"]
        text = json.dumps(data, ensure_ascii=False)
        with self.events._writing() as con:
            held = con.execute(select(CLAIMS.c.id).where(*where)).scalar()
            if held is not None:
                con.execute(update(CLAIMS).where(CLAIMS.c.id == held).values(at=at, data=text))
                return str(held)
            con.execute(insert(CLAIMS).values(id=claim_id, event_id=event_id, round=number, table_no=table,
                                              player_key=key, status="open", at=at, data=text))
        return claim_id

    def settle_claims(self, event_id: str, number: int, table: int, settled: dict[str, Any]) -> int:
        """Settle every open dispute of a table (`settled` joins each one's JSON object); how many were open."""
        where = [CLAIMS.c.event_id == event_id, CLAIMS.c.round == number, CLAIMS.c.table_no == table,
                 CLAIMS.c.status == "open"]
        with self.events._writing() as con:
            rows = con.execute(select(CLAIMS.c.id, CLAIMS.c.data).where(*where)).all()
            for r in rows:
                con.execute(update(CLAIMS).where(CLAIMS.c.id == r.id, CLAIMS.c.status == "open").values(
                    status="settled", data=json.dumps(json.loads(r.data) | settled, ensure_ascii=False)))
        return len(rows)
