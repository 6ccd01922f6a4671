"""A desk submission that finds the database locked for longer than the wait (another program writing, or a long
import on a loaded machine) answers 503 saying so, with nothing stored — never a bug's 500."""
from __future__ import annotations

import sqlite3

from conftest import LEGAL, another_program_writing


def test_a_submission_to_a_database_locked_past_the_wait_is_503(tmp_path):
    from fastapi.testclient import TestClient

    from deckcheck.db.store import Store
    from deckcheck.web import create_app
    db = tmp_path / "desk.db"
    Store(f"sqlite:///{db}").init(empty=True)
    app = create_app(db_url=f"sqlite:///{db}?timeout=0.5")
    with TestClient(app) as client:
        made = client.post("/api/events", json={"name": "Open", "format": "type1e"})
        assert made.status_code == 201, made.text
        event = made.json()["id"]
        with another_program_writing(db):
            r = client.post(f"/api/events/{event}/decks", json={"player": "Anna", "decklist": LEGAL})
        assert r.status_code == 503, r.text
        assert "another program is writing" in r.json()["error"] and "nothing was changed" in r.json()["error"]
        again = client.post(f"/api/events/{event}/decks", json={"player": "Anna", "decklist": LEGAL})
        assert again.status_code == 201, again.text
    con = sqlite3.connect(db)
    try:
        assert con.execute("select count(*) from desk_submission").fetchone() == (1,)
    finally:
        con.close()


def test_a_read_while_another_program_holds_the_database_past_the_wait_is_503(tmp_path):
    """A long write holds SQLite's exclusive lock (a large import that spilled, on a loaded machine): pages and
    API reads that wait past the lock wait answer 503 with Retry-After, not 500."""
    from fastapi.testclient import TestClient

    from deckcheck.db.store import Store
    from deckcheck.web import create_app
    db = tmp_path / "desk.db"
    Store(f"sqlite:///{db}").init(empty=True)
    app = create_app(db_url=f"sqlite:///{db}?timeout=0.5")
    with TestClient(app) as client:
        made = client.post("/api/events", json={"name": "Open", "format": "type1e"})
        event, token = made.json()["id"], made.json()["organiser_token"]
        with another_program_writing(db):
            r = client.get(f"/api/events/{event}/decks", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 503 and r.headers["Retry-After"] == "5", r.text
        assert "another program is writing" in r.json()["error"]
        assert client.get(f"/api/events/{event}/decks", headers={"Authorization": f"Bearer {token}"}).status_code == 200
