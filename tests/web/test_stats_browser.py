"""The statistics panel in a real browser (Playwright driving Debian's chromium): drawn, readable, no overflow.

Screenshots at 390 and 1280 px are written to the test's temporary folder (kept by pytest for inspection).
"""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed")
sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from serving import in_thread  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CONNOR = (ROOT / "examples/decks/type1e-connor-legal.txt").read_text()
CHANGED = CONNOR.replace("3 Lower Right Block (3)\n", "") + "2 Connor MacLeod Power Blow\n"




@pytest.fixture(scope="module")
def live_url(web_db):
    """The app served by uvicorn in a thread, on a free loopback port."""
    with in_thread(web_db) as url:
        yield url




@pytest.mark.parametrize("width", [390, 1280])
def test_the_panel_follows_the_decklist_as_it_is_typed(browser, live_url, width, tmp_path):
    page = browser.new_page(viewport={"width": width, "height": 900})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live_url + "/")
    page.fill("#decklist", CONNOR)  # htmx re-checks on input, after a pause
    panel = page.locator(".stats-panel")
    panel.wait_for(timeout=30_000)
    assert "Endurance 51 cards" in panel.inner_text()
    cells = panel.locator(".heat svg").first.locator("rect title")
    assert cells.count() == 9
    assert cells.nth(4).text_content() == "Middle Center (Thrust): 99.2% (12 blocks in the Endurance)"
    heat = panel.locator(".heat")
    assert heat.count() == 3
    for i in range(3):  # every grid is drawn at a readable size
        box = heat.nth(i).locator("svg").bounding_box()
        assert box is not None and box["width"] >= 150 and box["height"] >= 110
    bars = panel.locator(".stats-types rect")
    assert bars.count() == 5 and bars.first.get_attribute("fill") == "#b3261e"
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px at {width} px"
    page.screenshot(path=str(tmp_path / f"check-{width}.png"), full_page=True)

    page.fill("#decklist", CHANGED)  # the panel is redrawn for the new deck
    page.locator(".stats-meta", has_text="Endurance 50 cards").wait_for(timeout=30_000)
    assert "66.6%" in panel.locator(".heat").first.inner_text()  # Lower Right: 3 blocks of 50 now
    assert errors == []
    page.close()


def test_the_comparison_page_in_a_narrow_browser(browser, live_url, tmp_path):
    page = browser.new_page(viewport={"width": 390, "height": 900})
    ids = []
    for text in (CONNOR, CHANGED):
        page.goto(live_url + "/")
        page.fill("#decklist", text)
        page.click("button.primary")  # Check: the whole form comes back, with the Save button
        with page.expect_navigation(url="**/decks/*"):
            page.click("button[formaction='/decks']")
        ids.append(page.url.rsplit("/", 1)[-1])
    assert ids[0] != ids[1]
    page.goto(f"{live_url}/decks/{ids[0]}")
    page.fill("input[name=b]", f"{live_url}/decks/{ids[1]}")  # the saved deck's own compare form
    page.click(".stats-compare button")
    page.wait_for_url("**/diff?*")
    assert "Newly broken: HL1-BASIC-BLOCKS" in page.inner_text(".diff")
    assert page.locator(".diff-cards .added").inner_text().startswith("+2")
    assert page.locator(".stats-panel").count() == 2
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0
    page.screenshot(path=str(tmp_path / "diff-390.png"), full_page=True)
    page.close()
