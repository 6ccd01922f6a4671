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


# The 15 basics of a 1st-edition deck (Type1eParams.basic_attacks and basic_blocks), the searches that show them
# and how many of each: 10 titles at 3 and 5 at 2 (40 cards); then 10 other cards, one each (50 in the Endurance)
BASICS = {"upper attack": ["ME-upper-left-attack-1", "ME-upper-center-attack-2", "ME-upper-right-attack-3"],
          "middle attack": ["ME-middle-left-attack-1", "ME-middle-right-attack-3"],
          "thrust": ["ME-thrust-2"],
          "lower attack": ["ME-lower-left-attack-1", "ME-lower-center-attack-2", "ME-lower-right-attack-3"],
          "upper block": ["ME-upper-left-block-1", "ME-upper-center-block-2", "ME-upper-right-block-3"],
          "lower block": ["ME-lower-left-block-1", "ME-lower-center-block-2", "ME-lower-right-block-3"]}
ENDURANCE_TYPES = ("Attack", "Block", "Dodge", "Event", "Situation", "Plot", "Location", "Object", "Edge")


class Actions:
    """A player's actions (a page opened, a field filled, an option chosen, a click, a key), counted."""

    def __init__(self, page):
        self.page, self.count = page, 0

    def fill(self, selector: str, value: str) -> None:
        self.count += 1
        self.page.fill(selector, value)

    def click(self, locator) -> None:
        self.count += 1
        locator.click()

    def check(self, selector: str) -> None:
        self.count += 1
        self.page.check(selector)

    def key(self, key: str) -> None:
        self.count += 1
        self.page.keyboard.press(key)


def row(page, pane: str, card: str):
    return page.locator(f'.{pane}-pane .row[data-card="{card}"]')


def test_a_player_builds_a_legal_deck_from_empty_with_search_and_plus(browser, live_url, tmp_path):
    """Issue 31's goal: a legal 50-card 1st-edition deck (15 different basics, 10 other cards) from an empty one,
    using only the search and +, in under 60 actions; the verdict changes in place after every change."""
    page, errors = start(browser, live_url, 1280, "Connor by search")
    act = Actions(page)
    act.count = 4  # the page opened, the name filled, the format chosen, "Start building"
    verdict = page.locator(".verdict").inner_text()
    act.fill("#q", "connor macleod persona")
    act.click(row(page, "search", "ME-connor-macleod-persona").locator("form.plus button"))
    verdict = changed(page, verdict)
    assert "Pre-Game 1" in verdict and "How the deck draws" in page.locator(".deck-pane").inner_text()
    act.fill("#f-set", "ME")
    n = 0
    for words, cards in BASICS.items():
        act.fill("#q", words)
        for card in cards:
            copies = 3 if n < 10 else 2
            found = row(page, "search", card)
            if card == "ME-thrust-2":  # the keyboard: + on a focused row adds what its copies field says
                act.fill(f'.search-pane .row[data-card="{card}"] input[name="copies"]', str(copies))
                found.focus()
                act.key("+")
                verdict = changed(page, verdict)
                assert page.evaluate("document.activeElement.dataset.card") == card  # the focus stays on it
            else:
                act.fill(f'.search-pane .row[data-card="{card}"] input[name="copies"]', str(copies))
                act.click(found.locator("form.plus button"))
                verdict = changed(page, verdict)
            assert row(page, "deck", card).locator(".count").inner_text() == str(copies)
            n += 1
    assert "Endurance 40" in verdict and verdict.casefold().startswith("not legal")
    act.check('input[name="playable"]')
    page.wait_for_selector('input[name="playable"][checked]')  # the search again, as the server answered it
    act.fill("#q", "connor")
    page.locator(".search-pane .row", has_text="Connor MacLeod").first.wait_for()
    taken: list[str] = []
    for _ in range(10):  # the first row the deck may take as it stands (each swap says it again), one per title
        pick = page.evaluate("""([types, taken]) => {
            for (const row of document.querySelectorAll('.search-pane .row:not(.breaks)')) {
                const name = row.querySelector('.name').firstChild.textContent.trim();
                if (types.includes(row.querySelector('.type').innerText) && !row.querySelector('.effect')
                    && !taken.includes(name)) return [row.dataset.card, name];
            }
            return null;
        }""", [list(ENDURANCE_TYPES), taken])
        assert pick is not None, "no card left that the deck may take"
        taken.append(pick[1])
        act.click(row(page, "search", pick[0]).locator("form.plus button"))
        verdict = changed(page, verdict)
    assert verdict.casefold().startswith("legal") and "Endurance 50" in verdict and "Pre-Game 1" in verdict, verdict
    assert act.count < 60, act.count
    card = "ME-thrust-2"
    act.click(row(page, "deck", card).locator("form.minus button"))  # − and + on a deck line
    verdict = changed(page, verdict)
    assert row(page, "deck", card).locator(".count").inner_text() == "2" and verdict.casefold().startswith("not legal")
    act.click(row(page, "deck", card).locator("form.plus button"))
    assert changed(page, verdict).casefold().startswith("legal")
    no_sideways_scroll(page, 1280)
    assert audit(page) == []  # last on this page: axe leaves style attributes that a later swap would copy
    page.screenshot(path=str(tmp_path / "builder-1280.png"), full_page=True)
    edit = page.url
    page.goto(edit)  # reopened: the deck as it was saved, version 29 (the empty deck, 26 additions, − and +)
    assert row(page, "deck", card).locator(".count").inner_text() == "3"
    assert "version 29" in page.locator("#deck-title").inner_text()
    page.click("#search-title a")  # the deck's own page
    page.wait_for_selector(".deck-page")
    assert page.locator(".deck-page h3").first.inner_text().startswith("Persona")
    assert page.locator(".versions li").count() == 29  # (its axe audit: test_a11y_browser's crawl)
    page.screenshot(path=str(tmp_path / "deck-1280.png"), full_page=True)
    assert errors == []
    page.close()


def test_at_phone_width_plus_updates_the_verdict_in_place(browser, live_url, tmp_path):
    page, errors = start(browser, live_url, 390, "Phone deck")
    verdict = page.locator(".verdict").inner_text()
    search(page, "thrust")
    page.locator(".search-pane .row form.plus input[name=copies]").first.fill("3")  # the copies field fits too
    page.locator(".search-pane .row form.plus button").first.click()
    assert "Endurance 3" in changed(page, verdict)
    no_sideways_scroll(page, 390)
    page.screenshot(path=str(tmp_path / "builder-390.png"), full_page=True)
    assert errors == []
    page.close()


def test_without_javascript_the_same_buttons_post_and_the_page_returns(browser, live_url, tmp_path):
    """JavaScript off: starting the deck, the search, a search row's copies and +, a deck line's − are forms that
    post (a page load each, the search kept); the verdict says what the deck now holds; saving its name on its
    own page keeps it."""
    context = browser.new_context(java_script_enabled=False, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    page.goto(live_url + "/decks/new")
    page.fill("#name", "Without scripts")
    page.select_option("#format", "type1e")
    page.click("text=Start building")
    page.wait_for_url(re.compile(r"/decks/[A-Za-z0-9]{8}/edit$"))
    assert "The deck is empty" in page.locator(".deck-pane").inner_text()
    page.fill("#q", "connor macleod persona")
    page.click('form[role="search"] button[type="submit"]')  # no search as one types: the Search button
    page.wait_for_url(re.compile(r"/edit\?q=connor"))
    page.locator('.search-pane .row[data-card="ME-connor-macleod-persona"] form.plus button').click()
    page.wait_for_selector('.deck-pane .row[data-card="ME-connor-macleod-persona"]')
    assert "q=connor" in page.url  # back to the builder with the search kept
    page.fill("#q", "thrust")
    page.fill("#f-set", "ME")
    page.press("#q", "Enter")
    found = page.locator('.search-pane .row[data-card="ME-thrust-2"]')
    found.locator('input[name="copies"]').fill("4")
    found.locator("form.plus button").click()
    page.wait_for_selector('.deck-pane .row[data-card="ME-thrust-2"]')
    line = page.locator('.deck-pane .row[data-card="ME-thrust-2"]')
    assert line.locator(".count").inner_text() == "4"
    assert "Pre-Game 1 · Endurance 4" in page.locator(".verdict").inner_text()
    line.locator("form.minus button").click()
    page.wait_for_function("document.querySelector('.deck-pane .row[data-card=\"ME-thrust-2\"] .count')"
                           ".innerText === '3'")
    assert "Endurance 3" in page.locator(".verdict").inner_text()
    assert "version 4" in page.locator("#deck-title").inner_text()
    page.click("#search-title a")
    page.wait_for_selector(".deck-page")
    page.fill("#deck-new-name", "Kept without scripts")
    page.click('.rename button[type="submit"]')
    page.wait_for_selector(".deck-page")
    assert "Kept without scripts" in page.locator("h1").first.inner_text()
    page.screenshot(path=str(tmp_path / "builder-no-js.png"), full_page=True)
    context.close()
