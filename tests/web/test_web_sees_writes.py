"""A running server's next check sees every write of the cards, by any process: a CLI import, another server (or
worker) on the same database, a `db update` (CONTRACTS §5: the same database, the same results), SQLite and
PostgreSQL alike."""
from __future__ import annotations

import sys
from pathlib import Path

from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from inproc import run_cli  # noqa: E402

NEW = "Zebulon's Gambit"
SHEET = f"id,name,type,edition,set,cost\nzz-gambit,{NEW},Event,1,ME,0\n"


def unknown(client: TestClient, name: str) -> bool:
    r = client.post("/api/check", json={"decklist": f"1 {name}\n"})
    assert r.status_code == 200, r.text
    return any(e["text"] == f"1 {name}" and e["message"] == "unknown card" for e in r.json()["input_errors"])


def test_a_cli_import_is_seen_by_the_next_check_of_a_running_server(db_url, tmp_path):
    from deckcheck.web import create_app
    assert run_cli("db", "init", "--db", db_url).code == 0
    with TestClient(create_app(db_url=db_url)) as client:
        assert unknown(client, NEW)  # the server has read its cards
        (tmp_path / "new.csv").write_text(SHEET)
        r = run_cli("cards", "import", str(tmp_path / "new.csv"), "--db", db_url)  # another process's Store
        assert r.code == 0, r.err.decode()
        assert client.get("/api/cards", params={"q": NEW}).json()["total"] == 1
        assert not unknown(client, NEW)  # the very next check, no wait, no restart


def test_another_servers_card_edit_is_seen_by_the_next_check(db_url, monkeypatch):
    from deckcheck.web import create_app
    monkeypatch.setenv("DECKCHECK_ADMIN_TOKEN", "s3cret-token-for-tests")
    assert run_cli("db", "init", "--db", db_url).code == 0
    with TestClient(create_app(db_url=db_url)) as one, TestClient(create_app(db_url=db_url)) as two:
        assert unknown(one, NEW) and unknown(two, NEW)
        from deckcheck.db.store import Store
        from deckcheck.db.updates import update_cards
        store = Store(db_url)  # a third writer: neither server's own store
        try:
            update_cards(store, [{"id": "zz-gambit", "name": NEW, "type": "Event", "edition": "1"}],
                         "web:another-server")
        finally:
            store.dispose()
        assert not unknown(one, NEW) and not unknown(two, NEW)


def test_a_write_of_no_card_leaves_the_servers_cards_as_read(db_url, tmp_path):
    """The stamp moves with writes of the card table only: a collection import does not make the server read every
    card again."""
    from deckcheck.web import create_app
    assert run_cli("db", "init", "--db", db_url).code == 0
    app = create_app(db_url=db_url)
    with TestClient(app) as client:
        client.post("/api/check", json={"decklist": "1 Thrust\n"})
        srv = app.state.deckcheck
        library = srv._library
        (tmp_path / "c.csv").write_text("card,set,quantity\nThrust (1),ME,3\n")
        assert run_cli("collection", "import", str(tmp_path / "c.csv"), "--db", db_url).code == 0
        client.post("/api/check", json={"decklist": "1 Thrust\n"})
        assert srv._library is library


def test_an_import_by_another_process_is_seen_on_sqlite(tmp_path):
    """The CLI as its own process, as a user runs it beside `serve` (the server's pooled connections keep no
    snapshot of the file)."""
    import os
    import subprocess

    from deckcheck.web import create_app
    db = f"sqlite:///{tmp_path / 'd.db'}"
    assert run_cli("db", "init", "--db", db).code == 0
    with TestClient(create_app(db_url=db)) as client:
        assert unknown(client, NEW)
        (tmp_path / "new.csv").write_text(SHEET)
        exe = str(Path(sys.executable).with_name("deckcheck"))
        env = {k: v for k, v in os.environ.items() if k != "DECKCHECK_DB"}
        done = subprocess.run([exe, "cards", "import", str(tmp_path / "new.csv"), "--db", db], env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        assert not unknown(client, NEW)
