"""Disputes of reported results (issue 34), on SQLite and PostgreSQL: a player disputes from their private link (a
result differing from the opponent's report is a dispute, not the later report winning), the organiser sees and
settles it from the API and the rounds page, the next round waits for that, and bad disputes change nothing."""
from __future__ import annotations

import html

import pytest

from test_desk import auth, client, csrf, desk_app, new_event, submit  # noqa: F401 - fixtures
from test_rounds import locked_event, start

FOUR = ["Anna", "Bob", "Carla", "Dan"]


def sides(rnd: dict, decks: dict) -> tuple[int, str, str]:
    """Table 1 of a round: its number and the deck ids of its first and second player."""
    table = rnd["pairings"][0]
    return table["table"], decks[table["a"]]["deck_id"], decks[table["b"]]["deck_id"]


def pairing(client, event, table: int) -> dict:  # noqa: F811
    rounds = client.get(f"/api/events/{event['id']}/rounds", headers=auth(event)).json()
    return next(p for p in rounds[-1]["pairings"] if p["table"] == table)


def test_a_differing_report_is_a_dispute_the_organiser_settles(client):  # noqa: F811
    event, decks = locked_event(client, FOUR)
    rnd = start(client, event, seed="s")
    table, a_deck, b_deck = sides(rnd, decks)
    token = csrf(client)
    r = client.post(f"/desk/{event['id']}/decks/{a_deck}/result",
                    data={"csrf_token": token, "mine": "2", "theirs": "0"}, follow_redirects=False)
    assert r.status_code == 303 and "reported=1" in r.headers["location"]
    r = client.post(f"/desk/{event['id']}/decks/{b_deck}/result",
                    data={"csrf_token": token, "mine": "2", "theirs": "1"}, follow_redirects=False)
    assert r.status_code == 303 and "disputed=1" in r.headers["location"]  # not the later report winning
    assert (pairing(client, event, table)["a_wins"], pairing(client, event, table)["b_wins"]) == (2, 0)
    page = html.unescape(client.get(r.headers["location"]).text)
    assert 'id="result-disputed"' in page and "you claim 2-1 (your games first)" in page
    disputes = client.get(f"/api/events/{event['id']}/disputes", headers=auth(event)).json()
    assert len(disputes) == 1 and disputes[0]["status"] == "open" and disputes[0]["by"] == rnd["pairings"][0]["b"]
    assert disputes[0]["claimed"] == {"a_wins": 1, "b_wins": 2, "draws": 0}  # from the table's first player's side
    assert disputes[0]["reported"]["a_wins"] == 2 and disputes[0]["reported"]["reported_by"] == rnd["pairings"][0]["a"]
    for p in rnd["pairings"][1:]:
        client.post(f"/api/events/{event['id']}/rounds/1/results", headers=auth(event),
                    json={"table": p["table"], "a_wins": 2, "b_wins": 0})
    waits = client.post(f"/api/events/{event['id']}/rounds", headers=auth(event), json={})
    assert waits.status_code == 409 and "disputed: settle it first" in waits.json()["error"]
    assert client.get(event["dashboard_url"].replace("http://testserver", "")).status_code == 200
    rounds_page = html.unescape(client.get(f"/desk/{event['id']}/admin/rounds").text)
    assert 'id="disputes"' in rounds_page and "claims 1-2" in rounds_page and "Make it 1-2" in rounds_page
    public = client.get(f"/desk/{event['id']}/pairings").text
    assert "disputed" in public and 'id="disputes"' not in public  # the public page marks it, no more
    r = client.post(f"/desk/{event['id']}/admin/disputes/{disputes[0]['id']}",
                    data={"csrf_token": token, "decision": "claim"}, follow_redirects=False)
    assert r.status_code == 303 and "dispute settled" in html.unescape(client.get(r.headers["location"]).text)
    settled = pairing(client, event, table)
    assert (settled["a_wins"], settled["b_wins"], settled["reported_by"]) == (1, 2, "the organiser")
    again = client.post(f"/api/events/{event['id']}/disputes/{disputes[0]['id']}", headers=auth(event),
                        json={"decision": "reported"})
    assert again.status_code == 409 and "settled already" in again.json()["error"]
    assert client.get(f"/api/events/{event['id']}/disputes", headers=auth(event)).json()[0]["decision"] == "claim"
    assert start(client, event)["round"] == 2


def test_a_dispute_of_the_organiser_s_result_and_its_settling_by_a_new_result(client):  # noqa: F811
    event, decks = locked_event(client, FOUR)
    rnd = start(client, event, seed="s")
    table, a_deck, _b = sides(rnd, decks)
    results = f"/api/events/{event['id']}/rounds/1/results"
    url = f"/api/events/{event['id']}/decks/{a_deck}/dispute"
    early = client.post(url, json={"mine": 2, "theirs": 0})
    assert early.status_code == 409 and "report it instead" in early.json()["error"]
    assert client.post(results, headers=auth(event), json={"table": table, "a_wins": 0, "b_wins": 2}).status_code == 200
    same = client.post(url, json={"mine": 0, "theirs": 2})
    assert same.status_code == 400 and "nothing to dispute" in same.json()["error"]
    first = client.post(url, json={"mine": 2, "theirs": 0, "note": "I won both"})
    assert first.status_code == 201 and first.json()["note"] == "I won both"
    second = client.post(url, json={"mine": 2, "theirs": 1})  # the same player's open dispute replaced
    assert second.status_code == 201 and second.json()["id"] == first.json()["id"]
    assert second.json()["claimed"] == {"a_wins": 2, "b_wins": 1, "draws": 0}
    assert client.post(results, headers=auth(event), json={"table": table, "a_wins": 2, "b_wins": 1}).status_code == 200
    held = client.get(f"/api/events/{event['id']}/disputes", headers=auth(event)).json()
    assert [(d["status"], d["decision"], d["result"]) for d in held] == \
        [("settled", "result", {"a_wins": 2, "b_wins": 1, "draws": 0})]


@pytest.mark.parametrize("body, status, words", [
    ({"mine": 2, "theirs": "x"}, 400, "whole number"), ({"mine": 0, "theirs": 0}, 400, "at least one game"),
    ({"mine": 2, "theirs": 0, "note": "n" * 501}, 400, "at most 500"), ({"mine": 2, "theirs": 0, "note": 3}, 400,
                                                                        "note must be text"),
    ({"mine": True, "theirs": 0}, 400, "whole number")])
def test_bad_disputes_change_nothing(client, body, status, words):  # noqa: F811
    event, decks = locked_event(client, FOUR)
    rnd = start(client, event, seed="s")
    table, a_deck, _b = sides(rnd, decks)
    client.post(f"/api/events/{event['id']}/rounds/1/results", headers=auth(event),
                json={"table": table, "a_wins": 0, "b_wins": 2})
    r = client.post(f"/api/events/{event['id']}/decks/{a_deck}/dispute", json=body)
    assert r.status_code == status and words in r.json()["error"], r.text
    ok = client.post(f"/api/events/{event['id']}/decks/{a_deck}/dispute", json={"mine": 2, "theirs": 0,
                                                                                "note": "n" * 500})
    assert ok.status_code == 201  # the note's limit itself is taken
    assert client.post(f"/api/events/{event['id']}/disputes/{ok.json()['id']}", headers=auth(event),
                       json={"decision": "mine"}).status_code == 400
    assert client.post(f"/api/events/{event['id']}/disputes/nope", headers=auth(event),
                       json={"decision": "claim"}).status_code == 404
    assert client.post(f"/api/events/{event['id']}/disputes/{ok.json()['id']}",
                       json={"decision": "claim"}).status_code == 401
    nobody = client.post(f"/api/events/{event['id']}/decks/nope/dispute", json={"mine": 2, "theirs": 0})
    assert nobody.status_code == 404
    assert len(client.get(f"/api/events/{event['id']}/disputes", headers=auth(event)).json()) == 1
