#!/usr/bin/env python3
"""Deck builder benchmark (issue 31): a change to a 60-card deck, and a playable search over the whole bundle.

    .venv/bin/python bench/bench_builder.py [--changes 200] [--searches 30] [--workers 2] [--db URL]

Server time: the library call a change makes (deckcheck.library.decks.DeckBook.change, then the report the answer
carries) in this process, on the server's kind of catalogue (read once). Round trip: POST /api/decks/{id}/changes
to `serve --workers N` on loopback (SQLite in a temporary folder, or --db), one client, one change after another.
The playable search: GET /api/cards?deck=ID&playable=1&limit=500 (every card of the game considered), repeated on
one version (what adding each card would do is kept per version), and once right after each of --fresh changes
(worked out anew). Targets (issue 31): a change p95 <= 50 ms, a playable search p95 <= 100 ms. What that first
search spends most on, in this process: the effects of adding each card of the game to the deck
(deckcheck.library.decks.Effects made anew, asked of every card), --effects times (wall and CPU).

The builder's + and − (what a player's click costs): POST /decks/{id}/edit as htmx sends it (the form, the CSRF
token, HX-Request), answered by the builder's fragment (the deck, its verdict and issues, its statistics and the
squares it leaves open, the search rows with their effects). Server time: the app in this process (no socket:
the library, the fragment and its rendering); round trip: to `serve --workers N`. The search beside the deck is
`q=block` (the rows a player sees while adding blocks).
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_web import start_server, stop_server  # noqa: E402
from common import ROOT, deckcheck_exe, verdict  # noqa: E402

DECK = (ROOT / "examples/decks/type1e-connor-legal.txt").read_text(encoding="utf-8")  # 54 cards
SIXTY = DECK.replace("4 Upper Left Attack (1)", "6 Upper Left Attack (1)").replace(
    "3 Lower Right Block (3)", "7 Lower Right Block (3)")  # 60 cards


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]


def call(port: int, method: str, path: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method,
                                     headers={"content-type": "application/json"},
                                     data=json.dumps(body).encode() if body is not None else None)
    with urllib.request.urlopen(request, timeout=120) as r:
        answer: dict = json.load(r)
        return answer


def server_times(db: str, changes: int) -> list[float]:
    """Milliseconds of each change as the server's library makes it (the report included)."""
    from deckcheck.library.api import CollectionApp
    from deckcheck.library.decks import DeckBook, report_dict
    from deckcheck.library.people import KEEPER
    app = CollectionApp(db)
    book = DeckBook(app.catalog, app.collections)
    deck = book.create(KEEPER, "bench", SIXTY)
    out = []
    for n in range(changes):
        start = time.perf_counter()
        kept, _new = book.change(KEEPER, deck.id, "Thrust (2)", 1 if n % 2 == 0 else -1)
        report_dict(book, kept)
        out.append((time.perf_counter() - start) * 1000)
    return out[1:]  # the first builds the name index once, as a server's first request does


def effects_times(db: str, repeats: int) -> tuple[list[float], list[float]]:
    """Milliseconds (wall, CPU) of the effects of adding each card of the game to the 60-card deck, worked out anew
    each time (what a playable search right after a change waits for, without the search and the answer)."""
    from deckcheck.library.api import CollectionApp
    from deckcheck.library.decks import DeckBook, Effects
    from deckcheck.library.people import KEEPER
    app = CollectionApp(db)
    book = DeckBook(app.catalog, app.collections)
    deck, fmt = book.deck_at(KEEPER, book.create(KEEPER, "bench effects", SIXTY).id)
    cards = app.catalog.cards(fmt.game)
    wall, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        effects = Effects(deck, fmt)
        for card in cards:
            effects.of(card)
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return wall, cpu


PLUS = {"card": "ME-thrust-2", "q": "block"}  # + and − of a deck line, the search kept beside it


def builder_server_times(db: str, changes: int) -> list[float]:
    """Milliseconds of each + or − the builder's page posts, answered in this process (ASGI, no socket)."""
    from fastapi.testclient import TestClient

    from deckcheck.web import create_app
    with TestClient(create_app(db_url=db), base_url="http://127.0.0.1", client=("127.0.0.1", 5000)) as client:
        deck = client.post("/api/decks", json={"name": "bench builder", "decklist": SIXTY}).json()["id"]
        client.get(f"/decks/{deck}/edit")
        token = client.cookies["deckcheck_csrf"]
        out = []
        for n in range(changes):
            form = {**PLUS, "delta": "1" if n % 2 == 0 else "-1", "csrf_token": token}
            start = time.perf_counter()
            r = client.post(f"/decks/{deck}/edit", data=form, headers={"HX-Request": "true"})
            out.append((time.perf_counter() - start) * 1000)
            assert r.status_code == 200 and r.text.startswith('<div id="builder"'), r.text[:200]
    return out[1:]


def builder_trips(port: int, deck: str, changes: int) -> list[float]:
    """Milliseconds of each + or − round trip to the served app, as htmx posts it."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/decks/{deck}/edit", timeout=120) as r:
        cookie = re.search(r"deckcheck_csrf=([^;]+)", r.headers.get("set-cookie", ""))
    assert cookie is not None, "no CSRF cookie"
    out = []
    for n in range(changes):
        body = urllib.parse.urlencode({**PLUS, "delta": "1" if n % 2 == 0 else "-1", "csrf_token": cookie.group(1)})
        request = urllib.request.Request(f"http://127.0.0.1:{port}/decks/{deck}/edit", data=body.encode(),
                                         method="POST", headers={
                                             "content-type": "application/x-www-form-urlencoded",
                                             "cookie": f"deckcheck_csrf={cookie.group(1)}", "HX-Request": "true"})
        start = time.perf_counter()
        with urllib.request.urlopen(request, timeout=120) as r:
            r.read()
        out.append((time.perf_counter() - start) * 1000)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--changes", type=int, default=200)
    ap.add_argument("--searches", type=int, default=30)
    ap.add_argument("--fresh", type=int, default=6, help="playable searches each right after a change")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--effects", type=int, default=40, help="times the effects of every card are worked out")
    ap.add_argument("--db", help="database URL (default: SQLite in a temporary folder)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{tmp}/bench.db"
        subprocess.run([deckcheck_exe(), "db", "init", "--db", db], capture_output=True, check=True)
        server = server_times(db, args.changes)
        fragment = builder_server_times(db, args.changes)
        effects_wall, effects_cpu = effects_times(db, args.effects)
        proc, port = start_server(db, args.workers)
        try:
            deck = call(port, "POST", "/api/decks", {"name": "bench", "decklist": SIXTY})["id"]
            trips, searches = [], []
            for n in range(args.changes):
                start = time.perf_counter()
                call(port, "POST", f"/api/decks/{deck}/changes", {"card": "Thrust (2)", "delta": 1 - 2 * (n % 2)})
                trips.append((time.perf_counter() - start) * 1000)
            clicks = builder_trips(port, deck, args.changes)[args.workers:]
            for _ in range(args.searches):
                start = time.perf_counter()
                page = call(port, "GET", f"/api/cards?deck={deck}&playable=1&limit=500")
                searches.append((time.perf_counter() - start) * 1000)
            fresh = []  # the first playable search of a new version: what adding each card would do, worked out
            for n in range(args.fresh):
                call(port, "POST", f"/api/decks/{deck}/changes", {"card": "Thrust (2)", "delta": 1 - 2 * (n % 2)})
                start = time.perf_counter()
                call(port, "GET", f"/api/cards?deck={deck}&playable=1&limit=500")
                fresh.append((time.perf_counter() - start) * 1000)
        finally:
            stop_server(proc)
    trips = trips[args.workers:]  # each worker's first request builds its name index
    searches = searches[args.workers:] or searches
    print(f"change, server time (library): p50 {statistics.median(server):.1f} ms, p95 {p95(server):.1f} ms")
    print(f"change, round trip ({args.workers} workers): p50 {statistics.median(trips):.1f} ms, "
          f"p95 {p95(trips):.1f} ms")
    print(f"builder + and − (the fragment), server time (in process): p50 {statistics.median(fragment):.1f} ms, "
          f"p95 {p95(fragment):.1f} ms")
    print(f"builder + and − (the fragment), round trip ({args.workers} workers): p50 "
          f"{statistics.median(clicks):.1f} ms, p95 {p95(clicks):.1f} ms")
    print(f"playable search ({page['total']} cards kept), round trip: p50 {statistics.median(searches):.1f} ms, "
          f"p95 {p95(searches):.1f} ms")
    print(f"playable search right after a change (the deck's effects worked out), round trip: p50 "
          f"{statistics.median(fresh):.1f} ms, p95 {p95(fresh):.1f} ms")
    print(f"effects of every card ({len(effects_wall)} times, in process): wall p50 "
          f"{statistics.median(effects_wall):.1f} ms, p95 {p95(effects_wall):.1f} ms; CPU best {min(effects_cpu):.1f} "
          f"ms, p50 {statistics.median(effects_cpu):.1f} ms")
    print(verdict("change p95 (server)", p95(server), 50, 1.0, higher_is_better=False))
    print(verdict("builder + / − p95 (server)", p95(fragment), 50, 1.0, higher_is_better=False))
    print(verdict("playable search p95", p95(searches), 100, 1.0, higher_is_better=False))
    print(verdict("playable search after a change p95", p95(fresh), 100, 1.0, higher_is_better=False))


if __name__ == "__main__":
    main()
