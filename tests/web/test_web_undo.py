"""Undo on the web names the import it takes back (issue 28): the page's form carries the id of the import the page
showed, two undos of it at once undo it once (the other is told it was already undone), and an id that names no
import of the collection is refused with nothing changed — on SQLite and PostgreSQL."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import COLLECTION_HEADER as HEADER, sheet, together, totals

SHEETS = [("a.csv", HEADER + "Thrust (1),ME,3,LP,English,no,0,0,,\n"),
          ("b.csv", HEADER + "Thrust (1),ME,5,LP,English,no,0,0,,\nUpper Left Attack (1),ME,2,NM,English,no,0,0,,\n"),
          ("c.csv", HEADER + "Thrust (1),ME,1,LP,English,no,0,0,,\nBack Away (Kern),WC,2,M,German,yes,0,0,,\n")]


@pytest.fixture
def web(db_url):
    """A test client of the app on a new database of each kind, and a library app on the same database."""
    from fastapi.testclient import TestClient

    from deckcheck.library.api import CollectionApp
    from deckcheck.web import create_app
    library = CollectionApp(db_url)
    library.collections.names()
    with TestClient(create_app(db_url=db_url), client=("127.0.0.1", 50000)) as client:  # this machine
        client.get("/")
        yield client, library


def token(client) -> str:
    from deckcheck.web.security import CSRF_COOKIE
    return client.cookies[CSRF_COOKIE]


def import_all(library, tmp_path: Path, collection: str, sheets=SHEETS) -> list[int]:
    """Import the sheets one after the other; their import ids."""
    ids = []
    for label, text in sheets:
        _l, changes, _p, _r = library.import_sheet(sheet(tmp_path, text, label), collection=collection)
        ids.append(changes[collection].import_id)
    return ids


def undo_form(client, collection: str) -> dict[str, str]:
    """The hidden fields of the collection page's undo form, as a browser would send them."""
    page = client.get("/collection", params={"collection": collection}).text
    form = page.split('action="/collection/undo"')[1].split("</form>")[0]
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))


def post_undo(client, fields: dict[str, str]):
    return client.post("/collection/undo", data=fields, follow_redirects=False)


def test_two_undo_posts_at_once_undo_one_import(web, tmp_path):
    """A double click on "Undo this import": ten rounds in a row, each two posts of the same form at once."""
    client, library = web
    for n in range(10):
        name = f"round {n}"
        ids = import_all(library, tmp_path, name)
        fields = undo_form(client, name)
        assert fields["import_id"] == str(ids[2])
        answers = together([lambda fields=fields: post_undo(client, fields)] * 2)
        codes = sorted(a.status_code for a in answers)
        assert codes == [303, 409], (n, [(a.status_code, a.text[:300]) for a in answers])
        refused = next(a for a in answers if a.status_code == 409)
        assert f"import {ids[2]} (c.csv, " in refused.text and "was already undone" in refused.text, refused.text
        assert [p.label for p in library.collections.imports(name)] == ["b.csv", "a.csv"], n
        assert {t[0]: t[4] for t in totals(library, name)} == {"ME-thrust-1": 8, "ME-upper-left-attack-1": 2}, n


def test_a_form_from_an_older_page_undoes_the_import_it_showed(web, tmp_path):
    client, library = web
    import_all(library, tmp_path, "main", SHEETS[:2])
    fields = undo_form(client, "main")  # the page says "Last import: b.csv"
    import_all(library, tmp_path, "main", SHEETS[2:])  # then c.csv lands (another tab, the CLI)
    r = post_undo(client, fields)
    assert r.status_code == 303 and "undone=b.csv" in r.headers["location"]
    assert "the import of b.csv. What it changed is taken back; changes made since it stay" in \
        client.get(r.headers["location"]).text
    assert [p.label for p in library.collections.imports("main")] == ["c.csv", "a.csv"]
    assert {t[0]: t[4] for t in totals(library)} == {"ME-thrust-1": 4, "WC-back-away-kern": 2}
    again = post_undo(client, fields)  # the same old page, once more
    assert again.status_code == 409 and "was already undone" in again.text
    assert [p.label for p in library.collections.imports("main")] == ["c.csv", "a.csv"]


def test_the_api_names_the_last_import_and_undo_takes_its_id(web, tmp_path):
    client, library = web
    ids = import_all(library, tmp_path, "main")
    last = client.get("/api/collection").json()["last_import"]
    assert (last["id"], last["label"], last["mode"]) == (ids[2], "c.csv", "merge")
    r = post_undo(client, {"csrf_token": token(client), "collection": "main", "import_id": str(ids[0])})
    assert r.status_code == 303 and "undone=a.csv" in r.headers["location"]
    assert {t[0]: t[4] for t in totals(library)} == {"ME-thrust-1": 6, "ME-upper-left-attack-1": 2,
                                                     "WC-back-away-kern": 2}  # b's and c's copies stay
    r = post_undo(client, {"csrf_token": token(client), "collection": "main"})  # no id: the last, as before
    assert r.status_code == 303 and "undone=c.csv" in r.headers["location"]
    assert client.get("/api/collection").json()["last_import"]["label"] == "b.csv"


def test_an_undo_that_a_later_change_blocks_says_which_and_changes_nothing(web, tmp_path):
    client, library = web
    ids = import_all(library, tmp_path, "main", SHEETS[:1])
    library.collections.edit("main", library.holding("Thrust (1)", "ME", condition="LP", quantity=2), -1)
    before = totals(library)
    r = post_undo(client, {"csrf_token": token(client), "collection": "main", "import_id": str(ids[0])})
    assert r.status_code == 409 and "a later change stands in its way" in r.text and "changed since by hand" in r.text
    assert totals(library) == before and [p.id for p in library.collections.imports("main")] == ids


@pytest.mark.parametrize("given, status, said", [
    ("abc", 400, "an import id is a whole number"), ("²", 400, "an import id is a whole number"),
    ("١", 400, "an import id is a whole number"), ("-1", 400, "an import id is a whole number"),
    ("0", 400, "an import id is a whole number"), ("1.0", 400, "an import id is a whole number"),
    ("9" * 5000, 400, "an import id is a whole number"), ("999", 404, "no import 999 into the collection"),
    ("foreign", 404, "into the collection"), ("undone", 409, "was already undone")])
def test_undo_of_a_bad_or_strange_id_is_refused_and_changes_nothing(web, tmp_path, given, status, said):
    client, library = web
    ids = import_all(library, tmp_path, "main")
    other = import_all(library, tmp_path, "binder", SHEETS[:1])
    library.undo_import("main", ids[1])
    wanted = {"foreign": str(other[0]), "undone": str(ids[1])}.get(given, given)
    before = (totals(library), totals(library, "binder"), library.collections.imports("main"))
    r = post_undo(client, {"csrf_token": token(client), "collection": "main", "import_id": wanted})
    assert r.status_code == status and said in r.text and "Traceback" not in r.text, r.text[:500]
    assert (totals(library), totals(library, "binder"), library.collections.imports("main")) == before
