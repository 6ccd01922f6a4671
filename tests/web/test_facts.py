"""Card facts from players (issue 22, CONTRACTS §6 revision 3): forms, proposals, review, history, export, and the
bad input strangers send to every new endpoint."""
from __future__ import annotations

import html as html_lib
import json
import re
import shutil
from pathlib import Path

import pytest

from deckcheck.rates import Rate

ROOT = Path(__file__).resolve().parents[2]
DECK = (ROOT / "examples/decks/type1e-connor-legal.txt").read_text()
ADMIN = "organiser-secret-token"
CARD = "ME-upper-left-attack-1"  # Restriction unknown in the bundle; in the Connor deck


@pytest.fixture(autouse=True)
def no_rate_limit():
    from deckcheck.web import facts
    facts.ANSWERS.clear()
    yield
    facts.ANSWERS.clear()


def make_client(tmp_path, web_db, admin_token=None):
    from fastapi.testclient import TestClient

    from deckcheck.web import create_app
    db = tmp_path / ("club.db" if admin_token else "home.db")
    if not db.exists():
        shutil.copy(web_db.removeprefix("sqlite:///"), db)
    client = TestClient(create_app(db_url=f"sqlite:///{db}", admin_token=admin_token))
    client.get("/")
    return client


@pytest.fixture
def home(tmp_path, web_db):
    with make_client(tmp_path, web_db) as c:
        yield c


@pytest.fixture
def club(tmp_path, web_db):
    with make_client(tmp_path, web_db, ADMIN) as c:
        yield c


@pytest.fixture
def other(tmp_path, web_db, club):
    """Another player's browser on the same club server (no cookies of the first)."""
    with make_client(tmp_path, web_db, ADMIN) as c:
        yield c


def csrf(client) -> str:
    return client.cookies["deckcheck_csrf"]


def verdict(html: str) -> str:
    found = re.search(r'<header class="verdict">\s*<strong>([^<]*)</strong>', html)
    assert found, html[:500]
    return found.group(1)


def restriction_form(html: str, value: str = "none") -> dict:
    """The fill-in form of a check page answered: every card asked for its Restriction number gets `value`."""
    data = {}
    for n, card_id in re.findall(r'name="(f\d+)\.id" value="([^"]+)"', html):
        if f'name="{n}.restriction"' in html:
            data[f"{n}.id"] = card_id
            data[f"{n}.restriction"] = value
    assert data
    return data


def check_page(client, **extra):
    return client.post("/check", data={"decklist": DECK, "csrf_token": csrf(client), **extra})


# -- 1. unverified, shown as what it is -----------------------------------------------------------------
def test_check_page_says_how_many_rules_are_unverified_and_never_tells_to_run_a_command(home):
    html = check_page(home).text
    assert verdict(html) == "Legal — 2 rules unverified"
    assert "2 rules unverified</h2>" in html and "Copies limit not checked, for 15 cards" in html
    assert "Settled by the Restriction number printed on the card" in html
    assert "deckcheck cards import" not in html and "--cards" not in html
    assert html.count('class="fact-row"') == 17  # 15 Restriction numbers, 2 Hand icons


def test_api_check_has_unverified(home):
    body = home.post("/api/check", json={"decklist": DECK}).json()
    assert body["unverified"] == ["HL-HAND-ICONS", "HL-RESTRICTED"]
    assert [i["rule"] for i in body["issues"]] == ["HL-DATA-UNKNOWN", "HL-DATA-UNKNOWN"]  # the issues stay


# -- 2. fill in from the card in hand ------------------------------------------------------------------
def test_personal_server_applies_answers_and_the_check_decides_at_once(home):
    html = check_page(home).text
    r = home.post("/check/facts", data={"decklist": DECK, "csrf_token": csrf(home), "facts_by": "Ann",
                                        **restriction_form(html)})
    assert r.status_code == 200
    assert verdict(r.text) == "Legal — 1 rule unverified"
    assert "Saved 15 values from Ann. Now decided: HL-RESTRICTED (copies limit)" in r.text
    card = home.get(f"/api/cards/{CARD}", params={"detail": "true"}).json()
    assert card["card"]["restriction"] == "" and card["sources"]["restriction"]["kind"] == "web"
    assert card["sources"]["restriction"]["ref"] == "Ann"
    page = home.get(f"/cards/{CARD}/facts").text  # the history: old → new, who, when
    assert re.search(r"unknown → none</td>\s*<td[^>]*>web:Ann @ \d{4}-", page)
    assert "unknown → none" in home.get(f"/cards/{CARD}").text  # the card page shows it too


def test_card_page_form_saves_every_field_and_keeps_history(home):
    r = home.post(f"/cards/{CARD}/facts", data={"csrf_token": csrf(home), "facts_by": "Ann", "f0.id": CARD,
                                                 "f0.restriction": "3", "f0.reserved": "no", "f0.signature": "no",
                                                 "f0.hand_icons": "0", "f0.grid": ["UL", "MC"],
                                                 "f0.text": "Attack the upper left."})
    assert r.status_code == 200 and "Saved." in r.text
    row = home.get(f"/api/cards/{CARD}").json()
    assert (row["restriction"], row["reserved"], row["grid"], row["text"]) == ("3", "no", "UL MC",
                                                                              "Attack the upper left.")
    r = home.post(f"/cards/{CARD}/facts", data={"csrf_token": csrf(home), "facts_by": "Bo", "f0.id": CARD,
                                                 "f0.restriction": "2"})
    history = r.text[r.text.index('id="history"'):]
    assert history.index("3 → 2") < history.index("unknown → 3")  # newest first
    assert "web:Bo @" in history and "was: web:Ann @" in history


def test_the_name_is_remembered_and_required(home):
    r = home.post(f"/cards/{CARD}/facts", data={"csrf_token": csrf(home), "facts_by": "  ", "f0.id": CARD,
                                                 "f0.restriction": "3"})
    assert r.status_code == 400 and "say who you are" in r.text
    home.post(f"/cards/{CARD}/facts", data={"csrf_token": csrf(home), "facts_by": "Ann <b>", "f0.id": CARD,
                                             "f0.restriction": "3"})
    page = home.get(f"/cards/{CARD}/facts").text
    assert 'name="facts_by" value="Ann &lt;b&gt;"' in page and "Ann <b>" not in page


def test_saved_deck_page_has_its_own_form(home):
    r = home.post("/decks", data={"decklist": DECK, "csrf_token": csrf(home)}, follow_redirects=False)
    link = r.headers["location"]
    html = home.get(link).text
    assert verdict(html) == "Legal — 2 rules unverified" and f'action="{link}/facts"' in html
    r = home.post(f"{link}/facts", data={"csrf_token": csrf(home), "facts_by": "Ann", **restriction_form(html)})
    assert r.status_code == 200 and verdict(r.text) == "Legal — 1 rule unverified"
    assert "Now decided: HL-RESTRICTED" in r.text


# -- 3. reviewed where a club needs it -----------------------------------------------------------------
def test_club_answers_wait_count_for_their_author_only_until_accepted(club, other):
    html = check_page(club).text
    r = club.post("/check/facts", data={"decklist": DECK, "csrf_token": csrf(club), "facts_by": "Ann",
                                        **restriction_form(html)})
    assert verdict(r.text) == "Legal — 1 rule unverified"  # Ann's own check counts her answers
    assert "wait for the organiser" in r.text and "counted 15 answers by Ann" in r.text
    assert verdict(check_page(club).text) == "Legal — 1 rule unverified"  # her browser remembers her
    # nobody else's verdict changes before acceptance
    assert verdict(check_page(other).text) == "Legal — 2 rules unverified"
    assert other.post("/api/check", json={"decklist": DECK}).json()["unverified"] == ["HL-HAND-ICONS",
                                                                                      "HL-RESTRICTED"]
    assert other.get(f"/api/cards/{CARD}").json()["restriction"] == "unknown"
    mine = other.post("/api/check", json={"decklist": DECK, "facts_by": "ann"}).json()
    assert mine["unverified"] == ["HL-HAND-ICONS"] and "counted 15 answers by ann" in mine["notices"][0]
    # the organiser accepts everything Ann said on the review page
    assert "Admin token" in other.get("/cards/proposals").text
    r = other.post("/cards/proposals", data={"admin_token": "wrong", "csrf_token": csrf(other)})
    assert r.status_code == 403
    r = other.post("/cards/proposals", data={"admin_token": ADMIN, "csrf_token": csrf(other)})
    page = other.get("/cards/proposals").text
    assert page.count("Accept</button>") == 15 and "Accept all from" in page and ">Ann</button>" in page
    r = other.post("/cards/proposals/decide", data={"accept_all": "Ann", "csrf_token": csrf(other)})
    assert r.status_code == 200 and "No pending answer" in r.text
    assert verdict(check_page(other).text) == "Legal — 1 rule unverified"
    history = other.get(f"/cards/{CARD}/facts").text
    assert "accepted by the organiser" in history and "web:Ann @" in history


def test_api_facts_personal_200_club_202_and_review(home, club):
    r = home.post(f"/api/cards/{CARD}/facts", json={"by": "Ann", "values": {"restriction": "none",
                                                                            "hand_icons": "0"}})
    assert r.status_code == 200
    body = r.json()
    assert body["proposals"] == [] and {(a["field"], a["old"], a["new"]) for a in body["applied"]} == {
        ("restriction", "unknown", "none"), ("hand_icons", "unknown", "0")}
    assert all(a["source"].startswith("web:Ann @ ") for a in body["applied"])
    r = club.post(f"/api/cards/{CARD}/facts", json={"by": "Ann", "values": {"restriction": "3"}})
    assert r.status_code == 202
    (p,) = r.json()["proposals"]
    assert r.json()["applied"] == [] and set(p) >= {"id", "card", "field", "old", "value", "by", "at", "status",
                                                    "conflict"}
    assert (p["card"], p["field"], p["old"], p["value"], p["by"], p["status"], p["conflict"]) == (
        CARD, "restriction", "unknown", "3", "Ann", "pending", None)
    assert club.get("/api/proposals").status_code == 401
    assert club.get("/api/proposals", headers={"Authorization": "Bearer nope"}).status_code == 403
    assert home.get("/api/proposals", headers={"Authorization": f"Bearer {ADMIN}"}).status_code == 403
    auth = {"Authorization": f"Bearer {ADMIN}"}
    assert [q["id"] for q in club.get("/api/proposals", headers=auth).json()["proposals"]] == [p["id"]]
    assert club.post(f"/api/proposals/{p['id']}/accept").status_code == 401
    r = club.post(f"/api/proposals/{p['id']}/accept", headers=auth, json={"by": "Org"})
    assert r.status_code == 200 and r.json()["status"] == "accepted" and r.json()["decided_by"] == "Org"
    assert club.post(f"/api/proposals/{p['id']}/reject", headers=auth).status_code == 409
    assert club.post("/api/proposals/999999/accept", headers=auth).status_code == 404
    assert club.get(f"/api/cards/{CARD}").json()["restriction"] == "3"
    assert club.get("/api/proposals", params={"status": "accepted"}, headers=auth).json()["proposals"][0][
        "id"] == p["id"]
    # a later answer contradicting the accepted one is marked as a conflict; rejecting it changes nothing
    r = club.post(f"/api/cards/{CARD}/facts", json={"by": "Bo", "values": {"restriction": "2"}})
    (q,) = r.json()["proposals"]
    assert q["conflict"] and "accepted value is 3" in q["conflict"] and "web:Ann" in q["conflict"]
    assert club.post(f"/api/proposals/{q['id']}/reject", headers=auth).json()["status"] == "rejected"
    assert club.get(f"/api/cards/{CARD}").json()["restriction"] == "3"


def test_a_proposal_contradicting_a_named_source_is_a_conflict(club):
    break_weapon = club.get("/api/cards", params={"q": "Break Weapon"}).json()["cards"][0]
    assert break_weapon["restriction"] == "3"
    r = club.post(f"/api/cards/{break_weapon['id']}/facts", json={"by": "Ann", "values": {"restriction": "1"}})
    (p,) = r.json()["proposals"]
    assert p["conflict"].startswith("a named public source says 3")
    assert "conflict: a named public source" in club.get(f"/cards/{break_weapon['id']}/facts").text


# -- 4. shared between clubs -----------------------------------------------------------------------------
def test_facts_csv_is_a_card_sheet_with_provenance(home):
    home.post(f"/api/cards/{CARD}/facts", json={"by": "Ann", "values": {"restriction": "4", "grid": "UL UC"}})
    r = home.get("/api/cards/facts.csv")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    lines = r.text.splitlines()
    assert lines[0] == "game,id,name,grid,restriction,grid_source,restriction_source"
    assert lines[1].startswith(f"highlander,{CARD},Upper Left Attack (1),UL UC,4,web:Ann @ ")
    assert len(lines) == 2  # nothing from the bundle


def test_facts_download_as_xlsx_and_tsv_is_the_cli_s_file_byte_for_byte(home, monkeypatch, tmp_path, web_db):
    """The web gives what `deckcheck cards facts export FILE` writes, in each kind it writes: the same rows as the
    CSV, the same bytes on every download (the workbook's date is $SOURCE_DATE_EPOCH or 1980, never the clock)."""
    import io
    import zipfile

    from inproc import run_cli
    from openpyxl import load_workbook
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    home.post(f"/api/cards/{CARD}/facts", json={"by": "Ann", "values": {"restriction": "4", "grid": "UL UC"}})
    csv_rows = [line.split(",") for line in home.get("/api/cards/facts.csv").text.splitlines()]
    r = home.get("/api/cards/facts.xlsx")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/vnd.openxmlformats")
    assert r.headers["content-disposition"] == 'attachment; filename="card-facts.xlsx"'
    book = load_workbook(io.BytesIO(r.content))
    assert book.sheetnames == ["card facts"]
    assert [[c or "" for c in row] for row in book["card facts"].iter_rows(values_only=True)] == csv_rows
    assert b"1980-01-01T00:00:00Z" in zipfile.ZipFile(io.BytesIO(r.content)).read("docProps/core.xml")
    assert home.get("/api/cards/facts.xlsx").content == r.content  # the same bytes again
    db = next(tmp_path.glob("home.db"))  # the CLI on the same database writes the same file
    out = tmp_path / "card-facts.xlsx"
    done = run_cli("cards", "facts", "export", str(out), "--db", f"sqlite:///{db}")
    assert done.code == 0 and done.crash is None, done.err
    assert out.read_bytes() == r.content
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764547200")
    assert b"2025-12-01T00:00:00Z" in zipfile.ZipFile(io.BytesIO(home.get("/api/cards/facts.xlsx").content)).read(
        "docProps/core.xml")
    tsv = home.get("/api/cards/facts.tsv")
    assert tsv.headers["content-type"].startswith("text/tab-separated-values")
    assert [line.split("\t") for line in tsv.text.splitlines()] == csv_rows
    page = home.get(f"/cards/{CARD}/facts").text  # the pages offer each kind
    assert all(f'href="/api/cards/facts.{kind}"' in page for kind in ("csv", "xlsx"))


# -- strangers' input ------------------------------------------------------------------------------------
@pytest.mark.parametrize("body, status, words", [
    ({"by": "Ann", "values": {"restriction": "x"}}, 400, "restriction"),
    ({"by": "Ann", "values": {"restriction": "-1"}}, 400, "restriction"),
    ({"by": "Ann", "values": {"colour": "red"}}, 400, "unknown field 'colour'"),
    ({"by": "Ann", "values": {"name": "Renamed"}}, 400, "unknown field 'name'"),
    ({"by": "Ann", "values": {"reserved": "maybe"}}, 400, "reserved"),
    ({"by": "Ann", "values": {"grid": "XX"}}, 400, "grid"),
    ({"by": "Ann", "values": {"restriction": ["3"]}}, 400, "text"),
    ({"by": "Ann", "values": {"restriction": True}}, 400, "text"),
    ({"by": "Ann", "values": {"reserved": ""}}, 400, "empty"),  # (an empty Restriction number: none, §1)
    ({"by": "Ann", "values": {"hand_icons": " "}}, 400, "empty"),
    ({"by": "Ann", "values": {"text": "x" * 2001}}, 400, "limit"),
    ({"by": "Ann", "values": {"text": "a\x1bb"}}, 400, "control"),
    ({"by": "Ann", "values": {}}, 400, "no values"),
    ({"by": "Ann", "values": "restriction=3"}, 400, "object"),
    ({"by": "", "values": {"restriction": "3"}}, 400, "who you are"),
    ({"by": "A" * 61, "values": {"restriction": "3"}}, 400, "limit"),
    ({"by": "Ann\u202e", "values": {"restriction": "3"}}, 400, "character"),
    ({"by": 7, "values": {"restriction": "3"}}, 400, "text"),
    ({"values": {"restriction": "3"}}, 400, "name"),
    ({"by": "Ann", "values": {"restriction": "3"}, "admin": True}, 400, "unknown key"),
    ([1, 2], 400, "object"),
])
def test_api_facts_bad_input_is_400_and_stores_nothing(home, club, body, status, words):
    for client in (home, club):
        r = client.post(f"/api/cards/{CARD}/facts", json=body)
        assert r.status_code == status and words in r.json()["error"], (body, r.text)
    assert home.get(f"/api/cards/{CARD}").json()["restriction"] == "unknown"
    assert club.get("/api/proposals", headers={"Authorization": f"Bearer {ADMIN}"}).json()["proposals"] == []


def test_api_facts_unknown_card_404_bad_json_400_wrong_type_415(home):
    assert home.post("/api/cards/NO-SUCH/facts", json={"by": "A", "values": {"restriction": "3"}}).status_code == 404
    r = home.post(f"/api/cards/{CARD}/facts", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "JSON" in r.json()["error"]
    r = home.post(f"/api/cards/{CARD}/facts", content=b"[" * 100_000, headers={"content-type": "application/json"})
    assert r.status_code == 400
    r = home.post(f"/api/cards/{CARD}/facts", data={"by": "A", "restriction": "3"})  # a cross-site form cannot
    assert r.status_code == 415


def test_pages_need_the_csrf_token(home, club):
    r = home.post(f"/cards/{CARD}/facts", data={"facts_by": "A", "f0.id": CARD, "f0.restriction": "3"})
    assert r.status_code == 403
    r = home.post("/check/facts", data={"decklist": DECK, "facts_by": "A", "f0.id": CARD, "f0.restriction": "3"})
    assert r.status_code == 403
    r = club.post("/cards/proposals/decide", data={"accept_all": "Ann"})
    assert r.status_code == 403
    assert home.get(f"/api/cards/{CARD}").json()["restriction"] == "unknown"


@pytest.mark.parametrize("field, value", [("restriction", "7"), ("restriction", "<script>"), ("grid", "ZZ"),
                                          ("hand_icons", "x"), ("reserved", "perhaps")])
def test_page_forms_refuse_bad_values_with_400_and_escape_them(home, field, value):
    r = home.post(f"/cards/{CARD}/facts", data={"csrf_token": csrf(home), "facts_by": "Ann", "f0.id": CARD,
                                                 f"f0.{field}": value})
    assert r.status_code == 400 and "<script>" not in r.text
    assert home.get(f"/api/cards/{CARD}").json()["restriction"] == "unknown"


def test_review_page_escapes_names_and_values(club):
    club.post(f"/api/cards/{CARD}/facts", json={"by": "<img src=x>", "values": {"text": "<script>x</script>"}})
    club.post("/cards/proposals", data={"admin_token": ADMIN, "csrf_token": csrf(club)})
    page = club.get("/cards/proposals").text
    assert "&lt;img src=x&gt;" in page and "<img src=x>" not in page and "<script>x" not in page


@pytest.mark.parametrize("path", ["/api/proposals/abc/accept", "/api/proposals/1/explode",
                                  "/api/proposals/99999999999999999999/accept"])
def test_api_decide_bad_ids_are_404(club, path):
    r = club.post(path, headers={"Authorization": f"Bearer {ADMIN}"})
    assert r.status_code == 404 and "error" in r.json()


def test_api_proposals_bad_status_400(club):
    r = club.get("/api/proposals", params={"status": "all"}, headers={"Authorization": f"Bearer {ADMIN}"})
    assert r.status_code == 400


def test_review_forms_refuse_bad_actions(club):
    club.post("/cards/proposals", data={"admin_token": ADMIN, "csrf_token": csrf(club)})
    for data, status in (({"accept": "x"}, 400), ({"accept": "424242"}, 404), ({}, 400), ({"accept_all": ""}, 400)):
        r = club.post("/cards/proposals/decide", data={"csrf_token": csrf(club), **data})
        assert r.status_code == status, (data, r.text)


def test_answers_are_rate_limited(home, monkeypatch):
    from conftest import one_window
    from deckcheck.web import facts
    # five answers that straddled a minute's end were counted in two windows (failed about once in sixty runs)
    monkeypatch.setattr(facts, "ANSWERS", one_window())
    monkeypatch.setattr(facts, "ANSWER_RATE", Rate(3, 60))
    codes = [home.post(f"/api/cards/{CARD}/facts", json={"by": "A", "values": {"restriction": str(n + 1)}}
                       ).status_code for n in range(5)]
    assert codes == [200, 200, 200, 429, 429]


def test_facts_by_in_check_must_be_a_name(club):
    r = club.post("/api/check", json={"decklist": DECK, "facts_by": 3})
    assert r.status_code == 400
    r = club.post("/api/check", json={"decklist": DECK, "facts_by": "x" * 500})
    assert r.status_code == 400 and "limit" in r.json()["error"]


def test_unknown_card_page_404(home):
    assert home.get("/cards/NO-SUCH/facts").status_code == 404
    r = home.post("/cards/NO-SUCH/facts", data={"csrf_token": csrf(home), "facts_by": "A", "f0.id": "NO-SUCH",
                                                 "f0.restriction": "3"})
    assert r.status_code == 404


def test_personal_server_has_nothing_to_review(home):
    assert "nothing to review" in home.get("/cards/proposals").text


# -- the desk -------------------------------------------------------------------------------------------
def test_desk_pages_and_reports_show_the_unverified_count_and_link_to_the_form(home):
    event = home.post("/api/events", json={"name": "Open", "format": "type1e"}).json()
    deck = home.post(f"/api/events/{event['id']}/decks", json={"player": "Ann", "decklist": DECK}).json()
    assert deck["unverified"] == ["HL-HAND-ICONS", "HL-RESTRICTED"]
    player_page = home.get(f"/desk/{event['id']}/decks/{deck['deck_id']}").text
    assert verdict(player_page) == "Legal — 2 rules unverified"
    assert f'href="/cards/{CARD}/facts"' in player_page or "/cards?q=Upper%20Left%20Attack%20%281%29" in player_page
    assert "deckcheck cards" not in player_page and "--cards" not in player_page
    home.get(event["dashboard_url"].replace("http://testserver", ""))
    table = home.get(f"/desk/{event['id']}/admin/table").text
    assert "legal <small class=\"desk-unverified\">— 2 rules unverified</small>" in table
    auth = {"Authorization": f"Bearer {event['organiser_token']}"}
    summary = home.get(f"/api/events/{event['id']}/report.csv", headers=auth).text.splitlines()
    header = summary[0].split(",")
    assert header[-1] == "unverified" and summary[1].split(",")[-1] == "2"


def test_a_stored_report_without_the_field_counts_from_its_issues():
    from deckcheck.library.desk import unverified_count
    old = ('{"issues": [{"rule": "HL-DATA-UNKNOWN", "message": "HL-RESTRICTED not verified: ..."}, '
           '{"rule": "HL-DATA-UNKNOWN", "message": "HL-RESTRICTED not verified: more"}, {"rule": "HL-DECK-MIN"}]}')
    assert unverified_count(old) == 1 and unverified_count('{"unverified": ["A", "B"]}') == 2
    assert unverified_count("not json") == 0 and unverified_count("[]") == 0 and unverified_count(None) == 0


def test_any_json_body_is_answered_with_a_4xx_or_2xx_never_a_500(tmp_path, web_db):
    """Strangers' bodies of any shape, on a personal and a club server: never a 500; what is refused stores nothing."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
    scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
                        st.text(max_size=30))

    def nested(inner):
        return st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=12), inner, max_size=3))
    values = st.recursive(scalars, nested, max_leaves=8)
    fields = st.sampled_from(list(("restriction", "reserved", "signature", "hand_icons", "grid", "text", "type",
                                   "unique", "gem_master", "name", "", "restriction_source")))
    bodies = st.one_of(values, st.fixed_dictionaries({"by": values, "values": st.dictionaries(fields, values,
                                                                                              max_size=4)}))
    with make_client(tmp_path, web_db) as home, make_client(tmp_path, web_db, ADMIN) as club:
        @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
        @given(body=bodies)
        def run(body):
            from deckcheck.web import facts
            facts.ANSWERS.clear()
            for client in (home, club):
                r = client.post(f"/api/cards/{CARD}/facts", content=json.dumps(body).encode(),
                                headers={"content-type": "application/json"})
                assert r.status_code in (200, 202, 400), (body, r.status_code, r.text[:200])
                assert "error" in r.json() if r.status_code == 400 else set(r.json()) == {"applied", "proposals"}
        run()


# -- the fill-in form of a deck with many unverified cards: grouped, the quickest first, the rest folded ----------
KURGAN = (ROOT / "examples/decks/type1e-kurgan-illegal.txt").read_text()


def found(pattern: str, text: str) -> str:
    match = re.search(pattern, text)
    assert match, pattern
    return match.group(1)


def facts_groups(html: str) -> list[dict]:
    """The check page's fill-in form as read: per group its title, count, and the cards shown and folded (name,
    copies) in order."""
    form = html[html.index('id="facts"'):]
    form = form[:form.index("Save and check again")]
    groups = []
    for part in form.split('<fieldset class="fact-group"')[1:]:
        legend = re.search(r"<legend>([^<]+) <span class=\"count\">· (\d+) cards?</span>", part)
        assert legend, part[:300]
        shown, _, folded = part.partition('<details class="fact-more">')

        def rows(text: str) -> list[tuple[str, int]]:
            return [(name, int(n or 1)) for name, n in re.findall(
                r'<span class="fact-name">([^<]+)</span>(?: <span class="fact-meta"><small>(\d+) copies)?', text)]
        groups.append({"title": legend.group(1), "count": int(legend.group(2)), "shown": rows(shown),
                       "folded": rows(folded), "summary": re.findall(r"<summary>([^<]+)</summary>", folded)})
    return groups


def test_a_long_fill_in_form_is_grouped_by_what_is_missing_quickest_first_rest_folded(home):
    html = home.post("/check", data={"decklist": KURGAN, "csrf_token": csrf(home)}).text
    groups = facts_groups(html)
    assert [(g["title"], g["count"]) for g in groups] == [("Hand icons", 2), ("Restriction number", 19)]
    assert "21 cards wait on a value printed on the card" in html  # Signature: one printing states it
    restriction = groups[1]
    assert len(restriction["shown"]) == 4 and len(restriction["folded"]) == 15
    assert restriction["summary"] == ["15 more cards"]
    assert min(n for _c, n in restriction["shown"]) >= max(n for _c, n in restriction["folded"])  # most played first
    assert restriction["shown"][0] == ("The Kurgan Back Away", 4)
    assert not groups[0]["folded"]  # a short group is shown whole
    ids = re.findall(r'name="(f\d+)\.id"', html)
    assert len(ids) == len(set(ids)) == 21  # a card asked two things (Power Blow) is one card of the form
    # a folded card is part of the form without JavaScript: its answer is saved like any other
    folded_name = "Back Away (Kern)"  # one printing: the deck's line means this card
    assert (folded_name, 3) in restriction["folded"]
    n = found(r'<label for="(f\d+)-restriction"><span class="fact-name">' + re.escape(folded_name), html)
    card_id = found(rf'name="{n}\.id" value="([^"]+)"', html)
    r = home.post("/check/facts", data={"decklist": KURGAN, "csrf_token": csrf(home), "facts_by": "Ann",
                                        f"{n}.id": card_id, f"{n}.restriction": "none"})
    assert r.status_code == 200 and "Saved 1 value from Ann" in r.text
    assert home.get(f"/api/cards/{card_id}").json()["restriction"] == ""  # none printed
    assert facts_groups(r.text)[1]["count"] == 18  # asked no more
    # a line without a set may be any printing: an answer read off the player's copies (the TIN printing)
    # settles the line, since the SE printing states nothing else (a reprint carries the card's facts)
    n = found(r'<label for="(f\d+)-restriction"><span class="fact-name">Lower Center Block<', r.text)
    r = home.post("/check/facts", data={"decklist": KURGAN, "csrf_token": csrf(home), "facts_by": "Ann",
                                        f"{n}.id": "TIN-lower-center-block", f"{n}.restriction": "none"})
    assert home.get("/api/cards/TIN-lower-center-block").json()["restriction"] == ""
    assert home.get("/api/cards/SE-lower-center-block").json()["restriction"] == "unknown"
    assert "your answer is for its TIN printing" not in r.text
    assert facts_groups(r.text)[1]["count"] == 17


ARABIC_INDIC = str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")


def test_proposal_ids_are_ascii_digits_only_on_the_api_and_the_review_form(club):
    """Issue 28: `²` answered 500 (isdigit() takes it, int() refuses it) and `١` accepted proposal 1."""
    (p,) = club.post(f"/api/cards/{CARD}/facts", json={"by": "Ann", "values": {"restriction": "3"}}).json()["proposals"]
    admin = {"Authorization": f"Bearer {ADMIN}"}
    for pid in ("²", str(p["id"]).translate(ARABIC_INDIC), "１"):
        r = club.post(f"/api/proposals/{pid}/accept", headers=admin)
        assert r.status_code == 404 and pid in r.json()["error"], (pid, r.status_code, r.text)
    club.post("/cards/proposals", data={"admin_token": ADMIN, "csrf_token": csrf(club)})
    for pid in ("²", str(p["id"]).translate(ARABIC_INDIC)):
        r = club.post("/cards/proposals/decide", data={"csrf_token": csrf(club), "accept": pid})
        assert r.status_code == 400 and pid in r.text, (pid, r.status_code, r.text[:300])
    (still,) = club.get("/api/proposals", headers=admin).json()["proposals"]
    assert still["id"] == p["id"] and still["status"] == "pending"


def test_other_numbers_in_forms_are_ascii_digits_only():
    """The same sweep: the check page's `fix` line number, a deck check's − / + step."""
    from deckcheck.web.check import apply_fix
    from deckcheck.web.deskcheck import stepped
    assert apply_fix("1 Thrustt\n", "١|Thrust") == "1 Thrustt\n"
    assert apply_fix("1 Thrustt\n", "1|Thrust") == "1 Thrust\n"
    assert stepped({"count:Thrust": "١"}, "Thrust|+1") == {"count:Thrust": "1"}
    assert stepped({"count:Thrust": "1_0"}, "Thrust|+1") == {"count:Thrust": "1"}
    assert stepped({"count:Thrust": "2"}, "Thrust|+1") == {"count:Thrust": "3"}


def test_the_review_and_its_api_are_never_cached(club):
    """Issue 28: no Cache-Control: no-store on the review's sign-in redirect, the review page and /api/proposals."""
    link = club.get("/cards/proposals", params={"token": ADMIN}, follow_redirects=False)
    assert link.status_code == 303 and link.headers["cache-control"] == "no-store"
    signin = club.post("/cards/proposals", data={"admin_token": ADMIN, "csrf_token": csrf(club)},
                       follow_redirects=False)
    assert signin.status_code == 303 and signin.headers["cache-control"] == "no-store"
    page = club.get("/cards/proposals")
    assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
    api = club.get("/api/proposals", headers={"Authorization": f"Bearer {ADMIN}"})
    assert api.status_code == 200 and api.headers["cache-control"] == "no-store"


def route_table(client) -> list[tuple[str, set[str]]]:
    """Every route of the app (path as declared, methods), from its own route table."""
    from starlette.routing import Route

    from deckcheck.web.routes import flat
    return [(r.path, set(r.methods or ())) for r in flat(client.app.router.routes) if isinstance(r, Route)]


def test_every_private_route_answers_no_store(club):
    """Each route that shows private data (deckcheck.web.routes.PRIVATE_ROUTES, each of which must exist) says
    no-store, whatever it answers."""
    from deckcheck.web.routes import PRIVATE_ROUTES
    table = route_table(club)
    assert PRIVATE_ROUTES <= {path for path, _m in table}, PRIVATE_ROUTES - {path for path, _m in table}
    for path, methods in table:
        if path not in PRIVATE_ROUTES:
            continue
        url = re.sub(r"\{[^}]+\}", "x", path).replace("x.x", "facts.csv")
        method = "GET" if "GET" in methods else sorted(methods)[0]
        r = club.request(method, url, data={"csrf_token": csrf(club)} if method == "POST" else None)
        assert r.status_code < 500 and r.headers.get("cache-control") == "no-store", (method, url, r.status_code)


def test_a_405_lists_every_method_of_the_path_and_head_finds_the_route_that_names_it(club):
    """Issue 28: `HEAD /cards/proposals/decide` → 404 (the card route caught the path) and a 405 on a path taking
    GET and POST said `Allow: GET, HEAD`."""
    head = club.head("/cards/proposals/decide")
    assert head.status_code == 405 and head.headers["allow"] == "POST"
    assert club.get("/cards/proposals/decide").status_code == 405
    put = club.put("/cards/proposals")
    assert put.status_code == 405 and put.headers["allow"] == "GET, HEAD, POST"
    by_path: dict[str, set[str]] = {}
    for path, methods in route_table(club):
        if "{" not in path:
            by_path.setdefault(path, set()).update(methods)
    for path, methods in by_path.items():
        expected = sorted(methods | ({"HEAD"} if "GET" in methods else set()))
        r = club.request("PATCH", path)
        assert r.status_code == 405 and r.headers["allow"] == ", ".join(expected), (path, r.headers.get("allow"))


# -- issue 32: an answer settles what it was asked for ---------------------------------------------------------------
def test_an_answer_on_one_printings_page_decides_the_line_and_two_answers_that_differ_are_a_conflict(home):
    persona_deck = "Format: type1e\nPre-Game:\nDuncan MacLeod Persona\n"
    assert "HL-HAND-ICONS" in home.post("/api/check", json={"decklist": persona_deck}).json()["unverified"]
    r = home.post("/cards/SE-duncan-macleod-persona/facts", data={
        "csrf_token": csrf(home), "facts_by": "Ann", "f0.id": "SE-duncan-macleod-persona", "f0.hand_icons": "1"})
    assert r.status_code == 200
    assert "HL-HAND-ICONS" not in home.post("/api/check", json={"decklist": persona_deck}).json()["unverified"]
    # two printings answered differently: one card whose Restriction is in conflict, never an ambiguous line
    for card_id, value in (("SE-lower-center-block", "3"), ("TIN-lower-center-block", "none")):
        assert home.post(f"/api/cards/{card_id}/facts", json={"by": "Bo", "values": {"restriction": value}}
                         ).status_code == 200
    report = home.post("/api/check", json={"decklist": KURGAN}).json()
    assert report["input_errors"] == [] and report["legal"] is False and "HL-RESTRICTED" in report["unverified"]
    assert any("Lower Center Block" in i["cards"] for i in report["issues"] if i["rule"] == "HL-DATA-UNKNOWN")
    page = home.get("/cards/TIN-lower-center-block").text
    assert "Printings disagree" in page and "SE says 3; TIN says none" in page


def test_a_rule_card_data_kept_from_deciding_is_one_entry_of_the_page_and_no_page_names_a_command(home):
    html = check_page(home).text
    assert 'id="unverified"' in html and "HL-DATA-UNKNOWN" not in html  # the group, not also a warning
    assert "warning" not in html[html.index('class="report'):html.index('id="unverified"')].lower()
    for page in ("/cards/ME-upper-left-attack-1", "/desk/new", "/check"):  # (the API reference names its twins)
        text = home.get(page).text
        assert not re.search(r"deckcheck (cards|check|tournament|import)", text), page


def test_the_form_asks_one_question_per_card_and_a_printing_only_where_printings_disagree(home):
    html = home.post("/check", data={"decklist": KURGAN, "csrf_token": csrf(home)}).text
    assert "fact-printing" not in html  # SE and TIN Lower Center Block agree: one question, no printing asked
    for card_id, value in (("SE-lower-center-block", "3"), ("TIN-lower-center-block", "none")):
        home.post(f"/api/cards/{card_id}/facts", json={"by": "Bo", "values": {"restriction": value}})
    html = home.post("/check", data={"decklist": KURGAN, "csrf_token": csrf(home)}).text
    assert html.count('class="fact-printing"') == 1
    line = 1 + KURGAN.splitlines().index(next(t for t in KURGAN.splitlines() if "Lower Center Block" in t))
    assert f"its printings disagree: rewrite line {line} as" in html
    buttons = re.findall(r'<button type="submit" name="fix" value="(\d+)\|([^"]+)"[^>]*formaction="/check"', html)
    assert (str(line), "Lower Center Block [SE]") in buttons and (str(line), "Lower Center Block [TIN]") in buttons


def test_a_button_of_the_form_rewrites_the_line_to_name_its_printing_without_javascript(home):
    """Issue 32 item 2: where printings disagree the form offers a button per printing that rewrites the line, as the
    suggestion chips do (the checker's form posted to /check with `fix`), and the line is then decided."""
    for card_id, value in (("SE-lower-center-block", "3"), ("TIN-lower-center-block", "none")):
        home.post(f"/api/cards/{card_id}/facts", json={"by": "Bo", "values": {"restriction": value}})
    html = home.post("/check", data={"decklist": KURGAN, "csrf_token": csrf(home)}).text
    line, fix = next((n, s) for n, s in re.findall(r'name="fix" value="(\d+)\|([^"]+)"', html) if s.endswith("[SE]"))
    html = home.post("/check", data={"decklist": KURGAN, "csrf_token": csrf(home), "fix": f"{line}|{fix}"}).text
    found = re.search(r'<textarea[^>]*name="decklist"[^>]*>(.*?)</textarea>', html, re.S)
    assert found
    box = html_lib.unescape(found.group(1))
    old, new = KURGAN.splitlines(), box.lstrip("\n").splitlines()
    assert len(old) == len(new)
    assert [n for n, (a, b) in enumerate(zip(old, new, strict=True)) if a != b] == [int(line) - 1]
    assert new[int(line) - 1].rstrip().endswith("Lower Center Block [SE]") and "[SE]" not in old[int(line) - 1]
    assert "fact-printing" not in html and "its printings disagree" not in html  # that line is decided now
    report = home.post("/api/check", json={"decklist": box}).json()
    assert not any("Lower Center Block" in i["cards"] for i in report["issues"] if i["rule"] == "HL-DATA-UNKNOWN")


def textarea_of(html: str) -> str:
    found = re.search(r'<textarea[^>]*name="decklist"[^>]*>(.*?)</textarea>', html, re.S)
    assert found
    return html_lib.unescape(found.group(1)).lstrip("\n")


# Lower Center Block on three lines, one of them naming its set: the set-less two are the ones to rewrite
SPLIT = KURGAN.replace("3 Lower Center Block\n", "1 Lower Center Block\n1 Lower Center Block [SE]\n") + \
    "1 Lower Center Block\n"


def test_one_button_rewrites_every_set_less_line_of_the_card_and_the_card_is_decided(home):
    """Issue 32 item 2: where several lines must be rewritten to name a printing, one button per printing rewrites
    them all (`fix=L1,L2|Name [SET]`); a line that names its set already is left as written."""
    for card_id, value in (("SE-lower-center-block", "3"), ("TIN-lower-center-block", "none")):
        home.post(f"/api/cards/{card_id}/facts", json={"by": "Bo", "values": {"restriction": value}})
    rows = SPLIT.splitlines()
    setless = [str(n + 1) for n, t in enumerate(rows) if t == "1 Lower Center Block"]
    html = home.post("/check", data={"decklist": SPLIT, "csrf_token": csrf(home)}).text
    assert len(setless) == 2 and f"rewrite lines {setless[0]} and {setless[1]} as" in html
    buttons = re.findall(r'<button type="submit" name="fix" value="([\d,]+)\|([^"]+)"[^>]*formaction="/check"', html)
    assert (",".join(setless), "Lower Center Block [TIN]") in buttons
    assert (",".join(setless), "Lower Center Block [SE]") in buttons
    html = home.post("/check", data={"decklist": SPLIT, "csrf_token": csrf(home),
                                     "fix": f"{','.join(setless)}|Lower Center Block [TIN]"}).text
    new = textarea_of(html).splitlines()
    assert [n + 1 for n, (a, b) in enumerate(zip(rows, new, strict=True)) if a != b] == [int(n) for n in setless]
    assert {new[int(n) - 1] for n in setless} == {"1 Lower Center Block [TIN]"}
    assert "1 Lower Center Block [SE]" in new  # as the player wrote it
    assert "its printings disagree" not in html
    report = home.post("/api/check", json={"decklist": "\n".join(new)}).json()
    assert not any("Lower Center Block" in i["cards"] for i in report["issues"] if i["rule"] == "HL-DATA-UNKNOWN")


def test_a_fix_rewrites_at_most_100_lines_and_refuses_101_with_a_400(home):
    deck = "Format: type1e\n" + "1 Thrustt\n" * 101
    hundred = ",".join(str(n) for n in range(2, 102))
    html = home.post("/check", data={"decklist": deck, "csrf_token": csrf(home), "fix": f"{hundred}|Thrust"}).text
    assert textarea_of(html) == "Format: type1e\n" + "1 Thrust\n" * 100 + "1 Thrustt\n"
    r = home.post("/check", data={"decklist": deck + "1 Thrustt\n", "csrf_token": csrf(home),
                                  "fix": f"{hundred},102|Thrust"})
    assert r.status_code == 400 and "at most 100 lines" in r.text


def test_a_cards_form_asks_what_its_page_says_is_unknown_and_only_what_the_card_has(home):
    from deckcheck.web.cardface import form_fields
    persona = home.get("/cards/SE-duncan-macleod-persona/facts").text
    assert 'name="f0.grid"' not in persona and "tap the squares" not in persona  # a Persona has no grid
    assert 'name="f0.hand_icons"' in persona
    card = home.get("/cards/SE-amanda-back-away").text
    assert "Unique unknown" in card
    form = home.get("/cards/SE-amanda-back-away/facts").text
    asked = form[:form.index("Correct a stored value")] if "Correct a stored value" in form else form
    assert 'name="f0.unique"' in asked
    r = home.post("/cards/SE-amanda-back-away/facts", data={"csrf_token": csrf(home), "facts_by": "Ann",
                                                            "f0.id": "SE-amanda-back-away", "f0.unique": "no"})
    assert r.status_code == 200 and home.get("/api/cards/SE-amanda-back-away").json()["unique"] == "no"
    assert "Unique unknown" not in home.get("/cards/SE-amanda-back-away").text
    from deckcheck.cards import Card
    assert form_fields(Card(id="p", name="P", title="P", type="Persona", hand_icons=None, unique=None),
                       ["grid", "hand_icons", "unique"]) == (["hand_icons", "unique"], [])


# a `deckcheck` command named in a page's text: a web reader has no terminal of the server's to type it in
COMMAND = re.compile(r"deckcheck (check|cards|tournament|import|users|serve|diff|stats|deck|desk|game|format)s?\b")


def test_no_page_of_the_route_table_names_a_deckcheck_command(home):
    """Issue 32 item 4: every page that needs no id (the API page and /openapi.json too), and the check page of a
    line of an unknown set, name no command of the command line."""
    for path, methods in route_table(home):
        if "GET" in methods and "{" not in path:
            text = home.get(path).text  # the API page's real §3 answers too: their data-unknown `fix` names none
            found = COMMAND.search(text)
            assert not found, (path, text[max(0, found.start() - 200):found.end() + 80])
    html = home.post("/check", data={"decklist": "Format: type1e\n3 Thrust [QQQ]\n", "csrf_token": csrf(home)}).text
    assert "unknown set" in html and not COMMAND.search(html), COMMAND.search(html)
    # a game whose card list is not bundled: the page says where its card sheet goes; the JSON keeps the CLI's words
    unknown = "Format: raven\n3 Zorblax the Unheard\n"
    html = home.post("/check", data={"decklist": unknown, "csrf_token": csrf(home)}).text
    assert "card list is bundled: bring your card sheet (the Card sheet field of the check page" in html
    assert not COMMAND.search(html), COMMAND.search(html)
    assert "deckcheck cards import" in home.post("/api/check", json={"decklist": unknown}).json()["notices"][0]
