"""Every nasty file of tests/nasty.py through the real command.

Each must end with an exit code of the contract (0/1/2), a JSON line per deck with --json, no
traceback, no terminal escape sequence from the input on the terminal, and well inside the hang guard.
Workbooks that made the spreadsheet reader abort natively run in a subprocess (an abort ends only
it); the rest run in process, which is many times faster.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from inproc import run_cli
from nasty import nasty_files

ROOT = Path(__file__).resolve().parent.parent
EXE = str(Path(sys.executable).with_name("deckcheck"))
HANG_GUARD_S = 120  # not a timing assertion: a hung reader fails here instead of stalling the suite
# read as decks (no cards, or a valid UTF-16 file of 3 Thrust): not legal. A file with nothing in it (empty.txt,
# crlf-only.txt: no byte, or only line ends) is unreadable, saying so: exit 2
READ_AS_DECKS = {"comment-only.txt", "header-only.txt", "utf16.txt", "utf16.json"}
NATIVE = {"far-corner.xlsx", "far-corner-in-row-1.xlsx", "far-corner-dimension.xlsx", "far-corner-lower-case.xlsx",
          "far-corner-spaced.xlsx", "wide-area.xlsx", "zip-bomb.xlsx", "far-corner-many-letters.xlsx",
          "far-corner-many-letters-dimension.xlsx"}
NO_DECK = {"header-only.csv"}  # a sheet with the columns but no row holds no deck
FILES = nasty_files()


def run(*args: str, stdin: bytes | None = None, subprocess_: bool = True) -> subprocess.CompletedProcess:
    if not subprocess_:
        r = run_cli(*args, stdin=stdin or b"")
        assert r.crash is None, r.crash
        return subprocess.CompletedProcess(args, r.code, r.out, r.err)
    return subprocess.run([EXE, *args], capture_output=True, input=stdin, cwd=ROOT, timeout=HANG_GUARD_S)


def assert_clean(r: subprocess.CompletedProcess, allowed: set[int]) -> None:
    err = r.stderr.decode("utf-8", "replace")
    assert r.returncode in allowed, (r.returncode, err[-2000:])
    assert "Traceback" not in err and "panicked" not in err, err[-2000:]


@pytest.fixture(scope="module")
def nasty_dir(tmp_path_factory):
    d = tmp_path_factory.mktemp("nasty")
    for name, data in FILES:
        (d / name).write_bytes(data)
    return d


@pytest.mark.parametrize("name", [n for n, _ in FILES])
def test_check_json(cli_env, nasty_dir, name):
    r = run("check", str(nasty_dir / name), "--json", subprocess_=name in NATIVE)
    expected = {1} if name in READ_AS_DECKS else {2}
    assert_clean(r, expected)
    lines = r.stdout.decode("utf-8").splitlines()
    if name in NO_DECK:
        assert lines == [] and b"no decklist found" in r.stderr
        return
    reports = [json.loads(line) for line in lines]
    assert reports, r.stderr
    for report in reports:
        assert set(report) >= {"deck", "format", "legal", "issues", "input_errors"}
        if r.returncode == 2:
            assert report["legal"] is None and report["input_errors"], report


@pytest.mark.parametrize("name", [n for n, _ in FILES if n.endswith(".txt")] + ["unknown-section.json",
                                                                                  "lone-surrogate.json"])
def test_check_terminal_shows_no_escape_from_the_input(cli_env, nasty_dir, name):
    r = run("check", str(nasty_dir / name), subprocess_=False)
    assert_clean(r, {1, 2})
    out = r.stdout + r.stderr
    for raw in (b"\x1b", b"\x07", "\x9b".encode(), "\u202e".encode()):
        assert raw not in out, (raw, out[:2000])


def test_rich_markup_in_input_is_shown_as_written(cli_env, nasty_dir):
    r = run("check", str(nasty_dir / "rich-markup.txt"), subprocess_=False)
    out = r.stdout.decode()
    assert_clean(r, {2})
    assert "[/x]" in out and "[red]2 Lunge" in out and "[link=file:///etc]" in out


def test_tournament_report_holds_every_nasty_deck(cli_env, nasty_dir, tmp_path):
    good = tmp_path / "good.txt"
    good.write_text((ROOT / "examples" / "decks" / "type1e-connor-legal.txt").read_text())
    out = tmp_path / "report.json"
    r = run("tournament", "check", str(good), str(nasty_dir), "--out", str(out))
    assert_clean(r, {2})
    sources = {Path(row["source"]).name: row for row in json.loads(out.read_text())}
    assert sources["good.txt"]["legal"] is True
    unreadable = {n for n, _ in FILES if n not in READ_AS_DECKS | NO_DECK and Path(n).suffix in
                  (".txt", ".csv", ".xlsx", ".json")}
    assert unreadable <= {n for n, row in sources.items() if row["legal"] is None}


@pytest.mark.parametrize("name", ["far-corner.xlsx", "far-corner-in-row-1.xlsx", "wide-area.xlsx", "zip-bomb.xlsx",
                                  "far-corner-many-letters.xlsx",
                                  "formula-no-cached-value.xlsx", "error-cell.xlsx", "superscript.csv",
                                  "huge-field.csv", "duplicate-header.csv"])
@pytest.mark.parametrize("command", [("cards", "import", "--dry-run"), ("collection", "import", "--dry-run"),
                                     ("check", "examples/decks/type1e-connor-legal.txt", "--cards"),
                                     ("taktik", "deal")])
def test_every_sheet_reader_refuses_cleanly(cli_env, nasty_dir, name, command):
    r = run(*command, str(nasty_dir / name), subprocess_=name in NATIVE)
    assert_clean(r, {2})
    assert name in r.stderr.decode("utf-8", "replace")


def test_dev_zero_is_refused(cli_env):
    r = run("check", "/dev/zero", "--json", subprocess_=False)
    assert_clean(r, {2})
    assert "larger than" in json.loads(r.stdout)["input_errors"][0]["message"]


def test_a_100_mb_one_line_decklist_is_refused(cli_env, tmp_path):
    big = tmp_path / "big.txt"
    with open(big, "wb") as f:
        f.write(b"3 ")
        f.truncate(100 << 20)  # 100 MB of NUL bytes after "3 " on one line, without writing them
    r = run("check", str(big), "--json", subprocess_=False)
    assert_clean(r, {2})
    assert "larger than" in json.loads(r.stdout)["input_errors"][0]["message"]


def test_standard_input_named_twice(cli_env):
    r = run("check", "-", "-", "--json", stdin=b"3 Thrust\n", subprocess_=False)
    assert_clean(r, {2})
    assert b"standard input" in r.stderr and r.stdout == b""
