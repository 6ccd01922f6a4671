#!/usr/bin/env python3
"""Peak memory of a collection import (issue 9): the 200,000-row XLSX sheet of make_data.py.

    .venv/bin/python bench/bench_collection_memory.py [--rows 200000]

Runs `deckcheck collection import collection.xlsx --skip-bad` as a child process on a database set
up beforehand and reads the child's own peak resident set size from the kernel (os.wait4 ->
ru_maxrss, the figure `/usr/bin/time -v` prints as "Maximum resident set size"). For scale it also
measures, the same way, a bare Python process that only reads the sheet with python-calamine
(`to_python()`, the reference of ../shared/bench/limits.py). Target: the import stays under 200 MB, on a new
database and again on the existing one (the same sheet imported a second time: every row already there).
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import data_dir, deckcheck_exe, sizes  # noqa: E402

TARGET_MB = 200.0


def peak_mb(args: list[str], env: dict[str, str]) -> tuple[float, int]:
    """Peak RSS in MB of one child process (and its exit code), from the kernel's own accounting."""
    proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _pid, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_maxrss / 1024, proc.returncode  # ru_maxrss is in KB on Linux


def main() -> None:
    args = sizes(__doc__)
    data = data_dir(args.rows, args.decks)
    sheet = data / "collection.xlsx"
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, DECKCHECK_DB=f"sqlite:///{tmp}/bench.db", COLUMNS="200")
        subprocess.run([deckcheck_exe(), "db", "init"], env=env, check=True, capture_output=True)
        bare, _ = peak_mb([sys.executable, "-c", "import sys; from python_calamine import CalamineWorkbook; "
                           "CalamineWorkbook.from_path(sys.argv[1]).get_sheet_by_index(0).to_python()",
                           str(sheet)], env)
        python, _ = peak_mb([sys.executable, "-c", "pass"], env)
        mb, code = peak_mb([deckcheck_exe(), "collection", "import", str(sheet), "--skip-bad"], env)
        again, again_code = peak_mb([deckcheck_exe(), "collection", "import", str(sheet), "--skip-bad"], env)
    print("rows", args.rows)
    print("reference.python_startup_mb", round(python, 1))
    print("reference.calamine_read_mb", round(bare, 1))
    print("deckcheck.import_xlsx_peak_mb", round(mb, 1), f"(exit code {code}: 2 when rows were left out)")
    print("deckcheck.import_xlsx_existing_peak_mb", round(again, 1), f"(exit code {again_code})")
    for name, figure in (("import_peak", mb), ("import_existing_peak", again)):
        ratio = figure / bare if bare else float("nan")
        print(f"ratio.{name}_to_calamine_read {ratio:.3f} (target: import under {TARGET_MB:g} MB) "
              f"{'OK' if figure < TARGET_MB else 'MISSED'}")


if __name__ == "__main__":
    main()
