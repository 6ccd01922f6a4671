"""No page shows a stale answer (issue 28): when two requests of one part of a page are on their way, the answer
shown is the one to the reader's last action, whatever order the answers arrive in. In Debian's chromium driven
by Playwright, at phone (390 px) and desktop widths; the browser holds answers back (page.route) to put them in
the order a slow network would.

Set DECKCHECK_SCREENSHOTS=folder to keep a screenshot of the check page after each race.
"""
from __future__ import annotations

import time
from typing import Any

import pytest

from test_desk_serve import call, new_event
from test_web_browser import ROOT, TIMEOUT, browsing, deck, one_of_each, server, shot  # noqa: F401 (fixture)

WIDTHS = {"phone": 390, "desktop": 1280}
DECKS = ROOT / "examples" / "decks"
PAUSE = 800  # ms: past the longest wait of a live update (the box's 500 ms): a late request would have gone


@pytest.fixture(params=list(WIDTHS))
def page(request, browser):
    with browsing(browser, request.param, WIDTHS[request.param]) as p:
        yield p


class Held:
    """The answers to the page's requests of one path, held back until the test lets each one through."""

    def __init__(self, page, path: str):
        self.page = page
        self.routes: list[Any] = []  # playwright's Route
        page.route(f"**{path}*", lambda route: self.routes.append(route))

    def wait(self, n: int) -> None:
        """Until n requests have been sent."""
        end = time.monotonic() + TIMEOUT / 1000
        while len(self.routes) < n:
            assert time.monotonic() < end, f"{len(self.routes)} requests sent, not {n}"
            self.page.wait_for_timeout(20)

    def answer(self, n: int) -> None:
        """Let the answer to the n-th request (from 0) through, and give the page the time to show it."""
        route = self.routes[n]
        try:
            route.fulfill(response=route.fetch())
        except Exception as exc:  # noqa: BLE001 - the page gave up the request (a newer one replaced it)
            assert "abort" in str(exc).lower() or "handled" in str(exc).lower() or "closed" in str(exc).lower(), exc
        self.page.wait_for_timeout(300)

    def answer_both(self, first: str) -> None:
        """The two requests answered, the older first (the newer one's answer then found its target replaced and
        was dropped: an older answer stayed) or the newer first (the older one then came after it)."""
        for n in ((0, 1) if first == "older" else (1, 0)):
            self.answer(n)

    def let_through(self) -> None:
        """From now on, every request is answered at once."""
        self.page.unroute_all(behavior="ignoreErrors")


def verdict(page) -> str:
    return page.inner_text("#reports")


# -- the check page ---------------------------------------------------------------------------------

@pytest.mark.parametrize("box", ["pasted", "emptied"])
def test_check_pressed_after_a_file_checks_the_file(page, server, box):  # noqa: F811
    """The issue's case: a deck pasted, a file chosen and Check pressed at once. The file's report came, then the
    Check's answer replaced it with the box's (the paste's, or "Paste a decklist" once emptied): the file's answer
    had put a new, empty file field in the form."""
    page.goto(server + "/")
    page.fill("#decklist", deck("type1e-connor-legal.txt"))
    if box == "emptied":
        page.wait_for_selector(".verdict:has-text('Connor MacLeod')")
        page.fill("#decklist", "")
    page.set_input_files("input[name=file]", str(DECKS / "type1e-methos.json"))
    page.wait_for_selector(".verdict:has-text('Methos')")
    page.click("#check-button")
    page.wait_for_timeout(PAUSE)
    page.wait_for_selector(".verdict:has-text('Methos')")
    assert "Connor" not in verdict(page) and "Paste a decklist" not in verdict(page)
    assert "type1e-methos.json" in page.inner_text(".checker")
    page.select_option("select[name=format]", "type2")  # the format's answer is of the file too
    page.wait_for_selector(".verdict .meta:has-text('type2')")
    assert "Methos" in page.inner_text(".verdict")
    one_of_each(page)
    shot(page, "stale-check-file")


def test_typing_after_a_file_checks_the_box(page, server):  # noqa: F811
    """The box typed in after a file was checked: the box is the deck again (the file is not sent with it)."""
    page.goto(server + "/")
    page.set_input_files("input[name=file]", str(DECKS / "type1e-methos.json"))
    page.wait_for_selector(".verdict:has-text('Methos')")
    page.fill("#decklist", deck("type1e-connor-legal.txt"))
    page.wait_for_selector(".verdict:has-text('Connor MacLeod')")
    assert "type1e-methos.json" not in page.inner_text(".checker")  # no "Read from" the file
    with page.expect_response(lambda r: r.url.endswith("/check") and r.request.method == "POST"):
        page.click("#check-button")
    page.wait_for_timeout(300)
    assert "Connor MacLeod" in page.inner_text(".verdict")
    assert "type1e-methos.json" not in page.inner_text(".checker")


@pytest.mark.parametrize("first", ["older", "newer"])
def test_a_format_picked_while_the_box_is_checked(page, server, first):  # noqa: F811
    """A format picked while the box's check is on its way: the box's answer (of the old format) stayed."""
    page.goto(server + "/")
    held = Held(page, "/check")
    page.fill("#decklist", deck("type1e-connor-legal.txt"))
    held.wait(1)  # the box's check, after the pause
    page.select_option("select[name=format]", "type2")
    held.wait(2)
    held.answer_both(first)
    page.wait_for_timeout(PAUSE)
    assert "type2" in page.inner_text(".verdict .meta")
    held.let_through()
    shot(page, "stale-check-format")


@pytest.mark.parametrize("first", ["older", "newer"])
def test_typing_while_the_format_is_answered(page, server, first):  # noqa: F811
    """The box typed in while the format's check is on its way: the format's answer (of the old text) came last."""
    page.goto(server + "/")
    page.fill("#decklist", deck("type1e-connor-legal.txt"))
    page.wait_for_selector(".verdict:has-text('Connor MacLeod')")
    held = Held(page, "/check")
    page.select_option("select[name=format]", "type2")
    held.wait(1)
    page.fill("#decklist", deck("type1e-kurgan-illegal.txt"))
    held.wait(2)  # the box's, after the pause
    held.answer_both(first)
    page.wait_for_timeout(PAUSE)
    assert "Kurgan" in page.inner_text(".verdict")


@pytest.mark.parametrize("first", ["older", "newer"])
def test_typing_while_a_file_is_answered_keeps_the_typing(page, server, first):  # noqa: F811
    """A file chosen, then the box typed in before the file's answer came: that answer rewrote the whole form and
    the typing was lost (the box showed the file's text, the report the file's)."""
    page.goto(server + "/")
    held = Held(page, "/check")
    page.set_input_files("input[name=file]", str(DECKS / "type1e-kurgan-illegal.txt"))
    held.wait(1)
    page.fill("#decklist", deck("type1e-connor-legal.txt"))
    held.wait(2)
    held.answer_both(first)
    page.wait_for_timeout(PAUSE)
    assert "Connor MacLeod Persona" in page.input_value("#decklist")
    assert "Connor MacLeod" in page.inner_text(".verdict") and "Kurgan" not in page.inner_text(".verdict")
    one_of_each(page)


def test_the_screenshots_of_the_check_page(page, server):  # noqa: F811
    """After a file's check and a Check pressed: nothing off at either width (the screenshots are looked at)."""
    page.goto(server + "/")
    page.set_input_files("input[name=file]", str(DECKS / "type1e-methos.json"))
    page.wait_for_selector(".verdict:has-text('Methos')")
    page.click("#check-button")
    page.wait_for_timeout(PAUSE)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    shot(page, "stale-check-page")


# -- card search and the collection: one form, its requests synced on it -----------------------------

@pytest.mark.parametrize("first", ["older", "newer"])
@pytest.mark.parametrize("path, target", [("/cards", "#results"), ("/collection", "#entries")])
def test_a_search_typed_on_shows_the_newest_results(page, server, path, target, first):  # noqa: F811
    """Two searches on their way (the typist paused twice): the results shown are those of the words in the box."""
    page.goto(server + path + "?q=katana")
    expected = page.inner_text(target)
    page.goto(server + path)
    held = Held(page, path)
    page.fill("input[name=q]", "a")
    held.wait(1)
    page.fill("input[name=q]", "katana")
    held.wait(2)
    held.answer_both(first)
    page.wait_for_timeout(PAUSE)
    assert page.inner_text(target) == expected
    assert page.input_value("input[name=q]") == "katana" and "q=katana" in page.url
    held.let_through()


# -- the desk's table: the filter and the poll -------------------------------------------------------

@pytest.fixture(scope="module")
def event(server):  # noqa: F811
    """An event of the browser tests' server with two players' decks."""
    made = new_event(server)
    for player, name in (("Anna", "type1e-connor-legal.txt"), ("Bob", "type1e-kurgan-illegal.txt")):
        status, _ = call("POST", f"{server}/api/events/{made['id']}/decks", {"player": player, "decklist": deck(name)})
        assert status in (200, 201)
    return made


def players(page) -> list[str]:
    return page.locator("#desk-table tr[data-player]").evaluate_all("rows => rows.map(r => r.dataset.player)")


@pytest.mark.parametrize("first", ["older", "newer"])
def test_the_desk_filter_is_not_undone_by_the_poll(page, server, event, first):  # noqa: F811
    """The table's poll (every 3 s, with the filter as it was) on its way when the organiser types a filter: the
    poll answered first swapped in a new table, the filter's answer then had no table to go to (its target gone)
    and the table of every player stayed under a filter naming one, until the next poll."""
    page.goto(event["dashboard_url"])
    assert players(page) == ["Anna", "Bob"]
    held = Held(page, "/admin/table")  # the next polls too: held, they cannot mend the table
    held.wait(1)  # the poll, unfiltered
    page.locator("#filters input[name=q]").press_sequentially("anna")
    held.wait(2)
    held.answer_both(first)
    page.wait_for_timeout(PAUSE)
    assert players(page) == ["Anna"]
    held.let_through()
