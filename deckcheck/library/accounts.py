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


class SignInFailed(DeckcheckError):
    """A wrong name or password, said the same way for both (HTTP 401)."""


@dataclass(frozen=True)
class Account:
    """One account as listed: never its password hash."""

    id: int
    name: str
    roles: tuple[str, ...]
    created_at: str

    def person(self) -> Person:
        """The account as the one who asks."""
        return Person(self.id, self.name, frozenset(self.roles))

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


def _account(row: Sequence[Any]) -> Account:
    return Account(int(row[0]), str(row[1]), tuple(str(row[4]).split()), str(row[5]))


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
            new = q.add_account(con, name, normalize(name), hashed, kept, now())
            row = q.account_row(con, account_id=new)
        assert row is not None
        return _account(row)

    def all(self) -> list[Account]:
        """Every account, by name."""
        with self.store.engine.connect() as con:
            return [_account(r) for r in q.account_rows(con)]

    def get(self, name: object) -> Account:
        """The account of a name; NoSuchAccount if none."""
        return _account(self._row(name))

    def _row(self, name: object) -> Sequence[Any]:
        with self.store.engine.connect() as con:
            row = q.account_row(con, normalize(clean_name(name)))
        if row is None:
            raise NoSuchAccount(f"no account is named {str(name)[:NAME_MAX]!r}")
        return row

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
            q.set_account(con, account.id, roles=" ".join(kept))
        return Account(account.id, account.name, kept, account.created_at)

    def remove(self, name: object) -> Account:
        """An account gone, with its sessions and tokens (what it owns stays; CONTRACTS §9)."""
        account = self.get(name)
        with self.store.begin() as con:
            q.remove_account(con, account.id)
        return account

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
        try:
            hasher().verify(str(row[3]) if row is not None else dummy_hash(), sent)
        except (VerificationError, InvalidHashError):
            raise SignInFailed(SIGNED_IN_WRONG) from None
        if row is None or not sent:
            raise SignInFailed(SIGNED_IN_WRONG)
        return _account(row)

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
            row = None if found is None else q.account_row(con, account_id=found)
        return None if row is None else _account(row)

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
            row = None if found is None else q.account_row(con, account_id=found)
        return None if row is None else _account(row)
