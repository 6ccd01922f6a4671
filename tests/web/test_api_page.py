"""The API page for people (issue 24): descriptions rendered (no Markdown marks, no section numbers), every
endpoint with a real example request and answer, linking to /openapi.json.

The examples are real: this test sends each request to a server of its own, in order (a saved deck, an
event, its submissions...), and the answers, with ids, tokens and times put as placeholders, must equal
web/api_examples.json, which the page shows. `pytest --update-golden` writes them again.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DECKS = ROOT / "examples/decks"
BASE = "http://127.0.0.1:8000"
ADMIN = "s3cret-admin-token"
STAMP = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:\d\d)?")
KEEP = 3  # items of a list shown; the rest is counted


def shorten(value, depth: int = 0):
    """An answer cut to what a reader needs: lists to KEEP items and a count, long text to 200 characters."""
    if isinstance(value, list):
        kept = [shorten(v, depth + 1) for v in value[:KEEP]]
        return kept + ([f"… {len(value) - KEEP} more"] if len(value) > KEEP else [])
    if isinstance(value, dict):
        return {k: shorten(v, depth + 1) for k, v in value.items()}
    if isinstance(value, str) and len(value) > 200:
        return value[:200] + "…"
    return value


def scenario(client) -> dict[str, dict]:
    """Every /api endpoint called once, as a program would: {"METHOD /path": {"request", "status", "response"}}."""
    from deckcheck.web.security import CSRF_COOKIE
    out: dict[str, dict] = {}
    secrets: dict[str, str] = {}
    connor, kurgan = (DECKS / "type1e-connor-legal.txt").read_text(), (DECKS / "type1e-kurgan-illegal.txt").read_text()

    def call(route: str, method: str, url: str, body=None, token: str | None = None, form: dict | None = None,
             token_name: str = "ORGANISER_TOKEN"):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if method == "GET":
            r = client.get(url, headers=headers)
        elif method == "DELETE":
            r = client.delete(url, headers=headers)
        elif method == "PUT":
            r = client.put(url, json=body, headers=headers)
        elif form is not None:
            r = client.post(url, data=form, headers=headers)
        else:
            r = client.post(url, json=body, headers=headers)
        answer = r.json() if r.headers.get("content-type", "").startswith("application/json") else r.text
        request = {"method": method, "url": url, "headers": {"Authorization": f"Bearer {token_name}"} if token
                   else {}}
        if body is not None:
            request["json"] = body
        if form is not None:
            request["form"] = form
        out[route] = {"request": request, "status": r.status_code, "response": answer}
        assert r.status_code < 400, (route, r.status_code, answer)
        return answer

    client.get("/")
    saved = []
    for text in (kurgan, connor):
        r = client.post("/decks", data={"decklist": text, "csrf_token": client.cookies[CSRF_COOKIE]},
                        follow_redirects=False, headers={"Authorization": f"Bearer {ADMIN}"})  # a club's keeper
        saved.append(r.headers["location"].rsplit("/", 1)[1])
    call("GET /healthz", "GET", "/healthz")
    call("POST /api/check", "POST", "/api/check", {"decklist": kurgan, "format": "type1e"})
    call("GET /api/decks/{deck_id}", "GET", f"/api/decks/{saved[1]}")
    call("POST /api/stats", "POST", "/api/stats", {"decklist": connor})
    call("GET /api/decks/{deck_id}/stats", "GET", f"/api/decks/{saved[1]}/stats")
    call("GET /api/diff", "GET", f"/api/diff?a={saved[0]}&b={saved[1]}")
    # a club server's keeper: the admin token's bearer
    kept = call("POST /api/decks", "POST", "/api/decks", {"name": "Connor", "decklist": connor}, token=ADMIN,
                token_name="ADMIN_TOKEN")["id"]
    call("POST /api/decks/{deck_id}/changes", "POST", f"/api/decks/{kept}/changes",
         {"card": "Thrust (2)", "delta": -1}, token=ADMIN, token_name="ADMIN_TOKEN")
    call("PUT /api/decks/{deck_id}", "PUT", f"/api/decks/{kept}", {"name": "Connor, lean", "visibility": "public"},
         token=ADMIN, token_name="ADMIN_TOKEN")
    call("GET /api/decks/{deck_id}/versions", "GET", f"/api/decks/{kept}/versions")
    call("GET /api/decks/{deck_id}/hand", "GET", f"/api/decks/{kept}/hand?hand=7&seed=example")
    call("POST /api/decks/{deck_id}/restore", "POST", f"/api/decks/{kept}/restore", {"version": 1}, token=ADMIN,
         token_name="ADMIN_TOKEN")
    copy = call("POST /api/decks/{deck_id}/copy", "POST", f"/api/decks/{kept}/copy", {"name": "My Connor"},
                token=ADMIN, token_name="ADMIN_TOKEN")["id"]
    call("GET /api/decks", "GET", "/api/decks?public=1")
    secrets.update({kept: "KEPT_DECK", copy: "COPIED_DECK"})
    call("GET /api/cards", "GET", "/api/cards?q=thrust&edition=1&limit=2")
    call("GET /api/cards/{card_id}", "GET", "/api/cards/SE-connor-macleod-persona")
    # a collection is its owner's (CONTRACTS §9): here the keeper's, which an anonymous visitor does not read
    call("GET /api/collection", "GET", "/api/collection?collection=main", token=ADMIN, token_name="ADMIN_TOKEN")
    needs = call("GET /api/collection/missing", "GET", "/api/collection/missing?collection=main", token=ADMIN,
                 token_name="ADMIN_TOKEN")
    needs["together"].sort(key=lambda n: (n["card"], n["set"]))  # in the order of the saved decks' random ids
    call("GET /api/formats", "GET", "/api/formats")
    card = "AT-ceirdwyn-master-s-attack"  # a club server (admin token): players' answers wait for review
    asked = call("POST /api/cards/{card_id}/facts", "POST", f"/api/cards/{card}/facts",
                 {"by": "Ann", "values": {"restriction": "3"}})  # one value: one proposal, whose id is 1
    call("GET /api/proposals", "GET", "/api/proposals?status=pending", token=ADMIN, token_name="ADMIN_TOKEN")
    call("POST /api/proposals/{pid}/{action}", "POST", f"/api/proposals/{asked['proposals'][0]['id']}/accept", {},
         token=ADMIN, token_name="ADMIN_TOKEN")
    call("GET /api/cards/facts.{kind}", "GET", "/api/cards/facts.csv")
    event = call("POST /api/events", "POST", "/api/events", {"name": "Spring Open", "format": "type1e"},
                 token=ADMIN, token_name="ADMIN_TOKEN")  # a club server: an organiser's account, or the keeper
    eid, token = event["id"], event["organiser_token"]
    secrets.update({eid: "EVENT_ID", token: "ORGANISER_TOKEN"})
    call("GET /api/events/{event_id}", "GET", f"/api/events/{eid}")
    first = call("POST /api/events/{event_id}/decks", "POST", f"/api/events/{eid}/decks",
                 {"player": "Ramirez", "decklist": kurgan})
    client.post(f"/api/events/{eid}/decks", json={"player": "Ramirez", "decklist": connor,
                                                  "replaces": first["deck_id"]})  # from Ramirez's private link
    client.post(f"/api/events/{eid}/decks", json={"player": "Kastagir", "decklist": connor})
    decks = call("GET /api/events/{event_id}/decks", "GET", f"/api/events/{eid}/decks", token=token)
    ids = [first["deck_id"]] + [d["deck_id"] for d in decks]
    secrets.update({d: f"DECK_ID_{n}" for n, d in enumerate(ids, 1)})
    secrets.update({s: f"SAVED_DECK_{n}" for n, s in enumerate(saved, 1)})
    call("GET /api/events/{event_id}/decks/{deck_id}", "GET", f"/api/events/{eid}/decks/{ids[1]}")
    call("GET /api/events/{event_id}/diff", "GET", f"/api/events/{eid}/diff?a={ids[0]}&b={ids[1]}", token=token)
    call("GET /api/events/{event_id}/report.{kind}", "GET", f"/api/events/{eid}/report.json", token=token)
    call("POST /api/events/{event_id}/close", "POST", f"/api/events/{eid}/close", token=token)
    call("PUT /api/events/{event_id}/judges", "PUT", f"/api/events/{eid}/judges", {"judges": []}, token=token)
    call("GET /api/events/{event_id}/judges", "GET", f"/api/events/{eid}/judges", token=token)
    counts = {"Connor MacLeod Persona": 1, "Thrust (2)": 3}
    checked = call("POST /api/events/{event_id}/deckchecks", "POST", f"/api/events/{eid}/deckchecks",
                   {"player": "Kastagir", "judge": "Ann", "counts": counts, "note": ""}, token=token)
    secrets[checked["id"]] = "DECK_CHECK_ID"
    call("POST /api/events/{event_id}/draw", "POST", f"/api/events/{eid}/draw", {"n": 1, "seed": "round 1"},
         token=token)
    call("GET /api/events/{event_id}/deckchecks", "GET", f"/api/events/{eid}/deckchecks", token=token)
    call("POST /api/events/{event_id}/rounds", "POST", f"/api/events/{eid}/rounds", {"seed": "spring"}, token=token)
    call("POST /api/events/{event_id}/rounds/{number}/results", "POST", f"/api/events/{eid}/rounds/1/results",
         {"table": 1, "a_wins": 2, "b_wins": 1, "draws": 0}, token=token)
    call("GET /api/events/{event_id}/rounds", "GET", f"/api/events/{eid}/rounds", token=token)
    disputed = call("POST /api/events/{event_id}/decks/{deck_id}/dispute", "POST",
                    f"/api/events/{eid}/decks/{ids[-1]}/dispute", {"mine": 2, "theirs": 0, "note": "I won both"})
    secrets[disputed["id"]] = "DISPUTE_ID"
    call("GET /api/events/{event_id}/disputes", "GET", f"/api/events/{eid}/disputes", token=token)
    call("POST /api/events/{event_id}/disputes/{claim_id}", "POST", f"/api/events/{eid}/disputes/{disputed['id']}",
         {"decision": "reported"}, token=token)
    call("POST /api/events/{event_id}/drops", "POST", f"/api/events/{eid}/drops", {"player": "Kastagir"}, token=token)
    call("GET /api/events/{event_id}/standings", "GET", f"/api/events/{eid}/standings", token=token)
    call("GET /api/events/{event_id}/standings.{kind}", "GET", f"/api/events/{eid}/standings.json", token=token)
    call("GET /api/events/{event_id}/pairings.{kind}", "GET", f"/api/events/{eid}/pairings.json", token=token)
    from deckcheck.db.store import Store
    from deckcheck.library.accounts import Accounts
    Accounts(Store(client.app.state.deckcheck.settings.db_url)).add("Ann", "a good long password", ["player"])
    call("POST /api/session", "POST", "/api/session", {"name": "Ann", "password": "a good long password"})
    call("GET /api/me", "GET", "/api/me")
    made = call("POST /api/tokens", "POST", "/api/tokens", {"label": "my script"})
    secrets[made["token"]] = "PERSONAL_TOKEN"
    call("GET /api/tokens", "GET", "/api/tokens")
    call("DELETE /api/tokens/{token_id}", "DELETE", f"/api/tokens/{made['id']}")
    call("DELETE /api/session", "DELETE", "/api/session")
    text = json.dumps(out, ensure_ascii=False)
    for secret, placeholder in sorted(secrets.items(), key=lambda kv: -len(kv[0])):
        text = text.replace(secret, placeholder)
    text = STAMP.sub("2026-11-30T14:02:00+00:00", text).replace("http://testserver", BASE)
    return {route: {**e, "response": shorten(e["response"])} for route, e in json.loads(text).items()}


@pytest.fixture(scope="module")
def api_client(tmp_path_factory, pristine_web_db):
    from fastapi.testclient import TestClient

    from deckcheck.library.api import CollectionApp
    from deckcheck.web import create_app
    db = tmp_path_factory.mktemp("api-examples") / "api.db"
    shutil.copy(pristine_web_db.removeprefix("sqlite:///"), db)
    CollectionApp(f"sqlite:///{db}").import_sheet(ROOT / "examples/collection/my-binder.csv")
    with TestClient(create_app(db_url=f"sqlite:///{db}", admin_token=ADMIN), base_url=BASE) as client:
        yield client


def test_every_endpoint_has_a_real_example(api_client, update_golden):
    from deckcheck.web import apidocs
    found = scenario(api_client)
    if update_golden:
        apidocs.EXAMPLES.write_text(json.dumps(found, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        apidocs.examples.cache_clear()
    routes = {f"{m.upper()} {p}" for p, ms in api_client.get("/openapi.json").json()["paths"].items()
              for m, op in ms.items() if "api" in op.get("tags", ())}
    assert set(found) == routes, f"endpoints with no example: {routes - set(found)}"
    stored = json.loads(apidocs.EXAMPLES.read_text(encoding="utf-8"))
    for route in routes:
        assert stored.get(route) == found[route], f"{route} answers otherwise now: --update-golden writes it again"


def test_the_api_page_reads_as_text_with_an_example_of_each_endpoint(api_client):
    page = api_client.get("/api").text
    main = page[page.index("<main>"):page.index("</main>")]
    text = re.sub(r"<[^>]+>", " ", main)
    assert "`" not in text and "§" not in text, [line for line in text.splitlines() if "`" in line or "§" in line]
    assert '<a href="/openapi.json">' in main
    sections = re.findall(r'<section class="panel endpoint" id="([^"]+)">(.*?)</section>', main, flags=re.S)
    assert len(sections) == len(json.loads((ROOT / "web/api_examples.json").read_text()))
    for anchor, section in sections:
        assert "<pre" in section and "curl" in section and "HTTP/1.1 " in section, anchor
    check = dict(sections)["post-api-check"]
    assert "curl -X POST 'http://127.0.0.1:8000/api/check' -H 'content-type: application/json' --data-binary " \
           "@- &lt;&lt;'JSON'\n{" in check
    assert "&#34;legal&#34;: false" in check and "the check report" in check
