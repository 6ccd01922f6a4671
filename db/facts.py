"""The card facts' storage (CONTRACTS §6): proposals a club server keeps for review, and the history of changed
values. The rules (what an answer may say, conflicts, who decides) are deckcheck.library.facts."""
from __future__ import annotations

from typing import Any, Sequence

from sqlalchemy import Connection, insert, select, update

from deckcheck.text import normalize

from .models import ACCOUNTS as a
from .models import CARD_CHANGES as h
from .models import PROPOSALS as p

PROPOSAL_COLUMNS = ("id", "card_id", "field_name", "value", "old", "old_source", "by", "at", "status", "conflict",
                    "decided_by", "decided_at", "by_key")


def add_proposal(con: Connection, values: dict[str, Any], key: str, stamp: str) -> int:
    """Keep a pending proposal (`values`: its columns, by_key `key`); the same person's earlier pending answer for
    the field gives way to it (rejected, kept, never deleted: an id the review page shows always names the same
    answer). Its id."""
    con.execute(update(p).where(p.c.card_id == values["card_id"], p.c.field_name == values["field_name"],
                                p.c.by_key == key, p.c.status == "pending")
                .values(status="rejected", decided_by=f"{values['by']} (a later answer)", decided_at=stamp))
    row = con.execute(insert(p).values(**values, by_key=key, at=stamp, status="pending", decided_by="",
                                       decided_at="").returning(p.c.id)).first()
    assert row is not None  # an INSERT ... RETURNING returns its row
    return int(row[0])


def account_named(con: Connection, name: str) -> bool:
    """Whether an account has this name (compared as accounts compare names: deckcheck.text.normalize)."""
    return con.execute(select(a.c.id).where(a.c.name_key == normalize(name)).limit(1)).first() is not None


def proposal_rows(con: Connection, status: str | None = None, key: str | None = None,
                  ids: Sequence[int] | None = None, card_id: str | None = None,
                  limit: int | None = None) -> Sequence[Sequence[Any]]:
    """Proposals (columns of PROPOSAL_COLUMNS, newest first), filtered by status, by_key, ids or card; at most
    `limit`."""
    stmt = select(*[p.c[c] for c in PROPOSAL_COLUMNS]).order_by(p.c.id.desc())
    if status:
        stmt = stmt.where(p.c.status == status)
    if key is not None:
        stmt = stmt.where(p.c.by_key == key)
    if card_id is not None:
        stmt = stmt.where(p.c.card_id == card_id)
    if ids is not None:
        stmt = stmt.where(p.c.id.in_(list(ids)))
    if limit:
        stmt = stmt.limit(int(limit))
    return con.execute(stmt).all()


def decide_proposal(con: Connection, pid: int, status: str, decided_by: str, stamp: str) -> bool:
    """Move a proposal from pending to `status`; whether it still was pending (two decisions at once: one wins)."""
    done = con.execute(update(p).where(p.c.id == pid, p.c.status == "pending").values(
        status=status, decided_by=decided_by, decided_at=stamp))
    return bool(done.rowcount == 1)


def change_rows(con: Connection, card_id: str) -> Sequence[Sequence[Any]]:
    """Every recorded change of a card's values (deckcheck.db.updates.record_changes), newest first."""
    return con.execute(select(h.c.card_id, h.c.field_name, h.c.old, h.c.new, h.c.old_source, h.c.new_source,
                              h.c.at, h.c.accepted_by).where(h.c.card_id == card_id).order_by(h.c.id.desc())).all()
