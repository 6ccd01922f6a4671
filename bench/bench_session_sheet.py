#!/usr/bin/env python3
"""The card sheet brought for a browser's session (issue 36): what it costs a builder search and a deck change.

    .venv/bin/python bench/bench_session_sheet.py [--requests 20] [--sheet FILE]

In process (Starlette's TestClient over the app, SQLite in a temporary folder): a builder search
(GET /decks/{id}/edit?q=...) and a change (POST /api/decks/{id}/changes) of a Type 1 deck, first by a browser that
brought no sheet, then by one that brought one on the check page (default: the Raven example sheet). With a sheet,
each request finds the kept sheet and the catalogue with it laid over (web.cardsheets keeps the last few, read and
indexed once): the ratio is the price left. Figures for people to read, nothing asserted.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault("DECKCHECK_ALLOWED_HOSTS", "127.0.0.1")


def timed(call, n: int) -> list[float]:
    out = []
    for _ in range(n):
        start = time.perf_counter()
        call()
        out.append((time.perf_counter() - start) * 1000)
    return out


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]


def browser(app, sheet: Path | None, requests: int) -> tuple[list[float], list[float]]:
    """One browser (with the sheet brought on the check page, or none): its builder searches and changes of a
    Type 1 deck (the sheet's cards are another game's: laid over the catalogue all the same)."""
    from fastapi.testclient import TestClient
    with TestClient(app, base_url="http://127.0.0.1", client=("127.0.0.1", 5000)) as client:
        client.get("/")
        csrf = {"csrf_token": client.cookies["deckcheck_csrf"]}
        if sheet is not None:
            client.post("/check", data={"decklist": "", **csrf},
                        files={"cards": (sheet.name, sheet.read_bytes(), "text/csv")})
        new = client.post("/decks/new", data={"name": "bench", "format": "type1e", **csrf}, follow_redirects=False)
        edit = new.headers["location"]
        key = edit.split("/")[2]
        client.get(edit, params={"q": "thrust"})  # the first request builds the server's catalogue
        search = timed(lambda: client.get(edit, params={"q": "upper left attack"}), requests)
        change = timed(lambda: client.post(f"/api/decks/{key}/changes", json={"card": "Thrust", "delta": 1}),
                       requests)
        return search, change


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--sheet", default="examples/other-games/raven-stormcrow-cards.csv")
    args = parser.parse_args()
    from deckcheck.web import create_app
    with tempfile.TemporaryDirectory(prefix="deckcheck-bench-") as folder:
        app = create_app(db_url=f"sqlite:///{Path(folder) / 'b.db'}")
        plain = browser(app, None, args.requests)
        brought = browser(app, ROOT / args.sheet, args.requests)
    for what, without, with_sheet in (("builder search", plain[0], brought[0]), ("deck change", plain[1], brought[1])):
        print(f"{what}: without a sheet median {statistics.median(without):.1f} ms, p95 {p95(without):.1f} ms; "
              f"with the session's sheet median {statistics.median(with_sheet):.1f} ms, p95 {p95(with_sheet):.1f} "
              f"ms; ratio {statistics.median(with_sheet) / statistics.median(without):.2f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
