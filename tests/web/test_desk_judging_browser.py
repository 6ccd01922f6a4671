"""Deck checks and disputes in a real browser, on a served SQLite database (issue 34): the organiser's phone counts
a deck on the sheet grouped by type, types a misspelt card with its quantity and takes the suggestion's button;
a player disputes the organiser's result from their phone and the organiser settles it on the rounds page.

What is not tested here (the event, its decks, the lock, the round and its result) is set up through the library
on the server's database, and the organiser's pages are opened with the organiser's cookie already set, so the
browser loads only the pages under test."""
from __future__ import annotations

import pytest

from deckcheck.library.desk import Desk
from deckcheck.library.rounds import Rounds
from serving import in_thread
from test_desk_browser import DESKTOP, shots  # noqa: F401 - fixtures
from test_desk_day_browser import LEGAL, phone

BLOW = "Connor MacLeod Power Blow"


@pytest.fixture
def event_at_table(tmp_path):
    """A served database holding a locked event of two players whose round 1 the organiser has reported 2-0:
    (base URL, event id, organiser token, {player: private deck path}, the table)."""
    url = f"sqlite:///{tmp_path / 'judging.db'}"
    desk = Desk(url)
    event, token = desk.create_event("Count Night", "type1e")
    decks = {name: f"/desk/{event.id}/decks/{desk.submit_deck(event.id, name, LEGAL).id}" for name in ("Anna", "Bob")}
    desk.close_event(event.id)
    rounds = Rounds(desk)
    table = rounds.start(event.id, seed="s")["pairings"][0]
    rounds.report(event.id, 1, 1, 2, 0)
    with in_thread(url) as base:
        yield base, event.id, token, decks, table


def organiser_context(browser, base: str, event_id: str, token: str, **options):
    """A browser context holding the event's organiser cookie, as the organiser link leaves it."""
    context = browser.new_context(**options)
    context.add_cookies([{"name": "deckcheck_desk", "value": token, "domain": "127.0.0.1",
                          "path": f"/desk/{event_id}", "httpOnly": True, "sameSite": "Lax"}])
    return context


def test_a_typed_card_fixed_by_its_suggestion_and_a_dispute_settled(browser, shots, event_at_table):  # noqa: F811
    from playwright.sync_api import expect
    base, event_id, token, decks, table = event_at_table
    judge = organiser_context(browser, base, event_id, token, viewport={"width": 360, "height": 800},
                              device_scale_factor=2, is_mobile=True, has_touch=True).new_page()
    judge.goto(f"{base}/desk/{event_id}/admin/check?player=Anna")
    kinds = judge.locator(".count-type").evaluate_all("els => els.map(e => e.dataset.type)")
    assert kinds.index("Attack") < kinds.index("Block") < kinds.index("Situation")  # counted type by type
    judge.fill("input[name=extra_name_1]", "2 Conor MacLeod Power Blow")
    judge.click("button[value=compute]")
    expect(judge.locator("#count-error-line")).to_contain_text(f"did you mean: {BLOW}")
    judge.click(f'button[name=fix][value="1|{BLOW}"]')
    expect(judge.locator("input[name=extra_name_1]")).to_have_value(f"2 {BLOW}")
    expect(judge.locator("#count-lines")).to_contain_text(f"{BLOW}: not registered, counted 2 — the deck does "
                                                          "not match its list (deck problem)")
    judge.locator(".count-section").last.scroll_into_view_if_needed()
    judge.screenshot(path=str(shots / "deck-check-phone.png"))
    player = phone(browser, 360)
    player.goto(base + decks[table["b"]])
    player.click("text=This result is wrong: dispute it")
    player.fill("#my-dispute-form input[name=mine]", "2")
    player.fill("#my-dispute-form input[name=theirs]", "1")
    player.fill("#my-dispute-form textarea[name=note]", "I won the last two games")
    player.click("#my-dispute-form button[type=submit]")
    expect(player.locator("#my-dispute")).to_contain_text("you claim 2-1")
    player.locator("#my-table").scroll_into_view_if_needed()
    player.screenshot(path=str(shots / "dispute-phone.png"))
    organiser = organiser_context(browser, base, event_id, token, **DESKTOP).new_page()
    organiser.goto(f"{base}/desk/{event_id}/admin/rounds")
    expect(organiser.locator("#disputes")).to_contain_text("claims 1-2")
    organiser.screenshot(path=str(shots / "disputes-desktop.png"), full_page=True)
    organiser.click("#disputes button[value=claim]")
    expect(organiser.locator("#rounds-done")).to_contain_text("dispute settled")
    expect(organiser.locator(f'#pairings tr[data-table="{table["table"]}"]')).to_contain_text("1-2")
