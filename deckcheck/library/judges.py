"""The judges of an event (issue 34, CONTRACTS §9's `judge` role): the organiser names accounts holding the judge
role, and each may do the deck checks and draws of that event only. The SQL is deckcheck.db.judges.
"""
from __future__ import annotations

from typing import Sequence

from ..db.judges import JudgeTables
from ..desk import DeskError, now, stamp
from .accounts import Accounts, NoSuchAccount
from .desk import Desk
from .people import Person

MAX_JUDGES = 50  # judges of one event (a large one has a few dozen)
JUDGE = "judge"


class Judges:
    """The judges of the desk's events."""

    def __init__(self, desk: Desk):
        self.desk = desk
        self.tables = JudgeTables(desk.store.engine)
        self.accounts = Accounts(desk.store)

    def names(self, event_id: str) -> list[str]:
        """The names of the event's judges, in the order they were named (an account removed since: left out)."""
        names = {a.id: a.name for a in self.accounts.all()}
        return [names[i] for i in self.tables.judges(event_id) if i in names]

    def name(self, event_id: str, names: object) -> list[str]:
        """The event's judges are exactly the accounts named (a list, or one name per line; [] names none):
        their names. DeskError, nothing changed, for a name no account has, an account without the judge role,
        more than MAX_JUDGES, or names that are not text."""
        self.desk.event(event_id)
        if isinstance(names, str):
            names = names.splitlines()
        if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names):
            raise DeskError('judges must be a list of account names, like ["Ines"], or one name per line')
        wanted: Sequence[str] = [n.strip() for n in names if n.strip()]
        if len(wanted) > MAX_JUDGES:
            raise DeskError(f"{len(wanted)} judges named; at most {MAX_JUDGES} are allowed")
        ids = []
        for name in wanted:
            try:
                account = self.accounts.get(name)
            except NoSuchAccount:
                raise DeskError(f"no account is named {name[:40]!r}: a judge signs in with an account, which the "
                                "server's keeper makes on the server's machine") from None
            if not account.person().can(JUDGE):
                raise DeskError(f"{account.name!r} does not have the judge role; the server's keeper gives it, on "
                                "the server's machine")
            ids.append(account.id)
        self.tables.set_judges(event_id, ids, stamp(now()))
        return self.names(event_id)

    def is_judge(self, event_id: str, person: Person) -> bool:
        """Whether this person is a named judge of the event, holding the judge role now."""
        return person.account_id is not None and JUDGE in person.roles \
            and person.account_id in self.tables.judges(event_id)
