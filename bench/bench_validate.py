#!/usr/bin/env python3
"""Validator benchmark (issue 3): in-process decks/s and the wall time of one `deckcheck check`.

    .venv/bin/python bench/bench_validate.py

Prints `name value` figures and the ratios, measured in the same run: in-process validation at least
1/5 of the bare loop's decks/s (../shared/bench/limits.py); one `deckcheck check` at most 2x the time
of `python -c "import typer"` (issue 21), the two run in turns (wall and CPU time), and against the
limits script's figure.
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import data_dir, deckcheck_exe, limits, median_time, repeats, sizes, verdict  # noqa: E402


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds) of one run of a command."""
    import resource
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, env=env, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    args = sizes(__doc__)
    data = data_dir(args.rows, args.decks)
    figures = limits(data)
    from deckcheck.library.api import Catalog
    from deckcheck.check import validate
    from deckcheck.decks import build_deck
    from deckcheck.games import get_format, parse_text

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
        # An installed deckcheck has its modules compiled (pip compiles them); a development checkout run with
        # PYTHONDONTWRITEBYTECODE would compile every module on every run: compile them once, as pip does.
        import compileall

        import deckcheck
        compileall.compile_dir(str(Path(deckcheck.__file__).parent), quiet=1)
        for package in ("db", "importers"):
            compileall.compile_dir(str(Path(deckcheck.__file__).parent.parent / package), quiet=1)
        check = [deckcheck_exe(), "check", one]
        typer = [sys.executable, "-c", "import typer"]
        subprocess.run(check, env=env, capture_output=True)  # warm the file cache and build the kept card index
        runs: dict[str, tuple[list[float], list[float]]] = {"check": ([], []), "typer": ([], [])}
        for _ in range(repeats(15)):  # in turns, so that the machine's load weighs on both alike
            for name, command in (("typer", typer), ("check", check)):
                wall, cpu = timed(command, env)
                runs[name][0].append(wall)
                runs[name][1].append(cpu)
        wall = statistics.median(runs["check"][0])
        typer_wall = statistics.median(runs["typer"][0])
        cpu, typer_cpu = statistics.median(runs["check"][1]), statistics.median(runs["typer"][1])
        print("deckcheck.check_one_s", round(wall, 4))
        print("python.import_typer_s", round(typer_wall, 4))
        print("deckcheck.check_one_cpu_s", round(cpu, 4))
        print("python.import_typer_cpu_s", round(typer_cpu, 4))
        print(verdict("ratio.check_one", wall, typer_wall, 2.0, False))
        print(verdict("ratio.check_one_cpu", cpu, typer_cpu, 2.0, False))
        print(verdict("ratio.check_one_vs_limits", wall, figures["limit.python_typer_s"], 2.0, False))
        for name, value in figures.items():
            print(name, value)


if __name__ == "__main__":
    main()
