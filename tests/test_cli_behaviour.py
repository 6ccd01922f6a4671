"""The command line behaves like the tools people know: --version, -h, -q, pipes, `-`, grammar, cards todo."""
from __future__ import annotations

import csv
import io
import subprocess
import sys
from pathlib import Path

import pytest

from deckcheck.cli.plain import quiet_line, safe, short_message, summary_line
from deckcheck.report import Issue, InputProblem, Report

ROOT = Path(__file__).resolve().parent.parent
DECKS = ROOT / "examples" / "decks"


def run(*args, env_off_fast_path: bool = False, monkeypatch=None):
    exe = Path(sys.executable).with_name("deckcheck")
    return subprocess.run([str(exe), *args], capture_output=True, text=True, cwd=ROOT)


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version(flag):
    r = run(flag)
    assert r.returncode == 0 and r.stdout.startswith("deckcheck ") and r.stdout.split()[1][0].isdigit()


@pytest.mark.parametrize("command", [("check",), ("cards", "show"), ("cards", "sets"), ("cards", "todo"),
                                     ("collection", "add"), ("tournament", "check"), ("deck", "export"), ()])
def test_dash_h_is_help_everywhere(command):
    r = run(*command, "-h")
    assert r.returncode == 0 and "Usage" in r.stdout, r.stderr


def test_shell_completion_is_offered():
    assert "--install-completion" in run("--help").stdout


@pytest.mark.parametrize("fast", [True, False])
def test_quiet_check_one_line_per_deck_and_a_summary(cli_env, monkeypatch, fast):
    if not fast:
        monkeypatch.setenv("DECKCHECK_NO_FAST_PATH", "1")
    r = run("check", "-q", str(DECKS / "type1e-connor-legal.txt"), str(DECKS / "type1e-kurgan-illegal.txt"),
            str(DECKS / "type1e-typo.txt"))
    assert r.returncode == 2
    lines = r.stdout.splitlines()
    assert lines[0].endswith("type1e-connor-legal.txt: LEGAL — 2 rules unverified — 0 errors, 0 warnings")
    assert ": NOT LEGAL — " in lines[1] and ": UNREADABLE — 2 input errors, 0 warnings" in lines[2]
    assert lines[3] == "3 decks: 1 legal, 1 not legal, 1 unreadable" and len(lines) == 4


def test_one_deck_quiet_has_no_summary_line(cli_env):
    r = run("check", "-q", str(DECKS / "type1e-connor-legal.txt"))
    assert r.returncode == 0 and len(r.stdout.splitlines()) == 1


def test_output_to_a_pipe_is_plain_and_never_cut(cli_env, monkeypatch):
    monkeypatch.setenv("COLUMNS", "40")
    r = run("check", str(DECKS / "type1e-typo.txt"))
    assert r.returncode == 2
    long_lines = [ln for ln in r.stdout.splitlines() if len(ln) > 80]
    assert long_lines and "Xavier St. Cloud Back Away" in r.stdout  # the whole list, on one line
    assert "│" not in r.stdout and "\x1b" not in r.stdout


def test_check_points_to_cards_todo(cli_env):
    r = run("check", str(DECKS / "type1e-connor-legal.txt"))
    assert "deckcheck cards todo" in r.stderr


def test_cards_todo_writes_what_to_fill_in_and_then_the_rules_decide(cli_env, tmp_path):
    deck = str(DECKS / "type1e-connor-legal.txt")
    r = run("cards", "todo", deck)
    assert r.returncode == 0, r.stderr
    rows = list(csv.reader(io.StringIO(r.stdout)))
    header = rows[0]
    assert header[:3] == ["game", "id", "name"] and {"restriction", "hand_icons"} <= set(header)
    assert all(cell in ("?", "") for row in rows[1:] for cell in row[3:]) and {r[0] for r in rows[1:]} == {"highlander"}
    filled = tmp_path / "filled.csv"
    with open(filled, "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(header)
        for row in rows[1:]:
            out.writerow(row[:2] + ["1" if col == "hand_icons" and "Persona" in row[1] else
                                    ("0" if col == "hand_icons" else "6") for col in header[2:]])
    before = run("check", "--json", deck)
    after = run("check", "--json", deck, "--cards", str(filled))
    assert '"HL-DATA-UNKNOWN"' in before.stdout and '"HL-DATA-UNKNOWN"' not in after.stdout, after.stdout
    assert after.returncode == 0
    r = run("cards", "todo", deck, "--cards", str(filled), "--out", str(tmp_path / "left.xlsx"))
    assert r.returncode == 0 and "wrote 0 cards" in r.stderr


def test_deck_export_to_standard_output(tmp_path, monkeypatch):
    monkeypatch.setenv("DECKCHECK_DB", str(tmp_path / "x.db"))
    assert run("deck", "save", "c", str(DECKS / "type1e-connor-legal.txt")).returncode == 0
    r = run("deck", "export", "c", "-")
    assert r.returncode == 0 and r.stdout.startswith("Format: type1e\n") and "Connor MacLeod Persona" in r.stdout


@pytest.mark.parametrize("fast", [True, False])
def test_the_first_use_says_once_where_it_created_the_default_database(tmp_path, monkeypatch, fast):
    """CONTRACTS §5: the default SQLite file is created on first use, and said so once on stderr."""
    monkeypatch.delenv("DECKCHECK_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    if not fast:
        monkeypatch.setenv("DECKCHECK_NO_FAST_PATH", "1")
    where = tmp_path / "deckcheck" / "deckcheck.db"
    deck = str(DECKS / "type1e-connor-legal.txt")
    first, second = run("check", "-q", deck), run("check", "-q", deck)
    assert first.returncode == second.returncode == 0 and where.is_file()
    notice = f"deckcheck: created the database {str(where)!r} with the bundled cards"
    assert first.stderr.splitlines().count(notice) == 1
    assert "created the database" not in second.stderr
    assert first.stdout == second.stdout  # the notice never mixes into what a script reads


def test_a_new_db_file_is_announced_once_and_db_init_says_it_itself(tmp_path):
    db = tmp_path / "club.db"
    r = run("cards", "show", "Connor MacLeod Persona", "--db", str(db))
    assert r.returncode == 0 and f"created the database {str(db)!r}" in r.stderr
    assert "created the database" not in run("cards", "show", "Connor MacLeod Persona", "--db", str(db)).stderr
    init = run("db", "init", "--db", str(tmp_path / "new.db"))
    assert init.returncode == 0 and "initialised" in init.stdout and "created the database" not in init.stderr


def test_a_database_url_of_an_unsupported_kind_names_the_kinds_deckcheck_works_with(tmp_path):
    r = run("cards", "show", "Thrust", "--db", "mysql://someone@localhost/cards")
    assert r.returncode == 2 and "Traceback" not in r.stderr and "ModuleNotFoundError" not in r.stderr
    assert "driver (MySQLdb) is not installed" in r.stderr and "SQLite" in r.stderr and "PostgreSQL" in r.stderr


def test_db_update_dry_run_of_a_missing_database_creates_nothing(tmp_path):
    db = tmp_path / "no" / "such" / "cards.db"
    r = run("db", "update", "--dry-run", "--db", f"sqlite:///{db}")
    assert r.returncode == 2 and "no database at" in r.stderr and not (tmp_path / "no").exists()


def test_collection_add_with_nothing_to_add_is_refused_and_creates_nothing(tmp_path):
    db = tmp_path / "mine.db"
    r = run("collection", "add", "Thrust", "--qty", "0", "--db", str(db))
    assert r.returncode == 2 and "nothing to add" in r.stderr and not db.exists()
    wanted = run("collection", "add", "Thrust", "--qty", "0", "--want", "2", "--db", str(db))
    assert wanted.returncode == 0 and "2 wanted" in wanted.stdout


@pytest.mark.parametrize("fast", [True, False])
def test_tournament_out_dash_is_the_summary_csv_on_standard_output(cli_env, tmp_path, monkeypatch, fast):
    if not fast:
        monkeypatch.setenv("DECKCHECK_NO_FAST_PATH", "1")
    r = run("tournament", "check", str(DECKS), "--out", "-")
    written = run("tournament", "check", str(DECKS), "--out", str(tmp_path / "summary.csv"))
    assert r.returncode == written.returncode == 2  # examples/decks holds an unreadable deck
    assert r.stdout == (tmp_path / "summary.csv").read_text(encoding="utf-8")
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert len(rows) == len(list(DECKS.iterdir()))  # one row per decklist file
    assert {row["legal"] for row in rows} == {"legal", "NOT LEGAL", "unreadable"}
    both = run("tournament", "check", str(DECKS), "--out", "-", "--json")
    assert both.returncode == 2 and both.stdout == "" and "--out - and --json" in both.stderr


@pytest.mark.parametrize("reports,line", [
    ([Report("a", "type1e")], "1 deck: 1 legal, 0 not legal, 0 unreadable"),
    ([Report("a", "type1e"), Report("b", "type1e", input_errors=[InputProblem(1, "x", "unknown card")])],
     "2 decks: 1 legal, 0 not legal, 1 unreadable"),
])
def test_summary_grammar(reports, line):
    assert summary_line(reports) == line


def test_quiet_line_grammar():
    one = Report("d.txt", "type1e", issues=[Issue("HL-DECK-MIN", "error", "x"), Issue("X", "warning", "y")])
    assert quiet_line(one) == "d.txt: NOT LEGAL — 1 error, 1 warning"


def test_unknown_data_is_one_line_per_rule_in_the_terminal():
    issue = Issue("HL-DATA-UNKNOWN", "warning", "HL-RESTRICTED not verified: Restriction number unknown for 2 "
                  "cards: A, B", ("A", "B"))
    assert short_message(issue) == "HL-RESTRICTED not verified: Restriction number unknown for 2 cards"
    other = Issue("HL-TITLE-MAX", "error", "7 cards titled A: A", ("A",))
    assert short_message(other) == other.message


def test_control_characters_from_input_are_escaped():
    assert safe("Thrust\x1b[31m") == "Thrust\\x1b[31m" and safe("plain") == "plain"


def test_tournament_summary_has_a_first_error_column():
    from deckcheck.tournament import SUMMARY_COLUMNS, Tournament
    reports = [Report("ok.txt", "type1e"),
               Report("bad.txt", "type1e", issues=[Issue("HL-DECK-MIN", "error", "the Endurance holds 40 cards")]),
               Report("typo.txt", "type1e", input_errors=[InputProblem(4, "3 Uper Left Attack", "unknown card")])]
    rows = Tournament(reports).summary_rows()
    at = SUMMARY_COLUMNS.index("first error")
    assert [r[at] for r in rows] == ["", "HL-DECK-MIN: the Endurance holds 40 cards",
                                     "line 4: unknown card: 3 Uper Left Attack"]


@pytest.mark.parametrize("sep", [",", ";", "\t"])
@pytest.mark.parametrize("header", ["section,quantity,card,set", "Section,Qty,Card Name,Set Name",
                                    "section,Count,Name,Edition"])
def test_decklist_sheets_take_contract_headers_and_separators(tmp_path, sep, header):
    from deckcheck.importers.decklists import read_decklists
    path = tmp_path / "deck.csv"
    path.write_text(header.replace(",", sep) + "\n" + sep.join(["Endurance", "3", "Thrust", "ME"]) + "\n")
    (raw,) = read_decklists(path)
    assert raw.problems == [] and [(l.section, l.readings[0], l.set_code) for l in raw.lines] == [
        ("endurance", (3, "Thrust"), "ME")]


def test_an_input_error_on_a_line_ending_in_a_colon_has_one_colon():
    """`Rocks:` (an unknown heading) reads `line 2: Rocks: unknown heading ...`, not `Rocks:: ...`; other lines keep
    their separating colon."""
    from deckcheck.cli.plain import report_text
    report = Report("d.txt", "type1e")
    report.input_errors.append(InputProblem(2, "Rocks:", "unknown heading 'Rocks'"))
    report.input_errors.append(InputProblem(3, "3 Thrst", "unknown card"))
    text = report_text(report)
    assert "  line 2: Rocks: unknown heading 'Rocks'" in text
    assert "  line 3: 3 Thrst: unknown card" in text
    assert "::" not in text


def test_an_ambiguous_line_names_its_cards_once():
    """`write one of them: A, B` — the terminal said `write one of them (write one of: A, B)`; a line naming no card
    keeps `(did you mean: …)`."""
    from inproc import run_cli
    shown = run_cli("check", "-", stdin=b"Format: type1e\n2 Back Away\n3 Thrst\n")
    assert "write one of them: Amanda Back Away, Back Away (Annie Devlin)," in shown.text, shown.text
    assert "write one of:" not in shown.text
    assert "3 Thrst: unknown card (did you mean: Thrust," in shown.text
