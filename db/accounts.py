"""The accounts' storage (CONTRACTS §9): accounts, server-side sessions and personal API tokens. Secrets are
stored only as hashes (the password as argon2id, a session's or a token's value as SHA-256); the rules (names,
roles, hashing, who may) are deckcheck.library.accounts."""
from __future__ import annotations

from typing import Any, Sequence

from sqlalchemy import Connection, delete, func, insert, select, update

from .models import ACCOUNTS as a
from .models import API_TOKENS as t
from .models import SESSIONS as s

ACCOUNT_COLUMNS = ("id", "name", "name_key", "password_hash", "roles", "created_at", "password_at")


def any_account(con: Connection) -> bool:
    """Whether the database holds an account (then the server is a club's: CONTRACTS §9)."""
    return con.execute(select(a.c.id).limit(1)).first() is not None


def count_accounts(con: Connection) -> int:
    """How many accounts there are."""
    return int(con.execute(select(func.count()).select_from(a)).scalar_one())


def account_row(con: Connection, key: str | None = None, account_id: int | None = None) -> Sequence[Any] | None:
    """One account's row (ACCOUNT_COLUMNS) by folded name or by id; None if none."""
    stmt = select(*[a.c[c] for c in ACCOUNT_COLUMNS])
    stmt = stmt.where(a.c.name_key == key) if key is not None else stmt.where(a.c.id == account_id)
    return con.execute(stmt).first()


def account_rows(con: Connection) -> Sequence[Sequence[Any]]:
    """Every account (ACCOUNT_COLUMNS), by name."""
    return con.execute(select(*[a.c[c] for c in ACCOUNT_COLUMNS]).order_by(a.c.name_key)).all()


def add_account(con: Connection, name: str, key: str, password_hash: str, roles: str, stamp: str) -> int:
    """A new account; its id."""
    row = con.execute(insert(a).values(name=name, name_key=key, password_hash=password_hash, roles=roles,
                                       created_at=stamp, password_at=stamp).returning(a.c.id)).first()
    assert row is not None
    return int(row[0])


def set_account(con: Connection, account_id: int, **values: str) -> None:
    """Change an account's columns (password_hash, password_at, roles)."""
    con.execute(update(a).where(a.c.id == account_id).values(**values))


def remove_account(con: Connection, account_id: int) -> None:
    """An account gone, with its sessions and tokens."""
    end_sessions(con, account_id)
    con.execute(delete(t).where(t.c.account_id == account_id))
    con.execute(delete(a).where(a.c.id == account_id))


def add_session(con: Connection, id_hash: str, account_id: int, stamp: str) -> None:
    """A signed-in browser's session."""
    con.execute(insert(s).values(id_hash=id_hash, account_id=account_id, created_at=stamp))


def session_account(con: Connection, id_hash: str) -> int | None:
    """The account a session is of; None when there is no such session."""
    row = con.execute(select(s.c.account_id).where(s.c.id_hash == id_hash)).first()
    return None if row is None else int(row[0])


def end_session(con: Connection, id_hash: str) -> None:
    """One session ended (signing out)."""
    con.execute(delete(s).where(s.c.id_hash == id_hash))


def end_sessions(con: Connection, account_id: int) -> None:
    """Every session of an account ended (a new password, the account removed)."""
    con.execute(delete(s).where(s.c.account_id == account_id))


def add_token(con: Connection, account_id: int, label: str, token_hash: str, stamp: str) -> int:
    """A personal API token; its id."""
    row = con.execute(insert(t).values(account_id=account_id, label=label, token_hash=token_hash,
                                       created_at=stamp).returning(t.c.id)).first()
    assert row is not None
    return int(row[0])


def token_account(con: Connection, token_hash: str) -> int | None:
    """The account a token is of; None when no token has that hash."""
    row = con.execute(select(t.c.account_id).where(t.c.token_hash == token_hash)).first()
    return None if row is None else int(row[0])


def token_rows(con: Connection, account_id: int) -> Sequence[Sequence[Any]]:
    """An account's tokens: (id, label, created_at), oldest first; never the token."""
    return con.execute(select(t.c.id, t.c.label, t.c.created_at).where(t.c.account_id == account_id)
                       .order_by(t.c.id)).all()


def revoke_token(con: Connection, account_id: int, token_id: int) -> bool:
    """Revoke one of an account's tokens; whether it had it."""
    return bool(con.execute(delete(t).where(t.c.account_id == account_id, t.c.id == token_id)).rowcount)
