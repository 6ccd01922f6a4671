"""Accounts, sessions and personal tokens (issue 30, items 2 and 3; CONTRACTS §9): `deckcheck users ...`, the
sign-in page and `/api/session`, `/api/me`, `/api/tokens`; argon2id hashes only, sessions that end with a new
password or the account, a new session id at every sign-in, the same answer for a wrong name and a wrong password,
sign-ins limited per address and per name."""
from __future__ import annotations

import re
import shutil
import sqlite3

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from deckcheck.web import accounts as web_accounts
from deckcheck.web import create_app
from deckcheck.web.security import CSRF_COOKIE, SESSION_COOKIE, SESSION_COOKIE_HTTPS
from deckcheck.web.settings import Settings

from inproc import run_cli

PASSWORD = "correct horse battery"
PHONE = ("192.0.2.10", 5000)


@pytest.fixture(autouse=True)
def fresh_limits():
    web_accounts.SIGNINS.clear()
    yield
    web_accounts.SIGNINS.clear()


@pytest.fixture()
def club(web_db, tmp_path):
    """A copy of the cards with two accounts made by the CLI: Ann (player) and Rex (reviewer, player)."""
    db = tmp_path / "club.db"
    shutil.copy(web_db.removeprefix("sqlite:///"), db)
    secret = tmp_path / "pw"
    secret.write_text(PASSWORD + "\n")
    for name, roles in (("Ann", ["player"]), ("Rex", ["reviewer", "player"])):
        r = run_cli("users", "add", name, *[a for role in roles for a in ("--role", role)], "--password-file",
                    str(secret), "--db", str(db))
        assert r.code == 0 and r.crash is None, r.err
    return db


def app_of(db, **settings) -> FastAPI:
    return create_app(Settings.from_env(db_url=f"sqlite:///{db}", **settings))


def signed_in(client: TestClient, name: str = "Ann") -> TestClient:
    r = client.post("/api/session", json={"name": name, "password": PASSWORD})
    assert r.status_code == 200, r.text
    return client


def test_users_commands_keep_argon2id_hashes_only(club, tmp_path):
    r = run_cli("users", "list", "--db", str(club))
    assert r.text.splitlines() == ["Ann: player", "Rex: reviewer, player"]
    rows = sqlite3.connect(club).execute("select name, password_hash from account").fetchall()
    assert all(h.startswith("$argon2id$") and PASSWORD not in h for _n, h in rows)
    assert run_cli("users", "roles", "ann", "organiser", "judge", "--db", str(club)).text.strip() == \
        "Ann: organiser, judge"
    bad = run_cli("users", "roles", "Ann", "boss", "--db", str(club))
    assert bad.code == 2 and "no role 'boss'" in bad.err.decode()
    taken = run_cli("users", "add", "ANN", "--password-file", str(tmp_path / "pw"), "--db", str(club))
    assert taken.code == 2 and "already" in taken.err.decode()
    short = tmp_path / "short"
    short.write_text("abc\n")
    assert run_cli("users", "add", "Bo", "--password-file", str(short), "--db", str(club)).code == 2
    assert run_cli("users", "remove", "Nobody", "--db", str(club)).code == 2
    assert run_cli("users", "remove", "Rex", "--db", str(club)).text.strip() == "removed Rex"
    assert run_cli("users", "list", "--db", str(club)).text.splitlines() == ["Ann: organiser, judge"]
    for name in ("Kim", "Lou"):  # the first keeper account is the server's keeper; a later one is not
        assert run_cli("users", "add", name, "--role", "keeper", "--password-file", str(tmp_path / "pw"),
                       "--db", str(club)).code == 0
    assert run_cli("users", "list", "--db", str(club)).text.splitlines() == [
        "Ann: organiser, judge", "Kim: keeper (the server's keeper: owns what the keeper owns)", "Lou: keeper"]


def test_the_password_is_never_an_argument():
    r = run_cli("users", "add", "--help")
    assert "--password-file" in r.text and "--password " not in r.text.replace("--password-file", "")


def test_signing_in_and_out_over_the_api(club):
    with TestClient(app_of(club), client=PHONE) as client:
        assert client.get("/api/me").status_code == 401
        r = client.post("/api/session", json={"name": "ann", "password": PASSWORD})
        assert r.status_code == 200 and r.json() == {"name": "Ann", "roles": ["player"]}
        cookie = r.headers["set-cookie"]
        assert cookie.startswith(f"{SESSION_COOKIE}=") and "HttpOnly" in cookie and "samesite=lax" in cookie.lower()
        assert "Secure" not in cookie and PASSWORD not in cookie
        assert client.get("/api/me").json() == {"name": "Ann", "roles": ["player"]}
        assert client.delete("/api/session").status_code == 200
        assert client.get("/api/me").status_code == 401


def test_the_session_cookie_is_secure_over_https(club):
    with TestClient(app_of(club), base_url="https://testserver", client=PHONE) as client:
        r = client.post("/api/session", json={"name": "Ann", "password": PASSWORD})
        cookie = r.headers["set-cookie"]
        assert cookie.startswith(f"{SESSION_COOKIE_HTTPS}=") and "Secure" in cookie and "HttpOnly" in cookie


def test_a_wrong_name_and_a_wrong_password_get_the_same_answer(club):
    with TestClient(app_of(club), client=PHONE) as client:
        name = client.post("/api/session", json={"name": "Nobody", "password": PASSWORD})
        word = client.post("/api/session", json={"name": "Ann", "password": PASSWORD + "x"})
        assert (name.status_code, name.json()) == (word.status_code, word.json()) == \
            (401, {"error": "wrong name or password"})
        assert SESSION_COOKIE not in name.headers.get("set-cookie", "") + word.headers.get("set-cookie", "")


def test_a_planted_session_id_is_never_signed_in(club):
    """Session fixation: the id a browser had before signing in is not the one it has after, and means nothing."""
    planted = {"Cookie": f"{SESSION_COOKIE}=planted-by-someone-else"}
    with TestClient(app_of(club), client=PHONE) as client:
        r = client.post("/api/session", json={"name": "Ann", "password": PASSWORD}, headers=planted)
        given = re.match(f"{SESSION_COOKIE}=([^;]+);", r.headers["set-cookie"])
        assert given is not None and given.group(1) != "planted-by-someone-else" and len(given.group(1)) >= 40
        assert client.get("/api/me", headers=planted).status_code == 401


def test_a_new_password_or_removing_the_account_ends_its_sessions(club, tmp_path):
    app = app_of(club)
    with TestClient(app, client=PHONE) as one, TestClient(app, client=PHONE) as two:
        signed_in(one)
        signed_in(two, "Rex")
        new = tmp_path / "new"
        new.write_text("another good password\n")
        assert run_cli("users", "passwd", "Ann", "--password-file", str(new), "--db", str(club)).code == 0
        assert one.get("/api/me").status_code == 401
        assert two.get("/api/me").status_code == 200
        assert run_cli("users", "remove", "Rex", "--db", str(club)).code == 0
        assert two.get("/api/me").status_code == 401
        stored = sqlite3.connect(club).execute("select count(*) from account_session").fetchone()
        assert stored == (0,)


def test_personal_tokens_are_shown_once_listed_without_the_token_and_revoked(club):
    with TestClient(app_of(club), client=PHONE) as client:
        assert client.post("/api/tokens", json={"label": "x"}).status_code == 403  # signed out: no account
        signed_in(client)
        made = client.post("/api/tokens", json={"label": "my script"})
        assert made.status_code == 201
        token, token_id = made.json()["token"], made.json()["id"]
        listed = client.get("/api/tokens")
        assert token not in listed.text and listed.json()["tokens"][0]["label"] == "my script"
        stored = sqlite3.connect(club).execute("select token_hash from api_token").fetchall()
        assert all(token not in h for (h,) in stored)
        client.delete("/api/session")
    with TestClient(app_of(club), client=PHONE) as script:
        bearer = {"Authorization": f"Bearer {token}"}
        assert script.get("/api/me", headers=bearer).json()["name"] == "Ann"
        assert script.delete(f"/api/tokens/{token_id}", headers=bearer).json() == {"id": token_id, "revoked": True}
        assert script.get("/api/me", headers=bearer).status_code == 401
        assert script.delete(f"/api/tokens/{token_id}", headers=bearer).status_code == 403


def test_the_signin_page_works_without_javascript(club):
    with TestClient(app_of(club), client=PHONE) as client:
        page = client.get("/signin?next=/collection")
        assert page.status_code == 200 and 'action="/signin"' in page.text and "<script" not in page.text.split(
            "<main>")[1].split("</main>")[0]
        form = {"csrf_token": client.cookies[CSRF_COOKIE], "name": "Ann", "password": PASSWORD, "next": "/collection"}
        assert client.post("/signin", data={**form, "csrf_token": "x" * 43}).status_code == 403
        wrong = client.post("/signin", data={**form, "password": "nope nope"})
        assert wrong.status_code == 401 and "wrong name or password" in wrong.text and PASSWORD not in wrong.text
        r = client.post("/signin", data=form, follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/collection"
        header = client.get("/").text
        assert "Ann" in header and "Sign out" in header
        out = client.post("/signout", data={"csrf_token": client.cookies[CSRF_COOKIE]}, follow_redirects=False)
        assert out.status_code == 303 and client.get("/api/me").status_code == 401


@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/", "/\\evil.example"])
def test_signing_in_never_sends_the_browser_to_another_site(target):
    assert web_accounts.local_target(target) == "/"


def test_signup_is_off_unless_the_server_allows_it(club):
    with TestClient(app_of(club), client=PHONE) as client:
        assert client.get("/signup").status_code == 404
    with TestClient(app_of(club, signup=True), client=PHONE) as client:
        client.get("/signup")
        r = client.post("/signup", data={"csrf_token": client.cookies[CSRF_COOKIE], "name": "Cy",
                                         "password": "a fine password"}, follow_redirects=False)
        assert r.status_code == 303
        assert client.get("/api/me").json() == {"name": "Cy", "roles": ["player"]}


def test_sign_ins_are_limited_per_address_and_per_name(club, monkeypatch):
    from conftest import one_window
    from deckcheck.rates import Rate
    monkeypatch.setattr(web_accounts, "SIGNINS", one_window())  # tries straddling a window's end: counted in two
    monkeypatch.setattr(web_accounts, "SIGNIN_PER_NAME", Rate(2, 300))
    monkeypatch.setattr(web_accounts, "SIGNIN_PER_ADDRESS", Rate(3, 300))
    app = app_of(club)
    with TestClient(app, client=PHONE) as client:
        tries = [client.post("/api/session", json={"name": "Ann", "password": "guess number"}) for _ in range(3)]
        assert [r.status_code for r in tries] == [401, 401, 429]
        assert int(tries[-1].headers["Retry-After"]) > 0 and "for that name" in tries[-1].json()["error"]
        right = client.post("/api/session", json={"name": "Ann", "password": PASSWORD})
        assert right.status_code == 429  # limited, right or wrong: the password is not even tried
        assert client.post("/api/session", json={"name": "Rex", "password": "x" * 9}).status_code == 429  # address
    with TestClient(app, client=("192.0.2.11", 5000)) as elsewhere:
        assert elsewhere.post("/api/session", json={"name": "Rex", "password": PASSWORD}).status_code == 200


def test_on_a_club_server_the_machine_itself_signs_in_like_anyone(club):
    """Once accounts exist, a request from this machine is no keeper by its address (CONTRACTS §9)."""
    with TestClient(app_of(club), client=("127.0.0.1", 5000)) as client:
        assert client.get("/api/me").status_code == 401
        client.get("/")
        r = client.post("/collection/import", data={"csrf_token": client.cookies[CSRF_COOKIE]},
                        files={"file": ("b.csv", b"card,quantity\nThrust,1\n")})
        assert r.status_code == 403 and "sign in" in r.text
        signed_in(client)
        r = client.post("/collection/import", data={"csrf_token": client.cookies[CSRF_COOKIE]},
                        files={"file": ("b.csv", b"card,quantity\nThrust,1\n")})
        assert r.status_code == 200 and re.search(r'name="token"', r.text)


def test_card_facts_are_proposed_by_the_account_and_reviewed_by_a_reviewer(club):
    """With accounts (and no admin token) answers wait as proposals under the account's own name; a reviewer's
    account accepts them, a player's cannot."""
    card = "ME-upper-left-attack-1"
    with TestClient(app_of(club), client=PHONE) as client:
        signed_in(client, "Ann")
        r = client.post(f"/api/cards/{card}/facts", json={"by": "Someone Else", "values": {"restriction": "4"}})
        assert r.status_code == 202 and r.json()["proposals"][0]["by"] == "Ann", r.text
        pid = r.json()["proposals"][0]["id"]
        assert client.get("/api/proposals").status_code == 403
        assert client.post(f"/api/proposals/{pid}/accept", json={}).status_code == 403
        assert client.get(f"/api/cards/{card}").json()["restriction"] != "4"
        client.delete("/api/session")
        signed_in(client, "Rex")
        assert [p["id"] for p in client.get("/api/proposals").json()["proposals"]] == [pid]
        decided = client.post(f"/api/proposals/{pid}/accept", json={"by": "Not Rex"})
        assert decided.status_code == 200 and decided.json()["decided_by"] == "Rex", decided.text
        assert client.get(f"/api/cards/{card}").json()["restriction"] == "4"


def test_an_accounts_answers_are_its_own_whoever_types_its_name(club):
    """A proposal is keyed by the account that made it, not by its name: someone not signed in who types "ann" is
    refused (their answer would have replaced Ann's pending one and been reviewed as Ann's); their check naming
    Ann counts none of her answers; Ann's own check counts them; "Accept all from" Ann accepts hers only."""
    card = "ME-upper-left-attack-1"
    deck = "Format: type1e\n6 Upper Left Attack\n"
    with TestClient(app_of(club), client=PHONE) as ann, TestClient(app_of(club), client=PHONE) as stranger, \
            TestClient(app_of(club), client=PHONE) as rex:
        signed_in(ann, "Ann")
        mine = ann.post(f"/api/cards/{card}/facts", json={"values": {"restriction": "3"}})
        assert mine.status_code == 202, mine.text
        for name in ("ann", " ANN ", "Ann"):
            r = stranger.post(f"/api/cards/{card}/facts", json={"by": name, "values": {"restriction": "9"}})
            assert r.status_code == 400 and "is the name of an account of this server" in r.json()["error"], r.text
        other = stranger.post(f"/api/cards/{card}/facts", json={"by": "Annie", "values": {"restriction": "1"}})
        assert other.status_code == 202, other.text
        own = ann.post("/api/check", json={"decklist": deck, "facts_by": "anyone"}).json()
        assert any("counted 1 answer by Ann" in n for n in own["notices"]), own["notices"]
        theirs = stranger.post("/api/check", json={"decklist": deck, "facts_by": "Ann"}).json()
        assert not any("counted" in n for n in theirs["notices"]), theirs["notices"]

        signed_in(rex, "Rex")
        pending = rex.get("/api/proposals").json()["proposals"]
        assert sorted((p["by"], p["value"], p["status"]) for p in pending) == [("Ann", "3", "pending"),
                                                                                ("Annie", "1", "pending")]
        page = rex.get("/cards/proposals").text
        ann_id = re.search(r'name="accept_all" value="(@[0-9]+)" class="chip">Ann<', page)
        assert ann_id and 'name="accept_all" value="annie" class="chip">Annie<' in page, page
        r = rex.post("/cards/proposals/decide", data={"accept_all": ann_id.group(1),
                                                       "csrf_token": rex.cookies[CSRF_COOKIE]})
        assert r.status_code == 200, r.text  # the redirect to the review page, followed
        decided = {p["by"]: p["status"] for s in ("accepted", "pending")
                   for p in rex.get("/api/proposals", params={"status": s}).json()["proposals"]}
        assert decided == {"Ann": "accepted", "Annie": "pending"}
        assert rex.get(f"/api/cards/{card}").json()["restriction"] == "3"


def test_the_keepers_accounts_page(club):
    run_cli("users", "add", "Kim", "--role", "keeper", "--password-file", str(club.parent / "pw"), "--db", str(club))
    with TestClient(app_of(club), client=PHONE) as client:
        signed_in(client, "Ann")
        assert client.get("/accounts").status_code == 403
        client.delete("/api/session")
        signed_in(client, "Kim")
        page = client.get("/accounts")
        assert page.status_code == 200 and page.headers["cache-control"] == "no-store"
        assert "Rex" in page.text and "reviewer, player" in page.text and "$argon2" not in page.text
        assert 'href="/accounts"' in client.get("/").text  # the header's link, for the keeper
