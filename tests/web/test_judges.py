"""Judges per event (issue 34; CONTRACTS §9's judge role), on a club server: the organiser names accounts holding
the judge role, a named judge signs in and counts that event's decks (the judge page, the counting sheet, the draw,
the JSON API) and no other event's; an account that is none, lacks the role or was not named is refused."""
from __future__ import annotations

import html
import shutil

import pytest
from fastapi.testclient import TestClient

from deckcheck.db.store import Store
from deckcheck.library.accounts import Accounts
from deckcheck.library.desk import RateLimit
from deckcheck.library.judges import MAX_JUDGES
from deckcheck.web import accounts as web_accounts, create_app
from deckcheck.web.deps import rate_limit
from deckcheck.web.settings import Settings

from conftest import LEGAL

PASSWORD = "correct horse battery"
THRUST = "Thrust (2)"


@pytest.fixture()
def club(web_db, tmp_path):
    db = tmp_path / "club.db"
    shutil.copy(web_db.removeprefix("sqlite:///"), db)
    accounts = Accounts(Store(f"sqlite:///{db}"))
    for name, roles in (("Olga", ["organiser"]), ("Ines", ["judge"]), ("Jo", ["judge"]), ("Pat", ["player"])):
        accounts.add(name, PASSWORD, roles)
    app = create_app(Settings.from_env(db_url=f"sqlite:///{db}"))
    app.dependency_overrides[rate_limit] = lambda: RateLimit(0)
    web_accounts.SIGNINS.clear()
    yield app
    web_accounts.SIGNINS.clear()


def person(app, name: str) -> TestClient:
    client = TestClient(app)
    assert client.post("/api/session", json={"name": name, "password": PASSWORD}).status_code == 200
    return client


def csrf(client: TestClient) -> str:
    from deckcheck.web.security import CSRF_COOKIE
    client.get("/signin")
    return client.cookies[CSRF_COOKIE]


def locked_event(olga: TestClient, name: str = "Open") -> tuple[str, dict]:
    r = olga.post("/api/events", json={"name": name, "format": "type1e"})
    assert r.status_code == 201, r.text
    event = r.json()
    auth = {"Authorization": f"Bearer {event['organiser_token']}"}
    for player in ("Anna", "Bob"):
        assert olga.post(f"/api/events/{event['id']}/decks", json={"player": player, "decklist": LEGAL}).status_code \
            == 201
    assert olga.post(f"/api/events/{event['id']}/close", headers=auth).status_code == 200
    return event["id"], auth


def test_a_named_judge_counts_that_event_s_decks_and_no_other_s(club):
    olga, ines, jo = person(club, "Olga"), person(club, "Ines"), person(club, "Jo")
    eid, auth = locked_event(olga)
    other, other_auth = locked_event(olga, "Other")
    url = f"/api/events/{eid}/judges"
    assert olga.get(url, headers=auth).json() == {"judges": []}
    assert olga.put(url, headers=auth, json={"judges": ["ines"]}).json() == {"judges": ["Ines"]}
    assert olga.put(url, json={"judges": ["Ines"]}).status_code == 401  # the organiser's token, not the account
    page = html.unescape(ines.get(f"/desk/{eid}/judge").text)
    assert 'id="judge-players"' in page and 'data-player="Anna"' in page and "judging as <bdi>Ines</bdi>" in page
    sheet = html.unescape(ines.get(f"/desk/{eid}/admin/check", params={"player": "Anna"}).text)
    assert 'name="judge" value="Ines"' in sheet and f'href="/desk/{eid}/judge"' in sheet
    token = csrf(ines)
    saved = ines.post(f"/desk/{eid}/admin/check", data={"csrf_token": token, "player": "Anna", "judge": "Ines",
                                                          f"count:{THRUST}": "3", "action": "save"})
    assert saved.status_code == 200 and "Back to the judge's page" in html.unescape(saved.text)
    checks = ines.post(f"/api/events/{eid}/deckchecks", json={"player": "Bob", "judge": "Ines", "counts": {}})
    assert checks.status_code == 201
    assert [c["judge"] for c in ines.get(f"/api/events/{eid}/deckchecks").json()] == ["Ines", "Ines"]
    drawn = ines.post(f"/desk/{eid}/admin/draw", data={"csrf_token": token, "n": "1"})
    assert drawn.status_code == 200 and "Every player has been checked" in drawn.text
    # not named for the other event; Jo holds the role but was named for none
    assert ines.get(f"/desk/{other}/judge").status_code == 403
    assert ines.get(f"/desk/{other}/admin/check", params={"player": "Anna"}).status_code == 401
    assert ines.post(f"/api/events/{other}/deckchecks", json={"player": "Anna", "judge": "I", "counts": {}}) \
        .status_code == 401
    refused = jo.get(f"/desk/{eid}/judge")
    assert refused.status_code == 403 and "has not named your account" in refused.text
    assert jo.post(f"/api/events/{eid}/draw", json={"n": 1}).status_code == 401
    assert TestClient(club).get(f"/desk/{eid}/judge").status_code == 401  # signed out: sign in first
    assert olga.get(f"/desk/{eid}/judge").status_code == 200  # the organiser sees the judges' page too
    # the organiser's form names none: Ines is a judge no more
    dashboard = html.unescape(olga.get(f"/desk/{eid}/admin").text)
    assert 'id="judges-form"' in dashboard and ">Ines</textarea>" in dashboard
    r = olga.post(f"/desk/{eid}/admin/judges", data={"csrf_token": csrf(olga), "judges": "\n"},
                  follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].endswith("#judges")
    assert olga.get(url, headers=auth).json() == {"judges": []}
    assert ines.get(f"/desk/{eid}/judge").status_code == 403
    assert olga.get(f"/api/events/{other}/judges", headers=other_auth).json() == {"judges": []}


@pytest.mark.parametrize("names, words", [
    (["Nobody"], "no account is named 'Nobody'"), (["Pat"], "'Pat' does not have the judge role"),
    (["x"] * (MAX_JUDGES + 1), f"at most {MAX_JUDGES}"), ("Ines", 'judges must be a list'),
    ([3], "judges must be a list")])
def test_naming_judges_refuses_what_cannot_judge_and_changes_nothing(club, names, words):
    olga = person(club, "Olga")
    eid, auth = locked_event(olga)
    olga.put(f"/api/events/{eid}/judges", headers=auth, json={"judges": ["Jo"]})
    r = olga.put(f"/api/events/{eid}/judges", headers=auth, json={"judges": names} if names != "Ines" else
                 {"judges": 5})
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert olga.get(f"/api/events/{eid}/judges", headers=auth).json() == {"judges": ["Jo"]}
    many = olga.put(f"/api/events/{eid}/judges", headers=auth, json={"judges": ["Nobody"] * MAX_JUDGES})
    assert many.status_code == 400 and "no account" in many.json()["error"]  # the limit itself is taken
