"""A Type 2 deck checked against an uploaded card sheet in a real browser, at 390 and 1280 px (issue 36): the
sheet is chosen beside the decklist, the page says it is used, and the deck's rules decide (no unknown cards)."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed")
pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from test_stats_browser import live_url  # noqa: E402,F401  (the app served on a free loopback port)

ROOT = Path(__file__).resolve().parents[2]
SHEET = ROOT / "examples" / "cards" / "my-2e-cards.csv"
DECK = (ROOT / "examples" / "cards" / "type2-my-cards.txt").read_text()


@pytest.mark.parametrize("width", [390, 1280])
def test_a_type2_deck_against_an_uploaded_sheet(browser, live_url, width, tmp_path):  # noqa: F811
    page = browser.new_page(viewport={"width": width, "height": 900})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live_url + "/")
    page.set_input_files("#card-sheet", str(SHEET))
    page.locator("#sheet-used").wait_for(timeout=30_000)
    assert "Using your sheet my-2e-cards.csv" in page.locator("#sheet-used").inner_text()
    page.fill("#decklist", DECK)
    page.locator("text=HL2-GEMS").first.wait_for(timeout=30_000)
    body = page.locator("body").inner_text()
    assert "unknown card" not in body and "HL-MASTER" in body
    assert page.evaluate("document.documentElement.scrollWidth") <= width  # nothing wider than the screen
    page.screenshot(path=str(tmp_path / f"sheet-{width}.png"), full_page=True)
    assert errors == []
    page.close()


def test_a_keeper_imports_a_raven_sheet_sees_the_card_and_undoes_it(browser, pristine_web_db, tmp_path):
    """/cards/import at 390 px: the preview's counts and new cards, the confirmation, the card's page, the undo."""
    import shutil

    from serving import in_thread
    db = tmp_path / "import.db"
    shutil.copy(pristine_web_db.removeprefix("sqlite:///"), db)
    with in_thread(f"sqlite:///{db}") as url:
        page = browser.new_page(viewport={"width": 390, "height": 900})
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(url + "/cards/import")
        page.set_input_files("input[name=file]", str(ROOT / "examples/other-games/raven-stormcrow-cards.csv"))
        page.click("text=Preview the changes")
        assert "14 cards added" in page.locator(".change-counts").inner_text()
        assert page.locator("table.new-cards tbody tr").count() == 14
        page.screenshot(path=str(tmp_path / "import-preview-390.png"), full_page=True)
        page.click("text=Confirm the import")
        assert "Imported: the sheet is import 1" in page.locator("[role=status]").inner_text()
        page.goto(url + "/cards/RS-EX-01")
        assert "Renown" in page.locator("figure.card-face").inner_text()
        page.goto(url + "/cards/import")
        page.click("text=Undo this import")
        assert "14 cards removed" in page.locator("[role=status]").inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert errors == []
        page.close()
