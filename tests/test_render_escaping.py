"""User text on the terminal: shown as written (rich markup not read), control characters as escapes."""
from __future__ import annotations

import io

import pytest
from rich.console import Console

from deckcheck.cli.render import clean, esc, report_panel, simple_table
from deckcheck.report import InputProblem, Issue, Report
from inproc import run_cli

NASTY = "[bold]x[/bold] [/x] [link=file:///etc]y[/link] \x1b]0;title\x07\x1b[31mred\x1b[0m \x9b2J \u202eevil\r over"


def rendered(renderable) -> str:
    out = io.StringIO()
    Console(file=out, width=300, highlight=False, color_system=None).print(renderable)
    return out.getvalue()


def test_clean_shows_control_characters_as_escapes():
    assert clean("a\x1b[31mb\x07c\rd\x9b\u202ee\ud800") == "a\\x1b[31mb\\x07c\\rd\\x9b\\u202ee\\ud800"
    assert clean("Upper Left Attack (1)\tx\ny") == "Upper Left Attack (1)\tx\ny"
    assert esc("[bold]x") == "\\[bold]x"


def test_report_panel_shows_user_text_as_written():
    report = Report(deck=f"decks/{NASTY}.txt", format="type1e", player="[red]Ann", input_errors=[
        InputProblem(3, NASTY, "unknown card", ("[b]Thrust",))])
    text = rendered(report_panel(report))
    for part in ("[bold]x[/bold]", "[/x]", "[link=file:///etc]", "[red]Ann", "[b]Thrust", "\\x1b]0;title\\x07",
                 "\\x9b2J", "\\u202eevil", "\\r over"):
        assert part in text, part
    assert not any(ch in text for ch in "\x1b\x07\x9b\u202e\r")
    issue = Report(deck="d", format="type1e", issues=[Issue("HL-X", "error", NASTY, (NASTY,), 1, 2, NASTY)])
    assert rendered(report_panel(issue)).count("[/x]") >= 2


def test_simple_table_cells_and_title():
    text = rendered(simple_table(f"match {NASTY}", ("a", "b"), [(NASTY, 1), (None, "[/]")]))
    assert text.count("[/x]") == 2 and "[/]" in text and "\x1b" not in text


@pytest.mark.parametrize("name", ["[/x]", "[bold]binder", "b\x1b[2Jx"])
def test_collection_names_and_notes_with_markup(tmp_path, monkeypatch, name):
    monkeypatch.setenv("DECKCHECK_DB", f"sqlite:///{tmp_path / 'c.db'}")
    monkeypatch.setenv("COLUMNS", "200")
    r = run_cli("collection", "add", "Thrust (2)", "--collection", name, "--notes", name, "--location", name)
    assert r.crash is None and r.code == 0, (r.crash, r.err)
    for args in (("collection", "list", "--collection", name), ("collection", "stats", "--collection", name),
                 ("collection", "list", "--collection", name, "--filter", name)):
        r = run_cli(*args)
        assert r.crash is None and r.code == 0, (args, r.crash, r.err)
        assert clean(name).encode() in r.out and b"\x1b" not in r.out, (args, r.out)
    sheet = tmp_path / "c.csv"
    sheet.write_text(f"card,quantity,notes\nThrust (2),2,{name}\n")
    r = run_cli("collection", "import", str(sheet), "--collection", name)
    assert r.crash is None and r.code == 0, (r.crash, r.err)
