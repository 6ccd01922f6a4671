#!/usr/bin/env python3
"""Validator benchmark (issue 3): in-process decks/s and the wall time of one `deckcheck check`.

    .venv/bin/python bench/bench_validate.py

Prints `name value` figures and the two ratios against ../shared/bench/limits.py, measured in
the same run: in-process validation at least 1/5 of the bare loop's decks/s; one `deckcheck
check` at most 3x the time of `python -c "import typer"`.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import data_dir, deckcheck_exe, limits, median_time, sizes, verdict  # noqa: E402


def main() -> None:
    args = sizes(__doc__)
    data = data_dir(args.rows, args.decks)
    figures = limits(data)
    from deckcheck.api import Catalog
    from deckcheck.check import validate
    from deckcheck.decklist import parse_text
    from deckcheck.decks import build_deck
    from deckcheck.formats import get_format

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/bench.db"
        catalog = Catalog(url)
        fmt = get_format("type1e")
        index = catalog.index(fmt)
        paths = sorted((data / "decks").glob("*.txt"))
        texts = [p.read_text() for p in paths]
        decks = []
        t = time.perf_counter()
        for p, text in zip(paths, texts, strict=True):
            deck, problems = build_deck(parse_text(text, str(p)), index, fmt)
            decks.append(deck)
        parse_s = time.perf_counter() - t

        def run_all():
            for deck in decks:
                validate(deck, fmt)
        per_s = len(decks) / median_time(run_all, 5)
        print("deckcheck.validate_decks_per_s", round(per_s))
        print("deckcheck.parse_resolve_decks_per_s", round(len(decks) / parse_s))
        print(verdict("ratio.validate", per_s, figures["limit.validate_decks_per_s"], 0.2, True))

        env = dict(os.environ, DECKCHECK_DB=url)
        one = str(paths[0])
        subprocess.run([deckcheck_exe(), "check", one], env=env, capture_output=True)  # warm the file cache

        def check_once():
            subprocess.run([deckcheck_exe(), "check", one], env=env, capture_output=True)
        wall = median_time(check_once, 7)
        print("deckcheck.check_one_s", round(wall, 4))
        print(verdict("ratio.check_one", wall, figures["limit.python_typer_s"], 3.0, False))
        for name, value in figures.items():
            print(name, value)


if __name__ == "__main__":
    main()
