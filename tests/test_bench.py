"""The benchmark scripts run end to end on small inputs (their figures are read by people, not asserted)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


# a smoke run: small inputs, every measurement once (--repeats 1); the servers of bench_web and bench_desk with one
# worker (a worker's start costs ~2.5 CPU-s; serving with two is tests/web/test_web_serve.py's and test_desk_serve.py's)
# and bench_web's hostile body 64 KiB instead of 2 MiB
SMOKE = ["--rows", "300", "--decks", "12", "--repeats", "1"]
EXTRA = {"bench_web.py": ["--workers", "1", "--hostile-kb", "64"], "bench_desk.py": ["--workers", "1"]}


@pytest.mark.parametrize("script", ["bench_validate.py", "bench_tournament.py", "bench_collection.py",
                                    "bench_sheet_scan.py", "bench_collection_memory.py", "bench_web.py",
                                    "bench_desk.py", "bench_speed.py"])
def test_bench_script_runs(script, tmp_path):
    r = subprocess.run([sys.executable, str(ROOT / "bench" / script), *SMOKE, *EXTRA.get(script, [])],
                       capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    ratios = [line for line in r.stdout.splitlines() if line.startswith("ratio.")]
    assert ratios and all("target" in line for line in ratios)


def test_parse_bench_runs():
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_parse.py"), "--lines", "200,2000"],
                       capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    assert [line.split()[0] for line in r.stdout.splitlines() if line.startswith("ratio.")] == [
        "ratio.linearity_messy_parse_resolve", "ratio.linearity_parse", "ratio.linearity_read_file",
        "ratio.linearity_parse_resolve"]


def test_facts_bench_runs():
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_facts.py")], capture_output=True, text=True,
                       cwd=ROOT, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    assert [line.split()[0] for line in r.stdout.splitlines() if line.startswith("ratio.")] == [
        "ratio.answers_of_a_deck_s", "ratio.check_with_own_answers_s"]


def test_signin_bench_runs():
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_signin.py"), "--rounds", "2"], capture_output=True,
                       text=True, timeout=300)
    assert r.returncode in (0, 1) and "verdict:" in r.stdout, r.stderr[-2000:]
