"""Secrets never reach a log, an error page or `ps` (issue 30, "Done when"): a password (right or wrong), a session
cookie, a personal API token and the admin token, sent the ways a browser and a script send them — signing in and
failing to, calls that are refused, a bug's 500 in the middle of a signed-in request — appear in no answer but the one
that hands them out (the sign-in's Set-Cookie, the token's 201), in nothing logged, and in no server process's
command line."""
from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from deckcheck.db.store import Store
from deckcheck.library.accounts import Accounts
from deckcheck.web import create_app
from deckcheck.web.security import CSRF_COOKIE, SESSION_COOKIE
from deckcheck.web.settings import Settings

from conftest import free_port
from serving import Server

PASSWORD = "correct horse battery 9"
WRONG = "incorrect pony staple 7"
ADMIN = "admin-secret-0a1b2c3d4e5f"
WRONG_TOKEN = "dc_wrong_token_5f4e3d2c1b0a"


def _club(web_db: str, folder: Path) -> tuple[str, str]:
    """A copy of the cards with one player account; (its URL, the player's personal token)."""
    db = folder / "secrets.db"
    shutil.copy(web_db.removeprefix("sqlite:///"), db)
    url = f"sqlite:///{db}"
    accounts = Accounts(Store(url))
    account = accounts.add("Duncan", PASSWORD, ["player"])
    return url, accounts.new_token(account, "script")[1]


def _leaks(text: str, secrets: list[str]) -> list[str]:
    return [s for s in secrets if s in text]


def test_no_secret_reaches_a_log_or_an_error_page(web_db, tmp_path, caplog, capsys, monkeypatch):
    from deckcheck.web import accounts as web_accounts
    url, token = _club(web_db, tmp_path)
    caplog.set_level(logging.DEBUG)  # every logger, every level
    app = create_app(Settings.from_env(db_url=url, admin_token=ADMIN))
    answers = []
    with TestClient(app, client=("192.0.2.10", 5000), raise_server_exceptions=False) as client:
        client.get("/signin")
        csrf = client.cookies[CSRF_COOKIE]
        same = {"Origin": "http://testserver", "X-CSRF-Token": csrf}
        answers += [client.post("/api/session", json={"name": "Duncan", "password": WRONG}, headers=same),
                    client.post("/api/session", json={"name": "Nobody", "password": PASSWORD}, headers=same),
                    client.post("/signin", data={"csrf_token": csrf, "name": "Duncan", "password": WRONG},
                                headers={"Origin": "http://testserver"}),
                    client.post("/api/session", json={"name": ["Duncan"], "password": PASSWORD}, headers=same),
                    client.post("/api/session", json={"name": "Duncan", "password": PASSWORD * 200}, headers=same)]
        assert [a.status_code for a in answers[:3]] == [401, 401, 401]
        signed = client.post("/api/session", json={"name": "Duncan", "password": PASSWORD}, headers=same)
        assert signed.status_code == 200
        session = client.cookies[SESSION_COOKIE]
        answers += [client.get("/api/me"), client.get("/collection"), client.get("/cards/nothing-has-this-id"),
                    client.post("/collection/undo", data={"collection": "main"}, headers={"Origin": "http://testserver"})]
        client.cookies.delete(SESSION_COOKIE)
        for bearer in (token, WRONG_TOKEN, ADMIN, "admin-secret-wrong"):
            auth = {"Authorization": f"Bearer {bearer}"}
            answers += [client.get("/api/me", headers=auth), client.get("/api/tokens", headers=auth),
                        client.post("/cards/proposals", data={"csrf_token": csrf, "admin_token": bearer},
                                    headers={"Origin": "http://testserver"})]

        def bug(*_args: object) -> None:
            raise RuntimeError("a bug in the middle of a signed-in request")
        monkeypatch.setattr(web_accounts, "me_json", bug)
        for kind in ({"Authorization": f"Bearer {token}"}, {"Cookie": f"{SESSION_COOKIE}={session}"}):
            crashed = client.get("/api/me", headers=kind)
            assert crashed.status_code == 500
            answers.append(crashed)
        crashed = client.post("/api/session", json={"name": "Duncan", "password": PASSWORD}, headers=same)
        assert crashed.status_code == 500  # the bug again, this time with the password in the body
        answers.append(crashed)
    secrets = [PASSWORD, WRONG, session, token, WRONG_TOKEN, ADMIN, "admin-secret-wrong"]
    for answer in answers:
        shown = answer.text + json.dumps({k: v for k, v in answer.headers.items()})
        assert not _leaks(shown, secrets), (answer.request.method, answer.request.url.path, answer.status_code)
    said = caplog.text + "".join(r.getMessage() + repr(r.args) + str(r.exc_info) for r in caplog.records)
    out = capsys.readouterr()
    assert not _leaks(said + out.out + out.err, secrets)


def test_a_running_server_logs_no_secret_and_shows_none_in_ps(web_db, tmp_path):
    """A real `deckcheck serve` (the admin token from the environment, as the docs say): sign-ins right and wrong,
    tokens right and wrong; its stderr holds none of them, nor does any of its processes' command lines."""
    import urllib.error
    import urllib.request
    url, token = _club(web_db, tmp_path)
    server = Server(url, free_port(), env={"DECKCHECK_ADMIN_TOKEN": ADMIN})
    try:
        def call(method: str, path: str, body: object = None, headers: dict[str, str] | None = None) -> int:
            data = None if body is None else json.dumps(body).encode()
            request = urllib.request.Request(server.url + path, data=data, method=method, headers={
                "Origin": server.url, "Content-Type": "application/json", **(headers or {})})
            try:
                with urllib.request.urlopen(request, timeout=60) as r:
                    return int(r.status)
            except urllib.error.HTTPError as e:
                return int(e.code)
        assert call("POST", "/api/session", {"name": "Duncan", "password": WRONG}) in (401, 403)
        assert call("POST", "/api/session", {"name": "Duncan", "password": PASSWORD}) in (200, 403)
        for bearer in (token, WRONG_TOKEN, ADMIN):
            call("GET", "/api/me", headers={"Authorization": f"Bearer {bearer}"})
        cmdlines = []
        for pid in [server.proc.pid, *_children(server.proc.pid)]:
            try:
                cmdlines.append(Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace"))
            except OSError:
                pass
        assert cmdlines and not _leaks(" ".join(cmdlines), [ADMIN, PASSWORD, token])
    finally:
        server.stop()
    assert not _leaks(server.log(), [PASSWORD, WRONG, token, WRONG_TOKEN, ADMIN])


def _children(pid: int) -> list[int]:
    """The processes whose parent is `pid` (uvicorn's workers), read from /proc."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@pytest.fixture(autouse=True)
def _fresh_limits():
    """The sign-in limits count per address across tests: each test starts with none counted."""
    from deckcheck.web import accounts
    accounts.SIGNINS.clear()
    yield
    accounts.SIGNINS.clear()
