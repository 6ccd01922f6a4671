"""Deck checks as judges do them (issue 34 item 3), on SQLite and PostgreSQL: the counting sheet by type in
counting order, the cards typed by the judge read as decklist lines (quantities, misspellings with suggestions
that rewrite the line), and each difference a problem of the list or of the deck."""
from __future__ import annotations

import html
import re

from conftest import LEGAL, TYPO
from test_desk import auth, client, csrf, desk_app, new_event, submit  # noqa: F401 - fixtures
from test_desk_checks import closed_event, organiser_cookie

BLOW = "Connor MacLeod Power Blow"


def test_the_counting_sheet_goes_section_by_section_then_type_by_type(client):  # noqa: F811
    event = closed_event(client, "Anna")
    organiser_cookie(client, event)
    sheet = html.unescape(client.get(f"/desk/{event['id']}/admin/check", params={"player": "Anna"}).text)
    endurance = sheet[sheet.index("<h2>Endurance</h2>"):sheet.index("Cards not on the list")]
    kinds = re.findall(r'class="count-type" data-type="([^"]+)"', endurance)
    assert kinds[:2] == ["Attack", "Block"] and len(kinds) == len(set(kinds))
    assert "Situation" in kinds  # Clan Priest, Remembrance: after the attacks and the blocks
    attacks = endurance[:endurance.index('data-type="Block"')]
    assert "Thrust (2)" in attacks and "Upper Left Block" not in attacks
    assert re.search(r'data-type="Attack">Attack <small>30 registered</small>', endurance)
    names = re.findall(r'<option value="([^"]+)">', sheet)
    assert "Thrust (2)" in names and names == sorted(names) and 'list="list-names"' in sheet


def test_a_misspelt_typed_card_gets_suggestions_that_keep_its_quantity(client):  # noqa: F811
    event = closed_event(client, "Anna")
    organiser_cookie(client, event)
    url = f"/desk/{event['id']}/admin/check"
    form = {"csrf_token": csrf(client), "player": "Anna", "judge": "Ines", "extra_name_1": "2 Conor MacLeod Power Blow"}
    computed = client.post(url, data={**form, "action": "compute"})
    page = html.unescape(computed.text)
    assert computed.status_code == 200 and "unknown card; did you mean: Connor MacLeod Power Blow" in page
    assert f'name="fix" value="1|{BLOW}"' in page
    saved = client.post(url, data={**form, "action": "save"})  # a typo is not saved
    assert saved.status_code == 400 and "did you mean" in saved.text
    assert client.get(f"/api/events/{event['id']}/deckchecks", headers=auth(event)).json() == []
    fixed = html.unescape(client.post(url, data={**form, "fix": f"1|{BLOW}"}).text)
    assert f'name="extra_name_1" value="2 {BLOW}"' in fixed  # the line as written, its quantity kept
    assert f"{BLOW}: not registered, counted 2 — the deck does not match its list (deck problem)" in fixed
    counted = client.post(url, data={**form, "extra_name_1": f"{BLOW} x2", "action": "save"})
    assert counted.status_code == 200 and "1 difference from the registered list" in counted.text
    check = client.get(f"/api/events/{event['id']}/deckchecks", headers=auth(event)).json()[-1]
    assert check["differences"][0] | {"why": ""} == {"card": BLOW, "registered": 0, "counted": 2, "problem": "deck",
                                                       "why": ""}
    twice = client.post(url, data={**form, "extra_name_1": f"{BLOW} x2", "extra_count_1": "3", "action": "save"})
    assert twice.status_code == 400 and "twice" in twice.text


def test_the_differences_of_a_list_that_did_not_read_are_the_list_s(client):  # noqa: F811
    event = new_event(client)
    submit(client, event, "Anna", TYPO)
    submit(client, event, "Bob", LEGAL)
    assert client.post(f"/api/events/{event['id']}/close", headers=auth(event)).status_code == 200
    url = f"/api/events/{event['id']}/deckchecks"
    anna = client.post(url, headers=auth(event), json={"player": "Anna", "judge": "Ines",
                                                       "counts": {"Upper Left Attack (1)": 3}})
    assert anna.status_code == 201, anna.text
    problems = {d["card"]: d for d in anna.json()["differences"]}
    assert problems["Upper Left Attack (1)"]["problem"] == "list"
    assert "did not read" in problems["Upper Left Attack (1)"]["why"]
    assert all(d["problem"] == "list" for d in problems.values())
    bob = client.post(url, headers=auth(event), json={"player": "Bob", "judge": "Ines", "counts": {"Thrust (2)": 3}})
    assert bob.status_code == 201 and {d["problem"] for d in bob.json()["differences"]} == {"deck"}
    typo = client.post(url, headers=auth(event), json={"player": "Bob", "judge": "Ines", "counts": {"Thrustt": 1}})
    assert typo.status_code == 400 and "did you mean: Thrust" in typo.json()["error"]


def test_the_printout_groups_each_list_by_type_in_counting_order(client):  # noqa: F811
    event = closed_event(client, "Anna")
    organiser_cookie(client, event)
    printout = html.unescape(client.get(f"/desk/{event['id']}/admin/print").text)
    kinds = re.findall(r'<tr class="type" data-type="([^"]+)"><th class="q">(\d+)</th>', printout)
    order = [k for k, _ in kinds]
    assert order.index("Persona") < order.index("Attack") < order.index("Block") < order.index("Situation")
    assert ("Attack", "30") in kinds and ("Block", "18") in kinds
    assert printout.count("Endurance total") == 1  # a section's total still once
    endurance = printout[printout.index("<caption>Endurance</caption>"):printout.index("Endurance total")]
    assert endurance.index("Thrust (2)") < endurance.index('data-type="Block"') < endurance.index("Upper Left Block")


def test_saving_a_check_redirects_so_a_reload_records_nothing(client):  # noqa: F811
    event = closed_event(client, "Anna")
    organiser_cookie(client, event)
    url = f"/desk/{event['id']}/admin/check"
    r = client.post(url, data={"csrf_token": csrf(client), "player": "Anna", "judge": "Ines", "action": "save"},
                    follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith(f"/desk/{event['id']}/admin/checks/")
    for _ in range(2):  # the page as often as it is reloaded
        shown = client.get(r.headers["location"])
        assert shown.status_code == 200 and "Matches the registered list" in shown.text
    assert len(client.get(f"/api/events/{event['id']}/deckchecks", headers=auth(event)).json()) == 1
    assert client.get(f"/desk/{event['id']}/admin/checks/nope").status_code == 404
    other = closed_event(client, "Bob")
    assert client.get(r.headers["location"].replace(event["id"], other["id"])).status_code in (401, 404)
