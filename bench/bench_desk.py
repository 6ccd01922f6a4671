#!/usr/bin/env python3
"""Tournament desk benchmark (issue 13): 1,000 decklists submitted over HTTP by 16 concurrent clients.

    .venv/bin/python bench/bench_desk.py [--decks 1000] [--clients 16] [--workers 2] [--db URL]

The desk case of bench/bench_web.py (same load generator, same server start): `serve --workers N` on
loopback (SQLite in a temporary folder, or --db, e.g. a PostgreSQL URL), one event, and every benchmark
deck submitted as its own player (JSON, as a program would). Prints throughput, p50 and p99 latency and
errors, whether every submission was stored exactly once, and the ratio of the throughput to `deckcheck
tournament check` on the same decks (whole-process figures, same run, same machine).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_web import run_load, start_server, stop_server  # noqa: E402
from common import data_dir, deckcheck_exe, median_time, verdict, with_repeats  # noqa: E402


def call(port: int, method: str, path: str, body: dict | None = None, token: str | None = None):
    """The JSON answer of one request."""
    headers = {"content-type": "application/json"} | ({"authorization": f"Bearer {token}"} if token else {})
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method, headers=headers,
                                     data=json.dumps(body).encode() if body is not None else None)
    with urllib.request.urlopen(request, timeout=300) as r:
        return json.load(r)


def submissions(event: str, decks: list[Path], prefix: str = "Player") -> list[tuple[str, str, bytes, dict]]:
    """One POST /api/events/{id}/decks per decklist, each by a player of its own."""
    headers = {"content-type": "application/json"}
    return [("POST", f"/api/events/{event}/decks",
             json.dumps({"player": f"{prefix} {n:04}", "decklist": p.read_text(encoding="utf-8")}).encode(), headers)
            for n, p in enumerate(decks)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=200_000, help="collection rows of the shared inputs")
    ap.add_argument("--decks", type=int, default=1000, help="submissions (default 1,000)")
    ap.add_argument("--clients", type=int, default=16, help="concurrent clients (default 16)")
    ap.add_argument("--workers", type=int, default=2, help="server processes (default 2)")
    ap.add_argument("--db", help="database URL (default: SQLite in a temporary folder)")
    args = with_repeats(ap)
    data = data_dir(args.rows, args.decks)
    decks = sorted((data / "decks").glob("*.txt"))[: args.decks]
    os.environ["DECKCHECK_DESK_RATE"] = "0"  # one address submits everything: no per-address limit here
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{tmp}/bench.db"
        subprocess.run([deckcheck_exe(), "db", "init", "--db", db], capture_output=True, check=True)

        def tournament() -> None:
            r = subprocess.run([deckcheck_exe(), "tournament", "check", str(data / "decks"), "--format", "type1e",
                                "--json", "--db", db], capture_output=True, text=True)
            assert r.returncode in (0, 1, 2), r.stderr
        batch = median_time(tournament, 3)
        cli_throughput = len(decks) / batch

        proc, port = start_server(db, args.workers)
        try:
            warm = call(port, "POST", "/api/events", {"name": "warm-up", "format": "type1e"})
            run_load(port, submissions(warm["id"], decks[:4 * args.workers]) * 2, args.clients,
                     ok=lambda status, body: status == 201)  # every worker has its card index
            event = call(port, "POST", "/api/events", {"name": "bench", "format": "type1e"})
            result = run_load(port, submissions(event["id"], decks), args.clients,
                              ok=lambda status, body: status == 201 and b'"deck_id"' in body)
            stored = call(port, "GET", f"/api/events/{event['id']}/decks", token=event["organiser_token"])
        finally:
            stop_server(proc)
    players = [d["player"] for d in stored]
    once = len(players) == len(set(players)) == len(decks) and all(d["submissions"] == 1 for d in stored)
    print("desk.submissions", result["requests"])
    print("desk.clients", args.clients)
    print("desk.workers", args.workers)
    print("desk.database", db.split(":")[0])
    print("desk.throughput_submissions_per_s", round(result["throughput"], 1))
    print("desk.p50_ms", round(result["p50_ms"], 2))
    print("desk.p99_ms", round(result["p99_ms"], 2))
    print("desk.errors", result["errors"], result["first_error"])
    print("desk.stored_once", once, f"({len(stored)} players stored of {len(decks)})")
    print("deckcheck.tournament_check_s", round(batch, 3), f"({round(cli_throughput, 1)} decks/s)")
    print(verdict("ratio.desk_over_tournament_throughput", result["throughput"], cli_throughput, 0.25, True))
    print(verdict("ratio.p99_over_p50", result["p99_ms"], result["p50_ms"], 10.0, False))
    if result["errors"] or not once:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
