"""The collection page: import with a preview of every change then confirm, filters and totals, exports, needs."""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BINDER = ROOT / "examples/collection/my-binder.csv"


@pytest.fixture(scope="module")
def pristine_db(tmp_path_factory) -> str:
    """A database of this module's own: the session's web_db holds decks and collections other modules saved."""
    from deckcheck.db.store import Store
    url = f"sqlite:///{tmp_path_factory.mktemp('coll') / 'pristine.db'}"
    Store(url).count()
    return url


@pytest.fixture()
def coll_client(tmp_path, pristine_db):
    import shutil

    from fastapi.testclient import TestClient

    from deckcheck.web import create_app
    db = tmp_path / "coll.db"
    shutil.copy(pristine_db.removeprefix("sqlite:///"), db)
    with TestClient(create_app(db_url=f"sqlite:///{db}"), client=("127.0.0.1", 50000)) as client:  # this machine
        client.get("/")
        yield client


def token(client) -> str:
    from deckcheck.web.security import CSRF_COOKIE
    return client.cookies[CSRF_COOKIE]


def preview(client, path: Path = BINDER, **fields):
    data = {"csrf_token": token(client), "mode": "merge", "collection": "main", **fields}
    return client.post("/collection/import", data=data, files={"file": (path.name, path.read_bytes())})


def confirm(client, page: str):
    form = page.split("/import/confirm")[1].split("</form>")[0]
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form))
    return client.post("/collection/import/confirm", data=fields, follow_redirects=False)


def test_preview_lists_every_change_and_changes_nothing(coll_client):
    r = preview(coll_client)
    assert r.status_code == 200
    assert "layout detected: <b>deckcheck</b>" in r.text
    assert r.text.count('<tr class="added">') == 6
    assert coll_client.get("/api/collection").json()["totals"]["entries"] == 0


def test_confirm_imports_what_the_preview_showed(coll_client):
    page = preview(coll_client).text
    r = confirm(coll_client, page)
    assert r.status_code == 303 and "imported=6" in r.headers["location"]
    body = coll_client.get("/api/collection").json()
    assert body["totals"]["entries"] == 6 and body["totals"]["copies"] == 12
    again = confirm(coll_client, page)  # a preview is confirmed once; a second confirmation says so
    assert again.status_code == 409 and "already imported" in again.text


def test_merging_the_same_sheet_again_previews_updates(coll_client):
    confirm(coll_client, preview(coll_client).text)
    again = preview(coll_client).text
    assert again.count('<tr class="updated">') == 6
    replace = preview(coll_client, mode="replace").text
    assert "6 unchanged" in replace and '<tr class="' not in replace.split("</thead>")[-1].split("</table>")[0]


def test_the_preview_shows_each_entry_and_the_totals_old_to_new(coll_client, tmp_path):
    confirm(coll_client, preview(coll_client).text)
    more = tmp_path / "more.csv"
    more.write_text("card,set,quantity,condition,trade_quantity\nThrust (2),ME,2,LP,1\nThrust (1),ME,3,NM,0\n")
    page = preview(coll_client, more).text
    rows = {m[0]: re.sub(r"<[^>]+>", "", m[1]) for m in re.findall(
        r'<td class="lead">([^<]+)</td>.*?data-label="copies">(.*?)</td>', page, re.S)}
    assert rows == {"Thrust (2)": "4 trade 1 → 6 trade 2", "Thrust (1)": "none → 3"}, rows
    totals = {m[0]: m[1:] for m in re.findall(r'<dt>([^<]+)</dt><dd><span class="old">([\d,]+)</span> → ([\d,]+)</dd>',
                                              page)}
    assert totals == {"entries": ("6", "7"), "copies": ("12", "17"), "for trade": ("3", "4"), "wanted": ("1", "1")}


def test_a_file_imported_before_is_named_and_imported_again_only_when_asked(coll_client):
    confirm(coll_client, preview(coll_client).text)
    once = coll_client.get("/collection/export.csv").content
    page = preview(coll_client).text
    assert re.search(r"this content was imported into “main” on \d{4}-\d\d-\d\d \d\d:\d\d UTC: importing again "
                     r"adds its copies again", page), page
    assert "Import again: add its copies again" in page and "Preview replace mode instead" in page
    forged = page.replace('<input type="hidden" name="again" value="yes">', "")
    r = confirm(coll_client, forged)
    assert r.status_code == 409 and "importing again adds its copies again" in r.text
    assert coll_client.get("/collection/export.csv").content == once
    page = preview(coll_client).text
    replace = page.split('class="buttons replace-instead"')[1].split("</form>")[0]
    fields = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', replace))
    replaced = coll_client.post("/collection/import", data=fields).text
    assert "mode <b>replace</b>" in replaced and "6 unchanged" in replaced and "Import again" not in replaced
    assert confirm(coll_client, page).status_code == 303
    assert coll_client.get("/api/collection").json()["totals"]["copies"] == 24


def test_undo_on_the_web_restores_the_collection_exactly(coll_client, tmp_path):
    more = tmp_path / "more.csv"
    more.write_text("card,set,quantity,condition\nThrust (2),ME,2,LP\n")
    confirm(coll_client, preview(coll_client, more).text)
    before = coll_client.get("/collection/export.csv").content
    assert confirm(coll_client, preview(coll_client, mode="replace").text).status_code == 303
    page = coll_client.get("/collection").text
    assert "Last import: <b>my-binder.csv</b>" in page and "Undo this import" in page
    assert coll_client.get("/collection/export.csv").content != before
    r = coll_client.post("/collection/undo", data={"csrf_token": token(coll_client), "collection": "main"},
                         follow_redirects=False)
    assert r.status_code == 303 and "undone=my-binder.csv" in r.headers["location"]
    assert coll_client.get("/collection/export.csv").content == before
    assert "Last import: <b>more.csv</b>" in coll_client.get("/collection").text
    coll_client.post("/collection/undo", data={"csrf_token": token(coll_client), "collection": "main"})
    r = coll_client.post("/collection/undo", data={"csrf_token": token(coll_client), "collection": "main"})
    assert r.status_code == 409 and "no import into the collection &#39;main&#39; to undo" in r.text
    assert coll_client.post("/collection/undo", data={"collection": "main"}).status_code == 403


def test_bad_rows_block_the_confirm_unless_skipped(coll_client, tmp_path):
    sheet = tmp_path / "bad.csv"
    sheet.write_text("card,quantity\nThrust (2),2\nThrustt,1\nUpper Left Attack (1),lots\n")
    page = preview(coll_client, sheet).text
    assert "2 bad rows" in page and "Thrustt" in page
    assert '<button type="submit" class="primary" disabled>' in page
    page = preview(coll_client, sheet, skip_bad="yes").text
    assert confirm(coll_client, page).status_code == 303
    assert coll_client.get("/api/collection").json()["totals"]["copies"] == 2


def test_import_needs_the_csrf_token(coll_client):
    r = coll_client.post("/collection/import", data={"mode": "merge"}, files={"file": ("b.csv", BINDER.read_bytes())})
    assert r.status_code == 403


@pytest.mark.parametrize("name, status", [("binder.txt", 400), ("../../etc/passwd", 400), ("b.csv", 200)])
def test_only_sheets_are_kept_and_under_our_own_name(coll_client, name, status):
    from deckcheck.web import previews
    r = coll_client.post("/collection/import", data={"csrf_token": token(coll_client)},
                         files={"file": (name, BINDER.read_bytes())})
    assert r.status_code == status
    if status == 200:
        found = re.search(r'name="token" value="([^"]+)"', r.text)
        assert found is not None
        kept = found.group(1)
        assert [p.name for p in previews.folder().iterdir() if p.name.startswith(kept)] == [f"{kept}.csv"]


@pytest.mark.parametrize("bad", ["../../../etc/passwd", "x" * 10, "", "a/b" * 20])
def test_confirm_with_a_forged_token_is_refused(coll_client, bad):
    r = coll_client.post("/collection/import/confirm", data={"csrf_token": token(coll_client), "token": bad})
    assert r.status_code == 400 and "expired" in r.text


def test_page_filters_totals_and_json_twin_agree(coll_client):
    confirm(coll_client, preview(coll_client).text)
    params = {"q": "binder", "condition": "NM"}
    api = coll_client.get("/api/collection", params=params).json()
    page = coll_client.get("/collection", params=params).text
    assert api["totals"]["entries"] == page.count("<tr><td><a href=\"/cards/") >= 1
    assert f"<dt>copies</dt><dd>{api['totals']['copies']}</dd>" in page
    assert all(e["condition"] == "NM" for e in api["entries"])


def test_exports_read_back(coll_client):
    from openpyxl import load_workbook
    confirm(coll_client, preview(coll_client).text)
    csv_text = coll_client.get("/collection/export.csv").text
    assert csv_text.splitlines()[0].startswith("card,set,quantity,condition")
    assert len(csv_text.strip().splitlines()) == 7
    book = load_workbook(io.BytesIO(coll_client.get("/collection/export.xlsx").content))
    assert book.active.max_row == 7
    assert coll_client.get("/collection/export.pdf").status_code == 404


def test_what_saved_decks_need_and_the_want_list(coll_client):
    text = (ROOT / "examples/decks/type1e-connor-legal.txt").read_text()
    coll_client.post("/decks", data={"decklist": text, "csrf_token": token(coll_client)})
    needs = coll_client.get("/api/collection/missing").json()
    assert needs["short"] > 0 and len(needs["decks"]) == 1
    # the object of `collection missing --json` for the saved decks, each row with its card's id, and the total
    from deckcheck.library.api import CollectionApp
    library = CollectionApp(coll_client.app.state.deckcheck.settings.db_url)
    cli = library.missing(list(needs["decks"]), "main").as_dict("main")
    plain = {"collection": needs["collection"], "together": [{k: v for k, v in row.items() if k != "card_id"}
                                                             for row in needs["together"]],
             "decks": {d: [{k: v for k, v in row.items() if k != "card_id"} for row in rows]
                       for d, rows in needs["decks"].items()}}
    assert plain == cli and needs["short"] == sum(row["short"] for row in cli["together"])
    assert all(row["card_id"] for row in needs["together"])
    page = coll_client.get("/collection").text
    assert "Download the want list" in page
    wants = coll_client.get("/collection/wants.csv").text.strip().splitlines()
    assert wants[0].startswith("card,set,quantity") and len(wants) == len(needs["together"]) + 1


def test_value_is_counted_per_currency_as_collection_stats_counts_it(coll_client, tmp_path):
    """Euros and dollars are never added up: the page and the JSON give each currency's total, as the CLI does."""
    sheet = tmp_path / "priced.csv"
    sheet.write_text("card,quantity,price\nThrust (2),2,€1.50\nUpper Left Attack (1),3,$0.25\nBack Away (Kern),1,\n",
                     encoding="utf-8")
    assert confirm(coll_client, preview(coll_client, sheet).text).status_code == 303
    totals = coll_client.get("/api/collection").json()["totals"]
    assert totals["value_by_currency"] == {"$": 0.75, "€": 3.0}
    assert totals["value"] is None  # two currencies: no single total
    assert (totals["priced_entries"], totals["unpriced_entries"]) == (2, 1)
    from deckcheck.library.api import CollectionApp
    from deckcheck.collection import money
    stats = CollectionApp(coll_client.app.state.deckcheck.settings.db_url).stats("main")
    assert totals["value_text"] == money(stats.value) == "$0.75, €3.00"
    page = coll_client.get("/collection").text
    assert "<dd>$0.75, €3.00</dd>" in page and "(1 without a price)" in page
    entries = {e["card"]: e for e in coll_client.get("/api/collection").json()["entries"]}
    assert (entries["Thrust (2)"]["price"], entries["Thrust (2)"]["currency"]) == (1.5, "€")
    assert "price" not in entries["Back Away (Kern)"]


def test_one_currency_has_a_single_value(coll_client, tmp_path):
    sheet = tmp_path / "priced.csv"
    sheet.write_text("card,quantity,price\nThrust (2),2,1.50\nUpper Left Attack (1),3,0.25\n", encoding="utf-8")
    confirm(coll_client, preview(coll_client, sheet).text)
    totals = coll_client.get("/api/collection").json()["totals"]
    assert totals["value"] == 3.75 and totals["value_by_currency"] == {"": 3.75}


NASTY = '<img src=x onerror=alert(1)>'


def test_sheet_text_is_escaped_in_the_preview_and_the_collection(coll_client, tmp_path):
    """A stranger's sheet: a bad card name, notes and a location holding markup are shown as text everywhere."""
    sheet = tmp_path / "nasty.csv"
    sheet.write_text(f'card,quantity,location,notes\nThrust (2),1,"{NASTY}","{NASTY}"\n"{NASTY}",1,,\n',
                     encoding="utf-8")
    escaped = "&lt;img src=x onerror=alert(1)&gt;"
    page = preview(coll_client, sheet, skip_bad="yes").text
    assert NASTY not in page and escaped in page  # the bad row quotes its value
    assert confirm(coll_client, page).status_code == 303
    for path in ("/collection", "/cards/" + coll_client.get("/api/collection").json()["entries"][0]["card_id"]):
        shown = coll_client.get(path).text
        assert NASTY not in shown, path
    assert escaped in coll_client.get("/collection").text


def test_an_import_over_the_limit_is_413_before_it_is_read(tmp_path, pristine_db, monkeypatch):
    from fastapi.testclient import TestClient

    from deckcheck.web import create_app, previews

    # a folder of this test's own: the process's one also gets the previews of the other tests
    pending = tmp_path / "pending"
    monkeypatch.setattr(previews, "FOLDER", previews.private_folder(pending))
    with TestClient(create_app(db_url=pristine_db, upload_limit=32 * 1024)) as client:
        client.get("/")
        r = client.post("/collection/import", data={"csrf_token": token(client)},
                        files={"file": ("big.csv", b"card,quantity\n" + b"Thrust (2),1\n" * 5000)})
        assert r.status_code == 413 and "limit" in r.text
        assert not pending.exists() or list(pending.iterdir()) == []  # nothing of it was kept
        small = client.post("/collection/import", data={"csrf_token": token(client)},
                            files={"file": ("small.csv", b"card,quantity\nThrust (2),1\n")})
        assert small.status_code == 200 and len(list(pending.iterdir())) == 1  # the folder the app keeps them in


@pytest.mark.parametrize("fields, status", [
    ({"collection": "x" * 5000}, 400), ({"collection": "bad\x00name"}, 400), ({"collection": "never imported"}, 409)])
def test_undo_takes_input_from_strangers(coll_client, fields, status):
    confirm(coll_client, preview(coll_client).text)
    before = coll_client.get("/collection/export.csv").content
    r = coll_client.post("/collection/undo", data={"csrf_token": token(coll_client), **fields})
    assert r.status_code == status and "Traceback" not in r.text
    assert coll_client.get("/collection/export.csv").content == before


@pytest.mark.parametrize("kept", ["../../etc/passwd", "x" * 40, ""])
def test_a_new_preview_of_a_kept_sheet_needs_a_real_token(coll_client, kept):
    r = coll_client.post("/collection/import", data={"csrf_token": token(coll_client), "token": kept,
                                                     "mode": "replace", "label": "<b>x</b>.csv"})
    assert r.status_code == 400 and "<b>x</b>" not in r.text


@pytest.mark.parametrize("length", [199, 200, 250, 1000])
def test_a_long_sheet_name_is_read_by_its_suffix(coll_client, length):
    """A name past the label's 200 characters keeps its `.csv` (issue 28: it was cut before its suffix was read)."""
    name = "b" * (length - len(".csv")) + ".csv"
    data = {"csrf_token": token(coll_client), "mode": "merge", "collection": "main"}
    r = coll_client.post("/collection/import", data=data, files={"file": (name, BINDER.read_bytes())})
    assert r.status_code == 200 and "/import/confirm" in r.text, r.text[:300]
    shown = re.search(r'name="label" value="([^"]*)"', r.text)
    assert shown and shown.group(1).endswith(".csv") and len(shown.group(1)) <= 200
