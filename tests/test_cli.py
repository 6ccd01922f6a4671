"""The command line: exit codes, the JSON contract, every command documented and working."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import docs_pages
from inproc import run_cli

ROOT = Path(__file__).resolve().parent.parent
DECKS = ROOT / "examples" / "decks"


def run(*args, input: str | None = None, cwd=ROOT):
    exe = Path(sys.executable).with_name("deckcheck")
    return subprocess.run([str(exe), *args], capture_output=True, text=True, input=input, cwd=cwd)


def test_legal_deck_exits_0(cli_env, monkeypatch):
    monkeypatch.setenv("FORCE_TERMINAL", "1")  # the terminal's panel, with the grids drawn
    r = run("check", str(DECKS / "type1e-connor-legal.txt"))
    assert r.returncode == 0, r.stderr
    assert "LEGAL" in r.stdout and "Connor MacLeod" in r.stdout and "Basic Attacks cover" in r.stdout


def test_illegal_deck_exits_1_and_json_follows_the_contract(cli_env):
    r = run("check", str(DECKS / "type1e-kurgan-illegal.txt"), "--json")
    assert r.returncode == 1, r.stderr
    report = json.loads(r.stdout)
    assert list(report) == ["deck", "format", "legal", "persona", "counts", "issues", "input_errors", "notices",
                            "unverified"]
    assert report["legal"] is False and report["persona"] == "The Kurgan"
    assert report["counts"] == {"Pre-Game": 2, "Endurance": 58}
    title = next(i for i in report["issues"] if i["rule"] == "HL-TITLE-MAX")
    assert title == {"rule": "HL-TITLE-MAX", "severity": "error",
                     "message": "7 cards titled Back Away; at most 6 are allowed",
                     "cards": ["The Kurgan Back Away", "Back Away (Kern)"], "limit": 6, "actual": 7,
                     "fix": "remove 1 Back Away"}


def test_unreadable_deck_exits_2_with_input_errors(cli_env):
    r = run("check", str(DECKS / "type1e-typo.txt"), "--json")
    assert r.returncode == 2
    report = json.loads(r.stdout)
    assert report["legal"] is None and report["issues"] == []
    first = report["input_errors"][0]
    assert (first["line"], first["text"], first["message"]) == (4, "3 Uper Left Attack", "unknown card")
    assert first["suggestions"][0] == "Upper Left Attack"


def test_several_decks_one_json_line_each_worst_exit(cli_env):
    r = run("check", str(DECKS / "type1e-connor-legal.txt"), str(DECKS / "type1e-kurgan-illegal.txt"), "--json")
    assert r.returncode == 1
    assert [json.loads(line)["legal"] for line in r.stdout.splitlines()] == [True, False]


def test_standard_input_and_format_option(cli_env):
    text = (DECKS / "type2-duncan-katana.txt").read_text()
    r = run("check", "-", "--format", "2e", "--json", input=text)
    assert r.returncode == 0, r.stdout + r.stderr
    assert json.loads(r.stdout)["format"] == "type2"


def test_unknown_format_exits_2(cli_env):
    r = run("check", str(DECKS / "type1e-connor-legal.txt"), "--format", "vintage")
    assert r.returncode == 2 and "unknown format 'vintage'" in r.stderr


def test_missing_file_is_a_report_not_a_crash(cli_env):
    r = run("check", "nope.txt", "--json")
    assert r.returncode == 2
    assert "no such file" in json.loads(r.stdout)["input_errors"][0]["message"]


def test_bad_card_sheet_exits_2_naming_row_column_value(cli_env, tmp_path):
    sheet = tmp_path / "bad.csv"
    sheet.write_text("name,grid\nGood,UL\nBad,ZZ\n")
    r = run("check", str(DECKS / "type1e-connor-legal.txt"), "--cards", str(sheet))
    assert r.returncode == 2
    assert "row 3, column 'grid', value 'ZZ'" in r.stderr


def test_cards_overlay_for_this_run_only(cli_env, tmp_path):
    sheet = tmp_path / "restrict.csv"
    sheet.write_text("id,name,type,basic,grid,restriction,edition,set,Price\n"
                     "SE-thrust,Thrust,Attack,yes,MC,2,1,SE,0.50\n")
    deck = tmp_path / "d.txt"
    # the override makes SE's Thrust differ from TIN's: the set must now be named
    deck.write_text((DECKS / "type1e-generic-legal.txt").read_text().replace("3 Thrust", "3 Thrust [SE]"))
    r = run("check", str(deck), "--cards", str(sheet), "--json")
    report = json.loads(r.stdout)
    assert r.returncode == 1 and "ignored unknown column(s): Price" in r.stderr
    assert [i["rule"] for i in report["issues"] if i["severity"] == "error"] == ["HL-RESTRICTED"]
    assert run("check", str(deck)).returncode == 0


def test_formats_lists_every_rule(cli_env):
    r = run("formats")
    assert r.returncode == 0
    for rule in ("HL-DECK-MIN", "HL1-BASIC-ATTACKS", "HL2-GEMS", "HL2-WATCHER-HUNTER"):
        assert rule in r.stdout


def test_cards_show_draws_the_grid(cli_env):
    r = run("cards", "show", "Upper Left Block (2)")
    assert r.returncode == 0
    assert "grid (inferred)" in r.stdout and "■ ■ ·" in r.stdout
    assert "Restriction" in r.stdout and "unknown" in r.stdout


def test_cards_show_unknown_name(cli_env):
    r = run("cards", "show", "Conor MacLeod Persona")
    assert r.returncode == 2 and "Connor MacLeod Persona" in r.stderr


def test_cards_stats_tells_known_and_unknown(cli_env):
    r = run("cards", "stats")
    assert r.returncode == 0
    assert "1491 cards" in r.stdout
    assert "restriction" in r.stdout and "0%" in r.stdout


def test_cards_lint_finds_gridless_attacks(cli_env):
    r = run("cards", "lint", "--limit", "500")
    assert r.returncode == 1 and "Attack with no grid" in r.stdout and "no Master allowance" in r.stdout


def test_cards_import_export_commands(tmp_path, monkeypatch):
    monkeypatch.setenv("DECKCHECK_DB", str(tmp_path / "x.db"))
    sheet = tmp_path / "c.xlsx"
    assert run("cards", "export", str(sheet)).returncode == 0
    r = run("cards", "import", str(sheet))
    assert r.returncode == 0 and "added 0, updated 0, unchanged 1491" in r.stdout
    bad = tmp_path / "bad.csv"
    bad.write_text("name,deckbuilding\nA,\nB,warp=2\n")
    r = run("cards", "import", str(bad))
    assert r.returncode == 2 and "row 3" in r.stderr and "nothing was imported" in r.stderr
    r = run("cards", "import", str(bad), "--skip-bad")
    assert r.returncode == 2 and "added 1" in r.stdout


def _commands(app, prefix=()):
    import typer.main
    group = typer.main.get_command(app)
    out = []

    def walk(cmd, path):
        subs = getattr(cmd, "commands", None)
        if subs:
            for name, sub in subs.items():
                walk(sub, path + (name,))
        else:
            out.append(" ".join(path))
    walk(group, prefix)
    return out


def test_every_command_is_in_the_readme():
    from deckcheck.cli.commands import app
    readme = docs_pages.text()
    missing = [c for c in _commands(app) if f"deckcheck {c}" not in readme]
    assert not missing, f"commands not documented in README.md or docs/: {missing}"


def test_every_command_has_help():
    """Every command's --help in this process (tests/inproc.py: the same main(), exit code and output), and the
    installed program's for the first command, which goes through the console script's entry point."""
    from deckcheck.cli.commands import app
    commands = _commands(app)
    r = run(*commands[0].split(), "--help")
    assert r.returncode == 0 and "Usage" in r.stdout, commands[0]
    for command in commands:
        ran = run_cli(*command.split(), "--help")
        assert ran.crash is None and ran.code == 0 and "Usage" in ran.text, (command, ran.crash, ran.err)


PARITY = [
    ["check", "examples/decks/type1e-connor-legal.txt"],
    ["check", "examples/decks/type1e-kurgan-illegal.txt", "--json"],
    ["check", "examples/decks/", "--format", "type2", "--json"],
    ["check", "examples/decks/type1e-typo.txt", "-f", "1e"],
    ["check", "--json", "--format=type1e", "examples/decks/type1e-methos.json"],
    ["check", "examples/cards/type2-my-cards.txt", "--cards", "examples/cards/my-2e-cards.csv", "--json"],
    ["check", "examples/decks/type1e-connor-legal.txt", "--format", "nope"],
    ["check", "missing.txt"],
    ["tournament", "check", "examples/tournament/", "--json"],
    ["tournament", "check", "examples/tournament/registration.csv", "-f", "type1e"],
]


@pytest.mark.parametrize("args", PARITY, ids=[" ".join(a[1:])[:40] for a in PARITY])
def test_fast_path_and_typer_agree(cli_env, args, monkeypatch):
    """Both front ends on the same arguments, in this process (tests/inproc.py: the same main(), exit code and
    streams); the installed program's own fast path is test_legal_deck_exits_0's and the next test's."""
    monkeypatch.chdir(ROOT)
    fast = run_cli(*args)
    monkeypatch.setenv("DECKCHECK_NO_FAST_PATH", "1")
    slow = run_cli(*args)
    assert fast.crash is None and slow.crash is None, fast.crash or slow.crash
    assert (fast.code, fast.out, fast.err) == (slow.code, slow.out, slow.err)


def test_fast_path_does_not_import_typer(cli_env):
    code = ("import sys; from deckcheck import cli\n"
            "try:\n    cli.main(['check', 'examples/decks/type1e-connor-legal.txt', '--json'])\n"
            "except SystemExit as e:\n    print('exit', e.code, 'typer' in sys.modules, 'sqlalchemy' in sys.modules,"
            " file=sys.stderr)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.stderr.strip().endswith("exit 0 False False"), r.stderr


def test_commands_do_not_call_back_into_the_fast_path():
    """commands (typer) and the fast path (argparse, cli/entry.py) share deckcheck.cli.runner; commands imports
    nothing of the entry module."""
    import ast
    tree = ast.parse((ROOT / "deckcheck" / "cli" / "commands.py").read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert "runner" in imported and not imported & {"entry", "deckcheck.cli.entry"}


def test_check_usage_errors_go_to_typer(cli_env):
    r = run("check")
    assert r.returncode == 2 and "Missing argument" in r.stderr
    r = run("check", "--bogus", "x.txt")
    assert r.returncode == 2 and "No such option" in r.stderr


def test_check_options_are_declared_once_for_both_front_ends():
    """`check` and `tournament check`: the typer commands and the argparse fast path take the options of
    deckcheck.cli.options, flag for flag."""
    import typer.main

    from deckcheck.cli import options
    from deckcheck.cli.commands import app
    from deckcheck.cli.options import argparse_parser
    group = typer.main.get_command(app)
    for path, table in ((["check"], options.CHECK), (["tournament", "check"], options.TOURNAMENT_CHECK)):
        command = group
        for word in path:
            command = command.commands[word]  # type: ignore[attr-defined]
        typer_flags = {f for p in command.params for f in getattr(p, "opts", []) if f.startswith("-")}
        parser = argparse_parser("x", "decks", table)
        argparse_flags = {f for a in parser._actions for f in a.option_strings}
        assert typer_flags == argparse_flags == set(options.flags(table)), path
        helps = {p.name: getattr(p, "help", None) for p in command.params}
        assert all(helps[name] == table[name].help for name in table), path
