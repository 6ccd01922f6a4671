"""A saved deck of every game reads back exactly as it was checked: through `deck save`, `deck show`, `deck export`,
the web's "Save & share" and its link, the API and the collection pages, the same verdict and the same lines, on
SQLite and PostgreSQL. A game whose cards no collection can count (Taktik's playing cards) is shown without those
figures, never a traceback or a 500."""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from inproc import run_cli  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OTHER = ROOT / "examples" / "other-games"
# every registered game's example deck, with the card sheet it is checked against (CONTRACTS §1 sheets)
EXAMPLES = {
    "highlander": (ROOT / "examples/decks/type1e-connor-legal.txt", None),
    "raven-stormcrow": (OTHER / "raven-group.txt", OTHER / "raven-stormcrow-cards.csv"),
    "taktik52": (OTHER / "taktik52-table.txt", OTHER / "taktik52-heroes.csv"),
}


def test_every_registered_game_has_its_example_here():
    from deckcheck.games import all_formats
    assert {f.game for f in all_formats()} == set(EXAMPLES)


def checked(db: str, *args: str) -> tuple[int, dict]:
    r = run_cli("check", *args, "--json", "--db", db)
    assert r.crash is None, r.crash
    return r.code, json.loads(r.out)


def verdict_of(report: dict) -> tuple:
    """What a check says of a deck, without where the deck came from."""
    return (report["legal"], report["format"], report["counts"], sorted(i["rule"] for i in report["issues"]),
            report["input_errors"])


def lines(text: str) -> list[str]:
    """The deck lines of a decklist (comments and blank lines aside)."""
    return [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


@pytest.mark.parametrize("game", sorted(EXAMPLES))
def test_a_saved_deck_reads_back_as_it_was_checked(game, db_url, tmp_path):
    deck, sheet = EXAMPLES[game]
    if sheet is not None:
        r = run_cli("cards", "import", str(sheet), "--db", db_url)
        assert r.code == 0, r.err.decode()
    _code, report = checked(db_url, str(deck))
    assert report["legal"] is True
    saved = run_cli("deck", "save", "it", str(deck), "--db", db_url)
    assert saved.code == 0 and ", legal)" in saved.text, (saved.text, saved.err.decode())
    shown = run_cli("deck", "show", "it", "--db", db_url)
    assert shown.crash is None and shown.code == 0, shown.crash or shown.err.decode()
    assert "NOT LEGAL" not in shown.text and "LEGAL" in shown.text, shown.text
    out = tmp_path / "exported.txt"
    assert run_cli("deck", "export", "it", str(out), "--db", db_url).code == 0
    assert verdict_of(checked(db_url, str(out))[1]) == verdict_of(report)
    for command in (("collection", "trades"), ("collection", "missing", "it")):
        r = run_cli(*command, "--db", db_url)
        assert r.crash is None and r.code == 0, (command, r.crash or r.err.decode())
    listed = run_cli("deck", "list", "--db", db_url)
    cards = sum(n for section, n in report["counts"].items() if section != "Players")
    assert re.search(rf"\bit\b.*\b{cards}\b", listed.text), listed.text  # every card counted, a game's own too

    from deckcheck.web import create_app
    text = deck.read_text(encoding="utf-8").replace("\n", "\r\n")  # a browser's form sends CRLF lines
    with TestClient(create_app(db_url=db_url), raise_server_exceptions=False) as client:
        client.get("/")
        posted = client.post("/decks", data={"decklist": text, "csrf_token": client.cookies["deckcheck_csrf"]},
                             follow_redirects=False)
        assert posted.status_code == 303, posted.text[:500]
        deck_id = posted.headers["location"].rsplit("/", 1)[1]
        api = client.get(f"/api/decks/{deck_id}")
        assert api.status_code == 200, api.text[:500]
        assert verdict_of(api.json()["report"]) == verdict_of(report)
        assert lines(api.json()["decklist"]) == lines(deck.read_text(encoding="utf-8"))
        for page in (f"/decks/{deck_id}", f"/?deck={deck_id}", "/collection", "/api/collection/missing"):
            assert client.get(page).status_code == 200, page
        html = client.get(f"/decks/{deck_id}").text
        shown_verdict = re.search(r'<header class="verdict">\s*<strong>([^<]*)</strong>', html)
        assert shown_verdict and shown_verdict.group(1).startswith("Legal"), shown_verdict
    web_saved = run_cli("deck", "show", deck_id, "--db", db_url)
    assert web_saved.crash is None and web_saved.code == 0, web_saved.crash or web_saved.err.decode()
    assert "\r" not in web_saved.text and "NOT LEGAL" not in web_saved.text, web_saved.text
    for command in (("collection", "trades"), ("collection", "missing", deck_id)):
        r = run_cli(*command, "--db", db_url)
        assert r.crash is None and r.code == 0, (command, r.crash or r.err.decode())
