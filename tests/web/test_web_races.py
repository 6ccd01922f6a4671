"""Confirmations arriving together (a double click, two tabs, two server processes): each preview is imported
exactly once, and a collection that does not exist yet is created once, whoever comes first — on SQLite and
PostgreSQL, through a real server with two worker processes."""
from __future__ import annotations

import re

import pytest
from conftest import free_port, together
from serving import Server, Visitor


@pytest.fixture
def server(db_url):
    from deckcheck.db.store import Store
    Store(db_url).init()  # set up before the server starts (as `serve` does), so the test's clock starts later
    srv = Server(db_url, free_port(), workers=2)
    yield srv
    srv.stop()


def card_ids(n: int) -> list[str]:
    from deckcheck.db.store import bundled_cards
    return sorted(c.id for c in bundled_cards() if c.set)[:n]


def copies(visitor: Visitor, collection: str) -> dict[str, int]:
    body = visitor.request("GET", f"/api/collection?collection={collection}").json()
    return {e["card_id"]: e["quantity"] for e in body["entries"]}


def test_one_preview_confirmed_four_times_at_once_imports_once(server):
    visitor = Visitor(server.url)
    cid = card_ids(1)[0]
    fields = visitor.preview(f"card,card_id,quantity\nx,{cid},3\n".encode())
    answers = together([lambda: visitor.form("/collection/import/confirm", fields) for _ in range(4)])
    codes = sorted(a.status for a in answers)
    assert codes == [303, 409, 409, 409], [(a.status, a.text[:300]) for a in answers]
    assert all("already imported" in a.text for a in answers if a.status == 409)
    assert copies(visitor, "main") == {cid: 3}
    again = visitor.form("/collection/import/confirm", fields)  # later still: the same answer
    assert again.status == 409 and "already imported" in again.text
    assert copies(visitor, "main") == {cid: 3}


def test_previews_into_a_new_collection_confirmed_at_once_all_arrive(server):
    """Every confirmation creates the collection if it is missing: one does, the others use it, none fails."""
    visitors = [Visitor(server.url) for _ in range(4)]
    ids = card_ids(4)
    forms = [v.preview(f"card,card_id,quantity\nx,{cid},{n + 1}\n".encode(), collection="new-binder")
             for n, (v, cid) in enumerate(zip(visitors, ids, strict=True))]
    answers = together([lambda v=v, f=f: v.form("/collection/import/confirm", f)
                        for v, f in zip(visitors, forms, strict=True)])
    assert [a.status for a in answers] == [303] * 4, [(a.status, a.text[:300]) for a in answers]
    assert copies(visitors[0], "new-binder") == {cid: n + 1 for n, cid in enumerate(ids)}
    names = visitors[0].request("GET", "/api/collection?collection=new-binder").json()["collections"]
    assert names.count("new-binder") == 1


def test_a_failed_confirmation_keeps_the_preview(server):
    """A confirmation that imports nothing (here: it would take the entry past 1,000,000 copies) gives the preview
    back: once the collection allows it, the same preview is confirmed; nothing is lost by a failure."""
    visitor = Visitor(server.url)
    cid = card_ids(1)[0]
    first, second = (visitor.preview(f"card,card_id,quantity\nx,{cid},{n}\n".encode()) for n in (600000, 600001))
    assert visitor.form("/collection/import/confirm", first).status == 303
    refused = visitor.form("/collection/import/confirm", second)
    assert refused.status == 400 and "1,000,000" in refused.text and copies(visitor, "main") == {cid: 600000}
    fewer = visitor.upload("/collection/import", {"mode": "replace", "collection": "main"}, "c.csv",
                           f"card,card_id,quantity\nx,{cid},1\n".encode())
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', fewer.text.split("/confirm")[1]))
    assert visitor.form("/collection/import/confirm", fields).status == 303 and copies(visitor, "main") == {cid: 1}
    again = visitor.form("/collection/import/confirm", second)
    assert again.status == 303, again.text[:300]
    assert copies(visitor, "main") == {cid: 600002}
