"""Who asks (CONTRACTS §9): an account with its roles, the keeper of a server without accounts, or nobody.

The web app says who a request is (deckcheck.web.deps.person); the library's calls take a `Person` and decide
with it what may be seen and changed. An owner is an account id; `None` is the server's keeper: a personal
server's one user, the CLI, the admin token's bearer and the first keeper account (the lowest id holding the keeper
role), whose things, and what a database from before accounts holds, are all the keeper's (CONTRACTS §9).
"""
from __future__ import annotations

from dataclasses import dataclass, field

ROLES = ("keeper", "organiser", "judge", "reviewer", "player")


@dataclass(frozen=True)
class Person:
    """One who asks: `account_id` None and the role `keeper` is the keeper of a server without accounts;
    `first_keeper`: this account is the server's keeper (what it owns is the keeper's, owner None)."""

    account_id: int | None = None
    name: str = ""
    roles: frozenset[str] = field(default_factory=frozenset)
    first_keeper: bool = False

    @property
    def is_keeper(self) -> bool:
        """Whether this person may do everything (the keeper role)."""
        return "keeper" in self.roles

    @property
    def known(self) -> bool:
        """Whether this is somebody (an account or the keeper), not an anonymous visitor."""
        return self.account_id is not None or self.is_keeper

    def can(self, role: str) -> bool:
        """Whether this person holds `role` (the keeper holds every role)."""
        return self.is_keeper or role in self.roles

    def owns(self, owner_id: int | None) -> bool:
        """Whether a thing whose owner is `owner_id` is this person's (the keeper's things are the keeper's;
        the keeper may reach everyone's)."""
        return self.is_keeper or (self.account_id is not None and self.account_id == owner_id)

    @property
    def owner_id(self) -> int | None:
        """The owner id what this person makes gets and whose things are this person's own (None: the keeper's,
        for the first keeper account too)."""
        return None if self.first_keeper else self.account_id


KEEPER = Person(name="keeper", roles=frozenset({"keeper"}))
ANONYMOUS = Person()
