"""Cards: search with filters, paging and sort; a card's page and JSON; unknown shown as unknown."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_api_cards_searches_words_in_any_order(client):
    body = client.get("/api/cards", params={"q": "away back kurgan"}).json()
    assert body["total"] >= 1
    assert all("Back Away" in c["name"] and "Kurgan" in c["name"] + c["immortal"] for c in body["cards"])


def test_api_cards_rows_are_card_sheet_rows(client):
    from deckcheck.cardsheet import COLUMNS
    card = client.get("/api/cards", params={"q": "Connor MacLeod Persona"}).json()["cards"][0]
    assert set(COLUMNS) <= set(card)
    assert card["type"] == "Persona" and card["immortal"] == "Connor MacLeod"


@pytest.mark.parametrize("params, check", [
    ({"type": "Persona"}, lambda c: c["type"] == "Persona"),
    ({"set": "ME"}, lambda c: c["set"] == "ME"),
    ({"edition": 2}, lambda c: c["edition"] == "2"),
    ({"immortal": "kurgan"}, lambda c: "Kurgan" in c["immortal"]),
    ({"unknown": "grid"}, lambda c: c["grid"] == "unknown" and c["type"] in ("Attack", "Block", "Dodge",
                                                                             "Special Attack")),
    ({"known": "grid", "type": "Block"}, lambda c: c["grid"] not in ("", "unknown")),
])
def test_api_cards_filters(client, params, check):
    body = client.get("/api/cards", params={**params, "limit": 500}).json()
    assert body["total"] > 0 and body["cards"]
    assert all(check(c) for c in body["cards"]), params


def test_api_cards_pages_and_sorts(client):
    everything = client.get("/api/cards", params={"q": "attack", "limit": 500}).json()
    first = client.get("/api/cards", params={"q": "attack", "limit": 5}).json()
    second = client.get("/api/cards", params={"q": "attack", "limit": 5, "offset": 5}).json()
    assert first["total"] == second["total"] == everything["total"] > 10
    assert [c["id"] for c in first["cards"] + second["cards"]] == [c["id"] for c in everything["cards"][:10]]
    by_set = client.get("/api/cards", params={"q": "attack", "sort": "set", "limit": 500}).json()["cards"]
    sets = [c["set"] or "~" for c in by_set]
    assert sets == sorted(sets)


@pytest.mark.parametrize("params", [{"limit": 0}, {"limit": 501}, {"offset": -1}, {"edition": "x"}])
def test_api_cards_bad_parameters_are_400(client, params):
    r = client.get("/api/cards", params=params)
    assert r.status_code == 400 and "error" in r.json()


def test_api_card_by_id_and_404(client):
    row = client.get("/api/cards", params={"q": "Connor MacLeod Persona"}).json()["cards"][0]
    assert client.get(f"/api/cards/{row['id']}").json() == row
    r = client.get("/api/cards/no-such-card")
    assert r.status_code == 404 and "no-such-card" in r.json()["error"]


def test_the_filter_form_as_a_browser_sends_it(client):
    """Without JavaScript the form sends every field, the empty ones too."""
    empty = {"q": "kurgan", "edition": "", "set": "", "type": "", "immortal": "", "weapon": "", "known": "",
             "unknown": "", "sort": "name"}
    r = client.get("/cards", params=empty)
    assert r.status_code == 200 and "Kurgan" in r.text


def test_the_filter_form_shows_the_filters_it_applies_in_a_players_words(client):
    """A type no card of the list has (from a link) stays selected, not shown as "any" while it filters every card
    out; the games and the known/unknown fields are offered by their names, not their ids."""
    page = client.get("/cards", params={"q": "block", "type": "Basic", "game": "taktik52", "unknown": "hand_icons"})
    assert "<option selected>Basic</option>" in page.text and "0 cards" in page.text
    assert '<option value="taktik52" selected>Taktisches Kartenspiel</option>' in page.text
    assert '<option value="hand_icons" selected>Hand icons</option>' in page.text
    assert ">hand_icons<" not in page.text and ">highlander<" not in page.text


def test_cards_page_lists_links_and_pages(client):
    page = client.get("/cards", params={"q": "attack", "limit": 5}).text
    assert page.count('class="card-row"') == 5
    assert 'rel="next"' in page and "offset=5" in page
    fragment = client.get("/cards", params={"q": "attack"}, headers={"HX-Request": "true"}).text
    assert fragment.lstrip().startswith('<div id="results"')


def test_card_page_shows_unknown_as_unknown(client):
    row = client.get("/api/cards", params={"unknown": "restriction", "type": "Attack", "limit": 1}).json()["cards"][0]
    page = client.get(f"/cards/{row['id']}").text
    assert row["name"] in page
    assert '<tr data-field="restriction"><th scope="row">Restriction number</th>\n        <td><span ' \
           'class="unknown-value">unknown</span>' in page


def test_card_page_of_an_unknown_id_is_404(client):
    assert client.get("/cards/nope").status_code == 404


def test_card_page_escapes_the_id(client):
    r = client.get("/cards/<script>alert(1)</script>")
    assert r.status_code == 404 and "<script>alert(1)" not in r.text


@pytest.fixture()
def owned_client(tmp_path):
    """An app on a database with a collection imported and a deck saved."""
    from fastapi.testclient import TestClient

    from deckcheck.library.api import CollectionApp
    from deckcheck.web import create_app
    url = f"sqlite:///{tmp_path / 'owned.db'}"
    collection = CollectionApp(url)
    collection.import_sheet(ROOT / "examples/collection/my-binder.csv")
    collection.save_deck("connor", str(ROOT / "examples/decks/type1e-connor-legal.txt"))
    # the user at this machine (loopback): the keeper of a personal server, who sees the saved decks
    with TestClient(create_app(db_url=url), client=("127.0.0.1", 50000)) as client:
        yield client


def test_card_page_shows_owned_copies_and_decks_using_it(owned_client):
    row = owned_client.get("/api/cards", params={"q": "Connor MacLeod Persona"}).json()["cards"][0]
    page = owned_client.get(f"/cards/{row['id']}").text
    assert '<a href="/decks/connor">connor</a>' in page


def test_cards_page_and_its_json_twin_list_the_same_cards(client):
    params = {"q": "block", "sort": "set", "limit": 20, "offset": 3}
    api_ids = [c["id"] for c in client.get("/api/cards", params=params).json()["cards"]]
    page = client.get("/cards", params=params).text
    import re
    from urllib.parse import unquote
    assert [unquote(i) for i in re.findall(r'class="card-row" href="/cards/([^"]+)"', page)] == api_ids


def test_card_page_twin_has_printings_owned_and_decks(owned_client):
    row = owned_client.get("/api/cards", params={"q": "Connor MacLeod Persona"}).json()["cards"][0]
    detail = owned_client.get(f"/api/cards/{row['id']}", params={"detail": "true"}).json()
    assert detail["card"] == row
    assert [d["name"] for d in detail["decks"]] == ["connor"]
    assert sum(o["quantity"] for o in detail["owned"]) >= 1


@pytest.fixture()
def admin_client(tmp_path, web_db):
    """An app with an admin token, on a copy of the web database."""
    import shutil

    from fastapi.testclient import TestClient

    from deckcheck.web import create_app
    db = tmp_path / "admin.db"
    shutil.copy(web_db.removeprefix("sqlite:///"), db)
    with TestClient(create_app(db_url=f"sqlite:///{db}", admin_token="s3cret-token")) as client:
        client.get("/")
        yield client


def _unknown_attack(client) -> dict:
    return client.get("/api/cards", params={"unknown": "restriction", "type": "Attack", "limit": 1}).json()["cards"][0]


def test_without_the_admin_token_cards_are_read_only(client, csrf):
    card = _unknown_attack(client)
    assert 'action="/cards/' not in client.get(f"/cards/{card['id']}").text
    r = client.post(f"/cards/{card['id']}/edit", data={"csrf_token": csrf, "restriction": "2", "who": "me",
                                                        "admin_token": "x"})
    assert r.status_code == 403


def test_edit_with_the_admin_token_changes_only_what_was_changed(admin_client):
    from deckcheck.web.security import CSRF_COOKIE
    card = _unknown_attack(admin_client)
    page = admin_client.get(f"/cards/{card['id']}").text
    assert f'action="/cards/{card["id"]}/edit"' in page
    form = {"csrf_token": admin_client.cookies[CSRF_COOKIE], "who": "Judge Ann", "admin_token": "s3cret-token",
            "restriction": "3", "type": card["type"], "text": ""}
    r = admin_client.post(f"/cards/{card['id']}/edit", data=form, follow_redirects=False)
    assert r.status_code == 303 and "edited=restriction" in r.headers["location"]
    after = admin_client.get(f"/api/cards/{card['id']}").json()
    assert after["restriction"] == "3"
    assert {k: v for k, v in after.items() if k != "restriction"} == {k: v for k, v in card.items()
                                                                       if k != "restriction"}
    from deckcheck.db.store import Store
    from deckcheck.db.sources import stored_sources
    url = admin_client.app.state.deckcheck.settings.db_url
    source = stored_sources(Store(url), [card["id"]])[card["id"]]["restriction"]
    assert (source.kind, source.ref) == ("web", "Judge Ann")


@pytest.mark.parametrize("change, status", [
    ({"admin_token": "wrong"}, 403),
    ({"csrf_token": "x" * 43}, 403),
    ({"who": " "}, 400),
    ({"restriction": "many"}, 400),
    ({"grid": "UL XX"}, 400),
])
def test_bad_edits_change_nothing(admin_client, change, status):
    from deckcheck.web.security import CSRF_COOKIE
    card = _unknown_attack(admin_client)
    form = {"csrf_token": admin_client.cookies[CSRF_COOKIE], "who": "Ann", "admin_token": "s3cret-token",
            "restriction": "2", **change}
    r = admin_client.post(f"/cards/{card['id']}/edit", data=form, follow_redirects=False)
    assert r.status_code == status
    assert admin_client.get(f"/api/cards/{card['id']}").json() == card


def test_an_edit_reaches_the_checker(admin_client):
    """After Restriction 1 is set, two copies of the card are an HL-RESTRICTED error in /api/check."""
    from deckcheck.web.security import CSRF_COOKIE
    card = _unknown_attack(admin_client)
    deck = f"2 {card['name']} [{card['set']}]"
    before = admin_client.post("/api/check", json={"decklist": deck}).json()
    assert "HL-RESTRICTED" not in {i["rule"] for i in before["issues"]}
    form = {"csrf_token": admin_client.cookies[CSRF_COOKIE], "who": "Ann", "admin_token": "s3cret-token",
            "restriction": "1"}
    assert admin_client.post(f"/cards/{card['id']}/edit", data=form, follow_redirects=False).status_code == 303
    after = admin_client.post("/api/check", json={"decklist": deck}).json()
    assert "HL-RESTRICTED" in {i["rule"] for i in after["issues"]}


def source_row(page: str, column: str) -> str:
    """The row of a card page's sources (folded away under "Where each value came from") of one field."""
    sources = page[page.index('<details class="sources">'):]
    row = sources[sources.index(f'<tr data-field="{column}">'):]
    return row[:row.index("</tr>")]


def test_card_page_says_where_each_value_came_from(client):
    """Issue 15: the page shows each value's provenance beside it, a named source as a link; the JSON twin
    gives the same per column."""
    import html
    detail = client.get("/api/cards/SE-connor-macleod-persona", params={"detail": "true"}).json()
    sources = detail["sources"]
    address = "http://www.watcherdatabase.tk/Articles/2.html"
    assert sources["gem_master"] == {"kind": "source", "ref": address, "at": "",
                                     "text": f"a named public source: {address}", "href": address}
    assert sources["set"]["kind"] == "checklist" and sources["title"] == {
        "kind": "derived", "ref": "name", "at": "", "text": "derived: name", "href": None}
    assert "restriction" not in sources  # unknown: no value, so no source
    page = client.get("/cards/SE-connor-macleod-persona").text
    assert f'<a href="{address}" rel="noopener nofollow">{address}</a>' in page
    assert html.escape("the bundled checklist (edforth/ccgdata)") in source_row(page, "set")


def test_a_web_edit_shows_who_and_when_on_the_card_page(admin_client):
    from deckcheck.web.security import CSRF_COOKIE
    card = _unknown_attack(admin_client)
    form = {"csrf_token": admin_client.cookies[CSRF_COOKIE], "who": "Judge <Ann>", "admin_token": "s3cret-token",
            "restriction": "3"}
    assert admin_client.post(f"/cards/{card['id']}/edit", data=form, follow_redirects=False).status_code == 303
    source = admin_client.get(f"/api/cards/{card['id']}", params={"detail": "true"}).json()["sources"]["restriction"]
    assert source["kind"] == "web" and source["ref"] == "Judge <Ann>" and source["at"].endswith("+00:00")
    page = admin_client.get(f"/cards/{card['id']}").text
    assert f"a web edit: Judge &lt;Ann&gt;, {source['at']}" in source_row(page, "restriction")


def test_values_stored_without_a_source_say_not_recorded(tmp_path, web_db):
    """A database filled before deckcheck kept provenance: its values show as 'not recorded', never blank."""
    import shutil
    import sqlite3

    from fastapi.testclient import TestClient

    from deckcheck.web import create_app
    db = tmp_path / "old.db"
    shutil.copy(web_db.removeprefix("sqlite:///"), db)
    with sqlite3.connect(db) as con:
        con.execute("delete from card_source where card_id = 'SE-connor-macleod-persona'")
    with TestClient(create_app(db_url=f"sqlite:///{db}")) as client:
        sources = client.get("/api/cards/SE-connor-macleod-persona", params={"detail": "true"}).json()["sources"]
        assert sources["set"] is None and sources["gem_master"] is None and "restriction" not in sources
        page = client.get("/cards/SE-connor-macleod-persona").text
        assert "not recorded" in source_row(page, "set")


def test_api_cards_weapon_filter(client):
    body = client.get("/api/cards", params={"weapon": "katana", "limit": 500}).json()
    assert body["total"] > 0 and all("Katana" in c["weapon"] for c in body["cards"])
    everything = client.get("/api/cards", params={"limit": 500}).json()["total"]
    assert body["total"] < everything


def test_api_cards_words_of_the_text(client):
    """Words of a card's rules text find it, though its name holds none of them."""
    body = client.get("/api/cards", params={"q": "look at hidden attacks", "limit": 500}).json()
    assert body["total"] >= 1
    assert all("look at Hidden attacks" in c["text"] for c in body["cards"])
    assert "SE-connor-macleod-persona" in [c["id"] for c in body["cards"]]


def test_card_page_shows_the_grid_and_the_printings(client):
    block = client.get("/api/cards", params={"known": "grid", "type": "Block", "limit": 1}).json()["cards"][0]
    page = client.get(f"/cards/{block['id']}").text
    from deckcheck.grid import SQUARE_NAMES, SQUARES, parse_grid
    mask = parse_grid(block["grid"])
    covered = ", ".join(SQUARE_NAMES[s] for i, s in enumerate(SQUARES) if mask & (1 << i))
    assert covered and f'<svg class="grid" viewBox="0 0 78 78" width="156" height="156" role="img" ' \
                       f'aria-label="grid: {covered}">' in page
    unknown = client.get("/api/cards", params={"unknown": "grid", "type": "Block", "limit": 1}).json()["cards"][0]
    page = client.get(f"/cards/{unknown['id']}").text
    assert 'aria-label="grid: unknown"' in page and "Grid unknown" in page
    page = client.get("/cards/SE-connor-macleod-persona").text
    printings = page[page.index("<h2>Printings</h2>"):page.index("<h2>Owned copies</h2>")]
    assert '<a href="/cards/ME-connor-macleod-persona">' in printings
    assert '<a href="/cards/TIN-connor-macleod-persona">' in printings


def test_card_page_lists_its_own_games_fields_and_none_blank(client):
    """Every field of the card's game has a row with a value, 'unknown', or a dash for none; never an empty cell.
    Fields only another game has (a taktik52 suit, a Raven renown) are not listed for a Highlander card."""
    import re
    for card_id in ("SE-connor-macleod-persona", _unknown_attack(client)["id"]):
        page = client.get(f"/cards/{card_id}").text
        table = page[page.index('<table class="fields">'):page.index("</table>")]
        rows = re.findall(r'<tr data-field="([^"]+)"><th scope="row">[^<]+</th>\s*<td>(.*?)</td>', table, flags=re.S)
        names = [name for name, _ in rows]
        assert "suit" not in names and "renown" not in names
        assert {"type", "grid", "restriction", "rarity"} <= set(names)
        assert ("gem_master" in names) == (card_id == "SE-connor-macleod-persona")  # 1E: gems only on a Persona
        assert [name for name, value in rows if not value.strip()] == []


def test_card_page_shows_the_owned_copies(owned_client):
    page = owned_client.get("/cards/SE-connor-macleod-persona").text
    owned = page[page.index("<h2>Owned copies</h2>"):page.index("<h2>Saved decks using it</h2>")]
    assert '<td class="lead">main</td>' in owned and 'data-label="copies">1</td>' in owned


def test_a_card_is_drawn_from_its_data(client):
    """Issue 24: the card face: title bar with the Immortal's name and marks, the grid, the type line, the text,
    the gems of a 2nd-edition card, set and rarity; a "?" badge for each unknown value, leading to the fill-in."""
    import re
    persona = client.get("/cards/SE-connor-macleod-persona").text
    face = persona[persona.index('<figure class="card-face'):persona.index("</figure>")]
    assert '<span class="cf-owner">Connor MacLeod</span>' in face and "Up to <b>7</b> Master cards" in face
    assert '<div class="cf-foot">SE · Rare · 1st edition</div>' in face
    assert re.search(r'<tr data-field="gem_master"><th scope="row">Master cards allowed</th>\s*<td>7</td>', persona)
    unknown = client.get("/api/cards", params={"unknown": "restriction", "type": "Attack", "limit": 1}).json()
    page = client.get(f"/cards/{unknown['cards'][0]['id']}").text
    badges = re.findall(r'<a class="cf-unknown[^"]*" href="([^"]+)" title="([^"]+)"', page)
    form = f"/cards/{unknown['cards'][0]['id']}/facts"  # the fill-in form of card facts (issue 22)
    assert (form, "Restriction number unknown: fill it in") in badges and 'id="facts"' in page
    assert all(href == form for href, _ in badges)
    assert client.get(form).status_code == 200
    gems = client.get("/cards/P03-028").text  # Katana Master of the Katana: Master 1, Reason 2
    face = gems[gems.index('<figure class="card-face'):gems.index("</figure>")]
    assert re.findall(r'<li class="gem gem-(\w+)".*?<b>(\d+)</b></li>', face, flags=re.S) == [("master", "1"),
                                                                                            ("reason", "2")]
    assert "Situation — Standing Defense" in face and "2nd edition (Type 2)" in face
    reserved = next(c for c in client.get("/api/cards", params={"limit": 500}).json()["cards"]
                    if c["reserved"] == "yes")
    page = client.get(f"/cards/{reserved['id']}").text
    assert '<span class="cf-mark reserved" title="Reserved: only its own Persona includes it">' in page


def test_the_search_list_draws_a_grid_only_where_it_is_known(client):
    unknown = client.get("/cards", params={"type": "Block", "unknown": "grid"}).text
    known = client.get("/cards", params={"type": "Block", "known": "grid"}).text
    assert unknown.count('class="card-row"') > 0 and '<span class="mini">' not in unknown
    assert known.count('class="card-row"') == known.count('<span class="mini">') > 0
    assert 'aria-label="grid: unknown"' not in known


@pytest.mark.parametrize("card_id, corner, ink", [("taktik52-QH", "Q♥", "red"), ("taktik52-10S", "10♠", "black")])
def test_a_playing_cards_face_shows_its_rank_and_suit_in_its_ink(client, card_id, corner, ink):
    page = client.get(f"/cards/{card_id}").text
    figure = page[page.index('<figure class="card-face'):page.index("</figure>")]
    assert f"pips ink-{ink}" in figure and figure.count(f">{corner}</span>") == 2  # the two corners
    assert f"{corner}, {ink}</span>" in figure  # and in words
    assert "Taktisches Kartenspiel" in figure and "cf-stats" not in figure and "Generic" not in figure


def test_a_raven_and_a_hero_face_show_their_games_own_columns_unknown_as_unknown():
    from conftest import load_sheet
    from deckcheck.web.cardface import face
    from deckcheck.web.cards import columns_of
    raven = {c.name: c for c in load_sheet(ROOT / "examples/other-games/raven-stormcrow-cards.csv")}
    drawn = face(raven["Ranger Ann"], columns_of(raven["Ranger Ann"]))
    assert (drawn.owner, drawn.corner, drawn.stats) == (
        "The Raven and the Stormcrow", "", [("renown", "Renown", "12"), ("health", "Health", "8"),
                                            ("skill", "Skill", "3")])
    longbow = face(raven["Longbow"], columns_of(raven["Longbow"]))
    assert ("health", "Health", None) in longbow.stats  # its sheet leaves Health blank: a "?" badge, no guess
    (fox, *_) = load_sheet(ROOT / "examples/other-games/taktik52-heroes.csv")
    hero = face(fox, columns_of(fox))
    assert hero.corner == "" and [(k, v) for k, _label, v in hero.stats] == [("rank", "Q"), ("suit", "hearts")]



@pytest.fixture()
def own_client(pristine_web_db, tmp_path):
    """A server of its own (it writes a card's text, which the shared web_db's facts sheet tests would list)."""
    import shutil

    from fastapi.testclient import TestClient

    from deckcheck.web import create_app
    db = tmp_path / "own.db"
    shutil.copy(pristine_web_db.removeprefix("sqlite:///"), db)
    with TestClient(create_app(db_url=f"sqlite:///{db}")) as c:
        yield c


def test_card_pages_read_the_cards_once_for_the_catalogues_life(own_client, card_reads):
    """A card's page, its JSON and the search page read the stored cards once for the server's catalogue (as its
    name indexes), not at each request (three reads of ~1,500 rows made a card page take ~0.3 s); a write of the
    cards by anyone makes a new catalogue, so the next page reads them again."""
    client, reads = own_client, card_reads
    row = client.get("/api/cards", params={"q": "Connor MacLeod Persona"}).json()["cards"][0]
    client.get("/cards?q=attack")  # builds the name index of every game (once for the catalogue too)
    client.get(f"/cards/{row['id']}")  # the collections' cards by id (once for the catalogue too)
    first = len(reads)
    for path in (f"/cards/{row['id']}", f"/api/cards/{row['id']}?detail=1", f"/cards/{row['id']}",
                 "/cards?q=attack", "/cards", "/cards?q=connr"):
        assert client.get(path).status_code == 200
        assert len(reads) == first, path
    edited = client.post(f"/api/cards/{row['id']}/facts", json={"by": "tester", "values": {"text": "a new text"}})
    assert edited.status_code == 200, edited.text  # the keeper's answer (a personal server's visitor) is applied
    assert client.get(f"/api/cards/{row['id']}").json()["text"] == "a new text"
    assert "a new text" in client.get(f"/cards/{row['id']}").text
    assert len(reads) > first  # read again after the write
