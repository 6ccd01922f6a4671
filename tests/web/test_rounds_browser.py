"""An event from check-in to standings in a real browser, on a served SQLite database: 8 players (one typing the
expected name differently, one with a line that does not read), the lists locked, a deck check, three Swiss rounds
with a drop and a bye started from the organiser's page, a result reported from a phone through the player's
private link, the live table showing who has not reported until everyone has, and the standings."""
from __future__ import annotations

from test_desk_browser import DESKTOP, shots  # noqa: F401 - fixtures
from test_desk_day_browser import LEGAL, call, phone
from test_desk_serve import start, stop

PLAYERS = ["Anna", "bjorn  SVENSSON", "Carla", "Dan", "Eve", "Finn", "Gus", "Hana"]


def report_all(api: str, token: str, number: int, skip: int | None = None) -> None:
    status, rounds = call("GET", f"{api}/rounds", token=token)
    assert status == 200
    for p in rounds[number - 1]["pairings"]:
        if p["b"] is not None and p["table"] != skip:
            assert call("POST", f"{api}/rounds/{number}/results", {"table": p["table"], "a_wins": 2, "b_wins": 1},
                        token)[0] == 200


def test_an_event_from_check_in_to_standings(browser, shots, tmp_path):  # noqa: F811 - fixtures
    from playwright.sync_api import expect
    proc, base = start(f"sqlite:///{tmp_path / 'rounds.db'}", DECKCHECK_DESK_RATE="0")
    try:
        status, event = call("POST", f"{base}/api/events", {"name": "Swiss Night", "format": "type1e",
                                                            "expected": ["Björn Svensson"]})
        assert status == 201 and isinstance(event, dict)
        token, api = event["organiser_token"], f"{base}/api/events/{event['id']}"
        decks = {}
        for name in PLAYERS:
            text = LEGAL + ("\n1 Uper Left Atack\n" if name == "Hana" else "")
            status, decks[name] = call("POST", f"{api}/decks", {"player": name, "decklist": text})
            assert status == 201
        assert decks["bjorn  SVENSSON"]["player"] == "Björn Svensson"
        assert call("POST", f"{api}/close", token=token)[0] == 200
        assert call("POST", f"{api}/deckchecks", {"player": "bjorn svensson", "judge": "Ines", "counts": {}},
                    token)[0] == 201

        organiser = browser.new_context(**DESKTOP).new_page()
        organiser.goto(event["dashboard_url"])
        expect(organiser.locator("#desk-table")).to_contain_text("NOT CHECKED")  # Hana's typo: provisional
        organiser.click("#rounds-link")
        expect(organiser.locator("#round-none")).to_contain_text("8 players checked in")
        organiser.fill("#start-round input[name=seed]", "swiss-night")
        organiser.click("#start-round button")
        expect(organiser.locator("#rounds-done")).to_have_text("Round 1 started.")
        expect(organiser.locator("#round-waiting")).to_contain_text("table 4")
        organiser.reload()  # POST-redirect-GET: reloading starts nothing
        assert len(call("GET", f"{api}/rounds", token=token)[1]) == 1

        # a player reports table 1 from their phone; the organiser's live table drops it from "not reported"
        status, rounds = call("GET", f"{api}/rounds", token=token)
        first = rounds[0]["pairings"][0]
        mobile = phone(browser, 360)
        mobile.goto(next(d["deck_url"] for d in decks.values() if d["player"] == first["b"]))
        expect(mobile.locator("#my-table h2")).to_have_text("Round 1: table 1")
        mobile.fill("#my-result input[name=mine]", "2")
        mobile.fill("#my-result input[name=theirs]", "0")
        mobile.click("#my-result button")
        expect(mobile.locator("#result-saved")).to_be_visible()
        mobile.screenshot(path=str(shots / "rounds-phone-360.png"), full_page=True)
        expect(organiser.locator("#round-waiting")).not_to_contain_text("table 1 ", timeout=15_000)
        report_all(api, token, 1, skip=1)
        expect(organiser.locator("#round-complete")).to_be_visible(timeout=15_000)  # by itself, no reload

        organiser.select_option("#drop-form select[name=player]", "Hana")
        organiser.click("#drop-form button")
        expect(organiser.locator("#rounds-done")).to_have_text("Hana dropped.")
        for number in (2, 3):
            organiser.click("#start-round button")
            expect(organiser.locator("#rounds-done")).to_have_text(f"Round {number} started.")
            expect(organiser.locator("#pairings")).to_contain_text("bye")  # seven players left
            assert "Hana" not in organiser.locator("#pairings").inner_text()
            report_all(api, token, number)
        organiser.reload()
        rows = organiser.locator("#standings tbody tr")
        expect(rows).to_have_count(8)
        expect(organiser.locator("#standings tr.dropped")).to_contain_text("Hana")
        organiser.screenshot(path=str(shots / "rounds-standings-1280.png"), full_page=True)
        status, standings = call("GET", f"{api}/standings", token=token)
        assert [s["player"] for s in standings][:1] == [rows.first.locator("td").nth(1).inner_text()]
        assert "Björn Svensson" in [s["player"] for s in standings]
        met = [frozenset((p["a"], p["b"])) for r in call("GET", f"{api}/rounds", token=token)[1]
               for p in r["pairings"] if p["b"]]
        assert len(met) == len(set(met))  # no rematch in three rounds of seven or eight
        mobile.goto(f"{base}/desk/{event['id']}/pairings")
        expect(mobile.locator("#standings tbody tr")).to_have_count(8)
    finally:
        stop(proc)
