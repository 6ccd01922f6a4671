"""Every game on every surface (issue 36): for each format of each game, and the toy plugin game, a list of it
is checked on the command line (text and JSON), on the web's check page with its card sheet brought for the
browser's session (never imported), saved as a kept deck with that sheet, a card of it has its page in its own
game's terms (no Set, Rarity or data-unknown rows a game has no such thing for), and the builder's search finds
its cards, the sheet's included.

One parametrised file: the same function runs every case; the plugin game's case runs it in a child process
whose path holds the plugin (the default registry is built once per process)."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from inproc import run_cli

ROOT = Path(__file__).resolve().parents[2]
OTHER = "examples/other-games"


@dataclass(frozen=True)
class Case:
    """A game's format, a legal list of it (and the card sheet it needs), a card of it and a search finding it."""

    fmt: str
    deck: str
    sheet: str | None
    card: str  # a card id of the game (a sheet's, the bundle's or one its format builds in)
    card_name: str
    search: str
    sets: bool  # the game's cards have a set and a rarity
    added: str = ""  # a card the builder adds from the search (default: the card)


CASES = {
    "type1e": Case("type1e", "examples/decks/type1e-connor-legal.txt", None, "SE-connor-macleod-persona",
                   "Connor MacLeod Persona", "connor persona", True),
    "type2": Case("type2", "examples/decks/type2-duncan-katana.txt", None, "CvD-057", "Duncan MacLeod Persona",
                  "duncan persona", True),
    "raven-stormcrow": Case("raven-stormcrow", f"{OTHER}/raven-group.txt", f"{OTHER}/raven-stormcrow-cards.csv",
                            "RS-EX-01", "Ranger Ann", "ranger ann", False),
    "taktik52": Case("taktik52", f"{OTHER}/taktik52-table.txt", f"{OTHER}/taktik52-heroes.csv", "taktik52-QH",
                     "Queen of Hearts", "queen hearts", False, added="TK-EX-01"),
    "pebbles": Case("pebbles-classic", "examples/plugin/decks/beach.txt", "examples/plugin/pebbles-cards.csv", "PB-001",
                    "Grey Pebble", "grey pebble", False),
}
PLUGIN = {"pebbles"}  # its game is a plugin: examples/plugin on the path


def cli_surfaces(case: Case, db: str) -> None:
    """`deckcheck check` with the sheet as --cards: the verdict in text and in JSON."""
    cards = ["--cards", str(ROOT / case.sheet)] if case.sheet else []
    text = run_cli("check", str(ROOT / case.deck), *cards, "--db", db)
    assert text.code == 0 and "LEGAL" in text.text and case.fmt in text.text, text.text + text.err.decode()
    got = run_cli("check", str(ROOT / case.deck), *cards, "--json", "--db", db)
    body = json.loads(got.text)
    (report,) = body["reports"] if isinstance(body, dict) and "reports" in body else body if isinstance(body, list) \
        else [body]
    assert got.code == 0 and report["legal"] is True and report["format"] == case.fmt, got.text[:500]
    shown = run_cli("cards", "show", case.card_name, *cards, "--db", db)
    assert shown.code == 0 and case.card_name in shown.text, shown.text + shown.err.decode()


def web_surfaces(case: Case, app: Any) -> None:
    """The check page with the sheet brought for the session, a kept deck saved with it, the card's page, the
    builder's search (a browser of its own: its own session's sheet)."""
    from fastapi.testclient import TestClient

    from deckcheck.games import game_of
    deck = (ROOT / case.deck).read_text(encoding="utf-8")
    with TestClient(app, base_url="http://127.0.0.1", client=("127.0.0.1", 5000)) as client:
        client.get("/")
        csrf = {"csrf_token": client.cookies["deckcheck_csrf"]}
        files = {"cards": (Path(case.sheet).name, (ROOT / case.sheet).read_bytes(), "text/csv")} if case.sheet else None
        page = client.post("/check", data={"decklist": deck, **csrf}, files=files)
        assert page.status_code == 200 and re.findall(r'<section class="report (\w+)', page.text) == ["legal"], \
            _text(page.text)
        if case.sheet:
            assert f"Using your sheet {Path(case.sheet).name}" in page.text
        saved = client.post("/api/decks", json={"name": case.fmt, "decklist": deck})
        assert saved.status_code == 201 and saved.json()["report"]["legal"] is True, saved.text[:500]
        assert saved.json()["format"] == case.fmt

        card = client.get(f"/cards/{case.card}")
        assert card.status_code == 200 and case.card_name in card.text
        rows = set(re.findall(r'<tr data-field="([^"]+)"', card.text))
        assert ({"set", "rarity"} <= rows) is case.sets and (rows & {"set", "rarity"} == set()) is not case.sets
        if not case.sets:  # the data-unknown words only over a field of the game's own that the card lacks
            unknown = set(re.findall(r'<tr data-field="([^"]+)"[^>]*>\s*<th[^>]*>[^<]*</th>\s*<td><span '
                                     r'class="unknown-value"', card.text))
            assert "set unknown" not in card.text and ("DATA-UNKNOWN" in card.text) is bool(unknown), unknown
            assert unknown <= {f.name for f in game_of(case.fmt).fields}
        assert client.get(f"/api/cards/{case.card}").json()["name"] == case.card_name

        new = client.post("/decks/new", data={"name": "built", "format": case.fmt, **csrf}, follow_redirects=False)
        assert new.status_code == 303
        edit = new.headers["location"]
        found = client.get(edit, params={"q": case.search}).text
        assert case.card_name in found, _text(found)
        assert ('id="f-set"' in found) is case.sets and ('id="f-edition"' in found) is case.sets  # its game's filters
        added = case.added or case.card
        if case.sheet:  # a card only the session's sheet holds: found, and saved into the deck
            name = next(line.split(",")[2] for line in (ROOT / case.sheet).read_text().splitlines()
                        if line.split(",")[1:2] == [added])
            assert name in client.get(edit, params={"q": name}).text
        else:
            name = case.card_name
        change = client.post(f"/api/decks/{edit.split('/')[2]}/changes", json={"card": added, "delta": 1})
        assert change.status_code == 200 and name in change.json()["decklist"], change.text[:500]


def _text(page: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))[:2000]


def served(folder: Path, pristine: str) -> tuple[str, Any]:
    """A copy of a pristine database (the cases save decks, never cards: they share it) and a web app over it."""
    from deckcheck.web import create_app
    shutil.copy(pristine.removeprefix("sqlite:///"), folder / "every.db")
    db = f"sqlite:///{folder / 'every.db'}"
    return db, create_app(db_url=db)


def run_case(name: str, db: str, app: Any) -> None:
    """Every surface of one case."""
    cli_surfaces(CASES[name], db)
    web_surfaces(CASES[name], app)


@pytest.fixture(scope="module")
def server(tmp_path_factory, pristine_web_db):
    return served(tmp_path_factory.mktemp("everywhere"), pristine_web_db)


@pytest.mark.parametrize("name", [n for n in CASES if n not in PLUGIN])
def test_every_surface_takes_the_game(name, server):
    run_case(name, *server)


def test_every_surface_takes_the_plugin_game(tmp_path, pristine_web_db):
    """The toy plugin game of examples/plugin, in a process whose path holds it."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "examples" / "plugin"), str(ROOT / "tests"),
                                                         str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")])}
    code = (f"import test_games_everywhere as t, pathlib; t.run_case('pebbles', "
            f"*t.served(pathlib.Path({str(tmp_path)!r}), {pristine_web_db!r}))")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
