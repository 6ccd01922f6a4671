"""One ranker everywhere (issue 20): the library, the CLI, the web app and the desk give the same suggestions in
the same order; `cards search`, the web's card search and `/api/cards?q=` find cards by words in any order,
typos allowed, best first, and the CLI's `--json` is what the API answers."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import deckcheck

ROOT = Path(__file__).resolve().parents[2]
MESSY = ("Persona: Duncan MacLeod\n- 3 Uper Left Attack\n\u2022 Dunkan Back Away x2\nKurgen Master Disarm\n"
         "Thrust [ME] x2\n2 Back Awya\nAttacks (4):\n4 Thrsut\n")


def cli(*args: str, env_db: str) -> subprocess.CompletedProcess:
    import tempfile
    exe = Path(sys.executable).with_name("deckcheck")
    with tempfile.TemporaryDirectory() as home:  # the index cache and data folders of a user of its own
        env = {"PATH": str(exe.parent), "DECKCHECK_DB": env_db, "COLUMNS": "100", "HOME": home,
               "XDG_CACHE_HOME": f"{home}/cache", "XDG_DATA_HOME": f"{home}/data"}
        return subprocess.run([str(exe), *args], capture_output=True, text=True, env=env, cwd=ROOT)


def problems(report: dict) -> list[tuple[int, str, list[str]]]:
    return [(e["line"], e["message"], e["suggestions"]) for e in report["input_errors"]]


def test_the_same_suggestions_in_the_same_order_from_library_cli_web_and_desk(web_db, client, tmp_path):
    library = problems(deckcheck.check_text(MESSY).as_dict())
    assert [line for line, _m, _s in library] == [2, 3, 4, 6, 8]
    assert all(s for _line, _m, s in library)
    deck = tmp_path / "messy.txt"
    deck.write_text(MESSY, encoding="utf-8")
    run = cli("check", str(deck), "--json", env_db=web_db)
    assert run.returncode == 2, run.stderr
    assert problems(json.loads(run.stdout)) == library
    assert problems(client.post("/api/check", json={"decklist": MESSY}).json()) == library
    event = client.post("/api/events", json={"name": "Ranker Open", "format": "type1e"}).json()
    sent = client.post(f"/api/events/{event['id']}/decks", json={"player": "Ann", "decklist": MESSY})
    assert sent.status_code == 201 and problems(sent.json()) == library
    page = client.post("/check", data={"decklist": MESSY}).text  # the check page's chips, in that order
    for line, _message, suggestions in library:
        chips = [s for s in suggestions if f'value="{line}|{s}"'.replace("'", "&#39;") in page]
        assert chips == suggestions


@pytest.mark.parametrize("query,first", [
    ("back away kurgan", "The Kurgan Back Away"), ("Kurgan Back Away", "The Kurgan Back Away"),
    ("dunkan persona", "Duncan MacLeod Persona"), ("kurgen master", "The Kurgan Master"),
    ("lightning strike katana", "Katana Sword Lightning Strike"), ("thrust", "Thrust"),
])
def test_cards_search_finds_words_in_any_order_with_typos_best_first(web_db, client, query, first):
    found = deckcheck.card_source().search(query)
    assert found and found[0].name.startswith(first), [c.name for c in found[:5]]
    run = cli("cards", "search", query, "--json", env_db=web_db)
    assert run.returncode == 0, run.stderr
    api = client.get("/api/cards", params={"q": query}).json()
    assert json.loads(run.stdout) == api
    assert api["cards"][0]["name"].startswith(first) and api["total"] == len(found)
    page = client.get("/cards", params={"q": query}).text
    assert page.index(api["cards"][0]["name"].replace("'", "&#39;")) < page.index("as JSON") + 10_000


def test_kurgen_master_finds_every_kurgan_master_card_first():
    names = [c.name for c in deckcheck.card_source().search("kurgen master")]
    assert names[:3] == sorted(names[:3]) or len(names) >= 3
    assert all("Kurgan" in n and "Master" in n for n in names[:3])


def test_no_match_says_so_with_the_closest_names_never_an_empty_table(web_db, client):
    run = cli("cards", "search", "dunkan blorp", env_db=web_db)
    assert run.returncode == 1
    assert run.stdout.startswith("no card matches 'dunkan blorp'; the closest names: Duncan MacLeod")
    assert "┏" not in run.stdout
    page = client.get("/cards", params={"q": "dunkan blorp"}).text
    assert "No card matches" in page and "The closest names: <a" in page
    assert client.get("/api/cards", params={"q": "dunkan blorp"}).json() == {"total": 0, "cards": []}


def test_an_explicit_sort_still_sorts_the_words_results(client):
    best = client.get("/api/cards", params={"q": "kurgan"}).json()["cards"]
    by_name = client.get("/api/cards", params={"q": "kurgan", "sort": "name"}).json()["cards"]
    assert sorted(c["id"] for c in best) == sorted(c["id"] for c in by_name)
    assert [c["name"].lower() for c in by_name] == sorted(c["name"].lower() for c in by_name)


def test_cards_show_with_many_matches_prints_one_table_and_says_how_to_see_one(web_db):
    run = cli("cards", "show", "Back Away", env_db=web_db)
    assert run.returncode == 0, run.stderr
    assert run.stdout.count("╭") == 0 and "cards match 'Back Away'" in run.stdout
    assert "one card in full: deckcheck cards show " in run.stdout + run.stderr and "--all" in run.stdout + run.stderr
    assert "reserved" in run.stdout and "signature" in run.stdout
    every = cli("cards", "show", "Back Away", "--all", env_db=web_db)
    assert every.stdout.count("╭") == int(run.stdout.split(" cards match")[0].split()[-1])
    one = cli("cards", "show", "Thrust [SE]", env_db=web_db)
    assert one.stdout.count("╭") == 1


@pytest.mark.parametrize("query", ["the of and a " * 15, "a" * 200, "é" * 200, "x y z " * 30, "zzqx blorp"])
def test_hostile_search_text_is_answered(client, query):
    """/api/cards?q= takes text from strangers: any text of the allowed length gets an answer (words past the
    eighth are not looked up), and the page says when nothing matches."""
    answer = client.get("/api/cards", params={"q": query[:200]})
    assert answer.status_code == 200 and set(answer.json()) == {"total", "cards"}
    assert client.get("/cards", params={"q": query[:200]}).status_code == 200
