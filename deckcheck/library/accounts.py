"""Accounts, sessions and personal API tokens (CONTRACTS §9): what `deckcheck users ...` and the web's sign-in call.

Passwords are kept only as argon2id hashes (argon2-cffi, the `web` extra); a session's cookie value and an API
token are random secrets of which only a SHA-256 digest is stored (they are long and random: a slow hash would add
nothing but time to every request). Signing in with a name nobody has verifies the password against a dummy hash,
so that a wrong name and a wrong password take the same time and get the same answer.
"""
from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Sequence

from deckcheck.db import accounts as q
from deckcheck.errors import DeckcheckError
from deckcheck.provenance import now
from deckcheck.text import normalize

from .people import ROLES, Person

if TYPE_CHECKING:
    from argon2 import PasswordHasher

    from deckcheck.db.store import Store

NAME_MAX = 60
PASSWORD_MIN = 8
PASSWORD_MAX = 1024  # bounds the work of one hash
LABEL_MAX = 100
TOKEN_PREFIX = "dct_"  # a personal token says what it is (a secret scanner can find one pasted where it should not be)
SIGNED_IN_WRONG = "wrong name or password"


class AccountError(DeckcheckError):
    """A name, password or role that cannot be used, or an account that does not exist (exit 2, HTTP 400)."""


class NoSuchAccount(AccountError):
    """No account has that name (exit 2, HTTP 404)."""


class OwnsThings(AccountError):
    """An account that still owns collections, decks or events, removed without saying what becomes of them."""


class SignInFailed(DeckcheckError):
    """A wrong name or password, said the same way for both (HTTP 401)."""


@dataclass(frozen=True)
class Account:
    """One account as listed: never its password hash."""

    id: int
    name: str
    roles: tuple[str, ...]
    created_at: str
    first_keeper: bool = False  # the first account holding the keeper role: the server's keeper (people.Person)

    def person(self) -> Person:
        """The account as the one who asks."""
        return Person(self.id, self.name, frozenset(self.roles), self.first_keeper)

    def as_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "roles": list(self.roles), "created_at": self.created_at}


def hasher() -> PasswordHasher:
    """The argon2id hasher (argon2-cffi's defaults: RFC 9106's second recommended parameters)."""
    try:
        from argon2 import PasswordHasher
    except ModuleNotFoundError:  # pragma: no cover - the web extra brings it
        raise AccountError("accounts need argon2-cffi: pip install 'deckcheck[web]'") from None
    return PasswordHasher()


@lru_cache(maxsize=1)
def dummy_hash() -> str:
    """A hash of no one's password, verified when the name is unknown (same work as a real one)."""
    return hasher().hash(secrets.token_urlsafe(16))


def digest(secret: str) -> str:
    """What is stored of a session id or an API token."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def clean_name(name: object) -> str:
    """An account name as kept: printable, spaces folded, 1 to NAME_MAX characters; AccountError if not."""
    text = " ".join(str(name or "").split()) if isinstance(name, str) else ""
    if not text or len(text) > NAME_MAX or not text.isprintable() or not normalize(text):
        raise AccountError(f"an account name is 1 to {NAME_MAX} printable characters with a letter or digit")
    return text


def clean_password(password: object) -> str:
    """A password that may be set: PASSWORD_MIN to PASSWORD_MAX characters; AccountError if not."""
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise AccountError(f"a password is {PASSWORD_MIN} to {PASSWORD_MAX} characters long")
    return password


def clean_roles(roles: Sequence[str]) -> tuple[str, ...]:
    """Roles in ROLES order, each once; AccountError naming one that is none."""
    wanted = {r.strip().lower() for r in roles if r.strip()}
    unknown = sorted(wanted - set(ROLES))
    if unknown:
        raise AccountError(f"no role {unknown[0]!r}: the roles are {', '.join(ROLES)}")
    return tuple(r for r in ROLES if r in wanted)


def _account(row: Sequence[Any], first_keeper: int | None = None) -> Account:
    return Account(int(row[0]), str(row[1]), tuple(str(row[4]).split()), str(row[5]), int(row[0]) == first_keeper)


def _read(con: Any, row: Sequence[Any] | None) -> Account | None:
    """The account of a row, knowing whether it is the first keeper; None for no row."""
    return None if row is None else _account(row, q.first_keeper(con))


OWNED_SHOWN = 10  # names listed per kind when a removal is refused
REMOVE_CHOICES = ("refuse", "hand-to-keeper", "delete")


def owned_text(things: dict[str, list[str]]) -> str:
    """What an account owns, said in one line: "2 collections (main, trades); 1 deck (Aggro (k3j2...))"."""
    parts = []
    for kind, names in things.items():
        if names:
            shown = ", ".join(names[:OWNED_SHOWN]) + (f" and {len(names) - OWNED_SHOWN} more"
                                                       if len(names) > OWNED_SHOWN else "")
            parts.append(f"{len(names)} {kind if len(names) > 1 else kind[:-1]} ({shown})")
    return "; ".join(parts)


def _settle(con: Any, before: int | None) -> None:
    """After an account's roles changed or an account came or went: a new first keeper's own things become the
    keeper's (they are its own still: the first keeper is the keeper)."""
    first = q.first_keeper(con)
    if first is not None and first != before:
        row = q.account_row(con, account_id=first)
        q.hand_to_keeper(con, first, str(row[1]) if row is not None else f"account {first}")


class Accounts:
    """The accounts of one database (deckcheck.db.store.Store)."""

    def __init__(self, store: Store):
        self.store = store

    @classmethod
    def at(cls, db_url: str | None) -> Accounts:
        """The accounts of the database a URL names (None: the default one)."""
        from deckcheck.db.store import Store
        return cls(Store(db_url))

    # -- the keeper's commands -------------------------------------------------------------------------
    def add(self, name: object, password: object, roles: Sequence[str] = ("player",)) -> Account:
        """A new account; AccountError when the name is taken or the password or a role cannot be used."""
        name = clean_name(name)
        hashed = hasher().hash(clean_password(password))
        kept = " ".join(clean_roles(roles))
        with self.store.begin() as con:
            taken = q.account_row(con, normalize(name))
            if taken is not None:
                raise AccountError(f"there is an account {taken[1]!r} already")
            before = q.first_keeper(con)
            new = q.add_account(con, name, normalize(name), hashed, kept, now())
            _settle(con, before)
            found = _read(con, q.account_row(con, account_id=new))
        assert found is not None
        return found

    def all(self) -> list[Account]:
        """Every account, by name."""
        with self.store.engine.connect() as con:
            first = q.first_keeper(con)
            return [_account(r, first) for r in q.account_rows(con)]

    def get(self, name: object) -> Account:
        """The account of a name; NoSuchAccount if none."""
        with self.store.engine.connect() as con:
            found = _read(con, q.account_row(con, normalize(clean_name(name))))
        if found is None:
            raise NoSuchAccount(f"no account is named {str(name)[:NAME_MAX]!r}")
        return found

    def passwd(self, name: object, password: object) -> Account:
        """A new password; every session of the account ends."""
        account = self.get(name)
        hashed = hasher().hash(clean_password(password))
        with self.store.begin() as con:
            q.set_account(con, account.id, password_hash=hashed, password_at=now())
            q.end_sessions(con, account.id)
        return account

    def set_roles(self, name: object, roles: Sequence[str]) -> Account:
        """An account's roles, replaced."""
        account = self.get(name)
        kept = clean_roles(roles)
        with self.store.begin() as con:
            before = q.first_keeper(con)
            q.set_account(con, account.id, roles=" ".join(kept))
            _settle(con, before)
            found = _read(con, q.account_row(con, account_id=account.id))
        assert found is not None
        return found

    def owned(self, name: object) -> dict[str, list[str]]:
        """What an account owns by its own id: {"collections", "decks", "events": names} (the first keeper's things
        are the keeper's: it owns none by its id)."""
        account = self.get(name)
        with self.store.engine.connect() as con:
            return q.owned(con, account.id)

    def remove(self, name: object, owned: str = "refuse") -> tuple[Account, dict[str, list[str]]]:
        """An account gone, with its sessions, tokens and judge namings; (the account, what it owned). What it owns
        (collections, saved decks, events): `refuse` (OwnsThings listing them, nothing changed), `hand-to-keeper`
        (the keeper's from now on: a collection whose name the keeper has becomes "NAME (from ACCOUNT)"), or
        `delete` (its collections and decks deleted, its events the keeper's: they hold other players' decks)."""
        if owned not in REMOVE_CHOICES:
            raise AccountError(f"what becomes of what an account owns: one of {', '.join(REMOVE_CHOICES)}")
        account = self.get(name)
        with self.store.begin() as con:
            things = q.owned(con, account.id)
            if any(things.values()) and owned == "refuse":
                raise OwnsThings(f"{account.name} owns {owned_text(things)}; nothing was changed: remove the "
                                 "account with --hand-to-keeper (the keeper keeps them) or --delete-owned (its "
                                 "collections and decks are deleted, its events go to the keeper)")
            before = q.first_keeper(con)
            if owned == "delete":
                q.delete_owned(con, account.id)
            else:
                q.hand_to_keeper(con, account.id, account.name)
            q.remove_account(con, account.id)
            _settle(con, None if before == account.id else before)
        return account, things

    def exist(self) -> bool:
        """Whether any account exists."""
        with self.store.engine.connect() as con:
            return q.any_account(con)

    # -- signing in ------------------------------------------------------------------------------------
    def check_password(self, name: object, password: object) -> Account:
        """The account whose name and password these are; SignInFailed, in the same time, for a wrong name or a
        wrong password (the dummy hash is verified when the name is unknown)."""
        from argon2.exceptions import InvalidHashError, VerificationError
        key = normalize(name) if isinstance(name, str) and len(name) <= NAME_MAX * 4 else ""
        sent = password if isinstance(password, str) and len(password) <= PASSWORD_MAX else ""
        with self.store.engine.connect() as con:
            row = q.account_row(con, key) if key else None
            first = q.first_keeper(con)  # asked for a wrong name too: the same work either way
        try:
            hasher().verify(str(row[3]) if row is not None else dummy_hash(), sent)
        except (VerificationError, InvalidHashError):
            raise SignInFailed(SIGNED_IN_WRONG) from None
        if row is None or not sent:
            raise SignInFailed(SIGNED_IN_WRONG)
        return _account(row, first)

    def sign_in(self, name: object, password: object) -> tuple[Account, str]:
        """(the account, a new session id) for a right name and password; SignInFailed otherwise."""
        account = self.check_password(name, password)
        session = secrets.token_urlsafe(32)
        with self.store.begin() as con:
            q.add_session(con, digest(session), account.id, now())
        return account, session

    def sign_out(self, session: str) -> None:
        """End one session."""
        with self.store.begin() as con:
            q.end_session(con, digest(session))

    def by_session(self, session: str) -> Account | None:
        """The account of a live session; None when it ended or never was."""
        with self.store.engine.connect() as con:
            found = q.session_account(con, digest(session))
            return None if found is None else _read(con, q.account_row(con, account_id=found))

    # -- personal API tokens -----------------------------------------------------------------------------
    def new_token(self, account: Account, label: object) -> tuple[int, str]:
        """(id, token) of a new token of the account: the token is shown this once."""
        text = " ".join(str(label or "").split()) if isinstance(label, (str, type(None))) else ""
        if len(text) > LABEL_MAX or not text.isprintable():
            raise AccountError(f"a token's label is printable text of at most {LABEL_MAX} characters")
        token = TOKEN_PREFIX + secrets.token_urlsafe(32)
        with self.store.begin() as con:
            return q.add_token(con, account.id, text, digest(token), now()), token

    def tokens(self, account: Account) -> list[dict[str, Any]]:
        """An account's tokens ({"id", "label", "created_at"}), never the tokens themselves."""
        with self.store.engine.connect() as con:
            return [{"id": int(r[0]), "label": str(r[1]), "created_at": str(r[2])}
                    for r in q.token_rows(con, account.id)]

    def revoke(self, account: Account, token_id: int) -> bool:
        """Revoke one of the account's tokens; whether it had that token."""
        with self.store.begin() as con:
            return q.revoke_token(con, account.id, token_id)

    def by_token(self, token: str) -> Account | None:
        """The account of a personal token; None when it is no live token."""
        if not token.startswith(TOKEN_PREFIX):
            return None
        with self.store.engine.connect() as con:
            found = q.token_account(con, digest(token))
            return None if found is None else _read(con, q.account_row(con, account_id=found))
