"""/openapi.json describes the real API: every /api route has its shapes, and real answers of every /api route (and
the requests sent to them) validate against the schemas the document gives (JSON Schema, OpenAPI 3.1)."""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

import jsonschema  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from conftest import ILLEGAL, LEGAL, TYPO  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


class Api:
    """A test client that checks each answer (and JSON request) against the operation's schema in /openapi.json,
    and remembers which operations were exercised."""

    def __init__(self, client: TestClient):
        self.client = client
        self.doc = client.get("/openapi.json").json()
        self.seen: set[tuple[str, str]] = set()
        self.statuses: set[tuple[str, str, int]] = set()

    def operation(self, method: str, url: str) -> tuple[str, dict]:
        path = url.split("?")[0]
        for template, ops in self.doc["paths"].items():
            parts = re.split(r"(\{[^}]+\})", template)
            pattern = "".join((".+" if p.endswith(":path}") else "[^/]+") if p.startswith("{") else re.escape(p)
                              for p in parts)
            if method in ops and re.fullmatch(pattern, path):
                return template, ops[method]
        raise AssertionError(f"{method.upper()} {path} is not in /openapi.json")

    def validate(self, schema: dict, instance: object, what: str) -> None:
        root = {**schema, "components": self.doc.get("components", {})}
        errors = sorted(jsonschema.Draft202012Validator(root).iter_errors(instance), key=str)
        assert not errors, f"{what}: {errors[0].message} at {list(errors[0].absolute_path)}"

    def call(self, method: str, url: str, status: int, **kwargs):
        template, op = self.operation(method, url)
        if "json" in kwargs:
            schema = op["requestBody"]["content"]["application/json"]["schema"]
            self.validate(schema, kwargs["json"], f"the request to {method.upper()} {template}")
        r = self.client.request(method.upper(), url, **kwargs)
        assert r.status_code == status, (url, r.status_code, r.text[:300])
        declared = op["responses"].get(str(status))
        assert declared is not None, f"{method.upper()} {template} answers {status}, which /openapi.json does not list"
        kind = r.headers["content-type"].split(";")[0]
        assert kind in declared.get("content", {}), f"{method.upper()} {template} {status}: {kind} is not declared"
        if kind == "application/json":
            self.validate(declared["content"][kind]["schema"], r.json(), f"{method.upper()} {template} {status}")
        self.seen.add((method, template))
        self.statuses.add((method, template, status))
        return r


@pytest.fixture(scope="module")
def api(tmp_path_factory, pristine_web_db):
    from deckcheck.web import create_app
    from deckcheck.web.deps import rate_limit
    from deckcheck.library.desk import RateLimit
    db = tmp_path_factory.mktemp("openapi") / "api.db"
    shutil.copy(pristine_web_db.removeprefix("sqlite:///"), db)
    url = f"sqlite:///{db}"
    sheet = tmp_path_factory.mktemp("sheet") / "priced.csv"
    sheet.write_text("card,set,quantity,condition,price\nThrust (2),ME,4,LP,€1.50\nConnor MacLeod Persona,SE,1,NM,\n",
                     encoding="utf-8")
    from deckcheck.library.api import CollectionApp
    CollectionApp(url).import_sheet(sheet, "main", "merge", False, False)
    app = create_app(db_url=url)
    app.dependency_overrides[rate_limit] = lambda: RateLimit(0)
    with TestClient(app) as client:
        client.get("/")
        yield Api(client)




def save(api: Api, text: str) -> str:
    from deckcheck.web.security import CSRF_COOKIE
    r = api.client.post("/decks", data={"decklist": text, "format": "type1e",
                                        "csrf_token": api.client.cookies[CSRF_COOKIE]}, follow_redirects=False)
    assert r.status_code == 303
    return r.headers["location"].rsplit("/", 1)[-1]


def test_every_api_route_has_its_shapes_in_openapi(api):
    """Each /api operation names a request body or a response schema (never `{}`), and every refusal's shape."""
    for path, ops in api.doc["paths"].items():
        for method, op in ops.items():
            if "api" not in op.get("tags", ()):
                continue
            ok = op["responses"].get("200") or op["responses"].get("201")
            assert ok is not None, (method, path)
            content = ok.get("content", {})
            assert content and all(c.get("schema") not in (None, {}) for c in content.values()), (method, path)
            if method == "post" and not path.endswith("/close"):
                assert op.get("requestBody", {}).get("content"), (method, path)
            for status, answer in op["responses"].items():
                if status.startswith("4"):
                    schema = answer["content"]["application/json"]["schema"]
                    assert schema.get("$ref", "").endswith("/ErrorBody"), (method, path, status)
            assert "422" not in op["responses"], (method, path)  # a parameter that cannot be read is a 400 here


def test_real_answers_of_every_api_route_match_the_schema(api):
    call = api.call
    call("get", "/healthz", 200)
    # checking: JSON and form, legal, illegal, unreadable lines; refusals
    for text in (LEGAL, ILLEGAL, TYPO):
        call("post", "/api/check", 200, json={"decklist": text, "format": "type1e"})
    call("post", "/api/check", 200, files={"file": ("deck.json", (ROOT / "examples/decks/type1e-methos.json")
                                                    .read_bytes())}, data={"format": "type1e"})
    call("post", "/api/check", 400, json={"decklist": ""})
    call("post", "/api/check", 400, content=b"{not json", headers={"content-type": "application/json"})
    call("post", "/api/stats", 200, json={"decklist": LEGAL, "format": "type1e"})
    call("post", "/api/stats", 200, json={"decklist": LEGAL, "format": "type1e", "hand": 10, "exertion": 3})
    call("post", "/api/stats?hand=10", 400, json={"decklist": LEGAL, "hand": 12})
    call("post", "/api/check", 400, data={"decklist": LEGAL}, files={"file": ("deck.txt", LEGAL.encode())})
    call("post", "/api/stats", 400, json={"decklist": TYPO, "format": "type1e"})
    # cards and formats
    page = call("get", "/api/cards?q=thrust&limit=3", 200).json()
    card_id = page["cards"][0]["id"]
    call("get", f"/api/cards/{card_id}", 200)
    owned = call("get", "/api/cards/" + next(c["id"] for c in call("get", "/api/cards?q=thrust+2&set=ME", 200)
                                             .json()["cards"]) + "?detail=true", 200).json()
    assert owned["owned"] and owned["sources"] is not None
    call("get", "/api/cards/no-such-card", 404)
    call("get", "/api/cards?limit=0", 400)
    call("get", "/api/formats", 200)
    # saved decks, their statistics and comparisons
    a, b = save(api, LEGAL), save(api, ILLEGAL)
    call("get", f"/api/decks/{a}", 200)
    call("get", "/api/decks/AbCdEf99", 404)
    call("get", f"/api/decks/{a}/stats", 200)
    call("get", "/api/decks/AbCdEf99/stats", 404)
    call("get", f"/api/diff?a={a}&b=/decks/{b}", 200)
    call("get", f"/api/diff?a={a}&b=AbCdEf99", 404)
    # kept decks (CONTRACTS §10): the keeper is the user at this machine (a loopback client)
    keeper = Api.__new__(Api)
    keeper.client = TestClient(api.client.app, base_url="http://127.0.0.1", client=("127.0.0.1", 50000))
    keeper.doc, keeper.seen, keeper.statuses = api.doc, api.seen, api.statuses
    kept = keeper.call("post", "/api/decks", 201, json={"name": "Connor", "decklist": LEGAL}).json()["id"]
    call("post", "/api/decks", 403, json={"name": "Connor", "decklist": LEGAL})
    keeper.call("post", "/api/decks", 400, json={"name": "Typo", "decklist": TYPO})
    keeper.call("get", "/api/decks", 200)
    call("get", "/api/decks?public=1", 200)
    keeper.call("put", f"/api/decks/{kept}", 200, json={"name": "Connor 2", "visibility": "public"})
    keeper.call("post", f"/api/decks/{kept}/changes", 200, json={"card": "Thrust", "delta": 1})
    keeper.call("post", f"/api/decks/{kept}/changes", 400, json={"card": "Thurst", "delta": 1})
    call("post", f"/api/decks/{kept}/changes", 403, json={"card": "Thrust", "delta": 1})
    call("get", f"/api/decks/{kept}/versions", 200)
    call("get", f"/api/decks/{kept}/hand?seed=abc", 200)
    call("get", f"/api/decks/{kept}/hand?seed=no-good", 400)
    call("get", "/api/decks/AbCdEf99/hand", 404)
    call("get", f"/api/decks/{kept}?version=1", 200)
    keeper.call("post", f"/api/decks/{kept}/restore", 200, json={"version": 1})
    keeper.call("post", f"/api/decks/{kept}/copy", 201, json={})
    call("get", f"/api/diff?a={kept}@1&b={kept}@2", 200)
    call("get", "/api/decks/AbCdEf99/versions", 404)
    keeper.client.close()
    # collections: a priced entry (price, currency) and an unpriced one
    coll = call("get", "/api/collection", 200).json()
    assert {"price", "currency"} <= set(coll["entries"][0]) | set(coll["entries"][1])
    call("get", "/api/collection/missing", 200)
    # the tournament desk
    event = call("post", "/api/events", 201, json={"name": "Open", "format": "type1e",
                                                   "deadline": "2099-01-01T10:00:00+01:00"}).json()
    call("post", "/api/events", 400, json={"name": "", "format": "type1e"})
    eid, auth = event["id"], {"Authorization": f"Bearer {event['organiser_token']}"}
    call("get", f"/api/events/{eid}", 200)
    call("get", "/api/events/nope", 404)
    first = call("post", f"/api/events/{eid}/decks", 201, json={"player": "Ann", "decklist": ILLEGAL}).json()
    second = call("post", f"/api/events/{eid}/decks", 201, data={"player": "Ann"},
                  files={"file": ("ann.txt", LEGAL.encode())}).json()
    call("post", f"/api/events/{eid}/decks", 201, json={"player": "Bob", "decklist": TYPO})
    call("get", f"/api/events/{eid}/decks", 200, headers=auth)
    call("get", f"/api/events/{eid}/decks", 401)
    call("get", f"/api/events/{eid}/decks", 403, headers={"Authorization": "Bearer wrong"})
    call("get", f"/api/events/{eid}/decks/{second['deck_id']}", 200)
    call("get", f"/api/events/{eid}/diff?a={first['deck_id']}&b={second['deck_id']}", 200, headers=auth)
    for kind in ("json", "csv", "xlsx"):
        call("get", f"/api/events/{eid}/report.{kind}", 200, headers=auth)
    call("post", f"/api/events/{eid}/close", 200, headers=auth)
    call("put", f"/api/events/{eid}/judges", 200, headers=auth, json={"judges": []})
    call("put", f"/api/events/{eid}/judges", 400, headers=auth, json={"judges": ["Nobody"]})
    call("get", f"/api/events/{eid}/judges", 200, headers=auth)
    call("get", f"/api/events/{eid}/judges", 401)
    call("post", f"/api/events/{eid}/decks", 409, json={"player": "Cy", "decklist": LEGAL})
    call("post", f"/api/events/{eid}/deckchecks", 201, headers=auth,
         json={"player": "Ann", "judge": "Ines", "counts": {"Thrust (2)": 3}, "note": ""})
    call("post", f"/api/events/{eid}/deckchecks", 400, headers=auth, json={"player": "Ann", "judge": "", "counts": {}})
    call("post", f"/api/events/{eid}/deckchecks", 401, json={"player": "Ann", "judge": "I", "counts": {}})
    call("get", f"/api/events/{eid}/deckchecks", 200, headers=auth)
    call("get", f"/api/events/{eid}/deckchecks", 403, headers={"Authorization": "Bearer wrong"})
    call("post", f"/api/events/{eid}/draw", 200, headers=auth, json={"n": 1, "seed": "s"})
    call("post", f"/api/events/{eid}/draw", 400, headers=auth, json={"n": 0})
    call("get", f"/api/events/{eid}/report.json", 200, headers=auth)  # with the deck check
    # rounds and standings (Ann and Bob)
    call("post", f"/api/events/{eid}/rounds", 201, headers=auth, json={"seed": "s"})
    call("post", f"/api/events/{eid}/rounds", 409, headers=auth, json={})
    call("post", f"/api/events/{eid}/rounds/1/results", 200, headers=auth, json={"table": 1, "a_wins": 2, "b_wins": 1})
    call("post", f"/api/events/{eid}/rounds/1/results", 400, headers=auth, json={"table": 1, "a_wins": -1, "b_wins": 0})
    call("get", f"/api/events/{eid}/rounds", 200, headers=auth)
    claim = call("post", f"/api/events/{eid}/decks/{second['deck_id']}/dispute", 201,
                 json={"mine": 0, "theirs": 2}).json()
    call("post", f"/api/events/{eid}/decks/{second['deck_id']}/dispute", 400, json={"mine": 0, "theirs": 0})
    call("get", f"/api/events/{eid}/disputes", 200, headers=auth)
    call("get", f"/api/events/{eid}/disputes", 401)
    call("post", f"/api/events/{eid}/disputes/{claim['id']}", 200, headers=auth, json={"decision": "claim"})
    call("post", f"/api/events/{eid}/disputes/{claim['id']}", 409, headers=auth, json={"decision": "claim"})
    call("post", f"/api/events/{eid}/disputes/nope", 404, headers=auth, json={"decision": "claim"})
    call("post", f"/api/events/{eid}/drops", 200, headers=auth, json={"player": "Bob"})
    call("post", f"/api/events/{eid}/drops", 404, headers=auth, json={"player": "Nobody"})
    call("get", f"/api/events/{eid}/standings", 200, headers=auth)
    call("get", f"/api/events/{eid}/standings", 401)
    for what in ("standings", "pairings"):
        for kind in ("json", "csv", "xlsx"):
            call("get", f"/api/events/{eid}/{what}.{kind}", 200, headers=auth)
        call("get", f"/api/events/{eid}/{what}.pdf", 404, headers=auth)

    # card facts from players (no admin token here: answers apply at once, nothing to review)
    call("post", f"/api/cards/{card_id}/facts", 200, json={"by": "Ann", "values": {"restriction": "2"}})
    call("post", f"/api/cards/{card_id}/facts", 400, json={"by": "Ann", "values": {"restriction": "x"}})
    call("post", "/api/cards/no-such-card/facts", 404, json={"by": "Ann", "values": {"restriction": "2"}})
    call("get", "/api/cards/facts.csv", 200)
    call("get", "/api/cards/facts.xlsx", 200)
    call("get", "/api/cards/facts.tsv", 200)
    call("get", "/api/cards/facts.pdf", 404)
    call("get", "/api/proposals", 403)
    call("post", "/api/proposals/1/accept", 403, json={})
    # accounts (made here, removed at the end: the other tests of this module use a server without them)
    from deckcheck.library.accounts import Accounts
    from deckcheck.db.store import Store
    accounts = Accounts(Store(api.client.app.state.deckcheck.settings.db_url))
    accounts.add("Ann", "a good long password", ["player"])
    try:
        call("get", "/api/me", 401)
        call("post", "/api/session", 401, json={"name": "Ann", "password": "wrong password"})
        call("post", "/api/session", 200, json={"name": "Ann", "password": "a good long password"})
        call("get", "/api/me", 200)
        made = call("post", "/api/tokens", 201, json={"label": "script"}).json()
        call("get", "/api/tokens", 200)
        call("delete", f"/api/tokens/{made['id']}", 200)
        call("delete", f"/api/tokens/{made['id']}", 404)
        call("delete", "/api/session", 200)
        call("get", "/api/tokens", 401)
    finally:
        accounts.remove("Ann")
    every = {(m, p) for p, ops in api.doc["paths"].items() for m, op in ops.items() if "api" in op.get("tags", ())}
    assert every - api.seen == set(), "add a call of each new /api route to this test"


def test_a_model_that_drifts_from_the_answer_is_caught(api):
    """The check above can fail: an answer with a key the schema does not have, or without one it requires."""
    report = api.client.post("/api/check", json={"decklist": LEGAL, "format": "type1e"}).json()
    schema = api.operation("post", "/api/check")[1]["responses"]["200"]["content"]["application/json"]["schema"]
    with pytest.raises(AssertionError):
        api.validate(schema, {**report, "surprise": 1}, "an extra key")
    with pytest.raises(AssertionError):
        api.validate(schema, {k: v for k, v in report.items() if k != "legal"}, "a missing key")


def test_each_api_route_declares_a_response_model_fastapi_checks(web_db, monkeypatch):
    """Every JSON /api route names its response_model and returns data, which FastAPI validates against it: an
    answer that drifts from its model is a 500, never sent."""
    from fastapi.routing import APIRoute
    from fastapi.responses import JSONResponse

    from deckcheck.web import create_app, formats
    from deckcheck.web.models import ApiRoute
    app = create_app(db_url=web_db)
    routes = [r for top in app.routes for r in getattr(getattr(top, "original_router", None), "routes", [top])]
    api_routes = [r for r in routes if isinstance(r, APIRoute) and "api" in (r.tags or [])]
    assert len(api_routes) > 20
    for route in api_routes:
        files = route.response_class is not JSONResponse and not getattr(route.response_class, "value", None)
        assert isinstance(route, ApiRoute) and (route.response_model is not None or files), route.path
        assert route.response_model_exclude_unset, route.path  # the keys as_dict() gave, no default added
    monkeypatch.setattr(formats, "formats_data", lambda: [{"name": "type1e", "surprise": 1}])
    with TestClient(app, raise_server_exceptions=False) as client:
        assert client.get("/api/formats").status_code == 500
