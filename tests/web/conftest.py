"""Fixtures of the web app tests: an app on a fresh database, and its TestClient."""
from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install -e '.[web]')")


@pytest.fixture(scope="session")
def web_db(tmp_path_factory) -> str:
    """One initialised SQLite database for the web tests that only read cards (and save decks)."""
    from deckcheck.db.store import Store
    url = f"sqlite:///{tmp_path_factory.mktemp('web') / 'web.db'}"
    Store(url).count()
    return url


@pytest.fixture(scope="session")
def app(web_db):
    from deckcheck.web import create_app
    return create_app(db_url=web_db, upload_limit=64 * 1024)


@pytest.fixture()
def client(app):
    from fastapi.testclient import TestClient
    with TestClient(app) as c:
        yield c


@pytest.fixture()
def csrf(client) -> str:
    """The CSRF token the client's cookie holds (after fetching a page)."""
    from deckcheck.web.security import CSRF_COOKIE
    client.get("/")
    return client.cookies[CSRF_COOKIE]
