"""The benchmark scripts run end to end on small inputs (their figures are read by people, not asserted)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("script", ["bench_validate.py", "bench_tournament.py", "bench_collection.py",
                                    "bench_sheet_scan.py", "bench_collection_memory.py", "bench_web.py",
                                    "bench_desk.py", "bench_speed.py"])
def test_bench_script_runs(script, tmp_path):
    r = subprocess.run([sys.executable, str(ROOT / "bench" / script), "--rows", "300", "--decks", "12"],
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


def test_path_to_legal_bench_runs_the_json_api_way_over_the_five_example_decks():
    r = subprocess.run([sys.executable, str(ROOT / "bench" / "path_to_legal.py"), "--api"], capture_output=True,
                       text=True, cwd=ROOT, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    out = r.stdout.splitlines()
    assert out[0] == "way: the JSON API, personal server" and len(out) == 1 + 5 + 3, out
    assert [line.split(":")[0] for line in out[-3:]] == ["questions asked", "rounds needed", "decks still unverified"]
    assert out[-2:] == ["rounds needed: 1", "decks still unverified: 0 of 5"]  # issue 32's goal, the API's way
