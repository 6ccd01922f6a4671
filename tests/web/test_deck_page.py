"""A kept deck's own page (issue 31 item 4): the list grouped by type with the Persona first, the statistics at the
hand size and Exertion asked for, a sample hand by a shown seed (its JSON twin), the exports read back to the same
deck, rename and restore by the page's forms (the owner's only), and strangers' input refused with a 4xx."""
from __future__ import annotations

import html
import re
import shutil

import pytest
from fastapi.testclient import TestClient

from deckcheck.web import create_app

from conftest import LEGAL

HOST = "http://127.0.0.1"


@pytest.fixture(scope="module")
def clients(tmp_path_factory, pristine_web_db):
    db = tmp_path_factory.mktemp("deckpage") / "d.db"
    shutil.copy(pristine_web_db.removeprefix("sqlite:///"), db)
    app = create_app(db_url=f"sqlite:///{db}")
    with TestClient(app, base_url=HOST, client=("127.0.0.1", 5000)) as keeper, \
            TestClient(app, base_url=HOST, client=("203.0.113.9", 5000)) as stranger:
        keeper.get("/")
        stranger.get("/")
        yield keeper, stranger


def kept(keeper: TestClient, visibility: str = "link", text: str = LEGAL) -> str:
    r = keeper.post("/api/decks", json={"name": "Connor's deck", "decklist": text, "visibility": visibility})
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def form(client: TestClient, **fields: str) -> dict[str, str]:
    return {"csrf_token": client.cookies["deckcheck_csrf"], **fields}


def test_the_list_is_grouped_by_type_with_the_persona_first_and_counts(clients):
    keeper, _ = clients
    deck = kept(keeper)
    page = html.unescape(keeper.get(f"/decks/{deck}").text)
    report = keeper.get(f"/api/decks/{deck}").json()["report"]
    kinds = re.findall(r"<h3>([^<]+) <small>\((\d+)\)</small></h3>", page)
    assert kinds[0][0] == "Persona" and "Persona: <strong>Connor MacLeod" in page
    assert sum(int(n) for _k, n in kinds) == sum(report["counts"].values())
    for section, n in report["counts"].items():
        assert f"{section} <small>({n})</small>" in page
    endurance = [k for k, _n in kinds][[k for k, _n in kinds].index("Attack"):] if "Attack" in dict(kinds) else []
    assert endurance[:1] == ["Attack"]  # deck-check order: attacks before blocks, before events and the rest


def test_the_sample_hand_is_the_same_for_a_seed_and_its_json_twin(clients):
    keeper, _ = clients
    deck = kept(keeper)
    one = keeper.get(f"/api/decks/{deck}/hand?seed=abc123").json()
    assert one["seed"] == "abc123" and one["hand"] == 15 and len(one["cards"]) == 15
    assert keeper.get(f"/api/decks/{deck}/hand?seed=abc123").json() == one
    other = keeper.get(f"/api/decks/{deck}/hand?seed=xyz789").json()
    assert other["cards"] != one["cards"]
    page = html.unescape(keeper.get(f"/decks/{deck}?seed=abc123").text)
    shown = re.findall(r"<li>([^<]+)</li>", page.split('aria-label="the sample hand"', 1)[1].split("</ol>", 1)[0])
    assert shown == one["cards"]
    again = re.search(r'href="([^"]+)" id="draw-again"', page)
    assert again and "seed=abc123" not in again.group(1)  # "Draw again" draws with another seed
    whole = keeper.get(f"/api/decks/{deck}/hand?hand=1000&seed=a").json()
    assert len(whole["cards"]) == whole["endurance"]  # a hand larger than the Endurance is the whole Endurance
    for bad in ("hand=1001", "hand=-1", "seed=not-ok", "seed=" + "a" * 17, "hand=x"):
        r = keeper.get(f"/api/decks/{deck}/hand?{bad}")
        assert r.status_code == 400, (bad, r.status_code)
    assert keeper.get(f"/api/decks/{deck}/hand?seed=" + "a" * 16).status_code == 200


def test_the_odds_follow_the_hand_size_and_exertion_asked_for(clients):
    keeper, _ = clients
    deck = kept(keeper)
    page = keeper.get(f"/decks/{deck}?hand=10&exertion=3").text
    assert "opening hand 10, Exertion 3" in page and "Opening hand of 10 holds a block" in page
    assert "opening hand 15, Exertion 5" in keeper.get(f"/decks/{deck}").text
    assert keeper.get(f"/decks/{deck}?hand=1001").status_code == 400
    assert keeper.get(f"/decks/{deck}?seed=%00").status_code == 400


def test_the_exports_read_back_to_the_same_deck(clients):
    keeper, _ = clients
    deck = kept(keeper)
    want = keeper.get(f"/api/decks/{deck}").json()["report"]
    text = keeper.get(f"/decks/{deck}/decklist.txt")
    assert text.status_code == 200 and 'filename="Connor-s-deck-v1.txt"' in text.headers["content-disposition"]
    sheet_csv = keeper.get(f"/decks/{deck}/deck.csv")
    assert sheet_csv.text.splitlines()[0] == "section,quantity,card,set"
    for sent in ({"json": {"decklist": text.text}},
                 {"files": {"file": ("deck.csv", sheet_csv.content)}, "data": {"format": "type1e"}}):
        got = keeper.post("/api/check", **sent).json()
        assert (got["legal"], got["counts"]) == (want["legal"], want["counts"]), got.get("issues")
    sheet = html.unescape(keeper.get(f"/decks/{deck}/sheet").text)
    for section, n in want["counts"].items():
        assert f"<caption>{section}: {n} cards</caption>" in sheet
    assert sheet.index("Persona (") < sheet.index("Attack (")


def test_rename_and_restore_by_the_page_and_only_by_the_owner(clients):
    keeper, stranger = clients
    deck = kept(keeper)
    r = keeper.post(f"/decks/{deck}/rename", data=form(keeper, name="Highlander", visibility="public"),
                    follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/decks/{deck}"
    got = keeper.get(f"/api/decks/{deck}").json()
    assert (got["name"], got["visibility"], got["version"]) == ("Highlander", "public", 1)  # no new version
    for delta in (1, 1):
        assert keeper.post(f"/api/decks/{deck}/changes", json={"card": "Thrust", "delta": delta}).status_code == 200
    page = html.unescape(keeper.get(f"/decks/{deck}").text)
    assert "+1 Thrust" in page and 'aria-label="restore version 1"' in page
    assert stranger.post(f"/decks/{deck}/restore", data=form(stranger, version="1")).status_code == 403
    r = keeper.post(f"/decks/{deck}/restore", data=form(keeper, version="1"), follow_redirects=False)
    assert r.status_code == 303
    now = keeper.get(f"/api/decks/{deck}").json()
    assert now["version"] == 4 and now["decklist"] == LEGAL
    for bad in ("0", "x", "99999999", ""):
        assert keeper.post(f"/decks/{deck}/restore", data=form(keeper, version=bad)).status_code == 400, bad
    assert keeper.post(f"/decks/{deck}/restore", data=form(keeper, version="77")).status_code == 404
    assert keeper.post(f"/decks/{deck}/rename", data=form(keeper, name="x" * 5000)).status_code == 400
    assert keeper.post(f"/decks/{deck}/rename", data=form(keeper, visibility="everyone")).status_code == 400
    assert 'action="/decks/' + deck + '/rename"' not in stranger.get(f"/decks/{deck}").text


def test_a_private_deck_exports_nothing_to_another_machine(clients):
    keeper, stranger = clients
    deck = kept(keeper, "private")
    for path in ("decklist.txt", "deck.csv", "sheet", "decklist.txt?version=1"):
        assert stranger.get(f"/decks/{deck}/{path}").status_code == 404, path
    assert stranger.get(f"/api/decks/{deck}/hand").status_code == 404
    assert keeper.get(f"/decks/{deck}/decklist.txt?version=2").status_code == 404
    assert keeper.get(f"/decks/{deck}/deck.csv?version=0").status_code == 400


def test_a_deck_of_a_game_without_statistics_has_its_page_and_exports_but_no_hand(clients):
    keeper, _ = clients
    deck = kept(keeper, text="Format: taktik52\nDeck:\n1 Ace of Spades\n1 10 of Hearts\n")
    page = keeper.get(f"/decks/{deck}")
    assert page.status_code == 200 and "Ace of Spades" in page.text and "Opening hand and Exertion" not in page.text
    assert "1 Ace of Spades" in keeper.get(f"/decks/{deck}/decklist.txt").text
    assert keeper.get(f"/decks/{deck}/sheet").status_code == 200
    assert keeper.get(f"/api/decks/{deck}/hand").status_code == 400  # no Endurance to deal from: said, not a 500
