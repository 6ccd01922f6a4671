"""A new user's way to a plain LEGAL (issue 32): answering every question the check page asks, once, leaves no rule
unverified for a deck of set-less lines, on SQLite and PostgreSQL, on a personal server and (for the answerer's
own checks, before review) on a club server. bench/path_to_legal.py drives it and prints the figures."""
from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def bench():
    spec = importlib.util.spec_from_file_location("path_to_legal", ROOT / "bench" / "path_to_legal.py")
    assert spec is not None and spec.loader is not None
    module = sys.modules.setdefault("path_to_legal", importlib.util.module_from_spec(spec))
    spec.loader.exec_module(module)
    return module


def ready(db_url: str, pristine_web_db: str) -> str:
    """A SQLite database, its cards loaded (copied from an initialised file: the bundle's import is slow)."""
    shutil.copy(pristine_web_db.removeprefix("sqlite:///"), db_url.removeprefix("sqlite:///"))
    return db_url


@pytest.mark.parametrize("api", [False, True], ids=["page", "api"])
@pytest.mark.parametrize("club", [False, True], ids=["personal", "club"])
def test_one_round_of_answers_leaves_nothing_unverified(db_url, club, api):
    """The check page's form, and a program's answers to the cards a §3 report names (POST /api/cards/{id}/facts),
    on a personal server and (the answerer's own checks, before review) a club's."""
    if club and api and db_url.startswith("postgresql"):
        pytest.skip("the club's way is the same code on both databases; the page's run of it is enough")
    (path,) = bench().run(db_url, [ROOT / "examples/decks/type2-duncan-katana.txt"], club, api)  # cards loaded
    assert path.questions >= 2 and path.rounds == 1 and path.unverified == []


def test_the_api_way_answers_a_card_once_whatever_printing_its_line_names(tmp_path, pristine_web_db):
    """A hand-written deck naming cards with and without a set, checked through the JSON API only: one round."""
    deck = tmp_path / "hand.txt"
    deck.write_text("Format: type1e\nPre-Game:\nConnor MacLeod Persona [SE]\nEndurance:\n3 Thrust\n"
                    "3 Upper Left Block (1)\n2 Lower Center Block [TIN]\n", encoding="utf-8")
    (path,) = bench().run(ready(f"sqlite:///{tmp_path / 'c.db'}", pristine_web_db), [deck], api=True)
    assert path.questions >= 4 and path.rounds == 1 and path.unverified == [], path


def test_the_benchmark_prints_questions_rounds_and_decks_still_unverified(tmp_path, pristine_web_db, capsys):
    deck = tmp_path / "persona.txt"
    deck.write_text("Format: type1e\nPre-Game:\nDuncan MacLeod Persona\n", encoding="utf-8")
    assert bench().main(["--db", ready(f"sqlite:///{tmp_path / 'c.db'}", pristine_web_db), str(deck)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-3:] == ["questions asked: 1", "rounds needed: 1", "decks still unverified: 0 of 1"]


def test_the_benchmark_s_json_api_way_over_the_five_example_decks_needs_one_round(tmp_path, pristine_web_db, capsys):
    """bench/path_to_legal.py --api as a user runs it (its default decks), in this process on a copy of a loaded
    database: the cards' import is not what it measures."""
    assert bench().main(["--api", "--db", ready(f"sqlite:///{tmp_path / 'c.db'}", pristine_web_db)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "way: the JSON API, personal server" and len(out) == 1 + 5 + 3, out
    assert [line.split(":")[0] for line in out[-3:]] == ["questions asked", "rounds needed", "decks still unverified"]
    assert out[-2:] == ["rounds needed: 1", "decks still unverified: 0 of 5"]  # issue 32's goal, the API's way
