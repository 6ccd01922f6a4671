"""A messy forum decklist pasted on a phone (390 px) reads in one round (issue 20): on the check page and on the
desk's player page, in Debian's chromium driven by Playwright against `deckcheck serve`. A first line close to a
card name offers the chip "use as the deck's title", which makes the list read.

Screenshots go to $DECKCHECK_SCREENSHOTS when set (to look at them), else to the test's temporary folder.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from test_desk_serve import new_event, start, stop

PASTED = Path(__file__).resolve().parents[1] / "data" / "pasted"
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
TIMEOUT = 30_000  # ms: the machine may be busy
# bullets, headings with counts, a title line, curly apostrophes, a remark, a separator, a total
FORUM = (PASTED / "forum-phpbb.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`deckcheck serve` on a fresh SQLite database, with no rate limit."""
    proc, base = start(f"sqlite:///{tmp_path_factory.mktemp('paste') / 'paste.db'}", DECKCHECK_DESK_RATE="0")
    try:
        yield base
    finally:
        stop(proc)




@pytest.fixture()
def phone(browser):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT)
    yield page
    context.close()


@pytest.fixture()
def shots(tmp_path) -> Path:
    folder = Path(os.environ.get("DECKCHECK_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways on a phone ({width} px)"


def test_a_messy_forum_list_reads_in_one_round_on_the_check_page(server, phone, shots):
    from playwright.sync_api import expect
    phone.goto(server + "/")
    phone.fill("#decklist", FORUM)
    expect(phone.locator(".report")).to_have_count(1)
    expect(phone.locator(".report .verdict strong")).not_to_have_text("Not checked")
    assert phone.locator(".report .problem").count() == 0
    expect(phone.locator(".report")).to_contain_text("read as the deck's title")
    expect(phone.locator(".report .verdict")).to_contain_text("Endurance 55")
    phone.screenshot(path=str(shots / "paste-forum-check-390.png"), full_page=True)
    no_sideways_scroll(phone)


def test_a_title_close_to_a_card_is_one_click_from_reading(server, phone, shots):
    from playwright.sync_api import expect
    phone.goto(server + "/")
    phone.fill("#decklist", FORUM.replace("Duncan\u2019s Highland Fury \u2013 tournament build", "Dunkan\u2019s Fury"))
    chip = phone.locator("button.chip", has_text="use as the deck's title")
    expect(chip).to_have_count(1)
    phone.screenshot(path=str(shots / "paste-title-chip-390.png"), full_page=True)
    chip.click()
    expect(phone.locator("#decklist")).to_have_value(re.compile(r"^Name: Dunkan's Fury\n"))
    expect(phone.locator(".report .verdict strong")).not_to_have_text("Not checked")
    assert phone.locator(".report .problem").count() == 0
    no_sideways_scroll(phone)


def test_a_messy_forum_list_reads_in_one_round_on_the_desks_player_page(server, phone, shots):
    from playwright.sync_api import expect
    event = new_event(server)
    phone.goto(f"{server}/desk/{event['id']}")
    phone.fill("input[name=player]", "Anna")
    phone.fill("textarea[name=decklist]", FORUM)
    phone.screenshot(path=str(shots / "paste-forum-desk-390.png"), full_page=True)
    phone.click("#submit-form button[type=submit]")
    expect(phone.locator(".report")).to_have_count(1)
    expect(phone.locator(".report .verdict strong")).not_to_have_text("Not checked")
    assert phone.locator(".report .problem").count() == 0
    phone.screenshot(path=str(shots / "paste-forum-desk-report-390.png"), full_page=True)
    no_sideways_scroll(phone)


# the forms of the last round (tests/test_paste_leftovers.py): a title on a Deck: line, quantities after a separator
# and in words, a short version mark, the talk around the post
LEFTOVERS = (FORUM.replace("Duncan\u2019s Highland Fury \u2013 tournament build",
                           "Hi all,\nDeck: \u201cHighland Fury\u201d")
             .replace("- 4x Upper Left Attack", "- Upper Left Attack: 4")
             .replace("- 3x Upper Center Attack", "- three copies of Upper Center Attack")
             .replace("- 3x Upper Right Attack", "- Upper Right Attack, 3")
             .replace("\u2022 3 Upper Left Block", "\u2022 3 Upper Left Block v1")
             .replace("Dodge x2", "Dodge = 2")
             + "\nThanks! GLHF \U0001f340\n\u2014 Viktor\n")


@pytest.mark.parametrize("where", ["check", "desk"])
def test_the_new_forms_read_on_a_phone_and_the_version_chip_fixes_the_last_line(server, phone, shots, where):
    from playwright.sync_api import expect
    if where == "check":
        phone.goto(server + "/")
        phone.fill("#decklist", LEFTOVERS)
    else:
        phone.goto(f"{server}/desk/{new_event(server)['id']}")
        phone.fill("input[name=player]", "Anna")
        phone.fill("textarea[name=decklist]", LEFTOVERS)
        phone.click("#submit-form button[type=submit]")
    expect(phone.locator(".report")).to_have_count(1)
    expect(phone.locator(".report .problem")).to_have_count(1)  # only the short version mark
    expect(phone.locator(".report")).to_contain_text("reads as a remark, not a card")
    expect(phone.locator(".report")).to_contain_text("read as the deck's title: 'Highland Fury'")
    chip = phone.locator("button.chip", has_text="Upper Left Block (1)")
    expect(chip.first).to_be_visible()
    phone.screenshot(path=str(shots / f"paste-leftovers-{where}-390.png"), full_page=True)
    no_sideways_scroll(phone)
    chip.first.click()
    expect(phone.locator("textarea").first).to_have_value(re.compile(r"\n3 Upper Left Block \(1\)\n"))
    if where == "desk":  # the desk rewrites the line in the form; the player sends it again
        expect(phone.locator(".problem .desk-fixed").first).to_contain_text("now reads")
        phone.click("#submit-form button[type=submit]")
    expect(phone.locator(".report .problem")).to_have_count(0)
    expect(phone.locator(".report .verdict")).to_contain_text("Endurance 55")
