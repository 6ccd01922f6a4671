"""A personal server never throttles its own user (issue 35 item 4): on a server listening on loopback, checks and
new events from this machine are not counted; the limits stay for every other address, for requests a proxy on this
machine relays, and on a server listening on the network."""
from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from deckcheck.web import create_app
from deckcheck.web.settings import Settings

from conftest import LEGAL

OTHER = ("203.0.113.9", 5000)  # another machine (TEST-NET-3)


def statuses(web_db: str, host: str, client: tuple[str, int], headers: dict[str, str] | None = None,
             path: str = "/api/check") -> list[int]:
    """The answers to five requests under a rate of 2 a minute."""
    app = create_app(Settings(db_url=web_db, host=host, check_rate="2/60", event_rate="2/60",
                              allowed_hosts="testserver"))
    body = {"decklist": LEGAL} if path == "/api/check" else {"name": "Open", "format": "type1e"}
    with TestClient(app, client=client) as http:
        return [http.post(path, json=body, headers=headers or {}).status_code for _ in range(5)]


@pytest.mark.parametrize("client", [("127.0.0.1", 5000), ("::1", 5000), ("127.0.0.2", 5000)])
@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1"])
def test_a_personal_server_does_not_count_its_own_users_checks(web_db, host, client):
    assert statuses(web_db, host, client) == [200] * 5


def test_nor_its_own_users_new_events(web_db):
    assert statuses(web_db, "127.0.0.1", ("127.0.0.1", 5000), path="/api/events") == [201] * 5


def test_another_address_is_still_limited(web_db):
    assert statuses(web_db, "127.0.0.1", OTHER) == [200, 200, 429, 429, 429]


@pytest.mark.parametrize("header", ["X-Forwarded-For", "Forwarded", "X-Real-IP"])
def test_a_request_relayed_by_a_proxy_on_this_machine_is_still_limited(web_db, header):
    assert statuses(web_db, "127.0.0.1", ("127.0.0.1", 5000), {header: "203.0.113.9"}) == [200, 200, 429, 429, 429]


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.20"])
def test_a_server_on_the_network_limits_loopback_too(web_db, host):
    assert statuses(web_db, host, ("127.0.0.1", 5000)) == [200, 200, 429, 429, 429]
