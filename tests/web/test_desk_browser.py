"""The tournament desk in a real browser (Chromium from Debian, driven by Playwright): an organiser creates
an event, three players submit from phone-sized pages, the dashboard fills up by itself, and the XLSX it
downloads has the verdicts of `deckcheck tournament check` on the same decks.

Screenshots go to $DECKCHECK_SCREENSHOTS when set (to look at them), else to the test's temporary folder.
"""
from __future__ import annotations

import datetime as dt
import json
import os
import re
import subprocess
import urllib.request
from pathlib import Path

import pytest

from test_desk_serve import EXE, start, stop

ROOT = Path(__file__).resolve().parents[2]
DECKS = ROOT / "examples" / "decks"
PHONE = {"viewport": {"width": 360, "height": 780}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
ZONE = "Europe/Berlin"  # the organiser's: summer time from March to October


def other_season_deadline() -> dt.datetime:
    """10:00 in ZONE on a date next year whose UTC offset differs from today's (January or July)."""
    from zoneinfo import ZoneInfo
    zone = ZoneInfo(ZONE)
    today = dt.datetime.now(zone)
    for month in (1, 7):
        moment = dt.datetime(today.year + 1, month, 15, 10, 0, tzinfo=zone)
        if moment.utcoffset() != today.utcoffset():
            return moment
    raise AssertionError("no date of another offset")


@pytest.fixture(scope="module")
def desk_server(tmp_path_factory):
    """`deckcheck serve` on a fresh SQLite database, with no rate limit."""
    url = f"sqlite:///{tmp_path_factory.mktemp('desk-browser') / 'desk.db'}"
    proc, base = start(url, DECKCHECK_DESK_RATE="0")
    try:
        yield base, url
    finally:
        stop(proc)




@pytest.fixture()
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("DECKCHECK_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_an_event_from_creation_to_the_report(desk_server, browser, shots, tmp_path):
    from playwright.sync_api import expect
    base, db_url = desk_server
    organiser = browser.new_context(**DESKTOP, timezone_id=ZONE)
    page = organiser.new_page()
    page.goto(f"{base}/desk")
    page.fill("input[name=name]", "Spring Open <2026>")
    page.select_option("select[name=format]", "type1e")
    deadline = other_season_deadline()
    page.fill("input[name=deadline]", deadline.strftime("%Y-%m-%dT%H:%M"))
    page.fill("textarea[name=expected]", "Anna\nBob\nCarl\nDora")
    page.click("button[type=submit]")
    expect(page.locator("h1")).to_have_text("Spring Open <2026>")
    dashboard_link = page.input_value("#organiser-link")
    player_link = page.input_value("#player-link")
    # the deadline was typed in the organiser's local time, on a date whose offset from UTC is not today's
    with urllib.request.urlopen(player_link.replace("/desk/", "/api/events/")) as r:
        assert json.load(r)["deadline"] == deadline.astimezone(dt.timezone.utc).isoformat()
    assert re.fullmatch(rf"{base}/desk/[\w-]+/admin\?token=[\w-]{{43}}", dashboard_link)
    assert page.locator(".desk-qr svg").count() == 1
    page.screenshot(path=str(shots / "desk-created-1280.png"), full_page=True)
    page.click("#open-dashboard")
    expect(page).to_have_url(re.compile(r"/admin$"))  # the token has left the address bar
    expect(page.locator("#missing")).to_contain_text("Anna, Bob, Carl, Dora")

    decks = {"Anna": ("paste", DECKS / "type1e-connor-legal.txt", "legal"),
             "Bob": ("paste", DECKS / "type1e-kurgan-illegal.txt", "NOT LEGAL"),
             "Carl": ("file", DECKS / "type1e-typo.txt", "unreadable")}
    links: dict[str, str] = {}  # each player's private link (its deck id)
    for player, (how, path, verdict) in decks.items():
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(player_link)
        phone.fill("input[name=player]", player)
        if how == "paste":
            phone.fill("textarea[name=decklist]", path.read_text())
        else:
            phone.set_input_files("input[name=file]", str(path))
        if player == "Bob":
            phone.screenshot(path=str(shots / "desk-player-360.png"), full_page=True)
        phone.click("#submit-form button[type=submit]")
        expect(phone.locator(".report")).to_have_count(1)
        links[player] = str(phone.locator("#desk-received a").get_attribute("href")).rsplit("/", 1)[1]
        shown = {"legal": "Legal", "NOT LEGAL": "Not legal", "unreadable": "Not checked"}[verdict]
        expect(phone.locator(".report .verdict strong")).to_have_text(
            re.compile(rf"^{shown}( — \d+ rules? unverified)?$"))
        if player == "Bob":
            phone.screenshot(path=str(shots / "desk-report-360.png"), full_page=True)
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"the player page scrolls sideways on a phone ({width} px)"
        phone.context.close()

    PROVISIONAL = r"(\s*NOT CHECKED — and \d+ errors? in the lines that read)?"  # an unreadable deck's verdict so far
    # the dashboard filled up by itself (htmx polling), without a reload
    for player, (_how, _path, verdict) in decks.items():
        expect(page.locator(f'tr[data-player="{player}"] td.desk-verdict')).to_have_text(
            re.compile(rf"^{verdict}( — \d+ rules? unverified)?{PROVISIONAL}$"), timeout=20_000)
    expect(page.locator("#missing")).to_have_text("Missing: Dora")
    page.screenshot(path=str(shots / "desk-dashboard-1280.png"), full_page=True)

    with page.expect_download() as download:
        page.click("a[href$='report.xlsx']")
    ours = tmp_path / "desk.xlsx"
    download.value.save_as(ours)

    folder = tmp_path / "decks"
    folder.mkdir()
    for player, (_how, path, _verdict) in decks.items():
        (folder / f"{player}.txt").write_text(path.read_text())
    theirs = tmp_path / "cli.xlsx"
    subprocess.run([EXE, "tournament", "check", str(folder), "--format", "type1e", "--out", str(theirs),
                    "--db", db_url], capture_output=True)
    from python_calamine import CalamineWorkbook

    def verdicts(path: Path) -> list[tuple[str, str]]:
        rows = CalamineWorkbook.from_path(str(path)).get_sheet_by_name("Summary").to_python()
        return sorted((str(r[0]), str(r[6])) for r in rows[1:])

    assert verdicts(ours) == verdicts(theirs) == [("Anna", "legal"), ("Bob", "NOT LEGAL"), ("Carl", "unreadable")]

    page.click('tr[data-player="Bob"] a')
    expect(page.locator("#desk-cleaned")).to_contain_text("Kurgan")
    page.go_back()

    # the judges' printout: every decklist on a page of its own
    with page.expect_popup() as popup:
        page.click("a[href$='/admin/print']")
    printout = popup.value
    printout.wait_for_load_state()
    printout.screenshot(path=str(shots / "desk-print-1280.png"), full_page=True)
    pdf = printout.pdf(format="A4")
    assert len(re.findall(rb"/Type\s*/Page\b", pdf)) == len(decks)
    printout.close()

    # Bob fixes his deck; the organiser sees what changed between his two decks, on a desktop and a phone
    event_id = dashboard_link.split("/desk/")[1].split("/")[0]
    fixed = json.dumps({"player": "Bob", "decklist": (DECKS / "type1e-connor-legal.txt").read_text(),
                        "replaces": links["Bob"]}).encode()  # from Bob's private link
    request = urllib.request.Request(f"{base}/api/events/{event_id}/decks", data=fixed, method="POST",
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request) as r:
        assert r.status == 201
    expect(page.locator('tr[data-player="Bob"] td.desk-verdict')).to_have_text(
        re.compile(r"^legal( — \d+ rules? unverified)?$"), timeout=20_000)
    page.click('tr[data-player="Bob"] a')
    page.click("text=What changed since the deck before this one")
    expect(page.locator("h1")).to_have_text("What changed for Bob")
    expect(page.locator(".diff-verdict.illegal strong")).to_have_text("Not legal")
    expect(page.locator(".diff-verdict.legal strong")).to_have_text("Legal")
    expect(page.locator(".diff-cards li.added").first).to_be_visible()
    page.screenshot(path=str(shots / "desk-diff-1280.png"), full_page=True)
    diff_phone = browser.new_context(**PHONE).new_page()
    diff_phone.goto(dashboard_link)
    diff_phone.goto(page.url)
    expect(diff_phone.locator("h1")).to_have_text("What changed for Bob")
    width = diff_phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the comparison scrolls sideways on a phone ({width} px)"
    diff_phone.screenshot(path=str(shots / "desk-diff-360.png"), full_page=True)
    diff_phone.context.close()
    page.goto(f"{base}/desk/{event_id}/admin")
    page.on("dialog", lambda dialog: dialog.accept())
    page.click(".desk-close button")
    expect(page.locator("#event-state")).to_contain_text("closed")

    phone = browser.new_context(**PHONE).new_page()
    phone.goto(player_link)
    expect(phone.locator("#desk-closed")).to_contain_text("closed")
    phone.screenshot(path=str(shots / "desk-closed-360.png"), full_page=True)
    dash_phone = browser.new_context(**PHONE).new_page()
    dash_phone.goto(dashboard_link)
    expect(dash_phone.locator('tr[data-player="Anna"]')).to_be_visible()
    dash_phone.screenshot(path=str(shots / "desk-dashboard-360.png"), full_page=True)
    assert sideways(dash_phone) == [], "the dashboard scrolls sideways on a phone"
    organiser.close()


def sideways(page) -> list[str]:
    """What is wider than its box on the page: the page itself, or the table's scrolling box."""
    return page.evaluate("""() => [document.documentElement, ...document.querySelectorAll('.table-wrap')]
        .filter(el => el.scrollWidth > el.clientWidth + 1).map(el => el.className || el.tagName)""")


def test_long_and_right_to_left_names_fit_a_phone(desk_server, browser, shots):
    """Names are typed by strangers: 80 letters without a space, Arabic, markup. On a 360 px phone neither the
    dashboard, the deck page nor the printout scrolls sideways, and the markup is shown as text."""
    from playwright.sync_api import expect
    base, _ = desk_server
    request = urllib.request.Request(f"{base}/api/events", method="POST", headers={"content-type": "application/json"},
                                     data=json.dumps({"name": "W" * 200, "format": "type1e"}).encode())
    with urllib.request.urlopen(request) as r:
        event = json.load(r)
    names = ["A" * 80, "\u0639\u0644\u064a\u0651 \u0628\u0646 \u0623\u0628\u064a \u0637\u0627\u0644\u0628",
             "<b>Bold</b> Bob"]
    for name in names:
        body = json.dumps({"player": name, "decklist": (DECKS / "type1e-connor-legal.txt").read_text()}).encode()
        with urllib.request.urlopen(urllib.request.Request(event["submit_url"].replace("/desk/", "/api/events/")
                                                           + "/decks", data=body, method="POST",
                                                           headers={"content-type": "application/json"})) as r:
            deck_url = json.load(r)["deck_url"]
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(event["dashboard_url"])
    expect(phone.locator("tr[data-player]")).to_have_count(3)
    expect(phone.locator('tr[data-player="<b>Bold</b> Bob"] a')).to_have_text("<b>Bold</b> Bob")
    phone.screenshot(path=str(shots / "desk-dashboard-names-360.png"), full_page=True)
    assert sideways(phone) == [], "the dashboard scrolls sideways"
    phone.click(f'tr[data-player="{names[0]}"] a')
    expect(phone.locator("h1")).to_have_text(names[0])
    assert sideways(phone) == [], "the organiser's deck page scrolls sideways"
    phone.goto(event["dashboard_url"].split("/admin")[0] + "/admin/print")
    phone.screenshot(path=str(shots / "desk-print-names-360.png"), full_page=True)
    assert sideways(phone) == [], "the printout scrolls sideways"
    phone.goto(deck_url)
    assert sideways(phone) == [], "the player's own report scrolls sideways"
    phone.context.close()


def test_a_player_fixes_a_misspelt_line_by_tapping_its_suggestion(desk_server, browser, shots):
    """On the phone, the suggestions under a line that could not be read are buttons: one tap writes the name on
    that line of the decklist in the form (its quantity kept), and submitting again checks the fixed deck."""
    from playwright.sync_api import expect
    base, _ = desk_server
    request = urllib.request.Request(f"{base}/api/events", method="POST", headers={"content-type": "application/json"},
                                     data=json.dumps({"name": "Fix night", "format": "type1e"}).encode())
    with urllib.request.urlopen(request) as r:
        event = json.load(r)
    phone = browser.new_context(**PHONE).new_page()
    phone.goto(event["submit_url"])
    phone.fill("input[name=player]", "Carl")
    phone.fill("textarea[name=decklist]", (DECKS / "type1e-typo.txt").read_text())
    phone.click("#submit-form button[type=submit]")
    expect(phone.locator(".report .verdict strong")).to_have_text("Not checked")
    box = phone.locator("#submit-form textarea[name=decklist]")
    assert box.input_value().splitlines()[3] == "3 Uper Left Attack"
    phone.click(".problem button.chip:text-is('Upper Left Attack')")
    expect(phone.locator(".problem .desk-fixed").first).to_contain_text("Line 4 now reads")
    phone.click(".problem summary:text-is('23 more names')")  # 31 names: the first 8 shown, the others folded
    phone.click(".problem button.chip:text-is('Connor MacLeod Back Away')")
    assert box.input_value().splitlines()[3:5] == ["3 Upper Left Attack", "2 Connor MacLeod Back Away"]
    phone.screenshot(path=str(shots / "desk-fix-360.png"), full_page=False)
    phone.click("#submit-form button[type=submit]")
    expect(phone.locator(".report .verdict strong")).not_to_have_text("Not checked")
    expect(phone.locator("#desk-received")).to_contain_text("deck 2 from Carl")
    phone.context.close()
