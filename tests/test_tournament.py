"""Tournament deck checking: every input form, mixed good/bad/unreadable decks, the report's sheets, exit codes."""
from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from deckcheck.library.api import check_tournament

ROOT = Path(__file__).resolve().parent.parent
TOURNAMENT = ROOT / "examples" / "tournament"
GOLDEN = ROOT / "examples" / "golden" / "tournament.json"
PLAYERS = ["Alice Moreau", "Bruno Keller", "Chiara Bassi", "Dmitri Orlov"]
VERDICTS = [True, False, True, None]


def run(*args, cwd=ROOT):
    exe = Path(sys.executable).with_name("deckcheck")
    return subprocess.run([str(exe), *args], capture_output=True, text=True, cwd=cwd)


def test_golden_report(shared_db, update_golden, monkeypatch):
    monkeypatch.chdir(ROOT)
    found = check_tournament(["examples/tournament/"], db_url=shared_db).as_dicts()
    if update_golden:
        GOLDEN.write_text(json.dumps(found, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    assert found == json.loads(GOLDEN.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", ["registration.csv", "registration.xlsx"])
def test_registration_workbook_forms(shared_db, name):
    t = check_tournament([TOURNAMENT / name], db_url=shared_db)
    assert [r.player for r in t.reports] == PLAYERS
    assert [r.legal for r in t.reports] == VERDICTS
    assert t.exit_code == 2
    assert t.totals() == {"decks": 4, "legal": 2, "not legal": 1, "unreadable": 1}


def test_folder_of_decklists_with_a_broken_file(shared_db, tmp_path):
    for deck in ("type1e-connor-legal.txt", "type1e-kurgan-illegal.txt", "type1e-methos.json"):
        shutil.copy(ROOT / "examples" / "decks" / deck, tmp_path / deck)
    (tmp_path / "broken.xlsx").write_bytes(b"this is not a workbook")
    (tmp_path / "notes.md").write_text("not a decklist, not read")
    t = check_tournament([tmp_path], db_url=shared_db)
    assert [(Path(r.deck).name, r.legal) for r in t.reports] == [
        ("broken.xlsx", None), ("type1e-connor-legal.txt", True), ("type1e-kurgan-illegal.txt", False),
        ("type1e-methos.json", False)]
    assert "not a readable workbook" in t.reports[0].input_errors[0].message
    assert t.exit_code == 2
    assert [row[0] for row in t.summary_rows()] == ["broken", "type1e-connor-legal", "type1e-kurgan-illegal",
                                                    "type1e-methos"]


def test_exit_codes(shared_db, cli_env):
    deck = "examples/decks/type1e-connor-legal.txt"
    assert run("tournament", "check", deck).returncode == 0
    assert run("tournament", "check", deck, "examples/decks/type1e-kurgan-illegal.txt").returncode == 1
    assert run("tournament", "check", "examples/tournament/registration.csv").returncode == 2


def test_xlsx_report_sheets_and_columns(cli_env, tmp_path):
    import openpyxl
    out = tmp_path / "report.xlsx"
    r = run("tournament", "check", "examples/tournament/registration.xlsx", "--out", str(out))
    assert r.returncode == 2 and "wrote the xlsx report" in r.stderr
    book = openpyxl.load_workbook(out)
    assert book.sheetnames == ["Summary", "Issues", "Input errors"]
    summary = book["Summary"]
    assert [c.value for c in summary[1]] == ["player", "source", "format", "persona", "endurance", "pre_game",
                                             "legal", "errors", "warnings", "first error", "submitted_at",
                                             "submissions", "fingerprint", "deck_check", "unverified"]
    rows = [[c.value for c in row] for row in summary.iter_rows(min_row=2)]
    assert [(r[0], r[6]) for r in rows] == [("Alice Moreau", "legal"), ("Bruno Keller", "NOT LEGAL"),
                                            ("Chiara Bassi", "legal"), ("Dmitri Orlov", "unreadable")]
    assert rows[0][4] == 50 and rows[1][7] == 2
    assert summary.freeze_panes == "A2" and summary.auto_filter.ref == "A1:O5"
    assert summary["A1"].font.b
    assert summary["A2"].fill.fgColor.rgb.endswith("C6EFCE") and summary["A3"].fill.fgColor.rgb.endswith("FFC7CE")
    issues = [[c.value for c in row] for row in book["Issues"].iter_rows(min_row=2)]
    assert {(i[0], i[2]) for i in issues if i[3] == "error"} == {("Bruno Keller", "HL-OTHER-PERSONA"),
                                                                 ("Bruno Keller", "HL-PREMIUM")}
    errors = [[c.value for c in row] for row in book["Input errors"].iter_rows(min_row=2)]
    assert [(e[0], e[3]) for e in errors] == [("Dmitri Orlov", "Extra Weapn"), ("Dmitri Orlov", "Back Away")]
    assert "Extra Weapon" in errors[0][5]


def test_csv_and_json_reports(cli_env, tmp_path):
    out = tmp_path / "summary.csv"
    run("tournament", "check", "examples/tournament/registration.csv", "--out", str(out))
    with open(out, newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["player"], r["legal"]) for r in rows] == list(zip(PLAYERS, ["legal", "NOT LEGAL", "legal",
                                                                          "unreadable"], strict=True))
    out = tmp_path / "report.json"
    run("tournament", "check", "examples/tournament/registration.csv", "--out", str(out))
    data = json.loads(out.read_text())
    assert [d["player"] for d in data] == PLAYERS
    assert set(data[0]) == {"deck", "format", "legal", "persona", "counts", "issues", "input_errors", "notices",
                            "unverified", "player", "source", "submitted_at", "submissions", "fingerprint",
                            "deckchecks"}
    # a file has no submission time; its fingerprint is the cleaned list's, the same for the same list
    assert [(d["submitted_at"], d["submissions"], len(d["fingerprint"])) for d in data] == [(None, 1, 8)] * 4
    assert len({d["fingerprint"] for d in data}) == 4
    assert [r["fingerprint"] for r in rows] == [d["fingerprint"] for d in data]
    assert [r["unverified"] for r in rows] == [str(len(d["unverified"])) for d in data]
    assert [d["unverified"] for d in data][:2] == [["HL-HAND-ICONS", "HL-RESTRICTED"],
                                                  ["HL-HAND-ICONS", "HL-RESTRICTED"]]


def test_json_lines_to_stdout(cli_env, monkeypatch):
    r = run("tournament", "check", "examples/tournament/registration.xlsx", "--json")
    lines = [json.loads(line) for line in r.stdout.splitlines()]
    assert [line["legal"] for line in lines] == VERDICTS
    assert [line["player"] for line in lines] == PLAYERS
    assert all(list(line) == ["deck", "format", "legal", "persona", "counts", "issues", "input_errors", "notices",
                              "unverified", "player", "source", "submitted_at", "submissions", "fingerprint",
                              "deckchecks"]
               for line in lines)
    assert [line["source"] for line in lines] == [line["deck"] for line in lines] == [
        f"examples/tournament/registration.xlsx#{player}" for player in PLAYERS]
    unreadable = lines[3]
    first = unreadable["input_errors"][0]
    assert unreadable["issues"] == [] and list(first) == ["line", "text", "message", "suggestions"]
    assert (first["line"], first["text"], first["message"], first["suggestions"][0]) == \
        (17, "Extra Weapn", "unknown card", "Extra Weapon")
    assert [i["rule"] for i in lines[1]["issues"] if i["severity"] == "error"]  # the illegal deck says why
    monkeypatch.chdir(ROOT)
    assert lines == check_tournament(["examples/tournament/registration.xlsx"], db_url=cli_env).as_dicts()


def test_terminal_summary_and_totals(cli_env):
    r = run("tournament", "check", "examples/tournament/registration.csv")
    assert "4 decks: 2 legal, 1 not legal, 1 unreadable" in r.stdout


def test_report_cells_never_run_as_formulas(shared_db, tmp_path):
    from deckcheck.tournament import Tournament
    from deckcheck.report import InputProblem, Report
    from deckcheck.importers.reports import write_tournament_report
    t = Tournament([Report("=HYPERLINK(\"x\")", "type1e", input_errors=[InputProblem(1, "=1+1", "unknown card")])])
    write_tournament_report(tmp_path / "r.xlsx", t)
    write_tournament_report(tmp_path / "r.csv", t)
    import openpyxl
    cell = openpyxl.load_workbook(tmp_path / "r.xlsx")["Input errors"]["D2"]
    assert cell.value == "=1+1" and cell.data_type == "s"
    assert "'=HYPERLINK" in (tmp_path / "r.csv").read_text()


def test_example_workbook_is_what_its_script_makes(tmp_path):
    """examples/tournament/make_workbook.py rebuilds registration.xlsx from registration.csv."""
    from deckcheck.importers.tables import read_tables
    shutil.copy(TOURNAMENT / "make_workbook.py", tmp_path)
    shutil.copy(TOURNAMENT / "registration.csv", tmp_path)
    subprocess.run([sys.executable, str(tmp_path / "make_workbook.py")], check=True)
    made = [(t.name, t.header, t.rows) for t in read_tables(tmp_path / "registration.xlsx")]
    kept = [(t.name, t.header, t.rows) for t in read_tables(TOURNAMENT / "registration.xlsx")]
    assert made == kept and [m[0] for m in made] == PLAYERS
