#!/usr/bin/env python3
"""Card facts benchmark (issue 22): what a player's answers cost on a club server and a personal one.

    .venv/bin/python bench/bench_facts.py

Prints `name value` figures, each the median of several runs on a fresh SQLite database of the bundled cards:
a deck's 15 Restriction numbers answered at once (proposed, and applied: one transaction each), a check that
counts one person's pending answers (`facts_by`) beside the same check without them, and the export of every
value not from the bundle. Targets: a deck's answers under 0.5 s; a `facts_by` check under 1 s.
"""
from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DECK = (ROOT / "examples/decks/type1e-connor-legal.txt").read_text()


def median_ms(run, times: int = 5) -> float:
    found = []
    for _ in range(times):
        start = time.perf_counter()
        run()
        found.append((time.perf_counter() - start) * 1000)
    return statistics.median(found)


def main() -> None:
    from deckcheck.library.api import Catalog
    from deckcheck.check import check_raw
    from deckcheck.library.facts import Facts, facts_sheet
    from deckcheck.db.store import Store
    from deckcheck.textlimits import parse_checked
    from deckcheck.library.api import Overlaid
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'bench.db'}"
        store = Store(url)
        facts = Facts(store)
        cards = [c for c in store.cards() if c.restriction is None][:60]
        facts.proposals()  # warm: the engine and its first statements
        rounds = iter(range(4))

        def propose():
            n = next(rounds, 0)
            facts.submit_many([(c, {"restriction": str(n % 6 + 1)}) for c in cards[:15]], f"P{n}", True)
        proposed = median_ms(propose, 4)
        print(f"propose_15_answers_ms {proposed:.1f}")
        batches = iter(range(3))

        def apply():
            n = next(batches, 0)
            facts.submit_many([(c, {"restriction": "2"}) for c in cards[15 + 15 * n:30 + 15 * n]], "A", False)
        applied = median_ms(apply, 3)
        print(f"apply_15_answers_ms {applied:.1f}")
        catalog = Catalog(url)
        raw = parse_checked(DECK, "-")
        check_raw(raw, catalog.index)
        plain = median_ms(lambda: check_raw(parse_checked(DECK, "-"), catalog.index))
        rows = facts.overlay("P0")
        own = median_ms(lambda: check_raw(parse_checked(DECK, "-"), Overlaid(catalog, rows).index))
        print(f"check_ms {plain:.1f}")
        print(f"check_with_own_answers_ms {own:.1f}")
        facts_sheet(store)
        print(f"facts_export_ms {median_ms(lambda: facts_sheet(store), 3):.1f}")
        store.dispose()
    print(f"ratio.answers_of_a_deck_s {max(proposed, applied) / 1000:.3f} (target <= 0.5)")
    print(f"ratio.check_with_own_answers_s {own / 1000:.3f} (target <= 1)")


if __name__ == "__main__":
    main()
