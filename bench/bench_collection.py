#!/usr/bin/env python3
"""Collection benchmark (issue 4): the 200,000-row sheet of make_data.py imported (XLSX, CSV) and exported.

    .venv/bin/python bench/bench_collection.py

Targets, against ../shared/bench/limits.py in the same run: import <= 2 x (calamine read + sqlite
upsert; issue 35, 2.5 before); export <= 1.5 x (xlsxwriter write). Each figure is the wall time of the deckcheck
command as a user runs it, on a database set up beforehand. The sheet names some Watcher's Chronicle cards only by
their printed title ("Back Away" [WC] is four different cards), so the import runs with --skip-bad and
the figures say how many rows it left out. Then export -> import (replace) -> export must keep the totals.
"""
from __future__ import annotations

import csv
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import data_dir, deckcheck_exe, limits, sizes, verdict  # noqa: E402


def run(env, *args) -> tuple[float, subprocess.CompletedProcess]:
    t = time.perf_counter()
    r = subprocess.run([deckcheck_exe(), *args], env=env, capture_output=True, text=True)
    return time.perf_counter() - t, r


def totals(path: Path) -> tuple[int, int]:
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    return len(rows), sum(int(r["quantity"]) for r in rows)


def main() -> None:
    args = sizes(__doc__)
    data = data_dir(args.rows, args.decks)
    figures = limits(data)
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, DECKCHECK_DB=f"sqlite:///{tmp}/bench.db", COLUMNS="200")
        run(env, "db", "init")
        xlsx_s, r = run(env, "collection", "import", str(data / "collection.xlsx"), "--skip-bad", "-c", "xlsx")
        skipped = r.stderr.split(" bad row")[0].split()[-1] if "bad row" in r.stderr else "0"
        print("deckcheck.import_xlsx_s", round(xlsx_s, 3), f"(rows left out: {skipped})")
        csv_s, _ = run(env, "collection", "import", str(data / "collection.csv"), "--skip-bad", "-c", "csv")
        print("deckcheck.import_csv_s", round(csv_s, 3))
        limit_import = figures["limit.xlsx_read_s"] + figures["limit.sqlite_upsert_s"]
        print(verdict("ratio.import_xlsx", xlsx_s, limit_import, 2.0, False))  # issue 35: 2x read + upsert
        print(verdict("ratio.import_csv", csv_s, limit_import, 2.0, False))
        export_s, _ = run(env, "collection", "export", f"{tmp}/out.xlsx", "-c", "xlsx")
        print("deckcheck.export_xlsx_s", round(export_s, 3))
        print(verdict("ratio.export_xlsx", export_s, figures["limit.xlsx_write_s"], 1.5, False))
        run(env, "collection", "export", f"{tmp}/first.csv", "-c", "xlsx")
        run(env, "collection", "import", f"{tmp}/out.xlsx", "--mode", "replace", "-c", "again")
        run(env, "collection", "export", f"{tmp}/second.csv", "-c", "again")
        a, b = totals(Path(f"{tmp}/first.csv")), totals(Path(f"{tmp}/second.csv"))
        print("roundtrip.entries_and_copies", a, b, "identical" if a == b else "DIFFERENT")
        for name, value in figures.items():
            print(name, value)


if __name__ == "__main__":
    main()
