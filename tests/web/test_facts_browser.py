"""Issue 22 in a real browser at 390 px: a deck with an unverified copies limit → the player fills the Restriction
numbers on the check page → the verdict is decided without leaving the page; on a club server the same answer
waits as a proposal, the organiser accepts it, and another player's check of the same deck is decided too."""
from __future__ import annotations

import json
import shutil
import urllib.request
from pathlib import Path

import pytest

from serving import in_thread
from test_web_browser import LAYOUT_PROBLEMS, TIMEOUT, shot

ROOT = Path(__file__).resolve().parents[2]
DECK = (ROOT / "examples/decks/type1e-connor-legal.txt").read_text()
ADMIN = "club-organiser-token"
PHONE = {"width": 390, "height": 844}




def live_server(db: Path, admin_token: str | None):
    return in_thread(f"sqlite:///{db}", admin_token)


@pytest.fixture
def server_db(tmp_path, web_db):
    from deckcheck.web import facts
    facts.ANSWERS.clear()
    db = tmp_path / "live.db"
    shutil.copy(web_db.removeprefix("sqlite:///"), db)
    return db


def phone(browser, javascript: bool = True):
    context = browser.new_context(viewport=PHONE, bypass_csp=True, java_script_enabled=javascript)
    context.set_default_timeout(TIMEOUT)
    page = context.new_page()
    page.width_name = "phone390"
    return page


def verdict(page) -> str:
    return page.locator("header.verdict strong").first.text_content().strip()  # as written (CSS shows capitals)


def check(page, url: str) -> None:
    page.goto(url + "/")
    page.fill("#decklist", DECK)
    page.locator("button.primary", has_text="Check").click()
    page.wait_for_selector("header.verdict")


def answer_restrictions(page, name: str) -> int:
    """Fill the Restriction numbers (none printed) of every card the form asks it of, and the name; send."""
    page.fill("input[name=facts_by]", name)
    for more in page.locator("#facts details.fact-more summary").all():  # the cards folded away
        more.click()
    selects = page.locator("select[name$='.restriction']")
    count = selects.count()
    for n in range(count):
        selects.nth(n).select_option("none")
    page.locator("button", has_text="Save and check again").click()
    return count


def test_personal_server_phone_fills_restrictions_and_the_verdict_is_decided(browser, server_db):
    with live_server(server_db, None) as url:
        page = phone(browser)
        check(page, url)
        assert verdict(page) == "Legal — 2 rules unverified"
        assert page.evaluate(LAYOUT_PROBLEMS) == []
        shot(page, "facts-check-before")
        before = page.url
        assert answer_restrictions(page, "Ann") == 15
        page.wait_for_function("document.querySelector('header.verdict strong').textContent.includes('1 rule')")
        assert verdict(page) == "Legal — 1 rule unverified"
        assert "Now decided: HL-RESTRICTED" in page.inner_text("#reports")
        assert page.url == before  # the live update: the same page, never left
        assert page.evaluate(LAYOUT_PROBLEMS) == []
        shot(page, "facts-check-after")
        page.context.close()


def test_without_javascript_the_form_works_too(browser, server_db):
    with live_server(server_db, None) as url:
        page = phone(browser, javascript=False)
        page.goto(url + "/")
        page.fill("#decklist", DECK)
        page.locator("button.primary", has_text="Check").click()
        page.wait_for_selector("header.verdict")
        assert answer_restrictions(page, "Ann") == 15
        page.wait_for_selector("text=Now decided")
        assert verdict(page) == "Legal — 1 rule unverified"
        # the card page's form: choose the Hand icons (a Persona has no grid to tap), see the history
        page.goto(url + "/cards/SE-connor-macleod-persona/facts")
        assert page.evaluate(LAYOUT_PROBLEMS) == []
        page.fill("input[name=facts_by]", "Ann")
        page.select_option("select[name='f0.hand_icons']", "1")
        assert page.locator(".sq").count() == 0
        page.locator("button", has_text="Save").click()
        page.wait_for_selector("text=Saved.")
        assert "unknown → 1" in page.inner_text("#history")
        shot(page, "facts-card-page")
        page.context.close()


def test_club_server_waits_for_the_organiser_then_decides_for_everyone(browser, server_db):
    with live_server(server_db, ADMIN) as url:
        ann = phone(browser)
        check(ann, url)
        answer_restrictions(ann, "Ann")
        ann.wait_for_selector("text=wait for the organiser")
        assert verdict(ann) == "Legal — 1 rule unverified"  # counted in her own check, marked as hers
        assert "counted 15 answers by Ann" in ann.inner_text("#reports")
        bob = phone(browser)
        check(bob, url)
        assert verdict(bob) == "Legal — 2 rules unverified"  # nobody else's verdict moves before acceptance
        organiser = phone(browser)
        organiser.goto(url + "/cards/proposals")
        organiser.fill("input[name=admin_token]", ADMIN)
        organiser.locator("button", has_text="Review").click()
        organiser.wait_for_selector("table.proposals")
        assert organiser.locator("table.proposals tbody tr").count() == 15
        assert organiser.evaluate(LAYOUT_PROBLEMS) == []
        shot(organiser, "facts-review")
        organiser.locator(".accept-all button", has_text="Ann").click()
        organiser.wait_for_selector("text=No pending answer")
        check(bob, url)
        assert verdict(bob) == "Legal — 1 rule unverified"
        for p in (ann, bob, organiser):
            p.context.close()


def test_one_button_rewrites_every_line_of_a_card_whose_printings_disagree(browser, server_db):
    """Issue 32 item 2: a card on two set-less lines whose printings state its Restriction differently: the form's
    button for the TIN printing rewrites both lines at once, the page checks again, and that card is decided."""
    deck = (ROOT / "examples/decks/type1e-kurgan-illegal.txt").read_text().replace(
        "3 Lower Center Block\n", "2 Lower Center Block\n") + "1 Lower Center Block\n"
    with live_server(server_db, None) as url:
        for card_id, value in (("SE-lower-center-block", "3"), ("TIN-lower-center-block", "none")):
            request = urllib.request.Request(f"{url}/api/cards/{card_id}/facts", headers={
                "content-type": "application/json"}, data=json.dumps({"by": "Bo", "values": {"restriction": value}})
                .encode())
            with urllib.request.urlopen(request) as r:
                assert r.status == 200
        page = phone(browser)
        page.goto(url + "/")
        page.fill("#decklist", deck)
        page.locator("button.primary", has_text="Check").click()
        rewrite = page.locator(".fact-rewrite")
        rewrite.wait_for(state="attached")
        page.locator("#facts-restriction summary").click()  # the card is folded away, past the first four
        lines = [n + 1 for n, t in enumerate(deck.splitlines()) if t.endswith(" Lower Center Block")]
        assert rewrite.inner_text().startswith(f"its printings disagree: rewrite lines {lines[0]} and {lines[1]} as")
        assert page.evaluate(LAYOUT_PROBLEMS) == []
        box = rewrite.bounding_box()
        assert box["x"] + box["width"] <= PHONE["width"], box  # the words and buttons wrap on a phone
        shot(page, "facts-rewrite-lines")
        rewrite.locator("button", has_text="Lower Center Block [TIN]").click()
        page.wait_for_function("document.querySelector('#decklist').value.includes('2 Lower Center Block [TIN]')")
        box = page.input_value("#decklist").splitlines()
        assert [box[n - 1] for n in lines] == ["2 Lower Center Block [TIN]", "1 Lower Center Block [TIN]"]
        page.wait_for_selector("header.verdict")
        assert page.locator(".fact-rewrite").count() == 0  # that card is decided: nothing to rewrite
        page.context.close()
