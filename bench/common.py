"""Shared benchmark plumbing: the inputs of ../shared/bench/make_data.py and the figures of limits.py."""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED_BENCH = Path(os.environ.get("DECKCHECK_SHARED", ROOT.parent / "shared")) / "bench"
OUT = ROOT / "bench" / "out"


def data_dir(rows: int = 200_000, decks: int = 1000) -> Path:
    """The benchmark inputs, made once by the shared make_data.py."""
    target = OUT / f"data-{rows}-{decks}"

    def complete(folder: Path) -> bool:
        return (folder / "collection.xlsx").exists() and len(list((folder / "decks").glob("*.txt"))) >= decks
    if not complete(target):
        # made beside it and renamed into place: two benchmarks starting together never read half a set
        partial = OUT / f".data-{rows}-{decks}.{os.getpid()}"
        shutil.rmtree(partial, ignore_errors=True)
        subprocess.run([sys.executable, str(SHARED_BENCH / "make_data.py"), str(partial), "--rows", str(rows),
                        "--decks", str(decks)], check=True)
        if not complete(target):  # else another process put a whole set there meanwhile
            shutil.rmtree(target, ignore_errors=True)
            try:
                partial.rename(target)
            except OSError:
                pass
        shutil.rmtree(partial, ignore_errors=True)
    return target


def limits(data: Path) -> dict[str, float]:
    """Run limits.py on the same inputs, now, on this machine."""
    out = subprocess.run([sys.executable, str(SHARED_BENCH / "limits.py"), str(data)], check=True,
                         capture_output=True, text=True).stdout
    figures = {}
    for line in out.splitlines():
        name, _, value = line.partition(" ")
        figures[name] = float(value)
    return figures


# --repeats: how many times every timed measurement runs (None: each script's own count; 1 for a smoke run, whose
# figures only show that the script runs and prints its goals)
REPEATS: int | None = None


def with_repeats(ap: argparse.ArgumentParser) -> argparse.Namespace:
    """Parse the arguments, --repeats among them (it sets REPEATS for repeats() and median_time())."""
    global REPEATS
    ap.add_argument("--repeats", type=int, default=None,
                    help="times each measurement runs (default: the script's own; 1 for a smoke run)")
    args = ap.parse_args()
    REPEATS = args.repeats if args.repeats is None else max(1, args.repeats)
    return args


def repeats(n: int) -> int:
    """The number of runs of a measurement: n, or what --repeats says."""
    return REPEATS or n


def sizes(doc: str) -> argparse.Namespace:
    """--rows and --decks: the size of the inputs (smaller for a smoke run), and --repeats."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--rows", type=int, default=200_000, help="collection rows (default 200,000)")
    ap.add_argument("--decks", type=int, default=1000, help="decklists (default 1,000)")
    return with_repeats(ap)


def median_time(fn, n: int = 5) -> float:
    times = []
    for _ in range(repeats(n)):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def verdict(name: str, value: float, limit: float, target: float, higher_is_better: bool) -> str:
    ratio = value / limit if limit else float("nan")
    ok = ratio >= target if higher_is_better else ratio <= target
    sign = ">=" if higher_is_better else "<="
    return f"{name} {value:.4g} / limit {limit:.4g} = {ratio:.3f} (target {sign} {target}) {'OK' if ok else 'MISSED'}"


def deckcheck_exe() -> str:
    return str(Path(sys.executable).with_name("deckcheck"))
