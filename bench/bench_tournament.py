#!/usr/bin/env python3
"""Tournament benchmark (issue 5): 1,000 decklists checked into an XLSX report, against one `deckcheck check`.

    .venv/bin/python bench/bench_tournament.py

Target (issue 35): the whole batch in at most 3.5x the wall time of one `deckcheck check` (same run, same machine);
bench_speed.py measures the same ratio in turns with the CPU time beside it.
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import data_dir, deckcheck_exe, median_time, sizes, verdict  # noqa: E402


def main() -> None:
    args = sizes(__doc__)
    data = data_dir(args.rows, args.decks)
    decks = data / "decks"
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, DECKCHECK_DB=f"sqlite:///{tmp}/bench.db")
        one = str(sorted(decks.glob("*.txt"))[0])
        subprocess.run([deckcheck_exe(), "check", one], env=env, capture_output=True)  # creates the database

        def check_once():
            subprocess.run([deckcheck_exe(), "check", one], env=env, capture_output=True)

        def tournament():
            r = subprocess.run([deckcheck_exe(), "tournament", "check", str(decks), "--out", f"{tmp}/report.xlsx"],
                               env=env, capture_output=True, text=True)
            assert r.returncode in (0, 1, 2), r.stderr
        single = median_time(check_once, 7)
        batch = median_time(tournament, 3)
        print("deckcheck.check_one_s", round(single, 4))
        print("deckcheck.tournament_1000_xlsx_s", round(batch, 4))
        print(verdict("ratio.tournament", batch, single, 3.5, False))


if __name__ == "__main__":
    main()
