"""The judges an organiser named for an event: their SQL (the service is deckcheck.library.judges)."""
from __future__ import annotations

from sqlalchemy import Engine, delete, insert, select

from .events import EventTables
from .models import JUDGES


class JudgeTables:
    """The judges' SQL on the desk's engine (EventTables' write turns and error translation)."""

    def __init__(self, engine: Engine):
        self.events = EventTables(engine)
        self.engine = engine

    def judges(self, event_id: str) -> list[int]:
        """The account ids named judges of the event, in the order they were named."""
        with self.engine.connect() as con:
            rows = con.execute(select(JUDGES.c.account_id).where(JUDGES.c.event_id == event_id)
                               .order_by(JUDGES.c.id)).all()
        return [int(r.account_id) for r in rows]

    def set_judges(self, event_id: str, account_ids: list[int], at: str) -> None:
        """The event's judges are exactly these accounts (those kept keep their place)."""
        with self.events._writing() as con:
            held = {int(r.account_id) for r in con.execute(select(JUDGES.c.account_id)
                                                           .where(JUDGES.c.event_id == event_id)).all()}
            gone = held - set(account_ids)
            if gone:
                con.execute(delete(JUDGES).where(JUDGES.c.event_id == event_id, JUDGES.c.account_id.in_(gone)))
            new = [a for a in dict.fromkeys(account_ids) if a not in held]
            if new:
                con.execute(insert(JUDGES), [{"event_id": event_id, "account_id": a, "named_at": at} for a in new])
