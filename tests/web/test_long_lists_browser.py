"""Long lists a player meets on a phone, and the organiser's desk on event day, in a real browser at 360 and 1280 px:

- the check page's fill-in form of a deck with 21 unverified cards is grouped by what is missing (the quickest to
  decide first), shows a few cards of a long group and folds the others away, opened by keyboard;
- a line with 31 possible names shows the first few and folds the others, which still rewrite the line;
- the desk's dashboard brings the deck check draw by itself once the lists lock (closed from another screen),
  and keeps what the organiser types in it as the table goes on updating.
Each page passes the axe audit with its folded parts open."""
from __future__ import annotations

import json
import urllib.request

import pytest

from test_a11y_browser import FOCUS_SHOWN, audit
from test_web_browser import LAYOUT_PROBLEMS, TIMEOUT, WIDTHS, deck, server  # noqa: F401 (fixtures)


def new_page(browser, width: str):
    context = browser.new_context(viewport={"width": WIDTHS[width], "height": 900}, bypass_csp=True)
    context.set_default_timeout(TIMEOUT)
    return context.new_page()


def api(server: str, path: str, body: dict, token: str | None = None) -> dict:  # noqa: F811
    headers = {"content-type": "application/json"} | ({"authorization": f"Bearer {token}"} if token else {})
    with urllib.request.urlopen(urllib.request.Request(server + path, data=json.dumps(body).encode(),
                                                       headers=headers)) as r:
        return json.load(r)


@pytest.mark.parametrize("width", list(WIDTHS))
def test_a_long_fill_in_form_is_short_folded_and_opens_by_keyboard(browser, server, width):  # noqa: F811
    page = new_page(browser, width)
    page.goto(server + "/")
    page.fill("#decklist", deck("type1e-kurgan-illegal.txt"))
    page.locator("button.primary", has_text="Check").click()
    page.wait_for_selector("#facts .fact-group")
    groups = page.locator("#facts .fact-group > legend").all_inner_texts()
    # (the Signature group is gone: a set-less line takes its bundled printing's fact)
    assert groups == ["Hand icons · 2 cards", "Restriction number · 19 cards"]
    answers = "#facts .fact-row > select:visible"
    assert page.locator(answers).count() == 2 + 4  # the rest folded away
    # a card's row says which card and how many the deck plays; its select is named by it
    first = page.locator("#facts-restriction .fact-row > select").first
    assert first.evaluate("s => s.labels[0].textContent.replace(/\\s+/g, ' ').trim()") == \
        "The Kurgan Back Away 4 copies ME"
    height = page.locator("#facts").bounding_box()["height"]
    assert height < (1500 if width == "phone" else 1000), height  # 21 cards: over 2,000 px on a phone before
    summary = page.locator("#facts-restriction summary")
    assert summary.inner_text() == "15 more cards"
    page.locator("#facts-restriction .fact-row > select").nth(3).focus()
    page.keyboard.press("Tab")  # from the last card shown to the fold
    assert page.evaluate("document.activeElement.tagName") == "SUMMARY"
    assert page.evaluate(FOCUS_SHOWN)["ring"], "the summary's focus does not show"
    page.keyboard.press("Enter")
    # one question per card as the deck names it: Upper Right Attack's SE and TIN printings state nothing
    # differently, so the form asks no printing (an answer is both printings'), only the Restriction number
    assert page.locator(answers).count() == 2 + 19
    assert page.locator("#facts select[name$='.id']").count() == 0
    page.keyboard.press("Tab")  # into the first folded card's answer
    assert page.evaluate("document.activeElement.name").endswith(".restriction")
    assert "Upper Right Attack" in page.evaluate("document.activeElement.labels[0].textContent")
    assert page.evaluate(FOCUS_SHOWN)["ring"]
    page.keyboard.press("End" if width == "desktop" else "ArrowDown")  # a closed select takes arrow keys
    assert page.evaluate("document.activeElement.value") != ""
    assert page.evaluate(LAYOUT_PROBLEMS) == []
    assert audit(page) == []
    page.context.close()


@pytest.mark.parametrize("width", list(WIDTHS))
def test_a_line_with_many_possible_names_folds_them_and_each_still_rewrites_it(browser, server, width):  # noqa: F811
    page = new_page(browser, width)
    page.goto(server + "/")
    page.fill("#decklist", deck("type1e-typo.txt"))
    page.locator("button.primary", has_text="Check").click()
    problem = page.locator(".problem", has_text="2 Back Away")
    problem.wait_for()
    assert problem.locator(".chip:visible").count() == 8
    more = problem.locator("summary")
    assert more.inner_text() == "23 more names"
    more.focus()
    page.keyboard.press("Enter")
    assert problem.locator(".chip:visible").count() == 31
    assert page.evaluate(LAYOUT_PROBLEMS) == []
    assert audit(page) == []
    problem.locator("button.chip", has_text="Methos Back Away").click()  # a folded one
    page.wait_for_function("document.querySelector('#decklist').value.includes('2 Methos Back Away')")
    assert page.locator(".problem", has_text="2 Back Away").count() == 0
    page.context.close()


def test_the_desk_brings_the_draw_form_once_the_lists_lock_without_a_reload(browser, server):  # noqa: F811
    created = api(server, "/api/events", {"name": "Lock Night", "format": "type1e"})
    api(server, f"/api/events/{created['id']}/decks", {"player": "Ramirez",
                                                       "decklist": deck("type1e-connor-legal.txt")})
    screens = {}
    for width in WIDTHS:  # the organiser's phone and the desk's laptop, both watching
        page = new_page(browser, width)
        page.goto(created["dashboard_url"])
        assert page.locator("#draw-form").count() == 0
        screens[width] = page
    screens["phone"].fill("#filters input[name=q]", "ram")  # a filter typed: the table keeps it
    api(server, f"/api/events/{created['id']}/close", {}, created["organiser_token"])  # closed from another screen
    for page in screens.values():
        page.wait_for_selector("#draw-form", timeout=15_000)
        assert "The lists are locked (event closed)" in page.inner_text("#desk-locked-now")
        assert page.locator(".desk-close").count() == 0 and "closed" in page.inner_text("#event-state")
        assert page.locator("th", has_text="Deck check").count() == 1
        page.fill("#draw-form input[name=n]", "1")
        page.fill("#draw-form input[name=seed]", "table 1")
    for page in screens.values():  # the table updates again: what was typed stays
        page.evaluate("document.querySelector('#desk-table').dataset.seen = 'yes'")
    for page in screens.values():
        page.wait_for_function("!document.querySelector('#desk-table').dataset.seen", timeout=15_000)
        assert page.input_value("#filters input[name=q]") == ("ram" if page is screens["phone"] else "")
        assert page.input_value("#draw-form input[name=seed]") == "table 1"
        assert page.evaluate(LAYOUT_PROBLEMS) == []
        assert audit(page) == []
    phone = screens["phone"]
    with phone.expect_navigation():
        phone.click("#draw-form button[type=submit]")
    assert phone.inner_text("#draw-seed") == "table 1" and phone.inner_text("#drawn") == "Ramirez"
    for page in screens.values():
        page.context.close()
