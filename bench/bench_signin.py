#!/usr/bin/env python3
"""Sign-in timing (issue 30, item 3): a wrong name and a wrong password must take the same time, so that timing
tells an attacker nothing about which names have accounts.

    .venv/bin/python bench/bench_signin.py [--rounds 40]

`POST /api/session` through the app (the ASGI test client, no network), interleaved: wrong name, wrong password,
wrong name, ... on one database with one account. It prints each kind's median and the difference of the medians,
against the run-to-run noise: the spread of the medians of the same kind split into halves (first half vs second
half of the rounds). The verdict holds when |difference| <= the noise.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient

from deckcheck.db.store import Store
from deckcheck.library.accounts import Accounts
from deckcheck.web import accounts as web_accounts
from deckcheck.web import create_app
from deckcheck.web.settings import Settings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--rows", type=int, default=0, help="ignored (the common bench options)")
    parser.add_argument("--decks", type=int, default=0, help="ignored (the common bench options)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="deckcheck-bench-signin-") as folder:
        url = f"sqlite:///{Path(folder) / 'signin.db'}"
        Accounts(Store(url)).add("Ann", "the right password", ["player"])
        app = create_app(Settings.from_env(db_url=url, allowed_hosts="testserver"))
        times: dict[str, list[float]] = {"wrong name": [], "wrong password": []}
        bodies = {"wrong name": {"name": "Nobody", "password": "the right password"},
                  "wrong password": {"name": "Ann", "password": "not the password"}}
        with TestClient(app) as client:
            client.post("/api/session", json=bodies["wrong name"])  # warm up: the dummy hash is made once
            for _ in range(args.rounds):
                for kind, body in bodies.items():
                    web_accounts.SIGNINS.clear()  # the rate limit is not what is measured
                    t = time.perf_counter()
                    r = client.post("/api/session", json=body)
                    times[kind].append(time.perf_counter() - t)
                    assert r.status_code == 401, r.text
    medians = {k: statistics.median(v) for k, v in times.items()}
    half = args.rounds // 2
    noise = max(abs(statistics.median(v[:half]) - statistics.median(v[half:])) for v in times.values()) if half else 0
    diff = medians["wrong name"] - medians["wrong password"]
    for kind, m in medians.items():
        print(f"{kind:>15}: median {m * 1000:7.2f} ms over {len(times[kind])} sign-ins")
    print(f"     difference: {diff * 1000:+7.2f} ms; run-to-run noise (halves' medians): {noise * 1000:.2f} ms")
    ok = abs(diff) <= max(noise, 0.0005)
    print("verdict:", "OK (the difference is within the noise)" if ok else "DIFFERENT (timing tells names apart)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
