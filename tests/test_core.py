"""The core imports only the standard library; formats are found by alias; reports derive legality."""
from __future__ import annotations

import subprocess
import sys

import pytest

from deckcheck.errors import UnknownFormatError
from deckcheck.games import get_format
from deckcheck.report import Issue, Report


def test_core_imports_no_io_libraries():
    code = ("import sys, deckcheck, deckcheck.check, deckcheck.formats, deckcheck.cardsheet, deckcheck.cardstats;"
            "deckcheck.all_formats();"
            "bad = [m for m in ('sqlalchemy', 'sqlmodel', 'pandas', 'openpyxl', 'typer', 'rich', 'xlsxwriter',"
            " 'python_calamine') if m in sys.modules]; print(bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_core_modules_import_only_the_standard_library():
    import ast
    from pathlib import Path
    core = Path(__file__).resolve().parent.parent / "deckcheck"
    stdlib = set(sys.stdlib_module_names)
    for path in core.rglob("*.py"):
        if path.relative_to(core).parts[0] in ("library", "cli"):  # library calls and skin: tests/test_layers.py
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in stdlib or top == "deckcheck", f"{path.name} imports {name}"


@pytest.mark.parametrize("alias,name", [("TYPE1E", "type1e"), ("1e", "type1e"), ("Type 2", "type2"),
                                        ("2E", "type2"), ("t2", "type2")])
def test_formats_by_alias(alias, name):
    assert get_format(alias).name == name


def test_unknown_format():
    with pytest.raises(UnknownFormatError, match="unknown format 'modern'; known formats: type1e, type2"):
        get_format("modern")


def test_legal_is_derived():
    report = Report("d", "type1e")
    assert report.legal is True and report.exit_code == 0
    report.issues.append(Issue("HL2-SLEEVES", "warning", "w"))
    assert report.legal is True
    report.issues.append(Issue("HL-DECK-MIN", "error", "e"))
    assert report.legal is False and report.exit_code == 1
    from deckcheck.report import InputProblem
    report.input_errors.append(InputProblem(1, "x", "unknown card"))
    assert report.legal is None and report.exit_code == 2


def test_a_check_finds_its_format_and_game_in_the_registry_it_is_given():
    """check_raw and validate take a Registry: a registry without Highlander knows no type2, the default one does."""
    from deckcheck.check import check_raw, choose_format, validate
    from deckcheck.decks import Deck
    from deckcheck.games import BUILT_IN, parse_text
    from deckcheck.registry import Registry
    from deckcheck.report import UNKNOWN_FORMAT
    others = Registry(tuple(g for g in BUILT_IN if g.name != "highlander"), default_format="raven")
    raw = parse_text("Format: type2\n")

    def no_index(fmt):
        raise AssertionError("no format, so no card is looked up")
    report = check_raw(raw, no_index, games=others)
    assert [e.kind for e in report.input_errors] == [UNKNOWN_FORMAT] and report.legal is None
    assert choose_format(raw, None).name == "type2"
    assert choose_format(parse_text("1 Card\n"), None, others).game != "highlander"
    with pytest.raises(UnknownFormatError):
        validate(Deck(source="d.txt", entries=[]), "type2", others)
