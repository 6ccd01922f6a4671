"""Who may reach the web app and how it answers (issue 19, items 3 and 6): the Host allow-list, same-origin
state changes, the CSRF cookie, rate limits with Retry-After, and protocol details (HEAD, Allow,
WWW-Authenticate, security headers on the middleware's own answers, Connection: close after a 500)."""
from __future__ import annotations

import re
import time

import pytest
from fastapi.testclient import TestClient

from deckcheck.web import create_app
from deckcheck.rates import Rate, RateError
from deckcheck.web.guard import host_allowed
from deckcheck.web.hosts import GuardError, hosts_for_bind
from deckcheck.web.settings import Settings, SettingsError
from deckcheck.web.security import CSP, CSRF_COOKIE, CSRF_COOKIE_HTTPS

from conftest import LEGAL

ALLOWED_HOSTS_ENV, CHECK_RATE_ENV, EVENT_RATE_ENV = (Settings.env_names()[f] for f in
                                                     ("allowed_hosts", "check_rate", "event_rate"))

SECURITY = {"content-security-policy": CSP, "x-content-type-options": "nosniff", "referrer-policy": "same-origin"}


def has_security_headers(r) -> bool:
    return all(r.headers.get(k) == v for k, v in SECURITY.items())


@pytest.fixture()
def default_hosts(monkeypatch):
    """The app as a server on 127.0.0.1 has it: no names but the loopback ones."""
    monkeypatch.delenv(ALLOWED_HOSTS_ENV, raising=False)


def csrf_of(client) -> str:
    client.get("/")
    return client.cookies[CSRF_COOKIE]


# -- Host ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.evil.example", "localhost.evil",
                                  "testserver", "", "a b", "127.0.0.1@evil.example"])
def test_a_host_that_is_not_this_server_gets_400(web_db, default_hosts, host):
    # DNS rebinding: a page of evil.example whose name now resolves to 127.0.0.1 sends Host: evil.example
    with TestClient(create_app(db_url=web_db), base_url="http://127.0.0.1:8000") as client:
        for path in ("/", "/api/collection", "/healthz"):
            r = client.get(path, headers={"Host": host})
            assert r.status_code == 400, (path, host, r.status_code)
            assert "host" in r.text and has_security_headers(r) and CSRF_COOKIE not in r.headers.get("set-cookie", "")
        r = client.post("/api/check", json={"decklist": LEGAL}, headers={"Host": host})
        assert r.status_code == 400 and "does not answer to the host" in r.json()["error"]


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "LOCALHOST", "[::1]:8000", "127.0.0.1",
                                  "localhost."])
def test_the_loopback_names_are_answered_by_default(web_db, default_hosts, host):
    with TestClient(create_app(db_url=web_db), base_url="http://127.0.0.1:8000") as client:
        assert client.get("/healthz", headers={"Host": host}).json() == {"status": "ok"}


def asgi(app, method: str, headers: list[tuple[bytes, bytes]], http_version: str = "1.1",
         body: list[dict] | None = None) -> tuple[int, bytes]:
    """One request straight to the ASGI app (the way a server hands it over, with headers a client library would not
    send); its status and body. `body`: the receive messages (default: none)."""
    import asyncio
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": http_version, "method": method,
             "scheme": "http", "path": "/api/stats" if method == "POST" else "/healthz", "raw_path": b"",
             "query_string": b"", "root_path": "", "headers": headers, "client": ("127.0.0.1", 5000),
             "server": ("127.0.0.1", 8000)}
    messages = list(body if body is not None else [{"type": "http.request", "body": b"", "more_body": False}])
    sent: list[dict] = []

    async def receive() -> dict:
        return messages.pop(0) if messages else {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)
    asyncio.run(app(scope, receive, send))
    status = next((m["status"] for m in sent if m["type"] == "http.response.start"), 0)
    return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


@pytest.mark.parametrize("headers, http_version, status", [
    ([], "1.1", 400),
    ([(b"host", b"127.0.0.1"), (b"host", b"127.0.0.1")], "1.1", 400),
    ([(b"host", b"127.0.0.1"), (b"host", b"evil.example")], "1.1", 400),
    ([(b"host", b"127.0.0.1"), (b"host", b"127.0.0.1")], "1.0", 400),
    ([], "1.0", 200),
    ([(b"host", b"127.0.0.1:8000")], "1.1", 200),
])
def test_http_1_1_sends_its_host_exactly_once(web_db, default_hosts, headers, http_version, status):
    """RFC 9112, 3.2: a request of HTTP/1.1 without a Host header, or any with more than one, is answered 400."""
    got, body = asgi(create_app(db_url=web_db), "GET", headers, http_version)
    assert got == status, body
    if status == 400:
        assert b"one Host header" in body


def test_a_client_gone_before_its_body_is_one_line_in_the_log(web_db, default_hosts, caplog):
    """The body never came (the client closed, or the server's body timeout did): no traceback, no error."""
    import logging
    headers = [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"), (b"content-length", b"100")]
    with caplog.at_level(logging.INFO):
        asgi(create_app(db_url=web_db), "POST", headers,
             body=[{"type": "http.request", "body": b'{"deck', "more_body": True}, {"type": "http.disconnect"}])
    records = [r for r in caplog.records if r.levelno >= logging.INFO and r.name.startswith(("deckcheck", "uvicorn"))]
    assert len(records) == 1 and records[0].levelno == logging.INFO and records[0].exc_info is None, records
    assert records[0].getMessage() == ("POST /api/stats from 127.0.0.1: the connection closed before the request's "
                                       "body arrived")


def test_allowed_hosts_of_a_server_on_every_address():
    names = hosts_for_bind("0.0.0.0", ["desk.club.example", "*.league.example"])
    assert {"0.0.0.0", "localhost", "127.0.0.1", "::1", "desk.club.example", "*.league.example"} <= set(names)
    for host in ("192.168.1.20", "10.0.0.5", "::1", "fe80::1", "desk.club.example", "a.league.example",
                 "localhost"):
        assert host_allowed(host, names), host
    for host in ("evil.example", "league.example.evil", "club.example"):
        assert not host_allowed(host, names), host


def test_allowed_hosts_of_a_server_on_one_address():
    lan = hosts_for_bind("192.168.1.20")
    assert host_allowed("192.168.1.20", lan) and not host_allowed("localhost", lan)
    assert not host_allowed("10.0.0.1", lan)  # an address is not a wildcard unless bound to every address
    assert set(hosts_for_bind("127.0.0.1")) == {"127.0.0.1", "localhost", "::1"}
    assert "::1" in hosts_for_bind("[::1]")


@pytest.mark.parametrize("bad", ["evil/x", "a b", "", "http://x"])
def test_a_bad_allowed_host_is_refused(bad):
    with pytest.raises(GuardError, match="allowed-host"):
        hosts_for_bind("127.0.0.1", [bad])


# -- Origin ------------------------------------------------------------------------------------------------
CROSS = [{"Origin": "http://evil.example"}, {"Origin": "null"}, {"Origin": "http://testserver:9999"},
         {"Origin": "http://sub.testserver"}, {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"},
         {"Origin": "http://evil.example", "Sec-Fetch-Site": "same-origin"}]


@pytest.mark.parametrize("headers", CROSS)
def test_a_form_from_another_site_with_a_planted_cookie_is_refused(client, headers):
    # the cookie and the token agree (a cookie planted from another port or subdomain): the origin does not
    token = csrf_of(client)
    for path, data in (("/decks", {"decklist": LEGAL, "csrf_token": token}),
                       ("/desk", {"name": "Open", "format": "type1e", "csrf_token": token}),
                       ("/collection/import/confirm", {"token": "x" * 43, "csrf_token": token})):
        r = client.post(path, data=data, headers=headers, follow_redirects=False)
        assert r.status_code == 403, (path, headers, r.status_code)
        assert "another site" in r.text and has_security_headers(r)
    r = client.post("/api/check", json={"decklist": LEGAL}, headers=headers)
    assert r.status_code == 403 and "another site" in r.json()["error"]


@pytest.mark.parametrize("headers", [{"Origin": "http://testserver"}, {"Sec-Fetch-Site": "same-origin"},
                                     {"Sec-Fetch-Site": "none"}, {}])
def test_a_form_from_this_server_or_a_program_is_taken(client, headers):
    token = csrf_of(client)
    r = client.post("/decks", data={"decklist": LEGAL, "csrf_token": token}, headers=headers, follow_redirects=False)
    assert r.status_code == 303, r.text
    assert client.post("/api/check", json={"decklist": LEGAL}, headers=headers).status_code == 200


def test_the_token_is_still_needed_from_this_server(client):
    csrf_of(client)
    r = client.post("/decks", data={"decklist": LEGAL}, headers={"Origin": "http://testserver"})
    assert r.status_code == 403 and "security token" in r.text


def test_behind_a_tls_proxy_the_origin_may_be_https(client):
    # Host without a port: the origin's port is either scheme's default
    token = csrf_of(client)
    r = client.post("/decks", data={"decklist": LEGAL, "csrf_token": token},
                    headers={"Origin": "https://testserver"}, follow_redirects=False)
    assert r.status_code == 303


def test_over_https_the_csrf_cookie_has_the_host_prefix(web_db):
    with TestClient(create_app(db_url=web_db), base_url="https://testserver") as client:
        r = client.get("/")
        cookie = r.headers["set-cookie"]
        assert cookie.startswith(f"{CSRF_COOKIE_HTTPS}=") and "Secure" in cookie and "Path=/" in cookie
        assert "Domain" not in cookie
        # a cookie of the plain name (set over http, or by another host) is not the token here
        token = client.cookies[CSRF_COOKIE_HTTPS]
        client.cookies.set(CSRF_COOKIE, "p" * 43)
        r = client.post("/decks", data={"decklist": LEGAL, "csrf_token": "p" * 43}, follow_redirects=False)
        assert r.status_code == 403
        r = client.post("/decks", data={"decklist": LEGAL, "csrf_token": token}, follow_redirects=False)
        assert r.status_code == 303


# -- rate limits -------------------------------------------------------------------------------------------
def test_checks_past_the_rate_get_429_with_retry_after(web_db, monkeypatch):
    monkeypatch.setenv(CHECK_RATE_ENV, "3/60")
    with TestClient(create_app(db_url=web_db)) as client:
        # the windows are fixed minutes of the clock (deckcheck.rates.Windows): four checks that straddle a minute's
        # end are counted in two windows, so start them in a minute with time enough left (a CI run once straddled)
        left = Rate.parse("3/60").wait(time.time())
        if left < 15:
            time.sleep(left + 0.2)
        assert [client.post("/api/check", json={"decklist": LEGAL}).status_code for _ in range(2)] == [200, 200]
        assert client.post("/check", data={"decklist": LEGAL}).status_code == 200  # pages and API share the count
        r = client.post("/api/check", json={"decklist": LEGAL})
        assert r.status_code == 429 and has_security_headers(r)
        wait = int(r.headers["retry-after"])
        assert 1 <= wait <= 60
        message = r.json()["error"]
        said = re.search(r"wait (?:(\d+) min)? ?(?:(\d+) s)? and", message)  # "59 s"; a whole window is "1 min"
        assert "more than 3 checks" in message and said is not None and any(said.groups())
        assert abs(60 * int(said.group(1) or 0) + int(said.group(2) or 0) - wait) <= 1
        assert "minute" not in message
        r = client.post("/check", data={"decklist": LEGAL})
        assert r.status_code == 429 and "wait" in r.text and r.headers["retry-after"]
        assert client.get("/").status_code == 200  # pages are not counted


def test_event_creation_past_the_rate_gets_429(web_db, monkeypatch):
    monkeypatch.setenv(EVENT_RATE_ENV, "1/3600")
    with TestClient(create_app(db_url=web_db)) as client:
        assert client.post("/api/events", json={"name": "A", "format": "type1e"}).status_code == 201
        r = client.post("/api/events", json={"name": "B", "format": "type1e"})
        assert r.status_code == 429 and int(r.headers["retry-after"]) > 60
        assert re.search(r"wait \d+ min", r.json()["error"])
        r = client.post("/desk", data={"name": "C", "format": "type1e", "csrf_token": csrf_of(client)})
        assert r.status_code == 429


def test_desk_submissions_past_the_rate_say_the_real_wait(web_db):
    app = create_app(Settings(db_url=web_db, desk_rate="1/7200", allowed_hosts="testserver"))
    with TestClient(app) as client:
        event = client.post("/api/events", json={"name": "Open", "format": "type1e"}).json()
        url = f"/api/events/{event['id']}/decks"
        client.post(url, json={"player": "A", "decklist": LEGAL})
        r = client.post(url, json={"player": "B", "decklist": LEGAL})
        assert r.status_code == 429 and int(r.headers["retry-after"]) > 60
        assert "a minute" not in r.json()["error"] and re.search(r"wait \d+ min", r.json()["error"])
        page = client.post(f"/desk/{event['id']}", data={"player": "C", "decklist": LEGAL,
                                                         "csrf_token": csrf_of(client)})
        assert page.status_code == 429 and int(page.headers["retry-after"]) > 60


@pytest.mark.parametrize("text", ["x", "-1/60", "5/0", "5/x", "5/100000"])
def test_a_bad_rate_is_refused(text):
    with pytest.raises(RateError, match="SECONDS"):
        Rate.parse(text, "$X")
    with pytest.raises(SettingsError, match="--check-rate"):
        Settings.from_env({CHECK_RATE_ENV: text})


# -- protocol details ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("path", ["/", "/healthz", "/cards", "/collection", "/desk", "/api/formats", "/api"])
def test_head_answers_every_get(client, path):
    got = client.get(path)
    head = client.head(path)
    assert head.status_code == got.status_code == 200
    assert head.content == b"" and head.headers["content-type"] == got.headers["content-type"]
    assert has_security_headers(head)


@pytest.mark.parametrize("method, path, allow", [("GET", "/api/check", "POST"), ("PUT", "/", "GET, HEAD"),
                                                 ("DELETE", "/api/events", "POST"),
                                                 ("POST", "/healthz", "GET, HEAD")])
def test_405_says_which_methods_are_allowed(client, method, path, allow):
    r = client.request(method, path)
    assert r.status_code == 405 and r.headers["allow"] == allow and has_security_headers(r)


def test_401_asks_for_a_bearer_token(client):
    event = client.post("/api/events", json={"name": "Open", "format": "type1e"}).json()
    r = client.get(f"/api/events/{event['id']}/decks")
    assert r.status_code == 401 and r.headers["www-authenticate"].startswith("Bearer")


def test_the_middlewares_own_answers_carry_the_security_headers(web_db):
    with TestClient(create_app(db_url=web_db, upload_limit=1024)) as client:
        r = client.post("/api/check", content=b"x" * 2048, headers={"content-type": "application/json"})
        assert r.status_code == 413 and has_security_headers(r)
        r = client.post("/api/check", content=b"{}", headers={"content-type": "application/json",
                                                              "content-length": "abc"})
        assert r.status_code == 400 and has_security_headers(r)
        r = client.post("/check", content=b"x" * 2048, headers={"content-type": "text/plain",
                                                                "HX-Request": "true", "HX-Target": "reports"})
        assert r.status_code == 413 and has_security_headers(r) and r.headers["hx-retarget"] == "#reports"


def test_a_500_closes_the_connection(web_db):
    app = create_app(db_url=web_db)

    @app.get("/boom")
    def boom():
        raise RuntimeError("a bug")

    with TestClient(app, raise_server_exceptions=False) as client:
        r = client.get("/boom")
        assert r.status_code == 500 and r.headers["connection"] == "close" and has_security_headers(r)


def test_a_fix_with_a_line_number_of_thousands_of_digits_is_400(client):
    r = client.post("/check", data={"decklist": "1 Thrust\n", "fix": "9" * 5000 + "|Lunge"})
    assert r.status_code == 400 and "fix" in r.text and "9" * 100 not in r.text


# -- the admin token off the command line ----------------------------------------------------------------------
def test_the_admin_token_comes_from_a_file(tmp_path, capsys):
    path = tmp_path / "token"
    path.write_text("s3cret-token\n")
    path.chmod(0o600)
    settings = Settings.from_env({"DECKCHECK_ADMIN_TOKEN_FILE": str(path)})
    assert settings.admin_token == "s3cret-token" and capsys.readouterr().err == ""
    assert Settings.from_env({}, admin_token_file=str(path)).admin_token == "s3cret-token"
    # the workers get the token, not the file (which may be gone by then)
    env = settings.as_env()
    assert env["DECKCHECK_ADMIN_TOKEN"] == "s3cret-token" and env["DECKCHECK_ADMIN_TOKEN_FILE"] is None
    assert Settings.from_env({"DECKCHECK_ADMIN_TOKEN": "from-env"}).admin_token == "from-env"


@pytest.mark.parametrize("content, message", [(b"", "holds the token alone"), (b"two words\n", "without spaces"),
                                              (b"\xff\xfe", "not UTF-8"), (b"x" * 5000, "at most 4096")])
def test_a_bad_token_file_is_refused(tmp_path, content, message):
    path = tmp_path / "token"
    path.write_bytes(content)
    with pytest.raises(SettingsError, match=message):
        Settings.make(admin_token_file=str(path))
    with pytest.raises(SettingsError, match="No such file"):
        Settings.make(admin_token_file=str(tmp_path / "missing"))


def test_two_different_tokens_are_refused(tmp_path):
    path = tmp_path / "token"
    path.write_text("one")
    with pytest.raises(SettingsError, match="given twice"):
        Settings.from_env({"DECKCHECK_ADMIN_TOKEN": "two"}, admin_token_file=str(path))
    assert Settings.from_env({"DECKCHECK_ADMIN_TOKEN": "one"}, admin_token_file=str(path)).admin_token == "one"


def test_a_token_file_others_can_read_is_warned_about(tmp_path, capsys):
    path = tmp_path / "token"
    path.write_text("tok")
    path.chmod(0o644)
    Settings.make(admin_token_file=str(path))
    assert "chmod 600" in capsys.readouterr().err


# -- saved-deck ids: only where their owner sees them ------------------------------------------------------------
@pytest.fixture(scope="module")
def decks_db(tmp_path_factory) -> str:
    from deckcheck.library.api import CollectionApp
    from conftest import ROOT
    url = f"sqlite:///{tmp_path_factory.mktemp('keeper') / 'decks.db'}"
    library = CollectionApp(url)
    library.import_sheet(ROOT / "examples/collection/my-binder.csv")
    library.save_deck("SeCrEtDeCk1", str(ROOT / "examples/decks/type1e-connor-legal.txt"))
    return url


PERSONA = "SE-connor-macleod-persona"


def deck_ids_seen(client, headers=None) -> list[str]:
    headers = headers or {}
    texts = [client.get(f"/cards/{PERSONA}", headers=headers).text, client.get("/collection", headers=headers).text,
             client.get(f"/api/cards/{PERSONA}", params={"detail": "true"}, headers=headers).text,
             client.get("/api/collection/missing", headers=headers).text]
    return [t for t in texts if "SeCrEtDeCk1" in t]


@pytest.mark.parametrize("address", ["192.168.1.30", "10.0.0.7", "testclient"])
def test_a_personal_servers_saved_decks_are_not_listed_to_others(decks_db, address):
    with TestClient(create_app(db_url=decks_db), client=(address, 50000)) as client:
        assert deck_ids_seen(client) == []
        page = client.get(f"/cards/{PERSONA}").text
        assert "1 saved deck uses it" in page and "keeper only" in page
        missing = client.get("/api/collection/missing").json()
        assert missing["decks"] == {} and missing["together"]  # what all the decks need together still shows
        assert "over 1 saved deck" in client.get("/collection").text


@pytest.mark.parametrize("address", ["127.0.0.1", "::1"])
def test_the_user_at_a_personal_server_sees_the_saved_decks(decks_db, address):
    with TestClient(create_app(db_url=decks_db), client=(address, 50000)) as client:
        assert len(deck_ids_seen(client)) == 4


def test_a_club_servers_saved_decks_are_listed_to_the_admin_token_only(decks_db):
    app = create_app(db_url=decks_db, admin_token="club-admin-token")
    with TestClient(app, client=("127.0.0.1", 50000)) as client:
        assert deck_ids_seen(client) == []  # on the club's machine too: the token is what counts
        assert deck_ids_seen(client, {"Authorization": "Bearer wrong"}) == []
        assert len(deck_ids_seen(client, {"Authorization": "Bearer club-admin-token"})) == 4


# -- the work of one check is bounded -------------------------------------------------------------------------
def test_a_list_of_thousands_of_unknown_names_is_bounded(client):
    from deckcheck.decks import SUGGESTED_LINES_MAX, UNREADABLE_LINES_MAX
    text = "1 Uper Left Atack\n" * 3000
    report = client.post("/api/check", json={"decklist": text, "format": "type1e"}).json()
    assert len(report["input_errors"]) == UNREADABLE_LINES_MAX
    assert sum(1 for e in report["input_errors"] if e["suggestions"]) <= SUGGESTED_LINES_MAX
    assert report["input_errors"][0]["suggestions"]  # the first ones still get theirs
    notices = " ".join(report["notices"])
    assert f"first {SUGGESTED_LINES_MAX} unknown names only" in notices
    assert f"reading stopped at line {UNREADABLE_LINES_MAX}" in notices and "2,000 lines after it" in notices
    page = client.post("/check", data={"decklist": text, "format": "type1e"})
    assert page.status_code == 200 and page.text.count('class="problem"') == 500 and "500 more" in page.text


def test_a_deck_with_a_few_unknown_names_is_not_cut(client):
    text = "1 Uper Left Atack\n" * 20
    report = client.post("/api/check", json={"decklist": text, "format": "type1e"}).json()
    assert len(report["input_errors"]) == 20 and not any("bound" in n for n in report["notices"])


def test_one_rate_syntax_for_every_limiter():
    """The guard's, the desk's and the answers' limits are one Rate, read by one parser with one set of bounds."""
    from deckcheck.library.desk import RateLimit
    from deckcheck.web import facts, guard
    assert RateLimit is Rate and guard.Rate is Rate and isinstance(facts.ANSWER_RATE, Rate)
    for flag, field in (("--desk-rate", "desk_rate"), ("--check-rate", "check_rate"), ("--event-rate", "event_rate")):
        for text in ("x", "5/100000", "-1/60"):
            with pytest.raises(SettingsError, match=flag):
                Settings.make(**{field: text})


def test_host_names_are_matched_by_starlettes_trusted_host(monkeypatch):
    """Names and *.example.org are TrustedHostMiddleware's to match; only "any IP address on 0.0.0.0" is ours."""
    from deckcheck.web import guard

    class Nobody(guard.TrustedHostMiddleware):
        def __init__(self, app, allowed_hosts=None, www_redirect=True):
            super().__init__(app, allowed_hosts=["nobody.invalid"], www_redirect=False)
    guard._trusted_host.cache_clear()
    with monkeypatch.context() as patch:
        patch.setattr(guard, "TrustedHostMiddleware", Nobody)
        assert not host_allowed("localhost", ("localhost",)) and not host_allowed("a.example.org", ("*.example.org",))
        assert host_allowed("192.168.1.20", ("0.0.0.0", "localhost"))  # our one rule, not Starlette's
        guard._trusted_host.cache_clear()
    assert host_allowed("localhost", ("localhost",)) and host_allowed("[::1]".strip("[]"), ("::1",))
    assert not host_allowed("evilexample.org", ("*.example.org",)) and host_allowed("a.example.org", ("*.example.org",))
