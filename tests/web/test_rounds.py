"""Rounds and standings over HTTP (CONTRACTS §6, revision 4), on SQLite and PostgreSQL: the API's shapes, a round
that waits for the last one's results, drops, byes, results from a player's phone and from the organiser, exports,
the pages (POST-redirect-GET), and two servers on one database starting the same round at once."""
from __future__ import annotations

import io
import json
import re
import threading

import openpyxl

from conftest import LEGAL
from test_desk import auth, client, csrf, desk_app, new_event, submit  # noqa: F401 - fixtures

PLAYERS = ["Anna", "Bob", "Carla", "Dan", "Eve"]


def locked_event(client, players=PLAYERS) -> tuple[dict, dict[str, dict]]:  # noqa: F811
    event = new_event(client)
    decks = {p: submit(client, event, p, LEGAL) for p in players}
    assert client.post(f"/api/events/{event['id']}/close", headers=auth(event)).status_code == 200
    return event, decks


def start(client, event, status=201, **body):  # noqa: F811
    r = client.post(f"/api/events/{event['id']}/rounds", headers=auth(event), json=body)
    assert r.status_code == status, r.text
    return r.json()


def report_all(client, event, rnd):  # noqa: F811
    for p in rnd["pairings"]:
        if p["b"] is not None:
            r = client.post(f"/api/events/{event['id']}/rounds/{rnd['round']}/results", headers=auth(event),
                            json={"table": p["table"], "a_wins": 2, "b_wins": 1, "draws": 0})
            assert r.status_code == 200, r.text


def test_three_swiss_rounds_with_a_drop_and_byes(client):  # noqa: F811
    event, _ = locked_event(client)
    first = start(client, event, seed="club")
    assert first["round"] == 1 and first["seed"] == "club"
    assert sorted(x for p in first["pairings"] for x in (p["a"], p["b"]) if x) == PLAYERS
    assert [p["b"] for p in first["pairings"]].count(None) == 1  # five players: one bye
    refused = start(client, event, status=409)
    assert "round 1 still lacks results" in refused["error"]
    report_all(client, event, first)
    dropper = next(p["a"] for p in first["pairings"] if p["b"] is not None)
    r = client.post(f"/api/events/{event['id']}/drops", headers=auth(event), json={"player": dropper.lower()})
    assert r.status_code == 200 and r.json() == {"player": dropper, "dropped_after": 1}
    second = start(client, event)
    seated = [x for p in second["pairings"] for x in (p["a"], p["b"]) if x]
    assert dropper not in seated and len(seated) == 4 and all(p["b"] for p in second["pairings"])
    met = {frozenset((p["a"], p["b"])) for p in first["pairings"] if p["b"]}
    assert not any(frozenset((p["a"], p["b"])) in met for p in second["pairings"])
    report_all(client, event, second)
    third = start(client, event)
    report_all(client, event, third)
    standings = client.get(f"/api/events/{event['id']}/standings", headers=auth(event)).json()
    assert [s["rank"] for s in standings] == [1, 2, 3, 4, 5]
    assert set(standings[0]) >= {"rank", "player", "points", "matches", "omw", "gw", "ogw"}
    assert next(s for s in standings if s["player"] == dropper)["dropped"] is True
    assert sum(s["points"] for s in standings) == 3 * (2 + 2 + 2) + 3  # every match won, one bye
    assert all(0.33 <= s[k] <= 1 for s in standings for k in ("omw", "gw", "ogw"))
    rounds = client.get(f"/api/events/{event['id']}/rounds", headers=auth(event)).json()
    assert [r["round"] for r in rounds] == [1, 2, 3] and all(r["done"] for r in rounds)
    exported = client.get(f"/api/events/{event['id']}/standings.json", headers=auth(event)).json()
    assert exported == standings
    csv_text = client.get(f"/api/events/{event['id']}/pairings.csv", headers=auth(event)).text
    assert csv_text.splitlines()[0] == "round,table,a,b,a_wins,b_wins,draws,reported_by" and ",bye," in csv_text
    book = openpyxl.load_workbook(io.BytesIO(client.get(f"/api/events/{event['id']}/standings.xlsx",
                                                        headers=auth(event)).content))
    assert book.active["B2"].value == standings[0]["player"]


def test_rounds_refuse_with_nothing_changed(client):  # noqa: F811
    event = new_event(client)
    submit(client, event, "Anna", LEGAL)
    submit(client, event, "Bob", LEGAL)
    assert "not locked" in start(client, event, status=409)["error"]
    assert client.post(f"/api/events/{event['id']}/close", headers=auth(event)).status_code == 200
    assert client.post(f"/api/events/{event['id']}/rounds", json={}).status_code == 401
    assert client.post(f"/api/events/{event['id']}/rounds", json={},
                       headers={"Authorization": "Bearer nope"}).status_code == 403
    assert client.get(f"/api/events/{event['id']}/standings").status_code == 401
    rnd = start(client, event)
    url = f"/api/events/{event['id']}/rounds/1/results"
    for body, status in (({"table": 9, "a_wins": 2, "b_wins": 0}, 404), ({"table": 1, "a_wins": 0, "b_wins": 0}, 400),
                         ({"table": 1, "a_wins": "x", "b_wins": 0}, 400), ({"table": 1, "a_wins": 99, "b_wins": 0},
                                                                          400)):
        assert client.post(url, headers=auth(event), json=body).status_code == status
    assert client.post(f"/api/events/{event['id']}/rounds/7/results", headers=auth(event),
                       json={"table": 1, "a_wins": 2, "b_wins": 0}).status_code == 404
    assert client.post(f"/api/events/{event['id']}/drops", headers=auth(event),
                       json={"player": "Zed"}).status_code == 404
    assert client.get(f"/api/events/{event['id']}/rounds", headers=auth(event)).json()[0]["done"] is False
    report_all(client, event, rnd)
    assert "a top cut is of 2, 4" in start(client, event, status=409, top=3)["error"]
    assert "needs 4 players" in start(client, event, status=409, top=4)["error"]
    final = start(client, event, top=2)
    assert final["top"] is True and len(final["pairings"]) == 1
    draw = client.post(f"/api/events/{event['id']}/rounds/2/results", headers=auth(event),
                       json={"table": 1, "a_wins": 1, "b_wins": 1})
    assert draw.status_code == 400 and "needs a winner" in draw.json()["error"]


def test_pages_results_from_a_phone_and_post_redirect_get(client):  # noqa: F811
    event, decks = locked_event(client, ["Anna", "Bob", "Carla", "Dan"])
    token = csrf(client)
    assert client.get(event["dashboard_url"].replace("http://testserver", "")).status_code == 200
    page = client.get(f"/desk/{event['id']}/admin/rounds").text
    assert 'id="round-none"' in page and "4 players checked in" in page
    r = client.post(f"/desk/{event['id']}/admin/rounds", data={"csrf_token": token, "seed": "s"},
                    follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith(f"/desk/{event['id']}/admin/rounds?done=")
    page = client.get(r.headers["location"]).text
    assert "Round 1 started" in page and page.count("not reported") == 2 and 'id="round-waiting"' in page
    rounds = client.get(f"/api/events/{event['id']}/rounds", headers=auth(event)).json()
    table = rounds[0]["pairings"][0]
    phone = decks[table["b"]]["deck_id"]  # the second player reports from their private link
    mine = client.get(f"/desk/{event['id']}/decks/{phone}").text
    assert 'id="my-table"' in mine and f"Round 1: table {table['table']}" in mine and table["a"] in mine
    r = client.post(f"/desk/{event['id']}/decks/{phone}/result",
                    data={"csrf_token": token, "mine": "2", "theirs": "0"}, follow_redirects=False)
    assert r.status_code == 303
    assert "Result saved" in client.get(r.headers["location"]).text
    stored = client.get(f"/api/events/{event['id']}/rounds", headers=auth(event)).json()[0]["pairings"][0]
    assert (stored["a_wins"], stored["b_wins"], stored["reported_by"]) == (0, 2, table["b"])  # from a's side
    page = client.get(f"/desk/{event['id']}/admin/rounds").text
    assert page.count("not reported") == 1
    other = rounds[0]["pairings"][1]
    r = client.post(f"/desk/{event['id']}/admin/rounds/1/results",
                    data={"csrf_token": token, "table": other["table"], "a_wins": "1", "b_wins": "1", "draws": "1"},
                    follow_redirects=False)
    assert r.status_code == 303
    late = client.post(f"/desk/{event['id']}/decks/{decks[other['a']]['deck_id']}/result",
                       data={"csrf_token": token, "mine": "2", "theirs": "0"}, follow_redirects=False)
    assert "result_error" in late.headers["location"]  # the organiser's result stands
    assert "the organiser has entered" in client.get(late.headers["location"]).text
    assert 'id="round-complete"' in client.get(f"/desk/{event['id']}/admin/rounds").text
    before = len(client.get(f"/api/events/{event['id']}/rounds", headers=auth(event)).json())
    r = client.post(f"/desk/{event['id']}/admin/drops", data={"csrf_token": token, "player": "Dan"},
                    follow_redirects=False)
    assert r.status_code == 303
    client.get(r.headers["location"])  # a reload of the page after the redirect changes nothing
    client.get(r.headers["location"])
    assert len(client.get(f"/api/events/{event['id']}/rounds", headers=auth(event)).json()) == before
    public = client.get(f"/desk/{event['id']}/pairings").text
    assert 'id="standings"' in public and "desk-result" not in public
    r = client.post(f"/desk/{event['id']}/admin/tiebreakers", data={"csrf_token": token, "t1": "gw", "t2": "omw"},
                    follow_redirects=False)
    assert r.status_code == 303
    assert "<th scope=\"col\" title=\"game-win %\">GW</th><th scope=\"col\" title=\"opponents' match-win %\">OMW" \
        in client.get(f"/desk/{event['id']}/admin/rounds").text.replace("&#39;", "'")
    assert client.get(f"/desk/{event['id']}/admin/standings.csv").text.startswith("rank,player,points")


def standings_rows(page: str) -> list[tuple[str, int, bool]]:
    """(player, points, dropped) of each row of a page's standings table."""
    body = page[page.index('id="standings"'):]
    body = body[:body.index("</table>")]
    return [(name, int(points), "(dropped)" in rest) for name, rest, points in
            re.findall(r"<tr[^>]*><td>\d+</td><td><bdi>([^<]+)</bdi>(.*?)</td>\s*<td>(\d+)</td>", body, re.S)]


def test_every_round_has_its_pairings_page_and_the_standings_after_it(client):  # noqa: F811
    event, _ = locked_event(client)
    first = start(client, event, seed="club")
    report_all(client, event, first)
    dropper = next(p["a"] for p in first["pairings"] if p["b"] is not None)
    assert client.post(f"/api/events/{event['id']}/drops", headers=auth(event),
                       json={"player": dropper}).status_code == 200
    report_all(client, event, start(client, event))
    pages = {n: client.get(f"/desk/{event['id']}/pairings" + (f"?round={n}" if n else "")) for n in (0, 1, 2)}
    assert all(r.status_code == 200 for r in pages.values())
    one, two, now = (pages[n].text for n in (1, 2, 0))
    assert now == two  # no round asked: the current one
    assert '<h2 id="round-heading">Round 1</h2>' in one and "Standings after round 1" in one
    assert '<h2 id="round-heading">Round 2</h2>' in two and "Standings after round" not in two
    assert '<a href="?round=1">1</a>' in two and '<strong aria-current="page">1</strong>' in one
    for p in first["pairings"]:  # round 1's tables, as they were played
        assert re.search(rf'data-table="{p["table"]}">\s*<td>{p["table"]}</td><td><bdi>{p["a"]}</bdi>', one)
    after_one, after_two = standings_rows(one), standings_rows(two)
    assert len(after_one) == len(after_two) == len(PLAYERS)
    assert sum(points for _, points, _ in after_one) == 3 * 3  # two matches won and one bye, in round 1
    assert sum(points for _, points, _ in after_two) == 3 * 3 + 3 * 2  # four players left: two matches
    assert (dropper, 3, False) in after_one  # still in the event after round 1; dropped before round 2
    assert next(row for row in after_two if row[0] == dropper)[2]
    organisers = auth_get(client, event, "/admin/rounds").text
    assert all(f'/admin/rounds/print?round={n}"' in organisers for n in (1, 2))
    assert auth_get(client, event, "/admin/rounds/print?round=1").text.count('data-table="') == len(first["pairings"])
    for bad, status in (("3", 404), ("x", 400), ("-1", 400), ("9" * 30, 400)):
        r = client.get(f"/desk/{event['id']}/pairings?round={bad}")
        assert r.status_code == status and "round" in r.text, (bad, r.status_code)


def auth_get(client, event, path: str):  # noqa: F811
    """An organiser page of the event, opened with its organiser link first (which sets the cookie)."""
    assert client.get(event["dashboard_url"].replace("http://testserver", "")).status_code == 200
    r = client.get(f"/desk/{event['id']}{path}")
    assert r.status_code == 200, r.text
    return r


def test_two_servers_start_one_round_once(module_db_url):
    """Two apps on one database (two servers on one PostgreSQL, or one SQLite file), racing to start round 2
    and then pairing on from each other's results: one round 2, one refusal, pairings that agree."""
    from fastapi.testclient import TestClient

    from deckcheck.web import create_app
    one, two = TestClient(create_app(db_url=module_db_url)), TestClient(create_app(db_url=module_db_url))
    with one, two:
        event, _ = locked_event(one, [f"P{n}" for n in range(8)])
        first = start(two, event, seed="x")
        report_all(one, event, first)
        answers: list[int] = []
        barrier = threading.Barrier(2)

        def race(c: TestClient) -> None:
            barrier.wait()
            answers.append(c.post(f"/api/events/{event['id']}/rounds", headers=auth(event), json={}).status_code)

        threads = [threading.Thread(target=race, args=(c,)) for c in (one, two)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(answers) == [201, 409]
        seen = [c.get(f"/api/events/{event['id']}/rounds", headers=auth(event)).json() for c in (one, two)]
        assert seen[0] == seen[1] and [r["round"] for r in seen[0]] == [1, 2]
        assert json.dumps(seen[0]).count('"b": null') == 0
