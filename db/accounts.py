"""The accounts' storage (CONTRACTS §9): accounts, server-side sessions and personal API tokens. Secrets are
stored only as hashes (the password as argon2id, a session's or a token's value as SHA-256); the rules (names,
roles, hashing, who may) are deckcheck.library.accounts."""
from __future__ import annotations

from typing import Any, Sequence

from sqlalchemy import Connection, delete, func, insert, literal, select, update

from .models import ACCOUNTS as a
from .models import API_TOKENS as t
from .models import (COLLECTION_ENTRIES, COLLECTIONS, EVENTS, IMPORTS, JUDGES, SAVED_DECK_CARDS, SAVED_DECK_VERSIONS,
                     SAVED_DECKS)
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
    """An account gone, with its sessions, its tokens and the events it was named a judge of (what it owns: see
    owned, hand_to_keeper and delete_owned, which the caller runs first)."""
    end_sessions(con, account_id)
    con.execute(delete(t).where(t.c.account_id == account_id))
    con.execute(delete(JUDGES).where(JUDGES.c.account_id == account_id))
    con.execute(delete(a).where(a.c.id == account_id))


def first_keeper(con: Connection) -> int | None:
    """The id of the first account holding the keeper role (the lowest id): the server's keeper, whose things are
    the keeper's (owner NULL, what the CLI and a personal server reach); None when no account is a keeper."""
    padded = literal(" ") + a.c.roles + literal(" ")
    return con.execute(select(func.min(a.c.id)).where(padded.like("% keeper %"))).scalar()


KEEPER_DECK_OWNER = 0  # saved_deck.owner_id of the keeper's decks (deckcheck.db.keptdecks.KEEPER_OWNER)


def owned(con: Connection, account_id: int) -> dict[str, list[str]]:
    """What an account owns, by kind ("collections", "decks", "events"), each a sorted list of names (a deck: its
    name and link key, an event: its name and id); empty lists when it owns nothing."""
    c, d, e = COLLECTIONS, SAVED_DECKS, EVENTS
    return {
        "collections": list(con.execute(select(c.c.name).where(c.c.owner_id == account_id).order_by(c.c.name))
                            .scalars()),
        "decks": [f"{title or key} ({key})" for title, key in con.execute(
            select(d.c.title, d.c.name).where(d.c.owner_id == account_id).order_by(d.c.title, d.c.name))],
        "events": [f"{name} ({key})" for name, key in con.execute(
            select(e.c.name, e.c.id).where(e.c.owner_id == account_id).order_by(e.c.name, e.c.id))],
    }


def _free_name(taken: set[str], name: str, whose: str) -> str:
    """A collection name the keeper has none of: the name itself, else "NAME (from WHOSE)", then " 2", " 3"..."""
    if name not in taken:
        return name
    base = f"{name} (from {whose})"
    found, n = base, 1
    while found in taken:
        n += 1
        found = f"{base} {n}"
    return found


def hand_to_keeper(con: Connection, owner_id: int, whose: str) -> None:
    """Give everything an owner id has (collections, saved decks, events) to the keeper: a collection whose name the
    keeper already has is renamed "NAME (from WHOSE)" (names are unique per owner); nothing else changes."""
    c = COLLECTIONS
    taken = set(con.execute(select(c.c.name).where(c.c.owner_id.is_(None))).scalars())
    for cid, name in con.execute(select(c.c.id, c.c.name).where(c.c.owner_id == owner_id).order_by(c.c.name)).all():
        new = _free_name(taken, name, whose)
        taken.add(new)
        con.execute(update(c).where(c.c.id == cid).values(owner_id=None, name=new))
    con.execute(update(SAVED_DECKS).where(SAVED_DECKS.c.owner_id == owner_id).values(owner_id=KEEPER_DECK_OWNER))
    con.execute(update(EVENTS).where(EVENTS.c.owner_id == owner_id).values(owner_id=None))


def delete_owned(con: Connection, account_id: int) -> None:
    """Delete an account's collections (their entries and import journal) and saved decks (every version); its
    events go to the keeper (an event's record holds other players' decks and results: the club keeps it)."""
    c, d = COLLECTIONS, SAVED_DECKS
    ids = select(c.c.id).where(c.c.owner_id == account_id).scalar_subquery()
    con.execute(delete(COLLECTION_ENTRIES).where(COLLECTION_ENTRIES.c.collection_id.in_(ids)))
    con.execute(delete(IMPORTS).where(IMPORTS.c.collection_id.in_(ids)))
    con.execute(delete(c).where(c.c.owner_id == account_id))
    keys = select(d.c.name).where(d.c.owner_id == account_id).scalar_subquery()
    con.execute(delete(SAVED_DECK_CARDS).where(SAVED_DECK_CARDS.c.deck_name.in_(keys)))
    con.execute(delete(SAVED_DECK_VERSIONS).where(SAVED_DECK_VERSIONS.c.deck_name.in_(keys)))
    con.execute(delete(d).where(d.c.owner_id == account_id))
    con.execute(update(EVENTS).where(EVENTS.c.owner_id == account_id).values(owner_id=None))


def orphan_owners(con: Connection) -> list[int]:
    """Owner ids that no account has (things of an account an earlier deckcheck removed, whose id a new account
    could take over on SQLite): the collections', saved decks' and events' (sorted)."""
    c, d, e = COLLECTIONS, SAVED_DECKS, EVENTS
    accounts = select(a.c.id)
    found: set[int] = set()
    for column in (c.c.owner_id, d.c.owner_id, e.c.owner_id):
        found.update(con.execute(select(column).distinct().where(column.is_not(None), column != KEEPER_DECK_OWNER,
                                                                column.not_in(accounts))).scalars())
    return sorted(found)


def forget_orphans(con: Connection) -> None:
    """Delete the sessions, tokens and judge namings of account ids no account has."""
    accounts = select(a.c.id)
    for table in (s, t, JUDGES):
        con.execute(delete(table).where(table.c.account_id.not_in(accounts)))


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
