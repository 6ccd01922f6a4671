"""The JSON API of CONTRACTS §6: /healthz and /api/check, which answers exactly what `deckcheck check --json` does."""
from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
SHEETS = {"examples/cards/type2-my-cards.txt": ("examples/cards/my-2e-cards.csv",),
          "examples/other-games/raven-group.txt": ("examples/other-games/raven-stormcrow-cards.csv",),
          "examples/other-games/raven-group-illegal.txt": ("examples/other-games/raven-stormcrow-cards.csv",),
          "examples/other-games/taktik52-table.txt": ("examples/other-games/taktik52-heroes.csv",),
          "examples/other-games/taktik52-table-illegal.txt": ("examples/other-games/taktik52-heroes.csv",)}
EXAMPLE_DECKS = sorted([f"examples/decks/{p.name}" for p in (EXAMPLES / "decks").iterdir()] + list(SHEETS))
EXE = str(Path(sys.executable).with_name("deckcheck"))


def cli_reports(args: list[str], db: str, stdin: str | None = None) -> list[dict]:
    r = subprocess.run([EXE, "check", *args, "--json", "--db", db], cwd=ROOT, capture_output=True, text=True,
                       input=stdin, env=dict(os.environ, COLUMNS="120"))
    assert r.returncode in (0, 1, 2), r.stderr
    return [json.loads(line) for line in r.stdout.splitlines()]


@pytest.fixture(scope="module")
def databases(tmp_path_factory, web_db):
    """A database per set of card sheets the example decks need: a copy of the web database plus the sheets."""
    import shutil

    from deckcheck.db.store import Store
    from deckcheck.importers.cardsheet import read_card_sheet
    out: dict[tuple[str, ...], str] = {(): web_db}
    for sheets in set(SHEETS.values()):
        path = tmp_path_factory.mktemp("sheets") / "cards.db"
        shutil.copy(web_db.removeprefix("sqlite:///"), path)
        store = Store(f"sqlite:///{path}")
        for sheet in sheets:
            store.import_cards(read_card_sheet(ROOT / sheet).cards, Path(sheet).name)
        store.dispose()
        out[sheets] = store.url
    return out


@pytest.fixture(scope="module")
def cli_answers(databases) -> dict[str, dict]:
    """`deckcheck check --json` on every example deck: one run per database."""
    answers: dict[str, dict] = {}
    for sheets, db in databases.items():
        decks = [d for d in EXAMPLE_DECKS if SHEETS.get(d, ()) == sheets]
        reports = cli_reports(decks, db)
        assert [r["deck"] for r in reports] == decks
        answers.update(zip(decks, reports, strict=True))
    return answers


@pytest.fixture(scope="module")
def clients(databases):
    """A TestClient per database, each on an app of its own."""
    from fastapi.testclient import TestClient

    from deckcheck.web import create_app
    with contextlib.ExitStack() as stack:
        yield {sheets: stack.enter_context(TestClient(create_app(db_url=db))) for sheets, db in databases.items()}


def test_healthz(client):
    r = client.get("/healthz")
    assert r.status_code == 200 and r.json() == {"status": "ok"}


@pytest.mark.parametrize("deck", EXAMPLE_DECKS)
def test_api_check_upload_equals_cli(deck, cli_answers, clients):
    """Every example deck uploaded under its own name: the body is the CLI's --json object for that file."""
    r = clients[SHEETS.get(deck, ())].post("/api/check", files={"file": (deck, (ROOT / deck).read_bytes())})
    assert r.status_code == 200, r.text
    assert r.json() == cli_answers[deck]


@pytest.mark.parametrize("deck", ["examples/decks/type1e-kurgan-illegal.txt", "examples/decks/type1e-typo.txt",
                                  "examples/other-games/taktik52-table.txt"])
def test_api_check_pasted_text_equals_cli_stdin(deck, databases, clients):
    """The same decklist as JSON text, and as a form field, equals `deckcheck check -` reading it from stdin."""
    sheets = SHEETS.get(deck, ())
    text = (ROOT / deck).read_text(encoding="utf-8")
    expected = cli_reports(["-"], databases[sheets], stdin=text)[0]
    as_json = clients[sheets].post("/api/check", json={"decklist": text})
    as_form = clients[sheets].post("/api/check", data={"decklist": text})
    assert as_json.status_code == as_form.status_code == 200
    assert as_json.json() == as_form.json() == expected


def test_format_parameter_overrides_the_deck(client, web_db):
    text = (EXAMPLES / "decks/type1e-connor-legal.txt").read_text()
    got = client.post("/api/check", json={"decklist": text, "format": "type2"}).json()
    assert got == cli_reports(["-", "--format", "type2"], web_db, stdin=text)[0]
    assert got["format"] == "type2"


def test_unknown_format_is_the_decks_input_error(client):
    """As with --json, an unreadable deck still gets its report: the cause is in input_errors (200)."""
    r = client.post("/api/check", json={"decklist": "1 Thrust", "format": "type9"})
    assert r.status_code == 200
    body = r.json()
    assert body["legal"] is None and body["input_errors"][0]["line"] is None
    assert "unknown format 'type9'" in body["input_errors"][0]["message"]


def test_unreadable_upload_is_a_report_naming_the_upload(client):
    r = client.post("/api/check", files={"file": ("deck.json", b"{not json")})
    assert r.status_code == 200
    body = r.json()
    assert body["deck"] == "deck.json" and body["legal"] is None
    assert body["input_errors"][0]["message"].startswith("deck.json")
    assert "deckcheck-upload" not in json.dumps(body)  # the temporary file is never named


@pytest.mark.parametrize("name", ["../../../../tmp/evil.txt", "/etc/passwd", "..\\..\\win.csv"])
def test_upload_names_are_labels_not_paths(client, name, tmp_path):
    r = client.post("/api/check", files={"file": (name, b"1 Thrust\n")})
    assert r.status_code == 200
    assert r.json()["deck"] == name.replace("\x00", "")
    assert not Path("/tmp/evil.txt").exists()


@pytest.mark.parametrize("request_kwargs, message", [
    ({"content": b"{", "headers": {"content-type": "application/json"}}, "not valid JSON"),
    # nested past Python's parser, which raises RecursionError rather than ValueError
    ({"content": b"[" * 5_000, "headers": {"content-type": "application/json"}}, "nested too deep"),
    ({"json": ["1 Thrust"]}, "JSON body is an object"),
    ({"json": {"decklist": 5}}, "are strings"),
    ({"json": {}}, "no decklist"),
    ({"data": {"format": "type1e"}}, "no decklist"),
    ({"content": b"1 Thrust", "headers": {"content-type": "text/plain"}}, "multipart/form-data"),
])
def test_malformed_requests_are_400_with_an_error(client, request_kwargs, message):
    r = client.post("/api/check", **request_kwargs)
    assert r.status_code == 400
    assert message in r.json()["error"]


def test_several_decks_in_one_file_are_400(client):
    r = client.post("/api/check", files={"file": ("registration.csv", (EXAMPLES / "tournament/registration.csv")
                                                  .read_bytes())})
    assert r.status_code == 400 and "decks" in r.json()["error"]


def test_body_over_the_limit_is_413_before_it_is_read(client):
    """The app under test has a 64 KiB limit: a declared length over it is refused at once."""
    big = b"1 Thrust\n" * 10_000
    r = client.post("/api/check", files={"file": ("big.txt", big)})
    assert r.status_code == 413 and "limit" in r.json()["error"]
    r = client.post("/api/check", json={"decklist": "1 Thrust\n" * 10_000})
    assert r.status_code == 413


def test_chunked_body_over_the_limit_is_413_while_reading(client):
    """Without a Content-Length the body is counted as it arrives, and refused at the first chunk past the limit."""
    r = client.post("/api/check", content=(b"x" * 4096 for _ in range(100)),
                    headers={"content-type": "application/json"})
    assert r.status_code == 413


def test_body_limit_stops_reading_at_the_first_chunk_past_it():
    """The middleware itself, fed 4 KiB chunks with no Content-Length: it pulls 3 chunks of a 10 KiB limit, not 100."""
    import asyncio

    from deckcheck.web.security import BodyLimit
    pulled, sent = [], []

    async def reader(scope, receive, send):  # an app that reads the whole body, then answers 200
        while (await receive()).get("more_body"):
            pass
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"read it all"})

    async def receive():
        pulled.append(1)
        return {"type": "http.request", "body": b"x" * 4096, "more_body": len(pulled) < 100}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "path": "/api/check", "headers": [(b"content-type", b"application/json")]}
    asyncio.run(BodyLimit(reader, limit=10 * 1024)(scope, receive, send))
    assert sent[0]["status"] == 413 and len(pulled) == 3
    assert b"limit" in sent[1]["body"]


@pytest.mark.parametrize("length", [b"1\xb2", b"\xb9\xb2"])  # "1²", "¹²" in latin-1: str.isdigit() takes them
def test_body_limit_answers_a_content_length_of_unicode_digits_400(length):
    """The middleware itself, given a Content-Length that is digits only to Unicode: 400, never a 500 from int()."""
    import asyncio

    from deckcheck.web.security import BodyLimit
    sent: list = []

    async def never(scope, receive, send):
        raise AssertionError("the app was reached")

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "path": "/api/check", "headers": [(b"content-length", length)]}
    asyncio.run(BodyLimit(never, limit=10 * 1024)(scope, receive, send))
    assert sent[0]["status"] == 400 and b"Content-Length" in sent[1]["body"]


def test_html_form_over_the_limit_is_an_html_413(client):
    r = client.post("/check", files={"file": ("big.txt", b"x" * 70_000)})
    assert r.status_code == 413 and r.headers["content-type"].startswith("text/html")


def test_formats_api_lists_rules(client):
    formats = client.get("/api/formats").json()
    names = {f["name"] for f in formats}
    assert {"type1e", "type2", "raven-stormcrow", "taktik52"} <= names
    type1e = next(f for f in formats if f["name"] == "type1e")
    assert "1e" in type1e["aliases"]
    assert {"id": "HL-DECK-MIN", "severity": "error"}.items() <= type1e["rules"][0].items()
    assert all(set(r) >= {"id", "severity", "text"} for f in formats for r in f["rules"])


def test_unknown_api_path_is_a_json_404(client):
    r = client.get("/api/nothing")
    assert r.status_code == 404 and "error" in r.json()


def test_security_headers(client):
    r = client.get("/")
    assert "script-src 'self'" in r.headers["content-security-policy"]
    assert r.headers["x-content-type-options"] == "nosniff"


def test_a_bug_in_an_endpoint_is_still_the_apis_json_error(web_db, monkeypatch):
    """Never a bare text 500: a program reading the API gets {"error"}; a person gets a page."""
    from fastapi.testclient import TestClient

    from deckcheck.web import create_app
    from deckcheck.web import formats

    def broken() -> list:
        raise RuntimeError("a bug")

    monkeypatch.setattr(formats, "formats_data", broken)
    with TestClient(create_app(db_url=web_db), raise_server_exceptions=False) as client:
        r = client.get("/api/formats")
        assert r.status_code == 500
        assert r.json() == {"error": "an internal error; it was logged for the server's keeper"}
        page = client.get("/formats")
        assert page.status_code == 500 and "internal error" in page.text and "a bug" not in page.text
        for response in (r, page):
            assert response.headers["x-content-type-options"] == "nosniff"
            assert "script-src 'self'" in response.headers["content-security-policy"]


def test_a_bug_in_a_live_update_is_shown_in_its_place(web_db, monkeypatch):
    """A 500 to a live update is marked like a 4xx (htmx would drop it, and the page would look as if nothing
    happened), and still says nothing of the bug."""
    from fastapi.testclient import TestClient

    from deckcheck.web import checkinput, create_app

    def broken(*args, **kwargs) -> list:
        raise RuntimeError("a bug")
    monkeypatch.setattr(checkinput, "check_input", broken)
    with TestClient(create_app(db_url=web_db), raise_server_exceptions=False) as client:
        r = client.post("/check", data={"decklist": "1 Thrust"}, headers={"HX-Request": "true", "HX-Target": "reports"})
        assert r.status_code == 500 and r.headers["hx-retarget"] == "#reports"
        assert r.text.startswith('<div id="reports" role="alert">') and "internal error" in r.text
        assert "a bug" not in r.text and r.headers["x-content-type-options"] == "nosniff"
        page = client.post("/check", data={"decklist": "1 Thrust"})
        assert page.status_code == 500 and "hx-retarget" not in page.headers


def test_a_live_update_over_the_limit_gets_its_error_where_the_report_goes(client):
    """htmx shows no 4xx answer unless marked: an update of the checker (or its report) over the limit gets the
    413 as the report's part of the page, with HX-Retarget; a plain form post gets a whole page for a phone."""
    big = {"decklist": "1 Thrust\n" * 10_000}
    for target in ("checker", "reports"):
        r = client.post("/check", data=big, headers={"HX-Request": "true", "HX-Target": target})
        assert r.status_code == 413 and r.headers["hx-retarget"] == "#reports" and r.headers["hx-reswap"] == "outerHTML"
        assert r.text.startswith('<div id="reports" role="alert">') and "64 KB (65,536 bytes)" in r.text
    page = client.post("/check", data=big)
    assert page.status_code == 413 and "hx-retarget" not in page.headers
    assert '<meta name="viewport"' in page.text and "/static/style.css" in page.text
    other = client.post("/check", data=big, headers={"HX-Request": "true", "HX-Target": "desk-table"})
    assert "hx-retarget" not in other.headers  # only the parts this app's pages know


def test_a_refused_live_update_is_shown_in_its_place(client):
    r = client.get("/cards", params={"limit": 0}, headers={"HX-Request": "true", "HX-Target": "results"})
    assert r.status_code == 400 and r.headers["hx-retarget"] == "#results"
    assert r.text.startswith('<div id="results" role="alert">') and "limit" in r.text
    r = client.get("/cards", params={"limit": 0})
    assert r.status_code == 400 and "<html" in r.text and "hx-retarget" not in r.headers


def test_an_xlsx_decklist_upload_equals_the_cli(client, web_db, tmp_path):
    """§2's XLSX form (no example deck is one): the sheet of the CSV example, uploaded, is what the CLI says."""
    import csv

    from openpyxl import Workbook
    book = Workbook()
    sheet = book.active
    with open(EXAMPLES / "decks/type1e-richie-ryan.csv", encoding="utf-8", newline="") as f:
        for row in csv.reader(f):
            sheet.append([int(cell) if cell.isdigit() else cell for cell in row])
    path = tmp_path / "richie.xlsx"
    book.save(path)
    expected = cli_reports([str(path)], web_db)[0]
    got = client.post("/api/check", files={"file": (str(path), path.read_bytes())})
    assert got.status_code == 200 and got.json() == expected
    assert expected["legal"] is not None and expected["counts"]["Endurance"] > 0


@pytest.mark.parametrize("suffix", [".txt", ".csv"])
def test_a_long_deck_file_name_is_read_by_its_suffix(client, suffix):
    """An uploaded decklist named past the label's 200 characters is read as its suffix says (issue 28)."""
    name = "d" * 250 + suffix
    data = b"1 Thrust\n" if suffix == ".txt" else b"quantity,name\n1,Thrust\n"
    r = client.post("/api/check", files={"file": (name, data)})
    body = r.json()
    assert r.status_code == 200 and not body.get("input_errors"), body
    assert body["deck"].endswith(suffix) and len(body["deck"]) <= 200
