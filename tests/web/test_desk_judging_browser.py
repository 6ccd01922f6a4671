"""Deck checks and disputes in a real browser, on a served SQLite database (issue 34): the organiser's phone counts
a deck on the sheet grouped by type, types a misspelt card with its quantity and takes the suggestion's button;
a player disputes the organiser's result from their phone and the organiser settles it on the rounds page."""
from __future__ import annotations

from test_desk_browser import DESKTOP, shots  # noqa: F401 - fixtures
from test_desk_day_browser import LEGAL, call, phone
from test_desk_serve import start, stop

BLOW = "Connor MacLeod Power Blow"


def test_a_typed_card_fixed_by_its_suggestion_and_a_dispute_settled(browser, shots, tmp_path):  # noqa: F811
    from playwright.sync_api import expect
    proc, base = start(f"sqlite:///{tmp_path / 'judging.db'}", DECKCHECK_DESK_RATE="0")
    try:
        status, event = call("POST", f"{base}/api/events", {"name": "Count Night", "format": "type1e"})
        assert status == 201 and isinstance(event, dict)
        token, api = event["organiser_token"], f"{base}/api/events/{event['id']}"
        decks = {name: call("POST", f"{api}/decks", {"player": name, "decklist": LEGAL})[1] for name in ("Anna", "Bob")}
        assert call("POST", f"{api}/close", token=token)[0] == 200
        judge = phone(browser, 360)
        judge.goto(event["dashboard_url"])
        judge.goto(f"{base}/desk/{event['id']}/admin/check?player=Anna")
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
        status, rnd = call("POST", f"{api}/rounds", {"seed": "s"}, token)
        assert status == 201
        table = rnd["pairings"][0]
        assert call("POST", f"{api}/rounds/1/results", {"table": 1, "a_wins": 2, "b_wins": 0}, token)[0] == 200
        player = phone(browser, 360)
        player.goto(decks[table["b"]]["deck_url"])
        player.click("text=This result is wrong: dispute it")
        player.fill("#my-dispute-form input[name=mine]", "2")
        player.fill("#my-dispute-form input[name=theirs]", "1")
        player.fill("#my-dispute-form textarea[name=note]", "I won the last two games")
        player.click("#my-dispute-form button[type=submit]")
        expect(player.locator("#my-dispute")).to_contain_text("you claim 2-1")
        player.locator("#my-table").scroll_into_view_if_needed()
        player.screenshot(path=str(shots / "dispute-phone.png"))
        organiser = browser.new_context(**DESKTOP).new_page()
        organiser.goto(event["dashboard_url"])
        organiser.goto(f"{base}/desk/{event['id']}/admin/rounds")
        expect(organiser.locator("#disputes")).to_contain_text("claims 1-2")
        organiser.screenshot(path=str(shots / "disputes-desktop.png"), full_page=True)
        organiser.click("#disputes button[value=claim]")
        expect(organiser.locator("#rounds-done")).to_contain_text("dispute settled")
        assert call("GET", f"{api}/rounds", token=token)[1][0]["pairings"][0]["b_wins"] == 2
    finally:
        stop(proc)
