"""The pages for people: the check form without JavaScript, htmx fragments, fixing lines, saving, escaping, CSRF."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from deckcheck.web.check import apply_fix

ROOT = Path(__file__).resolve().parents[2]
TYPO = (ROOT / "examples/decks/type1e-typo.txt").read_text()
TEMPLATES = ROOT / "web/templates"


def test_check_page_is_a_plain_form(client):
    r = client.get("/")
    assert r.status_code == 200
    page = r.text
    assert '<form class="checker" action="/check" method="post" enctype="multipart/form-data"' in page
    assert 'name="decklist"' in page and 'name="file"' in page and 'name="format"' in page
    assert '<option value="type2">' in page
    assert "/static/htmx.min.js" in page and "https://" not in page  # nothing from the internet


def test_static_htmx_and_its_licence_are_served(client):
    assert client.get("/static/htmx.min.js").status_code == 200
    assert "Permission to use, copy, modify" in client.get("/static/htmx-LICENSE.txt").text
    assert "--legal" in client.get("/static/style.css").text


def test_posting_the_form_shows_the_report_and_keeps_the_text(client):
    text = (ROOT / "examples/decks/type1e-kurgan-illegal.txt").read_text()
    r = client.post("/check", data={"decklist": text, "format": ""})
    assert r.status_code == 200
    assert 'class="report illegal"' in r.text and "Not legal" in r.text
    assert "HL-TITLE-MAX" in r.text or "HL-" in r.text
    assert "Kurgan" in r.text
    assert "<textarea" in r.text and "Kurgan Persona" in r.text.split("<textarea", 1)[1].split("</textarea>")[0]
    assert '<svg class="grid"' in r.text


def test_htmx_request_gets_only_the_fragment_it_targets(client):
    headers = {"HX-Request": "true", "HX-Target": "reports"}
    r = client.post("/check", data={"decklist": "1 Thrust"}, headers=headers)
    assert r.text.lstrip().startswith('<div id="reports"') and "<html" not in r.text
    r = client.post("/check", data={"decklist": "1 Thrust"}, headers={"HX-Request": "true", "HX-Target": "checker"})
    assert r.text.lstrip().startswith('<div id="checker"') and "<textarea" in r.text


def test_upload_through_the_page_lands_in_the_text_box(client):
    r = client.post("/check", files={"file": ("connor.txt", (ROOT / "examples/decks/type1e-connor-legal.txt")
                                              .read_bytes())}, data={"decklist": ""})
    assert 'class="report legal"' in r.text
    assert "Read from <b>connor.txt</b>" in r.text
    assert "Connor MacLeod" in r.text.split("<textarea", 1)[1].split("</textarea>")[0]


def test_input_errors_offer_suggestions_that_rewrite_the_line(client):
    r = client.post("/check", data={"decklist": TYPO})
    assert 'class="report unchecked"' in r.text
    buttons = re.findall(r'<button type="submit" name="fix" value="([^"]+)"', r.text)
    assert "4|Upper Left Attack" in buttons
    r = client.post("/check", data={"decklist": TYPO, "fix": "4|Upper Left Attack"})
    box = r.text.split("<textarea", 1)[1].split("</textarea>")[0]
    assert "3 Upper Left Attack\n" in box.replace("\r\n", "\n") and "Uper" not in box


@pytest.mark.parametrize("text, fix, expected", [
    ("a\n3 Uper Left Attack\nb", "2|Upper Left Attack", "a\n3 Upper Left Attack\nb"),
    ("2x Back Away [ME]\r\n", "1|Connor MacLeod Back Away", "2x Connor MacLeod Back Away [ME]\r\n"),
    ("Thrustt x3\n", "1|Thrust", "Thrust x3\n"),
    ("1 Thrust\n", "9|Thrust", "1 Thrust\n"),          # no such line: nothing changes
    ("1 Thrust\n", "x|Thrust", "1 Thrust\n"),
    ("1 Thrust\n", "\u00b9|Lunge", "1 Thrust\n"),         # a superscript one: a digit to str.isdigit, not to int()
    ("1 Thrust\n", "1|two\nlines", "1 Thrust\n"),
    # several lines at once (a card that several lines name), each keeping its quantity; a bad number: none
    ("3 Thrustt\nx\n1 Thrustt\n", "1,3|Thrust", "3 Thrust\nx\n1 Thrust\n"),
    ("3 Thrustt\n1 Thrustt\n", "1,1,2|Thrust", "3 Thrust\n1 Thrust\n"),
    ("3 Thrustt\n1 Thrustt\n", "1,3|Thrust", "3 Thrustt\n1 Thrustt\n"),
    ("3 Thrustt\n1 Thrustt\n", "1,|Thrust", "3 Thrustt\n1 Thrustt\n"),
    # a row of a pasted table keeps its cells (it became `3 Thrust`, which no table row is)
    ("Qty\tName\tSet\n3\tThrustt\tME\n", "2|Thrust", "Qty\tName\tSet\n3\tThrust\tME\n"),
    ("Quantity,Card Name,Set\r\n3,Thrustt,\r\n", "2|Thrust [ME]", "Quantity,Card Name,Set\r\n3,Thrust,ME\r\n"),
    ("Qty;Card\n3;\"Up and at Em\"\n", "2|Up and at 'Em", "Qty;Card\n3;Up and at 'Em\n"),
    ("| Qty | Card |\n|---|---|\n| 3 | Thrustt |\n", "3|Thrust", "| Qty | Card |\n|---|---|\n| 3 | Thrust |\n"),
])
def test_apply_fix(text, fix, expected):
    assert apply_fix(text, fix) == expected


def test_a_fix_with_an_odd_line_number_leaves_the_deck_as_it_was(client):
    r = client.post("/check", data={"decklist": "1 Thrust\n", "fix": "\u00b2|Lunge"})
    assert r.status_code == 200 and "1 Thrust" in r.text.split("<textarea", 1)[1].split("</textarea>")[0]


def test_user_text_is_escaped_everywhere(client):
    nasty = '<img src=x onerror=alert(1)>'
    r = client.post("/check", data={"decklist": f"Format: type1e\n2 {nasty}\n<script>alert(2)</script>:\n"})
    assert nasty not in r.text and "<script>alert" not in r.text
    assert "&lt;img src=x onerror=alert(1)&gt;" in r.text
    r = client.post("/check", files={"file": (f"{nasty}.txt", b"1 Thrust")})
    assert nasty not in r.text


def test_saving_needs_the_csrf_token(client, csrf):
    text = (ROOT / "examples/decks/type1e-connor-legal.txt").read_text()
    r = client.post("/decks", data={"decklist": text}, follow_redirects=False)
    assert r.status_code == 403
    r = client.post("/decks", data={"decklist": text, "csrf_token": "x" * 43}, follow_redirects=False)
    assert r.status_code == 403


def test_save_gives_a_short_link_that_shows_the_deck_and_its_report(client, csrf):
    text = (ROOT / "examples/decks/type1e-connor-legal.txt").read_text()
    r = client.post("/decks", data={"decklist": text, "csrf_token": csrf}, follow_redirects=False)
    assert r.status_code == 303
    link = r.headers["location"]
    assert re.fullmatch(r"/decks/[A-Za-z0-9_-]{8}", link)
    page = client.get(link)
    assert page.status_code == 200 and 'class="report legal"' in page.text
    assert "Connor MacLeod Persona" in page.text
    again = client.get("/", params={"deck": link.rsplit("/", 1)[1]})
    assert "Connor MacLeod Persona" in again.text.split("<textarea", 1)[1]


def test_a_deck_with_input_errors_is_not_saved_and_the_text_stays(client, csrf):
    """Not saved, and said why on the check page itself: the text stays in the box with its report."""
    r = client.post("/decks", data={"decklist": TYPO, "csrf_token": csrf}, follow_redirects=False)
    assert r.status_code == 400
    assert 'role="alert">Not saved: the decklist has input errors; fix them before saving.' in r.text
    box = r.text.split("<textarea", 1)[1].split("</textarea>")[0]
    assert "3 Uper Left Attack" in box
    assert 'class="report unchecked"' in r.text and "4|Upper Left Attack" in r.text  # the fixes are offered


def test_save_straight_from_a_chosen_text_file(client, csrf):
    connor = (ROOT / "examples/decks/type1e-connor-legal.txt").read_bytes()
    r = client.post("/decks", data={"decklist": "", "csrf_token": csrf}, files={"file": ("connor.txt", connor)},
                    follow_redirects=False)
    assert r.status_code == 303
    assert "Connor MacLeod Persona" in client.get(r.headers["location"]).text
    r = client.post("/decks", data={"decklist": "", "csrf_token": csrf},
                    files={"file": ("methos.json", (ROOT / "examples/decks/type1e-methos.json").read_bytes())},
                    follow_redirects=False)
    assert r.status_code == 400 and "check the file, then save the text" in r.text


@pytest.mark.parametrize("link", ["/decks/nope-nope", "/decks/..%2F..%2Fetc", "/decks/" + "a" * 40])
def test_unknown_deck_links_are_404(client, link):
    assert client.get(link).status_code == 404


def test_formats_page_lists_every_rule(client):
    page = client.get("/formats").text
    for fmt in client.get("/api/formats").json():
        assert f'id="{fmt["name"]}"' in page
        for rule in fmt["rules"]:
            assert f'id="{fmt["name"]}-{rule["id"]}"' in page


def test_api_page_describes_the_endpoints(client):
    page = client.get("/api").text
    assert "/api/check" in page and "/api/formats" in page and "/healthz" in page


def test_docs_leads_to_the_api_page_and_the_schema_is_served(client):
    """Issue 12 names /docs for the OpenAPI documentation; FastAPI's page would load scripts from a CDN."""
    r = client.get("/docs", follow_redirects=False)
    assert r.status_code == 308 and r.headers["location"] == "/api"
    assert "https://" not in client.get("/docs").text
    schema = client.get("/openapi.json").json()
    assert "/api/check" in schema["paths"] and "/docs" not in schema["paths"]


def visible_text(markup: str) -> str:
    """The text a reader sees in a piece of a page: tags dropped, entities read, spaces folded."""
    import html
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def folded(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("path", sorted((ROOT / "examples/decks").iterdir()), ids=lambda p: p.name)
def test_the_page_shows_all_that_the_report_holds(client, path):
    """The check page is the terminal's report: verdict, format, persona, counts, every issue with its rule, cards,
    limit, actual and fix, every input error at its line with its suggestions, every notice; for each example
    deck, compared with /api/check (which is the CLI's --json, test_web_api)."""
    upload = {"file": (path.name, path.read_bytes())}
    report = client.post("/api/check", files=upload).json()
    page = client.post("/check", files=upload, data={"decklist": ""}).text
    verdict = {True: "legal", False: "illegal", None: "unchecked"}[report["legal"]]
    start = page.index(f'<section class="report {verdict}">')
    shown = visible_text(page[start:page.index('<section class="stats-panel"', start) if "stats-panel" in page
                              else page.index("</main>")])
    assert folded(report["format"] or "no format") in shown
    if report["persona"] and report["legal"] is not None:
        assert report["persona"] in shown
    for section, n in report["counts"].items():
        assert f"{section} {n}" in shown
    for issue in report["issues"]:
        if issue["rule"] == "HL-DATA-UNKNOWN":  # one entry: its unverified group, with its cards and the form
            rule = issue["message"].split(" ", 1)[0]
            assert rule in report["unverified"] and rule in shown and "HL-DATA-UNKNOWN" not in shown, issue
            assert "Fill in from the cards in your hand" in shown and "deckcheck cards" not in shown
            assert all(card in shown for card in issue.get("cards", [])), issue
            continue
        assert issue["rule"] in shown and folded(issue["message"]) in shown, issue
        limit, actual = issue.get("limit"), issue.get("actual")
        if limit is not None or actual is not None:
            assert f"limit {'—' if limit is None else limit} · actual {'—' if actual is None else actual}" in shown
        if issue["rule"] == "HL-DATA-UNKNOWN":  # the page links to the fill-in form, never to a command
            assert "Fill in from the cards in your hand" in shown and "deckcheck cards" not in shown
        elif issue.get("fix"):
            assert f"Fix: {folded(issue['fix'])}" in shown
        assert all(card in shown for card in issue.get("cards", [])), issue
    for error in report["input_errors"]:
        where = "file" if error["line"] is None else f"line {error['line']}"
        assert f"{where} {folded(error['text'])} {folded(error['message'])}" in shown, error
        assert all(s in shown for s in error["suggestions"]), error
    for notice in report.get("notices", []):
        assert folded(notice) in shown, notice
    if report["unverified"] and report["legal"] is not None:
        n = len(report["unverified"])
        assert f"{n} rule{'s' if n != 1 else ''} unverified" in shown


def test_formats_page_shows_each_formats_limits(client):
    """Issue 24: a format's numbers are sentences a player reads ("At most 1 Watcher Pre-Game card"), never
    parameter names; each rule is its sentence with its id beside it."""
    from deckcheck.games import game_named
    from deckcheck.web.formats import limit_sentence
    page = client.get("/formats").text
    assert "_max" not in visible_text(page) and "_min" not in visible_text(page)
    for fmt in client.get("/api/formats").json():
        start = page.index(f'<section class="panel format" id="{fmt["name"]}"')
        section = page[start:page.index("</section>", start)]
        assert fmt["limits"], fmt["name"]
        for key, value in fmt["limits"].items():
            words = game_named(fmt["game"]).limit_words
            assert key in words, (fmt["name"], key)  # each built-in game words its numbers
            said = html_escape(limit_sentence(key, value, words))
            assert f'<li data-limit="{key}">{said}</li>' in section, (fmt["name"], key)
        for rule in fmt["rules"]:
            assert re.search(rf'<li id="{fmt["name"]}-{rule["id"]}" class="rule-item {rule["severity"]}">\s*'
                             rf'<p class="rule-sentence">{re.escape(html_escape(rule["text"]))}</p>\s*'
                             rf'<p class="rule-label"><code class="rule-id">{rule["id"]}</code>', section), rule
    type1e = page[page.index('id="type1e"'):]
    assert '<li data-limit="watcher_max">At most 1 Watcher Pre-Game card</li>' in type1e
    assert '<li data-limit="generic_specific_max">A Generic Immortal: at most 1 of each Immortal Specific card</li>' \
        in type1e


def html_escape(text: str) -> str:
    from markupsafe import escape  # as the templates escape
    return str(escape(text))


def test_the_coverage_grids_explain_themselves(client):
    """Issue 24: the report's coverage grids have a heading apart from the odds' heat grids, a legend, and an
    uncovered square has a colour and a mark of its own (a cross; a covered one a tick)."""
    text = (ROOT / "examples/decks/type2-duncan-katana.txt").read_text()
    gappy = "\n".join(line for line in text.splitlines() if not line.startswith("3 Upper Left Attack"))
    page = client.post("/check", data={"decklist": gappy}).text
    coverage = page[page.index('<div class="block coverage">'):page.index('<section class="stats-panel"')]
    assert "<h3 class=\"coverage-head\">Which squares the deck covers</h3>" in coverage
    assert "How the deck draws" in page[page.index('<section class="stats-panel"'):]
    attacks = coverage[coverage.index('aria-label="Basic Attacks cover'):coverage.index("</svg>")]
    assert attacks.count('class="sq gap"') == 1 and attacks.count('class="mark cross"') == 1
    assert '<title>Upper Left: not covered</title>' in attacks and attacks.count('class="mark tick"') == 8
    legend = coverage[coverage.index('<ul class="grid-legend"'):]
    assert "covered</li>" in legend and "not covered</li>" in legend and 'class="mark cross"' in legend


def post_forms(markup: str) -> list[tuple[str, str]]:
    """(action, the form's markup) of every form of a page that posts."""
    forms = []
    for m in re.finditer(r"<form\b([^>]*)>.*?</form>", markup, flags=re.S | re.I):
        if re.search(r'method="post"', m.group(1), flags=re.I):
            action = re.search(r'action="([^"]*)"', m.group(1))
            forms.append((action.group(1) if action else "", m.group(0)))
    return forms


def test_every_form_that_changes_data_carries_the_csrf_token(tmp_path, web_db):
    """Every posting form of every page carries the visitor's token, and each endpoint that changes data refuses a
    post without it (403), changing nothing. Only the check form, which changes nothing, may do without."""
    import shutil

    from fastapi.testclient import TestClient

    from deckcheck.web import create_app
    from deckcheck.web.security import CSRF_COOKIE
    db = tmp_path / "forms.db"
    shutil.copy(web_db.removeprefix("sqlite:///"), db)
    with TestClient(create_app(db_url=f"sqlite:///{db}", admin_token="tok")) as client:
        client.get("/")
        token = client.cookies[CSRF_COOKIE]
        text = (ROOT / "examples/decks/type1e-connor-legal.txt").read_text()
        keeper = {"Authorization": "Bearer tok"}  # the admin token's bearer: the keeper, who may change them
        deck = client.post("/decks", data={"decklist": text, "csrf_token": token}, follow_redirects=False,
                           headers=keeper)
        binder = ROOT / "examples/collection/my-binder.csv"
        preview = client.post("/collection/import", data={"csrf_token": token},
                              files={"file": (binder.name, binder.read_bytes())}, headers=keeper).text
        pages = [client.get(path).text for path in ("/", deck.headers["location"], "/cards/SE-connor-macleod-persona",
                                                    "/collection", "/formats", "/cards")] + [preview]
        forms = [form for page in pages for form in post_forms(page)]
        actions = {action for action, _ in forms}
        assert {"/check", "/collection/import", "/collection/import/confirm",
                "/cards/SE-connor-macleod-persona/edit"} <= actions
        for action, form in forms:
            if action != "/check":
                assert f'<input type="hidden" name="csrf_token" value="{token}">' in form, action
        saved = client.get("/api/collection/missing", headers=keeper).json()
        before = (client.get("/api/collection").json(), client.get("/api/cards/SE-connor-macleod-persona").json())
        pending = re.search(r'name="token" value="([^"]+)"', preview)
        assert pending is not None
        refused = {
            "/decks": client.post("/decks", data={"decklist": text}, headers=keeper),
            "/collection/import": client.post("/collection/import", files={"file": (binder.name, binder.read_bytes())},
                                              headers=keeper),
            "/collection/import/confirm": client.post("/collection/import/confirm", headers=keeper,
                                                      data={"token": pending.group(1), "mode": "merge"}),
            "edit": client.post("/cards/SE-connor-macleod-persona/edit",
                                data={"who": "x", "admin_token": "tok", "restriction": "1"}),
        }
        assert {name: r.status_code for name, r in refused.items()} == dict.fromkeys(refused, 403)
        assert client.get("/api/collection/missing", headers=keeper).json() == saved  # no deck saved
        assert (client.get("/api/collection").json(), client.get("/api/cards/SE-connor-macleod-persona").json()) == \
            before


def test_admin_token_from_the_environment(monkeypatch, web_db):
    from fastapi.testclient import TestClient

    from deckcheck.web import create_app
    monkeypatch.setenv("DECKCHECK_ADMIN_TOKEN", "from-env")
    with TestClient(create_app(db_url=web_db)) as client:
        assert 'action="/cards/SE-connor-macleod-persona/edit"' in client.get("/cards/SE-connor-macleod-persona").text
    monkeypatch.delenv("DECKCHECK_ADMIN_TOKEN")
    with TestClient(create_app(db_url=web_db)) as client:
        assert "/edit" not in client.get("/cards/SE-connor-macleod-persona").text


def test_a_saved_decks_page_escapes_its_text(client, csrf):
    nasty = '<img src=x onerror=alert(1)>'
    text = f"# {nasty}\n" + (ROOT / "examples/decks/type1e-connor-legal.txt").read_text()
    r = client.post("/decks", data={"decklist": text, "csrf_token": csrf}, follow_redirects=False)
    assert r.status_code == 303
    for path in (r.headers["location"], "/?deck=" + r.headers["location"].rsplit("/", 1)[1]):
        page = client.get(path).text
        assert nasty not in page and "# &lt;img src=x onerror=alert(1)&gt;" in page, path


def test_every_input_of_every_template_says_its_type():
    """The stylesheet styles fields by their type (input[type=text] …): an input without one gets none of it and is
    drawn at the browser's default, about 20 px high on a phone, too small to tap (the builder's filters, the deck
    page's rename field and the desk's links were)."""
    untyped = [f"{path.relative_to(TEMPLATES)}: {tag[:80]}" for path in sorted(TEMPLATES.rglob("*.html"))
               for tag in re.findall(r"<input\b[^>]*>", path.read_text(encoding="utf-8"))
               if not re.search(r"\stype=", tag)]
    assert untyped == []
