"""The guards that one-line breaks got past unnoticed (issue 28, "a safety net with holes"), each tested where it
holds: the organiser's counting sheet (a GET, outside the route sweep of test_route_sweep.py), the CSRF cookie's
attributes, a wildcard host name's dot, rate limits counted per address, and the NUL guard on writes of many rows.
"""
from __future__ import annotations

import re
import shutil

import pytest
from fastapi.testclient import TestClient

from deckcheck.library.desk import RateLimit
from deckcheck.web import create_app
from deckcheck.web.deps import rate_limit
from deckcheck.web.desk import COOKIE as DESK_COOKIE
from deckcheck.web.guard import host_allowed
from deckcheck.web.security import CSRF_COOKIE, CSRF_COOKIE_HTTPS
from deckcheck.web.settings import Settings

from conftest import LEGAL
from test_web_nul import _xlsx_with

CHECK_RATE_ENV, EVENT_RATE_ENV = (Settings.env_names()[f] for f in ("check_rate", "event_rate"))


# -- the counting sheet shows a player's locked list: the organiser's only ----------------------------------
@pytest.fixture()
def locked(web_db, tmp_path):
    """A client, and a closed event (id, organiser token) holding Anna's locked list."""
    db = tmp_path / "desk.db"
    shutil.copy(web_db.removeprefix("sqlite:///"), db)
    app = create_app(db_url=f"sqlite:///{db}")
    app.dependency_overrides[rate_limit] = lambda: RateLimit(0)
    with TestClient(app) as client:
        event = client.post("/api/events", json={"name": "Open", "format": "type1e"}).json()
        auth = {"Authorization": f"Bearer {event['organiser_token']}"}
        assert client.post(f"/api/events/{event['id']}/decks", json={"player": "Anna", "decklist": LEGAL}
                           ).status_code == 201
        assert client.post(f"/api/events/{event['id']}/close", headers=auth).status_code == 200
        yield client, event["id"], event["organiser_token"]


def counting_sheet(client: TestClient, event_id: str, cookie: str | None):
    client.cookies.clear()
    if cookie is not None:
        client.cookies.set(DESK_COOKIE, cookie, path=f"/desk/{event_id}")
    return client.get(f"/desk/{event_id}/admin/check", params={"player": "Anna"})


def test_the_counting_sheet_is_the_organisers(locked):
    client, event_id, token = locked
    theirs = counting_sheet(client, event_id, token)
    assert theirs.status_code == 200 and 'name="count:' in theirs.text  # the control: Anna's list, to count
    stranger = counting_sheet(client, event_id, None)
    assert stranger.status_code == 401 and "this page is the organiser&#39;s" in stranger.text
    wrong = counting_sheet(client, event_id, "w" * 43)
    assert wrong.status_code == 403 and "wrong organiser token for this event" in wrong.text
    assert 'name="count:' not in stranger.text + wrong.text


# -- the CSRF cookie -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("base, name", [("http://testserver", CSRF_COOKIE), ("https://testserver", CSRF_COOKIE_HTTPS)])
def test_the_csrf_cookie_is_same_site_strict_and_http_only(web_db, base, name):
    """Strict: a page of another site never makes the browser send it; HttpOnly: no script reads it."""
    with TestClient(create_app(db_url=web_db), base_url=base) as client:
        cookies = [c for c in client.get("/").headers.get_list("set-cookie") if c.startswith(f"{name}=")]
    assert len(cookies) == 1
    attributes = {a.strip().partition("=")[0].lower(): a.strip().partition("=")[2] for a in cookies[0].split(";")[1:]}
    assert attributes.get("samesite", "").lower() == "strict" and "httponly" in attributes
    assert attributes.get("path") == "/"


# -- a wildcard host name ------------------------------------------------------------------------------------
@pytest.mark.parametrize("host, allowed", [("desk.example.org", True), ("a.b.example.org", True),
                                           ("evilexample.org", False), ("example.org.evil", False),
                                           ("xexample.org", False), ("example.org", False)])
def test_a_wildcard_names_subdomains_only(host, allowed):
    assert host_allowed(host, ("*.example.org",)) is allowed


@pytest.mark.parametrize("host, status", [("desk.example.org", 200), ("evilexample.org", 400)])
def test_a_wildcard_host_over_http(web_db, host, status):
    with TestClient(create_app(db_url=web_db, allowed_hosts=["*.example.org"])) as client:
        assert client.get("/healthz", headers={"Host": host}).status_code == status


# -- rate limits, per address --------------------------------------------------------------------------------
def test_checks_are_counted_per_address(web_db, monkeypatch):
    monkeypatch.setenv(CHECK_RATE_ENV, "2/86400")  # day-long windows: a test of seconds all but never spans two
    app = create_app(db_url=web_db)
    with TestClient(app, client=("203.0.113.9", 5000)) as one, TestClient(app, client=("203.0.113.10", 5000)) as two:
        assert [one.post("/api/check", json={"decklist": LEGAL}).status_code for _ in range(3)] == [200, 200, 429]
        assert two.post("/api/check", json={"decklist": LEGAL}).status_code == 200  # another address: its own count
        assert two.post("/check", data={"decklist": LEGAL}).status_code == 200
        assert one.post("/check", data={"decklist": LEGAL}).status_code == 429


def test_new_events_are_counted_per_address(web_db, tmp_path, monkeypatch):
    monkeypatch.setenv(EVENT_RATE_ENV, "1/86400")
    db = tmp_path / "events.db"
    shutil.copy(web_db.removeprefix("sqlite:///"), db)
    app = create_app(db_url=f"sqlite:///{db}")
    with TestClient(app, client=("203.0.113.9", 5000)) as one, TestClient(app, client=("203.0.113.10", 5000)) as two:
        event = {"name": "Open", "format": "type1e"}
        assert [one.post("/api/events", json=event).status_code for _ in range(2)] == [201, 429]
        assert two.post("/api/events", json=event).status_code == 201
        assert two.post("/api/events", json=event).status_code == 429


# -- the NUL guard on a write of many rows -------------------------------------------------------------------
def test_a_nul_in_any_row_of_a_write_of_many_rows_is_refused(db_url):
    from deckcheck.db.store import Store, TextWithNul, read_meta, write_meta
    store = Store(db_url)
    store.count()
    rows = {"sweep_a": "fine", "sweep_b": "also fine", "sweep_c": "a\x00b"}  # the NUL in the last row only
    with pytest.raises(TextWithNul, match="^value: .* holds a NUL"):
        with store.begin() as con:
            write_meta(con, rows)
    with store.engine.connect() as con:
        assert read_meta(con, list(rows)) == {}  # nothing written, the good rows neither


def test_a_sheet_with_a_nul_in_its_last_row_imports_nothing(db_url):
    with TestClient(create_app(db_url=db_url), client=("127.0.0.1", 5000)) as client:
        client.get("/")
        token = client.cookies[CSRF_COOKIE]
        before = client.get("/api/collection").json()["totals"]
        sheet = _xlsx_with("a_x0000_b", good=("Upper Left Attack (1)", "Upper Center Attack (2)"))  # NUL: row 3
        r = client.post("/collection/import", data={"csrf_token": token, "collection": "nul"},
                        files={"file": ("binder.xlsx", sheet)})
        if r.status_code == 200:  # the preview shows it; the confirmation refuses it
            pending = re.search(r'name="token" value="([^"]+)"', r.text)
            assert pending is not None
            r = client.post("/collection/import/confirm", data={"csrf_token": token, "token": pending.group(1),
                                                                "mode": "merge", "collection": "nul"})
        assert r.status_code == 400 and "NUL" in r.text, r.text[:500]
        assert client.get("/api/collection").json()["totals"] == before
