#!/usr/bin/env python3
"""Decklist reading with many unknown names, and pathological lines: time per line stays flat.

  python bench/bench_names.py [--lines 10000]

Prints `name value` lines: seconds to read and resolve a decklist of N distinct unknown names
(each gets suggestions) at N and 10 N lines and their ratio (linear: about 10), and seconds for one
line of `a`, 200,000 spaces and `b` (issue 9 item 18: quadratic patterns took minutes).
Uses the bundled cards only (no database).
"""
from __future__ import annotations

import argparse
import random
import string
import time

from deckcheck.library.api import bundled_sets
from deckcheck.catalog import closest_names
from deckcheck.catalog import CardIndex
from deckcheck.db.store import bundled_cards
from deckcheck.games import get_format, parse_text
from deckcheck.decks import build_deck


def unknown_lines(n: int, names: list[str], seed: int = 1) -> str:
    """n distinct misspelt card names: a real name with two letters changed and a number added."""
    rnd = random.Random(seed)
    out = []
    for i in range(n):
        name = list(rnd.choice(names))
        for _ in range(2):
            name[rnd.randrange(len(name))] = rnd.choice(string.ascii_lowercase)
        out.append(f"{1 + i % 3} {''.join(name)} Q{i}")
    return "\n".join(out) + "\n"


def timed(text: str, index: CardIndex) -> float:
    start = time.perf_counter()
    _deck, problems = build_deck(parse_text(text), index, get_format("type1e"))
    assert problems
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--lines", type=int, default=10_000)
    n = parser.parse_args().lines
    cards = bundled_cards()
    index = CardIndex(cards, closest_names, bundled_sets())
    names = sorted({c.name for c in cards})
    small = timed(unknown_lines(n, names), index)
    index = CardIndex(cards, closest_names, bundled_sets())  # no cache carried over
    large = timed(unknown_lines(10 * n, names, seed=2), index)
    print(f"names.unknown_{n}_s {small:.3f}")
    print(f"names.unknown_{10 * n}_s {large:.3f}")
    print(f"names.ratio_10x {large / small:.2f}")
    print(f"names.per_unknown_line_ms {1000 * large / (10 * n):.3f}")
    start = time.perf_counter()
    timed("a" + " " * 200_000 + "b\n", index)
    print(f"names.spaces_line_s {time.perf_counter() - start:.4f}")


if __name__ == "__main__":
    main()
