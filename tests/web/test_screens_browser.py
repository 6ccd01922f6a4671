"""Pictures of the pages as a player sees them (issue 24), kept in docs/screens/ at 360, 390 and 1280 px: the card
page of a Persona, a Basic Attack, a 2nd-edition card with gems and a card with unknown values; the formats page;
the API page; the check page with a report.

Each picture records the words its page said when it was taken (a digest in a PNG text chunk, as the README's
picture of the check page does): a page that says anything else now fails here, and `pytest --update-golden`
takes the pictures again. Long pages are pictured down to 3,000 px (SCREEN_MAX).
"""
from __future__ import annotations

import hashlib
import struct

import pytest

from test_web_browser import (PICTURE_KEY, ROOT, TIMEOUT, deck, png_text, server,  # noqa: F401 (fixtures)
                              with_text)

SCREENS = ROOT / "docs/screens"
WIDTHS = (360, 390, 1280)
SCREEN_MAX = {"check": 7000}  # px of a page's height pictured (the check page: down to its coverage grids)
PAGES = {
    "card-persona": "/cards/SE-connor-macleod-persona",
    "card-basic-attack": "/cards/ME-thrust-1",
    "card-2e-gems": "/cards/P03-028",
    "card-unknown": "/cards/AT-ceirdwyn-master-s-attack",
    "formats": "/formats",
    "api": "/api",
    "check": "type2-duncan-katana.txt",  # pasted into the check page
}


@pytest.mark.parametrize("width", WIDTHS)
def test_the_pictures_of_the_pages_are_of_todays_pages(browser, server, update_golden, width):  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    stale = []
    for name, where in PAGES.items():
        if where.startswith("/"):
            page.goto(server + where)
        else:
            page.goto(server + "/")
            page.fill("#decklist", deck(where))
            page.wait_for_selector(".report")
            page.locator("#decklist").blur()
        page.wait_for_load_state("networkidle")
        words = " ".join((page.inner_text("header.top") + " " + page.inner_text("main")).split())
        digest = hashlib.sha256(words.encode()).hexdigest()
        path = SCREENS / f"{name}-{width}.png"
        if update_golden:
            height = min(page.evaluate("document.documentElement.scrollHeight"), SCREEN_MAX.get(name, 3000))
            shot = page.screenshot(full_page=True, clip={"x": 0, "y": 0, "width": width, "height": height})
            SCREENS.mkdir(parents=True, exist_ok=True)
            path.write_bytes(with_text(shot, PICTURE_KEY, digest))
        if not path.exists():
            stale.append(f"{path.name}: missing")
            continue
        data = path.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and struct.unpack(">I", data[16:20])[0] == width, path.name
        if png_text(data).get(PICTURE_KEY) != digest:
            stale.append(f"{path.name}: the page now says {words[:160]}")
    context.close()
    assert not stale, "pictures of pages that changed: retake them with --update-golden\n" + "\n".join(stale)
