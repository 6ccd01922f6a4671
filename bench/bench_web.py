#!/usr/bin/env python3
"""Web benchmark (issue 12): 1,000 checks over HTTP from 8 concurrent clients against `serve --workers 2`.

    .venv/bin/python bench/bench_web.py [--decks 1000] [--clients 8] [--workers 2] [--hostile-kb 2048] [--repeats N]

Prints throughput, p50 and p99 latency and errors, and the ratio of the throughput to
`deckcheck tournament check` on the same decks (whole-process figures, same run, same machine).
Targets: ratio >= 0.25, no errors, p99 under 10x p50, and a check of a hostile 2 MB body (tens of thousands of
misspelt names) answered within HOSTILE_BOUND_S. Loopback only; the server is stopped at the end.

With accounts on (issue 30): the server is a club's (one player account), and the same checks are sent again
signed in, half with the session cookie `POST /api/session` gave, half with a personal API token, so that every
request pays for finding its person; then the account's own collection is read (`GET /api/collection`, the
owner-scoped path) as many times. Printed: both throughputs and their ratios to the tournament check (the same
target, >= 0.25) and to the anonymous checks.
`run_load` is the load generator; other cases (the tournament desk) reuse it.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import data_dir, deckcheck_exe, median_time, verdict, with_repeats  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db_url: str, workers: int, extra: tuple[str, ...] = ()) -> tuple[subprocess.Popen, int]:
    """`deckcheck serve` on a free loopback port; returns when /healthz answers."""
    port = free_port()
    # the load comes from one address: the rate limits of checks and events (a defence) are not what is measured
    proc = subprocess.Popen([deckcheck_exe(), "serve", "--port", str(port), "--workers", str(workers),
                             "--db", db_url, "--check-rate", "0", "--event-rate", "0", *extra],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    end = time.monotonic() + 120
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise SystemExit(f"serve exited: {proc.stderr.read() if proc.stderr else ''}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return proc, port
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("serve did not answer /healthz in 120 s")


def stop_server(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def run_load(port: int, requests: list[tuple[str, str, bytes, dict]], clients: int,
             ok: Callable[[int, bytes], bool] = lambda status, body: status == 200) -> dict:
    """Send (method, path, body, headers) requests from `clients` threads, each on one keep-alive connection.

    Returns wall seconds, throughput, p50/p99 latency (ms) and the number of errors (a failed request or
    an answer `ok` rejects).
    """
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    todo = iter(requests)

    def worker() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        while True:
            with lock:
                item = next(todo, None)
            if item is None:
                break
            method, path, body, headers = item
            start = time.perf_counter()
            try:
                conn.request(method, path, body=body, headers=headers)
                response = conn.getresponse()
                data = response.read()
                good = ok(response.status, data)
            except (OSError, http.client.HTTPException) as exc:
                good, data = False, str(exc).encode()
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            elapsed = time.perf_counter() - start
            with lock:
                latencies.append(elapsed)
                if not good:
                    errors.append(data[:200].decode("utf-8", "replace"))
        conn.close()

    threads = [threading.Thread(target=worker) for _ in range(clients)]
    wall = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - wall
    latencies.sort()
    return {"requests": len(latencies), "wall_s": wall, "throughput": len(latencies) / wall,
            "p50_ms": 1000 * statistics.median(latencies),
            "p99_ms": 1000 * latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))],
            "errors": len(errors), "first_error": errors[0] if errors else ""}


def check_requests(decks: list[Path]) -> list[tuple[str, str, bytes, dict]]:
    """One POST /api/check (JSON) per decklist file."""
    headers = {"content-type": "application/json"}
    return [("POST", "/api/check", json.dumps({"decklist": p.read_text(encoding="utf-8")}).encode(), headers)
            for p in decks]


HOSTILE_BOUND_S = 15.0  # README's limits table: a check of a hostile 2 MB body is answered within this


def hostile_body(limit: int = 2 * 2**20, db_url: str | None = None) -> bytes:
    """A JSON check body just under `limit` bytes: tens of thousands of misspelt card names (no cache helps), the
    names those of the cards on `db_url` (default: the user's database)."""
    import random

    from deckcheck.library.api import Catalog
    rng = random.Random(19)
    names = sorted({c.name for c in Catalog(db_url).cards()})
    lines, size = [], 0
    while size < limit - min(64 * 1024, limit // 16):  # room for the JSON around it
        name = rng.choice(names)
        at = rng.randrange(len(name))
        line = f"1 {name[:at]}{rng.choice('aeioxyz')}{name[at + 1:]}{rng.choice(['', ' Special', ' Left'])}\n"
        lines.append(line)
        size += len(line) + 2
    return json.dumps({"decklist": "".join(lines), "format": "type1e"}).encode()


def hostile_check_s(port: int, limit: int = 2 * 2**20, db_url: str | None = None) -> float:
    """Seconds until a check of hostile_body(limit, db_url) is answered (a 200 report)."""
    body = hostile_body(limit, db_url)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    start = time.perf_counter()
    conn.request("POST", "/api/check", body=body, headers={"content-type": "application/json"})
    response = conn.getresponse()
    data = response.read()
    elapsed = time.perf_counter() - start
    conn.close()
    assert response.status == 200 and b'"input_errors"' in data, (response.status, data[:200])
    return elapsed


BENCH_ACCOUNT = "bench-player"


def make_account(db_url: str, folder: Path) -> tuple[str, str]:
    """A player account on the database, its collection filled from the example binder: (password, API token)."""
    import secrets

    from deckcheck.db.store import Store
    from deckcheck.library.accounts import Accounts
    from deckcheck.library.api import CollectionApp
    password = secrets.token_urlsafe(18)
    accounts = Accounts(Store(db_url))
    account = accounts.add(BENCH_ACCOUNT, password, ["player"])
    binder = Path(__file__).resolve().parents[1] / "examples" / "collection" / "my-binder.csv"
    CollectionApp(db_url).for_person(account.person()).import_sheet(binder, "main")
    return password, accounts.new_token(account, "bench")[1]


def session_cookie(port: int, password: str) -> str:
    """Sign in over HTTP (`POST /api/session`); the Cookie header that carries the session."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("POST", "/api/session", body=json.dumps({"name": BENCH_ACCOUNT, "password": password}),
                 headers={"content-type": "application/json", "origin": f"http://127.0.0.1:{port}"})
    response = conn.getresponse()
    response.read()
    conn.close()
    cookie = (response.getheader("set-cookie") or "").split(";", 1)[0]
    assert response.status == 200 and cookie, (response.status, cookie)
    return cookie


def signed_in(requests: list[tuple[str, str, bytes, dict]], cookie: str, token: str
              ) -> list[tuple[str, str, bytes, dict]]:
    """The requests, every other one with the session cookie and the rest with the API token."""
    return [(m, p, b, {**h, **({"cookie": cookie} if n % 2 else {"authorization": f"Bearer {token}"})})
            for n, (m, p, b, h) in enumerate(requests)]


def is_collection(status: int, body: bytes) -> bool:
    """A 200 answer holding the account's collection (not an empty one: the binder's entries)."""
    return status == 200 and b'"entries":[{' in body.replace(b" ", b"")


def is_report(status: int, body: bytes) -> bool:
    """A 200 answer holding a §3 report."""
    return status == 200 and b'"legal"' in body


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=200_000, help="collection rows of the shared inputs")
    ap.add_argument("--decks", type=int, default=1000, help="decklists (default 1,000)")
    ap.add_argument("--clients", type=int, default=8, help="concurrent clients (default 8)")
    ap.add_argument("--workers", type=int, default=2, help="server processes (default 2)")
    ap.add_argument("--hostile-kb", type=int, default=2048,
                    help="size of the hostile check's body in KiB (default 2,048: the README's bound is for 2 MB)")
    args = with_repeats(ap)
    data = data_dir(args.rows, args.decks)
    decks = sorted((data / "decks").glob("*.txt"))[: args.decks]
    with tempfile.TemporaryDirectory() as tmp:
        db = f"sqlite:///{tmp}/bench.db"
        env = dict(os.environ, DECKCHECK_DB=db)
        subprocess.run([deckcheck_exe(), "db", "init"], env=env, capture_output=True, check=True)

        def tournament() -> None:
            r = subprocess.run([deckcheck_exe(), "tournament", "check", str(data / "decks"), "--json"], env=env,
                               capture_output=True, text=True)
            assert r.returncode in (0, 1, 2), r.stderr
        batch = median_time(tournament, 3)
        cli_throughput = len(decks) / batch

        proc, port = start_server(db, args.workers)
        try:
            run_load(port, check_requests(decks[:4 * args.workers]) * 2, args.clients)  # every worker warmed up
            result = run_load(port, check_requests(decks), args.clients, ok=is_report)
            hostile = hostile_check_s(port, args.hostile_kb * 1024, db)
        finally:
            stop_server(proc)
        password, token = make_account(db, Path(tmp))  # accounts exist now: a club's server
        proc, port = start_server(db, args.workers)
        try:
            cookie = session_cookie(port, password)
            run_load(port, signed_in(check_requests(decks[:4 * args.workers]) * 2, cookie, token), args.clients)
            run_load(port, signed_in([("GET", "/api/collection?limit=50", b"", {})] * 8 * args.workers, cookie,
                                     token), args.clients)  # every worker has read the cards its collections name
            signed = run_load(port, signed_in(check_requests(decks), cookie, token), args.clients, ok=is_report)
            reads = run_load(port, signed_in([("GET", "/api/collection?limit=50", b"", {})] * len(decks), cookie,
                                             token), args.clients, ok=is_collection)
        finally:
            stop_server(proc)
    print("web.checks", result["requests"])
    print("web.clients", args.clients)
    print("web.workers", args.workers)
    print("web.throughput_checks_per_s", round(result["throughput"], 1))
    print("web.p50_ms", round(result["p50_ms"], 2))
    print("web.p99_ms", round(result["p99_ms"], 2))
    print("web.errors", result["errors"], result["first_error"])
    print("deckcheck.tournament_check_s", round(batch, 3), f"({round(cli_throughput, 1)} decks/s)")
    print(verdict("ratio.web_over_tournament_throughput", result["throughput"], cli_throughput, 0.25, True))
    print(verdict("ratio.p99_over_p50", result["p99_ms"], result["p50_ms"], 10.0, False))
    print(verdict("ratio.throughput_over_1000_per_s", result["throughput"], 1000.0, 1.0, True))  # issue 35, 2 workers
    print(verdict("ratio.errors_per_check", result["errors"], result["requests"], 0.0, False))
    print("web.signed_in.throughput_checks_per_s", round(signed["throughput"], 1), "p50_ms",
          round(signed["p50_ms"], 2), "p99_ms", round(signed["p99_ms"], 2))
    print("web.signed_in.errors", signed["errors"], signed["first_error"])
    print("web.own_collection.reads_per_s", round(reads["throughput"], 1), "p50_ms", round(reads["p50_ms"], 2),
          "p99_ms", round(reads["p99_ms"], 2))
    print("web.own_collection.errors", reads["errors"], reads["first_error"])
    print(verdict("ratio.web_signed_in_over_tournament_throughput", signed["throughput"], cli_throughput, 0.25, True))
    print(verdict("ratio.web_signed_in_over_anonymous_throughput", signed["throughput"], result["throughput"], 0.5,
                  True))
    print(verdict("ratio.errors_per_signed_in_request", signed["errors"] + reads["errors"],
                  signed["requests"] + reads["requests"], 0.0, False))
    print("web.hostile_body_kb", args.hostile_kb)
    print("web.hostile_2mb_check_s" if args.hostile_kb == 2048 else f"web.hostile_{args.hostile_kb}kb_check_s",
          round(hostile, 2))
    print(verdict("ratio.hostile_check_over_bound", hostile, HOSTILE_BOUND_S, 1.0, False))


if __name__ == "__main__":
    main()
