"""An event from check-in to standings in a real browser, on one SQLite server and on two servers sharing one
PostgreSQL database (the players' phones on the first, the organiser on the second, results reported through both):
8 players (one typing the expected name differently, one with a line that does not read), the lists locked, two
deck checks (a card's name mistyped in one), the judges' printout read back from its PDF, three Swiss rounds with a
drop and a bye started from the organiser's page, a result reported from a phone through the player's private link,
the live table showing who has not reported until everyone has, the pairings printout read back, and the same
standings on every server.

The servers are the app served by uvicorn in threads of the test (tests/web/serving.py in_thread): they start at
once, and the live table's poll is shortened to a second (what is tested is that it updates by itself)."""
from __future__ import annotations

import io
import re
import unicodedata
from contextlib import ExitStack

import pytest

from conftest import _pg_url, fresh_pg
from deckcheck.judging import counting_groups
from deckcheck.library.desk import Desk
from serving import in_thread
from test_desk_browser import DESKTOP, shots  # noqa: F401 - fixtures
from test_desk_day_browser import LEGAL, call, phone
from test_desk_judging_browser import organiser_context

PLAYERS = ["Anna", "bjorn  SVENSSON", "Carla", "Dan", "Eve", "Finn", "Gus", "Hana"]


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def servers(request, tmp_path, monkeypatch):
    """The base URLs of one server on SQLite, or of two servers on one PostgreSQL database (needs
    DECKCHECK_TEST_PG, which CI sets)."""
    monkeypatch.setenv("DECKCHECK_DESK_RATE", "0")  # every phone of the test comes from one address
    monkeypatch.setattr("deckcheck.web.rounds.POLL_SECONDS", 1)
    if request.param == "sqlite":
        urls = [f"sqlite:///{tmp_path / 'rounds.db'}"]
    else:
        pg = _pg_url()
        if not pg:
            pytest.skip("DECKCHECK_TEST_PG not set (scripts/postgres.sh starts a server and sets it)")
        urls = [fresh_pg(pg)] * 2
    with ExitStack() as stack:
        yield [stack.enter_context(in_thread(url)) for url in urls], urls[0]


def report_all(apis: list[str], token: str, number: int, skip: int | None = None) -> None:
    """Every table's result but `skip`'s, through the servers in turn."""
    status, rounds = call("GET", f"{apis[0]}/rounds", token=token)
    assert status == 200
    for n, p in enumerate(p for p in rounds[number - 1]["pairings"] if p["b"] is not None and p["table"] != skip):
        assert call("POST", f"{apis[n % len(apis)]}/rounds/{number}/results",
                    {"table": p["table"], "a_wins": 2, "b_wins": 1}, token)[0] == 200


def pdf_pages(page, path, paper: str = "A4") -> list[str]:
    """The text of each page of the PDF Chromium prints of `page` (what the organiser files, kept at `path`),
    read with pypdf (ligatures such as "ﬀ" read as their letters)."""
    from pypdf import PdfReader
    pdf = page.pdf(format=paper, print_background=True)
    path.write_bytes(pdf)
    reader = PdfReader(io.BytesIO(pdf))
    return [unicodedata.normalize("NFKC", p.extract_text()) for p in reader.pages]


def test_an_event_from_check_in_to_standings(browser, shots, servers):  # noqa: F811 - fixtures
    from playwright.sync_api import expect
    bases, db_url = servers
    phones, desk = bases[0], bases[-1]  # the players' server and the organiser's
    apis = [f"{base}/api/events" for base in bases]
    status, event = call("POST", apis[-1], {"name": "Swiss Night", "format": "type1e", "expected": ["Björn Svensson"]})
    assert status == 201 and isinstance(event, dict)
    token = event["organiser_token"]
    apis = [f"{api}/{event['id']}" for api in apis]
    decks = {}
    for name in PLAYERS:
        text = LEGAL + ("\n1 Uper Left Atack\n" if name == "Hana" else "")
        status, decks[name] = call("POST", f"{apis[0]}/decks", {"player": name, "decklist": text})
        assert status == 201
    assert decks["bjorn  SVENSSON"]["player"] == "Björn Svensson"
    assert call("POST", f"{apis[-1]}/close", token=token)[0] == 200
    # two judges count two decks at their tables, one through each server: Björn's one Thrust short; in Anna's a
    # card the list lacks, its name mistyped, then typed as the error suggests
    library = Desk(db_url)
    for n, (player, short, extra) in enumerate((("bjorn svensson", "Thrust (2)", None),
                                                ("Anna", None, "Conor MacLeod Power Blow"))):
        listed = library.counting(library.event(event["id"]), player)
        assert listed is not None
        counts = {line.card: line.quantity - (line.card == short) for line in listed.registered.lines}
        check_url, body = f"{apis[n % len(apis)]}/deckchecks", {"player": player, "judge": f"Judge {n}"}
        if extra:
            status, refused = call("POST", check_url, body | {"counts": counts | {extra: 1}}, token)
            assert status == 400 and "did you mean" in refused["error"], refused
            suggested = re.search(r"did you mean: ([^,?]+)", refused["error"])
            assert suggested, refused
            extra = suggested.group(1)
            counts[extra] = 1
        status, check = call("POST", check_url, body | {"counts": counts}, token)
        assert status == 201 and [d["card"] for d in check["differences"]] == [short or extra], check
    far = library.deck_check(event["id"], "Dan", "Judge 2", {})  # (through the library) Dan's deck not at the table
    assert len(far["differences"]) > 12

    # the organiser's browser, holding the cookie the organiser link sets (tests/web/test_desk_browser.py follows
    # the link itself); the judges' printout, as filed: one page per player, the list as a deck is counted, totals
    # once a section
    organiser = organiser_context(browser, desk, event["id"], token, **DESKTOP).new_page()
    organiser.goto(f"{desk}/desk/{event['id']}/admin/print")
    pages = pdf_pages(organiser, shots / "rounds-decklists-A4.pdf")
    submissions = library.list_submissions(event["id"])
    sheets: list[str] = []  # each player's pages: a sheet starts a page with the player's name, as its head
    for text in pages:
        if text.splitlines()[0] in [s.player for s in submissions][len(sheets):len(sheets) + 1]:
            sheets.append(text)
        else:
            sheets[-1] += "\n" + text
    assert [sheet.splitlines()[0] for sheet in sheets] == [s.player for s in submissions]
    assert len(pages) == len(submissions) + 1  # a page each, Dan's long check going on over a second one
    dan = pages[[s.player for s in submissions].index("Dan")]
    assert "Deck check by Judge 2" in dan  # begun on his page, beside his list, not pushed to the next
    for sheet, submission in zip(sheets, submissions, strict=True):
        lines = [re.sub(r"\s+", " ", line).strip() for line in sheet.splitlines()]
        rows = counted_rows(library, event["id"], submission)
        assert [line for line in lines if line in rows] == rows  # every row once, as the counting sheet has them
        for section in submission.registered.section_names():
            assert lines.count(f"{submission.registered.total(section)} {section} total") == 1
        heads = [line for line in lines if line.startswith("Qty")]  # a column's head: once a section or a column
        assert len(heads) >= len(submission.registered.section_names()) and set(heads) == {"Qty Card Counted"}
    by_player = dict(zip((s.player for s in submissions), sheets, strict=True))
    # the recorded checks instead of the blank line to fill in: who, the differences, the verdict as counted
    for player, judge, result in (("Björn Svensson", "Judge 0", "Thrust (2): registered 4, counted 3"),
                                  ("Anna", "Judge 1", "Connor MacLeod Power Blow: not registered, counted 1")):
        sheet = re.sub(r"\s+", " ", by_player[player])
        assert f"Deck check by {judge}" in sheet and "1 difference;" in sheet and result in sheet, sheet
        assert "Judge: ___" not in sheet
    assert "Judge: ___" in by_player["Carla"]
    assert "NOT CHECKED" in by_player["Hana"] and "NOT CHECKED" not in by_player["Carla"]  # Hana's typo: provisional

    organiser.goto(f"{desk}/desk/{event['id']}/admin/rounds")
    expect(organiser.locator("#round-none")).to_contain_text("8 players checked in")
    organiser.fill("#start-round input[name=seed]", "swiss-night")
    organiser.click("#start-round button")
    expect(organiser.locator("#rounds-done")).to_have_text("Round 1 started.")
    expect(organiser.locator("#round-waiting")).to_contain_text("table 4")
    organiser.reload()  # POST-redirect-GET: reloading starts nothing
    assert len(call("GET", f"{apis[0]}/rounds", token=token)[1]) == 1

    # a player reports table 1 from their phone; the organiser's live table drops it from "not reported"
    status, rounds = call("GET", f"{apis[0]}/rounds", token=token)
    first = rounds[0]["pairings"][0]
    mobile = phone(browser, 360)
    mobile.goto(next(d["deck_url"] for d in decks.values() if d["player"] == first["b"]))
    assert mobile.url.startswith(phones)
    expect(mobile.locator("#my-table h2")).to_have_text("Round 1: table 1")
    mobile.fill("#my-result input[name=mine]", "2")
    mobile.fill("#my-result input[name=theirs]", "0")
    mobile.click("#my-result button")
    expect(mobile.locator("#result-saved")).to_be_visible()
    mobile.screenshot(path=str(shots / "rounds-phone-360.png"), full_page=True)
    expect(organiser.locator("#round-waiting")).not_to_contain_text("table 1 ", timeout=10_000)
    report_all(apis, token, 1, skip=1)
    expect(organiser.locator("#round-complete")).to_be_visible(timeout=10_000)  # by itself, no reload

    organiser.select_option("#drop-form select[name=player]", "Hana")
    organiser.click("#drop-form button")
    expect(organiser.locator("#rounds-done")).to_have_text("Hana dropped.")
    for number in (2, 3):
        organiser.click("#start-round button")
        expect(organiser.locator("#rounds-done")).to_have_text(f"Round {number} started.")
        expect(organiser.locator("#pairings")).to_contain_text("bye")  # seven players left
        assert "Hana" not in organiser.locator("#pairings").inner_text()
        report_all(apis, token, number)
    organiser.reload()
    rows = organiser.locator("#standings tbody tr")
    expect(rows).to_have_count(8)
    expect(organiser.locator("#standings tr.dropped")).to_contain_text("Hana")
    organiser.screenshot(path=str(shots / "rounds-standings-1280.png"), full_page=True)
    standings = [call("GET", f"{api}/standings", token=token) for api in apis]
    assert all(s == standings[0] for s in standings) and standings[0][0] == 200  # one event on every server
    order = [s["player"] for s in standings[0][1]]
    assert order[:1] == [rows.first.locator("td").nth(1).inner_text()]
    assert "Björn Svensson" in order
    met = [frozenset((p["a"], p["b"])) for r in call("GET", f"{apis[0]}/rounds", token=token)[1]
           for p in r["pairings"] if p["b"]]
    assert len(met) == len(set(met))  # no rematch in three rounds of seven or eight

    # the pairings printout pinned up at the venue: round 3's tables and the standings in their order
    organiser.goto(f"{desk}/desk/{event['id']}/admin/rounds/print")
    printed = re.sub(r"\s+", " ", " ".join(pdf_pages(organiser, shots / "rounds-pairings-A4.pdf")))
    third = call("GET", f"{apis[0]}/rounds", token=token)[1][2]["pairings"]
    for p in third:
        assert re.search(rf"\b{p['table']} {re.escape(p['a'])} {re.escape(p['b'] or 'bye')}\b", printed), p
    standing_part = printed[printed.index("Standings"):]
    assert sorted(order, key=standing_part.index) == order

    mobile.goto(f"{phones}/desk/{event['id']}/pairings")
    expect(mobile.locator("#standings tbody tr")).to_have_count(8)


def counted_rows(desk: Desk, event_id: str, submission) -> list[str]:
    """The rows of a player's printed list as a judge counts the deck (deckcheck.judging.counting_groups): each
    type's total, then its cards with their quantities."""
    groups = counting_groups(submission.registered, desk.card_types(desk.event(event_id), submission))
    return [row for g in groups
            for row in (f"{g.total} {g.type}", *(f"{line.quantity} {line.card}" for line in g.lines))]
