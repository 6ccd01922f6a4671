"""The desk scaled out: two `deckcheck serve` processes on different ports against one PostgreSQL behave as one.

They stand for two machines behind a load balancer: submissions to either show on the dashboard of both,
racing submissions for one player leave exactly one current deck, and 40 players submitting at once
are each stored once, with no error.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from conftest import free_port


ROOT = Path(__file__).resolve().parents[2]
DECKS = ROOT / "examples" / "decks"
TEXTS = [(DECKS / name).read_text() for name in ("type1e-connor-legal.txt", "type1e-kurgan-illegal.txt",
                                                 "type1e-typo.txt")]

EXE = str(Path(sys.executable).with_name("deckcheck"))

pytestmark = pytest.mark.postgres



def start(db_url: str, *options: str, **env: str) -> tuple[subprocess.Popen, str]:
    """`deckcheck serve` on a free loopback port, once it answers /healthz; its process and base URL."""
    port = free_port()
    proc = subprocess.Popen([EXE, "serve", "--port", str(port), "--db", db_url, *options], env=dict(os.environ, **env),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{port}"
    end = time.monotonic() + 120
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise AssertionError(f"serve exited: {proc.stderr.read() if proc.stderr else ''}")
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=2):
                return proc, base
        except OSError:
            time.sleep(0.2)
    stop(proc)
    raise AssertionError("the server did not answer /healthz")


def call(method: str, url: str, body: dict | None = None, token: str | None = None) -> tuple[int, Any]:
    """(status, JSON body) of one request."""
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = f"Bearer {token}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=60) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as exc:
        raw = exc.read()
        try:
            return exc.code, json.loads(raw)
        except ValueError:  # not the API's JSON error: show what came, for the failure message
            return exc.code, raw[:500]


@pytest.fixture(scope="module")
def two_servers(module_pg_url):
    """Two servers (on their own ports) on one fresh PostgreSQL database: the first as the server set-up
    runs it, `serve --workers 2` (two worker processes behind one port), the second with one process."""
    url = module_pg_url
    subprocess.run([EXE, "db", "init", "--db", url], check=True, capture_output=True)
    procs, urls = [], []
    try:
        for options in (("--workers", "2"), ()):
            proc, base = start(url, *options, DECKCHECK_DESK_RATE="0")
            procs.append(proc)
            urls.append(base)
        yield urls
    finally:
        stop(*procs)


def stop(*procs: subprocess.Popen) -> None:
    """Stop servers as Ctrl-C does (killed if they have not ended 20 s later)."""
    for proc in procs:
        proc.send_signal(signal.SIGINT)
    for proc in procs:
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def new_event(base: str) -> dict:
    status, event = call("POST", f"{base}/api/events", {"name": "League night", "format": "type1e"})
    assert status == 201, event
    return event


def at_once(jobs) -> list:
    """Run the calls in threads released together; return their results in order."""
    start = threading.Barrier(len(jobs))
    results: list = [None] * len(jobs)

    def run(n: int, job) -> None:
        start.wait()
        try:
            results[n] = job()
        except Exception as exc:  # noqa: BLE001 - an exception is a result the test looks at
            results[n] = exc

    threads = [threading.Thread(target=run, args=(n, job)) for n, job in enumerate(jobs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results


def dashboard_table(base: str, event: dict) -> str:
    """The dashboard's live table as the organiser's browser gets it: the organiser link sets the cookie."""
    class Keep(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):  # stop at the 303, to read its cookie
            return None
    link = f"{base}/desk/{event['id']}/admin?token={event['organiser_token']}"
    try:
        urllib.request.build_opener(Keep()).open(link, timeout=60)
        raise AssertionError("the organiser link did not redirect")
    except urllib.error.HTTPError as exc:
        assert exc.code == 303
        cookie = exc.headers["set-cookie"].split(";")[0]
    request = urllib.request.Request(f"{base}/desk/{event['id']}/admin/table", headers={"cookie": cookie})
    with urllib.request.urlopen(request, timeout=60) as r:
        return r.read().decode()


def test_two_servers_on_one_database_behave_as_one(two_servers):
    a, b = two_servers
    event = new_event(a)
    sent = {}
    for n, player in enumerate(("Anna", "Bob", "Carl", "Dora")):
        status, sent[player] = call("POST", f"{(a, b)[n % 2]}/api/events/{event['id']}/decks",
                                    {"player": player, "decklist": TEXTS[n % 3]})
        assert status == 201, sent[player]
    status, report = call("POST", f"{b}/api/events/{event['id']}/decks",
                          {"player": "anna", "decklist": TEXTS[1], "replaces": sent["Anna"]["deck_id"]})
    assert status == 201 and report["submissions"] == 2
    for base in (a, b):
        status, decks = call("GET", f"{base}/api/events/{event['id']}/decks", token=event["organiser_token"])
        assert status == 200
        assert sorted((d["player"], d["legal"]) for d in decks) == [
            ("Anna", False), ("Bob", False), ("Carl", None), ("Dora", True)]  # the name first given
        assert call("GET", f"{base}/api/events/{event['id']}/decks", token="wrong")[0] == 403
    for base in (a, b):  # the organiser's dashboard on either server lists every player
        table = dashboard_table(base, event)
        for player in ("Anna", "Bob", "Carl", "Dora"):
            assert f'data-player="{player}"' in table, (base, player)
    status, closed = call("POST", f"{b}/api/events/{event['id']}/close", token=event["organiser_token"])
    assert status == 200 and closed["closed"]
    assert call("POST", f"{a}/api/events/{event['id']}/decks", {"player": "Eve", "decklist": TEXTS[0]})[0] == 409

    # deck checks at the table, through either server: judges at two tables save at once, both are kept
    token = event["organiser_token"]
    status, decks = call("GET", f"{a}/api/events/{event['id']}/decks", token=token)
    cleaned = {d["player"]: d["cleaned"] for d in decks}
    counts = {p: {name: int(n) for n, name in (line.split(" ", 1) for line in cleaned[p].splitlines()
                                               if line[:1].isdigit())} for p in ("Bob", "Dora")}
    short = dict(counts["Dora"])
    first = next(iter(short))
    short[first] -= 1
    checks = at_once([lambda: call("POST", f"{a}/api/events/{event['id']}/deckchecks",
                                   {"player": "bob", "judge": "Ines", "counts": counts["Bob"]}, token),
                      lambda: call("POST", f"{b}/api/events/{event['id']}/deckchecks",
                                   {"player": "Dora", "judge": "Sam", "counts": short, "note": "one short"}, token)])
    assert [status for status, _ in checks] == [201, 201], checks
    assert checks[0][1]["matches"] is True and checks[1][1]["matches"] is False
    short_by_one = {"card": first, "registered": counts["Dora"][first], "counted": counts["Dora"][first] - 1,
                    "problem": "deck"}  # the list is legal: the deck is what differs
    assert [{k: d[k] for k in short_by_one} for d in checks[1][1]["differences"]] == [short_by_one]
    for base in (a, b):
        status, listed = call("GET", f"{base}/api/events/{event['id']}/deckchecks", token=token)
        assert status == 200 and sorted(c["player"] for c in listed) == ["Bob", "Dora"]
        table = dashboard_table(base, event)
        assert 'data-player="Dora"' in table and 'class="check-differs"' in table and 'class="check-matches"' in table
        status, drawn = call("POST", f"{base}/api/events/{event['id']}/draw", {"n": 2, "seed": "table 1"}, token)
        assert status == 200 and sorted(drawn["players"]) == ["Anna", "Carl"]  # the checked ones are not drawn
    with urllib.request.urlopen(urllib.request.Request(f"{b}/api/events/{event['id']}/report.json",
                                                       headers={"authorization": f"Bearer {token}"})) as r:
        report = {d["player"]: d for d in json.load(r)}
    assert [c["judge"] for c in report["Dora"]["deckchecks"]] == ["Sam"] and report["Anna"]["deckchecks"] == []


def test_racing_submissions_for_one_player_through_both_servers_leave_one(two_servers):
    a, b = two_servers
    event = new_event(a)
    status, first = call("POST", f"{a}/api/events/{event['id']}/decks", {"player": "Anna", "decklist": TEXTS[0]})
    assert status == 201, first
    results = at_once([lambda n=n: call("POST", f"{(a, b)[n % 2]}/api/events/{event['id']}/decks",
                                        {"player": "Anna", "decklist": TEXTS[n % 2], "replaces": first["deck_id"]})
                       for n in range(10)])
    assert [status for status, _ in results] == [201] * 10, results
    status, decks = call("GET", f"{b}/api/events/{event['id']}/decks", token=event["organiser_token"])
    assert len(decks) == 1 and decks[0]["submissions"] == 11
    # the one that counts is the last to be stored: the one whose count reached 11
    last = next(body for _, body in results if body["submissions"] == 11)
    assert decks[0]["deck_id"] == last["deck_id"]


def test_forty_players_submitting_at_once_to_two_servers_are_each_stored_once(two_servers):
    a, b = two_servers
    event = new_event(b)
    results = at_once([lambda n=n: call("POST", f"{(a, b)[n % 2]}/api/events/{event['id']}/decks",
                                        {"player": f"Player {n:02}", "decklist": TEXTS[n % 3]}) for n in range(40)])
    errors = [r for r in results if not (isinstance(r, tuple) and r[0] == 201)]
    assert errors == []
    status, decks = call("GET", f"{a}/api/events/{event['id']}/decks", token=event["organiser_token"])
    assert sorted(d["player"] for d in decks) == [f"Player {n:02}" for n in range(40)]
    assert all(d["submissions"] == 1 for d in decks)
    assert sorted(d["deck_id"] for d in decks) == sorted(body["deck_id"] for _, body in results)

