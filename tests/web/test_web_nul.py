"""A NUL character (U+0000; `_x0000_` in an XLSX cell) is refused before it reaches the database, with 400 naming
the field and nothing changed (issue 19, item 6): on PostgreSQL it was a 500 (desk uploads, collection
confirmations, card edits). SQLite and PostgreSQL alike."""
from __future__ import annotations

import io
import re
import shutil

import pytest
from fastapi.testclient import TestClient

from deckcheck.web import create_app
from deckcheck.web.security import CSRF_COOKIE

from conftest import LEGAL


@pytest.fixture()
def client(db_url):
    with TestClient(create_app(db_url=db_url, admin_token="s3cret-token"), client=("127.0.0.1", 5000),
                    headers={"Authorization": "Bearer s3cret-token"}) as c:  # a club's keeper (CONTRACTS §9)
        c.get("/")
        yield c


def test_a_desk_upload_with_a_nul_is_never_a_500_and_no_nul_is_stored(client):
    event = client.post("/api/events", json={"name": "Open", "format": "type1e"}).json()
    auth = {"Authorization": f"Bearer {event['organiser_token']}"}
    url = f"/api/events/{event['id']}/decks"
    answers = [client.post(url, json={"player": "Ann", "decklist": LEGAL + "# a\u0000b\n"}),
               client.post(url, files={"file": ("deck.txt", LEGAL.encode() + b"\x00")}, data={"player": "Bob"}),
               client.post(url, files={"file": ("deck.xlsx", _xlsx_with("a_x0000_b", "Thrust (2)"))},
                           data={"player": "Cy"}),
               client.post(url, json={"player": "D\u0000n", "decklist": LEGAL})]
    assert all(r.status_code in (201, 400) for r in answers), [r.text[:200] for r in answers]
    stored = client.get(url, headers=auth).json()
    assert "\\u0000" not in str(stored) and "\x00" not in str(stored)
    r = client.post("/api/events", json={"name": "Op\u0000en", "format": "type1e"})
    assert r.status_code in (201, 400), r.text


def _xlsx_with(cell: str, card: str = "Thrust (2)", good: tuple[str, ...] = ()) -> bytes:
    """A collection workbook whose last row's notes cell is written as `cell`, after a row of each `good` card."""
    import zipfile

    import openpyxl
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["card", "quantity", "notes"])
    for name in good:
        ws.append([name, 1, "fine"])
    ws.append([card, 1, "PLACEHOLDER"])
    out = io.BytesIO()
    wb.save(out)
    src = zipfile.ZipFile(io.BytesIO(out.getvalue()))
    patched = io.BytesIO()
    with zipfile.ZipFile(patched, "w", zipfile.ZIP_DEFLATED) as dst:
        for name in src.namelist():
            data = src.read(name)
            dst.writestr(name, data.replace(b"PLACEHOLDER", cell.encode()))
    return patched.getvalue()


def test_a_collection_confirmation_with_a_nul_is_400_and_nothing_is_imported(client):
    token = client.cookies[CSRF_COOKIE]
    before = client.get("/api/collection").json()["totals"]
    r = client.post("/collection/import", data={"csrf_token": token},
                    files={"file": ("binder.xlsx", _xlsx_with("a_x0000_b"))})
    if r.status_code == 200:  # the preview shows it; the confirmation refuses it
        pending = re.search(r'name="token" value="([^"]+)"', r.text)
        assert pending is not None
        r = client.post("/collection/import/confirm", data={"csrf_token": token, "token": pending.group(1),
                                                            "mode": "merge"})
    assert r.status_code == 400 and "NUL" in r.text, r.text[:500]
    assert client.get("/api/collection").json()["totals"] == before


def test_a_card_edit_with_a_nul_is_400_and_changes_nothing(client):
    card = client.get("/api/cards", params={"type": "Attack", "limit": 1}).json()["cards"][0]
    r = client.post(f"/cards/{card['id']}/edit", data={"csrf_token": client.cookies[CSRF_COOKIE],
                                                        "admin_token": "s3cret-token", "who": "me",
                                                        "text": "Strike\x00 hard"})
    assert r.status_code == 400 and "NUL" in r.text, r.text[:300]
    assert client.get(f"/api/cards/{card['id']}").json() == card


def test_a_card_fact_with_a_nul_is_400(client):
    card = client.get("/api/cards", params={"type": "Attack", "limit": 1}).json()["cards"][0]
    r = client.post(f"/api/cards/{card['id']}/facts", json={"by": "Ann\u0000", "values": {"restriction": "3"}})
    assert r.status_code == 400, r.text
    assert client.get(f"/api/cards/{card['id']}").json() == card


def test_the_library_refuses_a_nul_too(db_url, tmp_path):
    from deckcheck.library.api import CollectionApp
    from deckcheck.db.store import TextWithNul
    library = CollectionApp(db_url)
    deck = tmp_path / "deck.txt"
    deck.write_text(LEGAL)
    with pytest.raises(TextWithNul, match="NUL"):
        library.collections.save_deck("nul\x00deck", "type1e", LEGAL, [])
    assert shutil.which("true")  # nothing else to clean: the save did not happen
    assert all(name != "nul\x00deck" for name, *_ in library.collections.decks())
