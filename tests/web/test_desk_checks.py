"""Issue 23 over HTTP, on SQLite and PostgreSQL: names that hold, times in the event's zone, file names as the
source, lists locked at the deadline, the player's history, deck checks (JSON and the counting sheet without
JavaScript), the draw, the printout, and every new form and endpoint refusing bad input with nothing changed."""
from __future__ import annotations

import datetime as dt
import io
import re

import pytest

from conftest import ILLEGAL, LEGAL, TYPO
from test_desk import auth, client, csrf, desk_app, new_event, submit  # noqa: F401 - fixtures

THRUST = "Thrust (2)"


def closed_event(client, *players: str, **extra) -> dict:  # noqa: F811
    event = new_event(client, **extra)
    for player in players:
        submit(client, event, player, LEGAL)
    assert client.post(f"/api/events/{event['id']}/close", headers=auth(event)).status_code == 200
    return event


def organiser_cookie(client, event: dict) -> None:  # noqa: F811
    assert client.get(event["dashboard_url"].replace("http://testserver", "")).status_code == 200


def test_display_name_is_the_expected_spelling_else_the_first(client):  # noqa: F811
    event = new_event(client, expected=["Carla Díaz"])
    carla = submit(client, event, "carla díaz", ILLEGAL)
    later = submit(client, event, "CARLA DÍAZ", LEGAL, replaces=carla)
    bob = submit(client, event, "Bob", ILLEGAL)
    submit(client, event, "bob", LEGAL, replaces=bob)
    assert later["player"] == "Carla Díaz"
    decks = client.get(f"/api/events/{event['id']}/decks", headers=auth(event)).json()
    assert [d["player"] for d in decks] == ["Carla Díaz", "Bob"]
    report = client.get(f"/api/events/{event['id']}/report.json", headers=auth(event)).json()
    assert [d["player"] for d in report] == ["Carla Díaz", "Bob"]
    csv_text = client.get(f"/api/events/{event['id']}/report.csv", headers=auth(event)).content.decode("utf-8-sig")
    assert "bob" not in csv_text and "CARLA" not in csv_text
    organiser_cookie(client, event)
    page = client.get(f"/desk/{event['id']}/admin/decks/{later['deck_id']}").text
    assert "sent as <bdi>CARLA DÍAZ</bdi>" in page  # the later spelling is recorded, not shown as the name
    printout = client.get(f"/desk/{event['id']}/admin/print").text
    assert 'data-player="Carla Díaz"' in printout and "CARLA" not in printout


def test_times_in_the_event_zone_sources_and_counts(client):  # noqa: F811
    event = new_event(client, deadline="2030-05-01T09:30:00-04:00")
    r = client.post(f"/api/events/{event['id']}/decks", data={"player": "Anna"},
                    files={"file": ("anna deck.txt", LEGAL.encode())})
    assert r.status_code == 201 and r.json()["source"] == "anna deck.txt"
    second = submit(client, event, "Anna", LEGAL, replaces=r.json())
    assert second["source"] == "pasted" and second["submissions"] == 2
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d-04:00", second["submitted_at"])
    assert second["fingerprint"] == r.json()["fingerprint"]  # the same list cleaned: the same fingerprint
    other = submit(client, event, "Bob", ILLEGAL)
    assert other["fingerprint"] != second["fingerprint"] and re.fullmatch(r"[0-9a-f]{8}", other["fingerprint"])
    organiser_cookie(client, event)
    printout = client.get(f"/desk/{event['id']}/admin/print").text
    local = dt.datetime.fromisoformat(second["submitted_at"]).strftime("%Y-%m-%d %H:%M")
    assert f"{local} (UTC-04:00)" in printout and " UTC</" not in printout
    assert "# Connor MacLeod (Persona" not in printout  # the cleaned list, not the paste
    assert "Pre-Game total" in printout and "Endurance total" in printout and 'class="tick"' in printout
    raw = client.get(f"/desk/{event['id']}/admin/print", params={"raw": 1}).text
    assert "# Connor MacLeod (Persona" in raw  # the paste only on request
    dashboard = client.get(f"/desk/{event['id']}/admin").text
    assert "2030-05-01 09:30 (UTC-04:00)" in dashboard
    rows = client.get(f"/api/events/{event['id']}/report.csv", headers=auth(event)).content.decode("utf-8-sig")
    header, anna = rows.splitlines()[:2]
    fields = dict(zip(header.split(","), anna.split(","), strict=True))
    assert (fields["source"], fields["submissions"], fields["submitted_at"], fields["fingerprint"]) == \
        ("pasted", "2", second["submitted_at"], second["fingerprint"])


def test_what_changed_after_an_unreadable_deck_and_the_way_back(client):  # noqa: F811
    event = new_event(client)
    typo = submit(client, event, "Anna", TYPO)
    fixed = submit(client, event, "Anna", LEGAL, replaces=typo)
    organiser_cookie(client, event)
    for a, b in ((typo, fixed), (fixed, typo)):
        page = client.get(f"/desk/{event['id']}/admin/diff", params={"a": a["deck_id"], "b": b["deck_id"]})
        assert page.status_code == 200 and "input error" not in page.text and "What changed for Anna" in page.text
    missing = client.get(f"/desk/{event['id']}/admin/diff", params={"a": typo["deck_id"], "b": "nope"})
    assert missing.status_code == 404 and f'href="/desk/{event["id"]}/admin"' in missing.text
    assert "Back to the dashboard" in missing.text


def test_the_lock_and_the_players_history(client):  # noqa: F811
    event = new_event(client)
    first = submit(client, event, "Anna", TYPO)
    second = submit(client, event, "Anna", LEGAL, replaces=first)
    page = client.get(f"/desk/{event['id']}/decks/{first['deck_id']}").text
    assert page.count('<li>') >= 2 and "counts</strong>" in page.split('id="desk-history"')[1]
    assert client.post(f"/api/events/{event['id']}/close", headers=auth(event)).status_code == 200
    before = client.get(f"/api/events/{event['id']}/decks", headers=auth(event)).json()
    assert submit(client, event, "Anna", ILLEGAL, status=409)["error"].startswith("the event is closed")
    assert submit(client, event, "Zed", ILLEGAL, status=409)
    form = client.post(f"/desk/{event['id']}", data={"player": "anna", "decklist": ILLEGAL,
                                                      "csrf_token": csrf(client), "replaces": first["deck_id"]})
    assert form.status_code == 409 and second["fingerprint"] in form.text and "deck 2" in form.text
    by_name = client.post(f"/desk/{event['id']}", data={"player": "anna", "decklist": ILLEGAL,
                                                         "csrf_token": csrf(client)})
    assert by_name.status_code == 409 and second["fingerprint"] not in by_name.text  # a name tells nothing
    assert client.get(f"/api/events/{event['id']}/decks", headers=auth(event)).json() == before
    mine = client.get(f"/desk/{event['id']}/decks/{second['deck_id']}").text
    assert 'id="desk-locked"' in mine and second["fingerprint"] in mine and "locked: counts" in mine
    older = client.get(f"/desk/{event['id']}/decks/{first['deck_id']}").text
    assert 'id="desk-locked"' not in older and "a later deck of yours counts" in older


def counts_of(cleaned: str) -> dict[str, int]:
    """{card: copies} of a cleaned list's text ("Endurance:" headings, "N Card" lines)."""
    found = (line.split(" ", 1) for line in cleaned.splitlines() if line[:1].isdigit())
    return {name: int(n) for n, name in found}


def test_deck_check_api(client):  # noqa: F811
    event = new_event(client)
    sent = submit(client, event, "Anna", LEGAL)
    url = f"/api/events/{event['id']}/deckchecks"
    counts = counts_of(sent["cleaned"]) | {THRUST: 3, "Connor MacLeod Power Blow": 1}
    assert len(counts) == 22
    body = {"player": "anna", "judge": "Ines", "counts": counts, "note": "x"}
    assert client.post(url, json=body, headers=auth(event)).status_code == 409  # not locked yet
    client.post(f"/api/events/{event['id']}/close", headers=auth(event))
    assert client.post(url, json=body).status_code == 401
    assert client.post(url, json=body, headers={"Authorization": "Bearer nope"}).status_code == 403
    r = client.post(url, json=body, headers=auth(event))
    assert r.status_code == 201, r.text
    check = r.json()
    assert set(check) >= {"id", "player", "judge", "at", "matches", "differences", "totals"}
    assert check["player"] == "Anna" and check["matches"] is False
    # the list is legal: each difference is the deck's (a deck problem), said with why
    assert [{k: d[k] for k in ("card", "registered", "counted", "problem")} for d in check["differences"]] == \
        [{"card": THRUST, "registered": 4, "counted": 3, "problem": "deck"},
         {"card": "Connor MacLeod Power Blow", "registered": 0, "counted": 1, "problem": "deck"}]
    assert all("fix the deck" in d["why"] for d in check["differences"])
    assert check["totals"] == {"Pre-Game": {"registered": 2, "counted": 2},
                               "Endurance": {"registered": 51, "counted": 51}}
    deck_problem = " — the deck does not match its list (deck problem)"
    assert check["lines"][0] == f"{THRUST}: registered 4, counted 3" + deck_problem
    assert check["lines"][1] == "Connor MacLeod Power Blow: not registered, counted 1" + deck_problem
    registered = client.get(f"/api/events/{event['id']}/decks", headers=auth(event)).json()[0]
    full = {line: n for line, n in (("Connor MacLeod Persona", 1),)}
    good = client.post(url, json={"player": "Anna", "judge": "Ines", "counts": {**full}}, headers=auth(event))
    assert good.status_code == 201 and good.json()["matches"] is False  # the cards not named count 0
    assert any("Endurance 0 counted, 51 registered" == line for line in good.json()["lines"])
    listed = client.get(url, headers=auth(event))
    assert listed.status_code == 200 and [c["id"] for c in listed.json()] == [check["id"], good.json()["id"]]
    assert client.get(url).status_code == 401
    report = client.get(f"/api/events/{event['id']}/report.json", headers=auth(event)).json()
    assert [c["id"] for c in report[0]["deckchecks"]] == [check["id"], good.json()["id"]]
    assert report[0]["fingerprint"] == registered["fingerprint"] == check["fingerprint"]
    xlsx = client.get(f"/api/events/{event['id']}/report.xlsx", headers=auth(event)).content
    from python_calamine import CalamineWorkbook
    rows = CalamineWorkbook.from_filelike(io.BytesIO(xlsx)).get_sheet_by_name("Deck checks").to_python()
    assert rows[0] == ["player", "judge", "at", "fingerprint", "matches", "differences", "note"]
    assert [r[:2] + [r[4]] for r in rows[1:]] == [["Anna", "Ines", "no"], ["Anna", "Ines", "no"]]


@pytest.mark.parametrize("body, status, message", [
    ({"player": "Anna", "judge": "J", "counts": {THRUST: -1}}, 400, "counts run from 0"),
    ({"player": "Anna", "judge": "J", "counts": {THRUST: 1000}}, 400, "counts run from 0"),
    ({"player": "Anna", "judge": "J", "counts": {THRUST: "three"}}, 400, "not a whole number"),
    ({"player": "Anna", "judge": "J", "counts": {THRUST: 2.5}}, 400, "whole number"),
    ({"player": "Anna", "judge": "J", "counts": {THRUST: True}}, 400, "whole number"),
    ({"player": "Anna", "judge": "J", "counts": {"Uper Left Atack": 1}}, 400, "Uper Left Atack"),
    ({"player": "Anna", "judge": "J", "counts": [[THRUST, 3]]}, 400, "counts must be an object"),
    ({"player": "Anna", "judge": "J", "counts": "4 Thrust"}, 400, "counts must be an object"),
    ({"player": "Anna", "judge": "", "counts": {}}, 400, "judge's name is empty"),
    ({"player": "Anna", "judge": ["J"], "counts": {}}, 400, "must be text"),
    ({"player": "Anna", "judge": "J", "counts": {}, "note": 5}, 400, "note must be text"),
    ({"player": "Anna", "judge": "J", "counts": {}, "note": "n" * 2001}, 400, "at most 2000"),
    ({"player": "Nobody", "judge": "J", "counts": {}}, 404, "no deck from 'Nobody'"),
    ({"player": None, "judge": "J", "counts": {}}, 400, "player name is empty"),
    ({"player": "Anna", "judge": "J", "counts": {"": 1}}, 400, "card name is empty"),
])
def test_deck_check_bad_input_changes_nothing(client, body, status, message):  # noqa: F811
    event = closed_event(client, "Anna")
    url = f"/api/events/{event['id']}/deckchecks"
    r = client.post(url, json=body, headers=auth(event))
    assert r.status_code == status and message in r.json()["error"], r.text
    assert "\n" not in r.json()["error"]
    assert client.get(url, headers=auth(event)).json() == []


@pytest.mark.parametrize("raw, kind", [(b"{", "application/json"), (b"[1]", "application/json"),
                                       (b"x=1", "application/x-www-form-urlencoded")])
def test_deck_check_and_draw_refuse_bodies_that_are_not_objects(client, raw, kind):  # noqa: F811
    event = closed_event(client, "Anna")
    for path in ("deckchecks", "draw"):
        r = client.post(f"/api/events/{event['id']}/{path}", content=raw,
                        headers=auth(event) | {"content-type": kind})
        assert r.status_code == 400 and r.json()["error"], (path, r.text)
    assert client.get(f"/api/events/{event['id']}/deckchecks", headers=auth(event)).json() == []


def test_draw_is_seeded_and_skips_the_checked(client):  # noqa: F811
    players = ["Anna", "Bob", "Carl", "Dora", "Eve", "Finn"]
    event = closed_event(client, *players)
    url = f"/api/events/{event['id']}/draw"
    assert client.post(url, json={"n": 2}).status_code == 401
    one = client.post(url, json={"n": 3, "seed": "round 2"}, headers=auth(event)).json()
    two = client.post(url, json={"n": 3, "seed": "round 2"}, headers=auth(event)).json()
    assert one == two and one["seed"] == "round 2" and len(set(one["players"])) == 3
    assert set(one["players"]) <= set(players)
    unseeded = client.post(url, json={"n": 2}, headers=auth(event)).json()
    assert re.fullmatch(r"[0-9a-f]{8}", unseeded["seed"])
    client.post(f"/api/events/{event['id']}/deckchecks", headers=auth(event),
                json={"player": one["players"][0], "judge": "J", "counts": {}})
    after = client.post(url, json={"n": 10, "seed": "x"}, headers=auth(event)).json()
    assert sorted(after["players"]) == sorted(set(players) - {one["players"][0]})
    for bad in ({"n": 0}, {"n": -1}, {"n": "two"}, {"n": 1001}, {"n": True}, {}, {"n": 2, "seed": 5},
                {"n": 2, "seed": "s" * 65}, {"n": 2, "seed": "a\nb"}):
        r = client.post(url, json=bad, headers=auth(event))
        assert r.status_code == 400 and "\n" not in r.json()["error"], (bad, r.text)


def test_counting_sheet_without_javascript(client):  # noqa: F811
    event = closed_event(client, "Anna")
    organiser_cookie(client, event)
    sheet = client.get(f"/desk/{event['id']}/admin/check", params={"player": "anna"})
    assert sheet.status_code == 200 and f'name="count:{THRUST}" value="4"' in sheet.text
    token = csrf(client)
    form = {"csrf_token": token, "player": "Anna", f"count:{THRUST}": "4", "step": f"{THRUST}|-1"}
    stepped = client.post(f"/desk/{event['id']}/admin/check", data=form)
    assert stepped.status_code == 200 and f'name="count:{THRUST}" value="3"' in stepped.text
    assert f"{THRUST}: registered 4, counted 3" in stepped.text
    assert client.get(f"/api/events/{event['id']}/deckchecks", headers=auth(event)).json() == []  # not saved
    bad = client.post(f"/desk/{event['id']}/admin/check", data={**form, "step": "", "action": "save",
                                                                 f"count:{THRUST}": "-2", "judge": "Ines"})
    assert bad.status_code == 400 and "not a whole number" in bad.text and 'value="-2"' in bad.text
    nameless = client.post(f"/desk/{event['id']}/admin/check", data={**form, "step": "", "action": "save",
                                                                      "judge": "Ines", "extra_count_1": "2"})
    assert nameless.status_code == 400 and "has no card name" in nameless.text
    no_csrf = client.post(f"/desk/{event['id']}/admin/check", data={**form, "csrf_token": "x", "action": "save"})
    assert no_csrf.status_code == 403
    assert client.get(f"/api/events/{event['id']}/deckchecks", headers=auth(event)).json() == []
    saved = client.post(f"/desk/{event['id']}/admin/check", data={**form, "step": "", "action": "save",
                                                                   f"count:{THRUST}": "3", "judge": "Ines",
                                                                   "note": "sleeve"})
    assert saved.status_code == 200 and "1 difference" in saved.text  # after the redirect
    dashboard = client.get(f"/desk/{event['id']}/admin").text
    assert 'class="check-differs"' in dashboard and 'id="checks-done">1 deck check, 1 with differences' in dashboard
    drawn = client.post(f"/desk/{event['id']}/admin/draw", data={"csrf_token": token, "n": "1", "seed": "s"})
    assert drawn.status_code == 200 and "Every player has been checked" in drawn.text
    assert client.post(f"/desk/{event['id']}/admin/draw", data={"csrf_token": token, "n": "x"}).status_code == 400
    open_event = new_event(client)
    submit(client, open_event, "Anna", LEGAL)
    organiser_cookie(client, open_event)
    early = client.get(f"/desk/{open_event['id']}/admin/check", params={"player": "Anna"})
    assert early.status_code == 409 and "not locked yet" in early.text


def test_an_older_database_gets_the_time_zone_column(tmp_path):
    """A desk database of an earlier deckcheck (no tz_offset column) is brought up to date on first use."""
    from sqlalchemy import text

    from deckcheck.library.desk import Desk
    url = f"sqlite:///{tmp_path / 'old.db'}"
    old = Desk(url)
    event, _ = old.create_event("Old", "type1e")
    with old.store.engine.begin() as con:
        con.execute(text("alter table desk_event drop column tz_offset"))
        con.execute(text("delete from deckcheck_meta where key = 'schema_version'"))  # from before versions
    old.store.dispose()
    new = Desk(url)
    assert new.event(event.id).tz_offset == 0
    made, _ = new.create_event("New", "type1e", tz_offset=60)
    assert new.event(made.id).zone_name == "UTC+01:00"


def test_any_json_body_to_deck_checks_and_the_draw_is_a_2xx_or_4xx(client):  # noqa: F811
    """Strangers' bodies of any shape: never a 500; a refused deck check stores nothing."""
    import json

    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st
    event = closed_event(client, "Anna")
    scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
                        st.text(max_size=20))
    values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                           st.dictionaries(st.text(max_size=12), inner, max_size=3)),
                          max_leaves=8)
    names = st.one_of(st.sampled_from([THRUST, "Connor MacLeod Persona", "thrust (2)", "Dodge", ""]),
                      st.text(max_size=20))
    checks = st.one_of(values, st.fixed_dictionaries({
        "player": st.one_of(st.just("Anna"), values), "judge": st.one_of(st.just("Ines"), values),
        "counts": st.one_of(st.dictionaries(names, st.one_of(st.integers(-5, 1005), values), max_size=4), values),
        "note": st.one_of(st.just(""), values)}))
    draws = st.one_of(values, st.fixed_dictionaries({"n": st.one_of(st.integers(-3, 1003), values),
                                                     "seed": st.one_of(st.none(), values)}))
    stored = {"n": 0}

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(check=checks, draw=draws)
    def run(check, draw):
        r = client.post(f"/api/events/{event['id']}/deckchecks", content=json.dumps(check).encode(),
                        headers=auth(event) | {"content-type": "application/json"})
        assert r.status_code in (201, 400, 404), r.text
        stored["n"] += r.status_code == 201
        assert len(client.get(f"/api/events/{event['id']}/deckchecks", headers=auth(event)).json()) == stored["n"]
        d = client.post(f"/api/events/{event['id']}/draw", content=json.dumps(draw).encode(),
                        headers=auth(event) | {"content-type": "application/json"})
        assert d.status_code in (200, 400), d.text
    run()


def test_the_live_table_brings_the_draw_form_once_the_lists_lock(client):  # noqa: F811
    """The dashboard's table updates itself, sending the state the page shows: once the event has moved on (the
    deadline passed, or closed from another screen or the API), its answer swaps in the organiser's actions for the
    new state (hx-swap-oob) — the draw form — once, so that what the organiser types there is never replaced."""
    event = new_event(client)
    submit(client, event, "Anna", LEGAL)
    organiser_cookie(client, event)
    table = f"/desk/{event['id']}/admin/table"
    page = client.get(f"/desk/{event['id']}/admin").text
    assert 'name="shown" value="open"' in page and 'id="draw-form"' not in page
    assert "hx-swap-oob" not in client.get(table, params={"shown": "open"}).text  # nothing moved
    assert client.post(f"/api/events/{event['id']}/close", headers=auth(event)).status_code == 200
    moved = client.get(table, params={"shown": "open"}).text
    swapped = moved[moved.index('<div id="desk-lock" hx-swap-oob="true">'):]
    assert 'id="draw-form"' in swapped and "The lists are locked (event closed)" in swapped
    assert 'name="shown" value="closed"' in swapped and "Close the event" not in swapped
    assert re.search(r'name="csrf_token" value="[^"]+"', swapped)  # the form can be sent as it came
    for shown in ("closed", ""):  # up to date, or a caller that does not say: the table alone
        assert "hx-swap-oob" not in client.get(table, params={"shown": shown}).text
    for shown in ("x" * 5000, "<script>"):  # anything else: the actions of the state it is in, never echoed
        r = client.get(table, params={"shown": shown})
        assert r.status_code == 200 and 'id="draw-form"' in r.text and "<script>" not in r.text
    page = client.get(f"/desk/{event['id']}/admin").text  # without JavaScript: a reload shows it
    assert 'id="draw-form"' in page and "hx-swap-oob" not in page and "reload it" in page


def test_expected_names_match_folding_case_accents_and_spaces(client):  # noqa: F811
    """'bjorn  svensson' typed on a phone is the expected Björn Svensson: not missing, shown with the expected
    spelling on the dashboard, the reports and the printout, and found by either spelling for a deck check."""
    event = new_event(client, expected=["Björn Svensson", "Zoë Ng"])
    sent = submit(client, event, "bjorn  SVENSSON", LEGAL)
    assert sent["player"] == "Björn Svensson"
    organiser_cookie(client, event)
    dashboard = client.get(f"/desk/{event['id']}/admin").text
    assert "Missing" in dashboard and "Zoë Ng" in dashboard
    missing = dashboard[dashboard.index("Missing"):][:300]
    assert "Björn" not in missing
    report = client.get(f"/api/events/{event['id']}/report.json", headers=auth(event)).json()
    assert [d["player"] for d in report] == ["Björn Svensson"]
    assert 'data-player="Björn Svensson"' in client.get(f"/desk/{event['id']}/admin/print").text
    assert client.post(f"/api/events/{event['id']}/close", headers=auth(event)).status_code == 200
    for name in ("Björn Svensson", "bjorn svensson"):
        check = client.post(f"/api/events/{event['id']}/deckchecks", headers=auth(event),
                            json={"player": name, "judge": "J", "counts": {}})
        assert check.status_code == 201 and check.json()["player"] == "Björn Svensson"
    drawn = client.post(f"/api/events/{event['id']}/draw", headers=auth(event), json={"n": 5}).json()
    assert drawn["players"] == []  # checked under the entry, whichever spelling the judge typed


def test_a_deck_with_unreadable_lines_gets_a_provisional_verdict_apart(client):  # noqa: F811
    """One bad line leaves the deck unreadable (no verdict), but the organiser and the player see what the lines
    that read would give: an illegal deck with a typo apart from a legal deck with a typo."""
    from deckcheck.library.desk import provisional_text
    event = new_event(client)
    bad = submit(client, event, "Kurgan", ILLEGAL + "\n3 Uper Left Atack\n")
    typo = submit(client, event, "Carl", LEGAL + "\n1 Uper Left Atack\n")
    assert bad["legal"] is None and typo["legal"] is None and "provisional" not in bad  # §3 as it was
    organiser_cookie(client, event)
    table = client.get(f"/desk/{event['id']}/admin").text.replace("\u2014", "-")
    errors = re.search(r"NOT CHECKED - and (\d+) errors? in the lines that read", table)
    assert errors is not None and int(errors.group(1)) >= 1
    assert "NOT CHECKED - the lines that read break no rule" in table
    mine = client.get(f"/desk/{event['id']}/decks/{bad['deck_id']}").text
    assert 'id="desk-provisional"' in mine and "This is not a verdict" in mine
    legal = submit(client, event, "Anna", LEGAL)
    assert 'id="desk-provisional"' not in client.get(f"/desk/{event['id']}/decks/{legal['deck_id']}").text
    assert provisional_text("not json") == provisional_text(None) == ""


def test_a_deck_check_counts_its_differences_once_and_says_the_counted_deck_s_verdict(client):  # noqa: F811
    """Four lines off: the sheet before saving and the saved check both say 4 differences (the section totals are
    listed, not counted again); the deck as counted gets its own verdict; the time is in words."""
    event = closed_event(client, "Anna")
    organiser_cookie(client, event)
    sheet = client.get(f"/desk/{event['id']}/admin/check", params={"player": "Anna"}).text
    cards = re.findall(r'name="count:([^"]+)" value="(\d+)"', html_unescape(sheet))[:4]
    form = {"csrf_token": csrf(client), "player": "Anna", "judge": "Ines",
            **{f"count:{card}": str(int(n) + 1) for card, n in cards}}
    computed = client.post(f"/desk/{event['id']}/admin/check", data={**form, "action": "compute"}).text
    assert "4 differences:" in computed and "counted, " in computed  # a section total line, not counted
    saved = client.post(f"/desk/{event['id']}/admin/check", data={**form, "action": "save"})
    assert saved.status_code == 200 and "4 differences from the registered list" in saved.text
    check = client.get(f"/api/events/{event['id']}/deckchecks", headers=auth(event)).json()[-1]
    assert check["as_counted"]["verdict"] == "NOT LEGAL" and check["as_counted"]["rules"]
    assert f"As counted: NOT LEGAL — {check['as_counted']['rules'][0]}" in html_unescape(saved.text)
    moment = dt.datetime.fromisoformat(check["at"])
    assert f"{moment:%A} {moment.day} {moment:%B %Y} at {moment:%H:%M} (UTC)" in saved.text


def html_unescape(text: str) -> str:
    import html
    return html.unescape(text)


def test_the_printout_carries_the_recorded_deck_check_and_one_total_per_section(client):  # noqa: F811
    event = closed_event(client, "Anna", "Bob")
    r = client.post(f"/api/events/{event['id']}/deckchecks", headers=auth(event),
                    json={"player": "anna", "judge": "Ines", "counts": {THRUST: 3}, "note": "sleeves"})
    assert r.status_code == 201
    organiser_cookie(client, event)
    printout = html_unescape(client.get(f"/desk/{event['id']}/admin/print").text)
    anna, bob = printout.split('data-player="Bob"')
    assert "Deck check</strong> by <bdi>Ines</bdi>" in anna and "Note: sleeves" in anna
    assert f"{THRUST}: registered 4, counted 3" in anna
    assert "Matches: yes / no" not in anna and "Matches: yes / no" in bob  # a blank line only where none is kept
    assert "<tfoot>" not in printout and printout.count("Endurance total") == 2
