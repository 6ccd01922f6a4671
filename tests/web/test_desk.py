"""The tournament desk over HTTP (CONTRACTS §6), on SQLite and PostgreSQL: every rule of the desk, API and pages."""
from __future__ import annotations

import csv
import datetime as dt
import html
import io
import json
import re
import uuid
from typing import Any

import pytest

from deckcheck.library.desk import MAX_DECKLIST_BYTES, RateLimit
from deckcheck.web.deps import rate_limit

from conftest import EXAMPLE_DECKS as DECKS, ILLEGAL, LEGAL, TYPO


@pytest.fixture(scope="module")
def desk_app(module_db_url):
    """A web app on a database of each kind, shared by the module's tests (each makes its own events)."""
    from deckcheck.web import create_app
    app = create_app(db_url=module_db_url)
    app.dependency_overrides[rate_limit] = lambda: RateLimit(0)
    return app


@pytest.fixture()
def client(desk_app):
    from fastapi.testclient import TestClient
    desk_app.dependency_overrides[rate_limit] = lambda: RateLimit(0)
    with TestClient(desk_app) as c:
        yield c


def new_event(client, **extra) -> dict:
    r = client.post("/api/events", json={"name": "Spring Open", "format": "type1e", **extra})
    assert r.status_code == 201, r.text
    return r.json()


def auth(event: dict) -> dict:
    return {"Authorization": f"Bearer {event['organiser_token']}"}


def submit(client, event: dict, player: str, text: str, status: int = 201, replaces: dict | None = None) -> dict:
    """POST a deck; `replaces`: the answer of the player's earlier deck (its private link's id is sent)."""
    body = {"player": player, "decklist": text} | ({"replaces": replaces["deck_id"]} if replaces else {})
    r = client.post(f"/api/events/{event['id']}/decks", json=body)
    assert r.status_code == status, r.text
    return r.json()


def sent_page(r) -> bool:
    """Whether a deck sent by the page's form answered with a 303 to the deck's private page (POST-redirect-GET),
    which says the deck was received."""
    return ([h.status_code for h in r.history] == [303] and r.status_code == 200 and "sent=1" in str(r.url)
            and 'id="desk-received"' in r.text)


def test_reloading_the_report_of_a_sent_deck_sends_nothing(client):
    """The form's answer is a redirect to the deck's private page: reloading that page (or going back to it) shows
    the report again and stores no second deck."""
    event = new_event(client)
    r = client.post(f"/desk/{event['id']}", data={"player": "Anna", "decklist": LEGAL, "csrf_token": csrf(client)})
    assert sent_page(r) and r.url.path.startswith(f"/desk/{event['id']}/decks/")
    for _ in range(2):
        again = client.get(str(r.url))
        assert again.status_code == 200 and 'id="desk-received"' in again.text
    decks = client.get(f"/api/events/{event['id']}/decks", headers=auth(event)).json()
    assert [(d["player"], d["submissions"]) for d in decks] == [("Anna", 1)]
    assert 'id="desk-received"' not in client.get(r.url.path).text  # the private link itself, bookmarked


def found(pattern: str, text: str) -> str:
    """The first group of a pattern that must be in the page."""
    match = re.search(pattern, text)
    assert match is not None, pattern
    return match.group(1)


def csrf(client) -> str:
    from deckcheck.web.security import CSRF_COOKIE
    if CSRF_COOKIE not in client.cookies:
        client.get("/desk")
    return client.cookies[CSRF_COOKIE]


# -- the API ------------------------------------------------------------------------------------
def test_create_event_gives_a_secret_token_and_two_links(client):
    event = new_event(client, deadline="2030-05-01T09:30:00+02:00", expected=["Anna", "Bob"])
    assert set(event) >= {"id", "organiser_token", "submit_url", "dashboard_url"}
    assert len(event["organiser_token"]) >= 43 and len(event["id"]) >= 16
    assert event["dashboard_url"].endswith(f"/desk/{event['id']}/admin?token={event['organiser_token']}")
    assert event["submit_url"].endswith(f"/desk/{event['id']}")
    public = client.get(f"/api/events/{event['id']}").json()
    assert public == {"id": event["id"], "name": "Spring Open", "format": "type1e",
                      "deadline": "2030-05-01T07:30:00+00:00", "closed": False, "open": True,
                      "utc_offset": "+02:00", "locked_at": None}
    assert "organiser_token" not in json.dumps(public) and event["organiser_token"] not in json.dumps(public)


@pytest.mark.parametrize("body, message", [
    ({"format": "type1e"}, "event name is empty"),
    ({"name": "X", "format": "chess"}, "unknown format"),
    ({"name": "X", "format": "type1e", "deadline": "soon"}, "not a date"),
    ([1, 2], "JSON object"),
])
def test_create_event_refuses_bad_input_with_400(client, body, message):
    r = client.post("/api/events", json=body)
    assert r.status_code == 400 and message in r.json()["error"]


def test_a_submission_is_the_same_report_as_api_check_plus_the_player(client):
    event = new_event(client)
    got = None
    for text in (LEGAL, ILLEGAL, TYPO):
        got = submit(client, event, "Anna", text, replaces=got)
        same = client.post("/api/check", json={"decklist": text, "format": "type1e"}).json()
        assert {k: v for k, v in got.items() if k in same and k != "deck"} == \
               {k: v for k, v in same.items() if k != "deck"}
        assert got["player"] == "Anna" and got["deck"] == got["source"] == "pasted"


def test_form_and_file_submissions(client):
    event = new_event(client)
    r = client.post(f"/api/events/{event['id']}/decks", data={"player": "Form", "decklist": LEGAL})
    assert r.status_code == 201 and r.json()["legal"] is True
    r = client.post(f"/api/events/{event['id']}/decks", data={"player": "Methos"},
                    files={"file": ("methos.json", (DECKS / "type1e-methos.json").read_bytes())})
    assert r.status_code == 201 and r.json()["deck"] == "methos.json" and r.json()["legal"] is not None
    r = client.post(f"/api/events/{event['id']}/decks", data={"player": "Broken"},
                    files={"file": ("deck.xlsx", b"PK\x03\x04 not really")})
    assert r.status_code == 201 and r.json()["legal"] is None and "deck.xlsx" in r.json()["input_errors"][0]["message"]
    r = client.post(f"/api/events/{event['id']}/decks", data={"player": "Big"},
                    files={"file": ("deck.txt", b"1 Thrust\n" * (MAX_DECKLIST_BYTES // 9 + 1))})
    assert r.status_code == 413
    r = client.post(f"/api/events/{event['id']}/decks", json={"player": "Nobody"})
    assert r.status_code == 400 and "no decklist" in r.json()["error"]
    r = client.post(f"/api/events/{event['id']}/decks", json={"decklist": LEGAL})
    assert r.status_code == 400 and "player name is empty" in r.json()["error"]


def test_a_new_submission_replaces_the_players_old_one(client):
    event = new_event(client)
    first = submit(client, event, "Anna", ILLEGAL)
    second = submit(client, event, "anna", LEGAL, replaces=first)
    submit(client, event, "Bob", TYPO)
    assert (first["submissions"], second["submissions"]) == (1, 2)
    decks = client.get(f"/api/events/{event['id']}/decks", headers=auth(event)).json()
    # the name first given stays the one shown; the later spelling is kept with its deck
    assert [(d["player"], d["legal"], d["deck_id"]) for d in decks] == [("Anna", True, second["deck_id"]),
                                                                         ("Bob", None, decks[1]["deck_id"])]
    # the older deck is kept, and its private link still shows it
    assert client.get(f"/api/events/{event['id']}/decks/{first['deck_id']}").json()["legal"] is False


def test_without_the_token_401_with_a_wrong_one_403_and_nothing_of_the_decks(client):
    event, other = new_event(client), new_event(client)
    submit(client, event, "Secret Sam", ILLEGAL)
    paths = [f"/api/events/{event['id']}/decks", f"/api/events/{event['id']}/report.xlsx",
             f"/api/events/{event['id']}/report.csv", f"/api/events/{event['id']}/report.json"]
    for path in paths:
        for headers, status in (({}, 401), ({"Authorization": "Bearer nope"}, 403), (auth(other), 403),
                                ({"Authorization": event["organiser_token"]}, 401)):
            r = client.get(path, headers=headers)
            assert r.status_code == status, (path, headers)
            assert "Sam" not in r.text and "Kurgan" not in r.text and set(r.json()) == {"error"}
        assert client.get(path, headers=auth(event)).status_code == 200
    for path, status in ((f"/api/events/{event['id']}/close", 401), ("/api/events/no-such-event/close", 401)):
        assert client.post(path).status_code == status
    r = client.get("/api/events/no-such-event/decks", headers=auth(event))
    assert r.status_code == 403  # unknown ids answer like wrong tokens: nothing to enumerate
    assert client.get(f"/api/events/{event['id']}").json()["open"] is True


def test_a_player_sees_only_their_own_deck(client):
    event, other = new_event(client), new_event(client)
    anna = submit(client, event, "Anna", LEGAL)
    bob = submit(client, event, "Bob", ILLEGAL)
    assert "Anna" not in json.dumps(bob) and anna["deck_id"] not in json.dumps(bob)
    mine = client.get(f"/api/events/{event['id']}/decks/{anna['deck_id']}").json()
    assert mine["player"] == "Anna" and mine["deck_id"] == anna["deck_id"]
    assert client.get(f"/api/events/{other['id']}/decks/{anna['deck_id']}").status_code == 404
    other = anna["deck_id"][:-1] + ("y" if anna["deck_id"].endswith("x") else "x")  # never the id itself
    assert client.get(f"/api/events/{event['id']}/decks/{other}").status_code == 404
    page = client.get(f"/desk/{event['id']}")
    assert page.status_code == 200 and "Anna" not in page.text and "Bob" not in page.text


def test_after_the_deadline_or_the_close_409(client):
    past = (dt.datetime.now(dt.timezone.utc) - dt.timedelta(minutes=1)).isoformat()
    late = new_event(client, deadline=past)
    assert submit(client, late, "Anna", LEGAL, status=409)["error"].startswith("the event is closed")
    page = client.get(f"/desk/{late['id']}").text
    assert "has passed" in page and "decklists until" not in page and 'id="submit-form"' not in page
    event = new_event(client)
    anna = submit(client, event, "Anna", LEGAL)
    assert client.post(f"/api/events/{event['id']}/close", headers={"Authorization": "Bearer x"}).status_code == 403
    closed = client.post(f"/api/events/{event['id']}/close", headers=auth(event))
    assert closed.status_code == 200 and closed.json()["closed"] is True
    submit(client, event, "Anna", ILLEGAL, status=409)
    r = client.post(f"/desk/{event['id']}", data={"player": "Anna", "decklist": LEGAL, "csrf_token": csrf(client),
                                                  "replaces": anna["deck_id"]})
    assert r.status_code == 409 and "closed" in r.text
    assert r.text.count('class="banner banner-warn') == 1 and "the organiser no longer takes decklists" in r.text
    assert 'id="desk-counting"' in r.text and "deck 1" in r.text  # which deck counts, and the text kept
    assert html.escape(LEGAL.splitlines()[0]) in r.text.split('id="desk-kept"')[1]
    soon = new_event(client, deadline=(dt.datetime.now(dt.timezone.utc) + dt.timedelta(hours=1)).isoformat())
    assert "decklists until" in client.get(f"/desk/{soon['id']}").text
    client.post(f"/api/events/{soon['id']}/close", headers=auth(soon))
    assert "decklists until" not in client.get(f"/desk/{soon['id']}").text  # closed before its deadline
    decks = client.get(f"/api/events/{event['id']}/decks", headers=auth(event)).json()
    assert [d["legal"] for d in decks] == [True]
    assert submit(client, {"id": "no-such-event"}, "Anna", LEGAL, status=404)


def test_rate_limit_answers_429(client, desk_app):
    desk_app.dependency_overrides[rate_limit] = lambda: RateLimit(2, 3600)
    event = new_event(client)
    # the test client's address is shared with other tests of the module: use a fresh limit window of its own
    submit(client, event, "A", LEGAL)
    submit(client, event, "B", LEGAL)
    r = client.post(f"/api/events/{event['id']}/decks", json={"player": "C", "decklist": LEGAL})
    assert r.status_code == 429 and "wait" in r.json()["error"]
    page = client.post(f"/desk/{event['id']}", data={"player": "C", "decklist": LEGAL, "csrf_token": csrf(client)})
    assert page.status_code == 429
    desk_app.dependency_overrides[rate_limit] = lambda: RateLimit(0)
    assert len(client.get(f"/api/events/{event['id']}/decks", headers=auth(event)).json()) == 2


def test_reports_equal_the_cli_on_the_same_decks(client, tmp_path):
    from deckcheck.library.api import check_tournament
    from deckcheck.importers.reports import write_tournament_report
    event = new_event(client)
    folder = tmp_path / "decks"
    folder.mkdir()
    for player, text in (("anna", LEGAL), ("bob", ILLEGAL), ("carl", TYPO)):
        submit(client, event, player, text)
        (folder / f"{player}.txt").write_text(text)
    cli = check_tournament([folder], fmt="type1e", db_url=client.app.state.deckcheck.settings.db_url)
    write_tournament_report(tmp_path / "cli.csv", cli)
    theirs = list(csv.reader(open(tmp_path / "cli.csv", encoding="utf-8-sig")))
    r = client.get(f"/api/events/{event['id']}/report.csv", headers=auth(event))
    assert r.headers["content-disposition"] == 'attachment; filename="report.csv"'
    ours = list(csv.reader(io.StringIO(r.content.decode("utf-8-sig"))))
    at = ours[0].index("submitted_at")  # the CLI has no submission time: the desk has
    assert all(row[at] for row in ours[1:]) and not any(row[at] for row in theirs[1:])
    drop_source = lambda rows: [row[:1] + row[2:at] + row[at + 1:] for row in rows]  # noqa: E731 - file name, time
    assert drop_source(ours) == drop_source(theirs)
    xlsx = client.get(f"/api/events/{event['id']}/report.xlsx", headers=auth(event))
    from python_calamine import CalamineWorkbook
    book = CalamineWorkbook.from_filelike(io.BytesIO(xlsx.content))
    assert [(row[0], row[6]) for row in book.get_sheet_by_name("Summary").to_python()[1:]] == \
           [("anna", "legal"), ("bob", "NOT LEGAL"), ("carl", "unreadable")]
    data = client.get(f"/api/events/{event['id']}/report.json", headers=auth(event)).json()
    assert [d["legal"] for d in data] == [r.legal for r in cli.reports]
    assert client.get(f"/api/events/{event['id']}/report.exe", headers=auth(event)).status_code == 404


# -- the pages ----------------------------------------------------------------------------------
def create_by_form(client, **values) -> tuple[str, str]:
    form = {"name": "Club night", "format": "type1e", "deadline": "", "tz_offset": "0", "expected": "",
            "csrf_token": csrf(client), **values}
    r = client.post("/desk", data=form, follow_redirects=False)
    assert r.status_code == 303, r.text  # POST-redirect-GET: a reload of the page shown creates nothing
    r = client.get(r.headers["location"])
    assert r.status_code == 200 and "Event created" in r.text
    link = found(r'value="(http[^"]+/admin\?token=[^"]+)"', r.text)
    assert "<svg" in r.text  # the QR code is on the page
    return link.split("/desk/")[1].split("/")[0], link.replace("http://testserver", "")


def test_reloading_the_created_page_creates_nothing_and_shows_the_organiser_link_again(client):
    event_id, link = create_by_form(client, name="Reload Open")
    counted = client.get("/desk").text.count("Reload Open")  # the test client is not the keeper: no list
    again = client.get(f"/desk/{event_id}/admin/created")
    assert again.status_code == 200 and link.split("token=")[1] in again.text
    assert client.get("/desk").text.count("Reload Open") == counted == 0
    client.cookies.clear()
    assert client.get(f"/desk/{event_id}/admin/created").status_code == 401


def test_the_keeper_sees_every_event_listed_and_opens_its_dashboard(desk_app):
    from fastapi.testclient import TestClient
    with TestClient(desk_app, client=("127.0.0.1", 5000)) as keeper:
        form = {"name": "Keeper Cup", "format": "type1e", "csrf_token": csrf(keeper)}
        r = keeper.post("/desk", data=form, follow_redirects=False)
        event_id = r.headers["location"].split("/")[2]
        keeper.cookies.clear()
        listed = keeper.get("/desk").text
        assert 'id="desk-events"' in listed and f'href="/desk/{event_id}/admin">Keeper Cup</a>' in listed
        assert keeper.get(f"/desk/{event_id}/admin").status_code == 200  # no token: the keeper owns it
    with TestClient(desk_app, client=("203.0.113.9", 5000)) as stranger:
        assert "Keeper Cup" not in stranger.get("/desk").text
        assert stranger.get(f"/desk/{event_id}/admin").status_code == 401


@pytest.mark.parametrize("offset, hour", [("120", 8), ("-300", 15), ("0", 10), ("\u00b2", 10), ("--5", 10),
                                          ("1440", 10), ("", 10)])
def test_the_forms_deadline_is_in_the_browsers_time_and_odd_offsets_count_as_utc(client, offset, hour):
    event_id, _link = create_by_form(client, deadline="2030-07-01T10:00", tz_offset=offset)
    assert client.get(f"/api/events/{event_id}").json()["deadline"] == f"2030-07-01T{hour:02}:00:00+00:00"


def test_pages_create_submit_watch_and_close(client):
    event_id, link = create_by_form(client, expected="Anna\nBob\nZoe")
    client.cookies.clear()  # the creating browser's organiser cookie: this test opens the link as another would
    assert client.post("/desk", data={"name": "x", "format": "type1e"}).status_code == 403  # no CSRF token
    r = client.post(f"/desk/{event_id}", data={"player": "<script>alert(1)</script>", "decklist": ILLEGAL,
                                               "csrf_token": csrf(client)})
    assert sent_page(r) and "<script>alert(1)</script>" not in r.text and "&lt;script&gt;" in r.text
    r = client.post(f"/desk/{event_id}", data={"player": "Anna", "csrf_token": csrf(client)},
                    files={"file": ("anna.txt", LEGAL.encode())})
    assert sent_page(r) and "Legal" in r.text
    private = found(rf'href="(/desk/{event_id}/decks/[^"]+)"', r.text)
    assert "Submit again" in client.get(private).text
    assert client.post(f"/desk/{event_id}", data={"player": "Anna", "decklist": LEGAL}).status_code == 403
    # the organiser: no cookie 401, a wrong link 403, the right link sets the cookie and drops the token from the URL
    assert client.get(f"/desk/{event_id}/admin").status_code == 401
    assert client.get(f"/desk/{event_id}/admin?token=wrong").status_code == 403
    r = client.get(link, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/desk/{event_id}/admin"
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and f"Path=/desk/{event_id};" in cookie and "SameSite=lax" in cookie
    page = client.get(f"/desk/{event_id}/admin")
    assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text and "<script>alert" not in page.text
    assert re.search(r'id="missing">Missing: <bdi>Bob</bdi>, <bdi>Zoe</bdi><', page.text)
    table = client.get(f"/desk/{event_id}/admin/table", params={"verdict": "legal"}).text
    assert "Anna" in table and "alert" not in table
    assert "alert" in client.get(f"/desk/{event_id}/admin/table", params={"q": "kurgan"}).text
    row = found(rf'href="(/desk/{event_id}/admin/decks/[^"]+)">Anna<', page.text)
    assert "Connor MacLeod" in client.get(row).text
    printed = client.get(f"/desk/{event_id}/admin/print").text
    assert printed.count('class="sheet"') == 2
    # a rule card data kept from deciding is said once, as its unverified line (never also a data-unknown warning)
    assert "HL-DATA-UNKNOWN" not in printed and "<strong>unverified</strong> HL-RESTRICTED: copies limit" in printed
    api_like = client.get(f"/desk/{event_id}/admin/report.csv")
    assert api_like.status_code == 200 and b"anna.txt" in api_like.content
    csrf_field = found(r'name="csrf_token" value="([^"]+)"', page.text)
    assert client.post(f"/desk/{event_id}/admin/close", data={}).status_code == 403
    r = client.post(f"/desk/{event_id}/admin/close", data={"csrf_token": csrf_field}, follow_redirects=False)
    assert r.status_code == 303
    assert 'id="event-state">closed' in client.get(f"/desk/{event_id}/admin").text
    assert 'id="event-state">closed' in client.get(f"/desk/{event_id}/admin/table").text  # in the live part
    assert "closed" in client.get(f"/desk/{event_id}").text


@pytest.mark.parametrize("token", ['"\\ud800"', "[1]", "7", '{"a": 1}'])
def test_a_player_page_sent_json_with_a_token_of_the_wrong_kind_is_403(client, token):
    """The player page reads JSON too: a csrf_token that is not plain text is refused like a wrong one."""
    event = new_event(client)
    csrf(client)  # the visitor has a cookie: the token sent is what gets compared
    r = raw_json(client, f"/desk/{event['id']}", f'{{"player": "Anna", "decklist": "1 Thrust", "csrf_token": {token}}}')
    assert r.status_code == 403 and "security token" in r.text
    assert client.get(f"/api/events/{event['id']}/decks", headers=auth(event)).json() == []


def test_organiser_pages_refuse_another_events_cookie(client):
    one, link_one = create_by_form(client)
    two, _ = create_by_form(client)
    client.cookies.clear()  # the cookies creating them set: only the link of the first one opened below
    client.get(link_one)
    assert client.get(f"/desk/{one}/admin").status_code == 200
    assert client.get(f"/desk/{two}/admin").status_code == 401  # the cookie is scoped to its event's pages
    client.cookies.set("deckcheck_desk", client.cookies.get("deckcheck_desk", path=f"/desk/{one}"),
                       path=f"/desk/{two}")
    for path in ("admin", "admin/table", "admin/print", "admin/report.xlsx"):
        r = client.get(f"/desk/{two}/{path}")
        assert r.status_code == 403, path


def test_what_changed_between_two_submissions_api_and_page(client, module_db_url):
    """Issue 14: the organiser compares a player's earlier deck with a later one, as `deckcheck diff` does."""
    from deckcheck.library.statsapi import deck_diff
    event = new_event(client)
    first = submit(client, event, "Anna", ILLEGAL)
    second = submit(client, event, "Anna", LEGAL, replaces=first)
    typo = submit(client, event, "Bob", TYPO)
    url = f"/api/events/{event['id']}/diff"
    params = {"a": first["deck_id"], "b": second["deck_id"]}
    assert client.get(url, params=params).status_code == 401
    assert client.get(url, params=params, headers={"Authorization": "Bearer wrong"}).status_code == 403
    r = client.get(url, params=params, headers=auth(event))
    assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
    body = r.json()
    expected = deck_diff(ILLEGAL, LEGAL, "type1e", db=module_db_url).as_dict()
    for key in ("added", "removed", "legal", "rules", "odds"):
        assert body[key] == expected[key], key
    assert body["legal"] == {"before": False, "after": True} and body["added"] and body["removed"]
    assert body["before"]["report"]["deck"].startswith("Anna, ")
    # odd requests: a deck of no event of this id, a draw size out of range, an unreadable decklist
    assert client.get(url, params={**params, "b": "nope"}, headers=auth(event)).status_code == 404
    assert client.get(url, params={**params, "hand": 5000}, headers=auth(event)).status_code == 400
    # an unreadable deck compares by the lines that were read; its unread lines are its input errors
    odd = client.get(url, params={"a": first["deck_id"], "b": typo["deck_id"]}, headers=auth(event))
    assert odd.status_code == 200 and odd.json()["legal"]["after"] is None
    assert odd.json()["after"]["report"]["input_errors"] == typo["input_errors"]

    # the pages: the later deck links to what changed; the comparison shows cards and verdicts
    link = client.post("/api/events", json={"name": "x", "format": "type1e"}).json()  # another event's token
    assert client.get(f"/desk/{event['id']}/admin/diff", params=params).status_code == 401
    client.get(event["dashboard_url"].replace("http://testserver", ""))
    page = client.get(f"/desk/{event['id']}/admin/decks/{second['deck_id']}").text
    diff_link = found(r'href="(/desk/[^"]+/admin/diff\?a=[^"]+)"', page).replace("&amp;", "&")
    assert diff_link == f"/desk/{event['id']}/admin/diff?a={first['deck_id']}&b={second['deck_id']}"
    assert "/admin/diff" not in client.get(f"/desk/{event['id']}/admin/decks/{first['deck_id']}").text.split(
        "Every submission")[0]  # the first deck has no earlier one
    shown = client.get(diff_link)
    assert shown.status_code == 200 and "What changed for Anna" in shown.text
    from markupsafe import escape  # as the templates escape
    for change in body["added"]:
        assert f'<span class="sign">+{change["quantity"]}</span> {escape(change["card"])}' in shown.text
    assert f'href="/desk/{event["id"]}/admin/decks/{first["deck_id"]}"' in shown.text
    assert f'href="/api/events/{event["id"]}/diff?a={first["deck_id"]}&amp;b={second["deck_id"]}"' in shown.text
    assert link["id"] != event["id"]
    assert client.get(f"/desk/{link['id']}/admin/diff", params=params).status_code == 401


def test_no_what_changed_link_where_no_comparison_can_be_made(client):
    """Review L7: the comparison reads Highlander's draw odds; a Taktik event's deck page does not offer it."""
    event = client.post("/api/events", json={"name": "Table", "format": "taktik52"}).json()
    text = "Format: taktik52\nDeck:\n" + "\n".join(["Ace of Spades"] * 3)
    first = submit(client, event, "Anna", text)
    second = submit(client, event, "Anna", text + "\n2 of Spades", replaces=first)
    client.get(event["dashboard_url"].replace("http://testserver", ""))
    page = client.get(f"/desk/{event['id']}/admin/decks/{second['deck_id']}")
    assert page.status_code == 200 and "Every submission of Anna" in page.text and "/admin/diff" not in page.text
    assert first["deck_id"] in page.text


def test_qr_code_is_the_player_link(client):
    import segno
    event = new_event(client)
    r = client.get(f"/desk/{event['id']}/qr.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    out = io.BytesIO()
    segno.make(event["submit_url"], error="m").save(out, kind="svg", scale=8, border=2)
    assert r.content == out.getvalue()
    assert client.get("/desk/nope/qr.svg").status_code == 404


# -- bad input: a one-line 4xx, never a 500 -----------------------------------------------------------
def raw_json(client, url: str, body) -> Any:
    """POST a body as JSON text as it is written (json.dumps escapes lone surrogates, which httpx cannot send)."""
    return client.post(url, content=body if isinstance(body, (str, bytes)) else json.dumps(body),
                       headers={"content-type": "application/json"})


@pytest.mark.parametrize("body, message", [
    ({"name": "X", "format": "type1e", "expected": 5}, "expected players must be"),
    ({"name": "X", "format": "type1e", "expected": {"Anna": 1}}, "expected players must be"),
    ({"name": "X", "format": "type1e", "expected": ["Anna", 3]}, "expected players must be names"),
    ({"name": {"a": 1}, "format": "type1e"}, "event name must be text"),
    ({"name": "X", "format": ["type1e"]}, "format must be text"),
    ({"name": "\ud800", "format": "type1e"}, "event name is empty"),
    ({"name": "\u200b\u2066\u200f", "format": "type1e"}, "event name is empty"),
    ({"name": "X", "format": "type1e", "deadline": "0001-01-01T00:00:00+01:00"}, "not a date"),
    ({"name": "X", "format": "type1e", "deadline": "9999-12-31T23:59:59-01:00"}, "not a date"),
    ({"name": "X", "format": "type1e", "deadline": "0999-01-01T00:00:00"}, "between the years"),
    ({"name": "X", "format": "type1e", "deadline": "2030-01-01T00:00:00+25:00"}, "not a date"),
    ({"name": "X", "format": "type1e", "deadline": 1767225600}, "deadline must be text"),
    ({"name": "X", "format": "type1e", "deadline": True}, "deadline must be text"),
    ("[" * 100_000, "not valid JSON"),
    (b"\xff\xfe{", "not valid JSON"),
])
def test_creating_an_event_from_odd_json_is_a_400(client, body, message):
    r = raw_json(client, "/api/events", body)
    assert r.status_code == 400 and message in r.json()["error"], r.text


@pytest.mark.parametrize("player, message", [
    ("\ud800", "player name is empty"), ("\u200b", "player name is empty"), ("\x85\x9f\u202e", "player name is empty"),
    (["Anna"], "player name must be text"), (7, "player name must be text"), ("A" * 10_000, "at most 80"),
])
def test_odd_player_names_are_a_400(client, player, message):
    event = new_event(client)
    r = raw_json(client, f"/api/events/{event['id']}/decks", {"player": player, "decklist": LEGAL})
    assert r.status_code == 400 and message in r.json()["error"], r.text
    r = raw_json(client, f"/api/events/{event['id']}/decks", {"player": "Anna", "decklist": ["1 Thrust"]})
    assert r.status_code == 400 and "decklist must be text" in r.json()["error"]
    r = raw_json(client, f"/api/events/{event['id']}/decks", "[" * 100_000)
    assert r.status_code == 400 and "not valid JSON" in r.json()["error"]


def test_names_are_stored_without_what_hides_or_turns_them(client):
    """Direction overrides, zero-width and control characters leave a name; right-to-left script stays, as typed."""
    event = new_event(client, expected=["Zoe\u200b", "\u0639\u0644\u064a"])
    shown = submit(client, event, "\u202eAnna\u200b\x07 Smith\u2066", LEGAL)
    assert shown["player"] == "Anna Smith"
    assert submit(client, event, "\u0639\u0644\u064a", ILLEGAL)["player"] == "\u0639\u0644\u064a"
    jose = submit(client, event, "Jose\u0301", LEGAL)
    assert jose["player"] == "Jos\u00e9"  # NFC: one name however typed
    assert submit(client, event, "Jos\u00e9", ILLEGAL)["player"] == "Jos\u00e9 (2)"  # a name is not a key
    assert submit(client, event, "Jos\u00e9", ILLEGAL, replaces=jose)["submissions"] == 2
    client.get(event["dashboard_url"].replace("http://testserver", ""))
    page = client.get(f"/desk/{event['id']}/admin").text
    assert "Missing: <bdi>Zoe</bdi>" in page and "\u202e" not in page and "\u200b" not in page


@pytest.mark.parametrize("path", [
    "/api/events/{nul}", "/api/events/{e}/decks/{nul}", "/desk/{nul}", "/desk/{e}/decks/{nul}",
    "/desk/{nul}/qr.svg", "/desk/{e}/decks/{long}", "/api/events/{long}", "/desk/{e}/decks/%E2%80%AE",
])
def test_malformed_ids_are_not_found(client, path):
    """Ids that desk ids cannot be (a NUL, which PostgreSQL refuses in text; 5,000 characters) are simply not found."""
    event = new_event(client)
    r = client.get(path.format(e=event["id"], nul="%00", long="x" * 5000))
    assert r.status_code == 404, r.text[:300]
    r = client.post("/api/events/%00/decks", json={"player": "Anna", "decklist": LEGAL})
    assert r.status_code == 404
    assert client.get("/api/events/%00/decks", headers=auth(event)).status_code == 403


def test_organiser_pages_with_malformed_ids(client):
    event = new_event(client)
    client.get(event["dashboard_url"].replace("http://testserver", ""))
    base = f"/desk/{event['id']}/admin"
    assert client.get(f"{base}/decks/%00").status_code == 404
    assert client.get(f"{base}/diff", params={"a": "\x00", "b": "x"}).status_code == 404
    assert client.get(f"{base}/report.%00").status_code == 400
    assert client.get(base, params={"q": "\x00" * 10, "verdict": "\x00"}).status_code == 200


@pytest.mark.parametrize("name, data", [
    ("deck.txt", bytes(range(256)) * 10), ("deck.txt", b"\x00" * 100), ("deck.xlsx", b"PK\x03\x04" + bytes(3000)),
    ("deck.json", b"[" * 40_000), ("deck.csv", b"\x00,\xff\n" * 100), ("a\x00b.txt", LEGAL.encode()),
    ("\u202e.txt", LEGAL.encode()), ("deck.exe", b"MZ\x90\x00"), ("../../etc/passwd", LEGAL.encode()),
])
def test_odd_uploads_are_an_unreadable_deck_or_a_report(client, name, data):
    event = new_event(client)
    r = client.post(f"/api/events/{event['id']}/decks", data={"player": "Upload"}, files={"file": (name, data)})
    assert r.status_code == 201, r.text[:300]
    assert r.json()["player"] == "Upload" and r.json()["deck"]


def test_wrong_content_types_and_tokens_in_wrong_places(client):
    event = new_event(client)
    url = f"/api/events/{event['id']}/decks"
    for headers in ({"content-type": "text/plain"}, {}, {"content-type": "multipart/form-data"}):
        r = client.post(url, content=LEGAL.encode(), headers=headers)
        assert r.status_code == 400 and set(r.json()) == {"error"}
    token = event["organiser_token"]
    assert client.get(url, params={"token": token}).status_code == 401  # the API reads the header only
    client.cookies.set("deckcheck_desk", token)
    assert client.get(url).status_code == 401  # nor the organiser pages' cookie
    client.cookies.delete("deckcheck_desk")
    for value, status in ((f"Basic {token}", 401), ("Bearer", 401), (f"Bearer {token} x", 403),
                          (b"Bearer \xe9\xff", 403), ("Bearer " + "x" * 10_000, 403), (f"bearer {token}", 200)):
        assert client.get(url, headers={"Authorization": value}).status_code == status, value
    assert client.get(f"/desk/{event['id']}/admin", params={"token": ""}).status_code == 401


@pytest.mark.parametrize("setting", ["ten", "5/0", "-1/60"])
def test_serve_refuses_a_bad_rate_limit_setting_before_it_starts(setting, monkeypatch, tmp_path):
    """A bad $DECKCHECK_DESK_RATE stops `serve` with exit 2 and one line, not every desk request with a 500."""
    from inproc import run_cli
    monkeypatch.setenv("DECKCHECK_DESK_RATE", setting)
    monkeypatch.setattr("uvicorn.run", lambda *a, **k: pytest.fail("the server started"))
    result = run_cli("serve", "--port", "9", "--db", f"sqlite:///{tmp_path / 'x.db'}")
    assert result.code == 2 and b"DECKCHECK_DESK_RATE" in result.err and setting.encode() in result.err


def test_downloads_are_the_very_reports_the_cli_writes(client, tmp_path, monkeypatch):
    """Decks uploaded under the names the CLI is given: report.csv and .json are byte for byte what
    `deckcheck tournament check --out` writes, report.xlsx the same cells on every sheet, from the API and
    from the dashboard's links alike."""
    from python_calamine import CalamineWorkbook

    from inproc import run_cli
    event = new_event(client)
    names = {"anna.txt": LEGAL, "bob.txt": ILLEGAL, "carl.txt": TYPO}
    for name, text in names.items():
        (tmp_path / name).write_text(text)
        r = client.post(f"/api/events/{event['id']}/decks", data={"player": name.removesuffix(".txt")},
                        files={"file": (name, text.encode())})
        assert r.status_code == 201, r.text
    monkeypatch.chdir(tmp_path)
    db = client.app.state.deckcheck.settings.db_url
    for kind in ("csv", "json", "xlsx"):
        run = run_cli("tournament", "check", *names, "--format", "type1e", "--out", f"cli.{kind}", "--db", db)
        assert run.code == 2, run.err  # a deck is unreadable
    client.get(event["dashboard_url"].replace("http://testserver", ""))
    for kind in ("csv", "json", "xlsx"):
        api = client.get(f"/api/events/{event['id']}/report.{kind}", headers=auth(event))
        page = client.get(f"/desk/{event['id']}/admin/report.{kind}")
        assert api.status_code == page.status_code == 200 and api.content == page.content
        assert api.headers["content-disposition"] == f'attachment; filename="report.{kind}"'
        cli = (tmp_path / f"cli.{kind}").read_bytes()
        if kind == "json":  # the desk knows when each deck came; the CLI does not
            ours_json = json.loads(api.content)
            stamp = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d"
            assert all(re.fullmatch(stamp, d["submitted_at"]) for d in ours_json)
            assert [d | {"submitted_at": None} for d in ours_json] == json.loads(cli)
            continue
        if kind == "csv":
            ours_csv = list(csv.reader(io.StringIO(api.content.decode("utf-8-sig"))))
            at = ours_csv[0].index("submitted_at")
            assert [row[:at] + [""] + row[at + 1:] for row in ours_csv[1:]] == \
                list(csv.reader(io.StringIO(cli.decode("utf-8-sig"))))[1:]
            continue
        ours, theirs = CalamineWorkbook.from_filelike(io.BytesIO(api.content)), CalamineWorkbook.from_path("cli.xlsx")
        assert ours.sheet_names == theirs.sheet_names
        for sheet in theirs.sheet_names:
            rows, cli_rows = ours.get_sheet_by_name(sheet).to_python(), theirs.get_sheet_by_name(sheet).to_python()
            if sheet == "Summary":
                at = rows[0].index("submitted_at")
                rows = [rows[0]] + [row[:at] + [""] + row[at + 1:] for row in rows[1:]]
            assert rows == cli_rows, sheet


def test_organiser_pages_refused_show_no_player_and_no_deck(client):
    """Without the organiser's cookie (401) or with another event's (403), every organiser page and download
    answers one sentence: no player's name, persona or card."""
    event, other = new_event(client), new_event(client)
    anna = submit(client, event, "Secret Sam", ILLEGAL)
    pages = ["admin", "admin/table", "admin/print", f"admin/decks/{anna['deck_id']}", "admin/report.csv",
             "admin/report.xlsx", "admin/report.json", f"admin/diff?a={anna['deck_id']}&b={anna['deck_id']}"]
    client.cookies.clear()
    for cookie, status in ((None, 401), (other["organiser_token"], 403), ("forged", 403)):
        if cookie:
            client.cookies.set("deckcheck_desk", cookie, path=f"/desk/{event['id']}")
        for path in pages:
            r = client.get(f"/desk/{event['id']}/{path}")
            assert r.status_code == status, (path, cookie)
            assert "Sam" not in r.text and "Kurgan" not in r.text and "Back Away" not in r.text, path
        r = client.post(f"/desk/{event['id']}/admin/close", data={"csrf_token": csrf(client)})
        assert r.status_code == status
    assert client.get(f"/api/events/{event['id']}").json()["open"] is True


def test_the_rate_limit_is_set_by_the_environment(module_db_url, monkeypatch):
    """DECKCHECK_DESK_RATE=N/SECONDS, as README says; the 429 names the limit."""
    from fastapi.testclient import TestClient

    from deckcheck.web import create_app
    monkeypatch.setenv("DECKCHECK_DESK_RATE", "2/3600")
    with TestClient(create_app(db_url=module_db_url), client=(f"10.9.{uuid.uuid4().int % 250}.7", 5000)) as c:
        event = new_event(c)
        for player in ("A", "B"):
            submit(c, event, player, LEGAL)
        r = c.post(f"/api/events/{event['id']}/decks", json={"player": "C", "decklist": LEGAL})
        assert r.status_code == 429 and "more than 2 submissions" in r.json()["error"]
    monkeypatch.setenv("DECKCHECK_DESK_RATE", "0")
    with TestClient(create_app(db_url=module_db_url)) as c:
        event = new_event(c)
        for n in range(5):
            submit(c, event, f"P{n}", LEGAL)


@pytest.mark.parametrize("host, warned", [("127.0.0.1:8000", True), ("localhost:8000", True), ("[::1]:8000", True),
                                          ("192.168.1.20:8000", False), ("desk.example.org", False)])
def test_links_made_on_a_loopback_address_are_flagged(desk_app, host, warned):
    """An organiser who opens the desk as http://127.0.0.1:8000 on the server itself would hand the players a
    link and QR code their phones cannot open: the page says so, where it shows them."""
    from fastapi.testclient import TestClient

    from deckcheck.web import create_app
    from deckcheck.web.hosts import hosts_for_bind
    # a server on every address, with a name given by --allowed-host, as `serve` would make it
    app = create_app(db_url=desk_app.state.deckcheck.settings.db_url,
                     allowed_hosts=hosts_for_bind("0.0.0.0", ["desk.example.org", "testserver"]))
    with TestClient(app) as client:
        _links_flagged(client, host, warned)


def _links_flagged(client, host: str, warned: bool) -> None:
    form = {"name": "Club night", "format": "type1e", "csrf_token": csrf(client)}
    r = client.post("/desk", data=form, headers={"host": host}, follow_redirects=False)
    assert r.status_code == 303
    r = client.get(r.headers["location"], headers={"host": host})
    assert ('id="desk-loopback"' in r.text) is warned
    link = found(r'value="(http[^"]+/admin\?token=[^"]+)"', r.text)
    assert link.startswith(f"http://{host}/desk/")
    dashboard = client.get(link.split(host, 1)[1], headers={"host": host})
    assert dashboard.status_code == 200 and ('id="desk-loopback"' in dashboard.text) is warned


def test_a_suggestion_on_the_players_report_carries_its_rewritten_line(client):
    """Under a line that could not be read, each suggestion comes with that line as written and as it reads with
    the suggested name (quantity kept), for the page to write into the form; not for a file whose lines the
    form does not show as written, and not once the event is closed."""
    event = new_event(client)
    r = client.post(f"/desk/{event['id']}", data={"player": "Carl", "decklist": TYPO.replace("3 Uper", "3x  Uper"),
                                                  "csrf_token": csrf(client)})
    assert sent_page(r)
    fixes = re.findall(r'<li data-line="(\d+)" data-name="([^"]*)" data-from="([^"]*)" data-to="([^"]*)">', r.text)
    assert ("4", "Upper Left Attack", "3x  Uper Left Attack", "3x  Upper Left Attack") in fixes
    assert all(to.startswith("2 ") for line, _, _, to in fixes if line == "5") and len(fixes) > 2
    private = found(rf'href="(/desk/{event["id"]}/decks/[^"]+)"', r.text)
    assert 'id="desk-fixes"' in client.get(private).text  # the private link offers them too
    sheet = "name,quantity\nUper Left Attack,3\nThrust,40\n"
    r = client.post(f"/desk/{event['id']}", data={"player": "Dora", "csrf_token": csrf(client)},
                    files={"file": ("dora.csv", sheet.encode())})
    assert sent_page(r) and "Uper" in r.text and 'id="desk-fixes"' not in r.text
    client.post(f"/api/events/{event['id']}/close", headers=auth(event))
    assert 'id="desk-fixes"' not in client.get(private).text


def test_the_live_table_shows_the_events_state(client):
    """The event's state is in the part of the dashboard that updates itself (an organiser watching sees the
    deadline pass), not only in the page as it was loaded."""
    now = dt.datetime.now(dt.timezone.utc)
    for moment, state in ((now + dt.timedelta(hours=1), "open"), (now - dt.timedelta(seconds=1), "past the deadline")):
        event = new_event(client, deadline=moment.isoformat())
        client.get(event["dashboard_url"].replace("http://testserver", ""))
        assert f'id="event-state">{state}<' in client.get(f"/desk/{event['id']}/admin/table").text


def test_a_name_is_not_a_key_no_submission_shows_another_ones_list_or_link(client):
    """Issue 28: submitting under another player's name showed that player's earlier decks, full lists and private
    links, on the answer page and on the new private link."""
    event = new_event(client)
    first = submit(client, event, "Anna", ILLEGAL)
    second = submit(client, event, "Anna", LEGAL, replaces=first)  # Anna's own resubmission
    scout = client.post(f"/desk/{event['id']}", data={"player": "anna", "decklist": TYPO, "csrf_token": csrf(client)})
    assert sent_page(scout) and 'id="desk-name-taken"' in scout.text
    assert "under the name\n    <bdi>anna</bdi>" in scout.text  # the name typed, through the redirect
    link = found(rf'href="/desk/{event["id"]}/decks/([^"]+)">your private link', scout.text)
    for page in (scout.text, client.get(f"/desk/{event['id']}/decks/{link}").text):
        assert first["deck_id"] not in page and second["deck_id"] not in page
        assert html.escape(ILLEGAL.splitlines()[0]) not in page and html.escape(LEGAL.splitlines()[0]) not in page
        assert page.count('<li><strong><a href="/desk/') + page.count('<li><a href="/desk/') == 1  # its own deck only
    api = submit(client, event, "ANNA", TYPO)
    assert api["player"] == "ANNA (3)" and api["submissions"] == 1
    # Anna's own private link still resubmits, into her decks alone
    mine = client.get(f"/desk/{event['id']}/decks/{second['deck_id']}").text
    assert f'name="replaces" value="{second["deck_id"]}"' in mine and link not in mine
    again = client.post(f"/desk/{event['id']}", data={"player": "Anna", "decklist": LEGAL, "csrf_token": csrf(client),
                                                      "replaces": second["deck_id"]})
    assert sent_page(again) and "Received: deck 3 from" in again.text and 'desk-name-taken' not in again.text
    assert link not in again.text and first["deck_id"] in again.text
    # the organiser sees three players, every one of the shared name flagged
    decks = client.get(f"/api/events/{event['id']}/decks", headers=auth(event)).json()
    assert sorted((d["player"], d["submissions"]) for d in decks) == [("ANNA (3)", 1), ("Anna", 3), ("anna (2)", 1)]
    client.get(event["dashboard_url"].replace("http://testserver", ""))
    table = client.get(f"/desk/{event['id']}/admin").text
    assert table.count('class="desk-name-shared"') == 3
    assert submit(client, event, "Bob", LEGAL, replaces={"deck_id": "no-such-deck"}, status=404)
