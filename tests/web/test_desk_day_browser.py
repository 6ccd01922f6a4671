"""A whole event day at the tournament desk in a real browser (issue 23), on one SQLite server and on two servers
sharing one PostgreSQL database: an event with a deadline, four phones
(360 to 390 px) sending decks (one unreadable then fixed, one resent under another spelling), the dashboard
filling up by itself, what changed between every pair of a player's decks, the deadline locking the lists (a
late phone and a direct API call refused with 409, the text kept on the phone), a judge's deck check with one
difference saved and seen on the dashboard and in report.xlsx, a draw of players to check, and the printout:
one PDF page per player with the cleaned list and the event's local time.

Screenshots go to $DECKCHECK_SCREENSHOTS when set (to look at them), else to the test's temporary folder.
"""
from __future__ import annotations

import datetime as dt
import io
import json
import re
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest

from conftest import _pg_url, fresh_pg
from test_desk_browser import DESKTOP, shots, sideways  # noqa: F401 - fixtures
from test_desk_serve import start, stop

ROOT = Path(__file__).resolve().parents[2]
DECKS = ROOT / "examples" / "decks"
LEGAL = (DECKS / "type1e-connor-legal.txt").read_text()
ILLEGAL = (DECKS / "type1e-kurgan-illegal.txt").read_text()
TYPO = (DECKS / "type1e-typo.txt").read_text()
OFFSET = "+05:30"  # the organiser's time zone: neither UTC nor the machine's
ZONE = dt.timezone(dt.timedelta(hours=5, minutes=30))
PHONES = [360, 375, 390, 360]
OPEN_SECONDS = 50  # from the event's creation to its deadline: time for four phones to send six decks


def phone(browser, width: int):  # noqa: F811 - the fixture's value
    return browser.new_context(viewport={"width": width, "height": 800}, device_scale_factor=2, is_mobile=True,
                               has_touch=True).new_page()


def call(method: str, url: str, body: dict | None = None, token: str | None = None) -> tuple[int, Any]:
    headers = {"content-type": "application/json"} | ({"authorization": f"Bearer {token}"} if token else {})
    request = urllib.request.Request(url, data=json.dumps(body).encode() if body is not None else None,
                                     headers=headers, method=method)
    try:
        with urllib.request.urlopen(request) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


def send(page, player: str, text: str) -> None:
    """Type a name and a decklist into the phone's form and send it."""
    page.fill("#submit-form input[name=player]", player)
    page.fill("#submit-form textarea[name=decklist]", text)
    page.click("#submit-form button[type=submit]")


@pytest.fixture
def server_sets(tmp_path):
    """{"sqlite": one server on SQLite, "postgresql": two servers on one PostgreSQL database (phones and organiser
    spread over both)}; the PostgreSQL pair only where DECKCHECK_TEST_PG names a server (CI fails without it)."""
    sets = {"sqlite": [f"sqlite:///{tmp_path / 'day.db'}"]}
    pg = _pg_url()
    if pg:
        sets["postgresql"] = [fresh_pg(pg)] * 2
    procs: list = []
    try:
        bases: dict[str, list[str]] = {}
        for kind, urls in sets.items():
            for url in urls:
                proc, base = start(url, DECKCHECK_DESK_RATE="0")
                procs.append(proc)
                bases.setdefault(kind, []).append(base)
        yield bases
    finally:
        stop(*procs)


@pytest.mark.postgres
def test_an_event_day(browser, shots, server_sets):  # noqa: F811 - fixtures
    """The day on each database, side by side: one event opens and its phones send, then the next one's (while the
    first waits for its deadline), then each goes on past its deadline. Each event has all of OPEN_SECONDS for its
    phones, as when the days ran one after the other, and the wait for the deadline (most of a day's time) is
    spent on the other day."""
    days = [event_day(browser, shots, servers) for servers in server_sets.values()]
    for _stage in range(2):  # up to the deadline; the rest of the day
        for day in days:
            next(day, None)
    assert [next(day, "over") for day in days] == ["over"] * len(days)


def event_day(browser, shots, servers: list[str]) -> Iterator[None]:  # noqa: F811 - the fixture's value
    """One event day on `servers` in two stages, the deadline between (test_an_event_day runs two side by side)."""
    from playwright.sync_api import expect
    base, other = servers[0], servers[-1]  # the organiser's and the API's; phones alternate between both
    deadline = (dt.datetime.now(ZONE) + dt.timedelta(seconds=OPEN_SECONDS)).replace(microsecond=0)
    status, event = call("POST", f"{base}/api/events", {
        "name": "Highlander Open", "format": "type1e", "deadline": deadline.isoformat(),
        "expected": ["Carla Díaz", "Bob"]})
    assert status == 201, event
    assert isinstance(event, dict)
    token, api = event["organiser_token"], f"{base}/api/events/{event['id']}"
    event["dashboard_url"] = event["dashboard_url"].replace(base, other)
    organiser = browser.new_context(**DESKTOP)
    dash = organiser.new_page()
    dash.goto(event["dashboard_url"])
    expect(dash.locator("#event-state")).to_have_text("open")

    # four phones send their decks; the dashboard fills up by itself
    anna, carla, bob, dora = (phone(browser, w) for w in PHONES)
    for n, page in enumerate((anna, carla, bob, dora)):
        page.goto(event["submit_url"].replace(base, servers[n % len(servers)]))
    send(anna, "Anna", TYPO)
    expect(anna.locator(".report .verdict")).to_contain_text("Not checked")  # unreadable: the report says so
    anna.screenshot(path=str(shots / "day-unreadable-360.png"), full_page=True)
    send(anna, "Anna", LEGAL)  # fixed, from the form under the report
    send(carla, "carla díaz", ILLEGAL)
    send(carla, "CARLA DÍAZ", LEGAL)  # the same player, another spelling
    send(bob, "Bob", LEGAL)
    send(dora, "Dora", ILLEGAL)
    expect(dash.locator("tr[data-player]")).to_have_count(4, timeout=15000)  # no reload: the poll
    assert dash.locator("tr[data-player]").evaluate_all("rows => rows.map(r => r.dataset.player)") == [
        "Anna", "Carla Díaz", "Bob", "Dora"]  # the expected player's spelling, not the later one
    assert sideways(dash) == []
    dash.screenshot(path=str(shots / "day-dashboard-1280.png"), full_page=True)

    # what changed, for every pair of a player's decks (the unreadable one included)
    for player in ("Anna", "Carla Díaz"):
        dash.click(f'tr[data-player="{player}"] a')
        links = dash.locator("a.desk-diff")
        hrefs = [links.nth(n).get_attribute("href") for n in range(links.count())]
        assert len(set(hrefs)) == 1, hrefs  # two decks: one pair
        dash.goto(other + hrefs[0])
        expect(dash.locator("h1")).to_have_text(f"What changed for {player}")
        expect(dash.locator(".diff-cards li")).not_to_have_count(0)
        dash.go_back()
        dash.goto(event["dashboard_url"].split("?")[0])

    yield
    # the deadline locks the lists
    remaining = (deadline - dt.datetime.now(ZONE)).total_seconds()
    assert remaining > 0, "the phones took longer than the event was open: raise OPEN_SECONDS"
    time.sleep(remaining + 1)
    expect(dash.locator("#event-state")).to_have_text("past the deadline", timeout=10000)
    late_text = LEGAL.replace("4 Thrust (2)", "3 Thrust (2)")
    send(dora, "Dora", late_text)
    expect(dora.locator("#desk-closed")).to_be_visible()
    expect(dora.locator("#desk-kept")).to_have_value(late_text)  # the text stays on the phone
    expect(dora.locator("#desk-counting")).to_contain_text("deck 1")
    dora.screenshot(path=str(shots / "day-late-360.png"), full_page=True)
    assert sideways(dora) == []
    status, refused = call("POST", f"{api}/decks", {"player": "Dora", "decklist": late_text})
    assert status == 409 and "closed" in refused["error"]
    status, decks = call("GET", f"{api}/decks", token=token)
    assert status == 200 and isinstance(decks, list)
    by_player = {d["player"]: d for d in decks}
    assert [by_player[p]["submissions"] for p in ("Anna", "Carla Díaz", "Bob", "Dora")] == [2, 2, 1, 1]
    assert all(d["submitted_at"].endswith(OFFSET) and len(d["fingerprint"]) == 8 for d in decks)
    assert by_player["Dora"]["legal"] is False  # the locked list is the one sent in time

    # the player's private page: the locked list, its fingerprint, their history
    anna.goto(by_player["Anna"]["deck_url"])
    expect(anna.locator("#desk-locked .fingerprint")).to_have_text(by_player["Anna"]["fingerprint"])
    expect(anna.locator("#desk-history li")).to_have_count(2)
    expect(anna.locator("#desk-history li").last).to_contain_text("locked: counts")
    anna.screenshot(path=str(shots / "day-locked-360.png"), full_page=True)
    assert sideways(anna) == []

    # a judge counts Bob's deck at the table, on a phone, and finds one card short
    judge = phone(browser, 360)
    judge.goto(event["dashboard_url"].replace(other, base))  # the judge's phone on the other server
    judge.click('tr[data-player="Bob"] td.desk-check a')
    expect(judge.locator("h1")).to_contain_text("Bob")
    judge.click('.count-row[data-card="Thrust (2)"] button[value="Thrust (2)|-1"]')
    expect(judge.locator("#count-lines")).to_contain_text("Thrust (2): registered 4, counted 3")
    expect(judge.locator("#count-lines")).to_contain_text("Endurance 50 counted, 51 registered")
    judge.screenshot(path=str(shots / "day-count-360.png"), full_page=False)
    assert sideways(judge) == []
    judge.fill("input[name=judge]", "Judge Ines")
    judge.fill("textarea[name=note]", "one Thrust in the sleeve box")
    judge.click("button[value=save]")
    expect(judge.locator("#check-outcome")).to_contain_text("1 difference")
    expect(dash.locator('tr[data-player="Bob"] .check-differs')).to_have_text("differs", timeout=10000)
    status, checks = call("GET", f"{api}/deckchecks", token=token)
    assert status == 200 and isinstance(checks, list) and len(checks) == 1
    assert [d | {"why": ""} for d in checks[0]["differences"]] == \
        [{"card": "Thrust (2)", "registered": 4, "counted": 3, "problem": "deck", "why": ""}]
    assert checks[0]["judge"] == "Judge Ines" and checks[0]["at"].endswith(OFFSET)

    # the report.xlsx of the dashboard holds the check
    with dash.expect_download() as got:
        dash.click("a[href$='report.xlsx']")
    from python_calamine import CalamineWorkbook
    book = CalamineWorkbook.from_filelike(io.BytesIO(Path(got.value.path()).read_bytes()))
    rows = book.get_sheet_by_name("Deck checks").to_python()
    assert rows[1][:2] == ["Bob", "Judge Ines"] and rows[1][4] == "no"
    assert "Thrust (2): registered 4" in str(rows[1][5])
    summary = book.get_sheet_by_name("Summary").to_python()
    assert [r[summary[0].index("submissions")] for r in summary[1:]] == [2, 2, 1, 1]

    # a fair draw among the players not checked yet (the form is on the dashboard once the lists are locked)
    dash.reload()
    dash.fill("#draw-form input[name=n]", "2")
    dash.fill("#draw-form input[name=seed]", "table 7")
    dash.click("#draw-form button[type=submit]")
    expect(dash.locator("#draw-seed")).to_have_text("table 7")
    drawn = dash.locator("#drawn li").all_inner_texts()
    assert len(drawn) == 2 and "Bob" not in drawn
    status, again = call("POST", f"{api}/draw", {"n": 2, "seed": "table 7"}, token=token)
    assert status == 200 and isinstance(again, dict) and again["players"] == drawn

    # the printout: one page per player, the cleaned list, the event's local time
    dash.goto(event["dashboard_url"].split("?")[0].replace("/admin", "/admin/print"))
    sheets = dash.locator("section.sheet")
    expect(sheets).to_have_count(4)
    sent = dt.datetime.fromisoformat(by_player["Bob"]["submitted_at"]).strftime("%Y-%m-%d %H:%M")
    expect(dash.locator('section.sheet[data-player="Bob"]')).to_contain_text(f"{sent} (UTC{OFFSET})")
    expect(dash.locator('section.sheet[data-player="Bob"]')).to_contain_text(by_player["Bob"]["fingerprint"])
    expect(dash.locator('section.sheet[data-player="Bob"]')).not_to_contain_text("# Connor MacLeod (Persona")
    dash.screenshot(path=str(shots / "day-print-1280.png"), full_page=True)
    for paper in ("A4", "Letter"):
        pdf = dash.pdf(format=paper, print_background=True)
        (shots / f"day-print-{paper}.pdf").write_bytes(pdf)
        assert len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf)) == 4, paper
    organiser.close()


@pytest.mark.parametrize("width", [360, 1280])
def test_the_counting_sheet_works_without_javascript(browser, shots, tmp_path, width):  # noqa: F811
    """No JavaScript: − and + send the form, the page comes back counted, and saving keeps the check."""
    from playwright.sync_api import expect
    proc, base = start(f"sqlite:///{tmp_path / 'nojs.db'}", DECKCHECK_DESK_RATE="0")
    try:
        status, event = call("POST", f"{base}/api/events", {"name": "Club night", "format": "type1e"})
        assert status == 201 and isinstance(event, dict)
        api = f"{base}/api/events/{event['id']}"
        assert call("POST", f"{api}/decks", {"player": "Eve", "decklist": LEGAL})[0] == 201
        assert call("POST", f"{api}/close", token=event["organiser_token"])[0] == 200
        context = browser.new_context(viewport={"width": width, "height": 800}, java_script_enabled=False)
        page = context.new_page()
        page.goto(event["dashboard_url"])
        page.click('tr[data-player="Eve"] td.desk-check a')
        page.click('button[value="Thrust (2)|+1"]')
        expect(page.locator('.count-row[data-card="Thrust (2)"] input')).to_have_value("5")
        expect(page.locator("#count-lines")).to_contain_text("Thrust (2): registered 4, counted 5")
        page.fill("input[name=extra_name_1]", "Connor MacLeod Back Away")
        page.fill("input[name=extra_count_1]", "1")
        page.click("button[value=compute]")
        expect(page.locator("#count-lines")).to_contain_text("Connor MacLeod Back Away: registered 1, counted 2")
        page.screenshot(path=str(shots / f"day-count-nojs-{width}.png"), full_page=True)
        assert sideways(page) == []
        page.fill("input[name=judge]", "Sam")
        page.click("button[value=save]")
        expect(page.locator("#check-outcome")).to_contain_text("2 differences")
        context.close()
    finally:
        stop(proc)
