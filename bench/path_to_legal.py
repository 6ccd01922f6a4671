#!/usr/bin/env python3
"""A new user's way to a plain LEGAL (issue 32 item 5), through the web app as a browser drives it.

    .venv/bin/python bench/path_to_legal.py [--db URL] [--club] [--api] [DECK ...]

Checks each deck on the check page, answers every question its fill-in form asks with a plausible value (no
Restriction number printed, no Reserved or Signature sword, no Hand icon; a printing choice left at what the page
chose), checks again, and repeats while the form asks something new. Prints, per deck, the questions asked, the
rounds needed and the rules still unverified; then the totals. The goal: one round, 0 decks unverified. `--club`
runs a server with an admin token: the answers wait for review and count in the answerer's own checks.

`--api` takes a program's way instead, JSON only: `POST /api/check`; for each card its HL-DATA-UNKNOWN issues
name, the values their rule reads (the game's rule columns) that `GET /api/cards` shows `unknown` on the card's
printings: one question per card name and value, answered by `POST /api/cards/{id}/facts` on each printing of
the name that lacks it (a report names cards, not printings); then `POST /api/check` again with `facts_by`.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DECKS = ("type1e-connor-legal.txt", "type1e-generic-legal.txt", "type1e-katana-sword.txt", "type1e-kurgan-illegal.txt",
         "type2-duncan-katana.txt")
PLAUSIBLE = {"restriction": "none", "reserved": "no", "signature": "no", "unique": "no", "hand_icons": "0"}
ANSWERER = "New Player"
MAX_ROUNDS = 5


@dataclass
class Path_:
    """One deck's way: questions asked (over every round), rounds of answers, the rules unverified at the end."""

    deck: str
    questions: int
    rounds: int
    unverified: list[str]


def answers_of(html: str) -> dict[str, Any]:
    """The check page's fill-in form answered: each card's id (the page's own choice of printing), each question a
    plausible value; {} when the page asks nothing."""
    if 'id="facts"' not in html:
        return {}
    form = html[html.index('id="facts"'):]
    data: dict[str, Any] = {}
    for n, card_id in re.findall(r'<input type="hidden" name="(f\d+)\.id" value="([^"]+)"', form):
        data[f"{n}.id"] = card_id
    for n, options in re.findall(r'<select name="(f\d+)\.id">(.*?)</select>', form, re.S):
        chosen = re.search(r'<option value="([^"]+)" selected', options) or re.search(r'<option value="([^"]+)"',
                                                                                        options)
        if chosen:
            data[f"{n}.id"] = chosen.group(1)
    for n, field in re.findall(r'<select id="f\d+-\w+" name="(f\d+)\.(\w+)"', form):
        if field in PLAUSIBLE:
            data[f"{n}.{field}"] = PLAUSIBLE[field]
    return data


def questions_in(answers: dict[str, Any]) -> int:
    return sum(1 for key in answers if not key.endswith(".id"))


def walk(client: Any, text: str, deck: str) -> Path_:
    """Check a deck, answer what the page asks, check again, until the page asks nothing new."""
    token = client.cookies.get("deckcheck_csrf") or ""
    html = client.post("/check", data={"decklist": text, "csrf_token": token}).text
    asked, rounds = 0, 0
    seen: set[tuple[str, str]] = set()
    while rounds < MAX_ROUNDS:
        answers = answers_of(html)
        new = {(k, str(v)) for k, v in answers.items() if not k.endswith(".id")}
        if not answers or new <= seen:
            break
        seen |= new
        asked += questions_in(answers)
        rounds += 1
        html = client.post("/check/facts", data={"decklist": text, "csrf_token": token, "facts_by": ANSWERER,
                                                 **answers}).text
    report = client.post("/api/check", json={"decklist": text, "facts_by": ANSWERER}).json()
    return Path_(deck, asked, rounds, report["unverified"])


def printings_named(client: Any, name: str) -> list[dict[str, Any]]:
    """The card rows a report's card name may mean: the printings of that exact name (a report names cards by
    their names, a version's `(1)` included)."""
    rows = client.get("/api/cards", params={"q": name, "limit": 100}).json()["cards"]
    return [r for r in rows if r["name"] == name]


def api_questions(client: Any, report: dict[str, Any]) -> tuple[int, dict[str, dict[str, str]]]:
    """What a §3 report asks a program to fill in: the questions (one per card name and column: a card as the deck
    names it), and their answers as card id -> column -> a plausible value. A report names cards by name, not by
    printing, so the one answer goes to every printing of the name that lacks the value (the line may name any)."""
    from deckcheck.unverified import rule_columns
    columns_of = rule_columns()
    asked: set[tuple[str, str]] = set()
    answers: dict[str, dict[str, str]] = {}
    for issue in report["issues"]:
        rule = issue["message"].partition(" not verified")[0] if issue["rule"].endswith("DATA-UNKNOWN") else ""
        for name in issue["cards"] if rule in columns_of else ():
            rows = printings_named(client, name)
            for column in (c for c in columns_of[rule] if c in PLAUSIBLE):
                for row in (r for r in rows if r.get(column) == "unknown"):
                    asked.add((name, column))
                    answers.setdefault(row["id"], {})[column] = PLAUSIBLE[column]
    return len(asked), answers


def walk_api(client: Any, text: str, deck: str) -> Path_:
    """The same way through the JSON API: check, answer what the report names, check again."""
    def check() -> dict[str, Any]:
        return client.post("/api/check", json={"decklist": text, "facts_by": ANSWERER}).json()

    report, asked, rounds = check(), 0, 0
    seen: set[tuple[str, str]] = set()
    while rounds < MAX_ROUNDS:
        questions, answers = api_questions(client, report)
        new = {(card_id, column) for card_id, values in answers.items() for column in values}
        if not new or new <= seen:
            break
        seen |= new
        asked += questions
        rounds += 1
        for card_id, values in answers.items():
            r = client.post(f"/api/cards/{card_id}/facts", json={"by": ANSWERER, "values": values})
            assert r.status_code in (200, 202), (card_id, r.status_code, r.text[:300])
        report = check()
    return Path_(deck, asked, rounds, report["unverified"])


def client_for(db_url: str, club: bool) -> Any:
    os.environ.setdefault("DECKCHECK_ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("DECKCHECK_CHECK_RATE", "0")
    from fastapi.testclient import TestClient

    from deckcheck.web import create_app
    from deckcheck.web import facts
    facts.ANSWER_RATE = facts.Rate(100_000, 60)
    client = TestClient(create_app(db_url=db_url, admin_token="bench-organiser" if club else None))
    client.get("/")
    return client


def run(db_url: str, decks: list[Path], club: bool = False, api: bool = False) -> list[Path_]:
    """Each deck's way to a plain LEGAL on one server (the check page's, or with `api` the JSON API's)."""
    way = walk_api if api else walk
    with client_for(db_url, club) as client:
        return [way(client, deck.read_text(encoding="utf-8"), deck.name) for deck in decks]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("decks", nargs="*", type=Path, help="decklists (default: five of examples/decks)")
    parser.add_argument("--db", help="a database URL (default: a new SQLite file)")
    parser.add_argument("--club", action="store_true", help="a club server: answers wait for review")
    parser.add_argument("--api", action="store_true", help="the JSON API's way: /api/check, /api/cards/{id}/facts")
    args = parser.parse_args(argv)
    decks = args.decks or [ROOT / "examples" / "decks" / name for name in DECKS]
    with tempfile.TemporaryDirectory(prefix="deckcheck-path-") as folder:
        paths = run(args.db or f"sqlite:///{Path(folder) / 'cards.db'}", decks, args.club, args.api)
    print(f"way: {'the JSON API' if args.api else 'the check page'}, {'club' if args.club else 'personal'} server")
    for p in paths:
        print(f"{p.deck}: {p.questions} questions, {p.rounds} round{'s' if p.rounds != 1 else ''}, "
              f"unverified: {', '.join(p.unverified) or 'none'}")
    still = sum(bool(p.unverified) for p in paths)
    print(f"questions asked: {sum(p.questions for p in paths)}")
    print(f"rounds needed: {max((p.rounds for p in paths), default=0)}")
    print(f"decks still unverified: {still} of {len(paths)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
