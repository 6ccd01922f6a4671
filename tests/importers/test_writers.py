"""Every writer: bad targets refused with a clear message and nothing left behind, umask respected, XLSX limits."""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from deckcheck.errors import DeckcheckError
from deckcheck.importers import writers
from deckcheck.importers.writers import (PARTIAL, OutputError, SheetNames, SheetSpec, check_target, write_csv,
                                         write_text, write_xlsx)

ROOT = Path(__file__).resolve().parents[2]
WRITERS = {
    "csv": lambda p: write_csv(p, ("a", "b"), [(1, "x"), (2, "=SUM(A1)")]),
    "tsv": lambda p: write_csv(p, ("a", "b"), [(1, "x")]),
    "xlsx": lambda p: write_xlsx(p, [SheetSpec("s", ("a", "b"), [(1, "x")])]),
    "json": lambda p: write_text(p, "{}\n"),
}


@pytest.fixture
def umask():
    old = os.umask(0o022)
    yield os.umask
    os.umask(old)


@pytest.mark.parametrize("kind", sorted(WRITERS))
def test_new_files_respect_the_umask_and_replaced_files_keep_their_mode(tmp_path, kind, umask):
    target = tmp_path / f"out.{kind}"
    WRITERS[kind](target)
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    target.unlink()
    umask(0o077)
    WRITERS[kind](target)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    target.chmod(0o664)
    WRITERS[kind](target)
    assert stat.S_IMODE(target.stat().st_mode) == 0o664
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]


def test_tsv_gets_tabs_and_csv_commas(tmp_path):
    WRITERS["tsv"](tmp_path / "a.tsv")
    WRITERS["csv"](tmp_path / "a.csv")
    assert (tmp_path / "a.tsv").read_text() == "a\tb\n1\tx\n"
    assert (tmp_path / "a.csv").read_text() == "a,b\n1,x\n2,'=SUM(A1)\n"


@pytest.mark.parametrize("name,message", [
    ("r.pdf", "cannot write .pdf"), ("r.ods", "not .ods"), ("r.xls", "not the old .xls"), ("noext", "without"),
])
def test_unknown_extensions_are_refused(tmp_path, name, message):
    with pytest.raises(OutputError, match=message):
        check_target(tmp_path / name, (".csv", ".xlsx"))


@pytest.mark.parametrize("kind", sorted(WRITERS))
@pytest.mark.parametrize("target,message", [
    ("folder", "is a folder"), ("missing/out", "does not exist"), ("/proc/x", "cannot write '/proc/x"),
])
def test_bad_targets_fail_clearly_and_leave_nothing(tmp_path, kind, target, message):
    (tmp_path / "folder.csv").mkdir()
    (tmp_path / f"folder.{kind}").mkdir(exist_ok=True)
    path = Path(target + f".{kind}") if target.startswith("/") else tmp_path / f"{target}.{kind}"
    before = sorted(tmp_path.rglob("*"))
    with pytest.raises(OutputError, match=message):
        check_target(path, (f".{kind}",))
        WRITERS[kind](path)
    with pytest.raises(OutputError, match=message.split(" '")[0]):
        WRITERS[kind](path)  # the writer itself refuses too, without the check
    assert sorted(tmp_path.rglob("*")) == before


def test_leftovers_of_killed_writers_are_removed(tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    leftover = tmp_path / f".report.xlsx{PARTIAL}{dead.stdout.strip()}"
    alive = tmp_path / f".other.csv{PARTIAL}{os.getppid()}"  # a writer still running: left alone
    leftover.write_text("half a file")
    alive.write_text("being written")
    write_text(tmp_path / "out.txt", "x\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([alive.name, "out.txt"])


def test_a_failure_half_way_leaves_nothing_and_keeps_the_old_file(tmp_path):
    target = tmp_path / "out.csv"
    target.write_text("old\n")

    def rows():
        yield (1, "x")
        raise OutputError("stopped half-way")
    with pytest.raises(OutputError):
        write_csv(target, ("a", "b"), rows())
    assert target.read_text() == "old\n" and [p.name for p in tmp_path.iterdir()] == ["out.csv"]


@pytest.mark.parametrize("kind", sorted(WRITERS))
def test_full_disk_and_read_only_folder(small_fs, kind):
    script = f"""
import json, os, sys
from pathlib import Path
from deckcheck.importers.writers import write_csv, write_text, write_xlsx, SheetSpec
from deckcheck.errors import DeckcheckError
big = [(i, "x" * 200) for i in range(3000)]
out = Path(os.environ["FS"]) / "out.{kind}"
try:
    if "{kind}" in ("csv", "tsv"):
        write_csv(out, ("a", "b"), big)
    elif "{kind}" == "xlsx":
        write_xlsx(out, [SheetSpec("s", ("a", "b"), [(i, str(os.urandom(300))) for i in range(3000)])])
    else:
        write_text(out, "x" * 600_000)
    print(json.dumps({{"error": None}}))
except DeckcheckError as exc:
    print(json.dumps({{"error": str(exc), "left": sorted(os.listdir(os.environ["FS"]))}}))
"""
    setup = "import os; open(os.path.join(os.environ['FS'], 'keep.txt'), 'w').write('k')\n"
    full = json.loads(small_fs(setup, script).stdout)
    assert "the disk is full" in full["error"] and full["left"] == ["keep.txt"]
    ro = json.loads(small_fs(setup, script, readonly=True).stdout)
    assert "read-only" in ro["error"] and ro["left"] == ["keep.txt"]


def test_sheet_names_are_legal_and_unique():
    names = SheetNames()
    taken = [names.take(n) for n in ["a/b", "x" * 40, "x" * 40, "'quoted'", "History", "A/B", "[x]:*?\\", ""]]
    assert taken == ["a_b", "x" * 31, "x" * 27 + " (2)", "quoted", "History_", "A_B (2)", "_x_____", "Sheet"]
    assert all(len(t) <= 31 for t in taken)


def test_too_many_rows_continue_on_further_sheets(tmp_path, monkeypatch):
    monkeypatch.setattr(writers, "XLSX_MAX_ROWS", 4)  # 3 data rows a sheet, instead of 1,048,575
    used = write_xlsx(tmp_path / "a.xlsx", [SheetSpec("data", ("n",), [(i,) for i in range(8)])])
    assert used == [["data", "data (2)", "data (3)"]]
    import openpyxl
    book = openpyxl.load_workbook(tmp_path / "a.xlsx")
    assert [[c.value for c in row] for ws in book for row in ws.iter_rows()] == [
        ["n"], [0], [1], [2], ["n"], [3], [4], [5], ["n"], [6], [7]]


def test_text_over_the_cell_limit_is_refused_or_visibly_cut(tmp_path):
    long = "y" * 40_000
    with pytest.raises(OutputError, match=r"sheet 's', row 2, column 'b' holds 40,000 characters"):
        write_xlsx(tmp_path / "a.xlsx", [SheetSpec("s", ("a", "b"), [(1, long)])])
    assert list(tmp_path.iterdir()) == []
    write_xlsx(tmp_path / "a.xlsx", [SheetSpec("s", ("a", "b"), [(1, long)], long_text="mark")])
    import openpyxl
    cell = openpyxl.load_workbook(tmp_path / "a.xlsx")["s"]["B2"].value
    assert len(cell) <= 32_767 and cell.endswith("[cut: 40,000 characters in all]")


def test_unknown_report_extension_is_refused_before_any_deck_is_checked(tmp_path, cli_env):
    exe = Path(sys.executable).with_name("deckcheck")
    slow = tmp_path / "decks"
    slow.mkdir()
    (slow / "a.txt").write_text("Thrust\n")
    for out in ("r.pdf", "r.ods"):
        r = subprocess.run([str(exe), "tournament", "check", str(slow), "--out", str(tmp_path / out)],
                           capture_output=True, text=True, cwd=ROOT)
        assert r.returncode == 2 and "cannot write" in r.stderr and "a.txt" not in r.stdout, r.stderr
    assert isinstance(OutputError("x"), DeckcheckError)


def test_a_workbook_is_the_same_bytes_whatever_the_clock(tmp_path, monkeypatch):
    """Two downloads of one report are byte-identical: the date a workbook carries is $SOURCE_DATE_EPOCH or 1980,
    never the clock's (one CI run failed on it when two downloads fell in different seconds); a clock that moves
    between the two writes: test_xlsx.py."""
    import datetime as real
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    spec = [SheetSpec("Summary", ["player", "verdict"], [["Anna", "LEGAL"]])]
    first, second = tmp_path / "1.xlsx", tmp_path / "2.xlsx"
    write_xlsx(first, spec)
    write_xlsx(second, spec)
    assert first.read_bytes() == second.read_bytes()
    assert writers.workbook_created() == writers.NO_DATE
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1764547200")  # reproducible-builds.org: the time to write
    assert writers.workbook_created() == real.datetime(2025, 12, 1, tzinfo=real.timezone.utc)
    write_xlsx(second, spec)
    assert first.read_bytes() != second.read_bytes() and b"2025-12-01T00:00:00Z" in _core_xml(second)
    for bad in ("soon", "-5", "1" * 40, "１２"):
        monkeypatch.setenv("SOURCE_DATE_EPOCH", bad)
        assert writers.workbook_created() == writers.NO_DATE


def _core_xml(path):
    import zipfile
    with zipfile.ZipFile(path) as z:
        return z.read("docProps/core.xml")
