#!/usr/bin/env python3
"""Decklist parse benchmark (issue 9): time to read a text decklist of 10,000 and 100,000 lines.

    .venv/bin/python bench/bench_parse.py [--lines 10000,100000]

Prints `name value` figures: seconds and microseconds per line for the parse alone (parse_text),
for the file reader (read_decklists: limits, decoding, parse) and for parse plus name resolution
(build_deck), on lines made from the real checklist's names in every quantity form of CONTRACTS.md
§2; then, for each step, the linearity ratio: time per line at the largest size over time per line
at the smallest (1.0 is linear; the target is at most 1.5, which leaves room for noise and caches).
A line at the length limit (4,096 characters, mostly spaces: the pattern that made the old parser
quadratic) is timed too. Then a list pasted from a forum post (issue 20: a title line, label lines,
headings with counts, separators, totals, bullets, Markdown, remarks, tabs, curly apostrophes, no-break
spaces, full-width digits, CRLF; and HTML, BBCode, entities and code fences, taken off first) of 500
and 5,000 lines (`--messy`) is read and resolved, with its linearity ratio. Needs no data from make_data.py.
"""
from __future__ import annotations

import argparse
import csv
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import SHARED_BENCH  # noqa: E402

FORMS = ["{q} {n}", "{q}x {n}", "{n} x{q}", "{n} (x{q})", "{n}", "{q} {n} [{s}]", "{n} [{s}] x{q}"]
# the forms people paste (CONTRACTS.md §2, revision 3): bullets, Markdown, tabs, remarks, phone characters
MESSY_FORMS = ["- {q}x {n}", "\u2022 {n} x{q}", "* {q} {n} // staple", "x{q} {n}", "{q}x: {n}", "{q}\t{n}",
               "{n}\t{q}", "**{n}** x{q}", "> {q} {n} ({s})", "\u2013 {q}\u00a0{n}", "\uff13 {n}",
               # markup taken off before the lines are read (issue 33): HTML, BBCode, entities, fences
               "<li>{q}x {n}</li>", "[*]{q} {n}", "[b]{n}[/b] x{q}", "<p>{q}&nbsp;{n}<br></p>", "```\n{q} {n}\n```"]
MESSY_HEADINGS = ["## Attacks (24)", "**Blocks:**", "DODGES [6]", "Specials - 4", "__Events__", "Edges: 3"]


def names() -> list[tuple[str, str]]:
    checklist = SHARED_BENCH.parent / "data" / "highlander-1e" / "checklist.tsv"
    with open(checklist, encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return [(r["name"], r["set_code"]) for r in rows if r["type"] and "[" not in r["name"]]


def decklist(n: int, rnd: random.Random, cards: list[tuple[str, str]]) -> str:
    lines = ["Format: type1e", "Pre-Game:", "1 Connor MacLeod Persona", "Endurance:"]
    for i in range(n - len(lines)):
        if i % 50 == 0:
            lines.append("# a comment line")
            continue
        name, set_code = rnd.choice(cards)
        lines.append(rnd.choice(FORMS).format(q=rnd.randint(1, 6), n=name, s=set_code))
    return "\n".join(lines) + "\n"


def messy_decklist(n: int, rnd: random.Random, cards: list[tuple[str, str]]) -> str:
    """A forum post of n lines: a title, label lines, headings with counts, separators, totals, every
    pasted form of a card line, curly apostrophes, CRLF line ends."""
    lines = ["\ufeffConnor\u2019s Blade of the Highlands", "Format: type1e", "**Persona:** Connor MacLeod", "-----"]
    for i in range(n - len(lines)):
        if i % 40 == 0:
            lines.append(rnd.choice(MESSY_HEADINGS))
            continue
        if i % 97 == 0:
            lines.append(rnd.choice(["=====", f"Total: {i}", f"{i} cards"]))
            continue
        name, set_code = rnd.choice(cards)
        line = rnd.choice(MESSY_FORMS).format(q=rnd.randint(1, 6), n=name.replace("'", "\u2019"), s=set_code)
        lines.append(line)
    return "\r\n".join(lines) + "\r\n"


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", default="10000,100000", help="comma-separated sizes (default 10000,100000)")
    ap.add_argument("--messy", default="500,5000", help="sizes of the pasted-forms list (default 500,5000)")
    args = ap.parse_args()
    sizes = [int(s) for s in args.lines.split(",")]
    messy = [int(s) for s in args.messy.split(",")]
    from deckcheck.db.store import bundled_cards
    from deckcheck.catalog import CardIndex
    from deckcheck.games import parse_text
    from deckcheck.decks import build_deck
    from deckcheck.games import get_format
    from deckcheck.importers.decklists import read_decklists

    rnd = random.Random(9)
    cards = names()
    index = CardIndex(bundled_cards())
    fmt = get_format("type1e")
    per_line: dict[str, dict[int, float]] = {"parse": {}, "read_file": {}, "parse_resolve": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            text = decklist(n, rnd, cards)
            path = Path(tmp) / f"deck-{n}.txt"
            path.write_text(text, encoding="utf-8")
            repeat = 5 if n <= 20_000 else 2
            steps = {"parse": lambda text=text: parse_text(text, "bench"),
                     "read_file": lambda path=path: read_decklists(path),
                     "parse_resolve": lambda text=text: build_deck(parse_text(text, "bench"), index, fmt)}
            for step, fn in steps.items():
                seconds = best(fn, repeat if step != "parse_resolve" else 1)
                per_line[step][n] = seconds / n
                print(f"deckcheck.{step}_{n}_lines_s", round(seconds, 4))
                print(f"deckcheck.{step}_{n}_us_per_line", round(1e6 * seconds / n, 2))
        messy_per_line: dict[int, float] = {}
        for n in messy:
            text = messy_decklist(n, rnd, cards)
            seconds = best(lambda text=text: build_deck(parse_text(text, "bench"), index, fmt), 3)
            messy_per_line[n] = seconds / n
            print(f"deckcheck.messy_parse_resolve_{n}_lines_s", round(seconds, 4))
            print(f"deckcheck.messy_parse_resolve_{n}_us_per_line", round(1e6 * seconds / n, 2))
        if len(messy) > 1:
            ratio = messy_per_line[max(messy)] / messy_per_line[min(messy)]
            print(f"ratio.linearity_messy_parse_resolve {ratio:.3f} (time per line at {max(messy):,} lines / at "
                  f"{min(messy):,}; target <= 1.5) {'OK' if ratio <= 1.5 else 'MISSED'}")
        long_line = "a" + " " * 4094 + "b"
        for n in (10, 100):
            seconds = best(lambda n=n: parse_text("\n".join([long_line] * n), "bench"), 2)
            print(f"deckcheck.parse_{n}_longest_lines_us_per_line", round(1e6 * seconds / n, 1))
    small, large = min(sizes), max(sizes)
    if small != large:
        for step, figures in per_line.items():
            ratio = figures[large] / figures[small]
            print(f"ratio.linearity_{step} {ratio:.3f} (time per line at {large:,} lines / at {small:,}; "
                  f"target <= 1.5) {'OK' if ratio <= 1.5 else 'MISSED'}")


if __name__ == "__main__":
    main()
