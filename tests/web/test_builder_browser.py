"""The deck builder as a player uses it, in a real browser (Playwright driving Debian's chromium; issue 31): start a
deck, search, press + on search rows (and on a focused row by keyboard), − on a deck line, the verdict and the
statistics changing in place after each change (no page load), the deck reopened as saved, its own page, and the
axe audit of both pages. One full run at 1280 px and a short one at 390 px. Screenshots go to the test's
temporary folder."""
from __future__ import annotations

import re
import shutil

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed")
pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from serving import in_thread  # noqa: E402
from test_a11y_browser import audit  # noqa: E402

TIMEOUT = 20_000  # ms: the machine may be busy


@pytest.fixture(scope="module")
def live_url(tmp_path_factory, pristine_web_db):
    """The app on a copy of the cards, served by uvicorn in a thread on a free loopback port (a loopback client
    is the keeper: it may keep decks)."""
    db = tmp_path_factory.mktemp("builder-browser") / "b.db"
    shutil.copy(pristine_web_db.removeprefix("sqlite:///"), db)
    with in_thread(f"sqlite:///{db}") as url:
        yield url


def start(browser, live_url: str, width: int, name: str):
    """A page at `width` on a new deck's builder, the console's errors collected."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.set_default_timeout(TIMEOUT)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live_url + "/decks/new")
    page.fill("#name", name)
    page.select_option("#format", "type1e")
    page.click("text=Start building")
    page.wait_for_url(re.compile(r"/decks/[A-Za-z0-9]{8}/edit$"))
    page.evaluate("window.sameDocument = true")  # gone if the page were loaded again
    return page, errors


def search(page, words: str) -> None:
    page.fill("#q", words)
    page.locator(".search-pane .row").first.wait_for()


def changed(page, before: str) -> str:
    """The verdict line once it differs from `before`, in the same document (an htmx swap, no page load)."""
    page.wait_for_function("b => document.querySelector('.verdict').innerText !== b", arg=before)
    assert page.evaluate("window.sameDocument === true"), "the page was loaded again"
    return page.locator(".verdict").inner_text()


def no_sideways_scroll(page, width: int) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px at {width} px"


def test_a_player_builds_saves_and_reopens_a_deck(browser, live_url, tmp_path):
    page, errors = start(browser, live_url, 1280, "Connor by search")
    verdict = page.locator(".verdict").inner_text()
    search(page, "connor macleod persona")
    page.locator('.search-pane button[aria-label="add Connor MacLeod Persona"]').first.click()
    verdict = changed(page, verdict)
    assert "Pre-Game 1" in verdict and "How the deck draws" in page.locator(".deck-pane").inner_text()
    search(page, "thrust")
    row = page.locator(".search-pane .row", has_text="Thrust").first
    card = row.get_attribute("data-card")
    for _ in range(2):
        page.locator(f'.search-pane .row[data-card="{card}"] form.plus button').click()
        verdict = changed(page, verdict)
    assert page.locator(f'.deck-pane .row[data-card="{card}"] .count').inner_text() == "2"
    page.locator(f'.search-pane .row[data-card="{card}"]').focus()  # the keyboard: + on a focused row
    page.keyboard.press("+")
    verdict = changed(page, verdict)
    assert page.locator(f'.deck-pane .row[data-card="{card}"] .count').inner_text() == "3"
    assert page.evaluate("document.activeElement.dataset.card") == card  # the focus stays on the card's row
    page.locator(f'.deck-pane .row[data-card="{card}"] form.minus button').click()
    verdict = changed(page, verdict)
    assert page.locator(f'.deck-pane .row[data-card="{card}"] .count').inner_text() == "2"
    assert "Endurance 2" in verdict
    assert page.locator(".heat").count() == 3  # the odds drawn beside the verdict
    no_sideways_scroll(page, 1280)
    assert audit(page) == []
    page.screenshot(path=str(tmp_path / "builder-1280.png"), full_page=True)
    edit = page.url

    page.goto(edit)  # reopened: the deck as it was saved, version 6 (the empty deck and 5 changes)
    assert page.locator(f'.deck-pane .row[data-card="{card}"] .count').inner_text() == "2"
    assert "version 6" in page.locator("#deck-title").inner_text()
    page.click("#search-title a")  # the deck's own page
    page.wait_for_selector(".deck-page")
    assert page.locator(".deck-page h3").first.inner_text().startswith("Persona")
    assert page.locator(".versions li").count() == 6
    assert page.locator(".hand li").count() == 2  # the Endurance holds 2 cards: the hand is both
    assert audit(page) == []
    page.screenshot(path=str(tmp_path / "deck-1280.png"), full_page=True)
    assert errors == []
    page.close()


def test_at_phone_width_plus_updates_the_verdict_in_place(browser, live_url, tmp_path):
    page, errors = start(browser, live_url, 390, "Phone deck")
    verdict = page.locator(".verdict").inner_text()
    search(page, "thrust")
    page.locator(".search-pane .row form.plus button").first.click()
    assert "Endurance 1" in changed(page, verdict)
    no_sideways_scroll(page, 390)
    page.screenshot(path=str(tmp_path / "builder-390.png"), full_page=True)
    assert errors == []
    page.close()
