#!/usr/bin/env python3
"""Speed near the limit (issue 35 item 5): each goal's ratio, measured in one run, in turns.

    .venv/bin/python bench/bench_speed.py [--decks 1000] [--web]

Goals: one `deckcheck check` at most 1.5x `python -c "import typer"` with bytecode cached (and, reported
beside it, with nothing compiled ahead: an empty PYTHONPYCACHEPREFIX that is never written, for both
commands alike); `tournament check` of the decks into an XLSX report at most 3.5x one `check`; with --web,
bench_web.py's checks/s (goal >= 1,000 on 2 workers, p99 <= 10x p50). Wall and CPU time (user + system of
the child): on a loaded machine the CPU figures are the steadier.
"""
from __future__ import annotations

import compileall
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_validate import timed  # noqa: E402
from common import ROOT, data_dir, deckcheck_exe, repeats, sizes, verdict  # noqa: E402

ROUNDS = 7


def medians(commands: dict[str, list[str]], env: dict[str, str], rounds: int) -> dict[str, tuple[float, float]]:
    """Name -> (median wall s, median CPU s) of each command, run in turns so the load weighs on all alike."""
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, command in commands.items():
            runs[name].append(timed(command, env))
    return {name: (statistics.median(w for w, _ in r), statistics.median(c for _, c in r)) for name, r in runs.items()}


def main() -> None:
    web = "--web" in sys.argv  # read here: sizes() knows --rows, --decks and --repeats only
    if web:
        sys.argv.remove("--web")
    args = sizes(__doc__)
    data = data_dir(args.rows, args.decks)
    decks = data / "decks"
    one = str(sorted(decks.glob("*.txt"))[0])
    for folder in ("deckcheck", "db", "importers", "web"):  # as pip compiles an installed package
        compileall.compile_dir(str(ROOT / folder), quiet=1)
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, DECKCHECK_DB=f"sqlite:///{tmp}/bench.db")
        check = [deckcheck_exe(), "check", one]
        typer = [sys.executable, "-c", "import typer"]
        tournament = [deckcheck_exe(), "tournament", "check", str(decks), "--out", f"{tmp}/report.xlsx"]
        subprocess.run(check, env=env, capture_output=True)  # creates the database and the kept card index
        cached = medians({"typer": typer, "check": check, "tournament": tournament}, env, repeats(ROUNDS))
        cold = dict(env, PYTHONDONTWRITEBYTECODE="1", PYTHONPYCACHEPREFIX=f"{tmp}/no-bytecode")
        uncached = medians({"typer": typer, "check": check}, cold, repeats(ROUNDS))
    for kind, figures in (("cached", cached), ("uncached", uncached)):
        for name, (wall, cpu) in figures.items():
            print(f"{name}.{kind}_wall_s", round(wall, 4))
            print(f"{name}.{kind}_cpu_s", round(cpu, 4))
    for i, what in ((0, "wall"), (1, "cpu")):
        print(verdict(f"ratio.check_vs_typer_{what}", cached["check"][i], cached["typer"][i], 1.5, False))
        print(verdict(f"ratio.check_vs_typer_uncached_{what}", uncached["check"][i], uncached["typer"][i], 1.5,
                      False))
        print(verdict(f"ratio.tournament_vs_check_{what}", cached["tournament"][i], cached["check"][i], 3.5, False))
    if web:
        r = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_web.py"), "--rows", str(args.rows),
                            "--decks", str(args.decks), *(["--repeats", str(args.repeats)] if args.repeats else [])],
                           capture_output=True, text=True)
        sys.stdout.write(r.stdout)


if __name__ == "__main__":
    main()
