"""The keeper's web import of a card sheet into the database (issue 36 item 1): upload, a preview (counts, the first
new cards, changed values, bad rows with the closest values), confirm, and undo — as the collection imports do.
Each test runs on its own copy of an initialised SQLite database (the import writes cards)."""
from __future__ import annotations

import re
import shutil
import sqlite3
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RAVEN = (ROOT / "examples/other-games/raven-stormcrow-cards.csv").read_bytes()


@pytest.fixture
def web(pristine_web_db, tmp_path):
    """A client of the app on a copy of an initialised database, from this machine (a personal server's keeper)."""
    from fastapi.testclient import TestClient

    from deckcheck.web import create_app
    db = tmp_path / "cards.db"
    shutil.copy(pristine_web_db.removeprefix("sqlite:///"), db)
    with TestClient(create_app(db_url=f"sqlite:///{db}", upload_limit=1 << 20), client=("127.0.0.1", 50000)) as c:
        c.get("/cards/import")
        yield c


def csrf(client) -> str:
    from deckcheck.web.security import CSRF_COOKIE
    return client.cookies[CSRF_COOKIE]


def upload(client, data: bytes, name: str = "raven.csv"):
    return client.post("/cards/import", data={"csrf_token": csrf(client)}, files={"file": (name, data, "text/csv")})


def confirm(client, page: str):
    token = re.search(r'name="token" value="([^"]+)"', page)
    label = re.search(r'name="label" value="([^"]+)"', page)
    assert token and label, page[-2000:]
    return client.post("/cards/import/confirm", data={"csrf_token": csrf(client), "token": token[1],
                                                       "label": label[1]}, follow_redirects=False)


def test_preview_confirm_and_undo_a_raven_sheet(web):
    assert web.get("/cards/RS-EX-01").status_code == 404  # not in the database yet
    preview = upload(web, RAVEN)
    assert preview.status_code == 200 and "14 cards added" in preview.text and "Ranger Ann" in preview.text
    assert web.get("/cards/RS-EX-01").status_code == 404  # a preview changes nothing
    done = confirm(web, preview.text)
    assert done.status_code == 303 and done.headers["location"] == "/cards/import?imported=1"
    assert "Ranger Ann" in web.get("/cards/RS-EX-01").text  # the running server sees the new cards
    assert confirm(web, preview.text).status_code == 409  # the same preview again: imported once
    page = web.get("/cards/import").text
    assert "Last import: <b>raven.csv</b>" in page and "14 cards added" in page
    undone = web.post("/cards/import/undo", data={"csrf_token": csrf(web), "import_id": "1"}, follow_redirects=False)
    assert undone.status_code == 303 and undone.headers["location"] == "/cards/import?undone=1"
    said = web.get(undone.headers["location"]).text
    assert "Undone: import 1 (raven.csv, " in said and "0 values put back, 14 cards removed." in said
    assert web.get("/cards/RS-EX-01").status_code == 404
    again = web.post("/cards/import/undo", data={"csrf_token": csrf(web), "import_id": "1"})
    assert again.status_code == 409 and "undone already" in again.text
    assert web.post("/cards/import/undo", data={"csrf_token": csrf(web), "import_id": "7"}).status_code == 404


def test_a_changed_value_is_previewed_and_undone_to_what_it_was(web):
    row = web.get("/api/cards/ME-thrust-1").json()
    assert row["restriction"] != "5"
    sheet = f"game,id,name,restriction\nhighlander,ME-thrust-1,{row['name']},5\n".encode()
    preview = upload(web, sheet, "thrust.csv")
    assert "1 updated" in preview.text and "restriction" in preview.text and "→ 5" in preview.text
    assert confirm(web, preview.text).status_code == 303
    assert web.get("/api/cards/ME-thrust-1").json()["restriction"] == "5"
    web.post("/cards/import/undo", data={"csrf_token": csrf(web), "import_id": "1"})
    assert web.get("/api/cards/ME-thrust-1").json()["restriction"] == row["restriction"]


def test_an_older_undo_keeps_the_card_a_later_import_changed_and_says_why(web):
    """Issue 36's review: the undo of import 1 removed the card import 2 had changed. It stays, and the page names
    the later import; the card nobody changed since goes."""
    assert confirm(web, upload(web, RAVEN).text).status_code == 303
    sheet = RAVEN.decode().splitlines()
    changed = [sheet[0], next(line for line in sheet if line.split(",")[1] == "RS-EX-01").replace(",12,", ",13,")]
    assert confirm(web, upload(web, "\n".join(changed).encode(), "later.csv").text).status_code == 303
    undone = web.post("/cards/import/undo", data={"csrf_token": csrf(web), "import_id": "1"})
    assert undone.status_code == 200 and "13 cards removed, 1 card kept." in undone.text, undone.text[-3000:]
    assert "Ranger Ann [RS-EX-01] stays: changed since (renown by import 2 (later.csv, " in undone.text
    assert "Ranger Ann" in web.get("/cards/RS-EX-01").text and web.get("/cards/RS-EX-02").status_code == 404
    assert "Undone" not in web.get("/cards/import?undone=2").text  # import 2 stands: nothing to say


def test_bad_rows_are_listed_with_the_closest_values_and_left_out(web):
    sheet = (b"game,id,name,type,renown,health,skill\nraven-stormcrow,RS-X-1,Odd Thing,Huntr,3,3,1\n"
             b"raven-stormcrow,RS-X-2,Good Thing,Item,2,,1\n")
    preview = upload(web, sheet, "odd.csv")
    assert preview.status_code == 200 and "1 bad row" in preview.text and "Hunter" in preview.text
    assert "Import the 1 good row" in preview.text
    assert confirm(web, preview.text).status_code == 303
    db = web.app.state.deckcheck.settings.db_url.removeprefix("sqlite:///")
    with sqlite3.connect(db) as con:  # (read as stored: the server's catalogue is read again on its next page)
        assert con.execute("select id from card where id like 'RS-X-%'").fetchall() == [("RS-X-2",)]


@pytest.mark.parametrize("name, data, words", [
    ("huge.csv", b"game,id,name,type\n" + b"x" * (2 << 20), "too large"),
    ("latin1.csv", "game,id,name,type\nraven-stormcrow,RS-L-1,Bj\xf6rn,Hunter\n".encode("latin-1"), "UTF-8"),
    ("pebbles.csv", b"game,id,name,type\nmonopoly,MO-1,Park Lane,Street\n", "monopoly"),
    ("collection.csv", b"card,set,quantity\nThrust,ME,3\n", "type"),
    ("empty.csv", b"", "empty"),
    ("notes.txt", b"hello", "a card sheet is"),
])
def test_hostile_and_wrong_sheets_are_refused_or_listed_never_500(web, name, data, words):
    r = upload(web, data, name)
    assert r.status_code in (200, 400, 413), r.text[:500]
    assert words.lower() in r.text.lower(), r.text[:2000]
    if r.status_code == 200:  # read, every row bad: nothing to import
        assert "bad row" in r.text and 'type="submit" class="primary" disabled' in r.text


def test_a_nul_in_a_sheet_is_400_and_nothing_is_imported(web):
    r = upload(web, b"game,id,name,type,renown,health,skill\nraven-stormcrow,RS-N-1,Bad\x00Name,Hunter,1,1,1\n",
               "nul.csv")
    if r.status_code == 200:  # the preview may show it; the confirmation refuses it
        r = confirm(web, r.text)
    assert r.status_code == 400 and "NUL" in r.text, r.text[:500]
    assert web.get("/cards/RS-N-1").status_code == 404


@pytest.mark.parametrize("named", ["²", "１", "٣", "𝟙", "-1", "1e3", " 1", "", "1" * 10])
def test_an_import_number_not_written_in_ascii_digits_is_a_400(web, named):
    """str.isdigit() takes "²", which int() refuses (it answered 500), and "１", which int() reads as 1."""
    answer = web.post("/cards/import/undo", data={"csrf_token": csrf(web), "import_id": named})
    assert answer.status_code == 400 and "import_id is the number of an import" in answer.text


def _raven_sheet(good: int, bad: int) -> bytes:
    head = "game,id,name,type,renown,health,skill\n"
    rows = [f"raven-stormcrow,RS-G-{n},Good {n},Hunter,3,3,1\n" for n in range(good)]
    rows += [f"raven-stormcrow,RS-B-{n},Bad {n},Huntr,3,3,1\n" for n in range(bad)]
    rows.append("raven-stormcrow,RS-W-1,Worse,Huntr,x,3,1\n")  # one row, two bad cells
    return (head + "".join(rows)).encode()


def test_a_long_sheet_previews_the_first_of_each_list_with_exact_counts(web):
    """Issue 36's review: the preview listed every bad row (a 200,000-row sheet rendered them all). It lists the
    first PREVIEW_ROWS of each list and says how many more; the counts stay exact, and the page is the same size
    for a sheet ten times as long."""
    from deckcheck.web.cardimport import PREVIEW_ROWS
    small, big = (upload(web, _raven_sheet(n, n), f"s{n}.csv") for n in (300, 3000))
    assert big.status_code == 200, big.text[-2000:]
    page = big.text
    assert "6001 rows, 3000 good, 3001 bad." in page and "3000 cards added" in page
    assert "<h2>3001 bad rows</h2>" in page and f"and {3002 - PREVIEW_ROWS} more" in page  # 3002 bad cells
    assert f"and {3000 - PREVIEW_ROWS} more" in page and page.count('<li class="problem">') == PREVIEW_ROWS
    assert page.count('<tr class="added">') == PREVIEW_ROWS
    assert len(big.content) - len(small.content) < 200, (len(small.content), len(big.content))


def test_the_kept_values_are_listed_up_to_the_cap_and_counted(web, pristine_web_db):
    """Values a named public source holds (signature) that a sheet states otherwise: kept, the first listed."""
    from deckcheck.db.sources import stored_sources
    from deckcheck.db.store import Store
    from deckcheck.web.cardimport import PREVIEW_ROWS
    store = Store(pristine_web_db)
    named = sorted(i for i, fields in stored_sources(store).items()
                   if fields.get("signature") and fields["signature"].kind == "source")[:PREVIEW_ROWS + 10]
    cards = {c.id: c for c in store.cards()}
    store.dispose()
    sheet = "game,id,name,signature\n" + "".join(
        f"highlander,{i},{cards[i].name},{'no' if cards[i].signature else 'yes'}\n" for i in named)
    page = upload(web, sheet.encode(), "sig.csv").text
    assert f"{PREVIEW_ROWS + 10} values kept" in page and "and 10 more" in page


PHONE = ("192.0.2.10", 5000)  # another machine (TEST-NET-1)


def _server(pristine_web_db, tmp_path, **settings):
    """A copy of the cards holding one import by "Rita Reviewer" whose undo kept Kim's later edit, and the app."""
    from deckcheck import provenance
    from deckcheck.db import cardimports
    from deckcheck.db.store import Store
    from deckcheck.db.updates import update_cards
    from deckcheck.importers.cardsheet import read_card_sheet
    from deckcheck.web import create_app
    from deckcheck.web.settings import Settings
    db = tmp_path / "club.db"
    shutil.copy(pristine_web_db.removeprefix("sqlite:///"), db)
    sheet = tmp_path / "raven.csv"
    sheet.write_bytes(RAVEN)
    store = Store(f"sqlite:///{db}")
    cardimports.import_sheet(store, read_card_sheet(sheet).rows, "raven.csv", "Rita Reviewer")
    update_cards(store, [{"id": "RS-EX-01", "renown": "1"}], provenance.web("Kim Player"), overwrite=True)
    cardimports.undo(store, 1)
    cardimports.import_sheet(store, read_card_sheet(sheet).rows[1:], "raven.csv", "Rita Reviewer")
    store.dispose()
    return f"sqlite:///{db}", lambda: create_app(Settings.from_env(db_url=f"sqlite:///{db}", **settings))


def _sees(client, **headers) -> tuple[bool, bool]:
    """Whether the import page shows this client the importer's name, and the undo's kept change's author."""
    last = client.get("/cards/import", headers=headers)
    undone = client.get("/cards/import?undone=1", headers=headers)
    assert last.status_code == undone.status_code == 200 and "Last import: <b>raven.csv</b>" in last.text
    return "Rita Reviewer" in last.text + undone.text, "Kim Player" in last.text + undone.text


def test_an_open_servers_stranger_learns_no_account_name(pristine_web_db, tmp_path):
    """Issue 36's review: the import page named the last importer to anyone. On an open server (another address,
    no accounts) only its keeper at the machine sees who imported, and whose change an undo kept."""
    from fastapi.testclient import TestClient
    _, app = _server(pristine_web_db, tmp_path, host="0.0.0.0", allowed_hosts="testserver")
    with TestClient(app(), client=PHONE) as phone:
        assert _sees(phone) == (False, False)
    with TestClient(app(), client=("127.0.0.1", 50000)) as keeper:
        assert _sees(keeper) == (True, True)


def test_a_clubs_player_learns_no_importers_name_and_a_reviewer_does(pristine_web_db, tmp_path):
    from fastapi.testclient import TestClient

    from deckcheck.db.store import Store
    from deckcheck.library.accounts import Accounts
    url, app = _server(pristine_web_db, tmp_path, admin_token="t" * 32, allowed_hosts="testserver")
    accounts = Accounts(Store(url))
    player = accounts.new_token(accounts.add("Pat", "a long pass phrase", ["player"]), "t")[1]
    reviewer = accounts.new_token(accounts.add("Rev", "a long pass phrase", ["reviewer"]), "t")[1]
    with TestClient(app(), client=PHONE) as phone:
        assert _sees(phone) == (False, False)  # anonymous, from another machine
        assert _sees(phone, authorization=f"Bearer {player}") == (False, False)
        assert _sees(phone, authorization=f"Bearer {reviewer}") == (True, True)
        assert _sees(phone, authorization=f"Bearer {'t' * 32}") == (True, True)  # the keeper's admin token
    with TestClient(app(), client=("127.0.0.1", 50000)) as machine:  # a club's machine is not its keeper
        assert _sees(machine) == (False, False)
