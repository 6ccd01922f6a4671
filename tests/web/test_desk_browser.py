"""The tournament desk in a real browser (Chromium from Debian, driven by Playwright): an organiser creates
an event, three players submit from phone-sized pages, the dashboard fills up by itself, and the XLSX it
downloads has the verdicts of `deckcheck tournament check` on the same decks.

Screenshots go to $DECKCHECK_SCREENSHOTS when set (to look at them), else to the test's temporary folder.
"""
from __future__ import annotations

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
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}


@pytest.fixture(scope="module")
def desk_server(tmp_path_factory):
    """`deckcheck serve` on a fresh SQLite database, with no rate limit."""
    url = f"sqlite:///{tmp_path_factory.mktemp('desk-browser') / 'desk.db'}"
    proc, base = start(url, DECKCHECK_DESK_RATE="0")
    try:
        yield base, url
    finally:
        stop(proc)


@pytest.fixture(scope="module")
def browser():
    playwright = pytest.importorskip("playwright.sync_api")
    chromium = Path(os.environ.get("DECKCHECK_CHROMIUM", "/usr/bin/chromium"))
    if not chromium.exists():
        if os.environ.get("CI"):
            pytest.fail(f"no chromium at {chromium}: CI must run the browser tests (scripts/test.sh installs it)")
        pytest.skip("Debian's chromium is not installed (scripts/test.sh installs it)")
    with playwright.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(chromium), args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture()
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("DECKCHECK_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_an_event_from_creation_to_the_report(desk_server, browser, shots, tmp_path):
    from playwright.sync_api import expect
    base, db_url = desk_server
    organiser = browser.new_context(**DESKTOP)
    page = organiser.new_page()
    page.goto(f"{base}/desk")
    page.fill("input[name=name]", "Spring Open <2026>")
    page.select_option("select[name=format]", "type1e")
    page.fill("textarea[name=expected]", "Anna\nBob\nCarl\nDora")
    page.click("button[type=submit]")
    expect(page.locator("h1")).to_have_text("Spring Open <2026>")
    dashboard_link = page.input_value("#organiser-link")
    player_link = page.input_value("#player-link")
    assert re.fullmatch(rf"{base}/desk/[\w-]+/admin\?token=[\w-]{{43}}", dashboard_link)
    assert page.locator(".desk-qr svg").count() == 1
    page.screenshot(path=str(shots / "desk-created-1280.png"), full_page=True)
    page.click("#open-dashboard")
    expect(page).to_have_url(re.compile(r"/admin$"))  # the token has left the address bar
    expect(page.locator("#missing")).to_contain_text("Anna, Bob, Carl, Dora")

    decks = {"Anna": ("paste", DECKS / "type1e-connor-legal.txt", "legal"),
             "Bob": ("paste", DECKS / "type1e-kurgan-illegal.txt", "NOT LEGAL"),
             "Carl": ("file", DECKS / "type1e-typo.txt", "unreadable")}
    for player, (how, path, verdict) in decks.items():
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(player_link)
        phone.fill("input[name=player]", player)
        if how == "paste":
            phone.fill("textarea[name=decklist]", path.read_text())
        else:
            phone.set_input_files("input[name=file]", str(path))
        if player == "Bob":
            phone.screenshot(path=str(shots / "desk-player-390.png"), full_page=True)
        phone.click("#submit-form button[type=submit]")
        expect(phone.locator(".report")).to_have_count(1)
        shown = {"legal": "Legal", "NOT LEGAL": "Not legal", "unreadable": "Not checked"}[verdict]
        expect(phone.locator(".report .verdict strong")).to_have_text(shown)
        if player == "Bob":
            phone.screenshot(path=str(shots / "desk-report-390.png"), full_page=True)
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the player page scrolls sideways on a phone ({width} px)"
        phone.context.close()

    # the dashboard filled up by itself (htmx polling), without a reload
    for player, (_how, _path, verdict) in decks.items():
        expect(page.locator(f'tr[data-player="{player}"] td.desk-verdict')).to_have_text(verdict, timeout=20_000)
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
    expect(page.locator("pre.desk-decklist")).to_contain_text("Kurgan")
    page.go_back()

    # Bob fixes his deck; the organiser sees what changed between his two decks, on a desktop and a phone
    event_id = dashboard_link.split("/desk/")[1].split("/")[0]
    fixed = json.dumps({"player": "Bob", "decklist": (DECKS / "type1e-connor-legal.txt").read_text()}).encode()
    request = urllib.request.Request(f"{base}/api/events/{event_id}/decks", data=fixed, method="POST",
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request) as r:
        assert r.status == 201
    expect(page.locator('tr[data-player="Bob"] td.desk-verdict')).to_have_text("legal", timeout=20_000)
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
    assert width <= 390, f"the comparison scrolls sideways on a phone ({width} px)"
    diff_phone.screenshot(path=str(shots / "desk-diff-390.png"), full_page=True)
    diff_phone.context.close()
    page.goto(f"{base}/desk/{event_id}/admin")
    page.on("dialog", lambda dialog: dialog.accept())
    page.click(".desk-close button")
    expect(page.locator("#event-state")).to_contain_text("closed")

    phone = browser.new_context(**PHONE).new_page()
    phone.goto(player_link)
    expect(phone.locator("#desk-closed")).to_contain_text("closed")
    phone.screenshot(path=str(shots / "desk-closed-390.png"), full_page=True)
    dash_phone = browser.new_context(**PHONE).new_page()
    dash_phone.goto(dashboard_link)
    expect(dash_phone.locator('tr[data-player="Anna"]')).to_be_visible()
    dash_phone.screenshot(path=str(shots / "desk-dashboard-390.png"), full_page=True)
    organiser.close()
